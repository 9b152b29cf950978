// Builds and starts the emulator: storage, migrations, seed, the fastify app with its hooks, and every route module.
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { TokenService } from './auth';
import { openBlobStore, type BlobStore } from './blobs';
import type { Clock, EmulatorConfig, EmulatorContext, HeaderPolicy } from './context';
import { ApiError, errors } from './errors';
import { toPlainJson, wantsPlainJson, isAcceptable, supportsApiVersion } from './hal';
import { parseLenientJson } from './lenientJson';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { OPENAPI_BASE } from './docs';
import { DEFAULT_JOURNAL_SIZE, addFinding, finding, registerInspector } from './inspector';
import { routeModules } from './routes';
import { openStore, postgresFilesFolder } from './storage/open';
import { lockFolder, openPglite, type PgliteStore } from './storage/pglite';
import type { Store } from './storage/store';
import { trackWrites } from './storage/tracking';
import { freshTenant } from './state/freshTenant';
import { StateGate } from './state/gate';
import { holdRequestsAtGate } from './state/holdRequests';
import { preparedTenant } from './state/prepared';
import { EmulatorState } from './state/service';
import { prepareStore, readImport, sameSchema } from './state/startup';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliDecompress } from 'node:zlib';
import { readTenantFolder, seedFromFolder, seedSyntheticRecords } from './seed/tenantFolder';
import { growRecords } from './seed/scale';
import { CountIndexHolder, type CountIndexMode, type CountIndexTuning } from './search/countIndex';
import { warmUpSearches } from './search/warmUp';
import { registerTenantLimits } from './tenantLimits';
import { tenantLimitsConfig, type TenantLimitsOptions } from '../core/limits';
import { startMark } from './startTrace';

startMark('server module evaluated');

const ROUTED_METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface EmulatorOptions {
  /** 0 picks a free port; default 7070. */
  port?: number;
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /**
   * A folder for persistent state, or ':memory:'. Default `.dam-emulator` in the current folder. With `database` it
   * holds the files (blobs, snapshots); default then `.dam-emulator/postgres/<host>_<port>/<database>/<schema>`.
   */
  data?: string;
  /** Seed used when the store is empty; default 'demo'. Ignored for a store that was seeded before. */
  seed?: 'demo' | 'empty';
  /** `--seed DIR`: a folder `dam tenant pull` wrote; the emulator starts on that configuration (seed/tenantFolder.ts). */
  seedDir?: string;
  /** Grows the tenant to this many records (seed/scale.ts), for scaling measurements; a larger tenant is left as it is. */
  records?: number;
  /** `expires_in` of new access tokens in seconds; default 3600. */
  tokenTtl?: number;
  /** A postgres:// URL: used instead of PGlite (schema from its `schema` parameter). */
  database?: string;
  /** Requests the inspector keeps (GET /_emulator/requests); default 1000, 0 turns the inspector off. */
  journalSize?: number;
  /** Readers the request stream takes at once (default 16; tests lower it). */
  streamReaders?: number;
  /** Injects 429 / 504 answers at the given rate (0..1) on API routes. */
  faults?: { rate: number; kinds?: ('429' | '504')[] };
  log?: (line: string) => void;
  /** Replaces the wall clock (tests of expiry). */
  clock?: Clock;
  /** A saved state (a snapshot folder) loaded at start over whatever the data folder holds. */
  importDir?: string;
  /** A folder the state is saved to on a clean stop (close(), SIGINT, SIGTERM). */
  exportOnExit?: string;
  /**
   * Where named snapshots live; default `<data>/snapshots` (for PostgreSQL without `data`, the schema's folder under
   * `.dam-emulator/postgres/`), or a private temporary folder for :memory:.
   */
  snapshotHome?: string;
  /**
   * Counting search hits from an in-memory index (search/countIndex.ts): `auto` (default) builds it once a count in
   * SQL was slow, `always` before every count it can serve (tests), `off` never.
   */
  searchIndex?: CountIndexMode;
  /** Tests: the search index's sizes and thresholds (search/countIndex.ts). */
  searchIndexTuning?: CountIndexTuning;
  /**
   * Where the search index is kept between starts (search/indexFile.ts): by default `search-index.bin` in a PGlite
   * data folder; none for an in-memory or PostgreSQL emulator (no data folder of its own) unless given; `false`: none
   * (benchmarks compare a start without it).
   */
  searchIndexFile?: string | false;
  /**
   * The tenant's limits (tenantLimits.ts): the rate, queue and single-upload size; `enforce` (`--tenant-limits`)
   * refuses as a tenant does, otherwise they are only reported as findings. Default: a tenant's numbers, reported.
   */
  tenantLimits?: TenantLimitsOptions;
}

