// Field definitions and field groups: list (filter/sort/paging), read, and, for administrators, create, change, delete.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { FIELD_DATA_TYPES } from '../../core/search';
import { Rights } from '../caller';
import type { EmulatorContext } from '../context';
import { isListType } from '../../core/records';
import { definitionProperties, fieldDefinitions, fieldGroups, type FieldDefinitionFields } from '../domain/fields';
import { core, fieldDefinitionType, fieldGroupType, type FieldDefinitionRow } from '../domain/model';
import { normaliseGuid, render, renderContext } from '../hal';
import { ListQuery, Segment, created, noContent, route } from '../routeTable';
import { FieldDefinitionSchema, FieldGroupSchema, paged } from '../schemas';
import { listSmall } from './collection';

const Label = z.object({ languageId: z.string().max(100), value: z.string().max(1000) });
const Option = z.object({ id: z.string().max(100).optional(), name: z.string().min(1).max(500), label: z.string().max(1000).optional() });

export const FieldDefinitionBody = z
  .object({
    name: z.string().min(1).max(500).nullish(),
    labels: z.array(Label).max(100).nullish(),
    dataType: z.enum(FIELD_DATA_TYPES).nullish(),
    fieldGroupId: z.string().max(100).nullish(),
    isRequired: z.boolean().nullish(),
    isLocalizable: z.boolean().nullish(),
    isReadOnly: z.boolean().nullish(),
    // A string too: configuration tools send a definition's default as text (DAM-Configuration-Moving-Tools' DTOs).
    defaultValue: z.union([z.string().max(10_000), z.object({ value: z.unknown().optional(), values: z.array(z.unknown()).max(1000).optional() })]).nullish(),
    items: z
      .object({ addOrUpdate: z.array(Option).max(1000).optional(), remove: z.array(z.union([z.string(), z.object({ id: z.string() })])).max(1000).optional() })
      .nullish(),
    rootClassificationId: z.string().max(100).nullish(),
    /** The tenant's name for the root (SDK models, workbook tools); the empty GUID means no root. */
    rootId: z.string().max(100).nullish(),
    /** The groups a definition belongs to: an array of ids (as read) or `addOrUpdate` / `remove` sections (as tools write). */
    memberships: z.union([z.array(z.string().max(100)).max(100), z.object({ addOrUpdate: z.array(z.string().max(100)).max(100).nullish(), remove: z.array(z.string().max(100)).max(100).nullish() })]).nullish(),
    sortIndex: z.number().int().nullish(),
  })
  .loose();

export const FieldGroupBody = z
  .object({ name: z.string().min(1).max(500).nullish(), labels: z.array(Label).max(100).nullish(), sortIndex: z.number().int().nullish() })
  .loose();

const IdParams = z.object({ id: Segment });

type DefinitionBody = z.infer<typeof FieldDefinitionBody>;

/** The root from either name; the empty GUID (what a read answers for "no root") resets it. */
function rootOf(body: DefinitionBody): string | null | undefined {
  const root = body.rootClassificationId !== undefined ? body.rootClassificationId : body.rootId;
  return root && /^0+$/.test(root.replace(/-/g, '')) ? null : root;
}

/** A default sent as text: the value of a scalar field, comma-separated values of a list field; empty is none. */
function defaultOf(body: DefinitionBody, current?: FieldDefinitionRow): FieldDefinitionFields['defaultValue'] {
  const d = body.defaultValue;
  if (typeof d !== 'string') return d;
  if (d.trim() === '') return null;
  const dataType = body.dataType ?? current?.data_type ?? '';
  return isListType(dataType) ? { values: d.split(',').map((v) => v.trim()).filter(Boolean) } : { value: d };
}

/** The field group from `fieldGroupId`, else from `memberships` (the emulator keeps one group per definition). */
function groupOf(body: DefinitionBody, current?: FieldDefinitionRow): string | null | undefined {
  if (body.fieldGroupId !== undefined || !body.memberships) return body.fieldGroupId;
  if (Array.isArray(body.memberships)) return body.memberships[0] ?? null;
  const added = body.memberships.addOrUpdate ?? [];
  if (added.length) return added[0];
  const removed = new Set((body.memberships.remove ?? []).map((id) => normaliseGuid(id) ?? id));
  return current?.field_group_id && removed.has(current.field_group_id) ? null : undefined;
}

/** What a create or update body asks for, its alternative forms read as the tenant reads them. */
function writeFields(body: DefinitionBody, current?: FieldDefinitionRow): FieldDefinitionFields {
  return { ...body, defaultValue: defaultOf(body, current), fieldGroupId: groupOf(body, current), rootClassificationId: rootOf(body), properties: definitionProperties(body) };
}

