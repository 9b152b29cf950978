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
import { toDetail, toSummary, type JournalEntry } from './journal';
import type { Inspector } from './plugin';

const TAGS = ['emulator devtools'];
/** Bytes a stream may have waiting for a slow reader before further events are dropped (and counted). */
export const STREAM_HIGH_WATER = 256 * 1024;
const PING_MS = 15_000;

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

/** One server-sent-events reader: never buffers more than STREAM_HIGH_WATER; what it misses is counted and said. */
export class EventStream {
  private dropped = 0;
  private closed = false;

  constructor(
    private readonly res: Pick<ServerResponse, 'writableLength' | 'write' | 'end' | 'on'>,
    private readonly filter: JournalFilter,
  ) {
    res.on('drain', () => this.flushDropped());
  }

  send(entry: JournalEntry, data: () => string): void {
    if (this.closed || !matchesFilter(entry, this.filter)) return;
    if (this.res.writableLength > STREAM_HIGH_WATER) {
      this.dropped++;
      return;
    }
    this.flushDropped();
    this.res.write(`id: ${entry.id}\nevent: request\ndata: ${data()}\n\n`);
  }

  comment(text: string): void {
    if (!this.closed && this.res.writableLength <= STREAM_HIGH_WATER) this.res.write(`: ${text}\n\n`);
  }

  private flushDropped(): void {
    if (this.dropped === 0 || this.closed) return;
    this.res.write(`event: dropped\ndata: ${JSON.stringify({ count: this.dropped })}\n\n`);
    this.dropped = 0;
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
        summary: 'Live stream of new journal entries as server-sent events (event "request", data an entry summary; "dropped" when a slow reader missed some)',
        tags: TAGS,
        querystring: filterSchema(journal.capacity),
        response: { 200: { description: 'text/event-stream', type: 'string' }, '4xx': errorSchema },
      },
    },
    (request: FastifyRequest<{ Querystring: FilterQuery }>, reply) => {
      const filter = toFilter(request.query);
      const lastEventId = Number(request.headers['last-event-id']);
      const since = Number.isInteger(lastEventId) && lastEventId >= 0 ? lastEventId : filter.since;
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no', Connection: 'keep-alive' });
      res.write('retry: 2000\n: dam emulator request journal\n\n');
      const stream = new EventStream(res, { ...filter, since: undefined });
      // Entries since the reader's last one first (a reconnect loses nothing the ring still holds), oldest first.
      if (since !== undefined) {
        for (const entry of journal.list({ ...filter, since }, journal.capacity).reverse()) stream.send(entry, () => JSON.stringify(toSummary(entry)));
      }
      let memo: { id: number; text: string } | undefined;
      const unsubscribe = journal.subscribe((entry) =>
        stream.send(entry, () => {
          if (memo?.id !== entry.id) memo = { id: entry.id, text: JSON.stringify(toSummary(entry)) };
          return memo.text;
        }),
      );
      const ping = setInterval(() => stream.comment('ping'), PING_MS);
      ping.unref();
      const streams = inspector.streams;
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
