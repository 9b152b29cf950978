// The request inspector's hooks on the emulator's fastify app: it keeps a copy of the first part of each textual
// request body as it is read, judges the request (rules.ts) and an error answer (explain.ts), puts the findings
// in the `Dam-Emulator-Findings` header, and journals the exchange with secrets scrubbed. Routes under
// /_emulator (header policy 'devtools') are neither judged nor journaled, and answer only loopback callers.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
import type { Clock, HeaderPolicy } from '../context';
import { errors } from '../errors';
import { explainError, type KnownRoute } from './explain';
import { Journal, type JournalEntry } from './journal';
import { requestFindings } from './rules';
import { SCRUBBED, scrubHeader, scrubQuery, scrubText } from './scrub';

export const DEFAULT_JOURNAL_SIZE = 1000;
/** Characters of each body the journal keeps. */
export const DEFAULT_BODY_LIMIT = 8192;
/** Findings one request may collect (rules plus whatever the pipeline adds). */
const MAX_FINDINGS = 40;
const MAX_HEADERS = 100;
const MAX_HEADER_VALUE = 2000;
export const REPLAY_HEADER = 'dam-emulator-replay-of';
/** Explanations that only repeat the error message: left out when a request rule already says why it was refused. */
const VAGUE_EXPLANATIONS: ReadonlySet<string> = new Set(['DE4000', 'DE4001', 'DE4100', 'DE4150', 'DE4200', 'DE4210', 'DE4999']);

export interface InspectorOptions {
  /** Entries kept; 0 turns the inspector off (no journal, no findings header). */
  journalSize: number;
  bodyLimit?: number;
  /** The host the emulator listens on: the devtools routes answer other hosts' callers only when it is not loopback. */
  host?: string;
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
  tap?: BodyTap;
  error?: { type: string; message: string };
  entry?: JournalEntry;
}

const STATE = Symbol('damInspector');
type Inspected = FastifyRequest & { [STATE]?: RequestState };

function state(request: FastifyRequest): RequestState {
  const r = request as Inspected;
  return (r[STATE] ??= { findings: [] });
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

function policyOf(request: FastifyRequest): HeaderPolicy | undefined {
  if (request.is404) return undefined;
  return request.routeOptions.config?.headers ?? 'api';
}

function pathOf(request: FastifyRequest): string {
  const url = request.raw.url ?? request.url;
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

function queryOf(request: FastifyRequest): string {
  const url = request.raw.url ?? request.url;
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q + 1);
}

function isDevtools(request: FastifyRequest): boolean {
  return policyOf(request) === 'devtools' || pathOf(request).toLowerCase().startsWith(DEVTOOLS_PREFIX);
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

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/** `localhost`, `*.localhost`, 127.x.y.z and ::1, with or without a port. */
export function isLoopbackHostName(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d+$/, '');
  const lower = name.toLowerCase();
  return lower === 'localhost' || lower.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(lower) || lower === '::1';
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

/** Text of at most `limit` characters, scrubbed; `truncated` when there was more. */
function keepText(text: string, limit: number, more: boolean, contentType: string | null, bytes: number | null): JournalBody {
  const truncated = more || text.length > limit;
  const cut = text.length > limit ? text.slice(0, limit) : text;
  const clean = scrubText(cut);
  return { contentType, bytes, text: clean.text, truncated, ...(clean.scrubbed ? { scrubbed: true } : {}) };
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

function headerPairs(raw: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length && out.length < MAX_HEADERS; i += 2) {
    const value = raw[i + 1].length > MAX_HEADER_VALUE ? `${raw[i + 1].slice(0, MAX_HEADER_VALUE)}…` : raw[i + 1];
    out.push([raw[i], scrubHeader(raw[i], value)]);
  }
  return out;
}

function responseHeaderPairs(reply: FastifyReply, bytes: number | null): [string, string][] {
  const out: [string, string][] = [];
  const headers = reply.getHeaders();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || out.length >= MAX_HEADERS) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.push([name, scrubHeader(name, String(v).slice(0, MAX_HEADER_VALUE))]);
  }
  if (bytes !== null && headers['content-length'] === undefined && reply.statusCode !== 204 && reply.statusCode !== 304) out.push(['content-length', String(bytes)]);
  return out;
}

