// The catalogue's data, assembled from one file per part (routes, resources, analytics). Grows by lines, each with its
// sources; the emulator, the probe and the generated conformance test read it through the facade.
import { analytics } from './analytics';
import type { Catalogue, RouteEntry } from './model';
import { resources } from './resources';
import { routes } from './routes';

export const catalogue: Catalogue = { routes, resources, analytics };

/** The routes a read-only probe may send: GETs, and the POSTs marked read-only (searches). */
export function readRoutes(): RouteEntry[] {
  return catalogue.routes.filter((r) => r.method === 'GET' || (r.method === 'POST' && r.readOnly));
}
