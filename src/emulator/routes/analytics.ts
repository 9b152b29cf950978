// GET {analytics_url}/analytics/?query=…: Cube-style queries over view and download events, answered as `{ data: [...] }` with string values.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { checkAnalyticsQuery, MAX_LIMIT } from '../../core/analytics';
import { AnswerCache } from '../analytics/cache';
import { compileAnalyticsQuery } from '../analytics/compile';
import { analyticsErrors } from '../analytics/errors';
import type { EmulatorContext } from '../context';
import { route } from '../routeTable';
import { AnalyticsAnswerSchema } from '../schemas';

const querystring = z.object({ query: z.union([z.string(), z.array(z.string())]).optional().describe('The query object as one-line JSON') }).loose();

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  const cache = new AnswerCache({ ttlMs: 30_000, maxEntries: 8, maxRows: 200_000, pagesAhead: 5, now: () => ctx.clock.now().getTime() });
  ctx.state.onReplaced(() => cache.clear());
  route(app, ctx, {
    method: 'GET',
    url: '/analytics/',
    summary: 'Analytics query (Cube rules): measures, dimensions, filters, timeDimensions, order, limit ≤ 10000, offset',
    tag: 'Analytics',
    query: querystring,
    responses: { 200: { description: 'The rows; every value is a string', schema: AnalyticsAnswerSchema } },
    handler: async ({ query, reply }) => {
      const raw = query.query;
      const text = Array.isArray(raw) ? raw[0] : raw;
      if (text === undefined || text.trim() === '') throw analyticsErrors.missingQuery();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (err) {
        throw analyticsErrors.queryNotJson((err as Error).message);
      }
      const checked = checkAnalyticsQuery(parsed);
      if (!checked.ok) throw analyticsErrors.invalidQuery(checked.problems.filter((p) => p.severity === 'error').map((p) => p.message));
      const q = checked.query;
      const now = ctx.clock.now();
      const limit = Math.min(q.limit ?? MAX_LIMIT, MAX_LIMIT);
      const offset = q.offset ?? 0;
      const compiled = compileAnalyticsQuery(q, now);
      let rows: Record<string, string | null>[] | undefined;
      if (q.order.length > 0 && (q.limit !== undefined || q.offset !== undefined)) {
        // An ordered query with a window is a page: read a few pages ahead once and slice the next pages from that.
        const key = JSON.stringify(compileAnalyticsQuery(q, now, { head: 0 }));
        rows = await cache.page(ctx.store, key, offset, limit, (n) => {
          const head = compileAnalyticsQuery(q, now, { head: n });
          return ctx.store.query<Record<string, string | null>>(head.sql, head.params);
        });
      }
      rows ??= await ctx.store.query<Record<string, string | null>>(compiled.sql, compiled.params);
      const data = rows.map((row) => {
        const out: Record<string, string | null> = {};
        compiled.keys.forEach((keys, i) => {
          for (const key of keys) out[key] = row[`c${i}`] ?? null;
        });
        return out;
      });
      // Plain JSON: the analytics host does not speak HAL.
      reply.type('application/json; charset=utf-8');
      return { data };
    },
  });
}
