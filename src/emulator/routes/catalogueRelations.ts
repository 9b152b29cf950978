// The address of every catalogued relation the emulator keeps no data for (hal.ts links them from the catalogue):
// following one answers what the service answers for a relation without data, an empty collection for a list and a
// 404 with the error object for one resource (spec, Errors 3). Registered last: a relation with data has its own route.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { catalogue } from '../../core/catalogue';
import type { EmulatorContext } from '../context';
import { pagedCollection, parsePaging, renderContext } from '../hal';
import { Segment, route } from '../routeTable';
import { paged, resource } from '../schemas';

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  for (const entry of Object.values(catalogue.resources)) {
    for (const relation of entry.relations) {
      const url = `/api/core/${entry.name}/:id/${relation.rel}`;
      if (app.hasRoute({ method: 'GET', url })) continue;
      route(app, ctx, {
        method: 'GET',
        url,
        summary: `The ${relation.rel} of a ${entry.name} (the emulator keeps none)`,
        tag: 'Relations without data',
        params: z.object({ id: Segment }),
        responses: relation.collection ? { 200: { description: 'An empty page', schema: paged(resource({})) } } : {},
        handler: async ({ params, request }) => {
          if (!relation.collection) throw ctx.errors.noDataMatches(`The ${relation.rel} of ${entry.name} '${params.id}' does not exist.`);
          const rc = renderContext(ctx, request);
          return pagedCollection(rc, [], parsePaging(request, ctx.config.pageSizeMax, ctx.config.pageSizeDefault), 0);
        },
      });
    }
  }
}
