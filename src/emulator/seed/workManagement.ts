// The contract's fixed work-management data: calendars, projects 101–105, tasks 5001 and 5002 with their
// upload slots, the attachment field definitions and the string resources of both kinds.
import type { Seeder } from './seeder';

/** Static strings: labels of the product itself (`mo-replacement-strings-<n>`, n = position + 1). */
export const STATIC_STRINGS = [
  'Save', 'Cancel', 'Delete', 'Edit', 'Close', 'Open', 'Search', 'Filter', 'Sort', 'Refresh',
  'Task', 'Tasks', 'Project', 'Projects', 'Assignee', 'Assignees', 'Begin date', 'End date', 'Duration', 'Status',
  'Draft', 'Projected', 'Pending', 'Assigned', 'In Process', 'Closed', 'Cancelled', 'Removed', 'Accept', 'Decline',
  'Delegate', 'Attachments', 'Upload', 'Version', 'Description', 'Name', 'Calendar', 'Start type', 'Auto close', 'Work group action',
  'Estimated work', 'Days', 'Hours', 'Minutes', 'Time zone', 'Yes', 'No', 'Milestone', 'Comments', 'History',
] as const;

/** Dynamic strings: this tenant's configuration (`mo-encoded-titles-<n>`, n = position + 1). */
export const DYNAMIC_STRINGS = [
  'Creative brief', 'Copy', 'Proof', 'Contract', 'English', 'German', 'French', 'Web', 'Print', 'Document type',
  'Review notes', 'Social', 'Language', 'Channels', 'Confidential', 'Campaign task', 'Review task', 'Approval task', 'Production task', 'Legal review',
  '(UTC) Coordinated Universal Time', '(UTC+01:00) Amsterdam, Berlin, Rome', '(UTC-05:00) Eastern Time', 'Standard calendar', 'Seven-day calendar', 'Marketing', 'Design', 'Brand', 'Product launch', 'Seasonal',
  'Low', 'Normal', 'High', 'Urgent', 'Priority', 'North America', 'Europe', 'Asia Pacific', 'Region', 'Budget code',
  'Final copy', 'Banner proof', 'Press kit', 'Photo shoot', 'Video edit', 'Translation', 'Localisation', 'Sign-off', 'Archive', 'Retired',
] as const;

export const staticStringId = (n: number) => `mo-replacement-strings-${n}`;
export const dynamicStringId = (n: number) => `mo-encoded-titles-${n}`;

/** The time zone every seeded project uses: id 4, the dynamic string 21 names it. */
export const UTC_TIME_ZONE_ID = 4;

const calendars = [
  { id: 1, name: 'Standard', workDays: [1, 2, 3, 4, 5] },
  { id: 2, name: 'Seven-day', workDays: [0, 1, 2, 3, 4, 5, 6] },
];

const projects = [
  { id: 101, name: 'Spring Campaign', status: 'InProcess', start: '2026-03-02T09:00:00', calendars: [1, 2] },
  { id: 102, name: 'Summer Launch', status: 'Draft', start: '2026-06-01T09:00:00', calendars: [1] },
  { id: 103, name: 'Archive 2024', status: 'Closed', start: '2024-01-08T09:00:00', calendars: [1] },
  { id: 104, name: 'Paused Initiative', status: 'Paused', start: '2026-01-05T09:00:00', calendars: [1] },
  { id: 105, name: 'Cancelled Idea', status: 'Cancelled', start: '2025-09-01T09:00:00', calendars: [1] },
];

const option = (key: string, n: number) => ({ key, resourceId: dynamicStringId(n) });
const attachmentFields = [
  { name: 'documentType', label: 10, dataType: 'Picklist', required: false, options: [option('brief', 1), option('copy', 2), option('proof', 3), option('contract', 4)] },
  { name: 'language', label: 13, dataType: 'Picklist', required: false, options: [option('en', 5), option('de', 6), option('fr', 7)] },
  { name: 'channels', label: 14, dataType: 'Multiselect', required: false, options: [option('web', 8), option('print', 9), option('social', 12)] },
  { name: 'reviewNotes', label: 11, dataType: 'Text', required: false, options: [] },
];

