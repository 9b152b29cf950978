// Work-management routes ({ops_url}): simple-task creation with every rule of the spec, task reads,
// delegation, accept/close, document-upload slots and the task-scoped attachment flow.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { consumeUploadByFileId } from '../domain/uploads';
import { z } from 'zod';
import {
  Right,
  TaskStatus,
  readSimpleTaskRequest,
  settleSimpleTask,
  simpleTaskCreateDenial,
  type SimpleTaskRequest,
  type TaskViolation,
  formatNaive,
} from '../../core/tasks';
import type { Caller, EmulatorContext } from '../context';
import { route } from '../routeTable';
import { load } from '../domain/model';
import { TaskSchema, opsCollection } from '../schemas';
import { normaliseGuid, type Json } from '../hal';
import type { Queryable } from '../storage/store';
import * as repo from '../domain/tasks/repository';
import { isPmSearchRequest, matchingOr400, searchPage } from './pmSearch';
import { opsUsers, renderOpsUser } from './activities';
import {
  attachmentHref,
  collection,
  parseWindow,
  renderAttachment,
  renderField,
  renderSlot,
  renderProject,
  renderTask,
  renderVersion,
  taskHref,
  isViewerAssigned,
  type Viewer,
} from '../domain/tasks/render';

const Id = z.coerce.number().int().positive().max(2_147_483_647);
const TaskParams = z.object({ taskId: z.string().max(100) });
/** A work-management body: read member by member with the service's rules (names in any case). */
const TaskBody = z.record(z.string(), z.unknown());
const WindowQuery = z.object({ limit: z.string().max(12).optional(), offset: z.string().max(12).optional() }).loose();
const SlotParams = TaskParams.extend({ documentId: z.string() });
const AttachmentParams = SlotParams.extend({ attachmentId: z.string() });
const Body = TaskBody;

/** Case-insensitive member access: the service binds JSON names without regard to case. */
function member(body: Record<string, unknown>, name: string): unknown {
  const key = Object.keys(body).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : body[key];
}

/**
 * `assignedTo` (a user id, or a list of ids or `{ userID }`), as one public client sends to
 * POST /api/tasks/simple-tasks: the documented `assignees` when the body names no people otherwise.
 */
function withAssignedTo(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const record = body as Record<string, unknown>;
  const assignedTo = member(record, 'assignedTo');
  if (assignedTo === undefined || member(record, 'assignees') !== undefined || member(record, 'taskRoles') !== undefined) return body;
  const list = Array.isArray(assignedTo) ? assignedTo : [assignedTo];
  const assignees = list.map((a) => (typeof a === 'object' && a !== null ? a : { userID: a }));
  const rest = Object.fromEntries(Object.entries(record).filter(([k]) => k.toLowerCase() !== 'assignedto'));
  return { ...rest, assignees };
}

function intMember(body: Record<string, unknown>, name: string): number | undefined | null {
  const v = member(body, name);
  if (v === undefined || v === null) return undefined;
  const parsed = Id.safeParse(v);
  return parsed.success ? parsed.data : null;
}

