// Advanced search: POST /search/records (cursor, page size at most 100) and POST /search/classifications.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { SearchRequest, SubExpression } from '../../core/search';
import type { EmulatorContext } from '../context';
import { errors } from '../errors';
import { classificationType, load, recordType } from '../domain/model';
import { pagedCollection, parsePaging, render, renderContext, requestParam } from '../hal';
import { route } from '../routeTable';
import { ClassificationSchema, RecordSchema, paged } from '../schemas';
import type { Target } from '../search/compile';
import { runSearch } from '../search/run';

const Scalar = z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]);

const expressionOptions = {
  // A transport bound only: the parser's own limit (core LIMITS, DQ2010) answers an expression that is too long.
  expression: z.string().max(1_000_000).nullish(),
  parameters: z.array(Scalar).max(1000).nullish(),
  namedParameters: z.record(z.string().max(200), Scalar).nullish(),
  supportWildcards: z.union([z.boolean(), z.string().regex(/^(true|false)$/i, 'supportWildcards must be true or false')]).nullish(),
  defaultLogicalOperator: z
    .string()
    .regex(/^(and|or)$/i, 'defaultLogicalOperator must be AND or OR')
    .nullish(),
};

interface WireExpression {
  expression?: string | null;
  parameters?: z.infer<typeof Scalar>[] | null;
  namedParameters?: Record<string, z.infer<typeof Scalar>> | null;
  supportWildcards?: boolean | string | null;
  defaultLogicalOperator?: string | null;
  subExpressions?: (WireExpression | string)[] | null;
}

/** A search expression object; `subExpressions` holds more of them (or plain expression strings), nested at will. */
const ExpressionObject: z.ZodType<WireExpression> = z.lazy(() =>
  z
    .object({ ...expressionOptions, subExpressions: z.array(z.union([z.string().max(1_000_000), ExpressionObject])).max(100).nullish() })
    .loose(),
);

const Facet = z
  .object({
    name: z.string().min(1).max(200),
    type: z
      .string()
      .regex(/^(createdby|contenttype|textfield)$/i, 'A facet type is createdBy, contentType or textField')
      .transform((t) => (({ createdby: 'createdBy', contenttype: 'contentType', textfield: 'textField' }) as const)[t.toLowerCase() as 'createdby']),
    fieldId: z.string().max(100).nullish(),
    maximumFacetValues: z.number().int().min(0).max(100_000).nullish(),
    caseSensitive: z.boolean().nullish(),
  })
  .loose();

/** The spec's search expression object, read as the service reads it (booleans also as strings, AND/OR in any case). */
export const SearchBody = z
  .object({
    searchExpression: ExpressionObject.nullish(),
    cursor: z.string().max(1000).nullish(),
    sort: z.string().max(1_000_000).nullish(),
    facets: z.array(Facet).max(50).nullish(),
    // Asks the service to log the search on its side; nothing to do here ("true" as a string is read as true).
    logRequest: z.boolean().nullish(),
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

/** The core's expression options from a wire expression object: only what was sent, so the core applies the defaults. */
function subExpressionOf(se: WireExpression | string): SubExpression {
  if (typeof se === 'string') return { expression: se };
  const out: SubExpression = { expression: se.expression ?? '' };
  if (se.parameters) out.parameters = se.parameters;
  if (se.namedParameters) out.namedParameters = se.namedParameters;
  if (se.supportWildcards !== undefined && se.supportWildcards !== null) out.supportWildcards = String(se.supportWildcards).toLowerCase() === 'true';
  if (se.defaultLogicalOperator) out.defaultLogicalOperator = se.defaultLogicalOperator.toUpperCase() as 'AND' | 'OR';
  if (se.subExpressions?.length) out.subExpressions = se.subExpressions.map(subExpressionOf);
  return out;
}

/** The service's own words for an expression object that says nothing (the whole tenant is not its answer). */
function requireExpression(se: WireExpression | string): void {
  if (typeof se === 'string') return;
  if (!se.expression?.trim() && !se.subExpressions?.length) throw errors.invalidSearchExpression('A searchExpression must contain either an expression or subExpressions.');
  se.subExpressions?.forEach(requireExpression);
}

/** The core's request from the wire body. */
function searchRequestOf(target: Target, body: z.infer<typeof SearchBody> | undefined, sort: string | undefined): SearchRequest {
  const se = body?.searchExpression;
  if (se) requireExpression(se);
  const request: SearchRequest = { target, ...subExpressionOf(se ?? {}) };
  if (sort) request.sort = sort;
  return request;
}

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  async function search(request: FastifyRequest, target: Target, body: z.infer<typeof SearchBody> | undefined) {
    const max = target === 'records' ? ctx.config.recordsPageSizeMax : ctx.config.pageSizeMax;
    const paging = parsePaging(request, max, ctx.config.pageSizeDefault);
    const searchRequest = searchRequestOf(target, body, body?.sort ?? requestParam(request, 'sort'));
    const facets = (body?.facets ?? []).map((f) => ({ ...f, fieldId: f.fieldId ?? undefined, maximumFacetValues: f.maximumFacetValues ?? undefined, caseSensitive: f.caseSensitive ?? undefined }));
    const result = await runSearch(ctx, searchRequest, { offset: paging.offset, limit: paging.limit, cursor: body?.cursor ?? undefined }, facets);
    const rc = renderContext(ctx, request);
    const items =
      target === 'records'
        ? await Promise.all((await load.records(ctx.store, result.ids)).map((r) => render(recordType, r, rc)))
        : await Promise.all((await load.classifications(ctx.store, result.ids)).map((c) => render(classificationType, c, rc)));
    const page = { ...paging, offset: result.offset, page: Math.floor(result.offset / paging.limit) + 1 };
    return pagedCollection(rc, items, page, result.totalCount, { nextCursor: result.nextCursor, ...(result.facets ?? {}) });
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
