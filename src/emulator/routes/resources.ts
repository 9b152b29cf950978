// String resources ({ops_url}/api/resources): static product strings and dynamic tenant strings by id.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { EmulatorContext } from '../context';
import { route } from '../routeTable';
import { StringResourceSchema, opsCollection } from '../schemas';
import { staticStrings, stringsById } from '../domain/tasks/repository';
import { collection, parseWindow } from '../domain/tasks/render';

const QueryBody = z.looseObject({ query: z.string() });
const MAX_IDS = 1000;

export async function register(app: FastifyInstance, ctx: EmulatorContext): Promise<void> {
  const { store, errors } = ctx;
  const tag = 'String resources';
  const href = (origin: string, id: string) => `${origin}/api/resources/${encodeURIComponent(id)}`;

  route(app, ctx, {
    method: 'GET',
    url: '/api/resources/static',
    summary: "All static string resources (cache them: they change rarely)",
    tag,
    query: z.object({ limit: z.string().max(12).optional(), offset: z.string().max(12).optional() }).loose(),
    responses: { 200: { description: 'The strings', schema: opsCollection('StringResource', StringResourceSchema) } },
    handler: async ({ request }) => {
      ctx.auth.caller(request);
      const all = await staticStrings(store);
      // "All static strings": unpaged unless the caller pages with limit/offset.
      const window = parseWindow(request, 10_000, 10_000);
      const origin = ctx.origin(request);
      const items = all.slice(window.offset, window.offset + window.limit).map((r) => ({ ...r, _links: { self: { href: href(origin, r.id) } } }));
      return collection('StringResource', items, all.length, window, request, origin);
    },
  });

  route(app, ctx, {
    method: 'GET',
    url: '/api/resources/:resourceId',
    summary: "One string resource (mo-replacement-strings-<n> or mo-encoded-titles-<n>)",
    tag,
    params: z.object({ resourceId: z.string().max(200) }),
    responses: { 200: { description: 'The string', schema: StringResourceSchema } },
    handler: async ({ request }) => {
      ctx.auth.caller(request);
      const { resourceId } = z.object({ resourceId: z.string() }).parse(request.params);
      const value = (await stringsById(store, [resourceId])).get(resourceId);
      if (value === undefined) throw errors.noDataFound('string resource', resourceId.slice(0, 100));
      return { id: resourceId, value, _links: { self: { href: href(ctx.origin(request), resourceId) } } };
    },
  });

  route(app, ctx, {
    method: 'POST',
    url: '/api/resources/query',
    summary: "Resolve string resource ids to text ({ query: 'id1,id2' }; static and dynamic ids mixed)",
    tag,
    body: QueryBody,
    responses: { 200: { description: 'The known ones, in request order', schema: z.object({ resources: z.array(StringResourceSchema) }) } },
    handler: async ({ request, body }) => {
      ctx.auth.caller(request);
      const ids = [...new Set(body.query.split(',').map((s) => s.trim()).filter(Boolean))];
      if (ids.length > MAX_IDS) throw errors.badRequest(`At most ${MAX_IDS} resource ids per query.`);
      const found = await stringsById(store, ids);
      // Static and dynamic ids mix freely; unknown ids are left out, in request order otherwise.
      return { resources: ids.filter((id) => found.has(id)).map((id) => ({ id, value: found.get(id)! })) };
    },
  });
}
