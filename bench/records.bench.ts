// The record-editing core against the bare client, in one run against one emulator:
//   open a record with 200 fields   vs a bare client GET with fields selected        (target ≤ 1.3×)
//   save one changed field          vs a bare client PUT of the same change          (target ≤ 1.2×)
//   dam records update --query      vs a bare PUT loop at the same concurrency       (target ≥ 0.9× its throughput)
//   the same against --tenant-limits (15 requests/s)                                  (target ≥ 13.5 updates/s, 0 failures)
//   bulk from the extension on 1,000 records, in the real VS Code harness              vs the CLI (target ≤ 1.1×, host ≤ +60 MB)
// Samples alternate ours and the baseline so drift in the machine's load hits both alike; medians and ratios.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { PassThrough } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { startEmulator, type EmulatorOptions } from '../src/emulator/server';
import { toEmulatorOptions } from '../src/emulator/options';
import { openStore } from '../src/emulator/storage/open';
import { migrate } from '../src/emulator/storage/migrate';
import { migrations } from '../src/emulator/storage/migrations';
import { seedStore } from '../src/emulator/seed';
import { insertRecords, type RecordRow } from '../src/emulator/domain/bulk';
import { DamClient } from '../src/api/client';
import type { BulkReport } from '../src/api/bulkRunner';
import { EMULATOR_CLIENT, emulatorProfile } from '../src/api/endpoints';
import { main as dam } from '../src/cli/main';
import { diffDocuments } from '../src/core/records';
import { z } from 'zod';
import { median, printRow } from './stats';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 1000);
const LIMITED_RECORDS = Number(process.env.BENCH_LIMITED_RECORDS ?? 150);
const FIELDS = 200;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);
const CONCURRENCY = 4;
const NEUTRAL = '00000000000000000000000000000000';
const USER_AGENT = 'dam-workbench-bench/1';
const Created = z.looseObject({ id: z.string(), items: z.array(z.looseObject({ id: z.string(), name: z.string() })).nullish() });

/** The contract's fixed data, then `count` records titled `Bench record N`, straight into a store. */
async function prepare(dir: string, count: number): Promise<void> {
  const store = await openStore({ data: dir });
  try {
    await migrate(store, migrations);
    await seedStore(store, 'empty', () => undefined);
    const base = Date.UTC(2025, 0, 1);
    const rows: RecordRow[] = [];
    for (let i = 0; i < count; i++) {
      const when = new Date(base + i * 60_000).toISOString();
      rows.push({ id: randomBytes(16).toString('hex'), title: `Bench record ${i}`, status: 'Draft', contentType: 'Image', searchText: `bench record ${i}`, createdOn: when, modifiedOn: when, createdBy: 1 });
    }
    await insertRecords(store, rows);
  } finally {
    await store.close();
  }
}

const clientOf = (url: string) => new DamClient({ profile: emulatorProfile(url), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, userAgent: USER_AGENT });

/** An OptionList field with two options to flip between (every run then changes every record). */
async function usageField(client: DamClient): Promise<{ id: string; options: string[] }> {
  const def = await client.http.request({
    method: 'POST',
    path: '/fielddefinition',
    json: { name: 'Usage', dataType: 'OptionList', items: { addOrUpdate: [{ name: 'Open' }, { name: 'Closed' }] } },
    schema: Created,
  });
  const read = await client.http.request({ path: `/fielddefinition/${def.data.id}`, schema: Created });
  return { id: def.data.id, options: (read.data.items ?? []).map((o) => o.id) };
}

/** Runs `dam …` in-process, as the CLI bench's user would from a shell. */
async function runDam(argv: string[], url: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (b: Buffer) => out.push(b));
  stderr.on('data', (b: Buffer) => err.push(b));
  const code = await dam(argv, { stdout, stderr, env: { DAM_URL: url }, signal: new AbortController().signal });
  return { code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() };
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** Pairs of (ours, baseline) timings, alternating which goes first. */
async function paired(samples: number, ours: () => Promise<unknown>, base: () => Promise<unknown>): Promise<{ ours: number[]; base: number[] }> {
  const out = { ours: [] as number[], base: [] as number[] };
  for (let i = 0; i < samples; i++) {
    if (i % 2) {
      out.base.push(await time(base));
      out.ours.push(await time(ours));
    } else {
      out.ours.push(await time(ours));
      out.base.push(await time(base));
    }
  }
  return out;
}

