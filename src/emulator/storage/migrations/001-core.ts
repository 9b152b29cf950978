// The core tables: identity, tokens, languages, content types, classifications, fields, records, settings.
import type { Migration } from '../migrate';

export const core: Migration = {
  id: '001-core',
  sql: `
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);

CREATE TABLE users (
  id integer PRIMARY KEY,
  login text NOT NULL UNIQUE,
  password text NOT NULL,
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  email text NOT NULL DEFAULT '',
  is_admin boolean NOT NULL DEFAULT false,
  active boolean NOT NULL DEFAULT true,
  language_id text NOT NULL DEFAULT '00000000000000000000000000000000',
  created_on timestamptz NOT NULL DEFAULT now(),
  modified_on timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE user_groups (
  id integer PRIMARY KEY,
  name text NOT NULL UNIQUE,
  created_on timestamptz NOT NULL DEFAULT now(),
  modified_on timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE user_group_members (
  group_id integer NOT NULL REFERENCES user_groups(id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, user_id)
);
CREATE TABLE roles (id integer PRIMARY KEY, name text NOT NULL UNIQUE);

CREATE TABLE clients (
  client_id text PRIMARY KEY,
  secret text NOT NULL,
  user_id integer NOT NULL REFERENCES users(id),
  privileges text[] NOT NULL DEFAULT '{}'
);
CREATE TABLE access_tokens (
  token text PRIMARY KEY,
  client_id text NOT NULL,
  user_id integer NOT NULL,
  scope text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE TABLE auth_codes (
  code text PRIMARY KEY,
  client_id text NOT NULL,
  user_id integer NOT NULL,
  redirect_uri text NOT NULL,
  code_challenge text NOT NULL,
  scope text NOT NULL,
  expires_at timestamptz NOT NULL,
  used boolean NOT NULL DEFAULT false
);

CREATE TABLE languages (
  id text PRIMARY KEY,
  culture text NOT NULL UNIQUE,
  name text NOT NULL,
  is_neutral boolean NOT NULL DEFAULT false
);

CREATE TABLE content_types (
  id text PRIMARY KEY,
  name text NOT NULL UNIQUE,
  labels jsonb NOT NULL DEFAULT '[]'
);

CREATE TABLE classifications (
  id text PRIMARY KEY,
  identifier text NOT NULL,
  name text NOT NULL,
  parent_id text REFERENCES classifications(id) ON DELETE CASCADE,
  sort_index integer NOT NULL DEFAULT 0,
  sort_order text NOT NULL DEFAULT 'SortIndex',
  labels jsonb NOT NULL DEFAULT '[]',
  name_path text NOT NULL,
  label_path text NOT NULL,
  created_on timestamptz NOT NULL DEFAULT now(),
  modified_on timestamptz NOT NULL DEFAULT now(),
  created_by integer,
  modified_by integer
);
CREATE INDEX classifications_parent ON classifications(parent_id);
CREATE INDEX classifications_name_path ON classifications(name_path text_pattern_ops);
CREATE INDEX classifications_name_trgm ON classifications USING gin (name gin_trgm_ops);

CREATE TABLE field_groups (
  id text PRIMARY KEY,
  name text NOT NULL UNIQUE,
  labels jsonb NOT NULL DEFAULT '[]',
  sort_index integer NOT NULL DEFAULT 0,
  created_on timestamptz NOT NULL DEFAULT now(),
  modified_on timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE field_definitions (
  id text PRIMARY KEY,
  name text NOT NULL UNIQUE,
  labels jsonb NOT NULL DEFAULT '[]',
  data_type text NOT NULL,
  field_group_id text REFERENCES field_groups(id) ON DELETE SET NULL,
  is_required boolean NOT NULL DEFAULT false,
  is_localizable boolean NOT NULL DEFAULT false,
  default_value jsonb,
  options jsonb NOT NULL DEFAULT '[]',
  root_classification_id text,
  sort_index integer NOT NULL DEFAULT 0,
  created_on timestamptz NOT NULL DEFAULT now(),
  modified_on timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE records (
  id text PRIMARY KEY,
  title text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'Draft',
  content_type text NOT NULL DEFAULT 'Image',
  tag text,
  text_content text,
  has_image_overlay boolean NOT NULL DEFAULT false,
  ai_influenced boolean NOT NULL DEFAULT false,
  -- Text beyond the title that full-text search covers (text field values); title lexemes get weight A
  -- so Title contains can use the same index as a bare full-text term.
  search_text text NOT NULL DEFAULT '',
  tsv tsvector GENERATED ALWAYS AS (setweight(to_tsvector('simple', title), 'A') || to_tsvector('simple', search_text)) STORED,
  file_count integer NOT NULL DEFAULT 0,
  created_on timestamptz NOT NULL DEFAULT now(),
  modified_on timestamptz NOT NULL DEFAULT now(),
  created_by integer NOT NULL DEFAULT 1,
  modified_by integer NOT NULL DEFAULT 1
);
CREATE INDEX records_tsv ON records USING gin (tsv);
CREATE INDEX records_title_trgm ON records USING gin (title gin_trgm_ops);
CREATE INDEX records_created_on ON records(created_on, id);
CREATE INDEX records_modified_on ON records(modified_on, id);
CREATE INDEX records_title ON records(title, id);

CREATE TABLE record_classifications (
  record_id text NOT NULL REFERENCES records(id) ON DELETE CASCADE,
  classification_id text NOT NULL REFERENCES classifications(id) ON DELETE CASCADE,
  sort_index integer NOT NULL DEFAULT 0,
  PRIMARY KEY (record_id, classification_id)
);
CREATE INDEX record_classifications_cls ON record_classifications(classification_id);

CREATE TABLE field_values (
  record_id text NOT NULL REFERENCES records(id) ON DELETE CASCADE,
  field_id text NOT NULL REFERENCES field_definitions(id) ON DELETE CASCADE,
  language_id text NOT NULL,
  value jsonb NOT NULL,
  value_text text,
  value_date timestamptz,
  PRIMARY KEY (record_id, field_id, language_id)
);
CREATE INDEX field_values_field_date ON field_values(field_id, value_date);
CREATE INDEX field_values_field_text ON field_values(field_id, value_text);

-- Files arrive with a later issue; the relation exists so records can point at it already.
CREATE TABLE files (
  id text PRIMARY KEY,
  record_id text NOT NULL REFERENCES records(id) ON DELETE CASCADE,
  is_master boolean NOT NULL DEFAULT false,
  created_on timestamptz NOT NULL DEFAULT now(),
  modified_on timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX files_record ON files(record_id);

-- The fixed set of four check categories; the check framework's routes read it.
CREATE TABLE check_categories (id text PRIMARY KEY, name text NOT NULL UNIQUE);

CREATE TABLE setting_definitions (
  name text PRIMARY KEY,
  id text NOT NULL UNIQUE,
  category text NOT NULL,
  data_type text NOT NULL,
  description text NOT NULL DEFAULT '',
  default_value jsonb
);
CREATE TABLE settings (
  name text PRIMARY KEY REFERENCES setting_definitions(name) ON DELETE CASCADE,
  value jsonb NOT NULL,
  modified_on timestamptz NOT NULL DEFAULT now()
);
`,
};
