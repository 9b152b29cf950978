// The stamp of the database state a records search reads (migration 016-search-stamp): the search index kept in the
// data folder (indexFile.ts) is used only by a start whose database has the same stamp.
import { createHash } from 'node:crypto';
import type { Queryable } from '../storage/store';

/**
 * What changes the stamp besides the tables' writes: the version of this index's file format (a change of what the
 * index holds or how it is written), the schema (a migration rewrites tables without a row trigger firing), and the
 * database's version (the lexemes and lower() the index holds are the server's).
 */
export const INDEX_FORMAT = 1;

/**
 * The stamp, or undefined when the database has no write log (a schema before 016). Two parts: the schema's and the
 * set of write ids, so that a save which compacts the log to one new id can stamp the file with it (`withWrites`).
 */
export async function searchStamp(db: Queryable): Promise<string | undefined> {
  let writes: string[];
  try {
    writes = (await db.query<{ id: string }>(`SELECT id::text AS id FROM dam_search_writes`)).map((r) => r.id);
  } catch {
    return undefined;
  }
  const migrations = (await db.query<{ id: string }>(`SELECT id FROM schema_migrations ORDER BY id`)).map((r) => r.id);
  const [server] = await db.query<{ v: string }>(`SELECT version() AS v`);
  const schema = hash(JSON.stringify({ format: INDEX_FORMAT, migrations, server: server?.v ?? '' }));
  return withWrites(`${schema}.`, writes);
}

/** `stamp` with its write ids replaced by `writes`. */
export function withWrites(stamp: string, writes: string[]): string {
  return `${stamp.slice(0, stamp.indexOf('.'))}.${hash([...writes].sort().join(','))}`;
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
