// The default backend: embedded PostgreSQL (PGlite, WASM) persisted in the data folder, or in memory.
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { readFile } from 'node:fs/promises';
import { createBrotliDecompress } from 'node:zlib';
import type { SqlParam, Store, Transaction as StoreTransaction } from './store';
import { untarChunks } from './untar';
import { startMark } from '../startTrace';

/** PGlite has no client stream for COPY: its data goes through the virtual file '/dev/blob' instead of STDOUT/STDIN. */
function wrap(db: PGlite | Transaction): StoreTransaction {
  return {
    async query<T>(sql: string, params: SqlParam[] = []) {
      const result = await db.query<T>(sql, params);
      return result.rows;
    },
    async exec(sql: string) {
      await db.exec(sql);
    },
    async copyTo(source: string) {
      const result = await db.query(`COPY ${source} TO '/dev/blob'`);
      return result.blob ? Buffer.from(await result.blob.arrayBuffer()) : Buffer.alloc(0);
    },
    async copyFrom(target: string, data: Buffer) {
      await db.query(`COPY ${target} FROM '/dev/blob'`, [], { blob: new Blob([data as Uint8Array<ArrayBuffer>]) });
    },
  };
}

type PgliteExtension = { name: string; setup: (...args: never[]) => Promise<{ bundlePath?: URL }> };

/**
 * Inside an esbuild bundle (dist/), PGlite's extensions cannot find their tarballs relative to their own
 * module, so point them at the copy the build puts beside the bundle. Unbundled, nothing changes.
 */
function locateBundled<E extends PgliteExtension>(extension: E): E {
  const beside = join(__dirname, `${extension.name}.tar.gz`);
  if (!existsSync(beside)) return extension;
  return {
    ...extension,
    setup: async (...args: never[]) => ({ ...(await extension.setup(...args)), bundlePath: pathToFileURL(beside) }),
  };
}

