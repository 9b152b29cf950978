// Classifications: the tree (parent, children, ancestors, namePath), list with filter/sort/paging, and CRUD.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { EmulatorContext } from '../context';
import { ancestors, classificationType, core, load, type ClassificationRow } from '../domain/model';
import { newGuid } from '../domain/records';
import { normaliseGuid, pagedCollection, parsePaging, render, renderContext, requestParam } from '../hal';
import { runSearch } from '../search/run';
import type { Queryable } from '../storage/store';
import { NEUTRAL_LANGUAGE } from '../domain/languages';
import { docSchema, parseBody } from '../validate';

const Label = z.object({ languageId: z.string().max(100), value: z.string().max(1000) });

export const ClassificationBody = z
  .object({
    name: z.string().min(1).max(500).nullish(),
    identifier: z.string().max(500).nullish(),
    parentId: z.string().max(100).nullish(),
    sortIndex: z.number().int().min(-1_000_000).max(1_000_000).nullish(),
    sortOrder: z.enum(['Label', 'Name', 'SortIndex']).nullish(),
    labels: z.array(Label).max(100).nullish(),
  })
  .loose();

const escapeName = (name: string) => name.replace(/\//g, '\\/');

/** Rewrites namePath/labelPath of a node and all its descendants from its parent's paths. */
async function refreshPaths(db: Queryable, id: string) {
  await db.query(
    `WITH RECURSIVE tree(id, name_path, label_path, depth) AS (
       SELECT c.id,
              coalesce(p.name_path, '') || '/' || replace(c.name, '/', '\\/'),
              coalesce(p.label_path, '') || '/' || replace(coalesce(c.labels->0->>'value', c.name), '/', '\\/'),
              0
         FROM classifications c LEFT JOIN classifications p ON p.id = c.parent_id WHERE c.id = $1
       UNION ALL
       SELECT c.id, t.name_path || '/' || replace(c.name, '/', '\\/'),
              t.label_path || '/' || replace(coalesce(c.labels->0->>'value', c.name), '/', '\\/'), t.depth + 1
         FROM classifications c JOIN tree t ON c.parent_id = t.id WHERE t.depth < 100)
     UPDATE classifications c SET name_path = tree.name_path, label_path = tree.label_path FROM tree WHERE c.id = tree.id`,
    [id],
  );
}

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  const base = '/api/core';
  const { errors } = ctx;

  async function find(id: string): Promise<ClassificationRow> {
    const guid = normaliseGuid(id);
    const row = guid ? (await load.classifications(ctx.store, [guid]))[0] : undefined;
    if (!row) throw errors.noDataFound('classification', id.slice(0, 100));
    return row;
  }

  async function listBy(request: FastifyRequest, where: string | undefined, whereParams: unknown[]) {
    const rc = renderContext(ctx, request);
    const paging = parsePaging(request, ctx.config.pageSizeMax, ctx.config.pageSizeDefault);
    const filter = requestParam(request, 'filter');
    let ids: string[];
    let total: number;
    if (where) {
      // Children of a node: a plain query keeps the tree order (sortIndex, name).
      const rows = await load.classificationsWhere(ctx.store, where, whereParams);
      total = rows.length;
      ids = rows.slice(paging.offset, paging.offset + paging.limit).map((r) => r.id);
    } else {
      const result = await runSearch(
        ctx,
        { target: 'classifications', expression: filter ?? '', sort: requestParam(request, 'sort') },
        { offset: paging.offset, limit: paging.limit, plainForm: true },
      );
      ids = result.ids;
      total = result.totalCount;
    }
    const rows = await load.classifications(ctx.store, ids);
    const items = await Promise.all(rows.map((r) => render(classificationType, r, rc)));
    return pagedCollection(rc, items, paging, total);
  }

  app.get(`${base}/classifications`, { schema: { summary: 'List classifications (filter, sort, paging)' } }, (request) => listBy(request, undefined, []));

  app.get(`${base}/classification/:id`, { schema: { summary: 'Read one classification' } }, async (request: FastifyRequest<{ Params: { id: string } }>) =>
    render(classificationType, await find(request.params.id), renderContext(ctx, request)),
  );

  app.get(`${base}/classification/:id/children`, { schema: { summary: 'Children of a classification' } }, async (request: FastifyRequest<{ Params: { id: string } }>) => {
    const row = await find(request.params.id);
    return listBy(request, 'c.parent_id = $1', [row.id]);
  });

  app.get(`${base}/classification/:id/parent`, { schema: { summary: 'Parent of a classification (404 for a root)' } }, async (request: FastifyRequest<{ Params: { id: string } }>) => {
    const row = await find(request.params.id);
    if (!row.parent_id) throw errors.noDataFound('parent classification of', row.id);
    return render(classificationType, await find(row.parent_id), renderContext(ctx, request));
  });

  app.get(`${base}/classification/:id/ancestors`, { schema: { summary: 'Ancestors from the root down' } }, async (request: FastifyRequest<{ Params: { id: string } }>) => {
    const row = await find(request.params.id);
    const rc = renderContext(ctx, request);
    const items = await Promise.all((await ancestors(ctx.store, row.id)).map((r) => render(classificationType, r, rc)));
    return { items, totalCount: items.length, _links: { self: { href: `${core(rc)}/classification/${row.id}/ancestors` } } };
  });

  app.get(`${base}/classification/:id/fields`, { schema: { summary: 'Fields of a classification' } }, async (request: FastifyRequest<{ Params: { id: string } }>) => {
    const row = await find(request.params.id);
    return { items: [], totalCount: 0, _links: { self: { href: `${core(renderContext(ctx, request))}/classification/${row.id}/fields` } } };
  });

  async function checkParent(db: Queryable, parentId: string | null | undefined, selfId?: string): Promise<string | null> {
    if (!parentId) return null;
    const guid = normaliseGuid(parentId);
    if (!guid || !(await db.query('SELECT 1 FROM classifications WHERE id = $1', [guid])).length) throw errors.noDataFound('classification', parentId);
    if (selfId) {
      const up = await ancestors(db, guid);
      if (guid === selfId || up.some((a) => a.id === selfId)) throw errors.validation('A classification cannot be moved below itself.');
    }
    return guid;
  }

  for (const path of [`${base}/classification`, `${base}/classifications`]) {
    app.post(path, { schema: { summary: 'Create a classification' }, config: { bodySchema: docSchema(ClassificationBody) } }, async (request, reply) => {
      const body = parseBody(ClassificationBody, request.body);
      if (!body.name) throw errors.validation('name is required.');
      const caller = ctx.auth.caller(request);
      const id = newGuid();
      const name = body.name;
      const now = ctx.clock.now().toISOString();
      await ctx.store.transaction(async (tx) => {
        const parent = await checkParent(tx, body.parentId);
        const labels = body.labels?.length ? body.labels : [{ languageId: NEUTRAL_LANGUAGE, value: name }];
        await tx.query(
          `INSERT INTO classifications (id, identifier, name, parent_id, sort_index, sort_order, labels, name_path, label_path, created_on, modified_on, created_by, modified_by)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $9, $10, $10)`,
          [id, body.identifier ?? name.toLowerCase().replace(/[^a-z0-9]+/g, '-'), name, parent, body.sortIndex ?? 0, body.sortOrder ?? 'SortIndex', JSON.stringify(labels), `/${escapeName(name)}`, now, caller.userId],
        );
        await refreshPaths(tx, id);
      });
      const rc = renderContext(ctx, request);
      reply.code(201).header('Location', `${core(rc)}/classification/${id}`);
      return render(classificationType, await find(id), rc);
    });
  }

  app.put(
    `${base}/classification/:id`,
    { schema: { summary: 'Update the sent properties of a classification' }, config: { bodySchema: docSchema(ClassificationBody) } },
    async (request: FastifyRequest<{ Params: { id: string } }>) => {
      const body = parseBody(ClassificationBody, request.body);
      const row = await find(request.params.id);
      const caller = ctx.auth.caller(request);
      await ctx.store.transaction(async (tx) => {
        const sets: string[] = [];
        const params: unknown[] = [];
        const set = (column: string, value: unknown) => {
          params.push(value);
          sets.push(`${column} = $${params.length}`);
        };
        if (body.name !== undefined) {
          if (body.name === null) throw errors.validation('name cannot be reset.');
          set('name', body.name);
        }
        if (body.identifier !== undefined) set('identifier', body.identifier ?? (body.name ?? row.name).toLowerCase());
        if (body.parentId !== undefined) set('parent_id', await checkParent(tx, body.parentId, row.id));
        if (body.sortIndex !== undefined) set('sort_index', body.sortIndex ?? 0);
        if (body.sortOrder !== undefined) set('sort_order', body.sortOrder ?? 'SortIndex');
        if (body.labels !== undefined) set('labels', JSON.stringify(body.labels ?? []));
        set('modified_on', ctx.clock.now().toISOString());
        set('modified_by', caller.userId);
        params.push(row.id);
        await tx.query(`UPDATE classifications SET ${sets.join(', ')} WHERE id = $${params.length}`, params as never[]);
        await refreshPaths(tx, row.id);
      });
      return render(classificationType, await find(row.id), renderContext(ctx, request));
    },
  );

  app.delete(`${base}/classification/:id`, { schema: { summary: 'Delete a classification and its descendants' } }, async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
    const row = await find(request.params.id);
    await ctx.store.query('DELETE FROM classifications WHERE id = $1', [row.id]);
    return reply.code(204).send();
  });
}
