// The analytics panel's extension-side code (pager and exporter, free of `vscode`) against the demo tenant:
// time to the first rows of the table and to export 50,000 rows to CSV, beside the CLI's
// `dam analytics run --all --csv` of the same query written to a file, measured in the same run.
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../src/emulator/server';
import { DamClient } from '../src/api/client';
import { UNPACED } from '../src/api/pacing';
import { EMULATOR_CLIENT, emulatorProfile } from '../src/api/endpoints';
import { main as dam } from '../src/cli/main';
import { exportRows, ResultPager, TABLE_PAGE_SIZE } from '../src/extension/analytics/resultPages';
import type { AnalyticsQuery } from '../src/core/analytics';
import { median, printRow } from './stats';

const RUNS = 5;
const EXPORT_ROWS = 50_000;
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = process.hrtime.bigint();
  const out = await fn();
  return [Number(process.hrtime.bigint() - t) / 1e6, out];
}

async function main() {
  const emulator = await startEmulator({ seed: 'demo', port: 0, data: ':memory:' });
  const dir = await mkdtemp(join(tmpdir(), 'dam-bench-analytics-'));
  try {
    const client = new DamClient({ profile: emulatorProfile(emulator.url), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, pacing: UNPACED, userAgent: 'dam-bench/1' });
    // Views per record, user and day: nearly one row per view event of the demo tenant.
    const base: AnalyticsQuery = {
      measures: ['Views.count'],
      dimensions: ['Views.recordId', 'Views.userId'],
      timeDimensions: [{ dimension: 'Views.viewDate', granularity: 'day' }],
      order: { 'Views.viewDate.day': 'asc', 'Views.recordId': 'asc', 'Views.userId': 'asc' },
    };
    let total = 0;
    for await (const page of client.analytics.pages(base)) total += page.length;
    if (total < EXPORT_ROWS) throw new Error(`the query has only ${total} rows, fewer than ${EXPORT_ROWS}`);
    // The last 50,000 rows: the CLI's --all and the exporter both page from the offset to the end.
    const query: AnalyticsQuery = { ...base, offset: total - EXPORT_ROWS };
    const file = join(dir, 'query.dam-analytics.json');
    await writeFile(file, JSON.stringify(query));
    console.log(`demo tenant: the query has ${total.toLocaleString('en-US')} rows; exporting the last ${EXPORT_ROWS.toLocaleString('en-US')}`);

    /** The pager's first page; `fresh` signs in first, as the CLI does on every run. */
    const panelFirst = async (fresh = false) => {
      const c = fresh ? new DamClient({ profile: emulatorProfile(emulator.url), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, pacing: UNPACED, userAgent: 'dam-bench/1' }) : client;
      const pager = new ResultPager(c.analytics, query, TABLE_PAGE_SIZE);
      const [t, page] = await timed(() => pager.next());
      pager.dispose();
      if (page?.rows.length !== TABLE_PAGE_SIZE) throw new Error('short first page');
      return t;
    };
    /** The CLI in-process, stdout to a file, timing its first row and its end. */
    const cli = async (out: string) => {
      const sink = createWriteStream(out);
      let first = 0;
      const t0 = process.hrtime.bigint();
      const stdout = new PassThrough();
      stdout.once('data', () => (first = Number(process.hrtime.bigint() - t0) / 1e6));
      stdout.pipe(sink);
      const stderr = new PassThrough();
      stderr.resume();
      const code = await dam(['analytics', 'run', file, '--all', '--csv', '--url', emulator.url], { stdout, stderr, env: { DAM_CLIENT_SECRET: EMULATOR_CLIENT.clientSecret }, signal: new AbortController().signal });
      stdout.end();
      await once(sink, 'close');
      if (code !== 0) throw new Error(`dam exited ${code}`);
      return { first, total: Number(process.hrtime.bigint() - t0) / 1e6 };
    };
    const panelExport = async (out: string) => {
      const [t, r] = await timed(() => exportRows(client.analytics, query, out, { format: 'csv' }));
      if (r.rows !== EXPORT_ROWS) throw new Error(`exported ${r.rows} rows`);
      return t;
    };

    // Warm both paths once (token, plan and page caches), and check they write the same file.
    await panelExport(join(dir, 'panel.csv'));
    await cli(join(dir, 'cli.csv'));
    const [a, b] = await Promise.all([readFile(join(dir, 'panel.csv'), 'utf8'), readFile(join(dir, 'cli.csv'), 'utf8')]);
    if (a.replace(/\r\n/g, '\n') !== b.replace(/\r\n/g, '\n')) throw new Error('the panel export and the CLI output differ');
    console.log(`both write ${(await stat(join(dir, 'panel.csv'))).size.toLocaleString('en-US')} bytes of CSV`);

    const first: number[] = [];
    const firstFresh: number[] = [];
    const cliFirst: number[] = [];
    const exp: number[] = [];
    const cliAll: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      first.push(await panelFirst());
      firstFresh.push(await panelFirst(true));
      exp.push(await panelExport(join(dir, `panel-${i}.csv`)));
      const c = await cli(join(dir, `cli-${i}.csv`));
      cliFirst.push(c.first);
      cliAll.push(c.total);
    }
    // The CLI signs in on every run and asks for 10,000-row pages; the panel's session is signed in already.
    printRow(`panel: first ${TABLE_PAGE_SIZE} rows (median of ${RUNS})`, ms(median(first)), `CLI first row ${ms(median(cliFirst))}`, `${(median(first) / median(cliFirst)).toFixed(2)}× the CLI`);
    printRow(`panel: first ${TABLE_PAGE_SIZE} rows, signing in first`, ms(median(firstFresh)), `CLI first row ${ms(median(cliFirst))}`, `${(median(firstFresh) / median(cliFirst)).toFixed(2)}× the CLI`);
    printRow(`panel: export ${EXPORT_ROWS.toLocaleString('en-US')} rows to CSV`, ms(median(exp)), `CLI --all ${ms(median(cliAll))}`, `${(median(exp) / median(cliAll)).toFixed(2)}× the CLI`);
  } finally {
    await rm(dir, { recursive: true, force: true });
    await emulator.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
