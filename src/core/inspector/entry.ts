// The wire shape of the emulator's request journal (`/_emulator/requests`): zod schemas the client checks answers
// with, the types the emulator builds, and the one filter both the emulator and a live view apply.
import { z } from 'zod';

export const FindingSchema = z.object({
  code: z.string(),
  severity: z.enum(['refuse', 'frown']),
  message: z.string(),
  advice: z.string().optional(),
});

/** A request or response body as the journal keeps it: text up to a limit, binary bodies only by size. */
export const BodySchema = z.object({
  contentType: z.string().nullable(),
  /** Size in bytes when known (declared or counted). */
  bytes: z.number().int().nullable(),
  /** The text (scrubbed), absent for binary, multipart and streamed bodies. */
  text: z.string().optional(),
  truncated: z.boolean(),
  /** True when secrets were replaced in `text`. */
  scrubbed: z.boolean().optional(),
  /** Why there is no text ("1,234 bytes of multipart/form-data"). */
  note: z.string().optional(),
});
export type JournalBody = z.infer<typeof BodySchema>;

export const CallerSchema = z.object({ clientId: z.string(), userId: z.number().int() });

export const EntrySummarySchema = z.object({
  id: z.number().int(),
  /** ISO time the request arrived. */
  time: z.string(),
  method: z.string(),
  path: z.string(),
  /** The query string without `?` (secrets scrubbed), '' when none. */
  query: z.string(),
  /** 0 when the client went away before an answer was sent. */
  status: z.number().int(),
  durationMs: z.number(),
  /** The User-Agent, null when none was sent. */
  client: z.string().nullable(),
  /** The matched route pattern (`/api/core/record/:id`), null when no route matched. */
  route: z.string().nullable(),
  /** Who the bearer token acted as, when it was valid. */
  caller: CallerSchema.nullable(),
  findings: z.array(FindingSchema),
  /** The record the request was about, when it names one (path, body or answer). */
  recordId: z.string().nullable(),
  /** The entry this one replays, when it was sent by the inspector's Replay. */
  replayOf: z.number().int().nullable(),
});
export type EntrySummary = z.infer<typeof EntrySummarySchema>;

const HeaderListSchema = z.array(z.tuple([z.string(), z.string()]));

export const EntryDetailSchema = EntrySummarySchema.extend({
  remoteAddress: z.string().nullable(),
  request: z.object({ headers: HeaderListSchema, body: BodySchema.nullable() }),
  response: z.object({ headers: HeaderListSchema, body: BodySchema.nullable() }),
  /** Whether the emulator can send this request again, and if not, why. */
  replay: z.object({ possible: z.boolean(), reason: z.string().optional() }),
});
export type EntryDetail = z.infer<typeof EntryDetailSchema>;

export const JournalPageSchema = z.object({
  items: z.array(EntrySummarySchema),
  /** How many entries the journal keeps at most, and holds now. */
  capacity: z.number().int(),
  size: z.number().int(),
  /** Id of the newest entry (0 when none yet): pass it as `since` to ask only for newer ones. */
  lastId: z.number().int(),
});
export type JournalPage = z.infer<typeof JournalPageSchema>;

export const ReplayAnswerSchema = z.object({ replayOf: z.number().int(), entry: EntrySummarySchema.nullable(), status: z.number().int() });
export type ReplayAnswer = z.infer<typeof ReplayAnswerSchema>;

/** What a list or a stream can be narrowed to; every part optional. */
export interface JournalFilter {
  /** Comma-separated classes or codes: `4xx`, `404`, `2xx,5xx`. */
  status?: string;
  /** Case-insensitive substring of the path or the route pattern. */
  route?: string;
  /** Case-insensitive substring of the User-Agent. */
  client?: string;
  /** Leaves out entries whose User-Agent contains this (any case): the VS Code extension hides its own requests. */
  hideClient?: string;
  method?: string;
  /** Only entries newer than this id. */
  since?: number;
  /** Only entries with at least one finding. */
  withFindings?: boolean;
}

const STATUS_ITEM = /^(?:[1-5]xx|[1-5]\d\d|0)$/i;

/** Whether `status` is a valid status filter (`4xx`, `404`, `2xx,4xx`). */
export function isStatusFilter(status: string): boolean {
  return status.split(',').every((s) => STATUS_ITEM.test(s.trim()));
}

function statusMatches(status: number, filter: string): boolean {
  return filter.split(',').some((item) => {
    const s = item.trim().toLowerCase();
    return s.endsWith('xx') ? Math.floor(status / 100) === Number(s[0]) : status === Number(s);
  });
}

/** The fields a filter looks at (an entry summary, or the emulator's stored form of one). */
export type Filterable = Pick<EntrySummary, 'id' | 'status' | 'method' | 'path' | 'route' | 'client' | 'findings'>;

export function matchesFilter(entry: Filterable, filter: JournalFilter): boolean {
  if (filter.since !== undefined && entry.id <= filter.since) return false;
  if (filter.status && !statusMatches(entry.status, filter.status)) return false;
  if (filter.method && entry.method.toUpperCase() !== filter.method.toUpperCase()) return false;
  if (filter.route) {
    const needle = filter.route.toLowerCase();
    if (!entry.path.toLowerCase().includes(needle) && !(entry.route ?? '').toLowerCase().includes(needle)) return false;
  }
  if (filter.client && !(entry.client ?? '').toLowerCase().includes(filter.client.toLowerCase())) return false;
  if (filter.hideClient && (entry.client ?? '').toLowerCase().includes(filter.hideClient.toLowerCase())) return false;
  if (filter.withFindings && entry.findings.length === 0) return false;
  return true;
}

/** The filter as query parameters of `GET /_emulator/requests` (and its stream). */
export function filterQuery(filter: JournalFilter, limit?: number): URLSearchParams {
  const q = new URLSearchParams();
  if (filter.status) q.set('status', filter.status);
  if (filter.route) q.set('route', filter.route);
  if (filter.client) q.set('client', filter.client);
  if (filter.hideClient) q.set('hideClient', filter.hideClient);
  if (filter.method) q.set('method', filter.method);
  if (filter.since !== undefined) q.set('since', String(filter.since));
  if (filter.withFindings) q.set('findings', 'true');
  if (limit !== undefined) q.set('limit', String(limit));
  return q;
}

/** Header the emulator puts on every journaled answer: the id of its journal entry. */
export const REQUEST_ID_HEADER = 'Dam-Emulator-Request-Id';
/** The prefix no tenant route uses: the emulator's own developer tools live under it. */
export const DEVTOOLS_PREFIX = '/_emulator';
