// The journal's read API under /_emulator/requests: list (filters, newest first), one entry, a live stream of
// server-sent events, replay and clear. Header policy 'devtools': no tenant token needed or honoured, loopback only.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import {
  EntryDetailSchema,
  JournalPageSchema,
  ReplayAnswerSchema,
  isStatusFilter,
  matchesFilter,
  type JournalFilter,
} from '../../core/inspector';
import { errors } from '../errors';
import { toDetail, toSummary, type Journal, type JournalEntry } from './journal';
import type { Inspector } from './plugin';

const TAGS = ['emulator devtools'];
/** Bytes a reader of the stream may have waiting; a reader past it that takes no more is dropped (it reconnects with Last-Event-ID). */
export const STREAM_HIGH_WATER = 256 * 1024;
const PING_MS = 15_000;
/** Entries read from the ring at a time while a reader catches up. */
const BACKLOG_BATCH = 50;

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { target: 'openapi-3.0' }) as Record<string, unknown>;
  return rest;
}

const errorSchema = {
  description: 'The error object',
  type: 'object',
  properties: { exceptionMessage: { type: 'string' }, exceptionType: { type: 'string' }, stackTrace: { type: 'null' }, innerException: { type: 'null' } },
};

function filterSchema(capacity: number) {
  return {
    type: 'object',
    properties: {
      status: { type: 'string', pattern: '^([1-5][xX][xX]|[1-5][0-9][0-9]|0)(,([1-5][xX][xX]|[1-5][0-9][0-9]|0))*$', description: 'Status classes or codes: 4xx, 404, 2xx,5xx' },
      route: { type: 'string', maxLength: 200, description: 'Substring of the path or route pattern (any case)' },
      client: { type: 'string', maxLength: 200, description: 'Substring of the User-Agent (any case)' },
      hideClient: { type: 'string', maxLength: 200, description: 'Leaves out entries whose User-Agent contains this (any case)' },
      method: { type: 'string', pattern: '^[A-Za-z]{1,10}$' },
      since: { type: 'integer', minimum: 0, description: 'Only entries with a greater id' },
      findings: { type: 'boolean', description: 'Only entries with findings' },
      limit: { type: 'integer', minimum: 1, maximum: capacity, description: `At most this many (default 100, at most ${capacity})` },
    },
  };
}

interface FilterQuery {
  status?: string;
  route?: string;
  client?: string;
  hideClient?: string;
  method?: string;
  since?: number;
  findings?: boolean;
  limit?: number;
}

function toFilter(q: FilterQuery): JournalFilter {
  if (q.status !== undefined && !isStatusFilter(q.status)) throw errors.validation(`status '${q.status}' is not a status filter such as 4xx, 404 or 2xx,5xx.`);
  return { status: q.status, route: q.route, client: q.client, hideClient: q.hideClient, method: q.method, since: q.since, withFindings: q.findings };
}

/**
 * One server-sent-events reader. Its buffer is bounded: entries it missed (after Last-Event-ID) are read from the
 * ring as it takes them, never more than STREAM_HIGH_WATER ahead; live entries are written as they come, and a
 * reader whose buffer is still full when the next one (or a ping) comes is dropped, its buffer freed with its socket.
 */
export class EventStream {
  private closed = false;
  /** Id of the last entry this reader has had, or passed over; undefined once it is caught up. */
  private cursor: number | undefined;

  constructor(
    private readonly res: Pick<ServerResponse, 'writableLength' | 'write' | 'end' | 'destroy' | 'once'>,
    private readonly filter: JournalFilter,
    private readonly journal: Pick<Journal, 'after'>,
    private readonly text: (entry: JournalEntry) => string,
    since?: number,
  ) {
    this.cursor = since;
    this.catchUp();
  }

  private get full(): boolean {
    return this.res.writableLength > STREAM_HIGH_WATER;
  }

  private write(entry: JournalEntry): void {
    this.res.write(`id: ${entry.id}\nevent: request\ndata: ${this.text(entry)}\n\n`);
  }

  /** Writes what the reader missed, oldest first, as it takes it; then follows live. */
  private catchUp(): void {
    while (!this.closed && this.cursor !== undefined) {
      if (this.full) {
        this.res.once('drain', () => this.catchUp());
        return;
      }
      const batch = this.journal.after({ ...this.filter, since: this.cursor }, BACKLOG_BATCH);
      if (batch.length === 0) {
        this.cursor = undefined;
        return;
      }
      for (const entry of batch) {
        if (this.full) break;
        this.write(entry);
        this.cursor = entry.id;
      }
    }
  }

  send(entry: JournalEntry): void {
    if (this.closed || this.cursor !== undefined || !matchesFilter(entry, this.filter)) return;
    if (this.full) return this.drop();
    this.write(entry);
  }

