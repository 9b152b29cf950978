// Users, user groups, languages and content types.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { EmulatorContext } from '../context';
import { core, load, userGroupType, userType, type UserGroupRow, type UserRow } from '../domain/model';
import { defineType, normaliseGuid, render, renderContext } from '../hal';
import { docSchema, parseBody } from '../validate';
import { listSmall } from './collection';

interface LanguageRow {
  id: string;
  culture: string;
  name: string;
  is_neutral: boolean;
}
interface ContentTypeRow {
  id: string;
  name: string;
  labels: { languageId: string; value: string }[];
}

export const languageType = defineType<LanguageRow>({
  name: 'language',
  self: (l, rc) => `${core(rc)}/language/${l.id}`,
  attributes: (l) => ({ id: l.id, culture: l.culture, name: l.name, isNeutral: l.is_neutral }),
  relations: [],
});

export const contentTypeType = defineType<ContentTypeRow>({
  name: 'contenttype',
  self: (c, rc) => `${core(rc)}/contenttype/${c.id}`,
  attributes: (c) => ({ id: c.id, name: c.name, label: c.labels[0]?.value ?? c.name, labels: c.labels }),
  relations: [],
});

const IdList = z.array(z.union([z.number().int(), z.string().max(20), z.object({ id: z.union([z.number().int(), z.string().max(20)]) })])).max(10_000);

export const UserGroupBody = z
  .object({
    name: z.string().min(1).max(500).nullish(),
    members: z.object({ addOrUpdate: IdList.optional(), remove: IdList.optional() }).nullish(),
  })
  .loose();

export const UserBody = z
  .object({
    firstName: z.string().max(200).nullish(),
    lastName: z.string().max(200).nullish(),
    email: z.string().max(320).nullish(),
    languageId: z.string().max(100).nullish(),
    isActive: z.boolean().nullish(),
  })
  .loose();

export const UserCreateBody = UserBody.extend({
  login: z.string().min(1).max(200),
  password: z.string().min(1).max(200).nullish(),
});

type Params = FastifyRequest<{ Params: { id: string } }>;

