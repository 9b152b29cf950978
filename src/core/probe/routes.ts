// Which requests a probe sends: the catalogue's read routes (with a `select-*` variant where the resource has
// relations), the POSTs it marks read-only, each resource's sample (the catalogue's way to a representative item), the
// collections the service's discovery document links; and each route's parameters filled from what earlier answers
// carried. Ids stay in memory: the probe file names only the route templates.
import type { Catalogue, RouteEntry } from '../catalogue';
import { routeKey, type ProbeRoute } from './shape';

/**
 * The probe's routes from the catalogue's read routes (GETs, and POSTs marked read-only): each as is, once with every
 * relation selected, and each resource's sample when it narrows a list (`records?filter=FileCount > 0`).
 */
export function catalogueRoutes(routes: readonly RouteEntry[], catalogue: Pick<Catalogue, 'resources'>): ProbeRoute[] {
  const out: ProbeRoute[] = [];
  for (const r of routes) {
    if (r.method !== 'GET' && !(r.method === 'POST' && r.readOnly)) continue;
    const route: ProbeRoute = {
      api: r.api,
      ...(r.method === 'POST' ? { method: 'POST' as const, body: r.readOnly?.body } : {}),
      path: r.path,
      ...(r.query ? { query: { ...r.query } } : {}),
      from: 'catalogue',
      ...(r.resource ? { resource: r.resource } : {}),
      ...(r.collection ? { collection: true } : {}),
    };
    out.push(route);
    const resource = r.resource && r.method === 'GET' ? catalogue.resources[r.resource] : undefined;
    const keys = [...new Set(resource?.relations.map((rel) => rel.selectKey ?? rel.rel) ?? [])].sort();
    if (resource && keys.length) out.push({ ...route, select: { header: `select-${resource.name}`, value: keys.join(',') } });
  }
  for (const [key, resource] of Object.entries(catalogue.resources)) {
    const sample = resource.sample && /^([^?{}]+)\?(.+)$/.exec(resource.sample);
    if (!sample) continue;
    const query = Object.fromEntries(new URLSearchParams(sample[2]));
    out.push({ api: 'core', path: `/${sample[1]}`, query, resource: key, collection: true, from: 'sample' });
  }
  return uniqueRoutes(out);
}