  comment(text: string): void {
    if (this.closed) return;
    if (this.full) return this.drop();
    this.res.write(`: ${text}\n\n`);
  }

  /** A reader that does not take what it was sent: its connection goes, and with it what was waiting for it. */
  private drop(): void {
    this.closed = true;
    this.res.destroy();
  }

  get ended(): boolean {
    return this.closed;
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.res.end();
  }
}

export function registerInspectorRoutes(app: FastifyInstance, inspector: Inspector): void {
  const { journal } = inspector;
  const config = { headers: 'devtools' as const };
  const base = '/_emulator/requests';
  let memo: { id: number; text: string } | undefined;
  // Every reader sends the same text for a new entry: it is made once.
  const text = (entry: JournalEntry) => {
    if (memo?.id !== entry.id) memo = { id: entry.id, text: JSON.stringify(toSummary(entry)) };
    return memo.text;
  };

  app.get(
    base,
    {
      config,
      schema: {
        summary: 'Journal of the last requests, newest first, with their findings',
        tags: TAGS,
        querystring: filterSchema(journal.capacity),
        response: { 200: jsonSchema(JournalPageSchema), '4xx': errorSchema },
      },
    },
    async (request: FastifyRequest<{ Querystring: FilterQuery }>) => {
      const filter = toFilter(request.query);
      const items = journal.list(filter, request.query.limit ?? 100).map(toSummary);
      return { items, capacity: journal.capacity, size: journal.size, lastId: journal.lastId };
    },
  );

  app.delete(base, { config, schema: { summary: 'Empty the journal (ids keep counting)', tags: TAGS } }, async (_request, reply) => {
    journal.clear();
    return reply.code(204).send();
  });

  app.get(
    `${base}/stream`,
    {
      config,
      schema: {
        summary: `Live stream of new journal entries as server-sent events (event "request", data an entry summary); at most ${inspector.maxReaders} readers (503 past that), and a reader more than ${STREAM_HIGH_WATER / 1024} KiB behind is dropped (it resumes with Last-Event-ID)`,
        tags: TAGS,
        querystring: filterSchema(journal.capacity),
        response: { 200: { description: 'text/event-stream', type: 'string' }, '4xx': errorSchema, 503: errorSchema },
      },
    },
    (request: FastifyRequest<{ Querystring: FilterQuery }>, reply) => {
      const filter = toFilter(request.query);
      const streams = inspector.streams;
      if (streams.size >= inspector.maxReaders) {
        throw errors.devtoolsBusy(`The request stream has ${inspector.maxReaders} readers already, its most; close one (or read the journal with GET ${base}?since=ID).`, 5);
      }
      const lastEventId = Number(request.headers['last-event-id']);
      const since = Number.isInteger(lastEventId) && lastEventId >= 0 ? lastEventId : filter.since;
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no', Connection: 'keep-alive' });
      res.write('retry: 2000\n: dam emulator request journal\n\n');
      const stream = new EventStream(res, { ...filter, since: undefined }, journal, text, since);
      const unsubscribe = journal.subscribe((entry) => stream.send(entry));
      const ping = setInterval(() => stream.comment('ping'), PING_MS);
      ping.unref();
      const handle = { end: () => stream.end() };
      streams.add(handle);
      const cleanup = () => {
        unsubscribe();
        clearInterval(ping);
        streams.delete(handle);
        stream.end();
      };
      res.once('close', cleanup);
      res.once('error', cleanup);
    },
  );

  app.get(
    `${base}/:id`,
    {
      config,
      schema: {
        summary: 'One journal entry: headers and bodies (secrets scrubbed), findings, whether it can be replayed',
        tags: TAGS,
        params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] },
        response: { 200: jsonSchema(EntryDetailSchema), '4xx': errorSchema },
      },
    },
    async (request: FastifyRequest<{ Params: { id: number } }>) => {
      const entry = journal.get(request.params.id);
      if (!entry) throw errors.noDataFound('journal entry', String(request.params.id));
      return toDetail(entry);
    },
  );

  app.post(
    `${base}/:id/replay`,
    {
      config,
      schema: {
        summary: 'Send an entry again (a fresh token for the same caller in place of the scrubbed one); answers the new entry',
        tags: TAGS,
        params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] },
        response: { 200: jsonSchema(ReplayAnswerSchema), '4xx': errorSchema },
      },
    },
    async (request: FastifyRequest<{ Params: { id: number } }>) => {
      const { status, entry } = await inspector.replay(request.params.id);
      return { replayOf: request.params.id, status, entry: entry ? toSummary(entry) : null };
    },
  );
}
