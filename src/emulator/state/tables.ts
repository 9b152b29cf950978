// What of the database is the tenant's state, and which of its tables changed since a snapshot: each table counts
// its writing statements in a sequence of its own (a statement trigger), so a restore loads only the tables whose
// content differs from the snapshot's, and leaves the rest, usually the large analytics tables, alone.
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../storage/store';

/**
 * Tables that belong to this emulator rather than to the tenant: never saved, never replaced. Access tokens and
 * authorization codes stay valid across a restore (tests restore before each test and keep their token), and they
 * are secrets, so a snapshot handed to someone else must not carry them.
 */
const OWN_TABLES = new Set(['schema_migrations', 'access_tokens', 'auth_codes', 'dam_table_state', 'dam_search_writes']);

/** Rows of tenant tables that belong to this emulator: the tenant secret (signing cursors and download links) stays. */
export const KEPT_ROWS: Record<string, string> = { meta: `key = 'secret'` };

/** Sequences that count versions for caches rather than hold data: moved on by a restore, never set back. */
export const VERSION_SEQUENCES = new Set(['analytics_data_version']);

const WRITES_PREFIX = 'dam_writes_';

export interface TableInfo {
  name: string;
  /** Stored columns in table order (generated ones are computed again on load). */
  columns: string[];
}

export const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/** The tenant's tables of the current schema, parents before the tables that reference them. */
export async function tenantTables(db: Queryable): Promise<TableInfo[]> {
  const rows = await db.query<{ name: string; columns: string[] }>(
    `SELECT c.relname AS name, array_agg(a.attname::text ORDER BY a.attnum) AS columns
       FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
        AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      GROUP BY c.relname ORDER BY c.relname`,
  );
  const tables = rows.filter((r) => !OWN_TABLES.has(r.name));
  const refs = await references(db);
  const ordered: TableInfo[] = [];
  const placed = new Set<string>();
  const place = (t: TableInfo, path: Set<string>) => {
    if (placed.has(t.name) || path.has(t.name)) return;
    path.add(t.name);
    for (const parent of refs.get(t.name) ?? []) {
      const p = tables.find((x) => x.name === parent);
      if (p) place(p, path);
    }
    placed.add(t.name);
    ordered.push(t);
  };
  for (const t of tables) place(t, new Set());
  return ordered;
}

/** For each table, the tables its foreign keys point at (itself left out). */
async function references(db: Queryable): Promise<Map<string, string[]>> {
  const rows = await db.query<{ child: string; parent: string }>(
    `SELECT DISTINCT c.relname AS child, p.relname AS parent FROM pg_constraint k
       JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
      WHERE k.contype = 'f' AND k.connamespace = current_schema()::regnamespace AND c.oid <> p.oid`,
  );
  const map = new Map<string, string[]>();
  for (const r of rows) map.set(r.child, [...(map.get(r.child) ?? []), r.parent]);
  return map;
}

/** For each table, the tables whose foreign keys point at it (itself left out). */
export async function referencedBy(db: Queryable): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  for (const [child, parents] of await references(db)) for (const parent of parents) map.set(parent, [...(map.get(parent) ?? []), child]);
  return map;
}

/** `tables` and every table that references one of them, directly or not: emptying a parent empties or blocks those. */
export async function withDependants(db: Queryable, tables: Set<string>): Promise<Set<string>> {
  const refs = await references(db);
  const out = new Set(tables);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [child, parents] of refs) {
      if (!out.has(child) && parents.some((p) => out.has(p))) {
        out.add(child);
        grew = true;
      }
    }
  }
  return out;
}

/** The tenant's sequences (id generators) of the current schema. */
export async function tenantSequences(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'S' ORDER BY 1`,
  );
  return rows.map((r) => r.name).filter((n) => !n.startsWith(WRITES_PREFIX) && !VERSION_SEQUENCES.has(n));
}

/** Installs the write counters on tables that lack them (tables added by later migrations get theirs here). */
export async function ensureTracking(db: Queryable, tables: TableInfo[]): Promise<void> {
  const have = new Set(
    (
      await db.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
          WHERE t.tgname = 'dam_writes' AND c.relnamespace = current_schema()::regnamespace`,
      )
    ).map((r) => r.name),
  );
  const missing = tables.filter((t) => !have.has(t.name));
  if (!missing.length) return;
  await db.exec(`
    CREATE TABLE IF NOT EXISTS dam_table_state (table_name text PRIMARY KEY, writes bigint NOT NULL, content text NOT NULL);
    CREATE OR REPLACE FUNCTION dam_count_write() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      PERFORM nextval(TG_ARGV[0]);
      RETURN NULL;
    END
    $fn$;`);
  for (const t of missing) {
    const seq = WRITES_PREFIX + t.name;
    await db.exec(
      `CREATE SEQUENCE IF NOT EXISTS ${quote(seq)};
       CREATE OR REPLACE TRIGGER dam_writes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${quote(t.name)}
         FOR EACH STATEMENT EXECUTE FUNCTION dam_count_write('${seq}')`,
    );
  }
}

/** Each table's writing statements so far (sequences are not transactional: a rolled-back write counts too). */
async function writeCounts(db: Queryable, tables: TableInfo[]): Promise<Map<string, number>> {
  if (!tables.length) return new Map();
  const sql = tables
    .map((t) => `SELECT '${t.name}' AS name, CASE WHEN is_called THEN last_value ELSE 0 END::bigint AS writes FROM ${quote(WRITES_PREFIX + t.name)}`)
    .join(' UNION ALL ');
  const rows = await db.query<{ name: string; writes: string | number }>(sql);
  return new Map(rows.map((r) => [r.name, Number(r.writes)]));
}

/**
 * The content id of each table: the id recorded when it was last saved or loaded, as long as no statement wrote to
 * it since; undefined for a table changed since (or never saved).
 */
export async function contentIds(db: Queryable, tables: TableInfo[]): Promise<Map<string, string | undefined>> {
  const counts = await writeCounts(db, tables);
  const known = new Map(
    (await db.query<{ table_name: string; writes: string | number; content: string }>('SELECT table_name, writes, content FROM dam_table_state')).map((r) => [
      r.table_name,
      r,
    ]),
  );
  const out = new Map<string, string | undefined>();
  for (const t of tables) {
    const k = known.get(t.name);
    out.set(t.name, k && Number(k.writes) === counts.get(t.name) ? k.content : undefined);
  }
  return out;
}

/** Records that `tables` now hold the given content (after saving or loading them). */
export async function recordContent(db: Queryable, tables: TableInfo[], content: Map<string, string>): Promise<void> {
  const counts = await writeCounts(db, tables);
  const names = tables.map((t) => t.name);
  await db.query(
    `INSERT INTO dam_table_state (table_name, writes, content) SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[])
     ON CONFLICT (table_name) DO UPDATE SET writes = EXCLUDED.writes, content = EXCLUDED.content`,
    [names, names.map((n) => counts.get(n) ?? 0), names.map((n) => content.get(n)!)],
  );
}

export const newContentId = () => randomUUID().replace(/-/g, '');
