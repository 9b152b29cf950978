// The one request function of the client: addresses per endpoint kind, the spec's headers, bearer
// auth with one fresh-token retry on 401, pacing within the tenant's limits (pacing.ts), backoff on
// 429/5xx, timeouts, and zod at the boundary.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { z } from 'zod';
import { TENANT_LIMITS } from '../core/limits';
import { ApiError, ErrorBodySchema, NetworkError, ResponseShapeError, excerpt, redact } from './errors';
import { RequestPacer, abortableSleep, type PacingOptions } from './pacing';
import { agentFor } from './agents';

// The one abortable sleep (pacing.ts holds it, as this module imports that one); callers keep importing it from here.
export { abortableSleep };
import type { Endpoints } from './profile';

/** Hands out bearer tokens for requests (api/auth.ts implements it for each OAuth flow). */
export interface TokenProvider {
  getToken(signal?: AbortSignal): Promise<string>;
  /** Forget `token` (or the cached token when omitted) so the next `getToken` fetches a new one. */
  invalidate(token?: string): void;
}

export type EndpointKind = keyof Endpoints;

/** The part of a fetch Response the client uses; both node-fetch 3 and the global fetch fit. */
export interface FetchResponseLike {
  status: number;
  url?: string;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export interface FetchInitLike {
  method: string;
  headers: Record<string, string>;
  /** A string, bytes, or a Node stream (its Content-Type and Content-Length come in `headers`). */
  body?: string | Uint8Array | object;
  signal?: AbortSignal;
  redirect?: 'follow' | 'manual';
}

export type FetchLike = (url: string, init: FetchInitLike) => Promise<FetchResponseLike>;

/** What the request log sees: never headers, bodies or secrets; the URL is redacted. */
export interface RequestEvent {
  method: string;
  url: string;
  /** 0 when no HTTP answer came (network error or timeout). */
  status: number;
  ms: number;
  /** 0 for the first try, then 1, 2, … for retries. */
  attempt: number;
  error?: string;
}

export interface RetryPolicy {
  /** Retries after the first try (401 renewal is separate and happens at most once). */
  retries: number;
  /** Exponential backoff base and cap when the server gives no Retry-After. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is thrown with `retryAfterMs`. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 4, baseDelayMs: 200, maxDelayMs: 8_000, maxRetryAfterMs: 30_000 };

export interface HttpOptions {
  endpoints: Endpoints;
  userAgent: string;
  fetch?: FetchLike;
  tokenProvider?: TokenProvider;
  /** Value of the API-Version header (spec: `1`). */
  apiVersion?: string;
  /** Per-attempt timeout covering headers and body. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  onRequest?: (event: RequestEvent) => void;
  /**
   * How this connection paces itself (pacing.ts): a pacer to share, or its options (default 10 requests/s, 4 in
   * flight). Token requests are not paced: a tenant does not count them, and a renewal must never wait for a turn
   * that requests waiting for the renewal hold.
   */
  pacing?: RequestPacer | Partial<PacingOptions>;
  /** Injectable for tests: jitter source and sleeper. */
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD';
export type QueryValue = string | number | boolean | null | undefined;

export interface RequestSpec<T = unknown> {
  method?: Method;
  /** Which of the six addresses `path` is relative to (default `core`). */
  endpoint?: EndpointKind;
  /** Appended to the endpoint address (`/records`). */
  path?: string;
  /** An absolute URL or a link href, resolved against the endpoint address like a browser would. */
  url?: string;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string | undefined>;
  json?: unknown;
  form?: Record<string, string>;
  body?: { data: string | Uint8Array; contentType: string };
  /**
   * A body built afresh for every attempt (a Node stream reading from disk as it is sent, its Content-Type and
   * Content-Length given in `headers`), so a retry re-reads the file and nothing holds it in memory.
   */
  streamBody?: () => Promise<object> | object;
  /** Default `application/hal+json`. */
  accept?: string;
  /** Send the bearer token (default true; false for `/`, `/supportedVersions`, `/docs`, the token endpoint). */
  auth?: boolean;
  /** Send API-Version (default true; exempt endpoints ignore it). */
  apiVersion?: boolean;
  schema?: z.ZodType<T>;
  /** How to read a successful body (default json). */
  responseType?: 'json' | 'text' | 'bytes' | 'none';
  /** Whether the request takes a turn of the connection's pacer; default true except on the `auth` endpoint. */
  paced?: boolean;
  /** Whether a network error or a 5xx may be retried; defaults to true for GET, HEAD, PUT, DELETE. */
  idempotent?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
  redirect?: 'follow' | 'manual';
}

export interface HttpResponse<T> {
  status: number;
  url: string;
  headers: { get(name: string): string | null };
  data: T;
}

const IDEMPOTENT: ReadonlySet<Method> = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

/** Parses `Retry-After` (seconds or an HTTP date) into milliseconds from `now`. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * The wait before retry number `attempt` (0-based): the server's Retry-After stretched by up to
 * 20 % jitter so that many clients do not return at the same instant, or "equal jitter"
 * exponential backoff when the server said nothing. `undefined` means do not retry: the server
 * asks for longer than the policy allows.
 */
export function retryDelay(attempt: number, retryAfterMs: number | undefined, policy: RetryPolicy, random: () => number): number | undefined {
  if (retryAfterMs !== undefined) {
    if (retryAfterMs > policy.maxRetryAfterMs) return undefined;
    return Math.min(policy.maxRetryAfterMs, Math.round(retryAfterMs * (1 + 0.2 * random())));
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}


let defaultFetch: Promise<FetchLike> | undefined;
/**
 * node-fetch 3 is ESM-only, so it is loaded on first use rather than at import time. Its requests go through the
 * keep-alive pools of agents.ts. The explicit `Connection: keep-alive` is for VS Code's extension host: its proxy
 * support wraps every request in an agent of its own that does not keep alive, so Node would send
 * `Connection: close` and the server would end each connection after one answer; with the header the socket goes
 * back to the keep-alive pool the wrapper hands the request to.
 */
function loadDefaultFetch(): Promise<FetchLike> {
  defaultFetch ??= import('node-fetch').then((m) => {
    const nodeFetch = m.default as unknown as (url: string, init: FetchInitLike & { agent: typeof agentFor }) => Promise<FetchResponseLike>;
    return (url, init) => nodeFetch(url, { ...init, headers: { Connection: 'keep-alive', ...init.headers }, agent: agentFor });
  });
  return defaultFetch;
}

function trimSlash(value: string): string {
  return value.replace(/\/+$/, '');
}

function isJsonType(contentType: string | null): boolean {
  return contentType !== null && /[/+]json\b/i.test(contentType);
}

export class HttpClient {
  readonly endpoints: Endpoints;
  /** The connection's pacer: bulk runners take their turns from it too. */
  readonly pacer: RequestPacer;
  private readonly retry: RetryPolicy;
  private readonly random: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  /**
   * The lane of decorations (badges, thumbnails: what rows show once they are there): at most a third of the
   * tenant's rate in any second and two in flight, taken on top of the connection's own turn, so decorations never crowd out the
   * requests of rows, documents and the user's other integrations.
   */
  readonly decorationPacer: RequestPacer;
  private readonly decorating = new AsyncLocalStorage<true>();

  constructor(private readonly options: HttpOptions) {
    this.endpoints = options.endpoints;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.random = options.random ?? Math.random;
    this.tokenProvider = options.tokenProvider;
    const sleeper = options.sleep;
    // No burst: in no second do decorations start more than their third (the latency bench counted 6 in the second
    // after the explorer's first rows with a second's burst on top of the rate).
    const lane = { ratePerSecond: TENANT_LIMITS.rate / 3, maxInFlight: 2, burst: 1 };
    if (sleeper) {
      // An injected sleeper (tests) moves the pacer's clock too: a Retry-After it waited has passed for the pacer.
      let slept = 0;
      this.sleep = (ms, signal) => sleeper(ms, signal).then(() => void (slept += ms));
      const clock = { now: () => performance.now() + slept, sleep: this.sleep };
      this.pacer = options.pacing instanceof RequestPacer ? options.pacing : new RequestPacer(options.pacing, clock);
      this.decorationPacer = new RequestPacer(lane, clock);
    } else {
      this.sleep = abortableSleep;
      this.pacer = options.pacing instanceof RequestPacer ? options.pacing : new RequestPacer(options.pacing);
      this.decorationPacer = new RequestPacer(lane);
    }
  }

  /** Runs `work` with every request it sends (however deep) in the decoration lane. */
  asDecoration<T>(work: () => Promise<T>): Promise<T> {
    return this.decorating.run(true, work);
  }

  /** Settable after construction because token providers themselves use this client (with auth off). */
  tokenProvider: TokenProvider | undefined;

  /** Whether `url` is on one of the six configured hosts. */
  isServiceOrigin(url: string): boolean {
    const origin = new URL(url).origin;
    return Object.values(this.endpoints).some((endpoint) => new URL(endpoint).origin === origin);
  }

  /** The absolute URL a spec points at, query string included. */
  urlFor(spec: Pick<RequestSpec, 'endpoint' | 'path' | 'url' | 'query'>): string {
    const base = trimSlash(this.endpoints[spec.endpoint ?? 'core']);
    let url: URL;
    if (spec.url !== undefined) url = new URL(spec.url, `${base}/`);
    else url = new URL(`${base}${spec.path ?? ''}`);
    for (const [key, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  async request<T = unknown>(spec: RequestSpec<T>): Promise<HttpResponse<T>> {
    const method = spec.method ?? 'GET';
    const url = this.urlFor(spec);
    const idempotent = spec.idempotent ?? IDEMPOTENT.has(method);
    // The bearer token goes only to the service's own hosts, never to a link pointing elsewhere (a CDN).
    const useAuth = (spec.auth ?? true) && this.isServiceOrigin(url);
    const provider = useAuth ? this.tokenProvider : undefined;
    const fetchFn = this.options.fetch ?? (await loadDefaultFetch());
    const { body, contentType } = encodeBody(spec);
    const paced = spec.paced ?? (spec.endpoint ?? 'core') !== 'auth';

    let attempt = 0;
    let renewed = false;
    for (;;) {
      spec.signal?.throwIfAborted();
      const token = provider ? await provider.getToken(spec.signal) : undefined;
      const headers = this.headersFor(spec, token, contentType);
      // The turn covers the attempt until its body is read; a retry's wait happens outside it.
      const release = paced ? await this.turn(spec.signal) : undefined;
      let attemptBody: FetchInitLike['body'];
      try {
        attemptBody = spec.streamBody ? await spec.streamBody() : body;
      } catch (err) {
        release?.();
        throw err;
      }
      const started = performance.now();
      const attemptSignal = new AttemptSignal(spec.signal, spec.timeoutMs ?? this.options.timeoutMs ?? 30_000);
      const emit = (status: number, error?: string) =>
        this.options.onRequest?.({ method, url: redact(url), status, ms: Math.round(performance.now() - started), attempt, error: error && redact(error) });

      let res: FetchResponseLike;
      let text: string | undefined;
      let bytes: Uint8Array | undefined;
      try {
        res = await fetchFn(url, { method, headers, body: attemptBody, signal: attemptSignal.signal, redirect: spec.redirect });
        // Bodies are read inside the timeout too: a stalled body is as bad as a stalled connect.
        if (res.status < 400 && spec.responseType === 'bytes') bytes = new Uint8Array(await res.arrayBuffer());
        else text = await res.text();
      } catch (err) {
        attemptSignal.dispose();
        release?.();
        if (spec.signal?.aborted) {
          emit(0, 'aborted');
          throw spec.signal.reason;
        }
        const timedOut = attemptSignal.timedOut;
        emit(0, timedOut ? 'timeout' : (err as Error).message);
        if (idempotent && attempt < this.retry.retries) {
          await this.sleep(retryDelay(attempt, undefined, this.retry, this.random) ?? 0, spec.signal);
          attempt++;
          continue;
        }
        throw new NetworkError(method, url, timedOut, err);
      }
      attemptSignal.dispose();
      release?.();
      const status = res.status;
      emit(status);
      if (paced) {
        if (status === 429) this.pacer.throttled(parseRetryAfter(res.headers.get('retry-after')));
        else this.pacer.answered();
      }

      if (status === 401 && token !== undefined && provider && !renewed) {
        // One retry with a fresh token: the cached one may have been revoked or expired early.
        provider.invalidate(token);
        renewed = true;
        continue;
      }
      const retryable = status === 429 || ((status === 502 || status === 503 || status === 504) && idempotent);
      const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
      if (retryable && attempt < this.retry.retries) {
        const delay = retryDelay(attempt, retryAfterMs, this.retry, this.random);
        if (delay !== undefined) {
          await this.sleep(delay, spec.signal);
          attempt++;
          continue;
        }
      }
      if (status >= 400) throw errorFrom(method, url, status, res.headers.get('content-type'), text ?? '', retryAfterMs);
      return { status, url, headers: res.headers, data: decode(spec, method, url, res, text, bytes) };
    }
  }

  /** A turn of the connection's pacer, after one of the decoration lane for a decoration's request. */
  private async turn(signal: AbortSignal | undefined): Promise<() => void> {
    if (!this.decorating.getStore()) return this.pacer.acquire(signal);
    const lane = await this.decorationPacer.acquire(signal);
    try {
      const own = await this.pacer.acquire(signal);
      return () => {
        own();
        lane();
      };
    } catch (err) {
      lane();
      throw err;
    }
  }

  private headersFor(spec: RequestSpec<unknown>, token: string | undefined, contentType: string | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      Accept: spec.accept ?? 'application/hal+json',
      'User-Agent': this.options.userAgent,
    };
    if (spec.apiVersion ?? true) headers['API-Version'] = this.options.apiVersion ?? '1';
    if (token !== undefined) headers.Authorization = `Bearer ${token}`;
    if (contentType) headers['Content-Type'] = contentType;
    for (const [name, value] of Object.entries(spec.headers ?? {})) {
      if (value !== undefined) headers[name] = value;
    }
    return headers;
  }
}

function encodeBody(spec: RequestSpec<unknown>): { body?: string | Uint8Array; contentType?: string } {
  if (spec.json !== undefined) return { body: JSON.stringify(spec.json), contentType: 'application/json' };
  if (spec.form !== undefined) return { body: new URLSearchParams(spec.form).toString(), contentType: 'application/x-www-form-urlencoded' };
  if (spec.body !== undefined) return { body: spec.body.data, contentType: spec.body.contentType };
  return {};
}

function decode<T>(spec: RequestSpec<T>, method: string, url: string, res: FetchResponseLike, text: string | undefined, bytes: Uint8Array | undefined): T {
  const type = spec.responseType ?? 'json';
  if (type === 'none') return undefined as T;
  if (type === 'bytes') return bytes as T;
  if (type === 'text') return text as T;
  const contentType = res.headers.get('content-type');
  if (text === undefined || text.length === 0) {
    if (spec.schema) return parseWith(spec.schema, undefined, method, url);
    return undefined as T;
  }
  // Never parse HTML (a proxy's 2xx page, a login page) as JSON: say what came instead.
  if (!isJsonType(contentType)) {
    throw new ResponseShapeError(`${method} ${redact(url)} answered ${res.status} with ${contentType ?? 'no content type'} instead of JSON: ${excerpt(text)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ResponseShapeError(`${method} ${redact(url)} answered malformed JSON: ${(err as Error).message}`);
  }
  return spec.schema ? parseWith(spec.schema, value, method, url) : (value as T);
}

function parseWith<T>(schema: z.ZodType<T>, value: unknown, method: string, url: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  throw new ResponseShapeError(`${method} ${redact(url)} answered an unexpected shape: ${issues.join('; ')}`);
}

function errorFrom(method: string, url: string, status: number, contentType: string | null, text: string, retryAfterMs: number | undefined): ApiError {
  // 429 and 504 come as HTML (spec, Errors 2): only a JSON media type is ever parsed.
  if (isJsonType(contentType) && text.length > 0) {
    try {
      const parsed = ErrorBodySchema.safeParse(JSON.parse(text));
      if (parsed.success) {
        const body = parsed.data;
        return new ApiError({
          method,
          url,
          status,
          retryAfterMs,
          exceptionType: body.exceptionType ?? body.error ?? undefined,
          exceptionMessage: body.exceptionMessage ?? body.error_description ?? undefined,
        });
      }
    } catch {
      // Malformed JSON error body: fall through to the excerpt.
    }
  }
  return new ApiError({ method, url, status, retryAfterMs, bodyExcerpt: text ? excerpt(text) : undefined });
}

/** Combines the caller's signal with a per-attempt timeout and remembers which one fired. */
class AttemptSignal {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onOuterAbort = () => this.controller.abort(this.outer?.reason);
  timedOut = false;

  constructor(
    private readonly outer: AbortSignal | undefined,
    timeoutMs: number,
  ) {
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    if (outer?.aborted) this.controller.abort(outer.reason);
    else outer?.addEventListener('abort', this.onOuterAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.onOuterAbort);
  }
}
