// Collections, watermarks, rules and content subscriptions over HTTP: list, read, create, update, delete, and a collection's records (static:
// edited with addOrUpdate/remove sections; dynamic: its search expression run). Members a tenant has and the emulator
// keeps nothing for come from the catalogue (hal.ts), so these types only name what is stored.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { EmulatorContext } from '../context';
import { errors } from '../errors';
import { checkedSubscription, collectionRecords, configurationObjects, type ObjectKind, type ObjectRow } from '../domain/configurationObjects';
import { core, load, oneUser, recordType } from '../domain/model';
import { userGuid } from '../../core/contract';
import { defineType, pagedCollection, parsePaging, render, renderContext, type RenderContext, type Relation } from '../hal';
import { ListQuery, Segment, created, noContent, route } from '../routeTable';
import { runSearch } from '../search/run';
import { paged, resource } from '../schemas';
import { listSmall } from './collection';

const iso = (d: Date) => new Date(d).toISOString();

/** The ids of a collection's records: kept for a static one, searched for a dynamic one (first page of 1000). */
async function recordIdsOf(rc: RenderContext, row: ObjectRow): Promise<string[]> {
  const expression = (row.body.searchExpression as { expression?: unknown } | undefined)?.expression;
  if (String(row.body.type ?? '').toLowerCase() === 'dynamic' && typeof expression === 'string' && expression.trim()) {
    const result = await runSearch(rc.ctx, { target: 'records', expression }, { offset: 0, limit: 1000 });
    return result.ids;
  }
  return collectionRecords.recordIds(rc.ctx.store, row.id);
}

const user = (key: string, column: 'created_by' | 'modified_by'): Relation<ObjectRow> => ({
  key,
  type: 'user',
  many: false,
  href: (o, rc) => `${core(rc)}/user/${o[column] === null ? '' : userGuid(Number(o[column]))}`,
  load: (o, rc) => (o[column] === null ? Promise.resolve(null) : oneUser(rc, o[column] as never)),
});

/** A kept object as a HAL resource: its members as kept, `extra` over them, its creator and last editor linked. */
export function objectType(kind: ObjectKind, extra: (o: ObjectRow) => Record<string, unknown>, relations: Relation<ObjectRow>[] = [], asRelations: string[] = []) {
  return defineType<ObjectRow>({
    name: kind,
    self: (o, rc) => `${core(rc)}/${kind}/${o.id}`,
    attributes: (o) => {
      const { tag: _tag, ...all } = o.body;
      const body = Object.fromEntries(Object.entries(all).filter(([k]) => !asRelations.includes(k)));
      return { id: o.id, ...body, ...extra(o), createdOn: iso(o.created_on), modifiedOn: iso(o.modified_on) };
    },
    optional: { tag: (o) => (o.body.tag as string | undefined) ?? null },
    relations: [...relations, user('createdby', 'created_by'), user('modifiedby', 'modified_by')],
  });
}

export const collectionType = objectType(
  'collection',
  (o) => ({
    type: String(o.body.type ?? 'Static').toLowerCase() === 'dynamic' ? 'Dynamic' : 'Static',
    description: (o.body.description as string | undefined) ?? null,
    ownerId: o.created_by === null ? null : userGuid(Number(o.created_by)),
  }),
  [
    {
      key: 'records',
      type: 'record',
      many: true,
      href: (o, rc) => `${core(rc)}/collection/${o.id}/records`,
      load: async (o, rc) => load.records(rc.ctx.store, await recordIdsOf(rc, o)),
    },
    user('ownedby', 'created_by'),
  ],
);
export const watermarkType = objectType('watermark', () => ({}));
// A rule's conditions and actions are relations (the SDK's Rule model), kept as the lists their sections describe.
const keptList = (key: 'conditions' | 'actions', type: string): Relation<ObjectRow> => ({
  key,
  type,
  many: true,
  href: (o, rc) => `${core(rc)}/rule/${o.id}/${key}`,
  load: async (o) => (Array.isArray(o.body[key]) ? (o.body[key] as unknown[]) : []),
});
export const ruleType = objectType('rule', () => ({}), [keptList('conditions', 'rulecondition'), keptList('actions', 'ruleaction')], ['conditions', 'actions']);

export const contentSubscriptionType = objectType('contentsubscription', () => ({}));

const TYPES = { collection: collectionType, watermark: watermarkType, rule: ruleType, contentsubscription: contentSubscriptionType } as const;
const PLURAL: Record<keyof typeof TYPES, string> = { collection: 'collections', watermark: 'watermarks', rule: 'rules', contentsubscription: 'contentsubscriptions' };

const ObjectBody = z.record(z.string(), z.unknown());
const IdParams = z.object({ id: Segment });
const RecordsSection = z.object({ addOrUpdate: z.array(z.unknown()).max(10_000).optional(), remove: z.array(z.unknown()).max(10_000).optional() }).loose();
const RecordsBody = z.object({ records: RecordsSection }).loose();

