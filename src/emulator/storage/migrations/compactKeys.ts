// Issue 37, part 2: the disk of a big tenant. At 100,000 records `field_values` held 64 % of the tables and indexes,
// most of it three 32-character text ids on each of its six rows a record (33 bytes each, in the heap and again in
// every index). The ids in `field_values` and `record_classifications` become `uuid` (16 bytes): the same 32 hex
// digits, so a literal or a parameter compares unchanged through `dam_uid`, and the API's ids stay as they were.
//
// `records`, `classifications` and `field_definitions` keep their text ids (every statement that answers a client
// reads them) and gain `uid`, the same id as a uuid, generated from it and unique: the foreign keys (and their
// cascades, which snapshots rely on to know which tables go together) point at it, and searches join on it.
//
// `dam_uid` takes any text: an id of 32 lower-case hex digits is that uuid; any other text (a tenant folder may name
// a classification or a field as it likes) is the md5 of it, so every id has exactly one uid.
//
// The indexes lose what no statement used: `field_values_field_text` (every comparison of a value's text is of
// `lower(value_text)`, which `field_values_field_lower_text` holds), and the NULL dates of `field_values_field_date`
// (five of the six values of a record are not dates; a date comparison never matches a NULL). The B-trees of the
// two tables are kept full (fillfactor 100, not 90): their rows are added in key order by a growth and seldom
// rewritten, so the room left on each page for updates would stay empty.
import type { Migration } from '../migrate';

export const compactKeys: Migration = {
  id: '015-compact-keys',
  sql: `
CREATE FUNCTION dam_uid(id text) RETURNS uuid LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $fn$ SELECT CASE WHEN id ~ '^[0-9a-f]{32}$' THEN id::uuid ELSE md5(id)::uuid END $fn$;

ALTER TABLE records ADD COLUMN uid uuid GENERATED ALWAYS AS (dam_uid(id)) STORED;
ALTER TABLE records ADD CONSTRAINT records_uid UNIQUE (uid);
ALTER TABLE classifications ADD COLUMN uid uuid GENERATED ALWAYS AS (dam_uid(id)) STORED;
ALTER TABLE classifications ADD CONSTRAINT classifications_uid UNIQUE (uid);
ALTER TABLE field_definitions ADD COLUMN uid uuid GENERATED ALWAYS AS (dam_uid(id)) STORED;
ALTER TABLE field_definitions ADD CONSTRAINT field_definitions_uid UNIQUE (uid);

DROP INDEX IF EXISTS field_values_field_text;
DROP INDEX IF EXISTS field_values_field_date;
ALTER INDEX field_values_pkey SET (fillfactor = 100);
ALTER INDEX field_values_field_lower_text SET (fillfactor = 100);
ALTER INDEX record_classifications_pkey SET (fillfactor = 100);
ALTER INDEX record_classifications_cls_record SET (fillfactor = 100);
ALTER TABLE field_values
  DROP CONSTRAINT field_values_record_id_fkey,
  DROP CONSTRAINT field_values_field_id_fkey,
  ALTER COLUMN record_id TYPE uuid USING dam_uid(record_id),
  ALTER COLUMN field_id TYPE uuid USING dam_uid(field_id),
  ALTER COLUMN language_id TYPE uuid USING dam_uid(language_id),
  ADD CONSTRAINT field_values_record_id_fkey FOREIGN KEY (record_id) REFERENCES records(uid) ON DELETE CASCADE,
  ADD CONSTRAINT field_values_field_id_fkey FOREIGN KEY (field_id) REFERENCES field_definitions(uid) ON DELETE CASCADE;
CREATE INDEX field_values_field_date ON field_values (field_id, value_date) WITH (fillfactor = 100) WHERE value_date IS NOT NULL;

ALTER TABLE record_classifications
  DROP CONSTRAINT record_classifications_record_id_fkey,
  DROP CONSTRAINT record_classifications_classification_id_fkey,
  ALTER COLUMN record_id TYPE uuid USING dam_uid(record_id),
  ALTER COLUMN classification_id TYPE uuid USING dam_uid(classification_id),
  ADD CONSTRAINT record_classifications_record_id_fkey FOREIGN KEY (record_id) REFERENCES records(uid) ON DELETE CASCADE,
  ADD CONSTRAINT record_classifications_classification_id_fkey FOREIGN KEY (classification_id) REFERENCES classifications(uid) ON DELETE CASCADE;
`,
};
