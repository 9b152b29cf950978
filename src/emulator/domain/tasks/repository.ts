// SQL for work management: projects with their calendars, tasks with their people, upload slots,
// attachments and versions, string resources. Routes go through these functions, never raw tables.
import { type WorkCalendar, type ProjectStatusName, type SettledTask } from '../../../core/tasks';
import type { Queryable } from '../../storage/store';

export interface ProjectRecord {
  id: number;
  name: string;
  status: ProjectStatusName;
  startDate: string;
  timeZoneId: number;
  utcOffsetMinutes: number;
  defaultCalendarId: number;
  calendars: WorkCalendar[];
  activityEditors: number[];
  /** The activity the project belongs to (migration 017), or null. */
  activityId: number | null;
}

export interface PersonRow {
  id: number;
  position: number;
  user_id: number | null;
  role_id: number | null;
  estimated_work: number;
  delegated_from: number | null;
}

export interface TaskRow {
  id: number;
  project_id: number;
  name: string;
  description: string | null;
  begin_date: string;
  end_date: string;
  estimated_duration: number;
  status: number;
  start_type: number;
  work_schedule_id: number;
  auto_close: number;
  auto_accept: number;
  work_group_action_id: number;
  can_delegate: boolean;
  can_skip: number;
  people_kind: 'assignees' | 'taskRoles';
  time_zone_id: number;
}

export interface TaskRecord extends TaskRow {
  people: PersonRow[];
}

export async function loadProject(q: Queryable, id: number): Promise<ProjectRecord | undefined> {
  const rows = await q.query<{
    id: number;
    name: string;
    status: ProjectStatusName;
    start_date: string;
    time_zone_id: number;
    utc_offset_minutes: number;
    default_calendar_id: number;
    calendar_ids: number[];
    activity_editors: number[];
    activity_id: number | null;
  }>('SELECT * FROM wm_projects WHERE id = $1', [id]);
  const p = rows[0];
  if (!p) return undefined;
  const calendars = await q.query<{ id: number; name: string; work_days: number[]; day_start_minute: number }>(
    'SELECT * FROM wm_calendars WHERE id = ANY($1::integer[]) ORDER BY id',
    [p.calendar_ids],
  );
  return {
    id: p.id,
    name: p.name,
    status: p.status,
    startDate: p.start_date,
    timeZoneId: p.time_zone_id,
    utcOffsetMinutes: p.utc_offset_minutes,
    defaultCalendarId: p.default_calendar_id,
    calendars: calendars.map((c) => ({ id: c.id, name: c.name, workDays: c.work_days, dayStartMinute: c.day_start_minute })),
    activityEditors: p.activity_editors,
    activityId: p.activity_id ?? null,
  };
}

/** Every project with its calendars, by id: the task form offers them (a read the spec leaves out). */
export async function listProjects(q: Queryable): Promise<ProjectRecord[]> {
  const rows = await q.query<{ id: number }>('SELECT id FROM wm_projects ORDER BY id');
  const projects: ProjectRecord[] = [];
  for (const r of rows) {
    const p = await loadProject(q, r.id);
    if (p) projects.push(p);
  }
  return projects;
}

/** Which of the ids are users or groups (assignees may be either). */
export async function existingPrincipals(q: Queryable, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await q.query<{ id: number }>(
    'SELECT id FROM users WHERE id = ANY($1::integer[]) UNION SELECT id FROM user_groups WHERE id = ANY($1::integer[])',
    [ids],
  );
  return new Set(rows.map((r) => r.id));
}

export async function existingRoles(q: Queryable, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await q.query<{ id: number }>('SELECT id FROM roles WHERE id = ANY($1::integer[])', [ids]);
  return new Set(rows.map((r) => r.id));
}

export async function groupsOf(q: Queryable, userId: number): Promise<Set<number>> {
  const rows = await q.query<{ group_id: number }>('SELECT group_id FROM user_group_members WHERE user_id = $1', [userId]);
  return new Set(rows.map((r) => r.group_id));
}