/** A `records` section sent with a collection's create or update, checked as the records route checks it. */
function recordsSection(body: Record<string, unknown>): z.infer<typeof RecordsSection> | undefined {
  if (body.records === undefined || body.records === null) return undefined;
  const parsed = RecordsSection.safeParse(body.records);
  if (!parsed.success) throw errors.validation('records must be an object with addOrUpdate and remove lists of record ids.');
  return parsed.data;
}

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  const base = '/api/core';
  const tag = 'Collections, watermarks, rules and content subscriptions';

  for (const kind of ['collection', 'watermark', 'rule', 'contentsubscription'] as const) {
    const type = TYPES[kind];
    const plural = PLURAL[kind];
    const schema = kind === 'contentsubscription' ? resource({ id: z.string(), objectId: z.string() }) : resource({ id: z.string(), name: z.string() });
    route(app, ctx, {
      method: 'GET',
      url: `${base}/${plural}`,
      summary: `List ${plural}`,
      tag,
      query: ListQuery,
      responses: { 200: { description: `A page of ${plural}`, schema: paged(schema) } },
      handler: async ({ request }) => listSmall(ctx, request, type, await configurationObjects.list(ctx.store, kind)),
    });
    route(app, ctx, {
      method: 'GET',
      url: `${base}/${kind}/:id`,
      summary: `Read a ${kind}`,
      tag,
      params: IdParams,
      responses: { 200: { description: `The ${kind}`, schema } },
      handler: async ({ params, request }) => render(type, await configurationObjects.find(ctx.store, kind, params.id), renderContext(ctx, request)),
    });
    route(app, ctx, {
      method: 'POST',
      url: [`${base}/${plural}`, `${base}/${kind}`],
      summary: kind === 'contentsubscription' ? 'Create a content subscription (objectId, subscriptionType, subscriptionObjectType)' : `Create a ${kind} (a name is required; other members as sent)`,
      tag,
      body: ObjectBody,
      responses: { 201: { description: `The new ${kind}`, schema } },
      handler: async ({ body, request, reply, caller }) => {
        const records = kind === 'collection' ? recordsSection(body) : undefined;
        const id = await ctx.store.transaction(async (tx) => {
          const kept = kind === 'contentsubscription' ? await checkedSubscription(tx, {}, body) : body;
          const made = await configurationObjects.create(tx, kind, kept, String(caller().userId));
          if (records) await collectionRecords.edit(tx, await configurationObjects.find(tx, kind, made), records);
          return made;
        });
        const rc = renderContext(ctx, request);
        return created(reply, `${core(rc)}/${kind}/${id}`, await render(type, await configurationObjects.find(ctx.store, kind, id), rc));
      },
    });
    route(app, ctx, {
      method: 'PUT',
      url: `${base}/${kind}/:id`,
      summary: `Change a ${kind}: only the members sent; null resets one`,
      tag,
      params: IdParams,
      body: ObjectBody,
      responses: { 204: { description: 'Changed' } },
      handler: async ({ params, body, reply, caller }) => {
        const records = kind === 'collection' ? recordsSection(body) : undefined;
        await ctx.store.transaction(async (tx) => {
          const row = await configurationObjects.find(tx, kind, params.id);
          const sent = kind === 'contentsubscription' ? await checkedSubscription(tx, row.body, body) : body;
          await configurationObjects.update(tx, row, sent, String(caller().userId));
          if (records) await collectionRecords.edit(tx, row, records);
        });
        return noContent(reply);
      },
    });
    route(app, ctx, {
      method: 'DELETE',
      url: `${base}/${kind}/:id`,
      summary: `Delete a ${kind}`,
      tag,
      params: IdParams,
      responses: { 204: { description: 'Deleted' } },
      handler: async ({ params, reply }) => {
        await configurationObjects.remove(ctx.store, await configurationObjects.find(ctx.store, kind, params.id));
        return noContent(reply);
      },
    });
  }

  route(app, ctx, {
    method: 'GET',
    url: `${base}/collection/:id/records`,
    summary: "A collection's records (a dynamic one's search run now)",
    tag,
    params: IdParams,
    query: ListQuery,
    responses: { 200: { description: 'A page of records', schema: paged(resource({ id: z.string() })) } },
    handler: async ({ params, request }) => {
      const rc = renderContext(ctx, request);
      const row = await configurationObjects.find(ctx.store, 'collection', params.id);
      const ids = await recordIdsOf(rc, row);
      const paging = parsePaging(request, ctx.config.pageSizeMax, ctx.config.pageSizeDefault);
      const rows = await load.records(ctx.store, ids.slice(paging.offset, paging.offset + paging.limit));
      return pagedCollection(rc, await Promise.all(rows.map((r) => render(recordType, r, rc))), paging, ids.length);
    },
  });
  route(app, ctx, {
    method: 'PUT',
    url: `${base}/collection/:id/records`,
    summary: "Add or remove a static collection's records (addOrUpdate and remove sections of record ids)",
    tag,
    params: IdParams,
    body: RecordsBody,
    responses: { 204: { description: 'Changed' } },
    handler: async ({ params, body, reply }) => {
      const row = await configurationObjects.find(ctx.store, 'collection', params.id);
      await collectionRecords.edit(ctx.store, row, body.records);
      return noContent(reply);
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/record/:id/collections`,
    summary: 'The collections holding a record',
    tag,
    params: IdParams,
    query: ListQuery,
    responses: { 200: { description: 'A page of collections', schema: paged(resource({ id: z.string() })) } },
    handler: async ({ params, request }) => {
      const [record] = await load.records(ctx.store, [params.id.replace(/-/g, '').toLowerCase()]);
      if (!record) throw ctx.errors.noDataFound('record', params.id);
      return listSmall(ctx, request, collectionType, await collectionRecords.ofRecord(ctx.store, record.id));
    },
  });
}
