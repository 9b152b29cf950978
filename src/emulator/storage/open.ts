// Picks the backend: node-postgres when a database URL is given, PGlite otherwise.
import { join } from 'node:path';
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

/**
 * The folder a PostgreSQL-backed emulator keeps its files in (blobs, named snapshots) when `--data` names none:
 * `<base>/postgres/<host>_<port>/<database>/<schema>`, one per schema, so two emulators on two schemas never share
 * blobs. Each part is escaped (encodeURIComponent, and a leading dot) so two different URLs never name one folder;
 * the user, password and other parameters of the URL play no part.
 */
export function postgresFilesFolder(database: string, base = '.dam-emulator'): string {
  const url = new URL(database);
  const host = url.hostname || url.searchParams.get('host') || 'localhost';
  const db = decodeURIComponent(url.pathname.replace(/^\//, '')) || decodeURIComponent(url.username) || 'postgres';
  const schema = url.searchParams.get('schema') ?? 'dam_emulator';
  const safe = (part: string) => encodeURIComponent(part).replace(/^\./, '%2E');
  return join(base, 'postgres', `${safe(host)}_${url.port || '5432'}`, safe(db), safe(schema));
}
