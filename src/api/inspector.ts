// Client of an emulator's request journal (`/_emulator/requests`): list, read, replay, clear, and follow the live
// stream of server-sent events, reconnecting from the last id seen. No token: the devtools are not the tenant's API.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { z } from 'zod';
import {
  EntryDetailSchema,
  JournalPageSchema,
  ReplayAnswerSchema,
  EntrySummarySchema,
  filterQuery,
  type EntryDetail,
  type EntrySummary,
  type JournalFilter,
  type JournalPage,
  type ReplayAnswer,
} from '../core/inspector';

export class InspectorError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export interface FollowHandlers {
  onEntry(entry: EntrySummary): void;
  /** A slow reader missed `count` entries (the emulator does not buffer without bound). */
  onDropped?(count: number): void;
  /** Connected (again); `reconnect` is false the first time. */
  onOpen?(reconnect: boolean): void;
  /** The connection failed or ended; the client retries after `retryMs`. */
  onError?(error: Error, retryMs: number): void;
}

type Fetch = typeof fetch;

/** One server-sent event as the stream frames it. */
interface ServerEvent {
  id?: string;
  event: string;
  data: string;
}

/** Splits a stream of SSE text into events (the WHATWG framing: fields per line, an empty line ends an event). */
export class SseParser {
  private buffer = '';
  private event: Partial<ServerEvent> & { data?: string } = {};