const admin = { rights: [Rights.SystemAdministration] };

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  const base = '/api/core';
  const tag = 'Fields';
  const { store } = ctx;

  route(app, ctx, {
    method: 'GET',
    url: `${base}/fielddefinitions`,
    summary: 'List field definitions',
    tag,
    query: ListQuery,
    responses: { 200: { description: 'A page of field definitions', schema: paged(FieldDefinitionSchema) } },
    handler: async ({ request }) => listSmall(ctx, request, fieldDefinitionType, await fieldDefinitions.list(store)),
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/fielddefinition/:id`,
    summary: 'Read a field definition (by id or name)',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The definition', schema: FieldDefinitionSchema } },
    handler: async ({ params, request }) => render(fieldDefinitionType, await fieldDefinitions.find(store, params.id), renderContext(ctx, request)),
  });
  route(app, ctx, {
    method: 'POST',
    url: [`${base}/fielddefinition`, `${base}/fielddefinitions`],
    summary: 'Create a field definition',
    tag,
    ...admin,
    action: 'define fields',
    body: FieldDefinitionBody,
    responses: { 201: { description: 'The new definition', schema: FieldDefinitionSchema } },
    handler: async ({ body, request, reply }) => {
      const fields = writeFields(body);
      const id = await store.transaction((tx) => fieldDefinitions.write(tx, fields, ctx.clock.now()));
      const rc = renderContext(ctx, request);
      return created(reply, `${core(rc)}/fielddefinition/${id}`, await render(fieldDefinitionType, await fieldDefinitions.find(store, id), rc));
    },
  });
  route(app, ctx, {
    method: 'PUT',
    url: `${base}/fielddefinition/:id`,
    summary: 'Update a field definition (options through `items` addOrUpdate/remove)',
    tag,
    ...admin,
    action: 'change field definitions',
    params: IdParams,
    body: FieldDefinitionBody,
    responses: { 204: { description: 'Changed' } },
    handler: async ({ params, body, reply }) => {
      const row = await fieldDefinitions.find(store, params.id);
      const fields = writeFields(body, row);
      await store.transaction((tx) => fieldDefinitions.write(tx, fields, ctx.clock.now(), row));
      return noContent(reply);
    },
  });
  route(app, ctx, {
    method: 'DELETE',
    url: `${base}/fielddefinition/:id`,
    summary: 'Delete a field definition and its values',
    tag,
    ...admin,
    action: 'delete field definitions',
    params: IdParams,
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, reply }) => {
      await fieldDefinitions.remove(store, (await fieldDefinitions.find(store, params.id)).id);
      return noContent(reply);
    },
  });

  route(app, ctx, {
    method: 'GET',
    url: `${base}/fieldgroups`,
    summary: 'List field groups',
    tag,
    query: ListQuery,
    responses: { 200: { description: 'A page of field groups', schema: paged(FieldGroupSchema) } },
    handler: async ({ request }) => listSmall(ctx, request, fieldGroupType, await fieldGroups.list(store)),
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/fieldgroup/:id`,
    summary: 'Read a field group',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The group', schema: FieldGroupSchema } },
    handler: async ({ params, request }) => render(fieldGroupType, await fieldGroups.find(store, params.id), renderContext(ctx, request)),
  });
  route(app, ctx, {
    method: 'POST',
    url: [`${base}/fieldgroup`, `${base}/fieldgroups`],
    summary: 'Create a field group',
    tag,
    ...admin,
    action: 'create field groups',
    body: FieldGroupBody,
    responses: { 201: { description: 'The new group', schema: FieldGroupSchema } },
    handler: async ({ body, request, reply }) => {
      const id = await fieldGroups.create(store, body);
      const rc = renderContext(ctx, request);
      return created(reply, `${core(rc)}/fieldgroup/${id}`, await render(fieldGroupType, await fieldGroups.find(store, id), rc));
    },
  });
  route(app, ctx, {
    method: 'PUT',
    url: `${base}/fieldgroup/:id`,
    summary: 'Update a field group',
    tag,
    ...admin,
    action: 'change field groups',
    params: IdParams,
    body: FieldGroupBody,
    responses: { 204: { description: 'Changed' } },
    handler: async ({ params, body, reply }) => {
      await fieldGroups.update(store, await fieldGroups.find(store, params.id), body, ctx.clock.now());
      return noContent(reply);
    },
  });
  route(app, ctx, {
    method: 'DELETE',
    url: `${base}/fieldgroup/:id`,
    summary: 'Delete a field group',
    tag,
    ...admin,
    action: 'delete field groups',
    params: IdParams,
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, reply }) => {
      await fieldGroups.remove(store, (await fieldGroups.find(store, params.id)).id);
      return noContent(reply);
    },
  });
}