export interface PgliteStore extends Store {
  /** A copy of the whole database, to start further in-memory stores from (see server.ts). */
  snapshot(): Promise<Blob>;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One emulator per data folder: two PGlite instances writing the same files would corrupt them (and two emulators
 * on one PostgreSQL schema's file folder would each take the other's blobs for its own). A lock
 * left by a killed process (kill -9) names a dead pid and is taken over.
 */
export function lockFolder(folder: string): () => void {
  const lock = join(folder, 'emulator.lock');
  if (existsSync(lock)) {
    const pid = Number(readFileSync(lock, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
      throw new Error(`the data folder ${folder} is in use by another emulator (pid ${pid})`);
    }
  }
  writeFileSync(lock, String(process.pid));
  return () => rmSync(lock, { force: true });
}

/**
 * PGlite starts with PostgreSQL's server defaults (shared_buffers 128 MB and the WAL buffers sized from it), and
 * inside WASM those buffers are linear memory that is touched at start and never given back: measured here, a bare
 * PGlite over an existing folder is 359 MB resident with them and 222 MB with 16 MB of shared buffers. The
 * emulator's tables are a few MB, so 16 MB holds them (the 100,000-record emulator bench was not slower);
 * work_mem and maintenance_work_mem keep their defaults, used only while a query needs them. Passed per start
 * (`-c`), so nothing is written into postgresql.conf of the user's data folder.
 */
const SMALL_BUFFERS = ['-c', 'shared_buffers=16MB'];

/** About what a record takes on disk with its field values, classifications and indexes (5.1 GB per million). */
const BYTES_PER_RECORD = 5_000;
/** From this size of database on, the tenant is run for speed rather than for a small footprint. */
const LARGE_DATABASE_BYTES = 256 * 2 ** 20;

export interface PgliteSizing {
  /** `-c shared_buffers=…`. */
  startParams: string[];
  /** TurboFan as well as Liftoff (see useBaselineWasmCode). */
  optimisedCode: boolean;
}

/**
 * How PGlite runs for a database of `bytes`. The demo tenant and anything up to about 50,000 records keep 16 MB of
 * shared buffers and baseline WASM code (the small footprint above). A larger one is a tenant grown on purpose
 * (`--records`, or a user's own data) where searches count hundreds of thousands of rows: there the buffers hold
 * a quarter of the database (64 to 512 MB; below that every page read is a file read through the WASM file
 * system) and hot functions are optimised. Measured on one million-record folder, the same 80 first pages of two
 * of the demo's searches: p50 204 -> 106 ms, for 806 MB resident instead of 212 MB.
 */
export function pgliteSizing(bytes: number): PgliteSizing {
  if (bytes < LARGE_DATABASE_BYTES) return { startParams: SMALL_BUFFERS, optimisedCode: false };
  const mb = Math.min(512, Math.max(64, Math.round(bytes / 4 / 2 ** 20)));
  return { startParams: ['-c', `shared_buffers=${mb}MB`, ...MINIMAL_WAL], optimisedCode: true };
}

/**
 * A large database keeps only the WAL that crash recovery needs (nothing reads it for replication here): an index
 * built in the transaction that created it (the `--records` growth drops and rebuilds them) is then written once to
 * its files instead of also to the WAL. With the growth's checkpoints (seed/scale.ts), a tenant grown to 100,000
 * records left 65 MB of WAL instead of 474 MB. A segment a checkpoint no longer needs is removed, not kept for reuse
 * (wal_recycle=off): kept for reuse, they stay in the folder up to max_wal_size (1 GB) though nothing writes that much
 * WAL again once the tenant is grown. Measured on a growth to 100,000 records: pg_wal 161 -> 17 MB, the folder 491 -> 347 MB.
 */
const MINIMAL_WAL = ['-c', 'wal_level=minimal', '-c', 'max_wal_senders=0', '-c', 'wal_recycle=off'];

/** What a data directory holds on disk (its files, recursively); 0 for one not there yet. */
function folderBytes(dir: string): number {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) total += folderBytes(path);
    else if (e.isFile()) total += statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  }
  return total;
}

/**
 * V8 runs WASM first as Liftoff (baseline) code and recompiles the functions that get hot with TurboFan on
 * background threads. PostgreSQL is large and initdb alone makes thousands of its functions hot; those compilations
 * leave their memory in the allocator's thread arenas. Measured with Liftoff only, the emulator sits at 260-280 MB
 * resident instead of 365-390 MB on a new data folder and at 195-200 MB instead of 215-245 MB on an existing one,
 * and starts a little sooner (nothing compiles beside initdb). The price is CPU-bound SQL: a million-row aggregate
 * takes about 1.6x as long, the emulator bench's 100,000-record search 10-60% longer. The flag is process-wide and
 * read when a module compiles, so it is set before PGlite compiles its module the first time; whoever opens PGlite
 * owns its process (the emulator entry, `dam emulator`, tests and benchmarks).
 */
let baselineOnly: boolean | undefined;
function useBaselineWasmCode(): void {
  if (baselineOnly === false) return;
  setFlagsFromString('--liftoff-only');
  baselineOnly = true;
}

/**
 * Lets V8 optimise WASM again, for a large database (pgliteSizing). Like --liftoff-only it applies to modules
 * compiled afterwards, and a process that opened a large database keeps it.
 */
function useOptimisedWasmCode(): void {
  setFlagsFromString('--no-liftoff-only');
  baselineOnly = false;
}

/**
 * V8 counts PGlite's WASM memory (600 MB and more) as external memory, and with that much it treats the small JS
 * heap (about 20 MB) as short of room: whenever the program allocates quickly it starts incremental marking again
 * right after each full GC. A 512 MB upload, whose request chunks are all new Buffers, ran 25-40 full GCs that way,
 * with concurrent marking threads taking 0.8 s of CPU beside the 1.1 s of the upload itself. Without incremental
 * marking V8 runs a full GC only when the old generation reaches its limit, in one pause (a few ms for this heap):
 * measured, the same upload ran 0-3 of them, and the emulator's CPU per upload fell from 1.7-2.0 s to about 1.0 s.
 * Process-wide like the flag above, and set at the same point.
 */