  push(text: string, emit: (e: ServerEvent) => void): void {
    this.buffer += text;
    let newline: number;
    while ((newline = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + (this.buffer.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (this.event.data !== undefined) emit({ id: this.event.id, event: this.event.event ?? 'message', data: this.event.data });
        this.event = {};
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') this.event.data = this.event.data === undefined ? value : `${this.event.data}\n${value}`;
      else if (field === 'event') this.event.event = value;
      else if (field === 'id') this.event.id = value;
    }
  }
}

export class InspectorClient {
  readonly origin: string;
  private readonly fetch: Fetch;

  constructor(
    origin: string,
    private readonly options: { userAgent?: string; fetch?: Fetch } = {},
  ) {
    this.origin = origin.replace(/\/+$/, '');
    this.fetch = options.fetch ?? fetch;
  }

  private headers(accept = 'application/json'): Record<string, string> {
    return { Accept: accept, ...(this.options.userAgent ? { 'User-Agent': this.options.userAgent } : {}) };
  }

  private async call<T>(method: string, path: string, schema: z.ZodType<T> | undefined, signal?: AbortSignal): Promise<T> {
    let res: Response;
    try {
      res = await this.fetch(`${this.origin}${path}`, { method, headers: this.headers(), signal });
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw err;
      throw new InspectorError(`Cannot reach the emulator at ${this.origin}: ${(err as Error).message}${causeOf(err)}`, 0);
    }
    const text = await res.text();
    const isJson = /json/i.test(res.headers.get('content-type') ?? '');
    if (res.status >= 400) {
      let message = `${res.status} from ${method} ${path}`;
      if (isJson) {
        try {
          const body = JSON.parse(text) as { exceptionMessage?: string };
          if (body.exceptionMessage) message = `${message}: ${body.exceptionMessage}`;
        } catch {
          // Keep the status line.
        }
      }
      if (res.status === 404 && /No route matches/.test(message)) message = `${this.origin} has no request journal: is it a DAM emulator started with a journal (--journal-size above 0)?`;
      throw new InspectorError(message, res.status);
    }
    if (!schema) return undefined as T;
    if (!isJson) throw new InspectorError(`${this.origin}${path} did not answer JSON: is it a DAM emulator?`, res.status);
    return schema.parse(JSON.parse(text));
  }

  list(filter: JournalFilter = {}, limit?: number, signal?: AbortSignal): Promise<JournalPage> {
    const q = filterQuery(filter, limit).toString();
    return this.call('GET', `/_emulator/requests${q ? `?${q}` : ''}`, JournalPageSchema, signal);
  }

  get(id: number, signal?: AbortSignal): Promise<EntryDetail> {
    return this.call('GET', `/_emulator/requests/${id}`, EntryDetailSchema, signal);
  }

  replay(id: number, signal?: AbortSignal): Promise<ReplayAnswer> {
    return this.call('POST', `/_emulator/requests/${id}/replay`, ReplayAnswerSchema, signal);
  }

  clear(signal?: AbortSignal): Promise<void> {
    return this.call('DELETE', '/_emulator/requests', undefined, signal);
  }

  /**
   * One connection to the stream; resolves when the emulator ends it, rejects when it cannot connect. Read with
   * node:http rather than fetch: a host may wrap fetch (VS Code's extension host does, for proxies) and end long
   * responses, while this stream stays open for hours.
   */
  streamOnce(filter: JournalFilter, since: number | undefined, handlers: FollowHandlers, signal: AbortSignal, onId: (id: number) => void, reconnect = false): Promise<void> {
    const q = filterQuery({ ...filter, since: undefined }).toString();
    const headers = this.headers('text/event-stream');
    if (since !== undefined) headers['Last-Event-ID'] = String(since);
    const url = new URL(`${this.origin}/_emulator/requests/stream${q ? `?${q}` : ''}`);
    const parser = new SseParser();
    const emit = (e: ServerEvent) => {
      if (e.event === 'request') {
        const entry = EntrySummarySchema.safeParse(safeJson(e.data));
        if (entry.success) {
          onId(entry.data.id);
          handlers.onEntry(entry.data);
        }
      } else if (e.event === 'dropped') {
        const count = Number((safeJson(e.data) as { count?: unknown } | undefined)?.count);
        if (Number.isFinite(count)) handlers.onDropped?.(count);
      }
    };
    return new Promise<void>((resolve, reject) => {
      if (signal.aborted) return resolve();
      const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { headers }, (res) => {
        if (res.statusCode !== 200 || !/text\/event-stream/i.test(String(res.headers['content-type'] ?? ''))) {
          res.resume();
          reject(new InspectorError(`${this.origin} did not open a request stream (${res.statusCode})`, res.statusCode ?? 0));
          return;
        }
        handlers.onOpen?.(reconnect);
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => parser.push(chunk, emit));
        res.on('end', () => resolve());
        res.on('error', (err) => (signal.aborted ? resolve() : reject(err)));
        res.on('close', () => resolve());
      });
      const abort = () => {
        req.destroy();
        resolve();
      };
      signal.addEventListener('abort', abort, { once: true });
      req.on('error', (err) => (signal.aborted ? resolve() : reject(new InspectorError(`Cannot reach the emulator at ${this.origin}: ${err.message}`, 0))));
      req.on('close', () => signal.removeEventListener('abort', abort));
      req.end();
    });
  }

  /**
   * Follows the stream until `signal` aborts: new entries (those after `since`, when given) as they come,
   * reconnecting with backoff and resuming after the last id seen, so nothing the journal still holds is missed.
   */
  async follow(filter: JournalFilter, handlers: FollowHandlers, signal: AbortSignal, since?: number): Promise<void> {
    let last = since;
    let attempt = 0;
    let connections = 0;
    while (!signal.aborted) {
      try {
        await this.streamOnce(
          filter,
          last,
          handlers,
          signal,
          (id) => {
            last = id;
            attempt = 0;
          },
          connections++ > 0,
        );
        if (signal.aborted) return;
        attempt++;
        handlers.onError?.(new Error('the emulator closed the stream'), backoff(attempt));
      } catch (err) {
        if (signal.aborted) return;
        attempt++;
        handlers.onError?.(err instanceof Error ? err : new Error(String(err)), backoff(attempt));
      }
      await sleep(backoff(attempt), signal);
    }
  }
}

function backoff(attempt: number): number {
  return Math.min(10_000, 250 * 2 ** Math.min(attempt, 6));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string } }).cause;
  return cause?.code ? ` (${cause.code})` : '';
}
