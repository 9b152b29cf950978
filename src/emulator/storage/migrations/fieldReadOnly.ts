// Field definitions a tenant marks read-only: shown on records, refused in a record write.
import type { Migration } from '../migrate';

export const fieldReadOnly: Migration = {
  id: '008-field-read-only',
  sql: `ALTER TABLE field_definitions ADD COLUMN is_read_only boolean NOT NULL DEFAULT false;`,
};
