// Records: list (filter/sort/paging/cursor), read with select headers, create, partial update, delete, sub-resources.
// Anyone may create records; changing or deleting one is its creator's, or an administrator's.
import { userGuid } from '../../core/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { EmulatorContext } from '../context';
import { classifications } from '../domain/classifications';
import { fireFileVersionCreated } from '../domain/fileVersionHooks';
import { classificationType, core, fieldType, load, loadFieldValues, recordType, type RecordRow } from '../domain/model';
import { RecordBody, newGuid, records, writeRecord } from '../domain/records';
import { addTrailEntry, trail, trailState, type TrailEntryRow as TrailEntry } from '../domain/trail';
import { normaliseGuid, pagedCollection, parsePaging, render, renderContext, requestParam, type RenderContext } from '../hal';
import { ListQuery, Segment, created, noContent, route } from '../routeTable';
import { ClassificationSchema, FieldValueSchema, RecordSchema, list, paged } from '../schemas';
import { filterAndSort } from '../search/memory';
import { runSearch } from '../search/run';
import { RowCache } from '../storage/tracking';

const IdParams = z.object({ id: Segment });

/**
 * Record writes may carry `disable-validations`, `disable-rules` and `client-id` (real-service-notes). The emulator
 * honours the first for required fields; the others are accepted (its rules fire on file versions, not on fields).
 */
