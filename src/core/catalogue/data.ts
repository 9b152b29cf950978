// The catalogue's data. Grows by lines, each with its sources; the emulator, the probe and the generated
// conformance test read it through the facade.
import type { Catalogue, RouteEntry } from './model';

const spec = (ref: string) => ({ kind: 'spec', ref }) as const;

export const catalogue: Catalogue = {
  routes: [
    { api: 'core', method: 'GET', path: '/', sources: [spec('Endpoints, Discovery')] },
    { api: 'core', method: 'GET', path: '/languages', resource: 'language', collection: true, sources: [{ kind: 'notes', ref: 'Records and files' }] },
  ],
  resources: {
    language: {
      name: 'language',
      members: [{ name: 'id', type: 'guid', sources: [{ kind: 'notes', ref: 'Records and files' }] }],
      relations: [],
      sources: [spec('What the service does, 1')],
    },
  },
  analytics: [],
};

/** The routes a read-only probe may send: GETs whose path has no parameter, or whose parameters it can fill. */
export function readRoutes(): RouteEntry[] {
  return catalogue.routes.filter((r) => r.method === 'GET');
}
