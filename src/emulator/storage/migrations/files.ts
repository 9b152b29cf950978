// Files: upload sessions and their segments, file versions of records, additional files (renditions),
// maintenance jobs, and the check framework's checks, results and findings. Bytes live in the blob
// store (src/emulator/blobs.ts); rows name them by blob key.
import type { Migration } from '../migrate';

export const files: Migration = {
  id: '004-files',
  sql: `
-- One row per upload: a single-request upload is born 'committed'; a segmented one is 'open' until its
-- commit. A committed upload is consumed once by a file version (or a task attachment version).
CREATE TABLE uploads (
  token text PRIMARY KEY,
  file_id text NOT NULL UNIQUE,
  filename text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('single', 'segmented')),
  state text NOT NULL CHECK (state IN ('open', 'committed', 'consumed', 'cancelled')),
  blob text,
  size bigint,
  sha256 text,
  user_id integer NOT NULL,
  created_on timestamptz NOT NULL DEFAULT now(),
  committed_on timestamptz,
  consumed_on timestamptz
);
CREATE INDEX uploads_state ON uploads(state, created_on);
CREATE TABLE upload_segments (
  token text NOT NULL REFERENCES uploads(token) ON DELETE CASCADE,
  index integer NOT NULL CHECK (index >= 0),
  blob text NOT NULL,
  size bigint NOT NULL,
  PRIMARY KEY (token, index)
);

ALTER TABLE files ADD COLUMN checked_out_by integer;
ALTER TABLE files ADD COLUMN file_type text;

CREATE TABLE file_versions (
  id text PRIMARY KEY,
  file_id text NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  record_id text NOT NULL REFERENCES records(id) ON DELETE CASCADE,
  version_number integer NOT NULL,
  version_label text,
  comment text,
  filename text NOT NULL,
  extension text NOT NULL DEFAULT '',
  mime_type text NOT NULL DEFAULT 'application/octet-stream',
  file_size bigint NOT NULL DEFAULT 0,
  checksum text,
  -- Null for a seeded version whose bytes are made on first read from \`generator\` (the in-memory template
  -- database is copied without the blob folder, so seeded bytes must be reproducible from the row alone).
  blob text,
  generator jsonb,
  -- Image facts, null when the version is not an image (then previews and thumbnails answer 404).
  width integer,
  height integer,
  -- Previews and thumbnails are rendered on first request and kept as blobs.
  preview_blob text,
  thumbnail_blob text,
  upload_token text,
  created_on timestamptz NOT NULL DEFAULT now(),
  created_by integer NOT NULL DEFAULT 1,
  UNIQUE (file_id, version_number)
);
CREATE INDEX file_versions_record ON file_versions(record_id);

CREATE TABLE additional_files (
  id text PRIMARY KEY,
  file_version_id text NOT NULL REFERENCES file_versions(id) ON DELETE CASCADE,
  name text NOT NULL,
  label text,
  preset text,
  format text NOT NULL,
  mime_type text NOT NULL,
  usages jsonb NOT NULL DEFAULT '[]',
  width integer,
  height integer,
  file_size bigint NOT NULL DEFAULT 0,
  blob text NOT NULL,
  job_id text,
  created_on timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX additional_files_version ON additional_files(file_version_id);

CREATE TABLE maintenance_jobs (
  id text PRIMARY KEY,
  type text NOT NULL,
  status text NOT NULL,
  actions jsonb NOT NULL DEFAULT '[]',
  targets jsonb NOT NULL DEFAULT '[]',
  targets_count integer NOT NULL DEFAULT 0,
  failed_targets_count integer NOT NULL DEFAULT 0,
  errors jsonb NOT NULL DEFAULT '[]',
  message text,
  created_on timestamptz NOT NULL DEFAULT now(),
  started_on timestamptz,
  finished_on timestamptz,
  created_by integer NOT NULL DEFAULT 1
);

CREATE TABLE checks (
  id text PRIMARY KEY,
  name text NOT NULL UNIQUE,
  action_type_id text NOT NULL,
  check_category_id text NOT NULL REFERENCES check_categories(id),
  created_on timestamptz NOT NULL DEFAULT now(),
  modified_on timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE check_results (
  id text PRIMARY KEY,
  file_version_id text NOT NULL REFERENCES file_versions(id) ON DELETE CASCADE,
  check_id text NOT NULL REFERENCES checks(id) ON DELETE CASCADE,
  record_id text NOT NULL,
  outcome text CHECK (outcome IS NULL OR outcome IN ('pass', 'fail', 'warning', 'info')),
  description text NOT NULL,
  created_on timestamptz NOT NULL DEFAULT now(),
  modified_on timestamptz NOT NULL DEFAULT now(),
  created_by integer NOT NULL DEFAULT 1
);
CREATE INDEX check_results_version ON check_results(file_version_id, check_id, created_on);
CREATE TABLE check_findings (
  result_id text NOT NULL REFERENCES check_results(id) ON DELETE CASCADE,
  occurrence integer NOT NULL,
  id text NOT NULL UNIQUE,
  finding text NOT NULL,
  explanation text,
  recommendation text,
  outcome text NOT NULL CHECK (outcome IN ('pass', 'fail', 'warning', 'info')),
  PRIMARY KEY (result_id, occurrence)
);

`,
};
