// The request inspector's hooks on the emulator's fastify app: it keeps a copy of the first part of each textual
// request body as it is read, judges the request (rules.ts) and an error answer (explain.ts), puts the findings
// in the `Dam-Emulator-Findings` header, and journals the exchange (journal.ts keeps only what scrub.ts allows, decided
// as the entry is made). Routes under /_emulator (header policy 'devtools') are neither judged nor journaled.
import type { FastifyInstance, FastifyReply, FastifyRequest, preParsingHookHandler } from 'fastify';
import { PassThrough, type Readable } from 'node:stream';
import {
  DEVTOOLS_PREFIX,
  FINDINGS_HEADER,
  REQUEST_ID_HEADER,
  encodeFindingsHeader,
  type Finding,
  type JournalBody,
} from '../../core/inspector';
import type { TokenService } from '../auth';
import type { Clock } from '../context';
import { errors } from '../errors';
import { explainError, type KnownRoute } from './explain';
import { Journal, REPLAY_HEADER, keptEntry, toDetail, type JournalEntry } from './journal';
import { TOKEN_HEADERS } from './scrub';
import { requestFindings } from './rules';

/** Readers of the live stream at once, by default. */
export const DEFAULT_STREAM_READERS = 16;

export const DEFAULT_JOURNAL_SIZE = 1000;
/** Characters of each body the journal keeps. */
export const DEFAULT_BODY_LIMIT = 8192;
/** Findings one request may collect (rules plus whatever the pipeline adds). */
const MAX_FINDINGS = 40;
const MAX_HEADERS = 100;
/** Explanations that only repeat the error message: left out when a request rule already says why it was refused. */
const VAGUE_EXPLANATIONS: ReadonlySet<string> = new Set(['DE4000', 'DE4001', 'DE4100', 'DE4150', 'DE4200', 'DE4210', 'DE4999']);

export interface InspectorOptions {
  /** Entries kept; 0 turns the inspector off (no journal, no findings header). */
  journalSize: number;
  bodyLimit?: number;
  /** Readers of the live stream at once (default DEFAULT_STREAM_READERS). */
  streamReaders?: number;
  tokens: TokenService;
  clock: Clock;
}

interface BodyTap {
  chunks: Buffer[];
  kept: number;
  total: number;
  done: boolean;
}

interface RequestState {
  findings: Finding[];
  /** performance.now() when the request arrived. */
  start?: number;
  tap?: BodyTap;
  entry?: JournalEntry;
}

const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const NO_QUERY = new URLSearchParams();
declare module 'fastify' {
  interface FastifyRequest {
    /** The inspector's state of this request (decorated, so every request object keeps one shape). */
    damInspector: RequestState | null;
  }
}

function state(request: FastifyRequest): RequestState {
  return (request.damInspector ??= { findings: [] });
}

/**
 * Adds a finding to the request's entry and its `Dam-Emulator-Findings` header: how other parts of the pipeline
 * (body parsers, routes) say what they accepted leniently. Call it before the answer is sent.
 */
export function addFinding(request: FastifyRequest, f: Finding): void {
  const list = state(request).findings;
  if (list.length >= MAX_FINDINGS || list.some((x) => x.code === f.code && x.message === f.message)) return;
  list.push(f);
}

function splitUrl(request: FastifyRequest): [path: string, query: string] {
  const url = request.raw.url ?? request.url;
  const q = url.indexOf('?');
  return q < 0 ? [url, ''] : [url.slice(0, q), url.slice(q + 1)];
}

/** Every devtools route lives under /_emulator: the path says it without building the route's options. */
function isDevtoolsPath(path: string): boolean {
  return path.length >= DEVTOOLS_PREFIX.length && path.slice(0, DEVTOOLS_PREFIX.length).toLowerCase() === DEVTOOLS_PREFIX;
}

function isTextual(contentType: string | undefined): boolean {
  if (!contentType) return false;
  return /json|x-www-form-urlencoded|^text\/|xml|javascript|event-stream/i.test(contentType);
}

function headerText(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  return Array.isArray(v) ? v.join(', ') : String(v);
}

