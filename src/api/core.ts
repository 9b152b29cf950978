// Typed access to the content-management resources: list, page, read, create, partial update, delete.
import { z } from 'zod';
import { createAndRead, updateAndRead } from './writes';
import type { HttpClient, QueryValue } from './http';
import { selectHeaders, type Selection } from './select';
import { cursorPages, itemsOf, numberedPages } from './paging';
import { pagedSchema, type Paged } from './schemas';
import { link, type HalLink } from './hal';

export const HAL_JSON = 'application/hal+json';
export const PLAIN_JSON = 'application/json';

export interface ReadOptions {
  select?: Selection;
  /** Ask for `application/json` (no `_links`/`_embedded`) instead of HAL. */
  plain?: boolean;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface ListOptions extends ReadOptions {
  filter?: string;
  sort?: string;
  page?: number;
  pageSize?: number;
  skip?: number;
  take?: number;
  /** The spec allows filter/sort/page/pageSize as query parameters or headers; query is the default. */
  paramsIn?: 'query' | 'header';
}

export function readHeaders(options: ReadOptions): { accept: string; headers: Record<string, string> } {
  return {
    accept: options.plain ? PLAIN_JSON : HAL_JSON,
    headers: { ...(options.select ? selectHeaders(options.select) : {}), ...options.headers },
  };
}

function listParams(options: ListOptions): { query: Record<string, QueryValue>; headers: Record<string, string> } {
  const params: Record<string, QueryValue> = {
    filter: options.filter,
    sort: options.sort,
    page: options.page,
    pageSize: options.pageSize,
    skip: options.skip,
    take: options.take,
  };
  if (options.paramsIn !== 'header') return { query: params, headers: {} };
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) headers[k] = String(v);
  return { query: {}, headers };
}

export interface ResourceDefinition<T> {
  /** Collection path, e.g. `/records`. */
  collection: string;
  /** Single-resource path prefix, e.g. `/record` (→ `/record/{id}`). */
  single: string;
  /** Where POST creates; the spec's general rule is the collection, records use `/record`. */
  create?: string;
  schema: z.ZodType<T>;
}

/** One resource type of the content API. */
export class ResourceCollection<T> {
  readonly pageSchema;

  constructor(
    protected readonly http: HttpClient,
    readonly definition: ResourceDefinition<T>,
  ) {
    this.pageSchema = pagedSchema(definition.schema) as unknown as z.ZodType<Paged<T>>;
  }

  pathOf(id: string): string {
    return `${this.definition.single}/${encodeURIComponent(id)}`;
  }

  /** One page of the collection. */
  async list(options: ListOptions = {}): Promise<Paged<T>> {
    const { accept, headers } = readHeaders(options);
    const params = listParams(options);
    const res = await this.http.request({
      path: this.definition.collection,
      query: params.query,
      headers: { ...headers, ...params.headers },
      accept,
      schema: this.pageSchema,
      signal: options.signal,
    });
    return res.data;
  }

  /** Every page, following `next` links (or page numbers when the answer is plain JSON). */
  pages(options: Omit<ListOptions, 'page'> = {}): AsyncGenerator<Paged<T>> {
    return numberedPages<T>(
      async (state, signal) => {
        if (state.nextHref) {
          const { accept, headers } = readHeaders(options);
          const res = await this.http.request({ url: state.nextHref, headers, accept, schema: this.pageSchema, signal });
          return res.data;
        }
        return this.list({ ...options, page: state.page, signal });
      },
      { signal: options.signal },
    );
  }

  /** Every item of every page. */
  items(options: Omit<ListOptions, 'page'> = {}): AsyncGenerator<T> {
    return itemsOf(this.pages(options));
  }

  async get(id: string, options: ReadOptions = {}): Promise<T> {
    const { accept, headers } = readHeaders(options);
    const res = await this.http.request({ path: this.pathOf(id), headers, accept, schema: this.definition.schema, signal: options.signal });
    return res.data;
  }

  /** Creates a resource; omitted optional properties take the server's defaults. Answers it whole (api/writes.ts). */
  async create(body: Record<string, unknown>, options: ReadOptions = {}): Promise<T> {
    const { accept, headers } = readHeaders(options);
    const path = this.definition.create ?? this.definition.collection;
    return createAndRead(this.http, { path, json: body, headers, accept, signal: options.signal }, this.definition.schema, (id) => this.pathOf(id));
  }

