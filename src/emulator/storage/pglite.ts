// The default backend: embedded PostgreSQL (PGlite, WASM) persisted in the data folder, or in memory.
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Queryable, SqlParam, Store } from './store';

function wrap(db: PGlite | Transaction): Queryable {
  return {
    async query<T>(sql: string, params: SqlParam[] = []) {
      const result = await db.query<T>(sql, params);
      return result.rows;
    },
    async exec(sql: string) {
      await db.exec(sql);
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
 * One emulator per data folder: two PGlite instances writing the same files would corrupt them. A lock
 * left by a killed process (kill -9) names a dead pid and is taken over.
 */
function lockFolder(folder: string): () => void {
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

/** Opens PGlite; `data` is a folder (created when missing) or ':memory:', optionally starting from a snapshot. */
export async function openPglite(data: string, template?: Blob): Promise<PgliteStore> {
  let dataDir: string | undefined;
  let unlock = () => undefined as void;
  if (data !== ':memory:') {
    dataDir = resolve(data, 'pgdata');
    mkdirSync(dataDir, { recursive: true });
    unlock = lockFolder(resolve(data));
  }
  // relaxedDurability stays off: a query resolves only after its writes reached the file system,
  // which is what lets an acknowledged write survive kill -9.
  // The extension module is ESM-only in its typings; a dynamic import works from CJS and bundles alike.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  let db: PGlite;
  try {
    db = await PGlite.create(dataDir ?? 'memory://', { extensions: { pg_trgm: locateBundled(pg_trgm) }, ...(template ? { loadDataDir: template } : {}) });
  } catch (err) {
    unlock();
    throw err;
  }
  const base = wrap(db);
  return {
    kind: 'pglite',
    query: base.query,
    exec: base.exec,
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction((tx) => fn(wrap(tx))),
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
