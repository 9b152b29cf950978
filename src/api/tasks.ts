// Work-management client ({ops_url}): simple tasks checked against the shared rules before they are sent,
// task reads, delegation, and the five-step task attachment flow.
import { z } from 'zod';
import { ProjectStatus, readSimpleTaskRequest, type ProjectStatusName, type TaskViolation } from '../core/tasks';
import type { HttpClient } from './http';

/** A simple-task request body with the spec's field names (as sent). */
export interface SimpleTaskBody {
  ProjectId: number;
  name?: string;
  description?: string | null;
  beginDate?: string;
  endDate?: string;
  EstimatedDuration?: number;
  enteredEstimatedDurationDay?: number;
  enteredEstimatedDurationHour?: number;
  enteredEstimatedDurationMinute?: number;
  startType?: number;
  workFlowTaskStatus?: number;
  workScheduleId?: number;
  autoClose?: number;
  workGroupActionID?: number;
  autoAccept?: number;
  canDelegate?: boolean;
  assignees?: { userID: number; estimatedWork?: number; enteredEstWorkDay?: number; enteredEstWorkHour?: number; enteredEstWorkMin?: number }[];
  taskRoles?: ({ userId: number } | { roleID: number })[];
}

const Int = z.number().int();

export const TaskAssigneeSchema = z.looseObject({ taskAssigneeId: Int, userID: Int.nullable() });
export const TaskSchema = z.looseObject({
  id: Int,
  name: z.string(),
  description: z.string().nullable().optional(),
  beginDate: z.string().nullable().optional(),
  endDate: z.string().nullable().optional(),
  estimatedDuration: Int.nullable().optional(),
  workFlowTaskStatus: Int,
  startType: Int.optional(),
  canDelegate: z.boolean().optional(),
  canSkip: Int.optional(),
  assignees: z.array(TaskAssigneeSchema).optional(),
  taskRoles: z.array(z.looseObject({})).optional(),
  /** Present when the dates and duration sent disagreed and the task got default dates. */
  message: z.string().optional(),
});
export type Task = z.infer<typeof TaskSchema>;

const ProjectStatusNameSchema = z.enum(Object.keys(ProjectStatus) as [ProjectStatusName, ...ProjectStatusName[]]);
export const ProjectSchema = z.looseObject({
  id: Int,
  name: z.string(),
  status: ProjectStatusNameSchema,
  /** Naive in the project's time zone (`YYYY-MM-DDThh:mm:ss`). */
  startDate: z.string(),
  defaultCalendarId: Int,
  calendars: z.array(z.object({ id: Int, name: z.string(), workDays: z.array(Int), dayStartMinute: Int })),
});
export type Project = z.infer<typeof ProjectSchema>;

export const WorkUserSchema = z.looseObject({ userId: Int, loginId: z.string().nullish(), firstName: z.string().nullish(), lastName: z.string().nullish(), emailAddress: z.string().nullish() });
export type WorkUser = z.infer<typeof WorkUserSchema>;
export const WorkGroupSchema = z.looseObject({ groupId: Int, name: z.string().nullish() });
export type WorkGroup = z.infer<typeof WorkGroupSchema>;
export const DocumentUploadSchema = z.looseObject({ documentId: Int, name: z.string().optional(), status: z.string().optional() });
export type DocumentUpload = z.infer<typeof DocumentUploadSchema>;
const AttachmentSchema = z.looseObject({ id: Int, title: z.string() });
const VersionSchema = z.looseObject({ id: Int });
export const AttachmentFieldSchema = z.looseObject({
  name: z.string(),
  dataType: z.string().optional(),
  options: z.array(z.looseObject({ key: z.string(), resourceId: z.string() })).optional(),
});
export type AttachmentField = z.infer<typeof AttachmentFieldSchema>;

