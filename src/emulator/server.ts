// Builds and starts the emulator: storage, migrations, seed, the fastify app with its hooks, and every route module.
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { TokenService } from './auth';
import { openBlobStore, type BlobStore } from './blobs';
import type { Clock, EmulatorConfig, EmulatorContext, HeaderPolicy, RouteInfo } from './context';
import { ApiError, errors } from './errors';
import { toPlainJson, wantsPlainJson, isAcceptable } from './hal';
import { routeModules } from './routes';
import { migrations } from './storage/migrations';
import { migrate } from './storage/migrate';
import { openStore } from './storage/open';
import { openPglite, type PgliteStore } from './storage/pglite';
import type { Store } from './storage/store';
import { trackWrites } from './storage/tracking';
import { seedStore } from './seed';
import { growRecords } from './seed/scale';

export interface EmulatorOptions {
  /** 0 picks a free port; default 7070. */
  port?: number;
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** A folder for persistent state, or ':memory:'. Default `.dam-emulator` in the current folder. */
  data?: string;
  /** Seed used when the store is empty; default 'demo'. Ignored for a store that was seeded before. */
  seed?: 'demo' | 'empty';
  /** Grows the tenant to this many records (seed/scale.ts), for scaling measurements; a larger tenant is left as it is. */
  records?: number;
  /** `expires_in` of new access tokens in seconds; default 3600. */
  tokenTtl?: number;
  /** A postgres:// URL: used instead of PGlite (schema from its `schema` parameter). */
  database?: string;
  /** Injects 429 / 504 answers at the given rate (0..1) on API routes. */
  faults?: { rate: number; kinds?: ('429' | '504')[] };
  log?: (line: string) => void;
  /** Replaces the wall clock (tests of expiry). */
  clock?: Clock;
}

export interface RunningEmulator {
  url: string;
  port: number;
  close(): Promise<void>;
}

const systemClock: Clock = { now: () => new Date() };

/** Seeded in-memory databases by seed name, reused by later ':memory:' starts in the same process. */
const memoryTemplates = new Map<string, Promise<Blob>>();

async function tenantSecret(store: Store): Promise<string> {
  const rows = await store.query<{ value: string }>(`SELECT value FROM meta WHERE key = 'secret'`);
  if (rows[0]) return rows[0].value;
  const secret = randomBytes(32).toString('hex');
  await store.query(`INSERT INTO meta (key, value) VALUES ('secret', $1) ON CONFLICT (key) DO NOTHING`, [secret]);
  return (await store.query<{ value: string }>(`SELECT value FROM meta WHERE key = 'secret'`))[0].value;
}

/** Postgres error classes caused by the values a request carried (bad casts, constraint violations). */
function storageClientError(err: unknown): ApiError | undefined {
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return undefined;
  const message = (err as Error).message;
  if (code === '23505') return errors.conflict(`A resource with the same key already exists (${message}).`);
  if (code === '23503') return errors.conflict(`The resource is referenced by or refers to another resource (${message}).`);
  if (code.startsWith('22') || code.startsWith('23')) return errors.badRequest(`Invalid value: ${message}`);
  return undefined;
}

function toApiError(err: FastifyError | Error, log: (line: string) => void): ApiError {
  if (err instanceof ApiError) return err;
  const fe = err as FastifyError;
  if (fe.validation) return errors.validation(fe.message);
  if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return errors.unsupportedMediaType(String(fe.message));
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return errors.payloadTooLarge();
  const fromStore = storageClientError(err);
  if (fromStore) return fromStore;
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new ApiError(fe.statusCode, 'Dam.Core.Common.BadRequestException', fe.message || 'Malformed request.');
  }
  log(`internal error: ${err.stack ?? String(err)}`);
  return new ApiError(500, 'Dam.Core.Common.InternalServerException', 'An unexpected error occurred.');
}

function sendError(reply: FastifyReply, error: ApiError) {
  return reply.code(error.status).headers(error.headers).type('application/json; charset=utf-8').send(error.body());
}

const faultHtml = (status: number, title: string) =>
  `<!DOCTYPE html><html><head><title>${status} ${title}</title></head><body><h1>${status} ${title}</h1></body></html>`;

function headerPolicy(request: FastifyRequest): HeaderPolicy {
  return request.routeOptions.config?.headers ?? 'api';
}

