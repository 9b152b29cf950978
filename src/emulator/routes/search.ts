// Advanced search: POST /search/records (cursor, page size at most 100) and POST /search/classifications.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { SearchRequest } from '../../core/search';
import type { EmulatorContext } from '../context';
import { classificationType, load, recordType } from '../domain/model';
import { pagedCollection, parsePaging, render, renderContext, requestParam } from '../hal';
import { route } from '../routeTable';
import { ClassificationSchema, RecordSchema, paged } from '../schemas';
import type { Target } from '../search/compile';
import { runSearch } from '../search/run';

const Scalar = z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]);

/** The spec's search expression object, read as the service reads it (booleans also as strings, AND/OR in any case). */
export const SearchBody = z
  .object({
    searchExpression: z
      .object({
        // A transport bound only: the parser's own limit (core LIMITS, DQ2010) answers an expression that is too long.
        expression: z.string().max(1_000_000).nullish(),
        parameters: z.array(Scalar).max(1000).nullish(),
        namedParameters: z.record(z.string().max(200), Scalar).nullish(),
        supportWildcards: z.union([z.boolean(), z.string().regex(/^(true|false)$/i, 'supportWildcards must be true or false')]).nullish(),
        defaultLogicalOperator: z
          .string()
          .regex(/^(and|or)$/i, 'defaultLogicalOperator must be AND or OR')
          .nullish(),
      })
      .loose()
      .nullish(),
    cursor: z.string().max(1000).nullish(),
    sort: z.string().max(1_000_000).nullish(),
  })
  .loose();

const SearchQuery = z
  .object({
    sort: z.string().max(1_000_000).optional().describe('Sort expression (also accepted in the body or as a header)'),
    pageSize: z.string().max(12).optional(),
    page: z.string().max(12).optional(),
    skip: z.string().max(12).optional(),
    take: z.string().max(12).optional(),
  })
  .loose();

/** The core's request from the wire body: only what was sent, so the core applies the defaults. */
function searchRequestOf(target: Target, body: z.infer<typeof SearchBody> | undefined, sort: string | undefined): SearchRequest {
  const se = body?.searchExpression ?? {};
  const request: SearchRequest = { target, expression: se.expression ?? '' };
  if (se.parameters) request.parameters = se.parameters;
  if (se.namedParameters) request.namedParameters = se.namedParameters;
  if (se.supportWildcards !== undefined && se.supportWildcards !== null) request.supportWildcards = String(se.supportWildcards).toLowerCase() === 'true';
  if (se.defaultLogicalOperator) request.defaultLogicalOperator = se.defaultLogicalOperator.toUpperCase() as 'AND' | 'OR';
  if (sort) request.sort = sort;
  return request;
}

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  async function search(request: FastifyRequest, target: Target, body: z.infer<typeof SearchBody> | undefined) {
    const max = target === 'records' ? ctx.config.recordsPageSizeMax : ctx.config.pageSizeMax;
    const paging = parsePaging(request, max, ctx.config.pageSizeDefault);
    const searchRequest = searchRequestOf(target, body, body?.sort ?? requestParam(request, 'sort'));
    const result = await runSearch(ctx, searchRequest, { offset: paging.offset, limit: paging.limit, cursor: body?.cursor ?? undefined });
    const rc = renderContext(ctx, request);
    const items =
      target === 'records'
        ? await Promise.all((await load.records(ctx.store, result.ids)).map((r) => render(recordType, r, rc)))
        : await Promise.all((await load.classifications(ctx.store, result.ids)).map((c) => render(classificationType, c, rc)));
    const page = { ...paging, offset: result.offset, page: Math.floor(result.offset / paging.limit) + 1 };
    return pagedCollection(rc, items, page, result.totalCount, { nextCursor: result.nextCursor });
  }

  route(app, ctx, {
    method: 'POST',
    url: '/api/core/search/records',
    summary: 'Search records with a search expression object (cursor paging; page size at most 100)',
    tag: 'Search',
    query: SearchQuery,
    body: SearchBody,
    bodyOptional: true,
    responses: { 200: { description: 'A page of records with totalCount and nextCursor', schema: paged(RecordSchema) } },
    handler: ({ request, body }) => search(request, 'records', body),
  });
  route(app, ctx, {
    method: 'POST',
    url: '/api/core/search/classifications',
    summary: 'Search classifications with a search expression object',
    tag: 'Search',
    query: SearchQuery,
    body: SearchBody,
    bodyOptional: true,
    responses: { 200: { description: 'A page of classifications', schema: paged(ClassificationSchema) } },
    handler: ({ request, body }) => search(request, 'classifications', body),
  });
}
