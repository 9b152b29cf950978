// Which requests a probe sends: the catalogue's read routes (with a `select-*` variant where the resource has
// relations), the collections the service's discovery document links, and each route's parameters filled from ids
// that earlier answers carried. Ids stay in memory: the probe file names only the route templates.
import type { Catalogue, RouteEntry } from '../catalogue';
import { routeKey, type ProbeRoute } from './shape';

/** The probe's routes from the catalogue's read routes: each as is, and once with every relation selected. */
export function catalogueRoutes(routes: readonly RouteEntry[], catalogue: Pick<Catalogue, 'resources'>): ProbeRoute[] {
  const out: ProbeRoute[] = [];
  for (const r of routes) {
    if (r.method !== 'GET') continue;
    const route: ProbeRoute = { api: r.api, path: r.path, from: 'catalogue', ...(r.resource ? { resource: r.resource } : {}), ...(r.collection ? { collection: true } : {}) };
    out.push(route);
    const resource = r.resource ? catalogue.resources[r.resource] : undefined;
    const keys = [...new Set(resource?.relations.map((rel) => rel.selectKey ?? rel.rel) ?? [])].sort();
    if (resource && keys.length) out.push({ ...route, select: { header: `select-${resource.name}`, value: keys.join(',') } });
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
 * a query or an id in them, so the probe never follows a link elsewhere or to one item.
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

const HAS_PARAM = /\{[^}]+\}/;

/** Ids seen in answers, by the names a route's parameter may be looked up under (resource, collection segment). */
export class IdBook {
  private readonly ids = new Map<string, string>();

  /** Notes the first item's id (a collection) or the answer's own id, under the route's resource and last segment. */
  note(route: ProbeRoute, answer: unknown): void {
    const body = answer as { id?: unknown; items?: { id?: unknown }[] } | null;
    const id = route.collection || Array.isArray(body?.items) ? body?.items?.[0]?.id : body?.id;
    if ((typeof id !== 'string' && typeof id !== 'number') || String(id) === '') return;
    const last = route.path.split('/').filter((s) => s && !s.startsWith('{')).pop() ?? '';
    for (const name of [route.resource, last, singular(last)]) {
      if (name && !this.ids.has(name.toLowerCase())) this.ids.set(name.toLowerCase(), String(id));
    }
  }

  /** The path with each parameter filled, or the first parameter no answer gave an id for. */
  fill(route: ProbeRoute): { path: string } | { missing: string } {
    const segments = route.path.split('/');
    const out: string[] = [];
    for (const [i, segment] of segments.entries()) {
      const param = /^\{([^}]+)\}$/.exec(segment)?.[1];
      if (!param) {
        out.push(segment);
        continue;
      }
      // `/record/{id}`: the segment before names the resource; `{recordId}`: the parameter does.
      const named = param.replace(/Id$/i, '');
      const before = segments[i - 1] ?? '';
      const isLastParam = !segments.slice(i + 1).some((s) => HAS_PARAM.test(s));
      const candidates = [named !== param ? named : '', before, singular(before), isLastParam && !route.collection ? route.resource : ''].filter(Boolean) as string[];
      const id = candidates.map((c) => this.ids.get(c.toLowerCase())).find((v) => v !== undefined);
      if (id === undefined) return { missing: param };
      out.push(encodeURIComponent(id));
    }
    return { path: out.join('/') };
  }
}

const singular = (word: string) => word.replace(/ies$/i, 'y').replace(/s$/i, '');

/** The order to send routes in: those without parameters first, so their answers fill the others. */
export function sendingOrder(routes: readonly ProbeRoute[]): ProbeRoute[] {
  const params = (r: ProbeRoute) => (r.path.match(/\{/g) ?? []).length;
  return [...routes].sort((a, b) => params(a) - params(b));
}