function uniqueRoutes(routes: ProbeRoute[]): ProbeRoute[] {
  const seen = new Set<string>();
  return routes.filter((r) => {
    const key = routeKey(r).toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Links of the discovery document that are neither the document itself nor documentation. */
const NOT_PROBED = new Set(['self', 'docs', 'curies']);

/**
 * The content-API collections the discovery document (`GET /api/core/`) links that the catalogue's routes do not name:
 * a tenant that serves more than the catalogue knows shows it here. Only links under `coreUrl` without a parameter,
 * a query or an id in them, so the probe never follows a link elsewhere or to one item. A path the catalogue knows
 * with another method (the search routes, POST) is not sent as a GET.
 */
export function discoveredRoutes(root: unknown, coreUrl: string, known: readonly ProbeRoute[]): ProbeRoute[] {
  const links = (root as { _links?: Record<string, unknown> } | null)?._links;
  if (!links || typeof links !== 'object') return [];
  const base = coreUrl.replace(/\/+$/, '').toLowerCase();
  const have = new Set(known.filter((r) => r.api === 'core').map((r) => r.path.toLowerCase().replace(/\/+$/, '')));
  const out: ProbeRoute[] = [];
  for (const [rel, link] of Object.entries(links)) {
    const href = (link as { href?: unknown } | null)?.href;
    if (NOT_PROBED.has(rel.toLowerCase()) || typeof href !== 'string') continue;
    if (!href.toLowerCase().startsWith(`${base}/`) || /[{?#]/.test(href)) continue;
    const path = href.slice(base.length).replace(/\/+$/, '');
    if (!path || path.split('/').some((segment) => /^\d+$|^[0-9a-f-]{32,36}$/i.test(segment)) || have.has(path.toLowerCase())) continue;
    have.add(path.toLowerCase());
    out.push({ api: 'core', path, collection: true, from: 'discovery' });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A `{name}` or `{name.member}` standing for a value of an earlier answer (a whole query value or body string). */
const PLACEHOLDER = /^\{([A-Za-z][\w-]*)(?:\.([A-Za-z]\w*))?\}$/;
const PARAM = /^\{([^}]+)\}$/;
/** Ids kept per name and source route: enough to try another item when one lacks what a route reads. */
const PER_SOURCE = 5;
/** At most this many requests per route: a route read with one item, and with others when that item has none (404). */
export const MAX_TRIES = 3;

/** What the probe sends for one route, parameters and placeholders filled. */
export interface FilledRequest {
  path: string;
  query?: Record<string, string>;
  body?: unknown;
}

/** A route's path as a pattern matching concrete paths (case-insensitive, as the service matches them). */
function pattern(path: string): RegExp {
  const escaped = path.replace(/\/+$/, '').split('/').map((s) => (PARAM.test(s) ? '([^/?#]+)' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${escaped.join('/')}/?$`, 'i');
}

const singular = (word: string) => word.replace(/ies$/i, 'y').replace(/s$/i, '');

/** The names a route's answer is noted under: its resource, its last literal segment, and that segment's singular. */
function namesOf(route: Pick<ProbeRoute, 'path' | 'resource'>): string[] {
  const last = route.path.split('/').filter((s) => s && !s.startsWith('{')).pop() ?? '';
  return [...new Set([route.resource, last, singular(last)].filter((n): n is string => !!n).map((n) => n.toLowerCase()))];
}

/**
 * The names a parameter is looked up under: `{recordId}` the parameter's own (`record`), `/record/{id}` the segment
 * before (`record`) and its singular (`/tasks/{taskId}`: `task`), and the route's resource for its last parameter.
 */
function keysOf(route: Pick<ProbeRoute, 'path' | 'resource' | 'collection'>, segments: readonly string[], i: number, byResource = true): string[] {
  const param = PARAM.exec(segments[i])?.[1] ?? '';
  const named = param.replace(/Id$/i, '');
  const before = segments[i - 1] ?? '';
  const isLastParam = !segments.slice(i + 1).some((s) => PARAM.test(s));
  const keys = [named !== param ? named : '', PARAM.test(before) ? '' : before, PARAM.test(before) ? '' : singular(before), byResource && isLastParam && !route.collection ? (route.resource ?? '') : ''];
  return [...new Set(keys.filter(Boolean).map((k) => k.toLowerCase()))];
}

/** A value that can be an id: not empty, and not the all-zero GUID or 0 a service writes for "none". */
const isId = (v: unknown): v is string | number =>
  (typeof v === 'string' && v !== '' && v.length <= 200 && !/^[0{}-]+$/.test(v)) || (typeof v === 'number' && Number.isFinite(v) && v !== 0);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The items of a list answer: the content API's `items`, a trail's `entries`, or work management's `_embedded.<Type>`. */
function itemsOf(body: unknown): unknown[] | undefined {
  if (!isObject(body)) return Array.isArray(body) ? body : undefined;
  if (Array.isArray(body.items)) return body.items;
  if (Array.isArray(body.entries)) return body.entries;
  if (isObject(body._embedded) && !('id' in body)) {
    const lists = Object.values(body._embedded).filter(Array.isArray);
    if (lists.length === 1) return lists[0] as unknown[];
  }
  return undefined;
}

export interface IdBookOptions {
  /** The routes the probe sends: a link in an answer that matches one of them gives its parameters. */
  routes?: readonly ProbeRoute[];
  /** The catalogue's relations, so an embedded relation's ids are noted under its target resource. */
  catalogue?: Pick<Catalogue, 'resources'>;
  /** Where a link points, as an API and a path of it (undefined: elsewhere); without it links are not read. */
  locate?: (href: string) => { api: ProbeRoute['api']; path: string } | undefined;
  /**
   * Ids known without asking (the emulator contract's fixed ids), tried after every id an answer gave. Only for the
   * emulator: a probe never makes up an id for a tenant.
   */
  wellKnown?: Readonly<Record<string, readonly string[]>>;
}

/**
 * Ids (and sample items) seen in answers, by the names a route's parameter may be looked up under. Each name keeps its
 * ids per source route, and hands them out in turn (the first of each source, then the second…), preferring a
 * resource's sample: so a second try reads an item of another kind (a child classification after a root one).
 */
export class IdBook {
  private readonly ids = new Map<string, Map<string, string[]>>();
  private readonly items = new Map<string, Record<string, unknown>>();
  /** Names whose only lists answered no item, with the first such list: why a route could not be filled. */
  private readonly empty = new Map<string, string>();
  private readonly templates: { route: ProbeRoute; pattern: RegExp }[];

  constructor(private readonly options: IdBookOptions = {}) {
    this.templates = (options.routes ?? []).filter((r) => r.path.split('/').some((s) => PARAM.test(s))).map((route) => ({ route, pattern: pattern(route.path) }));
  }

  private add(name: string, source: string, id: string, preferred: boolean): void {
    let sources = this.ids.get(name);
    if (!sources) this.ids.set(name, (sources = new Map()));
    let list = sources.get(source);
    if (!list) {
      list = [];
      if (preferred) {
        // A preferred source goes first: rebuild the map with it at the front.
        const rest = [...sources.entries()];
        sources.clear();
        sources.set(source, list);
        for (const [k, v] of rest) sources.set(k, v);
      } else sources.set(source, list);
    }
    if (list.length < PER_SOURCE && !list.includes(id)) list.push(id);
  }

  private noteItem(names: readonly string[], source: string, item: unknown, preferred: boolean): void {
    if (!isObject(item)) return;
    const id = isId(item.id) ? item.id : undefined;
    for (const name of id === undefined ? [] : names) {
      this.add(name, source, String(id!), preferred);
      if (!this.items.has(name) || preferred) this.items.set(name, item);
    }
    // `projectId`, `documentId`, `recordId`: the ids an item names of others (work management's document uploads have
    // no `id`, only `documentId`), tried after the ids of the lists of those resources.
    for (const [key, value] of Object.entries(item)) {
      const other = /^(\w+?)Id$/i.exec(key)?.[1];
      if (other && isId(value)) this.add(other.toLowerCase(), `${source} .${key}`, String(value), false);
    }
  }

  /** Notes what an answer of `route` carries: its items' ids (or its own), embedded relations' ids, and its links. */
  note(route: ProbeRoute, answer: unknown): void {
    const source = routeKey(route);
    const preferred = route.from === 'sample';
    const names = namesOf(route);
    const items = itemsOf(answer);
    if (items) {
      for (const item of items) this.noteItem(names, source, item, preferred);
      if (!items.some((i) => isObject(i) && isId(i.id))) for (const name of names) if (!this.empty.has(name)) this.empty.set(name, source);
    } else this.noteItem(names, source, answer, preferred);
    const resource = route.resource ? this.options.catalogue?.resources[route.resource] : undefined;
    if (resource) for (const object of items ?? [answer]) this.noteEmbedded(route.resource!, object, source, 0);
    if (this.options.locate) this.noteLinks(answer, source, 0);
  }

  /** `_embedded.<rel>`: the relation's target (catalogue) names the ids it holds. */
  private noteEmbedded(resourceKey: string, object: unknown, source: string, depth: number): void {
    const embedded = isObject(object) ? object._embedded : undefined;
    const resource = this.options.catalogue?.resources[resourceKey];
    if (!isObject(embedded) || !resource || depth > 3) return;
    for (const [rel, value] of Object.entries(embedded)) {
      const relation = resource.relations.find((r) => r.rel.toLowerCase() === rel.toLowerCase() || r.selectKey?.toLowerCase() === rel.toLowerCase());
      if (!relation) continue;
      const list = itemsOf(value) ?? (Array.isArray(value) ? value : [value]);
      for (const item of list) {
        this.noteItem([relation.target.toLowerCase()], `${source} _embedded.${rel}`, item, false);
        this.noteEmbedded(relation.target, item, source, depth + 1);
      }
    }
  }

  /** Every `_links.*.href` in the answer that matches a route with parameters gives those parameters' values. */
  private noteLinks(value: unknown, source: string, depth: number): void {
    if (depth > 6) return;
    if (Array.isArray(value)) {
      for (const v of value.slice(0, PER_SOURCE * 4)) this.noteLinks(v, source, depth + 1);
      return;
    }
    if (!isObject(value)) return;
    for (const [key, member] of Object.entries(value)) {
      if (key === '_links' && isObject(member)) {
        for (const link of Object.values(member)) {
          const href = isObject(link) ? link.href : undefined;
          if (typeof href === 'string') this.noteHref(href, source);
        }
      } else if (typeof member === 'object' && member !== null) this.noteLinks(member, source, depth + 1);
    }
  }

  private noteHref(href: string, source: string): void {
    const at = this.options.locate?.(href);
    if (!at) return;
    const path = decodeURI(at.path.split(/[?#]/)[0]);
    for (const { route, pattern: p } of this.templates) {
      if (route.api !== at.api) continue;
      const match = p.exec(path);
      if (!match) continue;
      const segments = route.path.split('/');
      let group = 1;
      for (const [i, segment] of segments.entries()) {
        if (!PARAM.test(segment)) continue;
        const value = match[group++];
        if (value === undefined) continue;
        // Not under the route's resource: `/record/{id}/masterfile` answers a file, but its {id} is a record's.
        for (const name of keysOf(route, segments, i, false)) this.add(name, `${source} _links`, value, false);
      }
    }
  }

  /** The ids noted under a name, the first of each source first; then the well-known ones. */
  candidates(name: string): string[] {
    const sources = [...(this.ids.get(name.toLowerCase())?.values() ?? [])];
    const out: string[] = [];
    for (let i = 0; i < PER_SOURCE; i++) for (const list of sources) if (list[i] !== undefined && !out.includes(list[i])) out.push(list[i]);
    for (const id of this.options.wellKnown?.[name.toLowerCase()] ?? []) if (!out.includes(id)) out.push(id);
    return out;
  }

  /** A placeholder's value: `{name}` the first id noted under it, `{name.member}` that member of its first item. */
  private resolve(name: string, member: string | undefined): string | undefined {
    if (!member) return this.candidates(name)[0];
    const item = this.items.get(name.toLowerCase());
    const value = item ? Object.entries(item).find(([k]) => k.toLowerCase() === member.toLowerCase())?.[1] : undefined;
    return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  }

  /** Why nothing filled a name: no answer gave one, or the lists that could answered none. */
  private missing(name: string): { missing: string } {
    const empty = this.empty.get(name.toLowerCase());
    return { missing: empty ? `${empty} listed no item to read` : `no answer gave an id for {${name}}` };
  }

  /**
   * The requests to try for a route, at most MAX_TRIES, each with other ids (the next is sent when one answers 404):
   * path parameters, query and body placeholders filled. Or why it cannot be sent.
   */
  fill(route: ProbeRoute): { requests: FilledRequest[] } | { missing: string } {
    const segments = route.path.split('/');
    const choices: string[][] = [];
    for (const [i, segment] of segments.entries()) {
      const param = PARAM.exec(segment)?.[1];
      if (!param) {
        choices.push([segment]);
        continue;
      }
      const keys = keysOf(route, segments, i);
      // `/Findings/{occurrence}`, `/setting/{name}`: a parameter that is not an id is a member of the item before.
      const before = segments[i - 1] ?? '';
      const member = param !== 'id' && !/Id$/i.test(param) && !PARAM.test(before) ? this.resolve(singular(before), param) ?? this.resolve(before, param) : undefined;
      const ids = [...(member !== undefined ? [member] : []), ...(keys.map((k) => this.candidates(k)).find((c) => c.length) ?? [])];
      if (!ids.length) return this.missing(keys[0] ?? param);
      choices.push([...new Set(ids)].map((id) => encodeURIComponent(id)));
    }
    let query: Record<string, string> | undefined;
    for (const [key, template] of Object.entries(route.query ?? {})) {
      const placeholder = PLACEHOLDER.exec(template);
      const value = placeholder ? this.resolve(placeholder[1], placeholder[2]) : template;
      if (value === undefined) return this.missing(placeholder![2] ? `${placeholder![1]}.${placeholder![2]}` : placeholder![1]);
      (query ??= {})[key] = value;
    }
    let body: unknown;
    if (route.body !== undefined) {
      const filled = this.fillBody(route.body);
      if ('missing' in filled) return filled;
      body = filled.value;
    }
    const paths: string[] = [];
    for (let k = 0; k < MAX_TRIES; k++) {
      const path = choices.map((c) => c[Math.min(k, c.length - 1)]).join('/');
      if (!paths.includes(path)) paths.push(path);
    }
    return { requests: paths.map((path) => ({ path, ...(query ? { query } : {}), ...(body !== undefined ? { body } : {}) })) };
  }

  private fillBody(value: unknown): { value: unknown } | { missing: string } {
    if (typeof value === 'string') {
      const placeholder = PLACEHOLDER.exec(value);
      if (!placeholder) return { value };
      const filled = this.resolve(placeholder[1], placeholder[2]);
      return filled === undefined ? this.missing(placeholder[1]) : { value: filled };
    }
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (const v of value) {
        const filled = this.fillBody(v);
        if ('missing' in filled) return filled;
        out.push(filled.value);
      }
      return { value: out };
    }
    if (isObject(value)) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const filled = this.fillBody(v);
        if ('missing' in filled) return filled;
        out[k] = filled.value;
      }
      return { value: out };
    }
    return { value };
  }
}

/** How many values a route waits for: its path parameters and the placeholders of its query and body. */
function needs(route: ProbeRoute): number {
  const params = (route.path.match(/\{/g) ?? []).length;
  const placeholders = Object.values(route.query ?? {}).filter((v) => PLACEHOLDER.test(v)).length;
  return params + placeholders + (route.body !== undefined && /"\{[A-Za-z]/.test(JSON.stringify(route.body)) ? 1 : 0);
}

/**
 * The order to send routes in: those that need no value first (a resource's sample before the rest), so their answers
 * fill the others; among equals, the catalogue's order.
 */
export function sendingOrder(routes: readonly ProbeRoute[]): ProbeRoute[] {
  const rank = (r: ProbeRoute) => needs(r) * 2 + (r.from === 'sample' ? 0 : 1);
  return [...routes].sort((a, b) => rank(a) - rank(b));
}
