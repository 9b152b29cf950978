// Two probes of the same requests compared, each difference in words: what a user reads (and reports) when the
// emulator answers differently from their tenant.
import { DATA_KEY, routeKey, type Members, type Probe, type RouteShape } from './shape';

export type DifferenceKind = 'status' | 'only-first' | 'only-second' | 'type';

export interface Difference {
  /** The route as `routeKey` names it. */
  route: string;
  kind: DifferenceKind;
  /** The member path (absent for a status). */
  member?: string;
  words: string;
}

export interface CompareLabels {
  /** Who answered the probe file, e.g. `tenant`. */
  first: string;
  /** Who answered the second probe, e.g. `emulator`. */
  second: string;
}

export interface Comparison {
  differences: Difference[];
  /** Routes answered (2xx) on both sides and compared member by member. */
  compared: number;
  /** Routes not compared, each with why (not sent on a side, or an error status on both). */
  notCompared: { route: string; why: string }[];
}

const ok = (shape: RouteShape | undefined) => shape?.status !== undefined && shape.status >= 200 && shape.status < 300;

/** The types a member was seen with, `null` aside: a member null in every sample says nothing about its type. */
const typesOf = (union: string) => union.split('|').filter((t) => t !== 'null');

/** The container a member path belongs to: `items[]` for `items[].id`, `` for a member of the answer itself. */
function parentOf(path: string): string {
  if (path.endsWith('[]')) return path.slice(0, -2);
  const dot = path.lastIndexOf('.');
  return dot < 0 ? '' : path.slice(0, dot);
}

const leafOf = (path: string, parent: string) => (parent ? path.slice(parent.length + 1) : path);

/** Whether a side saw the container at all (an empty list or a null object shows none of its members). */
function sawContainer(members: Members, parent: string): boolean {
  if (parent === '') return true;
  const types = members[parent];
  return types !== undefined && types.split('|').includes('object');
}

/** `the tenant's items`, `the tenant's answer`, ``the tenant's `_embedded.fields` `` */
function owner(label: string, parent: string): { noun: string; plural: boolean } {
  if (parent === '') return { noun: `the ${label}'s answer`, plural: false };
  if (parent.endsWith('[]')) {
    const list = parent.slice(0, -2).replace(/\._links$/, '');
    return { noun: list === 'items' ? `the ${label}'s items` : `the ${label}'s \`${list}\` elements`, plural: true };
  }
  return { noun: `the ${label}'s \`${parent}\``, plural: false };
}

function presence(route: string, path: string, types: string, has: string, lacks: string): string {
  const parent = parentOf(path);
  const leaf = leafOf(path, parent);
  const isLink = parent === '_links' || parent.endsWith('._links');
  const o = owner(has, isLink ? parent.replace(/\.?_links$/, '') : parent);
  const what = isLink ? `the link \`${leaf}\`` : leaf === DATA_KEY ? `members keyed by ids (${types})` : `\`${leaf}\` (${types})`;
  return `${route}: ${o.noun} ${o.plural ? 'have' : 'has'} ${what}, the ${lacks}'s ${o.plural ? 'do not' : 'does not'}`;
}

function retyped(route: string, path: string, first: string, second: string, labels: CompareLabels): string {
  const parent = parentOf(path);
  const o = owner(labels.first, parent);
  return `${route}: ${o.noun} ${o.plural ? 'have' : 'has'} \`${leafOf(path, parent)}\` as ${first}, the ${labels.second}'s as ${second}`;
}

/** Why a side did not send a route: what its probe says, or that the route is not in it. */
const notAsked = (label: string, shape: RouteShape | undefined) => `not asked of the ${label}: ${shape?.skipped ?? 'not in its probe'}`;

/** Every difference between two probes of the same requests, sorted by route and member. */
export function compareProbes(first: Probe, second: Probe, labels: CompareLabels = { first: 'tenant', second: 'emulator' }): Comparison {
  const differences: Difference[] = [];
  const notCompared: Comparison['notCompared'] = [];
  let compared = 0;
  const keys = [...new Set([...Object.keys(first.routes), ...Object.keys(second.routes)])].sort();
  for (const key of keys) {
    const a = first.routes[key];
    const b = second.routes[key];
    const route = a ? routeKey(a) : b ? routeKey(b) : key;
    if (a?.status === undefined || b?.status === undefined) {
      // The first side's reason when it was not asked: the second side's then says nothing more.
      notCompared.push({ route, why: a?.status === undefined ? notAsked(labels.first, a) : notAsked(labels.second, b) });
      continue;
    }
    if (a.status !== b.status && (ok(a) || ok(b))) {
      differences.push({ route, kind: 'status', words: `${route}: the ${labels.first} answers ${a.status}, the ${labels.second} ${b.status}` });
      continue;
    }
    if (!ok(a) || !ok(b)) {
      notCompared.push({ route, why: a.status === b.status ? `both answer ${a.status}` : `both answer an error (the ${labels.first} ${a.status}, the ${labels.second} ${b.status})` });
      continue;
    }
    compared++;
    const am = a.members ?? {};
    const bm = b.members ?? {};
    for (const path of [...new Set([...Object.keys(am), ...Object.keys(bm)])].sort()) {
      const at = am[path];
      const bt = bm[path];
      const parent = parentOf(path);
      // An array's elements are data: a list empty on one side says nothing about the service.
      if (path.endsWith('[]') && (at === undefined || bt === undefined)) continue;
      if (at !== undefined && bt === undefined) {
        if (sawContainer(bm, parent)) differences.push({ route, kind: 'only-first', member: path, words: presence(route, path, at, labels.first, labels.second) });
      } else if (bt !== undefined && at === undefined) {
        if (sawContainer(am, parent)) differences.push({ route, kind: 'only-second', member: path, words: presence(route, path, bt, labels.second, labels.first) });
      } else if (at !== undefined && bt !== undefined) {
        const x = typesOf(at);
        const y = typesOf(bt);
        // Types seen in samples: only when no type is common to both sides do the two services differ for sure.
        if (x.length && y.length && !x.some((t) => y.includes(t))) {
          differences.push({ route, kind: 'type', member: path, words: retyped(route, path, x.join(' or '), y.join(' or '), labels) });
        }
      }
    }
  }
  return { differences, compared, notCompared };
}
