// Check-result badges: the spec's rollup rule for one result, and how several results combine into the
// badge of a file version (and of a record, through its newest master version). No `vscode` here, so the
// rule is unit-tested outside VS Code.
import type { CheckResultView, Outcome } from './nodes';

export type BadgeColor = 'red' | 'orange' | 'green' | 'gray';

export interface Badge {
  color: BadgeColor;
  /** The count the spec puts on the badge; undefined for an Info badge or an explicit outcome without findings. */
  count: number | undefined;
  /** What the tooltip says. */
  label: string;
}

const RANK: Record<BadgeColor, number> = { red: 3, orange: 2, green: 1, gray: 0 };
const COLOR_OF: Record<Outcome, BadgeColor> = { fail: 'red', warning: 'orange', pass: 'green', info: 'gray' };

export function isOutcome(value: unknown): value is Outcome {
  return value === 'pass' || value === 'fail' || value === 'warning' || value === 'info';
}

/**
 * The badge of one check result. The rollup applies only when `outcome` is null: any fail is red with
 * the count of fail + warning findings, else any warning is orange with the count of warnings, else any
 * pass is green with the count of passes, else (only info) gray "Info"; no findings, no badge.
 * An explicit outcome overrides the rollup: its colour, with the findings of that colour counted.
 */
export function resultBadge(result: Pick<CheckResultView, 'outcome' | 'findings'>): Badge | undefined {
  const count = (o: Outcome) => result.findings.filter((f) => f.outcome === o).length;
  const fail = count('fail');
  const warning = count('warning');
  const pass = count('pass');
  if (result.outcome) {
    const color = COLOR_OF[result.outcome];
    const n = color === 'red' ? fail + warning : color === 'orange' ? warning : color === 'green' ? pass : 0;
    return { color, count: n > 0 ? n : undefined, label: result.outcome === 'info' ? 'Info' : `${result.outcome}${n > 0 ? ` (${n})` : ''}` };
  }
  if (result.findings.length === 0) return undefined;
  if (fail > 0) return { color: 'red', count: fail + warning, label: `${fail} failed, ${warning} warning${warning === 1 ? '' : 's'}` };
  if (warning > 0) return { color: 'orange', count: warning, label: `${warning} warning${warning === 1 ? '' : 's'}` };
  if (pass > 0) return { color: 'green', count: pass, label: `${pass} passed` };
  return { color: 'gray', count: undefined, label: 'Info' };
}

/** The badge of several results (a version's): the most severe colour, counting over the results of that colour. */
export function combineBadges(badges: readonly (Badge | undefined)[]): Badge | undefined {
  const present = badges.filter((b): b is Badge => b !== undefined);
  if (present.length === 0) return undefined;
  const color = present.reduce<BadgeColor>((worst, b) => (RANK[b.color] > RANK[worst] ? b.color : worst), 'gray');
  const same = present.filter((b) => b.color === color);
  const counts = same.map((b) => b.count).filter((n): n is number => n !== undefined);
  const count = counts.length ? counts.reduce((a, b) => a + b, 0) : undefined;
  const label = same.length === 1 ? same[0].label : `${same.length} checks: ${same.map((b) => b.label).join('; ')}`;
  return { color, count, label };
}

/** The text VS Code shows on the item (at most two characters). */
export function badgeText(badge: Badge): string {
  if (badge.count === undefined) return badge.color === 'gray' ? 'i' : badge.color === 'green' ? '✓' : '!';
  return badge.count > 99 ? '99' : String(badge.count);
}
