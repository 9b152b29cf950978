// String resources ({ops_url}/api/resources): static product strings and dynamic tenant strings by id.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { EmulatorContext } from '../context';
import { staticStrings, stringsById } from '../domain/tasks/repository';
import { collection, parseWindow } from '../domain/tasks/render';

const QueryBody = z.looseObject({ query: z.string() });
const MAX_IDS = 1000;

export async function register(app: FastifyInstance, ctx: EmulatorContext): Promise<void> {
  const { store, errors } = ctx;
  const href = (origin: string, id: string) => `${origin}/api/resources/${encodeURIComponent(id)}`;

  app.get('/api/resources/static', async (request) => {
    ctx.auth.caller(request);
    const all = await staticStrings(store);
    // "All static strings": unpaged unless the caller pages with limit/offset.
    const window = parseWindow(request, 10_000, 10_000);
    const origin = ctx.origin(request);
    const items = all.slice(window.offset, window.offset + window.limit).map((r) => ({ ...r, _links: { self: { href: href(origin, r.id) } } }));
    return collection('StringResource', items, all.length, window, request, origin);
  });

  app.get('/api/resources/:resourceId', async (request) => {
    ctx.auth.caller(request);
    const { resourceId } = z.object({ resourceId: z.string() }).parse(request.params);
    const value = (await stringsById(store, [resourceId])).get(resourceId);
    if (value === undefined) throw errors.noDataFound('string resource', resourceId.slice(0, 100));
    return { id: resourceId, value, _links: { self: { href: href(ctx.origin(request), resourceId) } } };
  });

  app.post('/api/resources/query', async (request) => {
    ctx.auth.caller(request);
    const type = String(request.headers['content-type'] ?? '');
    // The spec insists on JSON here; fastify would otherwise accept text/plain bodies as strings.
    if (!/^application\/json\b/i.test(type)) throw errors.unsupportedMediaType(type || '(none)');
    const parsed = QueryBody.safeParse(request.body);
    if (!parsed.success) throw errors.badRequest("The body must be { \"query\": \"<comma-separated resource ids>\" }.");
    const ids = [...new Set(parsed.data.query.split(',').map((s) => s.trim()).filter(Boolean))];
    if (ids.length > MAX_IDS) throw errors.badRequest(`At most ${MAX_IDS} resource ids per query.`);
    const found = await stringsById(store, ids);
    // Static and dynamic ids mix freely; unknown ids are left out, in request order otherwise.
    return { resources: ids.filter((id) => found.has(id)).map((id) => ({ id, value: found.get(id)! })) };
  });
}
