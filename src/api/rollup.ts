// The spec's rollup rule for a check result's badge, in one place: the CLI, the Check Results view and the
// explorer's badges all call it. No zod and no I/O here, so the extension's activation bundle can carry it.

export type RollupOutcome = 'pass' | 'fail' | 'warning' | 'info';

export interface Badge {
  color: 'red' | 'orange' | 'green' | 'gray';
  /** The count on the badge; absent for an Info badge and for an explicit outcome. */
  count?: number;
  /** What the badge says: the count, "Info", or the explicit outcome. */
  label: string;
}

const COLOR_OF: Record<RollupOutcome, Badge['color']> = { fail: 'red', warning: 'orange', pass: 'green', info: 'gray' };

/**
 * The spec's rollup (it applies only when the result's outcome is null; an explicit outcome overrides it):
 * no findings → no badge; any fail → red with the count of fail + warning; else any warning → orange with the
 * count of warnings; else any pass → green with the count of passes; only info → gray "Info".
 */
export function rollup(outcome: RollupOutcome | null | undefined, findings: readonly { outcome?: RollupOutcome | null }[]): Badge | undefined {
  if (outcome) return { color: COLOR_OF[outcome], label: outcome[0].toUpperCase() + outcome.slice(1) };
  if (!findings.length) return undefined;
  let fail = 0;
  let warning = 0;
  let pass = 0;
  for (const f of findings) {
    if (f.outcome === 'fail') fail++;
    else if (f.outcome === 'warning') warning++;
    else if (f.outcome === 'pass') pass++;
  }
  if (fail) return { color: 'red', count: fail + warning, label: String(fail + warning) };
  if (warning) return { color: 'orange', count: warning, label: String(warning) };
  if (pass) return { color: 'green', count: pass, label: String(pass) };
  return { color: 'gray', label: 'Info' };
}