  /**
   * Partial update: only the sent properties change, `null` resets one, nested collections take
   * `{ addOrUpdate: [...], remove: [...] }`. Answers the resource as it is now: the service answers 204 No Content
   * (or, on some tenants, 200 with the resource), so it is read again.
   */
  async update(id: string, patch: Record<string, unknown>, options: ReadOptions = {}): Promise<T> {
    const { accept, headers } = readHeaders(options);
    return updateAndRead(this.http, { path: this.pathOf(id), json: patch, headers, accept, signal: options.signal }, this.definition.schema);
  }

  async delete(id: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    await this.http.request({ method: 'DELETE', path: this.pathOf(id), responseType: 'none', signal: options.signal });
  }

  /** Follows a link relation of a resource of this type and parses the target with `schema`. */
  async follow<U>(resource: { _links?: unknown }, rel: string, schema: z.ZodType<U>, options: ReadOptions = {}): Promise<U> {
    const target = link(resource as Parameters<typeof link>[0], rel);
    if (!target) throw new Error(`the resource has no '${rel}' link`);
    return followLink(this.http, target, schema, options);
  }
}

/** GET a link's target (absolute or relative to the core address). */
export async function followLink<U>(http: HttpClient, target: HalLink | string, schema: z.ZodType<U>, options: ReadOptions = {}): Promise<U> {
  const { accept, headers } = readHeaders(options);
  const href = typeof target === 'string' ? target : target.href;
  const res = await http.request({ url: href, headers, accept, schema, signal: options.signal });
  return res.data;
}

export interface CursorListOptions extends Omit<ListOptions, 'page' | 'skip'> {
  cursor?: string;
}

/** Records add cursor paging to GET /records (spec: "GET /records (also accepts `cursor`)"). */
export class RecordCollection<T> extends ResourceCollection<T> {
  async listByCursor(options: CursorListOptions = {}): Promise<Paged<T>> {
    const { accept, headers } = readHeaders(options);
    const params = listParams(options);
    const res = await this.http.request({
      path: this.definition.collection,
      query: { ...params.query, cursor: options.cursor },
      headers: { ...headers, ...params.headers },
      accept,
      schema: this.pageSchema,
      signal: options.signal,
    });
    return res.data;
  }

  /** All pages by cursor; the same filter and sort travel with every request, as the cursor requires. */
  cursorPages(options: Omit<CursorListOptions, 'cursor'> = {}): AsyncGenerator<Paged<T>> {
    return cursorPages<T>((cursor, signal) => this.listByCursor({ ...options, cursor, signal }), options.signal);
  }

  cursorItems(options: Omit<CursorListOptions, 'cursor'> = {}): AsyncGenerator<T> {
    return itemsOf(this.cursorPages(options));
  }
}

/** Classifications add tree navigation through their `parent`, `children` and `ancestors` links. */
export class ClassificationCollection<T extends { _links?: unknown }> extends ResourceCollection<T> {
  private async navigate(idOrResource: string | T, rel: string, options: ReadOptions): Promise<unknown> {
    const resource = typeof idOrResource === 'string' ? await this.get(idOrResource, { signal: options.signal }) : idOrResource;
    const target = link(resource as Parameters<typeof link>[0], rel);
    return target ? followLink(this.http, target, z.unknown(), options) : undefined;
  }

  /** The parent, or null for a root (no `parent` link, or a link to missing data answering 404). */
  async parent(idOrResource: string | T, options: ReadOptions = {}): Promise<T | null> {
    try {
      const value = await this.navigate(idOrResource, 'parent', options);
      return value === undefined ? null : this.definition.schema.parse(value);
    } catch (err) {
      if ((err as { status?: number }).status === 404) return null;
      throw err;
    }
  }

  async children(idOrResource: string | T, options: ReadOptions = {}): Promise<T[]> {
    return this.listRelation(idOrResource, 'children', options);
  }

  /** From the root down to the direct parent (order as the service gives it). */
  async ancestors(idOrResource: string | T, options: ReadOptions = {}): Promise<T[]> {
    return this.listRelation(idOrResource, 'ancestors', options);
  }

  private async listRelation(idOrResource: string | T, rel: string, options: ReadOptions): Promise<T[]> {
    const value = await this.navigate(idOrResource, rel, options);
    if (value === undefined) return [];
    const page = this.pageSchema.parse(value);
    const out = [...page.items];
    // A long child list is paged like any collection: follow its next links.
    let next = link(page, 'next');
    while (next) {
      const more = await followLink(this.http, next, this.pageSchema, options);
      out.push(...more.items);
      next = link(more, 'next');
    }
    return out;
  }
}
