// Sends a probe's requests on a connection (`dam tenant probe`, DAM: Compare the Emulator with This Tenant…): GETs
// only, one at a time through the connection's pacer, so a probe adds at most one request to the tenant's shared rate.
// Keeps the shape of each answer (core/probe), never its values.
import {
  IdBook,
  type FilledRequest,
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
import { catalogue, readRoutes, type Api } from '../core/catalogue';
import { CONTENT_API_IDS } from '../core/contract';
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

/**
 * The emulator contract's fixed ids ("Fixed ids in every seed"), tried after every id an answer gave, and only when the
 * connection is the emulator: a probe never makes up an id for a tenant.
 */
const EMULATOR_IDS: Readonly<Record<string, readonly string[]>> = {
  task: ['5001', '5002'],
  project: ['101'],
  user: [CONTENT_API_IDS.users.admin],
  usergroup: [CONTENT_API_IDS.groups.Marketing],
  resource: ['mo-replacement-strings-1'],
};

const APIS: readonly Api[] = ['core', 'upload', 'ops', 'analytics', 'auth'];

/** Where a link points: the API whose base it starts with (the longest base wins) and the path under it. */
function locator(client: DamClient): (href: string) => { api: Api; path: string } | undefined {
  const bases = APIS.map((api) => ({ api, base: client.http.urlFor({ endpoint: api, path: '' }).replace(/\/+$/, '').toLowerCase() })).sort((a, b) => b.base.length - a.base.length);
  return (href) => {
    const lower = href.toLowerCase();
    const at = bases.find((b) => lower.startsWith(`${b.base}/`));
    return at ? { api: at.api, path: href.slice(at.base.length) } : undefined;
  };
}

/** Probes the service `client` is connected to. With the default routes, also the collections its root links. */
export async function runProbe(client: DamClient, options: ProbeOptions = {}): Promise<Probe> {
  const discover = options.routes === undefined;
  const pending = sendingOrder(options.routes ?? defaultProbeRoutes());
  const ids = new IdBook({ routes: pending, catalogue, locate: locator(client), ...(client.profile.kind === 'emulator' ? { wellKnown: EMULATOR_IDS } : {}) });
  const routes: Record<string, RouteShape> = {};
  let done = 0;
  while (pending.length) {
    const route = pending.shift()!;
    const key = routeKey(route);
    const filled = ids.fill(route);
    if ('missing' in filled) routes[key] = { ...route, skipped: filled.missing };
    else {
      let answer: { status: number; body?: unknown } = { status: 0 };
      // Another item when one has nothing there (a record without a master file, a root's parent): at most MAX_TRIES.
      for (const request of filled.requests) {
        answer = await send(client, route, request, options.signal);
        if (answer.status !== 404) break;
      }
      const { status, body } = answer;
      routes[key] = { ...route, status, ...(body !== undefined ? { members: toMembers(shapeOf(body)) } : {}) };
      if (body !== undefined && status < 300) ids.note(route, body);
      if (discover && route.api === 'core' && route.path === '/' && !route.select && body !== undefined) {
        // Before the routes with parameters, so their ids can come from these collections too.
        pending.unshift(...discoveredRoutes(body, client.http.urlFor({ endpoint: 'core', path: '' }), [...Object.values(routes), ...pending]));
      }
    }
    options.onProgress?.(++done, done + pending.length, key);
  }
  return { format: PROBE_FORMAT, routes };
}

async function send(client: DamClient, route: ProbeRoute, request: FilledRequest, signal: AbortSignal | undefined): Promise<{ status: number; body?: unknown }> {
  try {
    const res = await client.http.request<unknown>({
      endpoint: route.api,
      method: route.method ?? 'GET',
      path: request.path,
      query: { ...(route.collection ? { page: 1, pageSize: SAMPLE } : {}), ...request.query },
      ...(route.method === 'POST' ? { json: request.body ?? {}, idempotent: true } : {}),
      headers: { ...(route.select ? { [route.select.header]: route.select.value } : {}), languages: '*' },
      accept: 'application/hal+json, application/json',
      responseType: 'text',
      signal,
    });
    return { status: res.status, body: parseJson(res.data) };
  } catch (err) {    // A refusal is a finding of the probe (the route is not served, or not to this client), not a failure of it. By
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
