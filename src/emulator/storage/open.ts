// Picks the backend: node-postgres when a database URL is given, PGlite otherwise.
import { openPglite } from './pglite';
import { openPostgres } from './postgres';
import type { Store } from './store';

export async function openStore(options: { data: string; database?: string }): Promise<Store> {
  if (options.database) return openPostgres(options.database);
  return openPglite(options.data);
}
