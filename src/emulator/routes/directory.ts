// Users, user groups, languages and content types. Reading is everyone's; changing users and groups is the administrator's.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { Rights } from '../caller';
import type { EmulatorContext } from '../context';
import { contentTypes, groups, languages, memberId, users, type ContentTypeRow, type LanguageRow } from '../domain/directory';
import { groupGuid, userGuid } from '../../core/contract';
import { core, userGroupType, userType } from '../domain/model';
import { defineType, render, renderContext } from '../hal';
import { ListQuery, Segment, created, noContent, route } from '../routeTable';
import { ContentTypeSchema, LanguageSchema, UserGroupSchema, UserSchema, paged } from '../schemas';
import { listSmall } from './collection';

export const languageType = defineType<LanguageRow>({
  name: 'language',
  self: (l, rc) => `${core(rc)}/language/${l.id}`,
  // Every culture the tenant has is one its fields and screens are shown in (the catalogue's default, false, hid them
  // all from an admin tool that lists the languages enabled for fields); the neutral language is neither.
  attributes: (l) => ({ id: l.id, culture: l.culture, name: l.name, isNeutral: l.is_neutral, isEnabledForFields: !l.is_neutral, isEnabledForUI: !l.is_neutral }),
  relations: [],
});

export const contentTypeType = defineType<ContentTypeRow>({
  name: 'contenttype',
  self: (c, rc) => `${core(rc)}/contenttype/${c.id}`,
  // The members a content type has on a tenant (aprimo-js ContentType; read by the configuration workbook), with the
  // values of a root type with no registrations: absent members break the clients that read them.
  attributes: (c) => ({
    id: c.id,
    name: c.name,
    label: c.labels[0]?.value ?? c.name,
    labels: c.labels,
    purpose: '',
    parentId: null,
    fileMode: 'UploadFile',
    isManual: false,
    isNoFile: false,
    fileConfiguration: null,
    defaultFileExtensions: [],
    registeredFields: [],
    registeredFieldGroups: [],
    titleConfiguration: null,
    inheritanceConfiguration: 'None',
    inheritanceFieldId: '00000000000000000000000000000000',
    inheritableFields: [],
  }),
  relations: [],
});

const IdList = z.array(z.union([z.number().int(), z.string().max(40), z.object({ id: z.union([z.number().int(), z.string().max(40)]) })])).max(10_000);
const memberIds = (list: z.infer<typeof IdList> | undefined) => list?.map((m) => memberId(typeof m === 'object' ? m.id : m));

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