export async function insertTask(q: Queryable, task: SettledTask, requestedDelegation: boolean, createdBy: number): Promise<number> {
  const [row] = await q.query<{ id: number }>(
    `INSERT INTO wm_tasks (project_id, name, description, begin_date, end_date, estimated_duration, status, start_type,
       work_schedule_id, auto_close, auto_accept, work_group_action_id, can_delegate, can_skip, people_kind, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING id`,
    [
      task.projectId,
      task.name,
      task.description,
      task.beginDate,
      task.endDate,
      task.estimatedDuration,
      task.workFlowTaskStatus,
      task.startType,
      task.workScheduleId,
      task.autoClose,
      task.autoAccept,
      task.workGroupActionId,
      requestedDelegation,
      task.canSkip,
      task.taskRoles ? 'taskRoles' : 'assignees',
      createdBy,
    ],
  );
  const people = task.taskRoles ?? task.assignees ?? [];
  for (const [position, p] of people.entries()) {
    await q.query('INSERT INTO wm_task_assignees (task_id, position, user_id, role_id, estimated_work) VALUES ($1, $2, $3, $4, $5)', [
      row!.id,
      position,
      p.userId ?? null,
      'roleId' in p ? (p.roleId ?? null) : null,
      p.estimatedWork,
    ]);
  }
  return row!.id;
}

const TASK_SELECT = `SELECT t.*, p.time_zone_id FROM wm_tasks t JOIN wm_projects p ON p.id = t.project_id`;

async function withPeople(q: Queryable, rows: TaskRow[]): Promise<TaskRecord[]> {
  if (rows.length === 0) return [];
  const people = await q.query<PersonRow & { task_id: number }>(
    'SELECT * FROM wm_task_assignees WHERE task_id = ANY($1::integer[]) ORDER BY task_id, position',
    [rows.map((r) => r.id)],
  );
  return rows.map((r) => ({ ...r, people: people.filter((p) => p.task_id === r.id) }));
}

export async function loadTask(q: Queryable, id: number): Promise<TaskRecord | undefined> {
  const rows = await q.query<TaskRow>(`${TASK_SELECT} WHERE t.id = $1`, [id]);
  return (await withPeople(q, rows))[0];
}

export async function listTasks(q: Queryable, offset: number, limit: number): Promise<{ total: number; tasks: TaskRecord[] }> {
  const [count] = await q.query<{ n: number }>('SELECT count(*)::integer AS n FROM wm_tasks');
  const rows = await q.query<TaskRow>(`${TASK_SELECT} ORDER BY t.id LIMIT $1 OFFSET $2`, [limit, offset]);
  return { total: count!.n, tasks: await withPeople(q, rows) };
}

/** Tasks with one of `principalIds` (a user and their groups) among their people, optionally of given statuses. */
export async function listTasksOf(q: Queryable, principalIds: number[], statuses: number[] | undefined, offset: number, limit: number): Promise<{ total: number; tasks: TaskRecord[] }> {
  const where = `t.id IN (SELECT task_id FROM wm_task_assignees WHERE user_id = ANY($1::integer[])) AND ($2::integer[] IS NULL OR t.status = ANY($2::integer[]))`;
  const [count] = await q.query<{ n: number }>(`SELECT count(*)::integer AS n FROM wm_tasks t WHERE ${where}`, [principalIds, statuses ?? null]);
  const rows = await q.query<TaskRow>(`${TASK_SELECT} WHERE ${where} ORDER BY t.id LIMIT $3 OFFSET $4`, [principalIds, statuses ?? null, limit, offset]);
  return { total: count!.n, tasks: await withPeople(q, rows) };
}

export async function setTaskStatus(q: Queryable, id: number, status: number): Promise<void> {
  await q.query('UPDATE wm_tasks SET status = $2, modified_on = now() WHERE id = $1', [id, status]);
}

/** Name and description as sent (null clears the description); what else a task update may send is not modelled. */
export async function renameTask(q: Queryable, id: number, changes: { name?: string; description?: string | null }): Promise<void> {
  if (changes.name !== undefined) await q.query('UPDATE wm_tasks SET name = $2, modified_on = now() WHERE id = $1', [id, changes.name]);
  if (changes.description !== undefined) await q.query('UPDATE wm_tasks SET description = $2, modified_on = now() WHERE id = $1', [id, changes.description]);
}

export async function reassign(q: Queryable, assigneeId: number, newUserId: number): Promise<void> {
  await q.query('UPDATE wm_task_assignees SET delegated_from = user_id, user_id = $2 WHERE id = $1', [assigneeId, newUserId]);
}

export interface SlotRow {
  id: number;
  task_id: number;
  name: string;
  version_id: number | null;
  uploaded_on: Date | null;
}

export async function listSlots(q: Queryable, taskId: number): Promise<SlotRow[]> {
  return q.query<SlotRow>('SELECT * FROM wm_document_uploads WHERE task_id = $1 ORDER BY id', [taskId]);
}

export async function loadSlot(q: Queryable, taskId: number, documentId: number): Promise<SlotRow | undefined> {
  return (await q.query<SlotRow>('SELECT * FROM wm_document_uploads WHERE task_id = $1 AND id = $2', [taskId, documentId]))[0];
}