export interface RunningEmulator {
  url: string;
  port: number;
  /** The listening HTTP server (tests count its connections). */
  server: Server;
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
  // PostgreSQL stores no NUL character: in text it is 22021, in jsonb 22P05. Say which character, not the encoding.
  if ((code === '22021' || code === '22P05') && /0x00|\\u0000/.test(message)) return errors.badRequest('A text value contains the NUL character (\\u0000), which cannot be stored: remove it.');
  if (code.startsWith('22') || code.startsWith('23')) return errors.badRequest(`Invalid value: ${message}`);
  return undefined;
}

function toApiError(err: FastifyError | Error, log: (line: string) => void, request?: FastifyRequest): ApiError {
  if (err instanceof ApiError) return err;
  const fe = err as FastifyError;
  if (fe.validation) return errors.validation(fe.message);
  if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return errors.unsupportedMediaType(String(request?.headers['content-type'] ?? '(none)'));
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return errors.payloadTooLarge(`The request body is larger than ${BODY_LIMIT} bytes; send files through the upload service.`);
  if (fe.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return errors.badRequest('The Content-Length header does not match the body.');
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

/** JSON bodies may be this large; files go through the upload service. */
const BODY_LIMIT = 16 * 1024 * 1024;
/** Longer request URIs answer 414 (IIS's default limit is 4 KB for the path; Kestrel takes 8 KB request lines). */
const MAX_URI = 8 * 1024;

/**
 * A raw HTTP answer with the error object, for requests Node refuses before fastify sees them (a header block over
 * Node's limit, a malformed request line): the connection is closed after it.
 */
function rawErrorResponse(error: ApiError): string {
  const body = JSON.stringify(error.body());
  const reason = error.status === 414 ? 'URI Too Long' : error.status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
  return `HTTP/1.1 ${error.status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/** What Node refused: an over-long request line is a URI too long (414), an over-long header block 431, the rest 400. */
function clientErrorOf(err: Error & { code?: string; rawPacket?: unknown }): ApiError {
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    const raw = Buffer.isBuffer(err.rawPacket) ? err.rawPacket : Buffer.alloc(0);
    const lineEnd = raw.indexOf('\r\n');
    const requestLine = lineEnd < 0 ? raw.length : lineEnd;
    if (requestLine > MAX_URI) return errors.uriTooLong(requestLine, MAX_URI);
    return errors.headersTooLarge(`The request headers are larger than the ${Math.round(HEADER_LIMIT / 1024)} KB the service reads.`);
  }
  return errors.malformedBody(`The request is not valid HTTP (${err.code ?? 'parse error'}).`);
}

/** Node's limit on the request line and headers together. */
const HEADER_LIMIT = 32 * 1024;

/**
 * A validator or serialiser that is compiled when it is first called. Fastify reads a failed validation's reasons from
 * the function's `errors`, so the wrapper carries them over from the compiled one.
 */
function onFirstCall<F extends (data: never) => unknown>(compile: () => F): F {
  let compiled: F | undefined;
  const wrapper = ((data: never) => {
    compiled ??= compile();
    const result = compiled(data);
    (wrapper as { errors?: unknown }).errors = (compiled as { errors?: unknown }).errors;
    return result;
  }) as F;
  return wrapper;
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
  const gate = new StateGate();
  const store = trackWrites(rawStore, gate.guard);
  const clock = options.clock ?? systemClock;
  const host = options.host ?? '127.0.0.1';
  const config: EmulatorConfig = {
    tokenTtl: options.tokenTtl ?? 3600,
    pageSizeDefault: 50,
    pageSizeMax: 1000,
    recordsPageSizeMax: 100,
    loopbackOnly: /^(127\.|::1$|localhost$)/.test(host),
    limits: tenantLimitsConfig(options.tenantLimits),
  };
  startMark('buildApp begins');
  const tokens = new TokenService(store, clock, config.tokenTtl);
  const secret = await tenantSecret(store);
  const pending = new Set<Promise<void>>();
  const background = (task: () => Promise<void>) => {
    const run = gate.bind(task).catch((err) => log(`background task failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`));
    pending.add(run);
    void run.finally(() => pending.delete(run));
  };
  const searchIndex = new CountIndexHolder(store, options.searchIndex ?? 'auto', background, log, options.searchIndexTuning, () => gate.inFlight > 0, options.searchIndexFile || undefined);

  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT,
    requestTimeout: 60_000,
    connectionTimeout: 60_000,
    // Clients keep their connections (api/agents.ts closes an idle one after 30 s): the server holds an idle one
    // longer, so it is always the client that closes and never a request that races the server's close.
    keepAliveTimeout: 65_000,
    return503OnClosing: false,
    http: { maxHeaderSize: HEADER_LIMIT },
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 500 },
    // A URL fastify cannot decode (`/%`) is a 400 with the error object, like every other refusal.
    frameworkErrors: (error, request, reply) => {
      const apiError = error.code === 'FST_ERR_BAD_URL' ? errors.badRequest(`The request URL is not validly percent-encoded: '${String(request.url).slice(0, 200)}'.`) : toApiError(error, log, request);
      void sendError(reply, apiError);
    },
    clientErrorHandler: (err, socket) => {
      if (socket.writable) socket.end(rawErrorResponse(clientErrorOf(err)));
      else socket.destroy();
    },
  });
  // Requests are validated by each route's zod schemas (routeTable.ts), leniently as the service reads them; the JSON
  // Schemas on the routes only describe them in the OpenAPI document. Answers are serialised as they are.
  // The emulator's own devtools routes (/_emulator) are not the tenant's API and keep fastify's usual JSON Schema
  // validation and serialisation.
  const devtoolsValidator = AjvCompiler()({}, { customOptions: { coerceTypes: 'array', useDefaults: true, removeAdditional: true, allErrors: false } });
  const devtoolsSerializer = SerializerSelector()({}, {});
  const isDevtools = (url: string) => url.startsWith('/_emulator');
  // The devtools' validators and serialisers are compiled on their route's first request: compiling them all (and
  // ajv's meta-schema) at start cost about a tenth of a new folder's start, for routes most sessions never call.
  app.setValidatorCompiler((route) => (isDevtools(route.url) ? onFirstCall(() => devtoolsValidator(route)) : (data: unknown) => ({ value: data })));
  app.setSerializerCompiler((route) => (isDevtools(route.url) ? onFirstCall(() => devtoolsSerializer(route as Parameters<typeof devtoolsSerializer>[0])) : (data) => JSON.stringify(data)));
  const home = options.snapshotHome ?? mkdtempSync(join(tmpdir(), 'dam-snapshots-'));
  if (!options.snapshotHome) app.addHook('onClose', async () => rmSync(home, { recursive: true, force: true }));
  const preparedStates = (['demo', 'empty'] as const).flatMap((seed) => preparedTenant(seed)?.state ?? []);
  const state = new EmulatorState({ store, blobs, gate, home, preparedStates, freshTenant: (seed) => freshTenant(seed, log, memoryTemplates.get(seed)), log });
  state.onReplaced(() => tokens.forget());
  await state.sweep(options.exportOnExit);
  startMark('state swept');

  const ctx: EmulatorContext = {
    store,
    errors,
    config,
    clock,
    auth: tokens,
    secret,
    tokens,
    blobs,
    state,
    background,
    log,
    searchIndex,
    origin(request) {
      const host = request.headers.host;
      if (typeof host === 'string' && /^([A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(:\d{1,5})?$/.test(host)) return `http://${host}`;
      return origin();
    },
  };

  app.decorateRequest('caller', null);

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  // JSON as ASP.NET reads it: an empty body is no body, single quotes and other JSON5 are accepted, invalid UTF-8 is not.
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser(/^(application\/(.+\+)?json|text\/json)(\s*;.*)?$/i, { parseAs: 'buffer' }, (request, body, done) => {
    try {
      const parsed = parseLenientJson(body as Buffer, (what) => addFinding(request, finding('DE6002', `${what}.`, 'Send strict JSON (double quotes).')));
      if (parsed === undefined) addFinding(request, finding('DE6003', 'A JSON Content-Type with an empty body: read as no body.', 'Send no Content-Type without a body.'));
      done(null, parsed);
    } catch (err) {
      done(err as Error, undefined);
    }
  });

  // Before any route: a route keeps the error handler set when it is added.
  app.setErrorHandler((err: FastifyError, request, reply) => sendError(reply, toApiError(err, log, request)));
  // ASP.NET's endpoint routing answers 405 with an Allow header when the path exists under other methods: a second
  // router (fastify's own, find-my-way, with the same options) holds every route's path to tell the two apart.
  // Built on the first unknown route, not at start (it cost about 80 ms of every start).
  const routed: { method: HTTPMethod; url: string }[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routed.push({ method: method as HTTPMethod, url: route.url });
  });
  let paths: ReturnType<typeof FindMyWay> | undefined;
  const routerOfPaths = () => {
    if (paths) return paths;
    paths = FindMyWay({ caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 500 });
    for (const { method, url } of routed) if (!paths.hasRoute(method, url)) paths.on(method, url, () => undefined);
    return paths;
  };
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const allowed = ROUTED_METHODS.filter((m) => m !== request.method && routerOfPaths().find(m, path) !== null);
    if (allowed.length === 0 || request.method === 'OPTIONS') return sendError(reply, errors.routeNotFound(request.method, request.url.slice(0, 200)));
    void reply.header('Allow', allowed.join(', '));
    return sendError(reply, errors.methodNotAllowed(request.method.slice(0, 20)));
  });

  // Before the header checks below, so a request they refuse is still journaled with its findings.
  // The OpenAPI document is generated from the routes' own schemas (routeTable.ts), so it cannot drift from them;
  // registered before any route, since it collects them as they are added.
  await app.register(swagger, { openapi: OPENAPI_BASE, hideUntagged: false });
  registerInspector(app, { journalSize: options.journalSize ?? DEFAULT_JOURNAL_SIZE, streamReaders: options.streamReaders, host: options.host, tokens, clock });
  // After the inspector (a refusal is journaled, a queued request's wait is in its duration) and before the state
  // gate and authentication: a request waiting for its turn holds neither the gate nor a database connection.
  registerTenantLimits(app, config.limits, clock);
  holdRequestsAtGate(app, gate);

  const faults = options.faults && options.faults.rate > 0 ? options.faults : undefined;
  const faultKinds = faults?.kinds?.length ? faults.kinds : (['429', '504'] as const);

  // Browser clients (a CMS plugin, a PKCE web app) call the content API, the upload service and the token endpoint
  // across origins. The analytics host sends no CORS headers (real-service-notes), and nothing else is for pages.
  const crossOrigin = /^\/(api\/core|uploads|login)(\/|$|\?)/i;
  await app.register(cors, {
    delegator: (request, callback) => callback(null, { origin: crossOrigin.test(String(request.url)), maxAge: 600, strictPreflight: false }),
  });

  app.addHook('onRequest', async (request, reply) => {
    if (request.url.length > MAX_URI) throw errors.uriTooLong(request.url.length, MAX_URI);
    // A CORS preflight carries no credentials; @fastify/cors answers it.
    if (request.is404 || request.method === 'OPTIONS') return;
    const policy = headerPolicy(request);
    if (faults && (policy === 'api' || policy === 'service') && Math.random() < faults.rate) {
      const kind = faultKinds[Math.floor(Math.random() * faultKinds.length)];
      // The live gateway answers these in HTML, never as the error object.
      if (kind === '429') return reply.code(429).header('Retry-After', '1').type('text/html; charset=utf-8').send(faultHtml(429, 'Too Many Requests'));
      return reply.code(504).type('text/html; charset=utf-8').send(faultHtml(504, 'Gateway Timeout'));
    }
    const h = request.headers;
    if (policy === 'docs' || policy === 'login' || policy === 'blob' || policy === 'devtools') return;
    if (!h['user-agent']) throw errors.missingHeader('User-Agent');
    if (policy === 'download') return;
    const accept = typeof h.accept === 'string' ? h.accept : '';
    if (policy !== 'service') {
      if (!accept) throw errors.missingHeader('Accept');
      if (!isAcceptable(accept)) throw errors.notAcceptable(accept);
    }
    if (policy === 'discovery') return;
    // Work-management clients also send the token as X-Access-Token (a public configuration tool does).
    const xAccess = policy === 'service' && !h.authorization && typeof h['x-access-token'] === 'string' ? `Bearer ${h['x-access-token']}` : undefined;
    request.caller = await tokens.authenticate(typeof h.authorization === 'string' ? h.authorization : xAccess);
    if (policy === 'api') {
      const version = h['api-version'];
      if (version === undefined || version === '') throw errors.missingHeader('API-Version');
      if (!supportsApiVersion(String(version))) throw errors.unsupportedApiVersion(String(version).slice(0, 40));
    }
    // Rights the route declared: refused before its body is read.
    const config = request.routeOptions.config;
    for (const right of config?.rights ?? []) tokens.require(request, right, config?.action);
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


  if (!givenBlobs) app.addHook('onClose', () => blobs.close());
  // A build in progress stops at its next statement: closing does not wait for a million records to be read.
  app.addHook('onClose', async () => searchIndex.close());
  startMark('app set up, before the routes');
  for (const register of routeModules) await register(app, ctx);
  const idle = async () => {
    while (pending.size) await Promise.allSettled([...pending]);
  };
  return { app, ctx, idle };
}

/** The prepared data directory as PGlite loads one into memory: the tarball's bytes, uncompressed. */
async function preparedTemplate(tarball: string): Promise<Blob> {
  const tar = await promisify(brotliDecompress)(await readFile(tarball));
  return new Blob([tar as Uint8Array<ArrayBuffer>]);
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const imported = await readImport(options.importDir);
  // A tenant folder is read and checked before anything opens: a broken file stops the start with its name.
  const tenantFolder = options.seedDir ? await readTenantFolder(options.seedDir) : undefined;
  // What --import replaces need not be seeded first; a tenant folder goes on top of the empty seed.
  const seed = imported || tenantFolder ? 'empty' : (options.seed ?? 'demo');
  const inMemory = !options.database && options.data === ':memory:';
  // A new data folder starts from the tenant prepared at build time, unless an older snapshot needs the old schema first.
  const prepared = imported && !sameSchema(imported) ? undefined : preparedTenant(seed);
  const template = inMemory ? (memoryTemplates.get(seed) ?? (prepared ? preparedTemplate(prepared.pgdata) : undefined)) : undefined;
  const store = template
    ? await openPglite(':memory:', await template)
    : await openStore({ data: options.data ?? '.dam-emulator', database: options.database, prepared: prepared?.pgdata, records: options.records });
  log(`opened ${store.kind} store in ${Date.now() - started} ms`);
  startMark('store opened');
  let app: FastifyInstance | undefined;
  // The folder of the files (blobs, named snapshots): the data folder, beside a persistent PGlite database; for
  // PostgreSQL `--data` or one folder per schema under the default data location; none (private temporary folders)
  // for :memory:.
  const filesHome = inMemory || options.data === ':memory:' ? undefined : options.database ? (options.data ?? postgresFilesFolder(options.database)) : (options.data ?? '.dam-emulator');
  let unlockFiles = () => undefined as void;
  let blobs: BlobStore;
  try {
    // PGlite's open holds its data folder; a PostgreSQL schema's folder is held here the same way, by one emulator.
    if (options.database && filesHome) {
      mkdirSync(filesHome, { recursive: true });
      unlockFiles = lockFolder(resolve(filesHome));
      log(`files (uploads, renditions, snapshots) are kept in ${resolve(filesHome)}`);
    }
    blobs = openBlobStore(filesHome);
  } catch (err) {
    unlockFiles();
    await store.close().catch(() => undefined);
    throw err;
  }
  try {
    // The store's open (or, for PostgreSQL, the lock above) holds the folder, so no other emulator writes these
    // blobs: what is in their temporary folder now is what a killed process was writing.
    const swept = await blobs.sweepTemporary();
    if (swept) log(`removed ${swept} unfinished blob file(s) a stopped emulator left`);
    await prepareStore(store, blobs.dir, { seed, importDir: options.importDir }, log);
    startMark('store prepared');
    if (inMemory && !memoryTemplates.has(seed) && !imported && 'snapshot' in store) {
      // Later in-memory starts in this process (test suites) begin from this seeded copy instead of
      // running initdb and the seeders again. Taken before the tenant secret exists, so each start
      // still gets its own secret and cursors stay bound to one tenant.
      const snapshot = (store as PgliteStore).snapshot();
      memoryTemplates.set(seed, snapshot);
      snapshot.catch(() => memoryTemplates.delete(seed));
      await snapshot;
    }
    if (tenantFolder) await seedFromFolder(store, tenantFolder, log);
    // After the template: the seed's template stays the seed's, whatever a start grows on top of it.
    if (options.records) {
      if (tenantFolder) await seedSyntheticRecords(store, tenantFolder, options.records, log);
      else await growRecords(store, options.records, log);
    }
    let url = '';
    const snapshotHome = options.snapshotHome ?? (filesHome === undefined ? undefined : join(filesHome, 'snapshots'));
    const searchIndexFile = options.searchIndexFile ?? (inMemory || options.database ? undefined : join(options.data ?? '.dam-emulator', 'search-index.bin'));
    const built = await buildApp(store, { ...options, snapshotHome, searchIndexFile }, () => url, blobs);
    app = built.app;
    startMark('app built');
    // On a large tenant the search index is there before the first request (search/countIndex.ts warm()).
    // And its search path warm (search/warmUp.ts): the first request of a search pays no process's first.
    const warmed = await built.ctx.searchIndex.warm();
    startMark('search index ready');
    if (warmed) await warmUpSearches(built.ctx, log);
    const host = options.host ?? '127.0.0.1';
    await app.listen({ port: options.port ?? 7070, host });
    startMark('listening');
    // An index built at this start is kept for the next one now, not only at a clean stop (a killed emulator's next
    // start loads it too); one loaded from the folder is there already.
    if (warmed) built.ctx.background(async () => void (await built.ctx.searchIndex.save()));
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : (options.port ?? 7070);
    url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    const running = app;
    let closed: Promise<void> | undefined;
    return {
      url,
      port,
      server: running.server,
      close() {
        closed ??= (async () => {
          await running.close();
          await built.idle();
          try {
            if (options.exportOnExit) {
              const saved = await built.ctx.state.exportTo(options.exportOnExit);
              log(`exported the state to ${options.exportOnExit} (${saved.records} records, ${saved.blobs.count} blobs)`);
            }
          } finally {
            // The index as it is at the stop, for the next start (search/indexFile.ts); nothing if not current.
            await built.ctx.searchIndex.save();
            await store.close();
            await blobs.close();
            unlockFiles();
          }
        })();
        return closed;
      },
    };
  } catch (err) {
    await app?.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    await blobs.close().catch(() => undefined);
    unlockFiles();
    throw err;
  }
}
