// Advanced search: POST /search/records (cursor, clamp 100) and POST /search/classifications.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { EmulatorContext } from '../context';
import { classificationType, load, recordType } from '../domain/model';
import { pagedCollection, parsePaging, render, renderContext, requestParam } from '../hal';
import { runSearch } from '../search/run';
import type { SearchRequest } from '../../core/search';
import type { Target } from '../search/compile';
import { docSchema, parseBody } from '../validate';

const Scalar = z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]);

export const SearchBody = z
  .object({
    searchExpression: z
      .object({
        expression: z.string().max(20_000).nullish(),
        parameters: z.array(Scalar).max(1000).nullish(),
        namedParameters: z.record(z.string().max(200), Scalar).nullish(),
        supportWildcards: z.union([z.boolean(), z.enum(['true', 'false', 'True', 'False'])]).nullish(),
        defaultLogicalOperator: z
          .string()
          .regex(/^(and|or)$/i, 'defaultLogicalOperator must be AND or OR')
          .nullish(),
      })
      .loose()
      .nullish(),
    cursor: z.string().max(1000).nullish(),
    sort: z.string().max(2000).nullish(),
  })
  .loose();

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  const base = '/api/core';

  async function search(request: FastifyRequest, target: Target) {
    const body = parseBody(SearchBody, request.body ?? {});
    const se = body.searchExpression ?? {};
    const max = target === 'records' ? ctx.config.recordsPageSizeMax : ctx.config.pageSizeMax;
    const paging = parsePaging(request, max, ctx.config.pageSizeDefault);
    const request_: SearchRequest = { target, expression: se.expression ?? '' };
    if (se.parameters) request_.parameters = se.parameters;
    if (se.namedParameters) request_.namedParameters = se.namedParameters;
    if (se.supportWildcards !== undefined && se.supportWildcards !== null) request_.supportWildcards = String(se.supportWildcards).toLowerCase() === 'true';
    if (se.defaultLogicalOperator) request_.defaultLogicalOperator = se.defaultLogicalOperator.toUpperCase() as 'AND' | 'OR';
    const sort = body.sort ?? requestParam(request, 'sort');
    if (sort) request_.sort = sort;
    const result = await runSearch(ctx, request_, { offset: paging.offset, limit: paging.limit, cursor: body.cursor ?? undefined });
    const rc = renderContext(ctx, request);
    const items =
      target === 'records'
        ? await Promise.all((await load.records(ctx.store, result.ids)).map((r) => render(recordType, r, rc)))
        : await Promise.all((await load.classifications(ctx.store, result.ids)).map((c) => render(classificationType, c, rc)));
    const page = { ...paging, offset: result.offset, page: Math.floor(result.offset / paging.limit) + 1 };
    return pagedCollection(rc, items, page, result.totalCount, { nextCursor: result.nextCursor });
  }

  app.post(`${base}/search/records`, { schema: { summary: 'Search records' }, config: { bodySchema: docSchema(SearchBody) } }, (request) => search(request, 'records'));
  app.post(`${base}/search/classifications`, { schema: { summary: 'Search classifications' }, config: { bodySchema: docSchema(SearchBody) } }, (request) =>
    search(request, 'classifications'),
  );
}