export const workManagementSeeder: Seeder = {
  name: 'work-management',
  kind: 'fixed',
  async run(store) {
    for (const c of calendars) {
      await store.query('INSERT INTO wm_calendars (id, name, work_days) VALUES ($1, $2, $3)', [c.id, c.name, c.workDays]);
    }
    for (const p of projects) {
      await store.query(
        `INSERT INTO wm_projects (id, name, status, start_date, time_zone_id, default_calendar_id, calendar_ids)
         VALUES ($1, $2, $3, $4, $5, 1, $6)`,
        [p.id, p.name, p.status, p.start, UTC_TIME_ZONE_ID, p.calendars],
      );
    }
    const tasks = [
      { id: 5001, name: 'Write launch copy', status: 5, begin: '2026-03-02T09:00:00', end: '2026-03-04T17:00:00', duration: 1440, assigneeId: 60001, slot: { id: 801, name: 'Final copy' } },
      { id: 5002, name: 'Review banner', status: 4, begin: '2026-03-03T10:00:00', end: '2026-03-03T10:00:00', duration: 480, assigneeId: 60002, slot: { id: 802, name: 'Banner proof' } },
    ];
    for (const t of tasks) {
      await store.query(
        `INSERT INTO wm_tasks (id, project_id, name, description, begin_date, end_date, estimated_duration, status, start_type,
           work_schedule_id, auto_close, auto_accept, work_group_action_id, can_delegate, people_kind, created_by)
         VALUES ($1, 101, $2, NULL, $3, $4, $5, $6, 1, 1, 0, 0, 2, true, 'assignees', 1)`,
        [t.id, t.name, t.begin, t.end, t.duration, t.status],
      );
      await store.query('INSERT INTO wm_task_assignees (id, task_id, position, user_id, estimated_work) VALUES ($1, $2, 0, 1, $3)', [
        t.assigneeId,
        t.id,
        t.duration,
      ]);
      await store.query('INSERT INTO wm_document_uploads (id, task_id, name) VALUES ($1, $2, $3)', [t.slot.id, t.id, t.slot.name]);
    }
    for (const [i, f] of attachmentFields.entries()) {
      await store.query(
        'INSERT INTO wm_attachment_fields (name, label_resource_id, data_type, required, options, position) VALUES ($1, $2, $3, $4, $5, $6)',
        [f.name, dynamicStringId(f.label), f.dataType, f.required, JSON.stringify(f.options), i],
      );
    }
    const ids: string[] = [];
    const values: string[] = [];
    const statics: boolean[] = [];
    STATIC_STRINGS.forEach((v, i) => (ids.push(staticStringId(i + 1)), values.push(v), statics.push(true)));
    DYNAMIC_STRINGS.forEach((v, i) => (ids.push(dynamicStringId(i + 1)), values.push(v), statics.push(false)));
    await store.query(
      'INSERT INTO wm_string_resources (id, value, is_static) SELECT * FROM unnest($1::text[], $2::text[], $3::boolean[])',
      [ids, values, statics],
    );
  },
};

/**
 * The demo tenant's activities (issue 36): the campaigns and programmes its projects deliver, so a project's activityId
 * names one (a task inbox shows each task's project and activity). Types and states are the tenant's own ids:
 * type 1 Campaign, 2 Product launch, 3 Programme; state 1 Planned, 2 Active, 3 Complete, 4 Cancelled. Currency 1 is
 * the tenant's default; time zone 4 is UTC, as for the projects.
 */
const activities = [
  { id: 201, name: 'Spring 2026 Brand Campaign', description: 'Seasonal brand push across web, social and print.', type: 1, state: 2, owner: 1, admin: 1, begin: '2026-02-02T09:00:00', end: '2026-05-29T17:00:00', projects: [101, 104] },
  { id: 202, name: 'Summer Product Launch', description: 'Launch of the summer range: press kit, photo shoot, web.', type: 2, state: 1, owner: 2, admin: 1, begin: '2026-05-04T09:00:00', end: '2026-08-28T17:00:00', projects: [102] },
  { id: 203, name: 'FY2024 Content Programme', description: null, type: 3, state: 3, owner: 1, admin: 3, begin: '2024-01-02T09:00:00', end: '2024-12-20T17:00:00', projects: [103] },
  { id: 204, name: 'Autumn 2025 Ideas', description: 'Ideas parked for a later season.', type: 1, state: 4, owner: 3, admin: 1, begin: '2025-09-01T09:00:00', end: '2025-11-28T17:00:00', projects: [105] },
  { id: 205, name: 'Regional Events 2026', description: 'Trade shows in North America, Europe and Asia Pacific; projects not yet planned.', type: 3, state: 1, owner: 2, admin: 2, begin: '2026-09-01T09:00:00', end: '2026-12-18T17:00:00', projects: [] },
];

export const demoActivitiesSeeder: Seeder = {
  name: 'work-management activities',
  kind: 'demo',
  async run(store) {
    for (const a of activities) {
      await store.query(
        `INSERT INTO wm_activities (id, name, description, activity_type_id, activity_state_id, owner_id, administrator_id, begin_date, end_date,
           currency_code, time_zone_id, modified_user, modified_date)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1, $10, $6, $8)`,
        [a.id, a.name, a.description, a.type, a.state, a.owner, a.admin, a.begin, a.end, UTC_TIME_ZONE_ID],
      );
      if (a.projects.length) await store.query('UPDATE wm_projects SET activity_id = $1 WHERE id = ANY($2::integer[])', [a.id, a.projects]);
    }
  },
};