function declaredLength(request: FastifyRequest): number | null {
  const n = Number(request.headers['content-length']);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

function hasBody(request: FastifyRequest): boolean {
  const length = declaredLength(request);
  return (length !== null && length > 0) || request.headers['transfer-encoding'] !== undefined;
}

/** Keeps up to `limit` bytes of a body as it passes on to the parser, and counts the rest. */
function tapBody(payload: Readable, tap: BodyTap, limit: number): PassThrough {
  const through = new PassThrough();
  through.on('data', (chunk: Buffer) => {
    tap.total += chunk.length;
    if (tap.kept < limit) {
      const part = chunk.length + tap.kept > limit ? chunk.subarray(0, limit - tap.kept) : chunk;
      tap.chunks.push(part);
      tap.kept += part.length;
    }
  });
  through.on('end', () => (tap.done = true));
  payload.on('error', (err) => through.destroy(err));
  // Fastify checks the body against Content-Length with this count when a hook replaced the stream.
  Object.defineProperty(through, 'receivedEncodedLength', { get: () => (payload as Readable & { receivedEncodedLength?: number }).receivedEncodedLength ?? tap.total });
  return payload.pipe(through);
}

/** Text of at most `limit` characters (scrubbed as it is journaled); `truncated` when there was more. */
function keepText(text: string, limit: number, more: boolean, contentType: string | null, bytes: number | null): JournalBody {
  const truncated = more || text.length > limit;
  // A slice would keep the whole answer alive through the journal: copy the part that is kept.
  const cut = text.length > limit ? Buffer.from(text.slice(0, limit), 'utf8').toString('utf8') : text;
  return { contentType, bytes, text: cut, truncated };
}

function describe(bytes: number | null, contentType: string | null, what = ''): string {
  const size = bytes === null ? 'a body of undeclared size' : `${bytes.toLocaleString('en')} bytes`;
  return `${size}${contentType ? ` of ${contentType.split(';')[0]}` : ''}${what}`;
}

function requestBody(request: FastifyRequest, tap: BodyTap | undefined, limit: number): JournalBody | null {
  if (!hasBody(request) && !(tap && tap.total > 0)) return null;
  const contentType = headerText(request.headers['content-type']) ?? null;
  const declared = declaredLength(request);
  if (tap && tap.total > 0) {
    const text = Buffer.concat(tap.chunks).toString('utf8');
    return keepText(text, limit, tap.total > tap.kept, contentType, tap.done ? tap.total : (declared ?? tap.total));
  }
  if (isTextual(contentType ?? undefined)) {
    return { contentType, bytes: declared, truncated: false, note: `${describe(declared, contentType)}, not read: the answer came before the body was read` };
  }
  return { contentType, bytes: declared, truncated: false, note: `${describe(declared, contentType)}, not kept` };
}

function responseBody(payload: unknown, contentType: string | null, limit: number): { body: JournalBody | null; bytes: number | null } {
  if (payload === null || payload === undefined || payload === '') return { body: null, bytes: 0 };
  if (typeof payload === 'string') {
    const bytes = Buffer.byteLength(payload);
    return { body: keepText(payload, limit, false, contentType, bytes), bytes };
  }
  if (Buffer.isBuffer(payload)) {
    const bytes = payload.length;
    if (!isTextual(contentType ?? undefined)) return { body: { contentType, bytes, truncated: false, note: `${describe(bytes, contentType)}, not kept` }, bytes };
    return { body: keepText(payload.subarray(0, limit * 4).toString('utf8'), limit, payload.length > limit * 4, contentType, bytes), bytes };
  }
  return { body: { contentType, bytes: null, truncated: false, note: `${describe(null, contentType)}, streamed` }, bytes: null };
}

/** The answer's headers as one flat name/value list (scrubbed as it is journaled). */
function responseHeaders(reply: FastifyReply, bytes: number | null): string[] {
  const out: string[] = [];
  const headers = reply.getHeaders();
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || out.length >= MAX_HEADERS * 2) continue;
    if (Array.isArray(value)) for (const v of value) out.push(name, String(v));
    else out.push(name, String(value));
  }
  if (bytes !== null && headers['content-length'] === undefined && reply.statusCode !== 204 && reply.statusCode !== 304) out.push('content-length', String(bytes));
  return out;
}