function writeOptions(request: FastifyRequest) {
  const flag = request.headers['disable-validations'];
  return { disableValidations: typeof flag === 'string' && flag.trim().toLowerCase() === 'true' };
}

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  const base = '/api/core';
  const tag = 'Records';
  const { errors } = ctx;

  // GET /record/{id} is the hottest read; rows are cached until the next write anywhere in the store.
  const cache = new RowCache<RecordRow>(ctx.store);

  async function findRecord(id: string) {
    const guid = normaliseGuid(id);
    const row = guid ? await cache.get(guid, async () => (await load.records(ctx.store, [guid]))[0]) : undefined;
    if (!row) throw errors.noDataFound('record', id.slice(0, 100));
    return row;
  }

  /** With `select-record-fields`/`-fieldgroups` the fields are embedded and the record carries no `_links`. */
  async function renderRecord(rc: RenderContext, row: RecordRow) {
    if (rc.fieldSelection) {
      const selected = new Set(rc.select.get('record') ?? []);
      selected.add('fields');
      rc.select.set('record', selected);
    }
    const body = await render(recordType, row, rc);
    if (rc.fieldSelection) delete body._links;
    return body;
  }

  /** Rules: the versions this request created (stamped with its `now`) go to the configured hooks. */
  async function fireHooks(request: FastifyRequest, recordId: string, now: Date) {
    const caller = ctx.auth.caller(request);
    const versionIds = await records.versionsCreatedAt(ctx.store, recordId, now);
    await fireFileVersionCreated(ctx, ctx.origin(request), { recordId, versionIds, userId: caller.userId, clientId: caller.clientId });
  }

  route(app, ctx, {
    method: 'GET',
    url: `${base}/records`,
    summary: 'List records (filter, sort, paging, cursor; page size at most 100)',
    tag,
    query: ListQuery.extend({ cursor: z.string().max(1000).optional().describe('nextCursor of the previous page, verbatim') }),
    responses: { 200: { description: 'A page of records', schema: paged(RecordSchema) } },
    handler: async ({ request }) => {
      const rc = renderContext(ctx, request);
      const paging = parsePaging(request, ctx.config.recordsPageSizeMax, ctx.config.pageSizeDefault);
      const result = await runSearch(
        ctx,
        { target: 'records', expression: requestParam(request, 'filter') ?? '', sort: requestParam(request, 'sort') },
        { offset: paging.offset, limit: paging.limit, cursor: requestParam(request, 'cursor'), plainForm: true },
      );
      const items = [];
      for (const row of await load.records(ctx.store, result.ids)) items.push(await renderRecord(rc, row));
      const page = { ...paging, offset: result.offset, page: Math.floor(result.offset / paging.limit) + 1 };
      return pagedCollection(rc, items, page, result.totalCount, { nextCursor: result.nextCursor });
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/record/:id`,
    summary: 'Read one record (select-record: fields, files, classifications, masterfilelatestversion, …)',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The record', schema: RecordSchema } },
    handler: async ({ params, request }) => renderRecord(renderContext(ctx, request), await findRecord(params.id)),
  });
  route(app, ctx, {
    method: 'POST',
    url: [`${base}/record`, `${base}/records`, `${base}/records/edits`],
    summary: 'Create a record (files from upload tokens, classifications, fields); /records/edits creates it as a draft',
    tag,
    body: RecordBody,
    responses: { 201: { description: 'The new record', schema: RecordSchema } },
    handler: async ({ body: sent, request, reply, caller }) => {
      // The service's documentation (the record collection's page): POST /records/edits "creates a new record as draft".
      const body = /\/records\/edits\/?$/i.test(request.routeOptions.url ?? '') ? { ...sent, status: 'Draft' } : sent;
      const id = newGuid();
      const now = ctx.clock.now();
      await ctx.store.transaction(async (tx) => {
        await writeRecord(tx, id, body, caller().userId, now, true, ctx.blobs, writeOptions(request));
        await addTrailEntry(tx, id, new Map(), await trailState(tx, id), caller().userId, now);
      });
      if (body.files) await fireHooks(request, id, now);
      const rc = renderContext(ctx, request);
      return created(reply, `${core(rc)}/record/${id}`, await renderRecord(rc, await findRecord(id)));
    },
  });
  route(app, ctx, {
    method: 'PUT',
    url: `${base}/record/:id`,
    summary: 'Update the sent properties of a record (a new file version through `files`)',
    tag,
    params: IdParams,
    body: RecordBody,
    responses: { 204: { description: 'Changed' }, 403: { description: 'The record is not the caller\'s (and the caller is no administrator)' } },
    handler: async ({ params, body, request, reply }) => {
      const row = await findRecord(params.id);
      const caller = ctx.auth.requireOwner(request, row.created_by, 'change a record you did not create');
      const now = ctx.clock.now();
      await ctx.store.transaction(async (tx) => {
        const before = await trailState(tx, row.id);
        await writeRecord(tx, row.id, body, caller.userId, now, false, ctx.blobs, writeOptions(request));
        await addTrailEntry(tx, row.id, before, await trailState(tx, row.id), caller.userId, now);
      });
      if (body.files) await fireHooks(request, row.id, now);
      return noContent(reply);
    },
  });
  route(app, ctx, {
    method: 'DELETE',
    url: `${base}/record/:id`,
    summary: 'Delete a record with its files',
    tag,
    params: IdParams,
    responses: { 204: { description: 'Deleted' }, 403: { description: 'The record is not the caller\'s (and the caller is no administrator)' } },
    handler: async ({ params, request, reply }) => {
      const row = await findRecord(params.id);
      ctx.auth.requireOwner(request, row.created_by, 'delete a record you did not create');
      await records.remove(ctx.store, ctx.blobs, row.id);
      return noContent(reply);
    },
  });
  // The record's history (real-service-notes, second round): newest first, filtered and paged as small lists are.
  const TrailQuery = z.object({ filter: z.string().max(10_000).optional(), skip: z.string().max(12).optional(), take: z.string().max(12).optional() }).loose();
  const entrySummary = (e: TrailEntry) => ({
    id: e.id,
    recordId: e.record_id,
    createdOn: new Date(e.created_on).toISOString(),
    // As the record's createdby/modifiedby name the user: by content-API GUID (a client matches the two).
    userId: userGuid(e.user_id),
    action: e.action,
    changeCount: e.changes.length,
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/record/:id/trail`,
    summary: 'The record\'s trail: one entry per change made through the API, newest first (filter, skip, take)',
    tag,
    params: IdParams,
    query: TrailQuery,
    responses: { 200: { description: 'The entries', schema: z.object({ entries: z.array(z.object({ id: z.string(), createdOn: z.string(), userId: z.string() }).loose()) }).loose() } },
    handler: async ({ params, request }) => {
      const row = await findRecord(params.id);
      const paging = parsePaging(request, ctx.config.pageSizeMax, ctx.config.pageSizeDefault);
      // `filter=change` (public clients read a record's recent changes so) names a kind of entry, not an expression:
      // every entry the emulator keeps is a change.
      const filter = requestParam(request, 'filter');
      const kind = filter !== undefined && /^\s*changes?\s*$/i.test(filter);
      const all = filterAndSort((await trail.ofRecord(ctx.store, row.id)).map(entrySummary), kind ? undefined : filter, requestParam(request, 'sort'));
      return { entries: all.slice(paging.offset, paging.offset + paging.limit), totalCount: all.length, skip: paging.offset, take: paging.limit };
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/record/:id/trail/entry/:entryId`,
    summary: 'One trail entry of the record, with its changes',
    tag,
    params: z.object({ id: z.string().max(100), entryId: z.string().max(100) }),
    responses: { 200: { description: 'The entry', schema: z.object({ id: z.string(), changes: z.array(z.unknown()) }).loose() } },
    handler: async ({ params }) => {
      const row = await findRecord(params.id);
      const guid = normaliseGuid(params.entryId);
      const entry = guid ? await trail.entry(ctx.store, guid) : undefined;
      if (!entry || entry.record_id !== row.id) throw errors.noDataFound('trail entry', params.entryId.slice(0, 100));
      return { ...entrySummary(entry), changes: entry.changes };
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/trail/entry/:id`,
    summary: 'One trail entry with its changes',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The entry', schema: z.object({ id: z.string(), changes: z.array(z.unknown()) }).loose() } },
    handler: async ({ params }) => {
      const guid = normaliseGuid(params.id);
      const entry = guid ? await trail.entry(ctx.store, guid) : undefined;
      if (!entry) throw errors.noDataFound('trail entry', params.id.slice(0, 100));
      return { ...entrySummary(entry), changes: entry.changes };
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/record/:id/fields`,
    summary: 'Field values of a record',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The field values', schema: list(FieldValueSchema) } },
    handler: async ({ params, request }) => {
      const row = await findRecord(params.id);
      const rc = renderContext(ctx, request);
      const items = await Promise.all((await loadFieldValues(rc, row.id)).map((v) => render(fieldType, v, rc, ['record'])));
      return { items, totalCount: items.length, _links: { self: { href: `${core(rc)}/record/${row.id}/fields` } } };
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/record/:id/field/:fieldId`,
    summary: 'One field value of a record (by field id or name)',
    tag,
    params: z.object({ id: Segment, fieldId: Segment }),
    responses: { 200: { description: 'The field value', schema: FieldValueSchema } },
    handler: async ({ params, request }) => {
      const row = await findRecord(params.id);
      const rc = renderContext(ctx, request);
      const wanted = params.fieldId.toLowerCase();
      const value = (await loadFieldValues(rc, row.id)).find((v) => v.definition.id === normaliseGuid(wanted) || v.definition.name.toLowerCase() === wanted);
      if (!value) throw errors.noDataFound('field value', params.fieldId.slice(0, 100));
      return render(fieldType, value, rc, ['record']);
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/record/:id/classifications`,
    summary: 'Classifications of a record',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The classifications', schema: list(ClassificationSchema) } },
    handler: async ({ params, request }) => {
      const row = await findRecord(params.id);
      const rc = renderContext(ctx, request);
      const items = await Promise.all((await classifications.ofRecord(ctx.store, row.id)).map((c) => render(classificationType, c, rc, ['record'])));
      return { items, totalCount: items.length, _links: { self: { href: `${core(rc)}/record/${row.id}/classifications` } } };
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/record/:id/permissions`,
    summary: 'Permissions of a record (the emulator grants by role, so none are listed)',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The permissions', schema: list(z.unknown()) } },
    handler: async ({ params, request }) => {
      const row = await findRecord(params.id);
      return { items: [], totalCount: 0, _links: { self: { href: `${core(renderContext(ctx, request))}/record/${row.id}/permissions` } } };
    },
  });
}