async function openAndSave(url: string): Promise<void> {
  const client = clientOf(url);
  const kinds = ['SingleLineText', 'MultiLineText', 'Numeric', 'Date', 'TextList'];
  const defs: { id: string; dataType: string }[] = [];
  for (let i = 0; i < FIELDS; i++) {
    const dataType = kinds[i % kinds.length];
    defs.push({ id: (await client.http.request({ method: 'POST', path: '/fielddefinition', json: { name: `Field${i}`, dataType }, schema: Created })).data.id, dataType });
  }
  const value = (t: string, i: number) => (t === 'Numeric' ? { value: i } : t === 'Date' ? { value: '2025-03-01' } : t === 'TextList' ? { values: [`a${i}`, `b${i}`] } : { value: `Value of field ${i}` });
  const addOrUpdate = defs.map((d, i) => ({ id: d.id, localizedValues: [{ languageId: NEUTRAL, ...value(d.dataType, i) }] }));
  const record = (await client.http.request({ method: 'POST', path: '/record', json: { title: '200 fields', status: 'Draft', fields: { addOrUpdate } }, schema: Created })).data.id;

  const ours = clientOf(url);
  const bare = clientOf(url);
  const bareGet = () => bare.records.get(record, { select: { resources: { record: ['fields'] }, languages: '*' } });
  for (let i = 0; i < 5; i++) await Promise.all([ours.recordEdits.open(record), bareGet()]);
  const open = await paired(SAMPLES, () => ours.recordEdits.open(record), bareGet);
  const o = median(open.ours);
  const b = median(open.base);
  printRow(`open a record with ${FIELDS} fields (median)`, `${o.toFixed(1)} ms`, `${b.toFixed(1)} ms bare GET, fields selected`, `${(o / b).toFixed(2)}× (target ≤ 1.3×)`);

  // Save: ours diffs the opened document against the edit and applies the change set; the baseline PUTs the same body.
  const opened = await ours.recordEdits.open(record);
  const { definitions } = await ours.recordEdits.tenantModel();
  let n = 0;
  const saveOurs = async () => {
    const edited = { ...opened.document, fields: { ...opened.document.fields, Field0: `Ours ${n++}` } };
    await ours.recordEdits.apply(diffDocuments(opened.document, edited, definitions));
  };
  const saveBare = () =>
    bare.http.request({ method: 'PUT', path: `/record/${record}`, json: { fields: { addOrUpdate: [{ id: defs[0].id, localizedValues: [{ languageId: NEUTRAL, value: `Bare ${n++}` }] }] } }, responseType: 'none' });
  for (let i = 0; i < 5; i++) await Promise.all([saveOurs(), saveBare()]);
  const save = await paired(SAMPLES, saveOurs, saveBare);
  const so = median(save.ours);
  const sb = median(save.base);
  printRow('save one changed field (median)', `${so.toFixed(1)} ms`, `${sb.toFixed(1)} ms bare PUT`, `${(so / sb).toFixed(2)}× (target ≤ 1.2×)`);
}

/** The bare PUT loop: the same change to every id, CONCURRENCY in flight. */
async function putLoop(client: DamClient, ids: string[], field: string, option: string): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      await client.http.request({ method: 'PUT', path: `/record/${id}`, json: { fields: { addOrUpdate: [{ id: field, localizedValues: [{ languageId: NEUTRAL, values: [option] }] }] } }, responseType: 'none' });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