const memberId = (m: number | string | { id: number | string }) => Number(typeof m === 'object' ? m.id : m);

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  const base = '/api/core';
  const { errors } = ctx;
  const intId = (id: string, what: string) => {
    if (!/^\d{1,9}$/.test(id)) throw errors.noDataFound(what, id.slice(0, 100));
    return Number(id);
  };

  async function findUser(id: string): Promise<UserRow> {
    const row = (await load.users(ctx.store, [intId(id, 'user')]))[0];
    if (!row) throw errors.noDataFound('user', id);
    return row;
  }
  async function findGroup(id: string): Promise<UserGroupRow> {
    const row = (await ctx.store.query<UserGroupRow>('SELECT * FROM user_groups WHERE id = $1', [intId(id, 'user group')]))[0];
    if (!row) throw errors.noDataFound('user group', id);
    return row;
  }

  app.get(`${base}/users`, { schema: { summary: 'List users' } }, async (request) =>
    listSmall(ctx, request, userType, await ctx.store.query<UserRow>('SELECT * FROM users ORDER BY id')),
  );
  app.get(`${base}/user/:id`, { schema: { summary: 'Read a user' } }, async (request: Params) => render(userType, await findUser(request.params.id), renderContext(ctx, request)));
  app.get(`${base}/user/:id/usergroups`, { schema: { summary: 'Groups of a user' } }, async (request: Params) => {
    const user = await findUser(request.params.id);
    const rows = await ctx.store.query<UserGroupRow>('SELECT g.* FROM user_groups g JOIN user_group_members m ON m.group_id = g.id WHERE m.user_id = $1 ORDER BY g.id', [user.id]);
    return listSmall(ctx, request, userGroupType, rows);
  });
  app.put(`${base}/user/:id`, { schema: { summary: 'Update a user' }, config: { bodySchema: docSchema(UserBody) } }, async (request: Params) => {
    const body = parseBody(UserBody, request.body);
    const user = await findUser(request.params.id);
    let language = user.language_id;
    if (body.languageId !== undefined) {
      language = body.languageId === null ? '00000000000000000000000000000000' : (normaliseGuid(body.languageId) ?? '');
      if (!(await ctx.store.query('SELECT 1 FROM languages WHERE id = $1', [language])).length) throw errors.noDataFound('language', String(body.languageId));
    }
    await ctx.store.query('UPDATE users SET first_name = $1, last_name = $2, email = $3, language_id = $4, active = $5, modified_on = $6 WHERE id = $7', [
      body.firstName === undefined ? user.first_name : (body.firstName ?? ''),
      body.lastName === undefined ? user.last_name : (body.lastName ?? ''),
      body.email === undefined ? user.email : (body.email ?? ''),
      language,
      body.isActive === undefined ? user.active : (body.isActive ?? true),
      ctx.clock.now().toISOString(),
      user.id,
    ]);
    return render(userType, await findUser(String(user.id)), renderContext(ctx, request));
  });

  for (const path of [`${base}/user`, `${base}/users`]) {
    app.post(path, { schema: { summary: 'Create a user' }, config: { bodySchema: docSchema(UserCreateBody) } }, async (request, reply) => {
      const body = parseBody(UserCreateBody, request.body);
      if ((await ctx.store.query('SELECT 1 FROM users WHERE lower(login) = lower($1)', [body.login])).length) throw errors.conflict(`A user with login '${body.login.slice(0, 100)}' already exists.`);
      const language = body.languageId ? normaliseGuid(body.languageId) : '00000000000000000000000000000000';
      if (!language || !(await ctx.store.query('SELECT 1 FROM languages WHERE id = $1', [language])).length) throw errors.noDataFound('language', String(body.languageId));
      const now = ctx.clock.now().toISOString();
      // New users get ids above the seeded ones; without a password they cannot use the password flow.
      const row = (
        await ctx.store.query<{ id: number }>(
          `INSERT INTO users (id, login, password, first_name, last_name, email, active, language_id, created_on, modified_on)
           VALUES ((SELECT greatest(coalesce(max(id), 0), 9999) + 1 FROM users), $1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING id`,
          [body.login, body.password ?? randomBytes(18).toString('base64url'), body.firstName ?? '', body.lastName ?? '', body.email ?? '', body.isActive ?? true, language, now],
        )
      )[0];
      const rc = renderContext(ctx, request);
      reply.code(201).header('Location', `${core(rc)}/user/${row.id}`);
      return render(userType, await findUser(String(row.id)), rc);
    });
  }
  app.delete(`${base}/user/:id`, { schema: { summary: 'Delete a user' } }, async (request: Params, reply) => {
    const user = await findUser(request.params.id);
    // The emulator's registered clients act as users; removing one would orphan every token it issues.
    if ((await ctx.store.query('SELECT 1 FROM clients WHERE user_id = $1', [user.id])).length) {
      throw errors.conflict(`User ${user.id} is the identity of a registered client and cannot be deleted.`);
    }
    await ctx.store.query('DELETE FROM users WHERE id = $1', [user.id]);
    return reply.code(204).send();
  });

  app.get(`${base}/usergroups`, { schema: { summary: 'List user groups' } }, async (request) =>
    listSmall(ctx, request, userGroupType, await ctx.store.query<UserGroupRow>('SELECT * FROM user_groups ORDER BY id')),
  );
  app.get(`${base}/usergroup/:id`, { schema: { summary: 'Read a user group' } }, async (request: Params) =>
    render(userGroupType, await findGroup(request.params.id), renderContext(ctx, request)),
  );
  app.get(`${base}/usergroup/:id/members`, { schema: { summary: 'Members of a user group' } }, async (request: Params) => {
    const group = await findGroup(request.params.id);
    const rows = await ctx.store.query<UserRow>('SELECT u.* FROM users u JOIN user_group_members m ON m.user_id = u.id WHERE m.group_id = $1 ORDER BY u.id', [group.id]);
    return listSmall(ctx, request, userType, rows);
  });

  async function applyMembers(groupId: number, members: z.infer<typeof UserGroupBody>['members']) {
    if (!members) return;
    await ctx.store.transaction(async (tx) => {
      for (const m of members.remove ?? []) await tx.query('DELETE FROM user_group_members WHERE group_id = $1 AND user_id = $2', [groupId, memberId(m)]);
      for (const m of members.addOrUpdate ?? []) {
        const id = memberId(m);
        if (!Number.isInteger(id) || !(await tx.query('SELECT 1 FROM users WHERE id = $1', [id])).length) throw errors.noDataFound('user', String(id));
        await tx.query('INSERT INTO user_group_members (group_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [groupId, id]);
      }
    });
  }

  for (const path of [`${base}/usergroup`, `${base}/usergroups`]) {
    app.post(path, { schema: { summary: 'Create a user group' }, config: { bodySchema: docSchema(UserGroupBody) } }, async (request, reply) => {
      const body = parseBody(UserGroupBody, request.body);
      if (!body.name) throw errors.validation('name is required.');
      const row = (
        await ctx.store.query<{ id: number }>('INSERT INTO user_groups (id, name) VALUES ((SELECT greatest(coalesce(max(id), 0), 999) + 1 FROM user_groups), $1) RETURNING id', [body.name])
      )[0];
      await applyMembers(row.id, body.members);
      const rc = renderContext(ctx, request);
      reply.code(201).header('Location', `${core(rc)}/usergroup/${row.id}`);
      return render(userGroupType, await findGroup(String(row.id)), rc);
    });
  }
  app.put(`${base}/usergroup/:id`, { schema: { summary: 'Update a user group (members via addOrUpdate/remove)' }, config: { bodySchema: docSchema(UserGroupBody) } }, async (request: Params) => {
    const body = parseBody(UserGroupBody, request.body);
    const group = await findGroup(request.params.id);
    if (body.name === null) throw errors.validation('name cannot be reset.');
    if (body.name !== undefined) await ctx.store.query('UPDATE user_groups SET name = $1, modified_on = $2 WHERE id = $3', [body.name, ctx.clock.now().toISOString(), group.id]);
    await applyMembers(group.id, body.members);
    return render(userGroupType, await findGroup(String(group.id)), renderContext(ctx, request));
  });
  app.delete(`${base}/usergroup/:id`, { schema: { summary: 'Delete a user group' } }, async (request: Params, reply) => {
    const group = await findGroup(request.params.id);
    await ctx.store.query('DELETE FROM user_groups WHERE id = $1', [group.id]);
    return reply.code(204).send();
  });

  app.get(`${base}/languages`, { schema: { summary: 'List languages' } }, async (request) =>
    listSmall(ctx, request, languageType, await ctx.store.query<LanguageRow>('SELECT * FROM languages ORDER BY is_neutral DESC, culture')),
  );
  app.get(`${base}/language/:id`, { schema: { summary: 'Read a language' } }, async (request: Params) => {
    const id = normaliseGuid(request.params.id);
    const row = id ? (await ctx.store.query<LanguageRow>('SELECT * FROM languages WHERE id = $1', [id]))[0] : undefined;
    if (!row) throw errors.noDataFound('language', request.params.id.slice(0, 100));
    return render(languageType, row, renderContext(ctx, request));
  });

  app.get(`${base}/contenttypes`, { schema: { summary: 'List content types' } }, async (request) =>
    listSmall(ctx, request, contentTypeType, await ctx.store.query<ContentTypeRow>('SELECT * FROM content_types ORDER BY name')),
  );
  app.get(`${base}/contenttype/:id`, { schema: { summary: 'Read a content type (by id or name)' } }, async (request: Params) => {
    const row = (
      await ctx.store.query<ContentTypeRow>('SELECT * FROM content_types WHERE id = $1 OR lower(name) = lower($2::text)', [normaliseGuid(request.params.id) ?? '', request.params.id])
    )[0];
    if (!row) throw errors.noDataFound('content type', request.params.id.slice(0, 100));
    return render(contentTypeType, row, renderContext(ctx, request));
  });
}
