// A tenant for the search benchmarks: one store (PGlite in a temp folder, or a schema of a PostgreSQL server)
// migrated, seeded with the demo and grown by `--records`' generator, with the emulator's app built on that same
// store and listening on loopback, so a search over HTTP and hand-written SQL run against one database in one
// process. Also a private PostgreSQL cluster for machines that have the server installed, as .ci/run starts one.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/emulator/server';
import { openStore } from '../src/emulator/storage/open';
import { migrate } from '../src/emulator/storage/migrate';
import { migrations } from '../src/emulator/storage/migrations';
import type { SqlParam, Store } from '../src/emulator/storage/store';
import { seedStore } from '../src/emulator/seed';
import { growRecords } from '../src/emulator/seed/scale';
import { emulatorToken } from './stats';

export interface SearchBody {
  expression: string;
  namedParameters?: Record<string, string>;
  sort?: string;
  /** The previous page's `nextCursor`, for the next page of the same search. */
  cursor?: string;
}

export interface Answer {
  ms: number;
  totalCount: number;
  items: number;
  nextCursor?: string | null;
}

export interface SearchTenant {
  readonly backend: 'pglite' | 'postgres';
  /** The store the app runs on; statements through it are not recorded. */
  readonly store: Store;
  /** Grows the tenant to `records` (no-op when it holds as many) with the app stopped, then starts it again. */
  grow(records: number): Promise<void>;
  /** One search over HTTP, timed from request to the parsed answer. */
  search(body: SearchBody, pageSize?: number): Promise<Answer>;
  /** Waits for the emulator's search index to be built, if a build is running; its build time then, or undefined. */
  settle(): Promise<number | undefined>;
  /** POSTs to a route added beside the emulator's on the same server (the hand-written baselines), timed the same way. */
  post(path: string): Promise<Answer>;
  /** The SQL statements the emulator ran for one search, with their parameters (for EXPLAIN). */
  statementsOf(body: SearchBody, pageSize?: number): Promise<{ sql: string; params: SqlParam[] }[]>;
  close(): Promise<void>;
}

export interface BareRoute {
  path: string;
  /** Answers `{ items, totalCount }` from the raw store (no recording). */
  handler(store: Store): Promise<{ items: unknown[]; totalCount: number }>;
}

export interface TenantOptions {
  /** A PostgreSQL URL with its `schema`; PGlite otherwise. */
  database?: string;
  /** A PGlite data folder to keep and reuse (a grown tenant is kept between runs); a temp folder otherwise. */
  data?: string;
  log?: (line: string) => void;
  routes?: BareRoute[];
  /** A tenant grown before (keptTenant): used as it is, its PostgreSQL schema not dropped on close. */
  kept?: boolean;
}

/**
 * A tenant grown before, to measure without growing it again (a million records takes the better part of an hour
 * on a loaded machine): DAM_BENCH_TENANT_PGLITE_<records> names its data folder, DAM_BENCH_TENANT_POSTGRES_<records>
 * a postgres:// URL with its `schema`. The benches never grow nor drop it; the emulator migrates it when it opens it.
 */
export function keptTenant(backend: string, records: number): string | undefined {
  return process.env[`DAM_BENCH_TENANT_${backend.toUpperCase()}_${records}`] || undefined;
}