/** The error object of an error answer, read back from it (every 4xx of the emulator carries one; a fault's HTML does not). */
function errorFromPayload(payload: unknown): { type: string; message: string } | undefined {
  if (typeof payload !== 'string' || payload.length > 20_000 || !payload.startsWith('{')) return undefined;
  try {
    const body = JSON.parse(payload) as { exceptionType?: unknown; exceptionMessage?: unknown };
    if (typeof body.exceptionType === 'string') return { type: body.exceptionType, message: String(body.exceptionMessage ?? '') };
  } catch {
    // Not the error object: explained by the status alone.
  }
  return undefined;
}

export interface Inspector {
  journal: Journal;
  /** Every route the app serves (method, pattern), for near-miss explanations. */
  routes: KnownRoute[];
  /** Sends entry `id` again through the app, with a fresh token for the same caller; resolves with the new entry. */
  replay(id: number): Promise<{ status: number; entry: JournalEntry | undefined }>;
  /** The live streams' readers (each ended when the app closes). */
  readonly streams: Set<{ end(): void }>;
  /** How many readers the stream takes at once. */
  readonly maxReaders: number;
}

/**
 * Installs the inspector on the root app (its hooks must see every route, so this is not an encapsulated plugin).
 * Call before the app's own onRequest hooks so a refused request is still journaled with its findings.
 */
