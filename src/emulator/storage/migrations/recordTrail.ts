// The record trail (real-service-notes, second round: `record/{id}/trail`, `trail/entry/{id}`): one entry per write
// of a record through the API, with the properties, fields, classifications and files it changed.
import type { Migration } from '../migrate';

export const recordTrail: Migration = {
  id: '011-record-trail',
  sql: `
CREATE TABLE trail_entries (
  id text PRIMARY KEY,
  record_id text NOT NULL,
  user_id integer NOT NULL,
  action text NOT NULL,
  created_on timestamptz NOT NULL,
  changes jsonb NOT NULL DEFAULT '[]'
);
CREATE INDEX trail_entries_record ON trail_entries (record_id, created_on, id);
`,
};