/** `{ _total, _embedded: { <Type>: [...] } }`; the type name is not relied on, only that one list is embedded. */
function embeddedList<T extends z.ZodType>(item: T) {
  return z
    .looseObject({ _total: Int.optional(), _embedded: z.record(z.string(), z.unknown()).optional() })
    .transform((body, ctx) => {
      const lists = Object.values(body._embedded ?? {}).filter(Array.isArray);
      if (lists.length !== 1) {
        ctx.addIssue({ code: 'custom', message: 'expected one embedded list' });
        return z.NEVER;
      }
      const parsed = z.array(item).safeParse(lists[0]);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom', message: issue.message });
        return z.NEVER;
      }
      return { total: body._total ?? parsed.data.length, items: parsed.data as z.infer<T>[] };
    });
}

/** Thrown before any request when the task breaks a rule the client can check itself. */
export class TaskValidationError extends Error {
  override readonly name = 'TaskValidationError';
  constructor(readonly violations: TaskViolation[]) {
    super(violations.map((v) => `${v.field}: ${v.message}`).join('\n'));
  }
}

/** A file already sent through the upload service (step 2 of the attachment flow). */
export interface UploadedFile {
  fileId: string;
  fileName: string;
}

export interface AttachOptions {
  /** The upload slot; default the task's first open one. */
  documentId?: number;
  title: string;
  description?: string;
  /** Extra attachment attributes by name (see `attachmentFields()`); picklists take the option key. */
  metadata?: Record<string, string | string[]>;
  signal?: AbortSignal;
}

export class TasksApi {
  constructor(private readonly http: HttpClient) {}

  /** Every rule that needs no server knowledge, as the server words it; empty when the body may be sent. */
  check(body: SimpleTaskBody | Record<string, unknown>): TaskViolation[] {
    return readSimpleTaskRequest(body).violations;
  }

  /** POST /api/simple-tasks, after the shared rules found nothing wrong. */
  async create(body: SimpleTaskBody, options: { signal?: AbortSignal } = {}): Promise<Task> {
    const violations = this.check(body);
    if (violations.length) throw new TaskValidationError(violations);
    const res = await this.http.request({ method: 'POST', endpoint: 'ops', path: '/api/simple-tasks', json: body, schema: TaskSchema, signal: options.signal });
    return res.data;
  }

  /** GET /api/projects: the projects tasks can be created on, with status, start and calendars (what the task rules need). */
  async projects(options: { signal?: AbortSignal } = {}): Promise<Project[]> {
    const res = await this.http.request({ endpoint: 'ops', path: '/api/projects', schema: embeddedList(ProjectSchema), signal: options.signal });
    return res.data.items;
  }

  /**
   * POST /api/users/search: the users as the work-management API names them (integer `userId`), which task assignees
   * and delegation take; the content API names the same users by GUID.
   */
  async users(options: { limit?: number; signal?: AbortSignal } = {}): Promise<WorkUser[]> {
    const res = await this.http.request({ method: 'POST', endpoint: 'ops', path: '/api/users/search', query: { limit: options.limit ?? 200 }, json: {}, schema: embeddedList(WorkUserSchema), signal: options.signal });
    return res.data.items;
  }

  /** User groups by the integer ids assignees take (the content API names them by GUID). */
  async groups(options: { limit?: number; signal?: AbortSignal } = {}): Promise<WorkGroup[]> {
    const res = await this.http.request({ endpoint: 'ops', path: '/api/groups', query: { limit: options.limit ?? 200 }, schema: embeddedList(WorkGroupSchema), signal: options.signal });
    return res.data.items;
  }

  async get(taskId: number, options: { signal?: AbortSignal } = {}): Promise<Task> {
    return (await this.http.request({ endpoint: 'ops', path: `/api/tasks/${taskId}`, schema: TaskSchema, signal: options.signal })).data;
  }