let markingSwitchedOff = false;
function markOnlyAtTheLimit(): void {
  if (markingSwitchedOff) return;
  // V8 reads its GC flags from its marking threads too: switched while a marking cycle runs, one of them can hit a
  // state it cannot be in and abort the process (seen: 1 test run in 3 died so). A full GC first ends any cycle,
  // and no new one can begin before the next line, as nothing runs in between.
  collectGarbage();
  setFlagsFromString('--no-incremental-marking');
  markingSwitchedOff = true;
}

/**
 * On a new database PGlite runs initdb with a throw-away PostgreSQL of its own (another WASM instance, 400-500 MB
 * of linear memory here, and the new data folder as an in-memory tarball) and closes it, but all of that is given
 * back only by a major GC, which an emulator idling between requests may not run for a long time: measured, a new
 * emulator stayed at 300-620 MB (median 480) without this GC and at 260-285 MB with it. Only the start that ran
 * initdb calls it.
 */
function releaseInitdbMemory(): void {
  collectGarbage();
}

/** A full GC now. `gc` is reached through the V8 flag rather than asking users to start node with --expose-gc. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  gc?.();
}

/** Further initdb and start parameters, for building the prepared data folders (see state/prepareMain.ts). */
export interface PgliteTuning {
  initdbArgs?: string[];
  startParams?: string[];
  /** The size the database is run for (pgliteSizing); the default keeps the small footprint. */
  sizing?: PgliteSizing;
  /** PostgreSQL's WASM module, compiled already (see compileBundledWasm). */
  wasmModule?: WebAssembly.Module;
}

/**
 * Compiles the bundle's copy of PostgreSQL's WASM module (none beside the TypeScript sources), so that it can be
 * compiled while a new data folder is being unpacked instead of after.
 */
async function compileBundledWasm(): Promise<WebAssembly.Module | undefined> {
  const file = join(__dirname, 'pglite.wasm');
  if (!existsSync(file)) return undefined;
  useBaselineWasmCode();
  return WebAssembly.compile(await readFile(file));
}

/** A PGlite over `dataDir` (a folder, or `memory://`), with the emulator's extensions and start parameters. */
export async function createPglite(dataDir: string, template?: Blob, tuning: PgliteTuning = {}): Promise<PGlite> {
  // The extension module is ESM-only in its typings; a dynamic import works from CJS and bundles alike.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const sizing = tuning.sizing ?? pgliteSizing(0);
  if (sizing.optimisedCode) useOptimisedWasmCode();
  else useBaselineWasmCode();
  markOnlyAtTheLimit();
  return PGlite.create(dataDir, {
    extensions: { pg_trgm: locateBundled(pg_trgm) },
    startParams: [...PGlite.defaultStartParams, ...sizing.startParams, ...(tuning.startParams ?? [])],
    ...(tuning.initdbArgs ? { initDbStartParams: tuning.initdbArgs } : {}),
    ...(tuning.wasmModule ? { pgliteWasmModule: tuning.wasmModule } : {}),
    ...(template ? { loadDataDir: template } : {}),
  });
}

/** The script that initialises a data folder in a process of its own: built beside the emulator's bundle. */
const INITDB_SCRIPT = join(__dirname, 'initdb.js');

/**
 * Runs initdb for a new data folder in a short-lived process of its own (dist/initdb.js), so that none of its
 * memory stays with the emulator. In process, initdb's throw-away PostgreSQL (another WASM instance of 400-500 MB,
 * and its compilation) took the emulator's peak to 670 MB at a first start, and the allocator kept about 40 MB of
 * it for good after the GC that gave the rest back (releaseInitdbMemory). The TypeScript sources (tests) have no
 * such script and initialise in process.
 */
