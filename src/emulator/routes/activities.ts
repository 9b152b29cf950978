// Work-management routes the developer documentation and the SDK list beside tasks (issue 36): activities (list, read,
// create, update, delete, search, an activity's projects), a project, a user and a group by id, the group and
// review-task searches. Every search is a PmSearchRequest, applied as on tasks (routes/pmSearch.ts).
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ProjectStatusName } from '../../core/tasks';
import type { EmulatorContext } from '../context';
import { route } from '../routeTable';
import { opsCollection } from '../schemas';
import type { Json } from '../hal';
import type { Queryable } from '../storage/store';
import * as repo from '../domain/tasks/repository';
import * as act from '../domain/tasks/activities';
import { collection, parseWindow, renderProject } from '../domain/tasks/render';
import { searchPage } from './pmSearch';

const Id = z.coerce.number().int().positive().max(2_147_483_647);
const WindowQuery = z.object({ limit: z.string().max(12).optional(), offset: z.string().max(12).optional() }).loose();
const Body = z.record(z.string(), z.unknown());

interface UserRow {
  id: number;
  login: string;
  first_name: string;
  last_name: string;
  email: string;
  active: boolean;
  language_id: string;
}

/** A user as work management names it (the SDK's User model; /api/users/me and /api/users/search answer the same). */
export function renderOpsUser(u: UserRow): Json {
  return { userId: u.id, adamUserId: u.id, loginId: u.login, firstName: u.first_name, lastName: u.last_name, emailAddress: u.email, isActive: u.active, languageId: u.language_id };
}

export async function opsUsers(q: Queryable): Promise<Json[]> {
  return (await q.query<UserRow>('SELECT id, login, first_name, last_name, email, active, language_id FROM users ORDER BY id')).map(renderOpsUser);
}

/** Groups by their integer ids, with their members' user ids (the SDK's CreateGroupRequest names them `users: [{ userId }]`). */
export async function opsGroups(q: Queryable, id?: number): Promise<Json[]> {
  const groups = await q.query<{ id: number; name: string }>(`SELECT id, name FROM user_groups ${id === undefined ? '' : 'WHERE id = $1'} ORDER BY id`, id === undefined ? [] : [id]);
  const members = await q.query<{ group_id: number; user_id: number }>('SELECT group_id, user_id FROM user_group_members ORDER BY group_id, user_id');
  return groups.map((g) => ({ groupId: g.id, name: g.name, users: members.filter((m) => m.group_id === g.id).map((m) => ({ userId: m.user_id })) }));
}

