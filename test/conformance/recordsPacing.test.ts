// `dam records update --query` paces itself for the tenant (issue 29): against an emulator enforcing a tight tenant
// (--tenant-limits at 5 requests/s and a small queue) every record is changed with no failure from 429, the client
// slowing down rather than retrying into a storm; with the client's pacing turned off the same run meets 429s (the
// queue overflows) and still ends with every record changed, each 429'd record retried rather than counted failed.
import { strict as assert } from 'node:assert';
import { describeEachBackend, runDam, type Env } from './helpers';
import type { BulkReport } from '../../src/api/bulkRunner';
import { CLI_USER_AGENT } from '../../src/cli/connection';
import { z } from 'zod';

const RECORDS = 30;

interface JournalItem {
  method: string;
  path: string;
  status: number;
  client: string | null;
}

async function cliRequests(url: string): Promise<JournalItem[]> {
  const res = await fetch(`${url}/_emulator/requests?limit=1000`);
  assert.equal(res.status, 200);
  return ((await res.json()) as { items: JournalItem[] }).items.filter((e) => e.client === CLI_USER_AGENT);
}

/** A text field to set on every record (one request, before any run). */
async function batchField(env: Env): Promise<void> {
  await env.client({ retry: { retries: 8 } }).http.request({ method: 'POST', path: '/fielddefinition', json: { name: 'Batch', dataType: 'SingleLineText' }, schema: z.looseObject({ id: z.string() }) });
}

async function updateAll(env: Env, value: string, extra: string[]): Promise<{ code: number; report: BulkReport; stderr: string }> {
  const run = await runDam(['records', 'update', '--query', '*', '--set', `Batch=${value}`, '--json', ...extra], { DAM_URL: env.url });
  const report = JSON.parse(run.stdout) as BulkReport;
  return { code: run.code, report, stderr: run.stderr };
}

/** A dry run of the same edit, read back from the emulator: what is left to change. */
async function leftToChange(env: Env, value: string): Promise<{ items: number; unchanged: number }> {
  const dry = await runDam(['records', 'update', '--query', '*', '--set', `Batch=${value}`, '--dry-run', '--json'], { DAM_URL: env.url });
  assert.equal(dry.code, 0, dry.stderr);
  const plan = JSON.parse(dry.stdout) as { changing: number; unchanged: number };
  return { items: plan.changing, unchanged: plan.unchanged };
}

describeEachBackend('dam records update against a tight tenant (--tenant-limits, 5 requests/s, a queue of 2)', { seed: 'empty', records: RECORDS, tenantLimits: { enforce: true, rate: 5, queue: 2 } }, (env) => {
  before(() => batchField(env()));

  it('with the default pacing: every record changed, no failure from 429, and only a few 429s on the way', async () => {
    const { code, report, stderr } = await updateAll(env(), 'paced', []);
    assert.equal(code, 0, stderr);
    assert.deepEqual(report.failed, []);
    assert.equal(report.changed.length, RECORDS);
    assert.deepEqual(await leftToChange(env(), 'paced'), { items: 0, unchanged: RECORDS });
    const cli = await cliRequests(env().url);
    const throttled = cli.filter((e) => e.status === 429).length;
    // The client starts at 10 requests/s against a tenant serving 5: a 429 halves its rate, so a handful at most.
    assert.ok(throttled <= 6, `${throttled} answers 429 of ${cli.length}: the client was not slowed down`);
    assert.ok(cli.every((e) => e.status < 400 || e.status === 429), cli.filter((e) => e.status >= 400).map((e) => `${e.status} ${e.method} ${e.path}`).join(', '));
  });
});

describeEachBackend('dam records update with pacing off against a tiny queue (--tenant-limits, 5 requests/s, a queue of 0)', { seed: 'empty', records: RECORDS, tenantLimits: { enforce: true, rate: 5, queue: 0 } }, (env) => {
  before(() => batchField(env()));

  it('meets 429s and still ends with every record changed: each 429 waited out and retried, none counted failed', async () => {
    const { code, report, stderr } = await updateAll(env(), 'unpaced', ['--max-rate', '0', '--max-in-flight', '0', '--concurrency', '8']);
    const puts = (await cliRequests(env().url)).filter((e) => e.method === 'PUT');
    assert.ok(puts.some((e) => e.status === 429), 'the unpaced run was never refused: the queue did not overflow');
    assert.equal(code, 0, stderr);
    assert.deepEqual(report.failed, []);
    assert.equal(report.changed.length, RECORDS);
    assert.deepEqual(await leftToChange(env(), 'unpaced'), { items: 0, unchanged: RECORDS });
  });
});
