// Classifications: the tree (parent, children, ancestors, a node by its name path), the list with filter/sort/paging,
// and, for administrators, create, change and delete.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Rights } from '../caller';
import type { EmulatorContext } from '../context';
import { classifications } from '../domain/classifications';
import { ancestors, classificationType, core, load, type ClassificationRow } from '../domain/model';
import { pagedCollection, parsePaging, render, renderContext, requestParam } from '../hal';
import { ListQuery, Segment, created, noContent, route } from '../routeTable';
import { ClassificationSchema, list, paged } from '../schemas';
import { runSearch } from '../search/run';

const Label = z.object({ languageId: z.string().max(100), value: z.string().max(1000) });

export const ClassificationBody = z
  .object({
    name: z.string().min(1).max(500).nullish(),
    identifier: z.string().max(500).nullish(),
    parentId: z.string().max(100).nullish(),
    /** The parent by its name path (`/Products/Line A`), as the public classification importer sends it. */
    parentNamePath: z.string().max(4000).nullish(),
    sortIndex: z.number().int().min(-1_000_000).max(1_000_000).nullish(),
    sortOrder: z.enum(['Label', 'Name', 'SortIndex']).nullish(),
    labels: z.array(Label).max(100).nullish(),
  })
  .loose();

const IdParams = z.object({ id: Segment });
const admin = { rights: [Rights.SystemAdministration] };

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  const base = '/api/core';
  const tag = 'Classifications';
  const { store } = ctx;

  /** `parentNamePath` names the parent when `parentId` does not. */
  async function withParentByPath<T extends { parentId?: string | null; parentNamePath?: string | null }>(body: T): Promise<T> {
    if (!body.parentNamePath || body.parentId) return body;
    return { ...body, parentId: (await classifications.atNamePath(store, body.parentNamePath)).id };
  }

  /** A page of classifications: the children of a node in tree order, or a search of all of them. */
  async function listPage(request: FastifyRequest, children?: ClassificationRow[]) {
    const rc = renderContext(ctx, request);
    const paging = parsePaging(request, ctx.config.pageSizeMax, ctx.config.pageSizeDefault);
    let rows: ClassificationRow[];
    let total: number;
    if (children) {
      total = children.length;
      rows = children.slice(paging.offset, paging.offset + paging.limit);
    } else {
      const result = await runSearch(
        ctx,
        { target: 'classifications', expression: requestParam(request, 'filter') ?? '', sort: requestParam(request, 'sort') },
        { offset: paging.offset, limit: paging.limit, plainForm: true },
      );
      rows = await load.classifications(store, result.ids);
      total = result.totalCount;
    }
    const items = await Promise.all(rows.map((r) => render(classificationType, r, rc)));
    return pagedCollection(rc, items, paging, total);
  }

  route(app, ctx, {
    method: 'GET',
    url: `${base}/classifications`,
    summary: 'List classifications (filter, sort, paging)',
    tag,
    query: ListQuery,
    responses: { 200: { description: 'A page of classifications', schema: paged(ClassificationSchema) } },
    handler: ({ request }) => listPage(request),
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/classification`,
    summary: 'The classification at a name path (?namePath=/Products/Outdoor; spaces as + or %20)',
    tag,
    query: z.object({ namePath: z.string().min(1).max(4000) }).loose(),
    responses: { 200: { description: 'The classification', schema: ClassificationSchema }, 404: { description: 'No classification has that name path' } },
    handler: async ({ query, request }) => render(classificationType, await classifications.atNamePath(store, query.namePath), renderContext(ctx, request)),
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/classification/:id`,
    summary: 'Read one classification',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The classification', schema: ClassificationSchema } },
    handler: async ({ params, request }) => render(classificationType, await classifications.find(store, params.id), renderContext(ctx, request)),
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/classification/:id/children`,
    summary: 'Children of a classification, in tree order',
    tag,
    params: IdParams,
    query: ListQuery,
    responses: { 200: { description: 'A page of children', schema: paged(ClassificationSchema) } },
    handler: async ({ params, request }) => listPage(request, await classifications.children(store, (await classifications.find(store, params.id)).id)),
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/classification/:id/parent`,
    summary: 'Parent of a classification (404 for a root)',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The parent', schema: ClassificationSchema } },
    handler: async ({ params, request }) => {
      const row = await classifications.find(store, params.id);
      if (!row.parent_id) throw ctx.errors.noDataFound('parent classification of', row.id);
      return render(classificationType, await classifications.find(store, row.parent_id), renderContext(ctx, request));
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/classification/:id/ancestors`,
    summary: 'Ancestors from the root down',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The ancestors', schema: list(ClassificationSchema) } },
    handler: async ({ params, request }) => {
      const row = await classifications.find(store, params.id);
      const rc = renderContext(ctx, request);
      const items = await Promise.all((await ancestors(store, row.id)).map((r) => render(classificationType, r, rc)));
      return { items, totalCount: items.length, _links: { self: { href: `${core(rc)}/classification/${row.id}/ancestors` } } };
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/classification/:id/fields`,
    summary: 'Fields of a classification (the emulator keeps none)',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The fields', schema: list(z.unknown()) } },
    handler: async ({ params, request }) => {
      const row = await classifications.find(store, params.id);
      return { items: [], totalCount: 0, _links: { self: { href: `${core(renderContext(ctx, request))}/classification/${row.id}/fields` } } };
    },
  });
  route(app, ctx, {
    method: 'POST',
    url: [`${base}/classification`, `${base}/classifications`],
    summary: 'Create a classification',
    tag,
    ...admin,
    action: 'create classifications',
    body: ClassificationBody,
    responses: { 201: { description: 'The new classification', schema: ClassificationSchema } },
    handler: async ({ body, request, reply, caller }) => {
      if (!body.name) throw ctx.errors.validation('name is required.');
      const fields = { ...(await withParentByPath(body)), name: body.name };
      const id = await store.transaction((tx) => classifications.create(tx, fields, caller().userId, ctx.clock.now()));
      const rc = renderContext(ctx, request);
      return created(reply, `${core(rc)}/classification/${id}`, await render(classificationType, await classifications.find(store, id), rc));
    },
  });
  route(app, ctx, {
    method: 'PUT',
    url: `${base}/classification/:id`,
    summary: 'Update the sent properties of a classification',
    tag,
    ...admin,
    action: 'change classifications',
    params: IdParams,
    body: ClassificationBody,
    responses: { 204: { description: 'Changed' } },
    handler: async ({ params, body, reply, caller }) => {
      const row = await classifications.find(store, params.id);
      const fields = await withParentByPath(body);
      await store.transaction((tx) => classifications.update(tx, row, fields, caller().userId, ctx.clock.now()));
      return noContent(reply);
    },
  });
  route(app, ctx, {
    method: 'DELETE',
    url: `${base}/classification/:id`,
    summary: 'Delete a classification and its descendants',
    tag,
    ...admin,
    action: 'delete classifications',
    params: IdParams,
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, reply }) => {
      await classifications.remove(store, (await classifications.find(store, params.id)).id);
      return noContent(reply);
    },
  });
}
