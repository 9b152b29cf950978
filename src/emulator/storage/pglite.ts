// The default backend: embedded PostgreSQL (PGlite, WASM) persisted in the data folder, or in memory.
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { existsSync, mkdirSync } from 'node:fs';
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

/** Opens PGlite; `data` is a folder (created when missing) or ':memory:', optionally starting from a snapshot. */
export async function openPglite(data: string, template?: Blob): Promise<PgliteStore> {
  let dataDir: string | undefined;
  if (data !== ':memory:') {
    dataDir = resolve(data, 'pgdata');
    mkdirSync(dataDir, { recursive: true });
  }
  // relaxedDurability stays off: a query resolves only after its writes reached the file system,
  // which is what lets an acknowledged write survive kill -9.
  // The extension module is ESM-only in its typings; a dynamic import works from CJS and bundles alike.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const db = await PGlite.create(dataDir ?? 'memory://', { extensions: { pg_trgm: locateBundled(pg_trgm) }, ...(template ? { loadDataDir: template } : {}) });
  const base = wrap(db);
  return {
    kind: 'pglite',
    query: base.query,
    exec: base.exec,
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction((tx) => fn(wrap(tx))),
    close: () => db.close(),
    snapshot: async () => db.dumpDataDir('none'),
  };
}
