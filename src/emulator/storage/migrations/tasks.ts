// Work-management tables: projects and their calendars, simple tasks with assignees or task roles,
// document-upload slots, task attachments and their versions, attachment field definitions and string resources.
import type { Migration } from '../migrate';

export const workManagement: Migration = {
  id: '002-work-management',
  sql: `
CREATE TABLE wm_calendars (
  id integer PRIMARY KEY,
  name text NOT NULL,
  work_days integer[] NOT NULL,
  day_start_minute integer NOT NULL DEFAULT 540
);

CREATE TABLE wm_projects (
  id integer PRIMARY KEY,
  name text NOT NULL,
  status text NOT NULL,
  start_date text NOT NULL,
  time_zone_id integer NOT NULL,
  utc_offset_minutes integer NOT NULL DEFAULT 0,
  default_calendar_id integer NOT NULL REFERENCES wm_calendars(id),
  calendar_ids integer[] NOT NULL,
  activity_editors integer[] NOT NULL DEFAULT '{}'
);

CREATE SEQUENCE wm_task_ids START 6001;
CREATE TABLE wm_tasks (
  id integer PRIMARY KEY DEFAULT nextval('wm_task_ids'),
  project_id integer NOT NULL REFERENCES wm_projects(id),
  name text NOT NULL,
  description text,
  begin_date text NOT NULL,
  end_date text NOT NULL,
  estimated_duration integer NOT NULL,
  status integer NOT NULL,
  start_type integer NOT NULL,
  work_schedule_id integer NOT NULL,
  auto_close integer NOT NULL,
  auto_accept integer NOT NULL,
  work_group_action_id integer NOT NULL,
  -- What was asked for; the answer echoes it per caller (true only for an assignee of a live task).
  can_delegate boolean NOT NULL,
  can_skip integer NOT NULL DEFAULT 1,
  people_kind text NOT NULL CHECK (people_kind IN ('assignees', 'taskRoles')),
  created_by integer NOT NULL,
  created_on timestamptz NOT NULL DEFAULT now(),
  modified_on timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wm_tasks_project ON wm_tasks(project_id);

CREATE SEQUENCE wm_assignee_ids START 70001;
CREATE TABLE wm_task_assignees (
  id integer PRIMARY KEY DEFAULT nextval('wm_assignee_ids'),
  task_id integer NOT NULL REFERENCES wm_tasks(id) ON DELETE CASCADE,
  position integer NOT NULL,
  user_id integer,
  role_id integer,
  estimated_work integer NOT NULL DEFAULT 0,
  delegated_from integer,
  CHECK ((user_id IS NULL) <> (role_id IS NULL))
);
CREATE INDEX wm_task_assignees_task ON wm_task_assignees(task_id);

CREATE SEQUENCE wm_document_ids START 900;
CREATE TABLE wm_document_uploads (
  id integer PRIMARY KEY DEFAULT nextval('wm_document_ids'),
  task_id integer NOT NULL REFERENCES wm_tasks(id) ON DELETE CASCADE,
  name text NOT NULL,
  version_id integer,
  uploaded_on timestamptz
);

CREATE SEQUENCE wm_attachment_ids START 3001;
CREATE TABLE wm_attachments (
  id integer PRIMARY KEY DEFAULT nextval('wm_attachment_ids'),
  task_id integer NOT NULL REFERENCES wm_tasks(id) ON DELETE CASCADE,
  document_id integer NOT NULL REFERENCES wm_document_uploads(id) ON DELETE CASCADE,
  title text NOT NULL,
  description text,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_by integer NOT NULL,
  created_on timestamptz NOT NULL DEFAULT now()
);

CREATE SEQUENCE wm_attachment_version_ids START 4001;
CREATE TABLE wm_attachment_versions (
  id integer PRIMARY KEY DEFAULT nextval('wm_attachment_version_ids'),
  attachment_id integer NOT NULL REFERENCES wm_attachments(id) ON DELETE CASCADE,
  version_number integer NOT NULL,
  file_name text NOT NULL,
  file_id text NOT NULL,
  is_default_version boolean NOT NULL,
  version_type integer NOT NULL,
  created_on timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE wm_attachment_fields (
  name text PRIMARY KEY,
  label_resource_id text NOT NULL,
  data_type text NOT NULL,
  required boolean NOT NULL DEFAULT false,
  options jsonb NOT NULL DEFAULT '[]',
  position integer NOT NULL
);

CREATE TABLE wm_string_resources (
  id text PRIMARY KEY,
  value text NOT NULL,
  is_static boolean NOT NULL
);
`,
};
