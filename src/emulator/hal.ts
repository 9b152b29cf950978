// HAL representation: content negotiation, select-* headers, links with select-key, embedding and paged collections.
import type { FastifyRequest } from 'fastify';
import { catalogue, defaultOf } from '../core/catalogue';
import type { EmulatorContext } from './context';
import { errors } from './errors';

export interface Link {
  href: string;
  'select-key'?: string;
}

export type Json = Record<string, unknown>;

/**
 * Whether an API-Version header names the one version the service has: ASP.NET API versioning reads `1.0` as `1`, and
 * a header sent twice arrives joined by commas (`1, 1`).
 */
export function supportsApiVersion(value: string): boolean {
  return value.split(',').every((v) => /^1(\.0)?$/.test(v.trim()));
}

/** The media ranges of an Accept header with their weights (`q`, 1 when absent), lower-cased. */
function mediaRanges(accept: string): { type: string; q: number }[] {
  return accept.split(',').map((part) => {
    const [type, ...params] = part.split(';');
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    return { type: type.trim().toLowerCase(), q: Number.isFinite(weight) ? weight : 1 };
  });
}

/** The highest weight an Accept header gives any of `types`, or -1 when it names none of them. */
function weightOf(ranges: { type: string; q: number }[], types: readonly string[]): number {
  const named = ranges.filter((r) => types.includes(r.type));
  return named.length ? Math.max(...named.map((r) => r.q)) : -1;
}

const HAL = ['application/hal+json'];
// ASP.NET's JSON output formatter writes application/json and text/json.
const PLAIN = ['application/json', 'text/json'];
const WILDCARDS = ['*/*', 'application/*', 'text/*'];
const ACCEPTABLE = [...HAL, ...PLAIN, ...WILDCARDS];

/** Whether an Accept header allows JSON in some form (a range with a weight above 0). */
export function isAcceptable(accept: string): boolean {
  return mediaRanges(accept).some((r) => r.q > 0 && ACCEPTABLE.includes(r.type));
}

/**
 * Plain JSON when the client names application/json (or text/json) and prefers it: over HAL when both are named (by
 * weight; equal weights keep HAL), over a wildcard otherwise. `*\/*` alone is served as HAL.
 */
export function wantsPlainJson(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = mediaRanges(accept);
  const plain = weightOf(ranges, PLAIN);
  if (plain <= 0) return false;
  const hal = weightOf(ranges, HAL);
  return hal >= 0 ? plain > hal : plain >= weightOf(ranges, WILDCARDS);
}

/**
 * Plain JSON names embedded resources as properties in camelCase (real-service-notes: `masterFileLatestVersion`,
 * `masterFile`), where HAL keeps the lower-case relation names (`_embedded.masterfilelatestversion`).
 */
const PLAIN_NAMES: Readonly<Record<string, string>> = {
  additionalfiles: 'additionalFiles',
  createdby: 'createdBy',
  fieldgroup: 'fieldGroup',
  fileversion: 'fileVersion',
  fileversions: 'fileVersions',
  filetype: 'fileType',
  publiclinks: 'publicLinks',
  publicuris: 'publicUris',
  latestversion: 'latestVersion',
  masterfile: 'masterFile',
  masterfilelatestversion: 'masterFileLatestVersion',
  modifiedby: 'modifiedBy',
  usergroups: 'userGroups',
};

/** Drops `_links` and lifts `_embedded` members into their owner (camelCase names), recursively. */
export function toPlainJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toPlainJson);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const out: Json = {};
  for (const [key, v] of Object.entries(value as Json)) {
    if (key === '_links') continue;
    if (key === '_embedded' && v && typeof v === 'object') {
      for (const [rel, embedded] of Object.entries(v as Json)) {
        const name = Object.hasOwn(PLAIN_NAMES, rel) ? PLAIN_NAMES[rel] : rel;
        if (!Object.hasOwn(out, name)) out[name] = toPlainJson(embedded);
      }
      continue;
    }
    out[key] = toPlainJson(v);
  }
  return out;
}

/** `select-<type>` headers as lower-case key sets, keyed by the resource type. */
export function parseSelections(request: FastifyRequest): Map<string, Set<string>> {
  const result = new Map<string, Set<string>>();
  for (const [name, raw] of Object.entries(request.headers)) {
    if (!name.startsWith('select-') || raw === undefined) continue;
    const type = name.slice('select-'.length);
    if (type.startsWith('record-') || type === 'resolve-default-values') continue;
    const values = (Array.isArray(raw) ? raw.join(',') : raw)
      .split(',')
      .map((v) => v.trim().toLowerCase())
      .filter(Boolean);
    result.set(type, new Set(values));
  }
  return result;
}