const GUID = /^[0-9a-f]{32}$|^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const normalise = (id: string) => id.replace(/-/g, '').toLowerCase();

/** The record a request was about: named in its path, its body, or (for a create) its answer. */
function relatedRecord(method: string, path: string, requestText: string | undefined, responseText: string | undefined, status: number): string | null {
  const inPath = /^\/api\/core\/records?\/([^/?]+)/i.exec(path)?.[1];
  if (inPath && GUID.test(inPath)) return normalise(inPath);
  const inRequest = requestText && /"recordId"\s*:\s*"([0-9a-fA-F-]{32,36})"/.exec(requestText)?.[1];
  if (inRequest && GUID.test(inRequest)) return normalise(inRequest);
  if (status < 300 && responseText) {
    const created = method === 'POST' && /^\/api\/core\/records?\/?$/i.test(path) ? /"id"\s*:\s*"([0-9a-f]{32})"/.exec(responseText)?.[1] : undefined;
    if (created) return created;
    const inAnswer = /"recordId"\s*:\s*"([0-9a-fA-F-]{32,36})"/.exec(responseText)?.[1];
    if (inAnswer && GUID.test(inAnswer)) return normalise(inAnswer);
  }
  return null;
}

function replayability(query: string, body: JournalBody | null): JournalEntry['replay'] {
  if (query.includes(SCRUBBED)) return { possible: false, reason: 'a secret or signature in the query string was scrubbed' };
  if (!body) return { possible: true };
  if (body.text === undefined) return { possible: false, reason: `the body was not kept (${body.note ?? 'binary'})` };
  if (body.truncated) return { possible: false, reason: 'the body was cut short by the journal' };
  if (body.scrubbed) return { possible: false, reason: 'the body held secrets, which the journal does not keep' };
  return { possible: true };
}

/** The error object of an answer the error hook did not see (the not-found handler, a fault answer). */
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
  /** Ends every live stream (the app is closing). */
  readonly streams: Set<{ end(): void }>;
}

/**
 * Installs the inspector on the root app (its hooks must see every route, so this is not an encapsulated plugin).
 * Call before the app's own onRequest hooks so a refused request is still journaled with its findings.
 */
