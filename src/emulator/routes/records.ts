// Records: list (filter/sort/paging/cursor), read with select headers, create, partial update, delete, sub-resources.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context';
import { fieldType, load, loadFieldValues, recordType, classificationType, core, type RecordRow } from '../domain/model';
import { RowCache } from '../storage/tracking';
import { newGuid, RecordBody, writeRecord } from '../domain/records';
import { fireFileVersionCreated } from '../domain/fileVersionHooks';
import { normaliseGuid, pagedCollection, parsePaging, render, renderContext, requestParam, type RenderContext } from '../hal';
import { runSearch } from '../search/run';
import { docSchema, parseBody } from '../validate';

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  const base = '/api/core';
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
  async function renderRecord(rc: RenderContext, row: Awaited<ReturnType<typeof findRecord>>) {
    if (rc.fieldSelection) {
      const selected = new Set(rc.select.get('record') ?? []);
      selected.add('fields');
      rc.select.set('record', selected);
    }
    const body = await render(recordType, row, rc);
    if (rc.fieldSelection) delete body._links;
    return body;
  }

  app.get(`${base}/records`, { schema: { summary: 'List records (filter, sort, page, pageSize, skip, take, cursor)' } }, async (request) => {
    const rc = renderContext(ctx, request);
    const paging = parsePaging(request, ctx.config.recordsPageSizeMax, ctx.config.pageSizeDefault);
    const result = await runSearch(
      ctx,
      { target: 'records', expression: requestParam(request, 'filter') ?? '', sort: requestParam(request, 'sort') },
      { offset: paging.offset, limit: paging.limit, cursor: requestParam(request, 'cursor'), plainForm: true },
    );
    const rows = await load.records(ctx.store, result.ids);
    const items = [];
    for (const row of rows) items.push(await renderRecord(rc, row));
    return pagedCollection(rc, items, { ...paging, offset: result.offset, page: Math.floor(result.offset / paging.limit) + 1 }, result.totalCount, {
      nextCursor: result.nextCursor,
    });
  });

  app.get(`${base}/record/:id`, { schema: { summary: 'Read one record' } }, async (request: FastifyRequest<{ Params: { id: string } }>) => {
    const row = await findRecord(request.params.id);
    return renderRecord(renderContext(ctx, request), row);
  });

  /** Rules: the versions this request created (stamped with its `now`) go to the configured hooks. */
  async function fireHooks(request: FastifyRequest, recordId: string, now: Date) {
    const caller = ctx.auth.caller(request);
    const versions = await ctx.store.query<{ id: string }>('SELECT id FROM file_versions WHERE record_id = $1 AND created_on = $2', [recordId, now.toISOString()]);
    await fireFileVersionCreated(ctx, ctx.origin(request), { recordId, versionIds: versions.map((v) => v.id), userId: caller.userId, clientId: caller.clientId });
  }

  for (const path of [`${base}/record`, `${base}/records`]) {
    app.post(
      path,
      { schema: { summary: 'Create a record' }, config: { bodySchema: docSchema(RecordBody) } },
      async (request, reply) => {
        const body = parseBody(RecordBody, request.body);
        const caller = ctx.auth.caller(request);
        const id = newGuid();
        const now = ctx.clock.now();
        await ctx.store.transaction((tx) => writeRecord(tx, id, body, caller.userId, now, true, ctx.blobs));
        if (body.files) await fireHooks(request, id, now);
        const rc = renderContext(ctx, request);
        const row = await findRecord(id);
        reply.code(201).header('Location', `${core(rc)}/record/${id}`);
        return renderRecord(rc, row);
      },
    );
  }

  app.put(
    `${base}/record/:id`,
    { schema: { summary: 'Update the sent properties of a record' }, config: { bodySchema: docSchema(RecordBody) } },
    async (request: FastifyRequest<{ Params: { id: string } }>) => {
      const body = parseBody(RecordBody, request.body);
      const row = await findRecord(request.params.id);
      const caller = ctx.auth.caller(request);
      const now = ctx.clock.now();
      await ctx.store.transaction((tx) => writeRecord(tx, row.id, body, caller.userId, now, false, ctx.blobs));
      if (body.files) await fireHooks(request, row.id, now);
      return renderRecord(renderContext(ctx, request), await findRecord(row.id));
    },
  );

  app.delete(`${base}/record/:id`, { schema: { summary: 'Delete a record' } }, async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
    const row = await findRecord(request.params.id);
    // The rows cascade; the bytes they named go after the commit (a blob is never removed while a row names it).
    const blobs = await ctx.store.query<{ blob: string | null }>(
      `SELECT unnest(ARRAY[blob, preview_blob, thumbnail_blob]) AS blob FROM file_versions WHERE record_id = $1
       UNION ALL SELECT a.blob FROM additional_files a JOIN file_versions v ON v.id = a.file_version_id WHERE v.record_id = $1`,
      [row.id],
    );
    await ctx.store.query('DELETE FROM records WHERE id = $1', [row.id]);
    for (const { blob } of blobs) if (blob) await ctx.blobs.remove(blob);
    return reply.code(204).send();
  });

  app.get(`${base}/record/:id/fields`, { schema: { summary: 'Field values of a record' } }, async (request: FastifyRequest<{ Params: { id: string } }>) => {
    const row = await findRecord(request.params.id);
    const rc = renderContext(ctx, request);
    const values = await loadFieldValues(rc, row.id);
    const items = await Promise.all(values.map((v) => render(fieldType, v, rc, ['record'])));
    return { items, totalCount: items.length, _links: { self: { href: `${core(rc)}/record/${row.id}/fields` } } };
  });

  app.get(
    `${base}/record/:id/field/:fieldId`,
    { schema: { summary: 'One field value of a record' } },
    async (request: FastifyRequest<{ Params: { id: string; fieldId: string } }>) => {
      const row = await findRecord(request.params.id);
      const rc = renderContext(ctx, request);
      const wanted = request.params.fieldId.toLowerCase();
      const value = (await loadFieldValues(rc, row.id)).find((v) => v.definition.id === normaliseGuid(wanted) || v.definition.name.toLowerCase() === wanted);
      if (!value) throw errors.noDataFound('field value', request.params.fieldId.slice(0, 100));
      return render(fieldType, value, rc, ['record']);
    },
  );

  app.get(
    `${base}/record/:id/classifications`,
    { schema: { summary: 'Classifications of a record' } },
    async (request: FastifyRequest<{ Params: { id: string } }>) => {
      const row = await findRecord(request.params.id);
      const rc = renderContext(ctx, request);
      const rows = await load.classificationsWhere(ctx.store, 'c.id IN (SELECT classification_id FROM record_classifications WHERE record_id = $1)', [row.id], 'c.name_path');
      const items = await Promise.all(rows.map((c) => render(classificationType, c, rc, ['record'])));
      return { items, totalCount: items.length, _links: { self: { href: `${core(rc)}/record/${row.id}/classifications` } } };
    },
  );

  for (const rel of ['permissions']) {
    app.get(`${base}/record/:id/${rel}`, { schema: { summary: `${rel} of a record` } }, async (request: FastifyRequest<{ Params: { id: string } }>) => {
      const row = await findRecord(request.params.id);
      const rc = renderContext(ctx, request);
      return { items: [], totalCount: 0, _links: { self: { href: `${core(rc)}/record/${row.id}/${rel}` } } };
    });
  }
}