export function installInspector(app: FastifyInstance, options: InspectorOptions): Inspector | undefined {
  if (options.journalSize <= 0) return undefined;
  const journal = new Journal(options.journalSize);
  app.decorateRequest('damInspector', null);
  const limit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const routes: KnownRoute[] = [];
  const streams = new Set<{ end(): void }>();

  const tap: preParsingHookHandler = (request, _reply, payload, done) => {
    if (!isTextual(headerText(request.headers['content-type']))) return done(null, payload);
    const t: BodyTap = { chunks: [], kept: 0, total: 0, done: false };
    state(request).tap = t;
    done(null, tapBody(payload, t, limit));
  };

  // Hooks are attached where they are needed (the body tap only to routes that take a body) and take callbacks,
  // not async functions: they run on every request, and a promise or a hook runner each is measurable.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) routes.push({ method, url: route.url });
    if (route.config?.headers === 'devtools' || !methods.some((m) => BODY_METHODS.has(m))) return;
    route.preParsing = route.preParsing === undefined ? [tap] : [...(Array.isArray(route.preParsing) ? route.preParsing : [route.preParsing]), tap];
  });

  // Fastify times a reply only when it has onResponse hooks or a logger; a stamp here is cheaper than either.
  app.addHook('onRequest', (request, _reply, done) => {
    request.damInspector = { findings: [], start: performance.now() };
    done();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const [path, rawQuery] = splitUrl(request);
    if (isDevtoolsPath(path)) return done(null, payload);
    const s = state(request);
    if (s.entry) return done(null, payload);
    const status = reply.statusCode;
    const route = request.is404 ? undefined : request.routeOptions;
    const findings: Finding[] = requestFindings({
      method: request.method,
      path,
      query: rawQuery ? new URLSearchParams(rawQuery) : NO_QUERY,
      headers: request.headers,
      policy: route ? (route.config?.headers ?? 'api') : undefined,
      body: request.body,
      hasBody: hasBody(request),
      bodyBytes: declaredLength(request),
      now: options.clock.now(),
    });
    for (const f of s.findings) if (!findings.some((x) => x.code === f.code && x.message === f.message)) findings.push(f);
    if (status >= 400) {
      // Read from the answer, not an onError hook: one hook fewer on every request, and every 4xx carries the error object.
      const error = errorFromPayload(payload);
      const explanation = explainError(
        {
          status,
          method: request.method,
          path,
          exceptionType: error?.type,
          exceptionMessage: error?.message,
          retryAfter: headerText(reply.getHeader('retry-after')),
          caller: request.caller ? { clientId: request.caller.clientId, userId: request.caller.userId } : null,
          hadAuthorization: request.headers.authorization !== undefined,
        },
        routes,
      );
      // A refusal a request rule already named needs no second, vaguer explanation; a specific one (401, 404, …) is kept.
      const vague = explanation !== undefined && VAGUE_EXPLANATIONS.has(explanation.code);
      if (explanation && !findings.some((f) => f.code === explanation.code || (vague && f.severity === 'refuse'))) findings.push(explanation);
    }
    const kept = findings.length > MAX_FINDINGS ? findings.slice(0, MAX_FINDINGS) : findings;
    const header = encodeFindingsHeader(kept);
    if (header) reply.header(FINDINGS_HEADER, header);

    const requestPart = requestBody(request, s.tap, limit);
    const response = responseBody(payload, headerText(reply.getHeader('content-type')) ?? null, limit);
    const replayOf = Number(request.headers[REPLAY_HEADER]);
    const elapsed = s.start === undefined ? 0 : performance.now() - s.start;
    s.entry = journal.add((id) => {
      reply.header(REQUEST_ID_HEADER, String(id));
      return keptEntry({
        id,
        at: options.clock.now().getTime() - elapsed,
        method: request.method,
        path,
        rawQuery,
        status,
        // Time to the answer's headers: what a streamed download takes to send is not in it.
        durationMs: Math.round(elapsed * 100) / 100,
        client: headerText(request.headers['user-agent']) ?? null,
        route: route?.url ?? null,
        caller: request.caller ? { clientId: request.caller.clientId, userId: request.caller.userId } : null,
        findings: kept,
        replayOf: replayOf > 0 && Number.isInteger(replayOf) ? replayOf : null,
        remoteAddress: request.socket?.remoteAddress ?? null,
        request: { headers: request.raw.rawHeaders, body: requestPart },
        response: { headers: responseHeaders(reply, response.bytes), body: response.body },
      });
    });
    done(null, payload);
  });

  app.addHook('preClose', (done) => {
    for (const stream of streams) stream.end();
    streams.clear();
    done();
  });

  return {
    journal,
    routes,
    streams,
    maxReaders: options.streamReaders ?? DEFAULT_STREAM_READERS,
    async replay(id) {
      const stored = journal.get(id);
      if (!stored) throw errors.noDataFound('journal entry', String(id));
      // What is replayed is what the journal shows: scrubbed, so a request that carried secrets is refused.
      const original = toDetail(stored);
      if (!original.replay.possible) throw errors.conflict(`Entry ${id} cannot be replayed: ${original.replay.reason ?? 'unknown reason'}.`);
      const headers: Record<string, string> = {};
      for (const [name, value] of original.request.headers) {
        const lower = name.toLowerCase();
        if (['content-length', 'connection', 'transfer-encoding', 'keep-alive', 'expect'].includes(lower) || TOKEN_HEADERS.has(lower)) continue;
        headers[lower] = headers[lower] === undefined ? value : `${headers[lower]}, ${value}`;
      }
      // The journal never keeps a token: a valid one is replaced by a fresh token for the same caller, an invalid one stays invalid.
      let fresh: string | undefined;
      for (const name of TOKEN_HEADERS) {
        const kept = original.request.headers.find(([n]) => n.toLowerCase() === name)?.[1];
        if (kept === undefined) continue;
        if (original.caller) fresh ??= (await options.tokens.issue(original.caller.clientId, original.caller.userId, 'api')).access_token;
        headers[name] = !fresh ? kept : name === 'authorization' ? `Bearer ${fresh}` : fresh;
      }
      headers[REPLAY_HEADER] = String(id);
      const answer = await app.inject({
        method: original.method as 'GET',
        url: `${original.path}${original.query ? `?${original.query}` : ''}`,
        headers,
        ...(original.request.body?.text !== undefined ? { payload: original.request.body.text } : {}),
      });
      const newId = Number(answer.headers[REQUEST_ID_HEADER.toLowerCase()]);
      return { status: answer.statusCode, entry: Number.isInteger(newId) ? journal.get(newId) : undefined };
    },
  };
}
