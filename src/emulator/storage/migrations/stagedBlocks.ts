// Azure's Put Block (the upload sasUrl, routes/uploads.ts) stages a block until Put Block List names it; Azure keeps
// uncommitted blocks for 7 days, so they are rows here, not memory, and survive a restart. A block belongs to its
// upload (by file id): a committed list, a cancelled upload or the upload sweep removes its rows and returns their
// blobs. A tenant table like upload_segments: a snapshot carries the rows with their blobs, and a restore brings both
// back to the snapshot's.
import type { Migration } from '../migrate';

export const stagedBlocks: Migration = {
  id: '019-staged-blocks',
  sql: `
CREATE TABLE IF NOT EXISTS upload_blocks (
  file_id text NOT NULL REFERENCES uploads(file_id) ON DELETE CASCADE,
  block_id text NOT NULL,
  blob text NOT NULL,
  size bigint NOT NULL,
  staged_on timestamptz NOT NULL,
  PRIMARY KEY (file_id, block_id)
);
`,
};
