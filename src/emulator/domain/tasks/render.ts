// JSON shapes of work-management answers: tasks (the contract's fixed shape), upload slots, attachments,
// versions, and the `{ _total, _embedded: { <Type>: [...] }, _links }` collections paged by limit and offset.
import type { FastifyRequest } from 'fastify';
import { echoCanDelegate } from '../../../core/tasks';
import { errors } from '../../errors';
import type { Json } from '../../hal';
import type { AttachmentField, AttachmentRow, ProjectRecord, SlotRow, TaskRecord, VersionRow } from './repository';

/** Who is looking: canDelegate is echoed per caller. */
export interface Viewer {
  userId: number;
  groups: Set<number>;
}

export function isViewerAssigned(task: TaskRecord, viewer: Viewer): boolean {
  return task.people.some((p) => p.user_id !== null && (p.user_id === viewer.userId || viewer.groups.has(p.user_id)));
}

export function taskHref(origin: string, taskId: number): string {
  return `${origin}/api/tasks/${taskId}`;
}

export function renderTask(task: TaskRecord, viewer: Viewer, origin: string): Json {
  const self = taskHref(origin, task.id);
  const people =
    task.people_kind === 'taskRoles'
      ? {
          taskRoles: task.people.map((p) => ({
            taskRoleId: p.id,
            ...(p.user_id !== null ? { userId: p.user_id } : { roleID: p.role_id }),
            estimatedWork: p.estimated_work,
          })),
        }
      : {
          assignees: task.people.map((p) => ({
            taskAssigneeId: p.id,
            userID: p.user_id,
            estimatedWork: p.estimated_work,
            ...(p.delegated_from !== null ? { delegatedFrom: p.delegated_from } : {}),
          })),
        };
  return {
    id: task.id,
    // The SDK's Task model names its id taskId, and a browser inbox (Aprimo-Connect/aprimo-chrome-extension) reads it.
    taskId: task.id,
    projectId: task.project_id,
    name: task.name,
    description: task.description,
    beginDate: task.begin_date,
    endDate: task.end_date,
    estimatedDuration: task.estimated_duration,
    workFlowTaskStatus: task.status,
    startType: task.start_type,
    workScheduleId: task.work_schedule_id,
    autoClose: task.auto_close,
    autoAccept: task.auto_accept,
    workGroupActionId: task.work_group_action_id,
    canDelegate: echoCanDelegate(task.can_delegate, task.status, isViewerAssigned(task, viewer)),
    canSkip: task.can_skip,
    timeZoneId: task.time_zone_id,
    ...people,
    _links: {
      self: { href: self },
      documentuploads: { href: `${self}/document-uploads` },
      delegate: { href: `${self}/delegate` },
    },
  };
}

/**
 * A project as the task form reads it (id, name, status, calendars) and as the SDK's Project model names it (projectId,
 * title, activityId: the activity it belongs to, null when none).
 */
export function renderProject(p: ProjectRecord, origin: string): Json {
  const self = `${origin}/api/projects/${p.id}`;
  return {
    id: p.id,
    projectId: p.id,
    name: p.name,
    title: p.name,
    activityId: p.activityId,
    status: p.status,
    startDate: p.startDate,
    timeZoneId: p.timeZoneId,
    defaultCalendarId: p.defaultCalendarId,
    calendars: p.calendars.map((c) => ({ id: c.id, name: c.name, workDays: [...c.workDays], dayStartMinute: c.dayStartMinute })),
    _links: { self: { href: self }, ...(p.activityId !== null ? { activity: { href: `${origin}/api/activities/${p.activityId}` } } : {}) },
  };
}

export function renderSlot(slot: SlotRow, origin: string): Json {
  const self = `${taskHref(origin, slot.task_id)}/document-uploads/${slot.id}`;
  return {
    documentId: slot.id,
    taskId: slot.task_id,
    name: slot.name,
    status: slot.version_id === null ? 'Open' : 'Uploaded',
    versionId: slot.version_id,
    uploadedOn: slot.uploaded_on ? new Date(slot.uploaded_on).toISOString() : null,
    _links: { attachments: { href: `${self}/attachments` }, uploaddocument: { href: `${self}/upload-document` } },
  };
}

/** The object type id of a task: attachments made through the task-scoped route hang off it. */
export const TASK_OBJECT_TYPE_ID = 2;

export function attachmentHref(origin: string, a: { task_id: number; document_id: number; id: number }): string {
  return `${taskHref(origin, a.task_id)}/document-uploads/${a.document_id}/attachments/${a.id}`;
}

export function renderAttachment(a: AttachmentRow, versions: VersionRow[], origin: string): Json {
  const self = attachmentHref(origin, a);
  return {
    id: a.id,
    title: a.title,
    description: a.description,
    objectId: a.task_id,
    objectTypeId: TASK_OBJECT_TYPE_ID,
    documentId: a.document_id,
    ...a.metadata,
    createdBy: a.created_by,
    createdOn: new Date(a.created_on).toISOString(),
    versions: versions.map((v) => renderVersion(v, a, origin)),
    _links: { self: { href: self }, versions: { href: `${self}/versions` } },
  };
}

export function renderVersion(v: VersionRow, a: { task_id: number; document_id: number; id: number }, origin: string): Json {
  return {
    id: v.id,
    attachmentId: v.attachment_id,
    versionNumber: v.version_number,
    fileName: v.file_name,
    fileId: v.file_id,
    isDefaultVersion: v.is_default_version,
    versionType: v.version_type,
    createdOn: new Date(v.created_on).toISOString(),
    _links: { attachment: { href: attachmentHref(origin, a) } },
  };
}

export function renderField(f: AttachmentField): Json {
  return {
    name: f.name,
    labelResourceId: f.labelResourceId,
    dataType: f.dataType,
    required: f.required,
    // Picklist and multiselect values travel as a key plus the id of the string resource that labels it.
    options: f.options.map((o) => ({ key: o.key, resourceId: o.resourceId })),
  };
}

export interface Window {
  offset: number;
  limit: number;
}

function nonNegative(name: string, raw: unknown): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const text = Array.isArray(raw) ? String(raw[raw.length - 1]) : String(raw);
  if (!/^\d{1,9}$/.test(text.trim())) throw errors.badRequest(`The parameter '${name}' must be a non-negative integer.`);
  return Number(text.trim());
}

/** `limit` and `offset` from the query string; an oversize limit is clamped silently, as elsewhere. */
export function parseWindow(request: FastifyRequest, max = 1000, fallback = 50): Window {
  const query = Object.fromEntries(Object.entries((request.query as Record<string, unknown>) ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const limit = Math.min(max, Math.max(1, nonNegative('limit', query.limit) ?? fallback));
  return { offset: nonNegative('offset', query.offset) ?? 0, limit };
}

export function collection(type: string, items: Json[], total: number, window: Window, request: FastifyRequest, origin: string): Json {
  const at = (offset: number) => {
    const url = new URL(request.url, origin);
    url.searchParams.set('limit', String(window.limit));
    url.searchParams.set('offset', String(offset));
    return { href: url.toString() };
  };
  const links: Record<string, { href: string }> = { self: { href: new URL(request.url, origin).toString() } };
  if (window.offset > 0) links.prev = at(Math.max(0, window.offset - window.limit));
  if (window.offset + items.length < total) links.next = at(window.offset + window.limit);
  return { _total: total, _embedded: { [type]: items }, _links: links };
}
