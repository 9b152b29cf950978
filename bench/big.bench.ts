// A big tenant from the first request (issue 37, part 2): the demo grown by `--records` as `dam emulator --records N`
// grows it, on PGlite and on PostgreSQL (DAM_BENCH_DATABASE_URL or `node bench/run.mjs --database-url URL`, else a
// private cluster when the server is installed). For each size: the growth's time (wall and the process's CPU) and
// the disk it takes; then `dam emulator` (dist/cli.js, as a user runs it: `npm run bench` builds it first) started
// afresh DAM_BENCH_BIG_STARTS times (default 3) on the grown tenant, each a new process: its time to listening, and
// the FIRST request of each search live clients make (bench/firstSearches.ts: every request a search that process
// has not answered; the kinds in another order each start, so each kind is sometimes the process's very first).
// p50 / p99 / max over all starts. Baseline in the same run: the same searches sent again to the same processes
// (each one's second request), which is what the search costs once warm: the first over it is what a first request
// pays. DAM_BENCH_BIG_SQL_BASELINE=1 adds last round's baseline, a start that counts in SQL (`searchIndex: 'off'`).
// Targets at a million records: first requests p99 <= 300 ms, disk <= 3 GB, growth <= 3 minutes.
// 100,000 records by default; DAM_BENCH_MILLION=1 (`node bench/run.mjs --million big`) adds 1,000,000 (minutes of
// growth: DAM_BENCH_BIG_DATA keeps the PGlite folders for the next run). DAM_BENCH_BIG_SIZES (e.g. 1000000) replaces
// the sizes, DAM_BENCH_BIG_BACKENDS (default pglite,postgres) the backends, DAM_BENCH_BIG_VARIANTS (searches of each
// kind per start, default 8) the load. A tenant grown before is used as it is, never grown nor dropped, with
// DAM_BENCH_TENANT_PGLITE_<size> (its data folder) or DAM_BENCH_TENANT_POSTGRES_<size> (a postgres:// URL with its
// `schema`): e.g. DAM_BENCH_TENANT_POSTGRES_1000000='postgres://postgres@127.0.0.1:5433/dam_big1m?schema=dam_emulator'.
// Such a tenant is migrated to the current schema when the emulator opens it, as `dam emulator` would.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type EmulatorOptions } from '../src/emulator/server';
import { openStore } from '../src/emulator/storage/open';
import { firstSearches, type FirstSearch } from './firstSearches';
import { emulatorToken, median, percentile, printRow } from './stats';
import { benchPostgres, keptTenant } from './searchTenant';

const SIZES = process.env.DAM_BENCH_BIG_SIZES?.split(',').map(Number) ?? [100_000, ...(process.env.DAM_BENCH_MILLION === '1' ? [1_000_000] : [])];
const BACKENDS = (process.env.DAM_BENCH_BIG_BACKENDS ?? 'pglite,postgres').split(',');
const VARIANTS = Number(process.env.DAM_BENCH_BIG_VARIANTS ?? 8);
const STARTS = Number(process.env.DAM_BENCH_BIG_STARTS ?? 3);
const SQL_BASELINE = process.env.DAM_BENCH_BIG_SQL_BASELINE === '1';
const KEPT = process.env.DAM_BENCH_BIG_DATA;
const CLI = join(__dirname, '..', 'dist', 'cli.js');

function folderBytes(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) total += folderBytes(path);
    else if (e.isFile()) total += statSync(path).size;
  }
  return total;
}

const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');

interface Sample {
  kind: string;
  ms: number;
}

interface Firsts {
  first: Sample[];
  /** The same searches' second requests to the same process. */
  again: Sample[];
  /** Each start's very first search request. */
  processFirst: Sample[];
}

