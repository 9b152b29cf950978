// Orders as public clients read them (real-service-notes, second round): a numeric priority, when processing began,
// and the creator's email are part of every order answer.
import type { Migration } from '../migrate';

export const orderFields: Migration = {
  id: '009-order-fields',
  sql: `
ALTER TABLE orders ADD COLUMN priority integer NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN started_on timestamptz;
ALTER TABLE orders ADD COLUMN message text NOT NULL DEFAULT '';
`,
};
