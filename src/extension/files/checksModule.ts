// Check publishing and the Check Results view's reads. Bundled apart as dist/files.js and loaded on first use:
// the `.dam-check.json` parser and the spec's rollup come with zod, which activation should not pay for.
// No `vscode` here: the extension side turns these answers into prompts, tree items and messages.
import type { DamClient } from '../../api/client';
import { parseCheckFile } from '../../api/checkFile';
import { rollup, type Badge, type CheckResult, type CheckRun, type Finding } from '../../api/checks';

export type PublishMode = 'publish' | 'start' | 'finish';

export interface PublishAnswer {
  mode: PublishMode;
  resultId: string;
  checkName: string;
  findings: number;
  badge: Badge | undefined;
}

export interface ResultView {
  id: string;
  checkName: string;
  checkId: string;
  outcome: CheckResult['outcome'];
  description: string;
  createdOn: string | undefined;
  badge: Badge | undefined;
  findings: Finding[];
  /** An `info` result saying the check is still running (slow-check pattern, part 1). */
  inProgress: boolean;
}

const IN_PROGRESS = /in progress/i;

/** Parses a `.dam-check.json` text (the error names the field at fault). */
export function readCheckFile(text: string): CheckRun {
  return parseCheckFile(text);
}

/** The version to publish to: given, or the newest version of the record's master file. */
export async function versionOfRecord(client: DamClient, recordId: string, signal?: AbortSignal): Promise<string> {
  const version = await client.files.latestVersion(recordId, { signal });
  if (!version) throw new Error(`Record ${recordId} has no file version to attach a check result to; upload a file to it first.`);
  return String(version.id);
}

/** The latest result of the run's check on the version when it is an unfinished slow check. */
export async function inProgressResult(client: DamClient, versionId: string, run: CheckRun, signal?: AbortSignal): Promise<CheckResult | undefined> {
  const check = (await client.checks.list(signal)).find((c) => c.name.toLowerCase() === run.check.toLowerCase());
  if (!check) return undefined;
  const latest = await client.checks.latest(versionId, check.id, signal);
  return latest && latest.outcome === 'info' && IN_PROGRESS.test(latest.description) ? latest : undefined;
}

/**
 * Publishes one run: as a new result (`publish`), as the "in progress" result of a slow check (`start`), or as
 * the final outcome of the slow check's in-progress result (`finish`).
 */
export async function publishRun(client: DamClient, versionId: string, run: CheckRun, mode: PublishMode, signal?: AbortSignal): Promise<PublishAnswer> {
  if (mode === 'start') {
    const { result, check } = await client.checks.start(versionId, run.check, run.category, undefined, signal);
    return { mode, resultId: result.id, checkName: check.name, findings: 0, badge: rollup(result.outcome, []) };
  }
  if (mode === 'finish') {
    const open = await inProgressResult(client, versionId, run, signal);
    if (!open) throw new Error(`No in-progress result of '${run.check}' on version ${versionId} to finish; publish a new result instead.`);
    const { result, findings } = await client.checks.finish(versionId, open.id, run, signal);
    return { mode, resultId: result.id, checkName: run.check, findings: findings.length, badge: rollup(result.outcome, findings) };
  }
  const { result, findings, check } = await client.checks.publish(versionId, run, signal);
  return { mode, resultId: result.id, checkName: check.name, findings: findings.length, badge: rollup(result.outcome, findings) };
}

/** Every check result of a version, newest first, with its findings and the spec's rollup badge. */
export async function loadResults(client: DamClient, versionId: string, signal?: AbortSignal): Promise<ResultView[]> {
  const [results, checks] = await Promise.all([client.checks.results(versionId, signal), client.checks.list(signal)]);
  const names = new Map(checks.map((c) => [c.id.toLowerCase(), c.name]));
  const views = await Promise.all(
    results.map(async (r): Promise<ResultView> => {
      const findings = await client.checks.findings(versionId, r.id, signal);
      return {
        id: r.id,
        checkName: names.get(r.checkId.toLowerCase()) ?? 'Unnamed check',
        checkId: r.checkId,
        outcome: r.outcome,
        description: r.description,
        createdOn: r.createdOn,
        badge: rollup(r.outcome, findings),
        findings: [...findings].sort((a, b) => a.occurrence - b.occurrence),
        inProgress: r.outcome === 'info' && IN_PROGRESS.test(r.description) && findings.length === 0,
      };
    }),
  );
  return views.sort((a, b) => (b.createdOn ?? '').localeCompare(a.createdOn ?? ''));
}