/** Each search once, in order, then each again: on a process just started, every one of the first pass a first request. */
async function firstRequests(url: string, searches: FirstSearch[], into: Firsts): Promise<void> {
  const token = await emulatorToken(url);
  const headers = { authorization: `Bearer ${token}`, 'api-version': '1', accept: 'application/hal+json', 'content-type': 'application/json', 'user-agent': 'dam-bench' };
  const send = async (s: FirstSearch): Promise<Sample> => {
    const started = performance.now();
    const res = await fetch(`${url}/api/core/search/records?pageSize=50${s.sort ? `&sort=${encodeURIComponent(s.sort)}` : ''}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ searchExpression: { expression: s.expression, namedParameters: s.namedParameters } }),
    });
    const text = await res.text();
    const ms = performance.now() - started;
    if (!res.ok) throw new Error(`${s.expression}: ${res.status} ${text.slice(0, 300)}`);
    return { kind: s.kind, ms };
  };
  for (const [i, s] of searches.entries()) {
    const sample = await send(s);
    into.first.push(sample);
    if (i === 0) into.processFirst.push(sample);
  }
  for (const s of searches) into.again.push(await send(s));
}

/** `dam emulator` in a new process, as a user starts it; resolves once it listens, with its URL and what it logged. */
async function startProcess(options: EmulatorOptions): Promise<{ url: string; ms: number; log: string[]; stop(): Promise<void> }> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build it first (npm run bench does, or node esbuild.mjs --production)`);
  const args = [CLI, 'emulator', '--port', '0', ...(options.database ? ['--database', options.database, '--data', options.data!] : ['--data', options.data!])];
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const log: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => log.push(...chunk.split('\n').filter(Boolean)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`dam emulator exited (${code}) before listening:\n${log.slice(-20).join('\n')}`)));
  });
  return {
    url,
    ms: performance.now() - started,
    log,
    async stop() {
      child.kill('SIGINT');
      await exited;
    },
  };
}

async function classificationsOf(options: EmulatorOptions): Promise<{ id: string; namePath: string }[]> {
  const store = await openStore({ data: options.data!, database: options.database });
  try {
    return (await store.query<{ id: string; name_path: string }>('SELECT id, name_path FROM classifications WHERE parent_id IS NOT NULL ORDER BY id')).map((r) => ({ id: r.id, namePath: r.name_path }));
  } finally {
    await store.close();
  }
}

async function diskBytes(options: EmulatorOptions): Promise<number> {
  if (!options.database) return folderBytes(options.data!);
  // The schema's tables and indexes (the server's WAL is shared and recycled by its own checkpointer).
  const store = await openStore({ data: '', database: options.database });
  try {
    const [row] = await store.query<{ n: string }>(
      `SELECT sum(pg_total_relation_size(c.oid))::text AS n FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'm')`,
    );
    return Number(row.n);
  } finally {
    await store.close();
  }
}

/** The searches of start `n`: other variants than the other starts', the kinds rotated so that another comes first. */
function searchesOfStart(n: number, classifications: { id: string; namePath: string }[]): FirstSearch[] {
  const all = firstSearches(VARIANTS * (n + 1), classifications).slice(VARIANTS * n * 11);
  const kinds = [...new Set(all.map((s) => s.kind))];
  const rotated = [...kinds.slice(n % kinds.length), ...kinds.slice(0, n % kinds.length)];
  const out: FirstSearch[] = [];
  for (let v = 0; v < VARIANTS; v++) for (const kind of rotated) out.push(all.filter((s) => s.kind === kind)[v]);
  return out;
}

