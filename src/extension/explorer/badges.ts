// Check-result badges: the spec's rollup rule for one result, and how several results combine into the
// badge of a file version (and of a record, through its newest master version). No `vscode` here, so the
// rule is unit-tested outside VS Code.
import { rollup } from '../../api/rollup';
import type { CheckResultView, Outcome } from './nodes';

export type BadgeColor = 'red' | 'orange' | 'green' | 'gray';

export interface Badge {
  color: BadgeColor;
  /** The count the spec puts on the badge; undefined for an Info badge or an explicit outcome without findings. */
  count: number | undefined;
  /** What the tooltip says. */
  label: string;
  /** The check whose result this is, named in a combined badge's tooltip. */
  check?: string;
}

const RANK: Record<BadgeColor, number> = { red: 3, orange: 2, green: 1, gray: 0 };

export function isOutcome(value: unknown): value is Outcome {
  return value === 'pass' || value === 'fail' || value === 'warning' || value === 'info';
}

/**
 * The badge of one check result: colour and count by the spec's rollup (`rollup()`, shared with the CLI and
 * the Check Results view), with a label for the tooltip that names what was counted.
 */
export function resultBadge(result: Pick<CheckResultView, 'outcome' | 'findings'> & { checkName?: string | undefined }): Badge | undefined {
  const badge = rollup(result.outcome, result.findings);
  if (!badge) return undefined;
  const check = result.checkName ? { check: result.checkName } : {};
  if (result.outcome) return { color: badge.color, count: undefined, label: result.outcome === 'info' ? 'Info' : result.outcome, ...check };
  const count = (o: Outcome) => result.findings.filter((f) => f.outcome === o).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const label =
    badge.color === 'red' ? `${count('fail')} failed, ${plural(count('warning'), 'warning')}` : badge.color === 'orange' ? plural(count('warning'), 'warning') : badge.color === 'green' ? `${count('pass')} passed` : 'Info';
  return { color: badge.color, count: badge.count, label, ...check };
}

/** The badge of several results (a version's): the most severe colour, counting over the results of that colour. */
export function combineBadges(badges: readonly (Badge | undefined)[]): Badge | undefined {
  const present = badges.filter((b): b is Badge => b !== undefined);
  if (present.length === 0) return undefined;
  const color = present.reduce<BadgeColor>((worst, b) => (RANK[b.color] > RANK[worst] ? b.color : worst), 'gray');
  const same = present.filter((b) => b.color === color);
  const counts = same.map((b) => b.count).filter((n): n is number => n !== undefined);
  const count = counts.length ? counts.reduce((a, b) => a + b, 0) : undefined;
  // Each check named by what it found: a hover that only counted ("2 checks: 1 failed…; 1 failed…") did not say which.
  const named = (b: Badge) => (b.check ? `${b.check}: ${b.label}` : b.label);
  const label = same.length === 1 ? (present.length > 1 ? named(same[0]) : same[0].label) : `${same.length} checks: ${same.map(named).join('; ')}`;
  return { color, count, label, ...(same.length === 1 && same[0].check ? { check: same[0].check } : {}) };
}

/** The text VS Code shows on the item (at most two characters). */
export function badgeText(badge: Badge): string {
  if (badge.count === undefined) return badge.color === 'gray' ? 'i' : badge.color === 'green' ? '✓' : '!';
  return badge.count > 99 ? '99' : String(badge.count);
}

/** What a badge's character and colour mean, in words (the legend, for its tooltip and the record's hover). */
export function badgeMeaning(badge: Badge): string {
  const text = badgeText(badge);
  if (badge.color === 'gray') return 'i: information only, nothing passed or failed';
  if (badge.count === undefined) return badge.color === 'red' ? '! in red: a check failed' : badge.color === 'orange' ? '! in orange: a check warned' : '✓ in green: the checks passed';
  if (badge.color === 'red') return `${text} in red: a check failed; the number counts failures and warnings`;
  if (badge.color === 'orange') return `${text} in orange: warnings, nothing failed; the number counts warnings`;
  return `${text} in green: the checks passed; the number counts passes`;
}
