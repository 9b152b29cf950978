// Issue 36: a file's check-out (POST/DELETE /file/{id}/checkouts, aprimo-js `files`) keeps when it was checked out,
// which the file answers as checkedOutOn; who is in checked_out_by since 003.
import type { Migration } from '../migrate';

export const fileCheckout: Migration = {
  id: '018-file-checkout',
  sql: `ALTER TABLE files ADD COLUMN checked_out_on timestamptz;`,
};