async function measure(backend: string, size: number, base: EmulatorOptions, kept: boolean): Promise<void> {
  const label = `${backend} ${size.toLocaleString('en-US')} records`;
  if (kept) printRow(`${label}: growth`, 'kept', '', `a tenant grown before (${base.database ?? base.data})`);
  else {
    const cpu = process.cpuUsage();
    const started = performance.now();
    let grew = false;
    // Without the search index: its build is timed below, in the start to listening.
    const growing = await startEmulator({ ...base, records: size, port: 0, searchIndex: 'off', log: (line) => (grew ||= line.startsWith('grew')) });
    const growMs = performance.now() - started;
    const { user, system } = process.cpuUsage(cpu);
    await growing.close();
    if (grew) printRow(`${label}: growth (with the start)`, `${(growMs / 1000).toFixed(1)} s`, '', `${((user + system) / 1e6).toFixed(1)} s of this process's CPU; target <= 180 s at 1,000,000`);
    else printRow(`${label}: growth`, 'kept', '', 'a folder grown by an earlier run');
  }
  const bytes = await diskBytes(base);
  printRow(`${label}: disk`, `${(bytes / 2 ** 30).toFixed(2)} GB`, '', `${((bytes / 2 ** 30) * (1_000_000 / size)).toFixed(2)} GB per million; target <= 3`);
  const classifications = await classificationsOf(base);

  const runs: Firsts = { first: [], again: [], processFirst: [] };
  const loads: string[] = [];
  for (let n = 0; n < STARTS; n++) {
    loads.push(load());
    const emulator = await startProcess(base);
    try {
      await firstRequests(emulator.url, searchesOfStart(n, classifications), runs);
    } finally {
      await emulator.stop();
    }
    const built = emulator.log.filter((l) => l.startsWith('search index') || l.startsWith('search warm-up')).map((l) => l.replace(/ \(each: .*\)$/, ''));
    printRow(`${label}: start ${n + 1} to listening`, `${(emulator.ms / 1000).toFixed(1)} s`, '', `${built.join('; ') || 'no search index (below 200,000 records)'}; load ${loads[n]}`);
  }
  const stat = (f: Sample[]) => `p50 ${percentile(f.map((s) => s.ms), 50).toFixed(0)} / p99 ${percentile(f.map((s) => s.ms), 99).toFixed(0)} ms`;
  const ratio = (a: Sample[], b: Sample[], p: number) => (percentile(a.map((s) => s.ms), p) / percentile(b.map((s) => s.ms), p)).toFixed(2);
  printRow(
    `${label}: first requests`,
    stat(runs.first),
    `${stat(runs.again)} (the same, again)`,
    `${runs.first.length} searches over ${STARTS} fresh starts, ${VARIANTS} of each kind each; p50 ${ratio(runs.first, runs.again, 50)}x, p99 ${ratio(runs.first, runs.again, 99)}x; max ${Math.max(...runs.first.map((s) => s.ms)).toFixed(0)} ms; target p99 <= 300 ms at 1,000,000`,
  );
  printRow(`  each process's first search`, runs.processFirst.map((s) => s.ms.toFixed(0)).join(', ') + ' ms', '', runs.processFirst.map((s) => s.kind).join(', '));
  for (const kind of [...new Set(runs.first.map((s) => s.kind))]) {
    const of = (f: Sample[]) => f.filter((s) => s.kind === kind).map((s) => s.ms);
    printRow(`  ${kind}`, `${median(of(runs.first)).toFixed(0)} / ${Math.max(...of(runs.first)).toFixed(0)} ms`, `${median(of(runs.again)).toFixed(0)} / ${Math.max(...of(runs.again)).toFixed(0)} ms`, 'median / slowest first request of the kind');
  }

  if (SQL_BASELINE) {
    const sql: Firsts = { first: [], again: [], processFirst: [] };
    const emulator = await startEmulator({ ...base, port: 0, searchIndex: 'off' });
    try {
      await firstRequests(emulator.url, searchesOfStart(0, classifications), sql);
    } finally {
      await emulator.close();
    }
    printRow(`${label}: first requests counted in SQL`, stat(sql.first), '', `searchIndex off, in this process; load ${load()}`);
  }
}

async function dropSchema(database: string): Promise<void> {
  const store = await openStore({ data: '', database });
  try {
    await store.exec(`DROP SCHEMA IF EXISTS ${new URL(database).searchParams.get('schema')} CASCADE`);
  } finally {
    await store.close();
  }
}

async function main(): Promise<void> {
  console.log(`load average ${load()} at the start`);
  for (const backend of BACKENDS) {
    const keptOf = (size: number) => keptTenant(backend, size);
    const needsServer = backend === 'postgres' && SIZES.some((size) => !keptOf(size));
    const postgres = needsServer ? await benchPostgres() : undefined;
    if (needsServer && !postgres) {
      console.log('postgres: skipped (no DAM_BENCH_DATABASE_URL and no PostgreSQL server installed)');
      continue;
    }
    const temporary = KEPT ? undefined : mkdtempSync(join(tmpdir(), 'dam-bench-big-'));
    try {
      for (const size of SIZES) {
        const given = keptOf(size);
        if (given) {
          await measure(backend, size, backend === 'postgres' ? { data: join(KEPT ?? temporary!, `${backend}-${size}`), database: given } : { data: given }, true);
          continue;
        }
        const data = join(KEPT ?? temporary!, `${backend}-${size}`);
        mkdirSync(data, { recursive: true });
        const database = postgres && `${postgres.url}_${size}`;
        try {
          await measure(backend, size, { data, database }, false);
        } finally {
          if (database) await dropSchema(database);
        }
      }
    } finally {
      postgres?.stop();
      if (temporary) rmSync(temporary, { recursive: true, force: true });
    }
  }
  console.log(`load average ${load()} at the end`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
