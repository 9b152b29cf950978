// Sends a probe's requests on a connection (`dam tenant probe`, DAM: Compare the Emulator with This Tenant…): GETs
// only, one at a time through the connection's pacer, so a probe adds at most one request to the tenant's shared rate.
// Keeps the shape of each answer (core/probe), never its values.
import {
  IdBook,
  PROBE_FORMAT,
  catalogueRoutes,
  discoveredRoutes,
  routeKey,
  sendingOrder,
  shapeOf,
  toMembers,
  type Probe,
  type ProbeRoute,
  type RouteShape,
} from '../core/probe';
import { catalogue, readRoutes } from '../core/catalogue';
import type { DamClient } from './client';
import type { ApiError } from './errors';

/** Items per collection page: enough samples to see a member that only some items have, few enough to stay light. */
const SAMPLE = 5;

export interface ProbeOptions {
  /** The routes to send; default: the catalogue's read routes, plus what the discovery document links. */
  routes?: readonly ProbeRoute[];
  signal?: AbortSignal;
  /** After each route: how many are done, of how many, and the route's name. */
  onProgress?: (done: number, total: number, route: string) => void;
}

/** The catalogue's read routes as the probe sends them. */
export function defaultProbeRoutes(): ProbeRoute[] {
  return catalogueRoutes(readRoutes(), catalogue);
}

/** Probes the service `client` is connected to. With the default routes, also the collections its root links. */
export async function runProbe(client: DamClient, options: ProbeOptions = {}): Promise<Probe> {
  const discover = options.routes === undefined;
  const pending = sendingOrder(options.routes ?? defaultProbeRoutes());
  const ids = new IdBook();
  const routes: Record<string, RouteShape> = {};
  let done = 0;
  while (pending.length) {
    const route = pending.shift()!;
    const key = routeKey(route);
    const filled = ids.fill(route);
    if ('missing' in filled) routes[key] = { ...route, skipped: `no answer gave an id for {${filled.missing}}` };
    else {
      const { status, body } = await send(client, route, filled.path, options.signal);
      routes[key] = { ...route, status, ...(body !== undefined ? { members: toMembers(shapeOf(body)) } : {}) };
      if (body !== undefined) ids.note(route, body);
      if (discover && route.api === 'core' && route.path === '/' && !route.select && body !== undefined) {
        // Before the routes with parameters, so their ids can come from these collections too.
        pending.unshift(...discoveredRoutes(body, client.http.urlFor({ endpoint: 'core', path: '' }), [...Object.values(routes), ...pending]));
      }
    }
    options.onProgress?.(++done, done + pending.length, key);
  }
  return { format: PROBE_FORMAT, routes };
}

async function send(client: DamClient, route: ProbeRoute, path: string, signal: AbortSignal | undefined): Promise<{ status: number; body?: unknown }> {
  try {
    const res = await client.http.request<unknown>({
      endpoint: route.api,
      path,
      query: route.collection ? { page: 1, pageSize: SAMPLE } : undefined,
      headers: { ...(route.select ? { [route.select.header]: route.select.value } : {}), languages: '*' },
      accept: 'application/hal+json, application/json',
      responseType: 'text',
      signal,
    });
    return { status: res.status, body: parseJson(res.data) };
  } catch (err) {
    // A refusal is a finding of the probe (the route is not served, or not to this client), not a failure of it. By
    // name, not instanceof: the extension's lazily loaded modules each bundle their own copy of the error classes.
    const status = err instanceof Error && err.name === 'ApiError' ? (err as ApiError).status : undefined;
    if (status !== undefined && status !== 401) return { status };
    throw err;
  }
}

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