export async function openSearchTenant(options: TenantOptions = {}): Promise<SearchTenant> {
  const log = options.log ?? (() => undefined);
  const temporary = options.database || options.data ? undefined : mkdtempSync(join(tmpdir(), 'dam-bench-search-'));
  const folder = options.data ?? temporary ?? '';
  let store = await openStore({ data: folder, database: options.database });
  await migrate(store, migrations);
  await seedStore(store, 'demo', () => undefined);
  let recording: { sql: string; params: SqlParam[] }[] | undefined;
  const recorder: Store = {
    kind: store.kind,
    async query<T>(sql: string, params?: SqlParam[]) {
      recording?.push({ sql, params: params ?? [] });
      return store.query<T>(sql, params);
    },
    exec: (sql) => store.exec(sql),
    transaction: (fn) => store.transaction(fn),
    close: () => store.close(),
  };
  let url = '';
  let headers: Record<string, string> = {};
  let running: Awaited<ReturnType<typeof buildApp>> | undefined;
  // The app as `npm run emulator` starts it on a grown store: its read caches start empty.
  const start = async () => {
    running = await buildApp(recorder, { log: () => undefined }, () => url);
    for (const route of options.routes ?? []) running.app.post(route.path, () => route.handler(store));
    await running.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(running.app.server.address() as { port: number }).port}`;
    headers = { authorization: `Bearer ${await emulatorToken(url)}`, 'api-version': '1', accept: 'application/hal+json', 'content-type': 'application/json', 'user-agent': 'dam-bench' };
  };
  const stop = async () => {
    await running?.app.close();
    await running?.idle();
    running = undefined;
  };
  await start();

  const timedPost = async (path: string, body: string) => {
    const started = performance.now();
    const res = await fetch(`${url}${path}`, { method: 'POST', headers, body });
    const text = await res.text();
    const ms = performance.now() - started;
    if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${text.slice(0, 300)}`);
    const page = JSON.parse(text) as { totalCount: number; items: unknown[]; nextCursor?: string | null };
    return { ms, totalCount: page.totalCount, items: page.items.length, nextCursor: page.nextCursor };
  };
  const search = (body: SearchBody, pageSize = 50) =>
    timedPost(
      `/api/core/search/records?pageSize=${pageSize}${body.sort ? `&sort=${encodeURIComponent(body.sort)}` : ''}`,
      JSON.stringify({ searchExpression: { expression: body.expression, namedParameters: body.namedParameters }, ...(body.cursor ? { cursor: body.cursor } : {}) }),
    );

  return {
    backend: store.kind === 'postgres' ? 'postgres' : 'pglite',
    get store() {
      return store;
    },
    async grow(records) {
      const started = Date.now();
      await stop();
      const added = await growRecords(store, records, log);
      if (added) log(`${store.kind}: grew to ${records.toLocaleString('en-US')} records in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      // As the emulator restarted on the grown folder: PGlite is sized for the database it opens (pgliteSizing).
      if (added && store.kind === 'pglite') {
        await store.close();
        store = await openStore({ data: folder });
      }
      await start();
    },
    search,
    async settle() {
      return (await running?.ctx.searchIndex.settled())?.buildMs;
    },
    post: (path) => timedPost(path, '{}'),
    async statementsOf(body, pageSize) {
      recording = [];
      try {
        await search(body, pageSize);
        return recording;
      } finally {
        recording = undefined;
      }
    },
    async close() {
      await stop();
      if (store.kind === 'postgres' && !options.kept) await store.exec(`DROP SCHEMA IF EXISTS ${new URL(options.database!).searchParams.get('schema')} CASCADE`).catch(() => undefined);
      await store.close();
      if (temporary) rmSync(temporary, { recursive: true, force: true });
    },
  };
}


/** The rows of an EXPLAIN as its text. */
export function explainText(rows: Record<string, unknown>[]): string {
  return rows.map((r) => String(Object.values(r)[0])).join('\n');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * A PostgreSQL server for the benchmarks: DAM_BENCH_DATABASE_URL (or DAM_TEST_DATABASE_URL) when set, else a
 * private cluster in a temp folder when Debian's server binaries are installed (run as `postgres` when we are
 * root, which PostgreSQL refuses), else undefined. The URL names a fresh schema; `stop` removes the cluster.
 */
export async function benchPostgres(): Promise<{ url: string; stop(): void } | undefined> {
  const schema = `bench_${process.pid}`;
  const given = process.env.DAM_BENCH_DATABASE_URL ?? process.env.DAM_TEST_DATABASE_URL;
  if (given) {
    const url = new URL(given);
    url.searchParams.set('schema', schema);
    return { url: url.toString(), stop: () => undefined };
  }
  const root = '/usr/lib/postgresql';
  const version = existsSync(root) ? readdirSync(root).sort((a, b) => Number(a) - Number(b)).pop() : undefined;
  const bin = version ? join(root, version, 'bin') : undefined;
  if (!bin || !existsSync(join(bin, 'initdb'))) return undefined;
  const asRoot = userInfo().uid === 0;
  const run = (cmd: string, args: string[]) => (asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], { stdio: 'pipe' }) : execFileSync(join(bin, cmd), args, { stdio: 'pipe' }));
  const dir = mkdtempSync(join('/tmp', 'dam-bench-pg-'));
  if (asRoot) {
    const { uid, gid } = JSON.parse(execFileSync('python3', ['-c', 'import pwd,json;p=pwd.getpwnam("postgres");print(json.dumps({"uid":p.pw_uid,"gid":p.pw_gid}))']).toString()) as { uid: number; gid: number };
    chownSync(dir, uid, gid);
  }
  const port = await freePort();
  run('initdb', ['-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8']);
  run('pg_ctl', ['-D', join(dir, 'data'), '-l', join(dir, 'server.log'), '-w', '-t', '60', '-o', `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off`, 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres?schema=${schema}`,
    stop() {
      const args = ['-D', join(dir, 'data'), '-m', 'fast', '-w', '-t', '60', 'stop'];
      if (asRoot) spawnSync('runuser', ['-u', 'postgres', '--', join(bin, 'pg_ctl'), ...args], { stdio: 'ignore' });
      else spawnSync(join(bin, 'pg_ctl'), args, { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