/** A comma-separated header whose items are percent-encoded (a comma inside a name is %2C). */
export function parseEncodedList(raw: string | string[] | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const text = Array.isArray(raw) ? raw.join(',') : raw;
  return text
    .split(',')
    .map((item) => {
      try {
        return decodeURIComponent(item.trim());
      } catch {
        throw errors.badRequest(`The header value '${item.trim().slice(0, 100)}' is not validly percent-encoded.`);
      }
    })
    .filter(Boolean);
}

export interface RenderContext {
  ctx: EmulatorContext;
  request: FastifyRequest;
  origin: string;
  select: Map<string, Set<string>>;
  /** Language ids asked for by the `languages` header; undefined = the caller's default; '*' = all. */
  languages: string[] | '*' | undefined;
  /** Per-request memo so a resource reached twice is loaded once. */
  memo: Map<string, unknown>;
  /** `select-record-fields` / `select-record-fieldgroups`: ids or (decoded) names; undefined = all. */
  fieldSelection?: { fields?: string[]; groups?: string[] };
  /** `select-resolve-default-values` (default true). */
  resolveDefaults: boolean;
}

export function renderContext(ctx: EmulatorContext, request: FastifyRequest): RenderContext {
  const raw = request.headers.languages;
  let languages: RenderContext['languages'];
  if (typeof raw === 'string' && raw.trim()) {
    languages = raw.trim() === '*' ? '*' : raw.split(',').map((l) => normaliseGuid(l.trim()) ?? l.trim().toLowerCase());
  } else if (request.caller) {
    // Spec: without the header, fields and labels come in the caller's default language.
    languages = [request.caller.languageId];
  }
  const fields = parseEncodedList(request.headers['select-record-fields']);
  const groups = parseEncodedList(request.headers['select-record-fieldgroups']);
  const fieldSelection = fields || groups ? { fields, groups } : undefined;
  const resolveRaw = request.headers['select-resolve-default-values'];
  const resolveText = (Array.isArray(resolveRaw) ? resolveRaw.join(',') : (resolveRaw ?? '')).trim().toLowerCase();
  if (resolveText && resolveText !== 'true' && resolveText !== 'false') {
    throw errors.badRequest(`select-resolve-default-values must be true or false, got '${resolveText.slice(0, 40)}'.`);
  }
  return {
    ctx,
    request,
    origin: ctx.origin(request),
    select: parseSelections(request),
    languages,
    memo: new Map(),
    fieldSelection,
    resolveDefaults: resolveText !== 'false',
  };
}

export function normaliseGuid(text: string): string | undefined {
  const compact = text.replace(/[{}-]/g, '').toLowerCase();
  return /^[0-9a-f]{32}$/.test(compact) ? compact : undefined;
}

/** A relation of a resource: its link, and how to load what it points at when selected. */
export interface Relation<Row> {
  key: string;
  /** Resource type of the target (for nested select headers and the at-most-twice rule). */
  type: string;
  many: boolean;
  href(row: Row, rc: RenderContext): string;
  load(row: Row, rc: RenderContext): Promise<unknown[] | unknown | null>;
}

export interface ResourceType<Row> {
  name: string;
  self(row: Row, rc: RenderContext): string;
  /** The minimal representation. */
  attributes(row: Row, rc: RenderContext): Json;
  /** Extra attributes shown only when named in `select-<type>`. */
  optional?: Record<string, (row: Row, rc: RenderContext) => unknown>;
  relations: Relation<Row>[];
}

const types = new Map<string, ResourceType<never>>();

export function defineType<Row>(type: ResourceType<Row>): ResourceType<Row> {
  types.set(type.name, type as unknown as ResourceType<never>);
  return type;
}

/**
 * Renders one resource. `path` holds the resource types from the top down to the parent: a type already
 * present twice on it is not embedded again (the spec's recursion rule), though its link stays.
 */
export async function render<Row>(type: ResourceType<Row>, row: Row, rc: RenderContext, path: string[] = []): Promise<Json> {
  const body: Json = { ...type.attributes(row, rc) };
  const selected = rc.select.get(type.name) ?? new Set<string>();
  for (const [key, get] of Object.entries(type.optional ?? {})) {
    if (selected.has(key.toLowerCase())) body[key] = get(row, rc);
  }
  const links: Record<string, Link> = { self: { href: type.self(row, rc) } };
  const embedded: Json = {};
  const here = [...path, type.name];
  for (const relation of type.relations) {
    links[relation.key] = { href: relation.href(row, rc), 'select-key': relation.key };
    if (!selected.has(relation.key.toLowerCase())) continue;
    if (here.filter((t) => t === relation.type).length >= 2) continue;
    const target = types.get(relation.type) as ResourceType<unknown> | undefined;
    const loaded = await relation.load(row, rc);
    if (!target) {
      // Targets that are no resource type (a file version's `download` link, permissions): embedded as loaded.
      embedded[relation.key] = relation.many ? { items: (loaded as unknown[]) ?? [] } : (loaded ?? null);
    } else if (relation.many) {
      const items = (loaded as unknown[]) ?? [];
      embedded[relation.key] = { items: await Promise.all(items.map((item) => render(target, item, rc, here))) };
    } else {
      embedded[relation.key] = loaded === null || loaded === undefined ? null : await render(target, loaded, rc, here);
    }
  }
  fromCatalogue(type.name, body, selected, links, embedded);
  body._links = links;
  if (Object.keys(embedded).length) body._embedded = embedded;
  return body;
}

