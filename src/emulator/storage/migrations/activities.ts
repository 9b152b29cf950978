// Issue 36: work-management activities (the SDK's Activity model: an owner, an administrator, a type, a state, a
// currency and a date window), the parent of projects (a project's activityId). Integer ids, as work management names
// everything; new ones start above the demo's.
import type { Migration } from '../migrate';

export const activities: Migration = {
  id: '017-activities',
  sql: `
CREATE SEQUENCE IF NOT EXISTS wm_activity_ids START 1000;
CREATE TABLE IF NOT EXISTS wm_activities (
  id integer PRIMARY KEY DEFAULT nextval('wm_activity_ids'),
  name text NOT NULL,
  description text,
  activity_type_id integer NOT NULL,
  activity_state_id integer NOT NULL,
  owner_id integer NOT NULL,
  administrator_id integer NOT NULL,
  begin_date text NOT NULL,
  end_date text NOT NULL,
  visual_end_date text,
  currency_code integer NOT NULL,
  scs_id integer,
  time_zone_id integer NOT NULL,
  modified_user integer NOT NULL,
  modified_date text NOT NULL
);
ALTER TABLE wm_projects ADD COLUMN IF NOT EXISTS activity_id integer REFERENCES wm_activities(id);
`,
};
