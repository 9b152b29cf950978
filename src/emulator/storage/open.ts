// Picks the backend: node-postgres when a database URL is given, PGlite otherwise.
import { openPglite } from './pglite';
import type * as PostgresBackend from './postgres';
import type { Store } from './store';

/** `records`: the size the tenant is about to be grown to (`--records`), which PGlite is sized for. */
export async function openStore(options: { data: string; database?: string; prepared?: string; records?: number }): Promise<Store> {
  if (options.database) {
    // node-postgres loads only for a database URL: a PGlite emulator would carry it for nothing (about 4 MB).
    // A plain `require`, which tsx's CJS hook (mocha) and esbuild's bundles both resolve; `import()` of a .ts is not.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { openPostgres } = require('./postgres') as typeof PostgresBackend;
    return openPostgres(options.database);
  }
  return openPglite(options.data, undefined, { prepared: options.prepared, expectedRecords: options.records });
}