/**
 * What the catalogue says a resource has and the emulator keeps nothing for (STYLE 16: a gap is a missing line, not a
 * missing `if`): each member gets its default of the right type, each relation its link with its select-key, and a
 * selected one embeds what the service answers for a relation without data (spec, Selecting: `null` for one
 * resource; an empty collection for a list).
 */
function fromCatalogue(name: string, body: Json, selected: ReadonlySet<string>, links: Record<string, Link>, embedded: Json): void {
  const entry = Object.hasOwn(catalogue.resources, name) ? catalogue.resources[name] : undefined;
  if (!entry) return;
  for (const member of entry.members) {
    if (Object.hasOwn(body, member.name)) continue;
    if (member.selectOnly && !selected.has(member.name.toLowerCase())) continue;
    body[member.name] = defaultOf(member, body.createdOn);
  }
  for (const relation of entry.relations) {
    if (Object.hasOwn(links, relation.rel)) continue;
    const key = relation.selectKey ?? relation.rel;
    links[relation.rel] = { href: `${links.self.href.split('?')[0]}/${relation.rel}`, 'select-key': key };
    if (selected.has(key.toLowerCase())) embedded[relation.rel] = relation.collection ? { items: [] } : null;
  }
}

export interface Paging {
  /** Zero-based offset of the first item. */
  offset: number;
  limit: number;
  page: number;
}

function param(request: FastifyRequest, name: string): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.[name] ?? Object.entries(query ?? {}).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
  const value = fromQuery ?? request.headers[name.toLowerCase()];
  if (Array.isArray(value)) return value.length ? String(value[value.length - 1]) : undefined;
  return value === undefined || value === null || value === '' ? undefined : String(value);
}

/** `filter`, `sort`, `page`, … from the query string, or else from a request header of the same name. */
export const requestParam = param;

function nonNegativeInt(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\s*\d{1,9}\s*$/.test(text)) throw errors.badRequest(`The parameter '${name}' must be a non-negative integer.`);
  return Number(text);
}

/** The spec's paging: `page` (1-based) with `pageSize`, or `skip` with `take`; oversize is clamped silently. */
export function parsePaging(request: FastifyRequest, max: number, fallback = 50): Paging {
  const pageSize = nonNegativeInt('pageSize', param(request, 'pageSize'));
  const take = nonNegativeInt('take', param(request, 'take'));
  const skip = nonNegativeInt('skip', param(request, 'skip'));
  const page = nonNegativeInt('page', param(request, 'page'));
  let limit = take ?? pageSize ?? fallback;
  if (limit < 1) limit = 1;
  if (limit > max) limit = max;
  const pageNumber = page && page > 0 ? page : 1;
  const offset = skip ?? (pageNumber - 1) * limit;
  return { offset, limit, page: Math.floor(offset / limit) + 1 };
}

/** A paged collection with the links that apply (`first`, `prev`, `next`, `last`). */
export function pagedCollection(rc: RenderContext, items: unknown[], paging: Paging, totalCount: number, extra: Json = {}): Json {
  const url = new URL(rc.request.url, rc.origin);
  const at = (page: number) => {
    const u = new URL(url);
    u.searchParams.delete('skip');
    u.searchParams.delete('take');
    u.searchParams.delete('cursor');
    u.searchParams.set('page', String(page));
    u.searchParams.set('pageSize', String(paging.limit));
    return { href: u.toString() };
  };
  const lastPage = Math.max(1, Math.ceil(totalCount / paging.limit));
  const links: Record<string, Link> = { self: { href: url.toString() }, first: at(1) };
  if (paging.offset > 0) links.prev = at(Math.max(1, paging.page - 1));
  if (paging.offset + items.length < totalCount) links.next = at(paging.page + 1);
  links.last = at(lastPage);
  return {
    items,
    page: paging.page,
    pageSize: paging.limit,
    skip: paging.offset,
    take: paging.limit,
    totalCount,
    ...extra,
    _links: links,
  };
}