const IdParams = z.object({ id: Segment });
const Label = z.object({ languageId: z.string().max(100), value: z.string().max(1000) });
const LanguageBody = z.object({ culture: z.string().min(1).max(40).nullish(), name: z.string().min(1).max(200).nullish() }).loose();
const ContentTypeBody = z.object({ name: z.string().min(1).max(200).nullish(), labels: z.array(Label).max(100).nullish() }).loose();
const admin = { rights: [Rights.SystemAdministration] };

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  const base = '/api/core';
  const tag = 'Users and groups';
  const rcOf = renderContext.bind(null, ctx);

  route(app, ctx, {
    method: 'GET',
    url: `${base}/users`,
    summary: 'List users',
    tag,
    query: ListQuery,
    responses: { 200: { description: 'A page of users', schema: paged(UserSchema) } },
    handler: async ({ request }) => listSmall(ctx, request, userType, await users.list(ctx.store)),
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/user/:id`,
    summary: 'Read a user',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The user', schema: UserSchema } },
    handler: async ({ params, request }) => render(userType, await users.find(ctx.store, params.id), rcOf(request)),
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/user/:id/usergroups`,
    summary: 'Groups of a user',
    tag,
    params: IdParams,
    query: ListQuery,
    responses: { 200: { description: 'A page of groups', schema: paged(UserGroupSchema) } },
    handler: async ({ params, request }) => {
      const user = await users.find(ctx.store, params.id);
      return listSmall(ctx, request, userGroupType, await users.groupsOf(ctx.store, user.id));
    },
  });
  route(app, ctx, {
    method: 'PUT',
    url: `${base}/user/:id`,
    summary: 'Update a user',
    tag,
    ...admin,
    action: 'change users',
    params: IdParams,
    body: UserBody,
    responses: { 204: { description: 'Changed' } },
    handler: async ({ params, body, reply }) => {
      await users.update(ctx.store, await users.find(ctx.store, params.id), body, ctx.clock.now());
      return noContent(reply);
    },
  });
  route(app, ctx, {
    method: 'POST',
    url: [`${base}/user`, `${base}/users`],
    summary: 'Create a user',
    tag,
    ...admin,
    action: 'create users',
    body: UserCreateBody,
    responses: { 201: { description: 'The new user', schema: UserSchema } },
    handler: async ({ body, request, reply }) => {
      const id = await users.create(ctx.store, body, ctx.clock.now());
      const rc = rcOf(request);
      return created(reply, `${core(rc)}/user/${userGuid(id)}`, await render(userType, await users.find(ctx.store, String(id)), rc));
    },
  });
  route(app, ctx, {
    method: 'DELETE',
    url: `${base}/user/:id`,
    summary: 'Delete a user',
    tag,
    ...admin,
    action: 'delete users',
    params: IdParams,
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, reply }) => {
      await users.remove(ctx.store, await users.find(ctx.store, params.id));
      return noContent(reply);
    },
  });

  route(app, ctx, {
    method: 'GET',
    url: `${base}/usergroups`,
    summary: 'List user groups',
    tag,
    query: ListQuery,
    responses: { 200: { description: 'A page of groups', schema: paged(UserGroupSchema) } },
    handler: async ({ request }) => listSmall(ctx, request, userGroupType, await groups.list(ctx.store)),
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/usergroup/:id`,
    summary: 'Read a user group',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The group', schema: UserGroupSchema } },
    handler: async ({ params, request }) => render(userGroupType, await groups.find(ctx.store, params.id), rcOf(request)),
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/usergroup/:id/members`,
    summary: 'Members of a user group',
    tag,
    params: IdParams,
    query: ListQuery,
    responses: { 200: { description: 'A page of users', schema: paged(UserSchema) } },
    handler: async ({ params, request }) => {
      const group = await groups.find(ctx.store, params.id);
      return listSmall(ctx, request, userType, await groups.members(ctx.store, group.id));
    },
  });
  route(app, ctx, {
    method: 'POST',
    url: [`${base}/usergroup`, `${base}/usergroups`],
    summary: 'Create a user group',
    tag,
    ...admin,
    action: 'create user groups',
    body: UserGroupBody,
    responses: { 201: { description: 'The new group', schema: UserGroupSchema } },
    handler: async ({ body, request, reply }) => {
      if (!body.name) throw ctx.errors.validation('name is required.');
      const name = body.name;
      const id = await ctx.store.transaction(async (tx) => {
        const groupId = await groups.create(tx, name);
        if (body.members) await groups.changeMembers(tx, groupId, { addOrUpdate: memberIds(body.members.addOrUpdate), remove: memberIds(body.members.remove) });
        return groupId;
      });
      const rc = rcOf(request);
      return created(reply, `${core(rc)}/usergroup/${groupGuid(id)}`, await render(userGroupType, await groups.find(ctx.store, String(id)), rc));
    },
  });
  route(app, ctx, {
    method: 'PUT',
    url: `${base}/usergroup/:id`,
    summary: 'Update a user group (members via addOrUpdate/remove)',
    tag,
    ...admin,
    action: 'change user groups',
    params: IdParams,
    body: UserGroupBody,
    responses: { 204: { description: 'Changed' } },
    handler: async ({ params, body, reply }) => {
      const group = await groups.find(ctx.store, params.id);
      if (body.name === null) throw ctx.errors.validation('name cannot be reset.');
      const name = body.name;
      await ctx.store.transaction(async (tx) => {
        if (name !== undefined) await groups.rename(tx, group.id, name, ctx.clock.now());
        if (body.members) await groups.changeMembers(tx, group.id, { addOrUpdate: memberIds(body.members.addOrUpdate), remove: memberIds(body.members.remove) });
      });
      return noContent(reply);
    },
  });
  route(app, ctx, {
    method: 'DELETE',
    url: `${base}/usergroup/:id`,
    summary: 'Delete a user group',
    tag,
    ...admin,
    action: 'delete user groups',
    params: IdParams,
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, reply }) => {
      await groups.remove(ctx.store, (await groups.find(ctx.store, params.id)).id);
      return noContent(reply);
    },
  });

  route(app, ctx, {
    method: 'GET',
    url: `${base}/languages`,
    summary: 'List languages',
    tag: 'Languages and content types',
    query: ListQuery,
    responses: { 200: { description: 'A page of languages', schema: paged(LanguageSchema) } },
    handler: async ({ request }) => listSmall(ctx, request, languageType, await languages.list(ctx.store)),
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/language/:id`,
    summary: 'Read a language',
    tag: 'Languages and content types',
    params: IdParams,
    responses: { 200: { description: 'The language', schema: LanguageSchema } },
    handler: async ({ params, request }) => render(languageType, await languages.find(ctx.store, params.id), rcOf(request)),
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/contenttypes`,
    summary: 'List content types',
    tag: 'Languages and content types',
    query: ListQuery,
    responses: { 200: { description: 'A page of content types', schema: paged(ContentTypeSchema) } },
    handler: async ({ request }) => listSmall(ctx, request, contentTypeType, await contentTypes.list(ctx.store)),
  });
  route(app, ctx, {
    method: 'POST',
    url: [`${base}/language`, `${base}/languages`],
    summary: 'Add a language (its culture is unique)',
    tag: 'Languages and content types',
    ...admin,
    action: 'add languages',
    body: LanguageBody,
    responses: { 201: { description: 'The new language', schema: LanguageSchema } },
    handler: async ({ body, request, reply }) => {
      if (!body.culture) throw ctx.errors.validation('culture is required (a culture name such as en-US).');
      const id = await ctx.store.transaction((tx) => languages.create(tx, { culture: body.culture!, name: body.name }));
      const rc = rcOf(request);
      return created(reply, `${core(rc)}/language/${id}`, await render(languageType, await languages.find(ctx.store, id), rc));
    },
  });
  route(app, ctx, {
    method: 'PUT',
    url: `${base}/language/:id`,
    summary: "Rename a language (its culture does not change)",
    tag: 'Languages and content types',
    ...admin,
    action: 'change languages',
    params: IdParams,
    body: LanguageBody,
    responses: { 204: { description: 'Changed' } },
    handler: async ({ params, body, reply }) => {
      const row = await languages.find(ctx.store, params.id);
      if (body.culture && body.culture.toLowerCase() !== row.culture.toLowerCase()) throw ctx.errors.validation("A language's culture does not change.");
      if (body.name) await languages.rename(ctx.store, row, body.name);
      return noContent(reply);
    },
  });
  route(app, ctx, {
    method: 'DELETE',
    url: `${base}/language/:id`,
    summary: 'Delete a language and the values and labels in it',
    tag: 'Languages and content types',
    ...admin,
    action: 'delete languages',
    params: IdParams,
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, reply }) => {
      const row = await languages.find(ctx.store, params.id);
      await ctx.store.transaction((tx) => languages.remove(tx, row));
      return noContent(reply);
    },
  });
  route(app, ctx, {
    method: 'POST',
    url: [`${base}/contenttype`, `${base}/contenttypes`],
    summary: 'Add a content type (its name is unique)',
    tag: 'Languages and content types',
    ...admin,
    action: 'add content types',
    body: ContentTypeBody,
    responses: { 201: { description: 'The new content type', schema: ContentTypeSchema } },
    handler: async ({ body, request, reply }) => {
      if (!body.name) throw ctx.errors.validation('name is required.');
      const id = await ctx.store.transaction((tx) => contentTypes.create(tx, { name: body.name!, labels: body.labels }));
      const rc = rcOf(request);
      return created(reply, `${core(rc)}/contenttype/${id}`, await render(contentTypeType, await contentTypes.find(ctx.store, id), rc));
    },
  });
  route(app, ctx, {
    method: 'PUT',
    url: `${base}/contenttype/:id`,
    summary: "Change a content type's labels",
    tag: 'Languages and content types',
    ...admin,
    action: 'change content types',
    params: IdParams,
    body: ContentTypeBody,
    responses: { 204: { description: 'Changed' } },
    handler: async ({ params, body, reply }) => {
      await contentTypes.update(ctx.store, await contentTypes.find(ctx.store, params.id), body);
      return noContent(reply);
    },
  });
  route(app, ctx, {
    method: 'DELETE',
    url: `${base}/contenttype/:id`,
    summary: 'Delete a content type no record has',
    tag: 'Languages and content types',
    ...admin,
    action: 'delete content types',
    params: IdParams,
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, reply }) => {
      await contentTypes.remove(ctx.store, await contentTypes.find(ctx.store, params.id));
      return noContent(reply);
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/contenttype/:id`,
    summary: 'Read a content type (by id or name)',
    tag: 'Languages and content types',
    params: IdParams,
    responses: { 200: { description: 'The content type', schema: ContentTypeSchema } },
    handler: async ({ params, request }) => render(contentTypeType, await contentTypes.find(ctx.store, params.id), rcOf(request)),
  });
}