export async function buildApp(
  rawStore: Store,
  options: EmulatorOptions,
  origin: () => string,
  givenBlobs?: BlobStore,
): Promise<{ app: FastifyInstance; ctx: EmulatorContext; idle(): Promise<void> }> {
  // Without a blob store from the caller (tests that build the app on their own store), a private one lives as long as the app.
  const blobs = givenBlobs ?? openBlobStore(undefined);
  const log = options.log ?? (() => undefined);
  const store = trackWrites(rawStore);
  const clock = options.clock ?? systemClock;
  const config: EmulatorConfig = { tokenTtl: options.tokenTtl ?? 3600, pageSizeDefault: 50, pageSizeMax: 1000, recordsPageSizeMax: 100 };
  const tokens = new TokenService(store, clock, config.tokenTtl);
  const secret = await tenantSecret(store);
  const routes: RouteInfo[] = [];
  const pending = new Set<Promise<void>>();

  const app = Fastify({
    logger: false,
    bodyLimit: 16 * 1024 * 1024,
    requestTimeout: 60_000,
    connectionTimeout: 60_000,
    return503OnClosing: false,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 500 },
    ajv: { customOptions: { coerceTypes: 'array', allErrors: false } },
  });

  const ctx: EmulatorContext = {
    store,
    errors,
    config,
    clock,
    auth: tokens,
    secret,
    routes,
    tokens,
    blobs,
    background(task) {
      const run = task().catch((err) => log(`background task failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`));
      pending.add(run);
      void run.finally(() => pending.delete(run));
    },
    log,
    origin(request) {
      const host = request.headers.host;
      if (typeof host === 'string' && /^([A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(:\d{1,5})?$/.test(host)) return `http://${host}`;
      return origin();
    },
  };

  app.decorateRequest('caller', null);
  app.addHook('onRoute', (route) => {
    routes.push({ method: route.method, url: route.url, schema: route.schema, bodySchema: route.config?.bodySchema, policy: route.config?.headers ?? 'api' });
  });

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  const faults = options.faults && options.faults.rate > 0 ? options.faults : undefined;
  const faultKinds = faults?.kinds?.length ? faults.kinds : (['429', '504'] as const);

  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) return;
    const policy = headerPolicy(request);
    if (faults && policy === 'api' && Math.random() < faults.rate) {
      const kind = faultKinds[Math.floor(Math.random() * faultKinds.length)];
      // The live gateway answers these in HTML, never as the error object.
      if (kind === '429') return reply.code(429).header('Retry-After', '1').type('text/html; charset=utf-8').send(faultHtml(429, 'Too Many Requests'));
      return reply.code(504).type('text/html; charset=utf-8').send(faultHtml(504, 'Gateway Timeout'));
    }
    const h = request.headers;
    if (policy === 'docs' || policy === 'login') return;
    if (!h['user-agent']) throw errors.missingHeader('User-Agent');
    if (policy === 'download') return;
    const accept = typeof h.accept === 'string' ? h.accept : '';
    if (!accept) throw errors.missingHeader('Accept');
    if (!isAcceptable(accept)) throw errors.notAcceptable(accept);
    if (policy === 'discovery') return;
    request.caller = await tokens.authenticate(typeof h.authorization === 'string' ? h.authorization : undefined);
    const version = h['api-version'];
    if (version === undefined || version === '') throw errors.missingHeader('API-Version');
    if (String(version).trim() !== '1') throw errors.unsupportedApiVersion(String(version).slice(0, 40));
  });

  // HAL is the default on the core API; a client asking for plain application/json gets the same data without
  // _links/_embedded. Other areas (work management, analytics) keep their own shapes and media types.
  app.addHook('preSerialization', async (request, reply, payload) => {
    const path = request.url.split('?')[0].toLowerCase();
    const core = path.startsWith('/api/core') || path === '/' || path === '/supportedversions';
    if (!core || reply.statusCode >= 400) return payload;
    if (headerPolicy(request) === 'docs' || payload === null || typeof payload !== 'object') return payload;
    if (wantsPlainJson(request.headers.accept)) {
      reply.type('application/json; charset=utf-8');
      return toPlainJson(payload);
    }
    reply.type('application/hal+json; charset=utf-8');
    return payload;
  });

  app.setErrorHandler((err: FastifyError, _request, reply) => sendError(reply, toApiError(err, log)));
  app.setNotFoundHandler((request, reply) => sendError(reply, errors.routeNotFound(request.method, request.url.slice(0, 200))));

  if (!givenBlobs) app.addHook('onClose', () => blobs.close());
  for (const register of routeModules) await register(app, ctx);
  const idle = async () => {
    while (pending.size) await Promise.allSettled([...pending]);
  };
  return { app, ctx, idle };
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const seed = options.seed ?? 'demo';
  const inMemory = !options.database && options.data === ':memory:';
  const template = inMemory ? memoryTemplates.get(seed) : undefined;
  const store = template
    ? await openPglite(':memory:', await template)
    : await openStore({ data: options.data ?? '.dam-emulator', database: options.database });
  log(`opened ${store.kind} store in ${Date.now() - started} ms`);
  let app: FastifyInstance | undefined;
  // Blobs sit beside a persistent PGlite database; a :memory: or PostgreSQL-backed emulator keeps them in a private temp folder.
  const blobs = openBlobStore(inMemory || options.database ? undefined : (options.data ?? '.dam-emulator'));
  try {
    // The store's open holds the data folder, so no other emulator writes these blobs: what is in their temporary
    // folder now is what a killed process was writing.
    const swept = await blobs.sweepTemporary();
    if (swept) log(`removed ${swept} unfinished blob file(s) a stopped emulator left`);
    const applied = await migrate(store, migrations);
    if (applied.length) log(`applied migrations ${applied.join(', ')} (${Date.now() - started} ms)`);
    await seedStore(store, seed, log);
    if (inMemory && !template && 'snapshot' in store) {
      // Later in-memory starts in this process (test suites) begin from this seeded copy instead of
      // running initdb and the seeders again. Taken before the tenant secret exists, so each start
      // still gets its own secret and cursors stay bound to one tenant.
      const snapshot = (store as PgliteStore).snapshot();
      memoryTemplates.set(seed, snapshot);
      snapshot.catch(() => memoryTemplates.delete(seed));
      await snapshot;
    }
    // After the template: the seed's template stays the seed's, whatever a start grows on top of it.
    if (options.records) await growRecords(store, options.records, log);
    let url = '';
    const built = await buildApp(store, options, () => url, blobs);
    app = built.app;
    const host = options.host ?? '127.0.0.1';
    await app.listen({ port: options.port ?? 7070, host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : (options.port ?? 7070);
    url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    const running = app;
    let closed: Promise<void> | undefined;
    return {
      url,
      port,
      close() {
        closed ??= (async () => {
          await running.close();
          await built.idle();
          await store.close();
          await blobs.close();
        })();
        return closed;
      },
    };
  } catch (err) {
    await app?.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    await blobs.close().catch(() => undefined);
    throw err;
  }
}