export async function register(app: FastifyInstance, ctx: EmulatorContext): Promise<void> {
  const { store, errors } = ctx;
  const tag = 'Work management';
  const isAdmin = (caller: Caller) => ctx.auth.has(caller, Right.SystemAdministration);

  async function viewerOf(q: Queryable, caller: Caller): Promise<Viewer> {
    return { userId: caller.userId, groups: await repo.groupsOf(q, caller.userId) };
  }

  function idOf(raw: string, what: string): number {
    const parsed = Id.safeParse(raw);
    if (!parsed.success) throw errors.noDataFound(what, raw.slice(0, 40));
    return parsed.data;
  }

  async function taskOr404(q: Queryable, raw: string): Promise<repo.TaskRecord> {
    const task = await repo.loadTask(q, idOf(raw, 'task'));
    if (!task) throw errors.noDataFound('task', raw);
    return task;
  }

  function bodyOf(request: FastifyRequest): Record<string, unknown> {
    const parsed = Body.safeParse(request.body);
    if (!parsed.success) throw errors.taskRule(400, 'Please check the data sent');
    return parsed.data;
  }

  const fail = (v: TaskViolation) => errors.taskRule(v.status, v.message);

  /** A task status by number or name (`4`, `Assigned`). */
  function taskStatusOf(text: string): number {
    const byNumber = /^\d{1,2}$/.test(text) ? Number(text) : undefined;
    const found = Object.entries(TaskStatus).find(([name, value]) => value === byNumber || name.toLowerCase() === text.toLowerCase());
    if (!found) throw errors.badRequest(`'${text.slice(0, 40)}' is not a task status; use a number or name: ${Object.entries(TaskStatus).map(([n, v]) => `${v} ${n}`).join(', ')}.`);
    return found[1];
  }

  /** The spec's privilege rule for creating simple tasks; the activity edit list is per project. */
  async function requireTaskCreation(caller: Caller, body: unknown): Promise<void> {
    const rights = Object.values(Right).filter((r) => ctx.auth.has(caller, r));
    if (!simpleTaskCreateDenial(rights, false)) return;
    const projectId = typeof body === 'object' && body !== null ? intMember(body as Record<string, unknown>, 'ProjectId') : undefined;
    const project = projectId ? await repo.loadProject(store, projectId) : undefined;
    const denial = simpleTaskCreateDenial(rights, project?.activityEditors.includes(caller.userId) ?? false);
    if (denial) throw errors.accessDeniedBecause(denial);
  }

  route(app, ctx, {
    method: 'POST',
    url: ['/api/simple-tasks', '/api/tasks/simple-tasks'],
    summary: "Create a simple (non-review) task on a project; the spec's rules, answers the task (201)",
    tag,
    body: TaskBody,
    bodyOptional: true,
    responses: { 201: { description: 'The task (with `message` when dates and duration disagreed)', schema: TaskSchema } },
    handler: async ({ request, reply }) => {
      const caller = ctx.auth.caller(request);
      const sent = withAssignedTo(request.body);
      await requireTaskCreation(caller, sent);
      const read = readSimpleTaskRequest(sent);
      if (!read.request) throw fail(read.violations[0]!);
      const req: SimpleTaskRequest = read.request;
      return store.transaction(async (tx) => {
        const project = await repo.loadProject(tx, req.projectId);
        if (!project) throw errors.taskRule(404, 'The ProjectId specified does not exist');
        const people = req.assignees ?? req.taskRoles ?? [];
        const principalIds = people.flatMap((p) => (p.userId !== undefined ? [p.userId] : []));
        const roleIds = people.flatMap((p) => ('roleId' in p && p.roleId !== undefined ? [p.roleId] : []));
        const [principals, roles, viewer] = await Promise.all([
          repo.existingPrincipals(tx, principalIds),
          repo.existingRoles(tx, roleIds),
          viewerOf(tx, caller),
        ]);
        const now = formatNaive(ctx.clock.now().getTime() + project.utcOffsetMinutes * 60_000);
        const settled = settleSimpleTask(req, {
          project,
          now,
          callerId: caller.userId,
          isUserOrGroup: (id) => principals.has(id),
          isRole: (id) => roles.has(id),
          isCaller: (id) => id === viewer.userId || viewer.groups.has(id),
        });
        if (!settled.task) throw fail(settled.violations[0]!);
        const id = await repo.insertTask(tx, settled.task, req.canDelegate, caller.userId);
        const task = (await repo.loadTask(tx, id))!;
        const body: Json = renderTask(task, viewer, ctx.origin(request));
        if (settled.task.message) body.message = settled.task.message;
        reply.code(201).header('Location', taskHref(ctx.origin(request), id));
        return body;
      });
    },
  });

  // Every task, a page at a time, as the caller sees them: GET /api/tasks, and POST /api/tasks/search with its criteria
  // (a PmSearchRequest) applied to the tasks as rendered, then paged.
  const taskPage = async (request: FastifyRequest, criteria?: unknown) => {
    const caller = ctx.auth.caller(request);
    const window = parseWindow(request);
    const viewer = await viewerOf(store, caller);
    const origin = ctx.origin(request);
    if (criteria === undefined) {
      const { total, tasks } = await repo.listTasks(store, window.offset, window.limit);
      return collection('Task', tasks.map((t) => renderTask(t, viewer, origin)), total, window, request, origin);
    }
    const { tasks } = await repo.listTasks(store, 0, 2_147_483_647);
    const matching = matchingOr400(ctx, tasks.map((t) => renderTask(t, viewer, origin)), criteria);
    return collection('Task', matching.slice(window.offset, window.offset + window.limit), matching.length, window, request, origin);
  };

  /** Every project, rendered (renderProject: the task form's names and the SDK's). */
  async function projectItems(origin: string): Promise<Json[]> {
    return (await repo.listProjects(store)).map((p) => renderProject(p, origin));
  }
  route(app, ctx, {
    method: 'GET',
    url: '/api/tasks',
    summary: "Tasks (paged by limit and offset)",
    tag,
    query: WindowQuery,
    responses: { 200: { description: 'A page of tasks', schema: opsCollection('Task', TaskSchema) } },
    handler: ({ request }) => taskPage(request),
  });

  // Not in the spec's table (its task form needs the project's status, start date and calendars); the
  // emulator answers it so the task form can offer the tenant's projects.
  route(app, ctx, {
    method: 'GET',
    url: '/api/projects',
    summary: "Projects, with their status, start date and calendars (the task form needs them; not in the spec's table)",
    tag,
    responses: { 200: { description: 'The projects', schema: opsCollection('Project', z.unknown()) } },
    handler: async ({ request }) => {
      ctx.auth.caller(request);
      const items = await projectItems(ctx.origin(request));
      const window = { offset: 0, limit: Math.max(1, items.length) };
      return collection('Project', items, items.length, window, request, ctx.origin(request));
    },
  });

  // The route list documents POST api/<resources>/search beside each resource; a browser task inbox
  // (Aprimo-Connect/aprimo-chrome-extension GetProjects) asks for its tasks' projects by an or of equals on projectId.
  route(app, ctx, {
    method: 'POST',
    url: '/api/projects/search',
    summary: 'Search projects (PmSearchRequest on a project field, as for tasks; paged by limit and offset)',
    tag,
    query: WindowQuery,
    body: TaskBody,
    bodyOptional: true,
    responses: { 200: { description: 'A page of projects', schema: opsCollection('Project', z.unknown()) } },
    handler: async ({ request }) => {
      ctx.auth.caller(request);
      return searchPage(ctx, request, 'Project', await projectItems(ctx.origin(request)));
    },
  });

  route(app, ctx, {
    method: 'GET',
    url: '/api/tasks/:taskId',
    summary: "Read a task, with its assignee ids",
    tag,
    params: TaskParams,
    responses: { 200: { description: 'The task', schema: TaskSchema } },
    handler: async ({ request }) => {
      const caller = ctx.auth.caller(request);
      const { taskId } = TaskParams.parse(request.params);
      const task = await taskOr404(store, taskId);
      return renderTask(task, await viewerOf(store, caller), ctx.origin(request));
    },
  });

  route(app, ctx, {
    method: 'GET',
    url: '/api/users/me',
    summary: 'The calling user (work management)',
    tag,
    responses: { 200: { description: 'The user', schema: z.object({ userId: z.number().int(), adamUserId: z.number().int() }).loose() } },
    handler: async ({ caller }) => {
      const me = caller();
      const user = (await load.users(store, [me.userId]))[0];
      return {
        userId: me.userId,
        adamUserId: me.userId,
        loginId: user?.login,
        firstName: user?.first_name,
        lastName: user?.last_name,
        emailAddress: user?.email,
        languageId: me.languageId,
      };
    },
  });
  // Users as work management lists them (real-service-notes, second round; .NET tools send the token as
  // X-Access-Token). The body's criteria, all optional, match case-insensitively anywhere in the value.
  const UserSearch = z
    .object({
      searchText: z.string().max(500).nullish(),
      loginId: z.string().max(500).nullish(),
      emailAddress: z.string().max(500).nullish(),
      firstName: z.string().max(500).nullish(),
      lastName: z.string().max(500).nullish(),
    })
    .loose();
  route(app, ctx, {
    method: 'POST',
    url: '/api/users/search',
    summary: 'Search users (searchText, loginId, emailAddress, firstName, lastName; paged by limit and offset)',
    tag,
    query: WindowQuery,
    body: UserSearch,
    bodyOptional: true,
    responses: { 200: { description: 'A page of users', schema: opsCollection('user', z.unknown()) } },
    handler: async ({ request, body }) => {
      ctx.auth.caller(request);
      // The SDK (users.search) sends a PmSearchRequest, as for every other resource.
      if (isPmSearchRequest(request.body)) return searchPage(ctx, request, 'user', await opsUsers(ctx.store));
      const window = parseWindow(request);
      const has = (value: string, wanted: string | null | undefined) => !wanted || value.toLowerCase().includes(wanted.toLowerCase());
      const users = (await ctx.store.query<{ id: number; login: string; first_name: string; last_name: string; email: string; active: boolean; language_id: string }>('SELECT * FROM users ORDER BY id')).filter(
        (u) =>
          has(`${u.login} ${u.first_name} ${u.last_name} ${u.email}`, body?.searchText) &&
          has(u.login, body?.loginId) &&
          has(u.email, body?.emailAddress) &&
          has(u.first_name, body?.firstName) &&
          has(u.last_name, body?.lastName),
      );
      const items = users.slice(window.offset, window.offset + window.limit).map(renderOpsUser);
      return collection('user', items, users.length, window, request, ctx.origin(request));
    },
  });
  // Groups as work management names them: by the integer ids task assignees and task roles take (the spec: assignees
  // are users or groups by `userID`), since the content API now names groups by GUID (emulator contract). The Marketing
  // Operations REST API serves its resources as plural collections under /api/{resource}, paged by limit and offset.
  route(app, ctx, {
    method: 'GET',
    url: '/api/groups',
    summary: 'User groups with their work-management (integer) ids, paged by limit and offset',
    tag,
    query: WindowQuery.extend({ searchText: z.string().max(500).optional() }),
    responses: { 200: { description: 'A page of groups', schema: opsCollection('group', z.unknown()) } },
    handler: async ({ request, query }) => {
      ctx.auth.caller(request);
      const window = parseWindow(request);
      const wanted = query.searchText?.toLowerCase();
      const groups = (await ctx.store.query<{ id: number; name: string }>('SELECT id, name FROM user_groups ORDER BY id')).filter((g) => !wanted || g.name.toLowerCase().includes(wanted));
      const items = groups.slice(window.offset, window.offset + window.limit).map((g) => ({ groupId: g.id, name: g.name }));
      return collection('group', items, groups.length, window, request, ctx.origin(request));
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: '/api/tasks/mine',
    summary: "The caller's tasks (as an assignee, directly or through a group), optionally of some statuses (?status=4,5)",
    tag,
    query: WindowQuery.extend({ status: z.string().max(200).optional() }),
    responses: { 200: { description: 'A page of tasks', schema: opsCollection('Task', TaskSchema) } },
    handler: async ({ request, query, caller }) => {
      const viewer = await viewerOf(store, caller());
      const statuses = query.status ? query.status.split(',').map((s) => taskStatusOf(s.trim())) : undefined;
      const window = parseWindow(request);
      const { total, tasks } = await repo.listTasksOf(store, [viewer.userId, ...viewer.groups], statuses, window.offset, window.limit);
      const origin = ctx.origin(request);
      return collection('Task', tasks.map((t) => renderTask(t, viewer, origin)), total, window, request, origin);
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: '/api/tasks/:taskId/assignees',
    summary: 'The people of a task (assignees, or task roles), with their taskAssigneeId',
    tag,
    params: TaskParams,
    query: WindowQuery,
    responses: { 200: { description: 'The assignees', schema: opsCollection('Assignee', z.unknown()) } },
    handler: async ({ params, request }) => {
      const task = await taskOr404(store, params.taskId);
      const window = parseWindow(request);
      const people = task.people.map((p) => ({
        taskAssigneeId: p.id,
        ...(p.user_id !== null ? { userID: p.user_id } : { roleID: p.role_id }),
        estimatedWork: p.estimated_work,
        ...(p.delegated_from !== null ? { delegatedFrom: p.delegated_from } : {}),
      }));
      const origin = ctx.origin(request);
      return collection('Assignee', people.slice(window.offset, window.offset + window.limit), people.length, window, request, origin);
    },
  });

  route(app, ctx, {
    method: 'POST',
    url: '/api/tasks/:taskId/delegate',
    summary: "Delegate a task: replace one assignee (taskAssigneeId) by another user (newUserId)",
    tag,
    params: TaskParams,
    body: TaskBody,
    bodyOptional: true,
    responses: { 200: { description: 'The task after the delegation', schema: TaskSchema } },
    handler: async ({ request }) => {
      const caller = ctx.auth.caller(request);
      const { taskId } = TaskParams.parse(request.params);
      const body = bodyOf(request);
      const taskAssigneeId = intMember(body, 'taskAssigneeId');
      const newUserId = intMember(body, 'newUserId');
      if (taskAssigneeId === undefined) throw errors.taskRule(400, 'TaskAssigneeId cannot be null');
      if (newUserId === undefined) throw errors.taskRule(400, 'NewUserId cannot be null');
      if (taskAssigneeId === null || newUserId === null) throw errors.taskRule(400, 'Please check the data sent');
      return store.transaction(async (tx) => {
        const task = await taskOr404(tx, taskId);
        const assignee = task.people.find((p) => p.id === taskAssigneeId && p.user_id !== null);
        if (!assignee) throw errors.taskRule(404, 'The TaskAssigneeId specified does not exist');
        const viewer = await viewerOf(tx, caller);
        const own = assignee.user_id === viewer.userId || viewer.groups.has(assignee.user_id!);
        if (!own && !isAdmin(caller)) {
          throw errors.accessDeniedBecause('Only the assignee being replaced or a system administrator can delegate this task');
        }
        if (task.status !== TaskStatus.Assigned && task.status !== TaskStatus.InProcess) {
          throw errors.taskRule(400, 'Only a task that is Assigned (4) or InProcess (5) can be delegated');
        }
        if (!task.can_delegate) throw errors.taskRule(400, 'Delegation is not allowed for this task');
        if (!(await repo.existingPrincipals(tx, [newUserId])).has(newUserId)) {
          throw errors.taskRule(400, 'The NewUserId specified does not exist');
        }
        if (task.people.some((p) => p.user_id === newUserId)) {
          throw errors.taskRule(400, `User ${newUserId} is already an assignee of this task`);
        }
        await repo.reassign(tx, assignee.id, newUserId);
        return renderTask((await repo.loadTask(tx, task.id))!, viewer, ctx.origin(request));
      });
    },
  });

  // Accept and close move a task along the two transitions every client needs; others are not modelled.
  const transitions: [string, number, number, string][] = [
    ['accept', TaskStatus.Assigned, TaskStatus.InProcess, 'Only an Assigned (4) task can be accepted'],
    ['close', TaskStatus.InProcess, TaskStatus.Closed, 'Only an InProcess (5) task can be closed'],
    // Where a declined task goes is not documented; Pending (3) is where a task waits for someone to take it.
    ['decline', TaskStatus.Assigned, TaskStatus.Pending, 'Only an Assigned (4) task can be declined'],
  ];
  for (const [action, from, to, refusal] of transitions) {
    route(app, ctx, {
      method: 'POST',
      url: `/api/tasks/:taskId/${action}`,
      summary: "`${action === 'accept' ? 'Accept an Assigned task' : 'Close an InProcess task'}`",
      tag,
      params: TaskParams,
      responses: { 200: { description: 'The task after the transition', schema: TaskSchema } },
      handler: async ({ request }) => {
      const caller = ctx.auth.caller(request);
      const { taskId } = TaskParams.parse(request.params);
      return store.transaction(async (tx) => {
        const task = await taskOr404(tx, taskId);
        const viewer = await viewerOf(tx, caller);
        if (!isViewerAssigned(task, viewer) && !isAdmin(caller)) {
          throw errors.accessDeniedBecause(`Only an assignee of the task or a system administrator can ${action} it`);
        }
        if (task.status !== from) throw errors.taskRule(400, refusal);
        await repo.setTaskStatus(tx, task.id, to);
        return renderTask((await repo.loadTask(tx, task.id))!, viewer, ctx.origin(request));
      });
    },
    });
  }

  route(app, ctx, {
    method: 'GET',
    url: '/api/tasks/:taskId/document-uploads',
    summary: "Upload slots of a task, each with a documentId",
    tag,
    params: TaskParams,
    query: WindowQuery,
    responses: { 200: { description: 'The slots', schema: opsCollection('DocumentUpload', z.unknown()) } },
    handler: async ({ request }) => {
      ctx.auth.caller(request);
      const { taskId } = TaskParams.parse(request.params);
      const task = await taskOr404(store, taskId);
      const window = parseWindow(request);
      const slots = await repo.listSlots(store, task.id);
      const origin = ctx.origin(request);
      const page = slots.slice(window.offset, window.offset + window.limit).map((s) => renderSlot(s, origin));
      return collection('DocumentUpload', page, slots.length, window, request, origin);
    },
  });

  /** The attachment flow's preconditions: the caller works on the task, it is In Process, the slot is open. */
  async function openSlot(tx: Queryable, request: FastifyRequest, params: { taskId: string; documentId: string }) {
    const caller = ctx.auth.caller(request);
    const task = await taskOr404(tx, params.taskId);
    const slot = await repo.loadSlot(tx, task.id, idOf(params.documentId, 'document upload'));
    if (!slot) throw errors.noDataFound('document upload', params.documentId);
    if (!isViewerAssigned(task, await viewerOf(tx, caller)) && !isAdmin(caller)) {
      throw errors.accessDeniedBecause('Only an assignee of the task or a system administrator can upload documents to it');
    }
    if (task.status !== TaskStatus.InProcess) throw errors.taskRule(400, 'Documents can only be uploaded to a task that is InProcess (5)');
    if (slot.version_id !== null) throw errors.taskRule(400, 'This document upload has already been completed');
    return { caller, task, slot };
  }

  route(app, ctx, {
    method: 'POST',
    url: '/api/tasks/:taskId/document-uploads/:documentId/attachments',
    summary: "Create an attachment in a task's open upload slot (title required; objectId/objectTypeId must not be sent)",
    tag,
    params: SlotParams,
    body: TaskBody,
    bodyOptional: true,
    responses: { 201: { description: 'The attachment, with its id', schema: z.unknown() } },
    handler: async ({ request, reply }) => {
      const params = SlotParams.parse(request.params);
      const body = bodyOf(request);
      return store.transaction(async (tx) => {
        const { caller, task, slot } = await openSlot(tx, request, params);
        if (member(body, 'objectId') !== undefined || member(body, 'objectTypeId') !== undefined) {
          throw errors.taskRule(400, 'objectId and objectTypeId must not be sent: the task-scoped route sets them');
        }
        const title = member(body, 'title');
        if (typeof title !== 'string' || title.trim() === '') throw errors.taskRule(400, 'Title cannot be null');
        const description = member(body, 'description');
        if (description !== undefined && description !== null && typeof description !== 'string') {
          throw errors.taskRule(400, 'Please check the data sent');
        }
        const metadata = readAttachmentMetadata(body, await repo.attachmentFields(tx));
        const row = await repo.insertAttachment(tx, {
          taskId: task.id,
          documentId: slot.id,
          title,
          description: typeof description === 'string' ? description : null,
          metadata,
          createdBy: caller.userId,
        });
        const origin = ctx.origin(request);
        reply.code(201).header('Location', attachmentHref(origin, row));
        return renderAttachment(row, [], origin);
      });
    },
  });

  function readAttachmentMetadata(body: Record<string, unknown>, fields: repo.AttachmentField[]): Record<string, unknown> {
    const known = new Set(['title', 'description']);
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(body)) {
      if (known.has(key.toLowerCase())) continue;
      const field = fields.find((f) => f.name.toLowerCase() === key.toLowerCase());
      if (!field) throw errors.taskRule(400, `Unknown attachment attribute '${key.slice(0, 60)}'; GET /api/attachments/metadata lists them`);
      if (value === null) continue;
      const option = (k: unknown) => {
        const found = field.options.find((o) => o.key === k);
        if (!found) throw errors.taskRule(400, `${field.name} must be one of: ${field.options.map((o) => o.key).join(', ')}`);
        return { key: found.key, resourceId: found.resourceId };
      };
      if (field.dataType === 'Text') {
        if (typeof value !== 'string') throw errors.taskRule(400, `${field.name} must be a string`);
        out[field.name] = value;
      } else if (field.dataType === 'Picklist') {
        out[field.name] = option(typeof value === 'object' ? (value as { key?: unknown }).key : value);
      } else {
        if (!Array.isArray(value)) throw errors.taskRule(400, `${field.name} must be a list of keys`);
        out[field.name] = value.map((v) => option(typeof v === 'object' && v !== null ? (v as { key?: unknown }).key : v));
      }
    }
    for (const f of fields) if (f.required && out[f.name] === undefined) throw errors.taskRule(400, `${f.name} cannot be null`);
    return out;
  }

  route(app, ctx, {
    method: 'GET',
    url: '/api/tasks/:taskId/document-uploads/:documentId/attachments/:attachmentId',
    summary: "Read an attachment and its versions",
    tag,
    params: AttachmentParams,
    responses: { 200: { description: 'The attachment', schema: z.unknown() } },
    handler: async ({ request }) => {
      ctx.auth.caller(request);
      const params = AttachmentParams.parse(request.params);
      const task = await taskOr404(store, params.taskId);
      const attachment = await repo.loadAttachment(store, idOf(params.documentId, 'document upload'), idOf(params.attachmentId, 'attachment'));
      if (!attachment || attachment.task_id !== task.id) throw errors.noDataFound('attachment', params.attachmentId);
      return renderAttachment(attachment, await repo.listVersions(store, attachment.id), ctx.origin(request));
    },
  });

  route(app, ctx, {
    method: 'POST',
    url: '/api/tasks/:taskId/document-uploads/:documentId/attachments/:attachmentId/versions',
    summary: "Create an attachment version from an uploaded file (FileName, FileId)",
    tag,
    params: AttachmentParams,
    body: TaskBody,
    bodyOptional: true,
    responses: { 201: { description: 'The version, with its id', schema: z.unknown() } },
    handler: async ({ request, reply }) => {
      const params = AttachmentParams.parse(request.params);
      const body = bodyOf(request);
      return store.transaction(async (tx) => {
        const { slot } = await openSlot(tx, request, params);
        const attachment = await repo.loadAttachment(tx, slot.id, idOf(params.attachmentId, 'attachment'));
        if (!attachment) throw errors.noDataFound('attachment', params.attachmentId);
        const fileName = member(body, 'FileName');
        const fileIdRaw = member(body, 'FileId');
        if (typeof fileName !== 'string' || fileName.trim() === '') throw errors.taskRule(400, 'FileName cannot be null');
        if (fileIdRaw === undefined || fileIdRaw === null || fileIdRaw === '') throw errors.taskRule(400, 'FileId cannot be null');
        const fileIdText = typeof fileIdRaw === 'string' ? normaliseGuid(fileIdRaw) : undefined;
        if (!fileIdText) throw errors.taskRule(400, 'FileId must be the GUID of an uploaded file');
        const isDefault = member(body, 'isDefaultVersion');
        if (isDefault !== undefined && typeof isDefault !== 'boolean') throw errors.taskRule(400, 'Please check the data sent');
        const versionType = intMember(body, 'versionType');
        if (versionType === null) throw errors.taskRule(400, 'Please check the data sent');
        // Step 2 of the attachment flow: the file must have been uploaded to completion, and is taken over once.
        const { fileId } = await consumeUploadByFileId(tx, fileIdText);
        const version = await repo.insertVersion(tx, {
          attachmentId: attachment.id,
          fileName,
          fileId,
          isDefault,
          versionType: versionType ?? 1,
        });
        const origin = ctx.origin(request);
        reply.code(201).header('Location', `${attachmentHref(origin, attachment)}/versions/${version.id}`);
        return renderVersion(version, attachment, origin);
      });
    },
  });

  route(app, ctx, {
    method: 'PUT',
    url: '/api/tasks/:taskId/document-uploads/:documentId/upload-document',
    summary: "Fill an upload slot with an attachment version (versionId)",
    tag,
    params: SlotParams,
    body: TaskBody,
    bodyOptional: true,
    responses: { 200: { description: 'The filled slot', schema: z.unknown() } },
    handler: async ({ request }) => {
      const params = SlotParams.parse(request.params);
      const body = bodyOf(request);
      const versionId = intMember(body, 'versionId');
      if (versionId === undefined) throw errors.taskRule(400, 'VersionId cannot be null');
      if (versionId === null) throw errors.taskRule(400, 'Please check the data sent');
      return store.transaction(async (tx) => {
        const { slot } = await openSlot(tx, request, params);
        const version = await repo.versionInSlot(tx, slot.id, versionId);
        if (!version) throw errors.taskRule(404, 'The VersionId specified does not exist on this document upload');
        await repo.fillSlot(tx, slot.id, version.id);
        const filled = (await repo.loadSlot(tx, slot.task_id, slot.id))!;
        return renderSlot(filled, ctx.origin(request));
      });
    },
  });

  route(app, ctx, {
    method: 'GET',
    url: '/api/attachments/metadata',
    summary: "Definitions of the additional attachment fields",
    tag,
    query: WindowQuery,
    responses: { 200: { description: 'The fields', schema: opsCollection('AttachmentMetadata', z.unknown()) } },
    handler: async ({ request }) => {
      ctx.auth.caller(request);
      const fields = (await repo.attachmentFields(store)).map(renderField);
      const window = parseWindow(request);
      return collection('AttachmentMetadata', fields.slice(window.offset, window.offset + window.limit), fields.length, window, request, ctx.origin(request));
    },
  });

  route(app, ctx, {
    method: 'PUT',
    url: '/api/tasks/:taskId',
    summary: "Change a task's name or description (aprimo-js tasks.update)",
    tag,
    params: TaskParams,
    body: TaskBody,
    responses: { 200: { description: 'The task after the change', schema: TaskSchema } },
    handler: async ({ request, body }) => {
      const caller = ctx.auth.caller(request);
      const { taskId } = TaskParams.parse(request.params);
      return store.transaction(async (tx) => {
        const task = await taskOr404(tx, taskId);
        const name = member(body, 'name');
        const description = member(body, 'description');
        if (name !== undefined && (typeof name !== 'string' || !name.trim())) throw errors.taskRule(400, 'name must be a non-empty string');
        if (description !== undefined && description !== null && typeof description !== 'string') throw errors.taskRule(400, 'description must be a string or null');
        await repo.renameTask(tx, task.id, { name: name as string | undefined, description: description as string | null | undefined });
        return renderTask((await repo.loadTask(tx, task.id))!, await viewerOf(tx, caller), ctx.origin(request));
      });
    },
  });

  route(app, ctx, {
    method: 'POST',
    url: '/api/tasks/search',
    summary: 'Search tasks (PmSearchRequest: equals, contains, greaterthan, lessthan, …, isNull, and, or, not on a task field; paged by limit and offset)',
    tag,
    query: WindowQuery,
    body: TaskBody,
    bodyOptional: true,
    responses: { 200: { description: 'A page of tasks', schema: opsCollection('Task', TaskSchema) } },
    handler: ({ request }) => taskPage(request, request.body ?? {}),
  });

  route(app, ctx, {
    method: 'GET',
    url: '/api/tasks/:taskId/document-uploads/:documentId',
    summary: 'One upload slot of a task',
    tag,
    params: SlotParams,
    responses: { 200: { description: 'The slot', schema: z.unknown() } },
    handler: async ({ request, params }) => {
      ctx.auth.caller(request);
      const task = await taskOr404(store, params.taskId);
      const slot = await repo.loadSlot(store, task.id, idOf(params.documentId, 'document upload'));
      if (!slot) throw errors.noDataFound('document upload', params.documentId);
      return renderSlot(slot, ctx.origin(request));
    },
  });

  // Lists of a task the emulator keeps nothing for (aprimo-js tasks module): the task must exist; the list is empty.
  for (const [path, type] of [
    ['document-uploads/:documentId/document-versions', 'DocumentVersion'],
    ['documents', 'Document'],
    ['documents/attachments', 'Attachment'],
    ['documents/assets', 'DigitalAsset'],
    ['working-digital-assets', 'DigitalAsset'],
    ['working-attachments', 'Attachment'],
    ['document-votes', 'DocumentVote'],
    ['review-materials', 'ReviewMaterial'],
  ] as const) {
    route(app, ctx, {
      method: 'GET',
      url: `/api/tasks/:taskId/${path}`,
      summary: `A task's ${path.split('/').pop()} (the emulator keeps none: an empty page)`,
      tag,
      query: WindowQuery,
      responses: { 200: { description: 'An empty page', schema: opsCollection(type, z.unknown()) } },
      handler: async ({ request }) => {
        ctx.auth.caller(request);
        const { taskId } = TaskParams.parse(request.params);
        await taskOr404(store, taskId);
        return collection(type, [], 0, parseWindow(request), request, ctx.origin(request));
      },
    });
  }

  // The generic attachments route cannot attach to a task: say where to go instead.
  route(app, ctx, {
    method: 'POST',
    url: '/api/attachments',
    summary: "The generic attachments route: cannot attach to a task (400 naming the task-scoped route)",
    tag,
    body: TaskBody,
    bodyOptional: true,
    responses: { 400: { description: 'Use the task-scoped route' } },
    handler: async ({ request }) => {
      ctx.auth.caller(request);
      throw errors.taskRule(400, 'Task attachments are created through POST /api/tasks/{taskId}/document-uploads/{documentId}/attachments');
    },
  });
}