  async list(options: { limit?: number; offset?: number; signal?: AbortSignal } = {}): Promise<{ total: number; items: Task[] }> {
    const res = await this.http.request({
      endpoint: 'ops',
      path: '/api/tasks',
      query: { limit: options.limit, offset: options.offset },
      schema: embeddedList(TaskSchema),
      signal: options.signal,
    });
    return res.data;
  }

  /**
   * Hands an assignee's part of the task to another user. Without `taskAssigneeId` the caller's own
   * assignment is used, found through the task read as the spec advises.
   */
  async delegate(taskId: number, newUserId: number, options: { taskAssigneeId?: number; fromUserId?: number; signal?: AbortSignal } = {}): Promise<Task> {
    let taskAssigneeId = options.taskAssigneeId;
    if (taskAssigneeId === undefined) {
      const task = await this.get(taskId, options);
      const candidates = (task.assignees ?? []).filter((a) => options.fromUserId === undefined || a.userID === options.fromUserId);
      if (candidates.length !== 1) {
        throw new Error(
          candidates.length === 0
            ? `task ${taskId} has no assignee${options.fromUserId !== undefined ? ` with user id ${options.fromUserId}` : ''}`
            : `task ${taskId} has ${candidates.length} assignees; say which one (taskAssigneeId or fromUserId)`,
        );
      }
      taskAssigneeId = candidates[0]!.taskAssigneeId;
    }
    const res = await this.http.request({
      method: 'POST',
      endpoint: 'ops',
      path: `/api/tasks/${taskId}/delegate`,
      json: { taskAssigneeId, newUserId },
      schema: TaskSchema,
      signal: options.signal,
    });
    return res.data;
  }

  async documentUploads(taskId: number, options: { signal?: AbortSignal } = {}): Promise<DocumentUpload[]> {
    const res = await this.http.request({ endpoint: 'ops', path: `/api/tasks/${taskId}/document-uploads`, schema: embeddedList(DocumentUploadSchema), signal: options.signal });
    return res.data.items;
  }

  async attachmentFields(options: { signal?: AbortSignal } = {}): Promise<AttachmentField[]> {
    const res = await this.http.request({ endpoint: 'ops', path: '/api/attachments/metadata', schema: embeddedList(AttachmentFieldSchema), signal: options.signal });
    return res.data.items;
  }

  /**
   * Steps 1, 3, 4 and 5 of the task attachment flow around an already uploaded file (step 2): find the
   * slot, create the attachment and its version through the task-scoped routes, then fill the slot.
   */
  async attach(taskId: number, file: UploadedFile, options: AttachOptions): Promise<{ documentId: number; attachmentId: number; versionId: number }> {
    const { signal } = options;
    let documentId = options.documentId;
    if (documentId === undefined) {
      const open = (await this.documentUploads(taskId, { signal })).find((s) => s.status === undefined || s.status === 'Open');
      if (!open) throw new Error(`task ${taskId} has no open document upload slot`);
      documentId = open.documentId;
    }
    const slot = `/api/tasks/${taskId}/document-uploads/${documentId}`;
    const attachment = await this.http.request({
      method: 'POST',
      endpoint: 'ops',
      path: `${slot}/attachments`,
      // objectId and objectTypeId are never sent: the task-scoped route sets them.
      json: { title: options.title, ...(options.description !== undefined ? { description: options.description } : {}), ...options.metadata },
      schema: AttachmentSchema,
      signal,
    });
    const version = await this.http.request({
      method: 'POST',
      endpoint: 'ops',
      path: `${slot}/attachments/${attachment.data.id}/versions`,
      json: { FileName: file.fileName, FileId: file.fileId, isDefaultVersion: true },
      schema: VersionSchema,
      signal,
    });
    await this.http.request({ method: 'PUT', endpoint: 'ops', path: `${slot}/upload-document`, json: { versionId: version.data.id }, responseType: 'none', signal });
    return { documentId, attachmentId: attachment.data.id, versionId: version.data.id };
  }
}