async function bulk(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'dam-bench-records-'));
  try {
    await prepare(dir, RECORDS);
    const emulator = await startEmulator({ port: 0, data: dir, seed: 'empty' });
    try {
      const client = clientOf(emulator.url);
      const usage = await usageField(client);
      const ids: string[] = [];
      for await (const r of client.search.recordItems({ expression: "Title = 'Bench record*'", pageSize: 100 })) ids.push(r.id);
      // Each side sets the option the other left, so every record changes in every run.
      const ours = async () => {
        const run = await runDam(['records', 'update', '--query', "Title = 'Bench record*'", '--set', 'Usage=Closed', '--concurrency', String(CONCURRENCY)], emulator.url);
        if (run.code !== 0) throw new Error(`dam records update exited ${run.code}: ${run.stderr}`);
      };
      const base = () => putLoop(client, ids, usage.id, usage.options[0]);
      await base();
      const runs = await paired(Number(process.env.BENCH_BULK_RUNS ?? 2), ours, base);
      const rate = (ms: number) => (RECORDS / ms) * 1000;
      const o = rate(median(runs.ours));
      const b = rate(median(runs.base));
      printRow(`dam records update --query, ${RECORDS} records`, `${o.toFixed(0)} rec/s`, `${b.toFixed(0)} rec/s bare PUT loop ×${CONCURRENCY}`, `${(o / b).toFixed(2)}× (target ≥ 0.9×)`);
    } finally {
      await emulator.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Against the tenant's limits (`dam emulator --tenant-limits`: 15 requests/s, a queue of 100, then 429): the CLI told
 * it has the tenant to itself (`--max-rate 15`), against the rate itself; then at its default pacing (10 requests/s,
 * a third of the tenant left to its other integrations), which by design stays under the target. The rate counts the
 * whole run, its search and tenant-model reads included. Failures from 429 are read from the JSON report.
 */
async function limited(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'dam-bench-records-limits-'));
  try {
    await prepare(dir, LIMITED_RECORDS);
    const options: EmulatorOptions = { ...toEmulatorOptions({ 'tenant-limits': true }), port: 0, data: dir, seed: 'empty', log: () => undefined };
    const emulator = await startEmulator(options);
    try {
      await usageField(clientOf(emulator.url));
      const variants: [string, string[], string][] = [
        ['--max-rate 15', ['--max-rate', '15'], 'Closed'],
        ['default pacing', [], 'Open'],
      ];
      for (const [label, flags, option] of variants) {
        const t = performance.now();
        const run = await runDam(['records', 'update', '--query', "Title = 'Bench record*'", '--set', `Usage=${option}`, '--json', ...flags], emulator.url);
        const ms = performance.now() - t;
        const report = JSON.parse(run.stdout) as BulkReport;
        const failed429 = report.failed.filter((f) => f.status === 429 || /429/.test(f.reason)).length;
        const rate = (report.changed.length / ms) * 1000;
        printRow(
          `the same against --tenant-limits, ${LIMITED_RECORDS} records, ${label}`,
          `${rate.toFixed(1)} upd/s`,
          '15 requests/s, the tenant’s rate',
          `${(rate / 15).toFixed(2)}× of the rate (target ≥ 0.9×); ${report.changed.length} changed, ${report.failed.length} failed, ${failed429} from 429; exit ${run.code}`,
        );
      }
    } finally {
      await emulator.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ROOT = resolve(__dirname, '..');
const EXTENSION_RECORDS = Number(process.env.BENCH_EXTENSION_RECORDS ?? 1000);

/**
 * Bulk from the extension against the CLI, inside the real VS Code harness (test/.harness, as explorer.bench does):
 * the probe runs the extension's bulk update in the host and `node dist/cli.js records update` beside it, turn about,
 * on the same emulator (here, in the bench's process: neither side shares a process with it). Both at concurrency 4
 * and 1000 requests/s, so the figure is the two paths' own cost, not the pacing's.
 */
async function extensionRow(): Promise<void> {
  const harness = (await import(join(ROOT, 'test/e2e/harness.mjs'))) as {
    findChromium(): string | undefined;
    harnessReady(): boolean;
    startWorkbench(options: Record<string, unknown>): Promise<{ testsExitCode: Promise<number>; stop(): Promise<void> }>;
  };
  if (!harness.findChromium() || !harness.harnessReady()) {
    printRow('bulk from the extension', 'skipped', 'the CLI', 'no Chromium or no VS Code harness in test/.harness');
    return;
  }
  const probe = join(ROOT, 'bench', 'output', 'records-bulk-probe', 'index.js');
  await esbuild.build({ bundle: true, platform: 'node', format: 'cjs', external: ['vscode'], logLevel: 'error', entryPoints: [join(ROOT, 'bench/fixtures/records-bulk-probe.ts')], outfile: probe });
  const dir = mkdtempSync(join(tmpdir(), 'dam-bench-records-ext-'));
  try {
    await prepare(dir, EXTENSION_RECORDS);
    const emulator = await startEmulator({ port: 0, data: dir, seed: 'empty', log: () => undefined });
    try {
      await usageField(clientOf(emulator.url));
      let line = '';
      const output: string[] = [];
      const wb = await harness.startWorkbench({
        extensionTestsPath: probe,
        settings: { 'dam.maxRequestsPerSecond': 1000, 'dam.maxConcurrentRequests': CONCURRENCY },
        env: {
          DAM_BENCH_URL: emulator.url,
          DAM_BENCH_CLI: join(ROOT, 'dist', 'cli.js'),
          DAM_BENCH_NODE: process.execPath,
          DAM_BENCH_RECORDS: String(EXTENSION_RECORDS),
          DAM_BENCH_RUNS: process.env.BENCH_EXTENSION_RUNS ?? '3',
          ...(process.env.DAM_BENCH_PROFILE ? { DAM_BENCH_PROFILE: '1' } : {}),
        },
        onLog: (_type: string, text: string) => {
          if (text.includes('DAM_BENCH_RECORDS_BULK')) line = text;
          else if (text.includes('DAM_BENCH_PROFILE')) console.log(text);
          else output.push(text);
        },
      });
      try {
        const code = await wb.testsExitCode;
        if (code !== 0 || !line) throw new Error(`the records bulk probe failed (exit ${code}):\n${output.slice(-30).join('\n')}`);
      } finally {
        await wb.stop();
      }
      const f = JSON.parse(line.slice(line.indexOf('{'))) as {
        runs: number;
        extensionMs: number;
        cliMs: number;
        extensionRunnerMs: number;
        cliRunnerMs: number;
        rssBefore: number;
        heapBefore: number;
        peakRss: number;
        peakHeap: number;
        rssAfter: number;
        heapAfter: number;
      };
      const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
      const signed = (bytes: number) => `${bytes < 0 ? '−' : '+'}${mb(Math.abs(bytes))}`;
      printRow(
        `bulk from the extension, ${EXTENSION_RECORDS} records`,
        `${(f.extensionMs / 1000).toFixed(2)} s`,
        `${(f.cliMs / 1000).toFixed(2)} s dam records update (process start to exit)`,
        `median of ${f.runs}; ${(f.extensionMs / f.cliMs).toFixed(2)}× (target ≤ 1.1×)`,
      );
      printRow(
        '  of which the runner (the PUTs)',
        `${(f.extensionRunnerMs / 1000).toFixed(2)} s`,
        `${(f.cliRunnerMs / 1000).toFixed(2)} s the CLI's runner`,
        `${(f.extensionRunnerMs / f.cliRunnerMs).toFixed(2)}×`,
      );
      printRow(
        '  extension host memory during the runs',
        `${signed(f.peakRss - f.rssBefore)} RSS`,
        `${mb(f.rssBefore)} RSS before, settled`,
        `peak; heap peak ${signed(f.peakHeap - f.heapBefore)}; retained after: RSS ${signed(f.rssAfter - f.rssBefore)}, heap ${signed(f.heapAfter - f.heapBefore)} (target ≤ +60 MB)`,
      );
    } finally {
      await emulator.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** BENCH_ROWS=open,bulk,limited,extension runs only those (default: all). */
const ROWS = new Set((process.env.BENCH_ROWS ?? 'open,bulk,limited,extension').split(','));

async function mainBench(): Promise<void> {
  if (ROWS.has('open')) {
    const emulator = await startEmulator({ port: 0, data: ':memory:', seed: 'empty' });
    try {
      await openAndSave(emulator.url);
    } finally {
      await emulator.close();
    }
  }
  if (ROWS.has('bulk')) await bulk();
  if (ROWS.has('limited')) await limited();
  if (ROWS.has('extension')) await extensionRow();
}

mainBench().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
