// Download orders (POST /orders) and the optional priority of maintenance jobs, which live clients send.
import type { Migration } from '../migrate';

export const orders: Migration = {
  id: '006-orders',
  sql: `
CREATE TABLE orders (
  id text PRIMARY KEY,
  type text NOT NULL,
  status text NOT NULL,
  targets jsonb NOT NULL DEFAULT '[]',
  -- What the order delivers: file versions by id; download links are minted per read (they expire).
  delivered jsonb NOT NULL DEFAULT '[]',
  errors jsonb NOT NULL DEFAULT '[]',
  disable_notification boolean NOT NULL DEFAULT false,
  created_on timestamptz NOT NULL DEFAULT now(),
  finished_on timestamptz,
  created_by integer NOT NULL
);
ALTER TABLE maintenance_jobs ADD COLUMN priority text NOT NULL DEFAULT 'Medium';
`,
};
