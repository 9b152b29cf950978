// A tenant far away: the extension in a real VS Code against the emulator (`--tenant-limits` on) behind a latency
// proxy (bench/latencyProxy.ts: 100 ms a round trip and one more for each new connection, by default), beside the
// same proxy at 0 ms in the same run. For each action a user does it prints the requests sent, the connections
// opened, the round trips on its critical path, the time until the user sees the result at 100 ms and at 0 ms, and
// the time the latency added against the target (1.2 × critical round trips × the round trip). Not part of CI.
//
//   node --import tsx bench/latency.bench.ts [--rtt 100] [--handshake 1] [--runs 3]
//   (or DAM_BENCH_RTT_MS, DAM_BENCH_HANDSHAKE_RTS, DAM_BENCH_LATENCY_RUNS through `npm run bench latency`)
import * as esbuild from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { startEmulator } from '../src/emulator/server';
import { openStore } from '../src/emulator/storage/open';
import { migrate } from '../src/emulator/storage/migrate';
import { migrations } from '../src/emulator/storage/migrations';
import { seedStore } from '../src/emulator/seed';
import { EN_US } from '../src/emulator/seed/fixed';
import { insertRecordClassifications, insertRecords, type RecordRow } from '../src/emulator/domain/bulk';
import { LatencyProxy, criticalRoundTrips, type Span } from './latencyProxy';
import type { PassTimes } from './fixtures/latency-probe';
import { median } from './stats';

const ROOT = resolve(__dirname, '..');
const OUT = join(ROOT, 'bench', 'output');
const CLASSIFICATION = 'a7e1c4d2b3f54e6a8b9c0d1e2f3a4b5c';
const RECORDS = 1000;
const BULK = 100;
const TENANT_RATE = 15;

const { values: args } = parseArgs({ options: { rtt: { type: 'string' }, handshake: { type: 'string' }, runs: { type: 'string' } }, strict: false });
const RTT = Number(args.rtt ?? process.env.DAM_BENCH_RTT_MS ?? 100);
const HANDSHAKE = Number(args.handshake ?? process.env.DAM_BENCH_HANDSHAKE_RTS ?? 1);
const RUNS = Number(args.runs ?? process.env.DAM_BENCH_LATENCY_RUNS ?? 3);

/** The demo tenant plus one root classification of 1,000 records, 100 of them the bulk update's. */
async function prepare(dir: string): Promise<void> {
  const store = await openStore({ data: dir });
  try {
    await migrate(store, migrations);
    await seedStore(store, 'demo', () => undefined);
    await store.query(
      `INSERT INTO classifications (id, identifier, name, parent_id, sort_index, labels, name_path, label_path, created_on, modified_on, created_by, modified_by)
       VALUES ($1, 'latency', 'Latency', NULL, 0, $2, '/Latency', '/Latency', now(), now(), 1, 1)`,
      [CLASSIFICATION, JSON.stringify([{ languageId: EN_US, value: 'Latency' }])],
    );
    const rows: RecordRow[] = [];
    const base = Date.UTC(2025, 0, 1);
    for (let i = 0; i < RECORDS; i++) {
      const title = i < RECORDS - BULK ? `Latency record ${String(i).padStart(4, '0')}` : `Latency bulk ${String(i).padStart(4, '0')}`;
      const when = new Date(base + i * 60_000).toISOString();
      rows.push({ id: randomBytes(16).toString('hex'), title, status: 'Draft', contentType: ['Image', 'Document', 'Video'][i % 3], searchText: title.toLowerCase(), createdOn: when, modifiedOn: when, createdBy: 1 });
    }
    await insertRecords(store, rows);
    await insertRecordClassifications(store, rows.map((r) => ({ recordId: r.id, classificationId: CLASSIFICATION })));
  } finally {
    await store.close();
  }
}

interface Measured {
  requests: number;
  connections: number;
  critical: number;
  ms: number;
  /** Requests answered after the user saw the result (decorations, re-reads), and their busiest second. */
  after: number;
  afterPeakPerSecond: number;
  labels: string[];
}

function measure(spans: readonly Span[], a: { start: number; seen: number; end: number }): Measured {
  const within = spans.filter((s) => s.start >= a.start && s.start <= a.end);
  const requests = within.filter((s) => s.kind === 'request');
  const after = requests.filter((s) => s.end > a.seen + 1);
  let peak = 0;
  for (const s of after) peak = Math.max(peak, after.filter((t) => t.start >= s.start && t.start < s.start + 1000).length);
  return {
    requests: requests.length,
    connections: within.filter((s) => s.kind === 'connection').length,
    critical: criticalRoundTrips(spans, a.start, a.seen),
    ms: a.seen - a.start,
    after: after.length,
    afterPeakPerSecond: peak,
    labels: requests.filter((s) => s.end <= a.seen + 1).map((s) => s.label),
  };
}

const TARGET_ROUND_TRIPS: Record<string, number> = {
  'expand a classification → first rows': 1,
  'a query’s first page of results': 1,
  'Open Record → the document’s text': 2,
  'Save of one field': 2,
  'completion in a .dam-query file, warm': 0,
};