export async function fillSlot(q: Queryable, documentId: number, versionId: number): Promise<void> {
  await q.query('UPDATE wm_document_uploads SET version_id = $2, uploaded_on = now() WHERE id = $1', [documentId, versionId]);
}

export interface AttachmentRow {
  id: number;
  task_id: number;
  document_id: number;
  title: string;
  description: string | null;
  metadata: Record<string, unknown>;
  created_by: number;
  created_on: Date;
}

export async function insertAttachment(
  q: Queryable,
  a: { taskId: number; documentId: number; title: string; description: string | null; metadata: Record<string, unknown>; createdBy: number },
): Promise<AttachmentRow> {
  const [row] = await q.query<AttachmentRow>(
    `INSERT INTO wm_attachments (task_id, document_id, title, description, metadata, created_by)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
    [a.taskId, a.documentId, a.title, a.description, JSON.stringify(a.metadata), a.createdBy],
  );
  return row!;
}

export async function loadAttachment(q: Queryable, documentId: number, attachmentId: number): Promise<AttachmentRow | undefined> {
  return (await q.query<AttachmentRow>('SELECT * FROM wm_attachments WHERE document_id = $1 AND id = $2', [documentId, attachmentId]))[0];
}

export interface VersionRow {
  id: number;
  attachment_id: number;
  version_number: number;
  file_name: string;
  file_id: string;
  is_default_version: boolean;
  version_type: number;
  created_on: Date;
}

export async function listVersions(q: Queryable, attachmentId: number): Promise<VersionRow[]> {
  return q.query<VersionRow>('SELECT * FROM wm_attachment_versions WHERE attachment_id = $1 ORDER BY version_number', [attachmentId]);
}

export async function insertVersion(
  q: Queryable,
  v: { attachmentId: number; fileName: string; fileId: string; isDefault: boolean | undefined; versionType: number },
): Promise<VersionRow> {
  // Serialises version numbering per attachment; the first version is the default unless told otherwise.
  await q.query('SELECT id FROM wm_attachments WHERE id = $1 FOR UPDATE', [v.attachmentId]);
  const [{ n }] = (await q.query<{ n: number }>(
    'SELECT count(*)::integer AS n FROM wm_attachment_versions WHERE attachment_id = $1',
    [v.attachmentId],
  )) as [{ n: number }];
  const isDefault = v.isDefault ?? n === 0;
  if (isDefault) await q.query('UPDATE wm_attachment_versions SET is_default_version = false WHERE attachment_id = $1', [v.attachmentId]);
  const [row] = await q.query<VersionRow>(
    `INSERT INTO wm_attachment_versions (attachment_id, version_number, file_name, file_id, is_default_version, version_type)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
    [v.attachmentId, n + 1, v.fileName, v.fileId, isDefault, v.versionType],
  );
  return row!;
}

/** The version with its attachment, when it belongs to the given upload slot. */
export async function versionInSlot(q: Queryable, documentId: number, versionId: number): Promise<(VersionRow & { title: string }) | undefined> {
  const rows = await q.query<VersionRow & { title: string }>(
    `SELECT v.*, a.title FROM wm_attachment_versions v JOIN wm_attachments a ON a.id = v.attachment_id
      WHERE v.id = $1 AND a.document_id = $2`,
    [versionId, documentId],
  );
  return rows[0];
}

export interface AttachmentField {
  name: string;
  labelResourceId: string;
  dataType: 'Picklist' | 'Multiselect' | 'Text';
  required: boolean;
  options: { key: string; resourceId: string }[];
}

export async function attachmentFields(q: Queryable): Promise<AttachmentField[]> {
  const rows = await q.query<{ name: string; label_resource_id: string; data_type: AttachmentField['dataType']; required: boolean; options: AttachmentField['options'] }>(
    'SELECT * FROM wm_attachment_fields ORDER BY position',
  );
  return rows.map((r) => ({ name: r.name, labelResourceId: r.label_resource_id, dataType: r.data_type, required: r.required, options: r.options }));
}

export interface StringResource {
  id: string;
  value: string;
}

export async function staticStrings(q: Queryable): Promise<StringResource[]> {
  const rows = await q.query<StringResource>(
    `SELECT id, value FROM wm_string_resources WHERE is_static ORDER BY length(id), id`,
  );
  return rows;
}

export async function stringsById(q: Queryable, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await q.query<StringResource>('SELECT id, value FROM wm_string_resources WHERE id = ANY($1::text[])', [ids]);
  return new Map(rows.map((r) => [r.id, r.value]));
}
