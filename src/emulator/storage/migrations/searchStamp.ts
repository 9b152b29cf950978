// Issue 37: the search index kept in the data folder (search/indexFile.ts) is valid only for the exact state of the
// tables it was read from. Every statement that writes one of them, by any path (the API, a growth, a restore, psql,
// another process on a shared PostgreSQL), adds a random id to `dam_search_writes` from a statement trigger inside
// the database, so no code path can forget it; the index file is stamped with the set of ids it was built under.
//
// An insert of a random id, not a counter: rows of concurrent transactions never wait on each other (an UPDATE of one
// counter row would hold a lock to each writer's commit and could deadlock two of them), a rolled-back write leaves no
// id, and a restored or copied state never comes back to an id it had (a counter can: a snapshot restored, then the
// same number of other writes). ENABLE ALWAYS: the triggers fire under `session_replication_role = replica` too,
// which a growth and an unchecked restore set to skip foreign-key checks.
import type { Migration } from '../migrate';

export const SEARCHED_TABLES = ['records', 'record_classifications', 'classifications', 'field_values', 'field_definitions'];

export const searchStamp: Migration = {
  id: '016-search-stamp',
  sql: `
CREATE TABLE IF NOT EXISTS dam_search_writes (id uuid PRIMARY KEY DEFAULT gen_random_uuid());
INSERT INTO dam_search_writes DEFAULT VALUES;
CREATE OR REPLACE FUNCTION dam_search_write() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO dam_search_writes DEFAULT VALUES;
  RETURN NULL;
END
$fn$;
${SEARCHED_TABLES.map(
  (t) => `CREATE OR REPLACE TRIGGER dam_search_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${t} FOR EACH STATEMENT EXECUTE FUNCTION dam_search_write();
ALTER TABLE ${t} ENABLE ALWAYS TRIGGER dam_search_write;`,
).join('\n')}
`,
};
