// Resources the spec lists that the emulator kept nothing for (collections, watermarks, rules): one table of objects
// by kind with their members as JSON, and the records a static collection holds.
import type { Migration } from '../migrate';

export const configurationObjects: Migration = {
  id: '012-configuration-objects',
  sql: `
CREATE TABLE configuration_objects (
  kind text NOT NULL,
  id text NOT NULL,
  body jsonb NOT NULL DEFAULT '{}',
  created_on timestamptz NOT NULL DEFAULT now(),
  modified_on timestamptz NOT NULL DEFAULT now(),
  created_by text,
  modified_by text,
  PRIMARY KEY (kind, id)
);
CREATE TABLE collection_records (
  collection_id text NOT NULL,
  record_id text NOT NULL REFERENCES records(id) ON DELETE CASCADE,
  added_on timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (collection_id, record_id)
);
CREATE INDEX collection_records_by_record ON collection_records (record_id);
`,
};
