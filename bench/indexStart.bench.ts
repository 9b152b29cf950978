// Start of a large PGlite tenant with and without the search index kept in its data folder (issue 37,
// search/indexFile.ts), in the same run: each start is a process of its own, alternating, timed from the process's
// start to the emulator listening, with the CPU the process used by then.
//   npx tsx bench/indexStart.bench.ts <data folder> [starts of each kind, default 3] [records to grow it to first]
// The folder is opened as it is (copy a shared one first): its first start builds and saves the index.
// DAM_BENCH_INDEX_MIN: the tenant size that builds an index at start (default the emulator's, 200,000).
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { median, printRow } from './stats';

const data = resolve(process.argv[2] ?? '');
const runs = Number(process.argv[3] ?? 3);
const records = process.argv[4] ? Number(process.argv[4]) : undefined;
const min = process.env.DAM_BENCH_INDEX_MIN ? Number(process.env.DAM_BENCH_INDEX_MIN) : undefined;
const script = `
  const { startEmulator } = require('./src/emulator/server');
  const lines = [];
  const [data, kind, records, min] = process.argv.slice(1);
  startEmulator({ data, port: 0, records: records ? Number(records) : undefined, searchIndexTuning: min ? { autoMinRecords: Number(min) } : undefined,
    searchIndexFile: kind === 'without' ? false : undefined, log: (l) => lines.push(l) })
    .then(async (emulator) => {
      const ms = performance.now();
      const cpu = process.cpuUsage();
      console.log(JSON.stringify({ ms, cpu: (cpu.user + cpu.system) / 1000, index: lines.filter((l) => l.startsWith('search index:')) }));
      await emulator.close();
      process.exit(0);
    })
    .catch((err) => { console.error(err); process.exit(1); });`;

function start(kind: 'with' | 'without', grow?: number): { ms: number; cpu: number; index: string[] } {
  const out = execFileSync(process.execPath, ['-r', 'tsx/cjs', '-e', script, data, kind, String(grow ?? ''), String(min ?? '')], { cwd: resolve(__dirname, '..'), encoding: 'utf8', maxBuffer: 1 << 26 });
  return JSON.parse(out.trim().split('\n').pop()!) as { ms: number; cpu: number; index: string[] };
}

// The first start saves the index if the folder has none of its state.
const first = start('with', records);
console.log(`first start: ${Math.round(first.ms)} ms, ${first.index.join(' | ')}`);
const results = { with: [] as { ms: number; cpu: number }[], without: [] as { ms: number; cpu: number }[] };
for (let i = 0; i < runs; i++) {
  for (const kind of ['without', 'with'] as const) {
    const r = start(kind);
    console.log(`${kind}: ${Math.round(r.ms)} ms, cpu ${Math.round(r.cpu)} ms; ${r.index.join(' | ')}`);
    results[kind].push(r);
  }
}
const m = (kind: 'with' | 'without', key: 'ms' | 'cpu') => Math.round(median(results[kind].map((r) => r[key])));
printRow('start to listening, with the saved index (ms)', String(m('with', 'ms')), `${m('without', 'ms')} without`, `median of ${runs}`);
printRow('CPU of that start, with the saved index (ms)', String(m('with', 'cpu')), `${m('without', 'cpu')} without`, `median of ${runs}`);
printRow('search-index.bin on disk (MB)', (statSync(join(data, 'search-index.bin')).size / 1048576).toFixed(1), '', '');