async function initdbApart(dataDir: string): Promise<void> {
  const child = spawn(process.execPath, [INITDB_SCRIPT, dataDir], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`initialising the database in ${dataDir} failed (exit code ${code}): ${stderr.trim()}`);
}

/**
 * Unpacks a prepared data directory (a brotli tarball of one, entries relative to it) as `pgdataDir`, which must be
 * missing or empty. It is unpacked beside it and renamed into place, so a start killed half way leaves no half
 * data directory to be taken for a whole one.
 */
async function unpackPgdata(tarball: string, pgdataDir: string): Promise<void> {
  const partial = `${pgdataDir}.${randomBytes(4).toString('hex')}.partial`;
  mkdirSync(partial, { recursive: true });
  try {
    // Decompressed in the thread pool while the chunks already out are parsed and their files written.
    const decompress = createBrotliDecompress({ chunkSize: 256 * 1024 });
    decompress.end(await readFile(tarball));
    await untarChunks(decompress, partial);
    try {
      rmdirSync(pgdataDir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    renameSync(partial, pgdataDir);
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    throw err;
  }
}

export interface OpenPgliteOptions extends PgliteTuning {
  /** A new data folder starts from this tarball of a data directory (prepared at build time) instead of initdb. */
  prepared?: string;
  /** The records the tenant is about to be grown to (`--records`): sized for them rather than for the folder now. */
  expectedRecords?: number;
}

/** Opens PGlite; `data` is a folder (created when missing) or ':memory:', optionally starting from a snapshot. */
export async function openPglite(data: string, template?: Blob, options: OpenPgliteOptions = {}): Promise<PgliteStore> {
  let dataDir: string | undefined;
  let unlock = () => undefined as void;
  if (data !== ':memory:') {
    dataDir = resolve(data, 'pgdata');
    mkdirSync(dataDir, { recursive: true });
    unlock = lockFolder(resolve(data));
  }
  // relaxedDurability stays off: a query resolves only after its writes reached the file system,
  // which is what lets an acknowledged write survive kill -9.
  let initdb = !template && !(dataDir && existsSync(join(dataDir, 'PG_VERSION')));
  let db: PGlite;
  // Sized for the folder as it is, or for the records it is about to be grown to.
  const sizing = pgliteSizing(Math.max(dataDir ? folderBytes(dataDir) : 0, (options.expectedRecords ?? 0) * BYTES_PER_RECORD));
  try {
    if (initdb && dataDir && options.prepared) {
      // Compiled early with baseline code only: a tenant to be grown large compiles after unpacking instead.
      const compiled = sizing.optimisedCode ? Promise.resolve(undefined) : compileBundledWasm();
      compiled.catch(() => undefined);
      await unpackPgdata(options.prepared, dataDir);
      startMark('prepared tenant unpacked');
      options = { ...options, wasmModule: await compiled };
      startMark('wasm compiled');
      initdb = false;
    } else if (initdb && dataDir && existsSync(INITDB_SCRIPT) && !options.initdbArgs) {
      await initdbApart(dataDir);
      initdb = false;
    }
    db = await createPglite(dataDir ?? 'memory://', template, { sizing, ...options });
  } catch (err) {
    unlock();
    throw err;
  }
  startMark('pglite created');
  if (initdb) releaseInitdbMemory();
  const base = wrap(db);
  return {
    kind: 'pglite',
    query: base.query,
    exec: base.exec,
    transaction: <T>(fn: (tx: StoreTransaction) => Promise<T>) => db.transaction((tx) => fn(wrap(tx))),
    close: async () => {
      try {
        await db.close();
      } finally {
        unlock();
      }
    },
    snapshot: async () => db.dumpDataDir('none'),
  };
}