export async function register(app: import('fastify').FastifyInstance, ctx: EmulatorContext): Promise<void> {
  const { store, errors } = ctx;
  const tag = 'Work management';

  function idOf(raw: string, what: string): number {
    const parsed = Id.safeParse(raw);
    if (!parsed.success) throw errors.noDataFound(what, raw.slice(0, 40));
    return parsed.data;
  }
  async function activityOr404(q: Queryable, raw: string): Promise<act.ActivityRow> {
    const a = await act.loadActivity(q, idOf(raw, 'activity'));
    if (!a) throw errors.noDataFound('activity', raw.slice(0, 40));
    return a;
  }
  /** A body rule broken: 400 with the error object (the task rules' constructor, so the message reads the same way). */
  function readBody(body: Record<string, unknown>, partial: boolean): act.ActivityChanges {
    try {
      return act.readActivityBody(body, partial);
    } catch (err) {
      if (err instanceof act.ActivityRuleError) throw errors.taskRule(400, err.message);
      throw err;
    }
  }
  const nowNaive = () => new Date().toISOString().slice(0, 19);
  const activityItems = async (request: FastifyRequest) => (await act.listActivities(store)).map((a) => act.renderActivity(a, ctx.origin(request)));

  // https://developers.aprimo.com/marketing-operations/rest-api/api-basics/ (GET api/activities, api/activities/123,
  // ?limit=20) and aprimo-js activities.get: a page of activities under _embedded.Activity.
  route(app, ctx, {
    method: 'GET',
    url: '/api/activities',
    summary: 'Activities (paged by limit and offset)',
    tag,
    query: WindowQuery,
    responses: { 200: { description: 'A page of activities', schema: opsCollection('Activity', z.unknown()) } },
    handler: async ({ request }) => {
      ctx.auth.caller(request);
      const window = parseWindow(request);
      const items = await activityItems(request);
      return collection('Activity', items.slice(window.offset, window.offset + window.limit), items.length, window, request, ctx.origin(request));
    },
  });

  route(app, ctx, {
    method: 'POST',
    url: '/api/activities/search',
    summary: 'Search activities (PmSearchRequest on an activity field, as for tasks; paged by limit and offset)',
    tag,
    query: WindowQuery,
    body: Body,
    bodyOptional: true,
    responses: { 200: { description: 'A page of activities', schema: opsCollection('Activity', z.unknown()) } },
    handler: async ({ request }) => {
      ctx.auth.caller(request);
      return searchPage(ctx, request, 'Activity', await activityItems(request));
    },
  });

  route(app, ctx, {
    method: 'GET',
    url: '/api/activities/:activityId',
    summary: 'Read an activity',
    tag,
    params: z.object({ activityId: z.string().max(100) }),
    responses: { 200: { description: 'The activity', schema: z.unknown() } },
    handler: async ({ request, params }) => {
      ctx.auth.caller(request);
      return act.renderActivity(await activityOr404(store, params.activityId), ctx.origin(request));
    },
  });

  route(app, ctx, {
    method: 'GET',
    url: '/api/activities/:activityId/projects',
    summary: "The projects of an activity (aprimo-js projects.getByActivityId; paged by limit and offset)",
    tag,
    params: z.object({ activityId: z.string().max(100) }),
    query: WindowQuery,
    responses: { 200: { description: 'A page of projects', schema: opsCollection('Project', z.unknown()) } },
    handler: async ({ request, params }) => {
      ctx.auth.caller(request);
      const activity = await activityOr404(store, params.activityId);
      const window = parseWindow(request);
      const ids = await act.projectIdsOf(store, activity.id);
      const projects = [];
      for (const id of ids.slice(window.offset, window.offset + window.limit)) {
        const p = await repo.loadProject(store, id);
        if (p) projects.push(renderProject(p, ctx.origin(request)));
      }
      return collection('Project', projects, ids.length, window, request, ctx.origin(request));
    },
  });

  route(app, ctx, {
    method: 'POST',
    url: '/api/activities',
    summary: 'Create an activity (name, activityTypeId, activityStateId, ownerId, administratorId, beginDate, endDate, currencyCode, timeZoneId)',
    tag,
    body: Body,
    responses: { 201: { description: 'The new activity, with its activityId', schema: z.unknown() } },
    handler: async ({ request, body, reply, caller }) => {
      const me = caller();
      const values = readBody(body, false);
      return store.transaction(async (tx) => {
        const violation = await act.activityViolation(tx, values as Parameters<typeof act.activityViolation>[1]);
        if (violation) throw errors.taskRule(400, violation);
        const id = await act.insertActivity(tx, values, me.userId, nowNaive());
        reply.code(201).header('Location', act.activityHref(ctx.origin(request), id));
        return act.renderActivity((await act.loadActivity(tx, id))!, ctx.origin(request));
      });
    },
  });

  route(app, ctx, {
    method: 'PUT',
    url: '/api/activities/:activityId',
    summary: 'Change an activity (only the members sent)',
    tag,
    params: z.object({ activityId: z.string().max(100) }),
    body: Body,
    responses: { 200: { description: 'The activity after the change', schema: z.unknown() } },
    handler: async ({ request, params, body, caller }) => {
      const me = caller();
      return store.transaction(async (tx) => {
        const before = await activityOr404(tx, params.activityId);
        const changes = readBody(body, true);
        const violation = await act.activityViolation(tx, { ...before, ...changes } as act.ActivityRow);
        if (violation) throw errors.taskRule(400, violation);
        await act.updateActivity(tx, before.id, changes, me.userId, nowNaive());
        return act.renderActivity((await act.loadActivity(tx, before.id))!, ctx.origin(request));
      });
    },
  });

  route(app, ctx, {
    method: 'DELETE',
    url: '/api/activities/:activityId',
    summary: 'Delete an activity that no project belongs to (204)',
    tag,
    params: z.object({ activityId: z.string().max(100) }),
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ request, params, reply }) => {
      ctx.auth.caller(request);
      await store.transaction(async (tx) => {
        const activity = await activityOr404(tx, params.activityId);
        const projects = await act.projectIdsOf(tx, activity.id);
        if (projects.length) throw errors.taskRule(400, `The activity has projects (${projects.join(', ')}); it cannot be deleted while they belong to it`);
        await act.deleteActivity(tx, activity.id);
      });
      // Answered once committed: a read that follows the 204 sees the activity gone.
      return reply.code(204).send();
    },
  });

  // The route list's Activities section: "api/attachments/{attachmentID}/activity, the activity associated with an
  // attachment". The emulator's attachments are task attachments: the activity of the task's project.
  route(app, ctx, {
    method: 'GET',
    url: '/api/attachments/:attachmentId/activity',
    summary: "The activity an attachment belongs to (its task's project's activity)",
    tag,
    params: z.object({ attachmentId: z.string().max(100) }),
    responses: { 200: { description: 'The activity', schema: z.unknown() } },
    handler: async ({ request, params }) => {
      ctx.auth.caller(request);
      const found = await act.activityOfAttachment(store, idOf(params.attachmentId, 'attachment'));
      if (!found.attachment) throw errors.noDataFound('attachment', params.attachmentId.slice(0, 40));
      if (!found.activity) throw errors.noDataFound('activity of attachment', params.attachmentId.slice(0, 40));
      return act.renderActivity(found.activity, ctx.origin(request));
    },
  });

  // aprimo-js projects.getById.
  route(app, ctx, {
    method: 'GET',
    url: '/api/projects/:projectId',
    summary: 'Read a project',
    tag,
    params: z.object({ projectId: z.string().max(100) }),
    responses: { 200: { description: 'The project', schema: z.unknown() } },
    handler: async ({ request, params }) => {
      ctx.auth.caller(request);
      const project = await repo.loadProject(store, idOf(params.projectId, 'project'));
      if (!project) throw errors.noDataFound('project', params.projectId.slice(0, 40));
      return renderProject(project, ctx.origin(request));
    },
  });

  // aprimo-js projects.start, pause, close and cancel (POST with {}; the SDK reads no body): the project's status moves
  // as its lifecycle allows, and the simple-task rules (which statuses a new task may take) follow it.
  const TRANSITIONS: Record<string, { from: readonly ProjectStatusName[]; to: ProjectStatusName }> = {
    start: { from: ['Draft', 'Paused'], to: 'InProcess' },
    pause: { from: ['InProcess'], to: 'Paused' },
    close: { from: ['InProcess', 'Paused'], to: 'Closed' },
    cancel: { from: ['Draft', 'InProcess', 'Paused'], to: 'Cancelled' },
  };
  for (const [action, t] of Object.entries(TRANSITIONS)) {
    route(app, ctx, {
      method: 'POST',
      url: `/api/projects/:projectId/${action}`,
      summary: `${action[0]!.toUpperCase()}${action.slice(1)} a project (from ${t.from.join(' or ')} to ${t.to}; 204)`,
      tag,
      params: z.object({ projectId: z.string().max(100) }),
      body: Body,
      bodyOptional: true,
      responses: { 204: { description: `The project is ${t.to}` } },
      handler: async ({ request, params, reply }) => {
        ctx.auth.caller(request);
        await store.transaction(async (tx) => {
          const project = await repo.loadProject(tx, idOf(params.projectId, 'project'));
          if (!project) throw errors.noDataFound('project', params.projectId.slice(0, 40));
          if (!t.from.includes(project.status)) throw errors.taskRule(400, `A project in status ${project.status} cannot ${action}; only one in ${t.from.join(' or ')} can`);
          await tx.query('UPDATE wm_projects SET status = $2 WHERE id = $1', [project.id, t.to]);
        });
        return reply.code(204).send();
      },
    });
  }

  // Lists of a project the emulator keeps nothing for (aprimo-js projects.getAttachments, getDigitalAssets): the project
  // must exist; the page is empty.
  for (const [path, type] of [
    ['attachments', 'Attachment'],
    ['digital-assets', 'digital-asset'],
  ] as const) {
    route(app, ctx, {
      method: 'GET',
      url: `/api/projects/:projectId/${path}`,
      summary: `A project's ${path} (the emulator keeps none: an empty page)`,
      tag,
      params: z.object({ projectId: z.string().max(100) }),
      query: WindowQuery,
      responses: { 200: { description: 'An empty page', schema: opsCollection(type, z.unknown()) } },
      handler: async ({ request, params }) => {
        ctx.auth.caller(request);
        const project = await repo.loadProject(store, idOf(params.projectId, 'project'));
        if (!project) throw errors.noDataFound('project', params.projectId.slice(0, 40));
        return collection(type, [], 0, parseWindow(request), request, ctx.origin(request));
      },
    });
  }

  // aprimo-js users.getById.
  route(app, ctx, {
    method: 'GET',
    url: '/api/users/:userId',
    summary: 'Read a user by its work-management (integer) id',
    tag,
    params: z.object({ userId: z.string().max(100) }),
    responses: { 200: { description: 'The user', schema: z.unknown() } },
    handler: async ({ request, params }) => {
      ctx.auth.caller(request);
      const id = idOf(params.userId, 'user');
      const user = (await opsUsers(store)).find((u) => u.userId === id);
      if (!user) throw errors.noDataFound('user', params.userId.slice(0, 40));
      return user;
    },
  });

  // aprimo-js groups.getById and groups.search.
  route(app, ctx, {
    method: 'GET',
    url: '/api/groups/:groupId',
    summary: 'Read a user group by its work-management (integer) id, with its members',
    tag,
    params: z.object({ groupId: z.string().max(100) }),
    responses: { 200: { description: 'The group', schema: z.unknown() } },
    handler: async ({ request, params }) => {
      ctx.auth.caller(request);
      const [group] = await opsGroups(store, idOf(params.groupId, 'group'));
      if (!group) throw errors.noDataFound('group', params.groupId.slice(0, 40));
      return group;
    },
  });

  route(app, ctx, {
    method: 'POST',
    url: '/api/groups/search',
    summary: 'Search user groups (PmSearchRequest on groupId or name; paged by limit and offset)',
    tag,
    query: WindowQuery,
    body: Body,
    bodyOptional: true,
    responses: { 200: { description: 'A page of groups', schema: opsCollection('group', z.unknown()) } },
    handler: async ({ request }) => {
      ctx.auth.caller(request);
      return searchPage(ctx, request, 'group', await opsGroups(store));
    },
  });

  // Aprimo-Connect/aprimo-chrome-extension js/tasks.js GetReviewTasks reads _embedded.ReviewTask and _total. The emulator
  // keeps no review tasks (the spec's task API creates simple, non-review tasks only): an empty page, criteria checked
  // against nothing.
  route(app, ctx, {
    method: 'POST',
    url: '/api/review-tasks/search',
    summary: 'Search review tasks (the emulator keeps none: an empty page)',
    tag,
    query: WindowQuery,
    body: Body,
    bodyOptional: true,
    responses: { 200: { description: 'An empty page', schema: opsCollection('ReviewTask', z.unknown()) } },
    handler: async ({ request }) => {
      ctx.auth.caller(request);
      return searchPage(ctx, request, 'ReviewTask', []);
    },
  });
}