async function main(): Promise<void> {
  const harness = (await import(join(ROOT, 'test/e2e/harness.mjs'))) as {
    findChromium(): string | undefined;
    harnessReady(): boolean;
    startWorkbench(options: Record<string, unknown>): Promise<{ testsExitCode: Promise<number>; stop(): Promise<void> }>;
  };
  if (!harness.findChromium() || !harness.harnessReady()) {
    console.log('latency: skipped (no Chromium or no VS Code harness in test/.harness)');
    return;
  }
  await esbuild.build({
    bundle: true, platform: 'node', format: 'cjs', external: ['vscode'], logLevel: 'error',
    entryPoints: [join(ROOT, 'bench/fixtures/latency-probe.ts')], outfile: join(OUT, 'latency-probe/index.js'),
  });
  const dir = mkdtempSync(join(tmpdir(), 'dam-bench-latency-'));
  const proxies: LatencyProxy[] = [];
  try {
    await prepare(dir);
    const emulator = await startEmulator({ port: 0, data: dir, log: () => undefined, tenantLimits: { enforce: true } });
    try {
      // A pass at 0 ms first warms VS Code and the extension's lazy modules; then the runs, alternating which goes first.
      const plan = [0];
      for (let i = 0; i < RUNS; i++) plan.push(...(i % 2 ? [0, RTT] : [RTT, 0]));
      for (const rttMs of plan) proxies.push(await new LatencyProxy({ target: emulator.url, rttMs, handshakeRoundTrips: HANDSHAKE }).listen());
      let line = '';
      const output: string[] = [];
      const load = loadavg()[0];
      const wb = await harness.startWorkbench({
        extensionTestsPath: join(OUT, 'latency-probe/index.js'),
        env: {
          DAM_BENCH_PASSES: JSON.stringify(proxies.map((p) => ({ url: p.url, rttMs: p.rttMs }))),
          DAM_BENCH_CLASSIFICATION: CLASSIFICATION,
          DAM_BENCH_BULK_EXPRESSION: "Title = 'Latency bulk*'",
          DAM_E2E_TEST_TIMEOUT_MS: String(30 * 60_000),
        },
        onLog: (_type: string, text: string) => {
          if (text.includes('DAM_BENCH_LATENCY')) line = text;
          else output.push(text);
        },
      });
      try {
        const code = await wb.testsExitCode;
        if (code !== 0 || !line) throw new Error(`the latency probe failed (exit ${code}):\n${output.slice(-40).join('\n')}`);
      } finally {
        await wb.stop();
      }
      const passes = (JSON.parse(line.slice(line.indexOf('['))) as PassTimes[]).slice(1);
      const byProxy = new Map(proxies.map((p) => [p.url, p]));
      const names = passes[0].actions.map((a) => a.name);
      const at = (rtt: number, name: string) =>
        passes.filter((p) => p.rttMs === rtt).map((p) => measure(byProxy.get(p.proxy)!.spans, p.actions.find((a) => a.name === name)!));
      const total = (rtt: number) => passes.filter((p) => p.rttMs === rtt).map((p) => byProxy.get(p.proxy)!.spans);
      const count = (rtt: number, kind: Span['kind']) => median(total(rtt).map((spans) => spans.filter((s) => s.kind === kind).length));

      console.log(`latency: ${RTT} ms a round trip, ${HANDSHAKE} more for each new connection; --tenant-limits (${TENANT_RATE} requests/s); median of ${RUNS} runs each; load average ${load.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end (shared 2-core machine)`);
      console.log(`whole pass: ${count(RTT, 'request')} requests over ${count(RTT, 'connection')} connections at ${RTT} ms; ${count(0, 'request')} over ${count(0, 'connection')} at 0 ms`);
      const header = ['action', 'requests', 'conns', 'crit. RTs', `at ${RTT} ms`, 'at 0 ms', 'added', 'target', 'after seen'];
      const rows: string[][] = [];
      const verdicts: string[] = [];
      for (const name of names) {
        const far = at(RTT, name);
        const near = at(0, name);
        const critical = median(far.map((m) => m.critical));
        const msFar = median(far.map((m) => m.ms));
        const msNear = median(near.map((m) => m.ms));
        const added = msFar - msNear;
        const target = 1.2 * critical * RTT;
        const rtTarget = TARGET_ROUND_TRIPS[name];
        const after = median(far.map((m) => m.after));
        const peak = Math.max(...far.map((m) => m.afterPeakPerSecond));
        rows.push([
          name,
          String(median(far.map((m) => m.requests))),
          String(median(far.map((m) => m.connections))),
          String(critical) + (rtTarget !== undefined ? ` (≤ ${rtTarget})` : ''),
          `${msFar.toFixed(0)} ms`,
          `${msNear.toFixed(0)} ms`,
          `${added.toFixed(0)} ms`,
          `≤ ${target.toFixed(0)} ms ${added <= target ? 'ok' : `${(added / Math.max(target, 1)).toFixed(2)}x`}`,
          after ? `${after} (peak ${peak}/s)` : '0',
        ]);
        if (rtTarget !== undefined && critical > rtTarget) verdicts.push(`${name}: ${critical} critical round trips, target ${rtTarget}`);
        if (peak > TENANT_RATE / 3 && (name.startsWith('expand') || name.startsWith('activation'))) verdicts.push(`${name}: ${peak} requests/s after the rows, over a third of the tenant's rate`);
        if (process.env.DAM_BENCH_LATENCY_VERBOSE) console.log(`  ${name}: ${far[0].labels.join(', ')}`);
      }
      const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
      const print = (cells: string[]) => console.log(`| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`);
      print(header);
      print(widths.map((w) => '-'.repeat(w)));
      for (const r of rows) print(r);
      for (const v of verdicts) console.log(`over target: ${v}`);
    } finally {
      await emulator.close();
    }
  } finally {
    for (const p of proxies) await p.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