export function installInspector(app: FastifyInstance, options: InspectorOptions): Inspector | undefined {
  if (options.journalSize <= 0) return undefined;
  const journal = new Journal(options.journalSize);
  const limit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const routes: KnownRoute[] = [];
  const streams = new Set<{ end(): void }>();
  const allowRemote = options.host !== undefined && !isLoopbackHostName(options.host) && options.host !== '';

  app.addHook('onRoute', (route) => {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) routes.push({ method, url: route.url });
  });

  app.addHook('onRequest', async (request) => {
    if (!isDevtools(request)) {
      state(request);
      return;
    }
    if (allowRemote) return;
    // Loopback only, and only by a loopback name: a web page that rebinds its own host name to 127.0.0.1 must not read the journal.
    if (!isLoopbackAddress(request.socket.remoteAddress)) throw errors.devtoolsForbidden('The emulator devtools answer only callers on this machine (the emulator listens on loopback).');
    if (!isLoopbackHostName(request.headers.host)) throw errors.devtoolsForbidden(`The emulator devtools answer only requests addressed to a loopback name, not '${String(request.headers.host ?? '').slice(0, 100)}'.`);
  });

  app.addHook('preParsing', async (request, _reply, payload) => {
    if (isDevtools(request) || !isTextual(headerText(request.headers['content-type']))) return payload;
    const tap: BodyTap = { chunks: [], kept: 0, total: 0, done: false };
    state(request).tap = tap;
    return tapBody(payload, tap, limit);
  });

  app.addHook('onError', async (request, _reply, error) => {
    const e = error as { exceptionType?: unknown; message?: string };
    if (typeof e.exceptionType === 'string') state(request).error = { type: e.exceptionType, message: e.message ?? '' };
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (isDevtools(request)) return payload;
    const s = state(request);
    if (s.entry) return payload;
    const path = pathOf(request);
    const rawQuery = queryOf(request);
    const status = reply.statusCode;
    const query = new URLSearchParams(rawQuery);
    const findings: Finding[] = requestFindings({
      method: request.method,
      path,
      query,
      headers: request.headers,
      policy: policyOf(request),
      body: request.body,
      hasBody: hasBody(request),
      bodyBytes: declaredLength(request),
      now: options.clock.now(),
    });
    for (const f of s.findings) if (!findings.some((x) => x.code === f.code && x.message === f.message)) findings.push(f);
    if (status >= 400) {
      const error = s.error ?? errorFromPayload(payload);
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
    const kept = findings.slice(0, MAX_FINDINGS);
    const header = encodeFindingsHeader(kept);
    if (header) reply.header(FINDINGS_HEADER, header);

    const requestPart = requestBody(request, s.tap, limit);
    const contentType = headerText(reply.getHeader('content-type')) ?? null;
    const response = responseBody(payload, contentType, limit);
    const replayOf = Number(request.headers[REPLAY_HEADER]);
    const entry = journal.add((id) => {
      reply.header(REQUEST_ID_HEADER, String(id));
      return {
        id,
        time: new Date(options.clock.now().getTime() - reply.elapsedTime).toISOString(),
        method: request.method,
        path,
        query: scrubQuery(rawQuery),
        status,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
        client: headerText(request.headers['user-agent']) ?? null,
        route: request.is404 ? null : (request.routeOptions.url ?? null),
        caller: request.caller ? { clientId: request.caller.clientId, userId: request.caller.userId } : null,
        findings: kept,
        recordId: relatedRecord(request.method, path, requestPart?.text, response.body?.text, status),
        replayOf: Number.isInteger(replayOf) && replayOf > 0 ? replayOf : null,
        remoteAddress: request.socket?.remoteAddress ?? null,
        request: { headers: headerPairs(request.raw.rawHeaders).filter(([n]) => n.toLowerCase() !== REPLAY_HEADER), body: requestPart },
        response: { headers: responseHeaderPairs(reply, response.bytes), body: response.body },
        replay: replayability(rawQuery ? scrubQuery(rawQuery) : '', requestPart),
      };
    });
    s.entry = entry;
    return payload;
  });

  app.addHook('onResponse', async (request, reply) => {
    const entry = (request as Inspected)[STATE]?.entry;
    if (entry) entry.durationMs = Math.round(reply.elapsedTime * 100) / 100;
  });

  app.addHook('onRequestAbort', async (request) => {
    if (isDevtools(request)) return;
    const s = state(request);
    if (s.entry) return;
    const rawQuery = queryOf(request);
    s.entry = journal.add((id) => ({
      id,
      time: options.clock.now().toISOString(),
      method: request.method,
      path: pathOf(request),
      query: scrubQuery(rawQuery),
      status: 0,
      durationMs: 0,
      client: headerText(request.headers['user-agent']) ?? null,
      route: request.is404 ? null : (request.routeOptions.url ?? null),
      caller: request.caller ? { clientId: request.caller.clientId, userId: request.caller.userId } : null,
      findings: [...s.findings],
      recordId: null,
      replayOf: null,
      remoteAddress: request.socket?.remoteAddress ?? null,
      request: { headers: headerPairs(request.raw.rawHeaders), body: requestBody(request, s.tap, limit) },
      response: { headers: [], body: { contentType: null, bytes: null, truncated: false, note: 'no answer: the client closed the connection first' } },
      replay: { possible: false, reason: 'the client went away before the answer' },
    }));
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
    async replay(id) {
      const original = journal.get(id);
      if (!original) throw errors.noDataFound('journal entry', String(id));
      if (!original.replay.possible) throw errors.conflict(`Entry ${id} cannot be replayed: ${original.replay.reason ?? 'unknown reason'}.`);
      const headers: Record<string, string> = {};
      for (const [name, value] of original.request.headers) {
        const lower = name.toLowerCase();
        if (['content-length', 'connection', 'transfer-encoding', 'authorization', 'keep-alive', 'expect'].includes(lower)) continue;
        headers[lower] = headers[lower] === undefined ? value : `${headers[lower]}, ${value}`;
      }
      const authorization = original.request.headers.find(([n]) => n.toLowerCase() === 'authorization')?.[1];
      if (authorization !== undefined) {
        // The journal never held the token: a valid one is replaced by a fresh token for the same caller, an invalid one stays invalid.
        headers.authorization = original.caller ? `Bearer ${(await options.tokens.issue(original.caller.clientId, original.caller.userId, 'api')).access_token}` : authorization;
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
