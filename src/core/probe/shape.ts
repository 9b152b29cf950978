// The shape of an answer: which members it has and their JSON types, never their values. A probe of a tenant is made
// of these, so it can be shared (attached to an issue) without sharing the tenant's data.
import { z } from 'zod';
import type { Api } from '../catalogue';

/** JSON types as a client's typed model reads them; `guid` and `date-time` are strings with a format, `link` a `_links` entry. */
export type ShapeType = 'string' | 'guid' | 'date-time' | 'number' | 'boolean' | 'null' | 'object' | 'array' | 'link';

/**
 * Member paths to their types (a sorted `|`-joined union over every sample). Paths: `a.b` for an object's member,
 * `a[]` for an array's elements (`a[].b` their members), `_links.rel` for a link relation (its href is not read).
 */
export type Members = Record<string, string>;

/** Keys that are data rather than member names (ids, numbers) are written as this, so no id leaves the tenant. */
export const DATA_KEY = '{key}';
/** Deeper members than this are left out: no answer of the service nests that far, and a bound keeps files small. */
const MAX_DEPTH = 8;
/** At most this many member paths per answer (a map keyed by data could otherwise grow without end). */
const MAX_MEMBERS = 2000;

const GUID = /^(\{)?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}(\})?$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

export function typeOf(value: unknown): ShapeType {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return GUID.test(value) ? 'guid' : DATE_TIME.test(value) ? 'date-time' : 'string';
    case 'number':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'object';
  }
}

/** A key that names data (an id, a number, a date) rather than a member. */
function memberKey(key: string): string {
  return GUID.test(key) || /^\d+$/.test(key) || DATE_TIME.test(key) || key.length > 80 ? DATA_KEY : key;
}

const join = (parent: string, key: string) => (parent ? `${parent}.${key}` : key);

/** The members of one JSON answer (or of many samples, merged: pass the same `into`). */
export function shapeOf(value: unknown, into: Map<string, Set<ShapeType>> = new Map()): Map<string, Set<ShapeType>> {
  const add = (path: string, type: ShapeType) => {
    let types = into.get(path);
    if (!types) {
      if (into.size >= MAX_MEMBERS) return false;
      into.set(path, (types = new Set()));
    }
    types.add(type);
    return true;
  };
  const walk = (v: unknown, at: string, depth: number) => {
    if (depth > MAX_DEPTH) return;
    if (Array.isArray(v)) {
      for (const element of v) {
        const type = typeOf(element);
        if (add(`${at}[]`, type) && (type === 'object' || type === 'array')) walk(element, `${at}[]`, depth + 1);
      }
      return;
    }
    if (typeOf(v) !== 'object') return;
    for (const [rawKey, member] of Object.entries(v as Record<string, unknown>)) {
      const key = memberKey(rawKey);
      const path = join(at, key);
      if (rawKey === '_links' && typeOf(member) === 'object') {
        add(path, 'object');
        for (const rel of Object.keys(member as object)) add(join(path, memberKey(rel)), 'link');
        continue;
      }
      const type = typeOf(member);
      if (add(path, type) && (type === 'object' || type === 'array')) walk(member, path, depth + 1);
    }
  };
  walk(value, '', 0);
  return into;
}

/** The map as stable, sorted JSON-ready data. */
export function toMembers(shape: Map<string, Set<ShapeType>>): Members {
  const out: Members = {};
  for (const path of [...shape.keys()].sort()) out[path] = [...shape.get(path)!].sort().join('|');
  return out;
}

/** One route as the probe sends it: the catalogue's path, with parameters it fills from ids found in earlier answers. */
export const ProbeRouteSchema = z.object({
  api: z.enum(['core', 'upload', 'ops', 'analytics', 'auth']),
  /** GET when absent; POST only for a route the catalogue marks read-only (a search). */
  method: z.enum(['GET', 'POST']).optional(),
  path: z.string().min(1).max(500),
  /** The query as the catalogue gives it: literals, and `{name}` / `{name.member}` filled from earlier answers. */
  query: z.record(z.string().max(100), z.string().max(500)).optional(),
  /** A read-only POST's body, from the catalogue (no value of the tenant). */
  body: z.unknown().optional(),
  resource: z.string().max(100).optional(),
  collection: z.boolean().optional(),
  /** `select-<resource>` header and value, to see which relations embed. */
  select: z.object({ header: z.string().max(100), value: z.string().max(1000) }).optional(),
  /**
   * Where the route came from: the catalogue, a resource's sample (the catalogue's way to a representative item, whose
   * ids are tried first), or a link of the service's discovery document.
   */
  from: z.enum(['catalogue', 'sample', 'discovery']),
});
export type ProbeRoute = z.infer<typeof ProbeRouteSchema>;

export const RouteShapeSchema = ProbeRouteSchema.extend({
  /** The answer's status; absent when the route was not sent (`skipped` says why). */
  status: z.number().int().optional(),
  members: z.record(z.string(), z.string()).optional(),
  skipped: z.string().max(500).optional(),
});
export type RouteShape = z.infer<typeof RouteShapeSchema>;

export const PROBE_FORMAT = 'dam-probe/1';
export const PROBE_FILE = 'probe.json';

export const ProbeSchema = z.object({
  format: z.literal(PROBE_FORMAT),
  /** Keyed by `routeKey`, sorted. */
  routes: z.record(z.string(), RouteShapeSchema),
});
export type Probe = z.infer<typeof ProbeSchema>;

const API_PREFIX: Record<Api, string> = { core: '/api/core', upload: '', ops: '', analytics: '', auth: '' };

/**
 * How a route is named in files and words: `GET /api/core/languages`, with its query template and select header when it
 * has them (`GET /api/core/classification?namePath={classification.namePath}`).
 */
export function routeKey(route: Pick<ProbeRoute, 'api' | 'path' | 'select' | 'method' | 'query'>): string {
  const query = Object.entries(route.query ?? {}).map(([k, v]) => `${k}=${v}`).join('&');
  const path = `${API_PREFIX[route.api]}${route.path}${query ? `?${query}` : ''}`;
  return `${route.method ?? 'GET'} ${path}${route.select ? ` (${route.select.header}: ${route.select.value})` : ''}`;
}

/** The probe as a file's text: sorted keys, two-space indent, a final newline, so two probes diff line by line. */
export function probeText(probe: Probe): string {
  const routes: Probe['routes'] = {};
  for (const key of Object.keys(probe.routes).sort()) routes[key] = sortKeys(probe.routes[key]) as RouteShape;
  return `${JSON.stringify({ format: probe.format, routes }, null, 2)}\n`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]));
}

/** Reads a probe file's text; `problem` says in words why it is not one. */
export function parseProbe(text: string): { probe?: Probe; problem?: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { problem: `not JSON (${(err as Error).message})` };
  }
  const parsed = ProbeSchema.safeParse(json);
  if (!parsed.success) {
    const format = (json as { format?: unknown } | null)?.format;
    if (format !== PROBE_FORMAT) return { problem: `not a probe written by \`dam tenant probe\` (format is ${JSON.stringify(format ?? null)}, expected "${PROBE_FORMAT}")` };
    const issue = parsed.error.issues[0];
    return { problem: `${issue.path.join('.') || 'the file'}: ${issue.message}` };
  }
  return { probe: parsed.data };
}

/** The routes a probe sent (or skipped), as the same requests to send to another connection. */
export function probeRoutes(probe: Probe): ProbeRoute[] {
  return Object.values(probe.routes).map(({ status: _status, members: _members, skipped: _skipped, ...route }) => route);
}
