// String resources ({ops_url}/api/resources): resolves static and dynamic ids to text, caching static strings
// for the session (the spec: they change rarely, cache them) and dynamic ones briefly (tenant configuration).
import { z } from 'zod';
import { ApiError } from './errors';
import type { HttpClient } from './http';

export const StringResourceSchema = z.looseObject({ id: z.string(), value: z.string() });
export type StringResource = z.infer<typeof StringResourceSchema>;

const QueryResponseSchema = z.looseObject({ resources: z.array(StringResourceSchema) });

/** The static list may come as an array, `{ resources }`, `{ items }` or a HAL collection; all are read. */
const StaticListSchema = z.unknown().transform((body, ctx) => {
  const candidates: unknown[] = [];
  if (Array.isArray(body)) candidates.push(body);
  else if (body && typeof body === 'object') {
    const o = body as Record<string, unknown>;
    candidates.push(o.resources, o.items);
    if (o._embedded && typeof o._embedded === 'object') candidates.push(...Object.values(o._embedded as object));
  }
  for (const c of candidates) {
    const parsed = z.array(StringResourceSchema).safeParse(c);
    if (parsed.success) return parsed.data;
  }
  ctx.addIssue({ code: 'custom', message: 'expected a list of { id, value }' });
  return z.NEVER;
});

const STATIC_ID = /^mo-replacement-strings-\d+$/;
const KNOWN_ID = /^mo-(replacement-strings|encoded-titles)-\d+$/;

export function isStaticStringId(id: string): boolean {
  return STATIC_ID.test(id);
}

/** True for ids of the two documented families; other ids are still sent, the server decides. */
export function isKnownStringId(id: string): boolean {
  return KNOWN_ID.test(id);
}

export interface StringsOptions {
  /** How long a dynamic string is trusted (default 60 s): tenant configuration can change under us. */
  dynamicTtlMs?: number;
  now?: () => number;
}

export class StringsApi {
  private staticStrings: Promise<Map<string, string>> | undefined;
  private readonly dynamic = new Map<string, { value: string; expires: number }>();
  private readonly ttl: number;
  private readonly now: () => number;
  /** Requests sent so far, by kind: lets callers (and tests) see what the cache saved. */
  readonly sent = { static: 0, query: 0, single: 0 };

  constructor(
    private readonly http: HttpClient,
    options: StringsOptions = {},
  ) {
    this.ttl = options.dynamicTtlMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /** Every static string, fetched once per session. A failed fetch is not cached. */
  allStatic(options: { signal?: AbortSignal } = {}): Promise<Map<string, string>> {
    if (!this.staticStrings) {
      this.sent.static++;
      const loading = this.http
        .request({ endpoint: 'ops', path: '/api/resources/static', schema: StaticListSchema, signal: options.signal })
        .then((res) => new Map(res.data.map((r) => [r.id, r.value])));
      this.staticStrings = loading;
      loading.catch(() => {
        if (this.staticStrings === loading) this.staticStrings = undefined;
      });
    }
    return this.staticStrings;
  }

  /** One string by id (GET /api/resources/{id}); undefined when the service does not know it. */
  async get(id: string, options: { signal?: AbortSignal } = {}): Promise<string | undefined> {
    const fromStatic = isStaticStringId(id) ? (await this.allStatic(options)).get(id) : undefined;
    if (fromStatic !== undefined) return fromStatic;
    const cached = this.dynamic.get(id);
    if (cached && cached.expires > this.now()) return cached.value;
    this.sent.single++;
    try {
      const res = await this.http.request({ endpoint: 'ops', path: `/api/resources/${encodeURIComponent(id)}`, schema: StringResourceSchema, signal: options.signal });
      if (!isStaticStringId(id)) this.dynamic.set(id, { value: res.data.value, expires: this.now() + this.ttl });
      return res.data.value;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  }

  /**
   * Resolves ids of both kinds. Static ids come from the session cache, fresh dynamic ones from the short
   * cache, and all the rest in one POST /api/resources/query. Unknown ids are absent from the result.
   */
  async resolve(ids: readonly string[], options: { signal?: AbortSignal } = {}): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const wanted = [...new Set(ids)];
    const statics = wanted.some(isStaticStringId) ? await this.allStatic(options) : undefined;
    const now = this.now();
    const missing: string[] = [];
    for (const id of wanted) {
      const fromStatic = statics?.get(id);
      const cached = this.dynamic.get(id);
      if (fromStatic !== undefined) out.set(id, fromStatic);
      else if (cached && cached.expires > now) out.set(id, cached.value);
      else missing.push(id);
    }
    if (missing.length) {
      this.sent.query++;
      const res = await this.http.request({
        method: 'POST',
        endpoint: 'ops',
        path: '/api/resources/query',
        json: { query: missing.join(',') },
        schema: QueryResponseSchema,
        // A lookup changes nothing, so a lost answer may be asked again.
        idempotent: true,
        signal: options.signal,
      });
      const expires = this.now() + this.ttl;
      for (const r of res.data.resources) {
        out.set(r.id, r.value);
        if (!isStaticStringId(r.id)) this.dynamic.set(r.id, { value: r.value, expires });
      }
    }
    return out;
  }

  /** Forgets everything, e.g. after switching tenant or language. */
  clear(): void {
    this.staticStrings = undefined;
    this.dynamic.clear();
  }
}
