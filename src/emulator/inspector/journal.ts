// The request journal: a ring of the last N entries (memory bounded by N and the per-body limit), looked up by id
// in O(1), listed newest first, with listeners told of each new entry synchronously (they must not block). An
// entry holds only what scrub.ts lets the journal keep: `keptEntry` scrubs once, as the entry is made, so every
// reader (list, details, stream, CLI, Copy as curl, replay) reads the same kept form and no secret is ever stored.
import { matchesFilter, type EntryDetail, type EntrySummary, type JournalBody, type JournalFilter } from '../../core/inspector';
import { parseLenientJson } from '../lenientJson';
import { SCRUBBED, TOKEN_HEADERS, scrubBody, scrubHeader, scrubQuery } from './scrub';

const MAX_HEADERS = 100;
const MAX_HEADER_VALUE = 2000;
/** Node's header added by the inspector's own replay: it becomes `replayOf`, not a header to show. */
export const REPLAY_HEADER = 'dam-emulator-replay-of';

/** An entry as the ring holds it: scrubbed (keptEntry); its summary, once built, is kept with it. */
export interface JournalEntry {
  id: number;
  at: number;
  method: string;
  path: string;
  /** The query string without `?`, secrets scrubbed. */
  query: string;
  status: number;
  durationMs: number;
  client: string | null;
  route: string | null;
  caller: EntrySummary['caller'];
  findings: EntrySummary['findings'];
  replayOf: number | null;
  remoteAddress: string | null;
  request: { headers: [string, string][]; body: JournalBody | null };
  response: { headers: [string, string][]; body: JournalBody | null };
  /** Bytes the entry's texts take, about (UTF-16): what counts against the journal's memory bound. */
  size?: number;
  summary?: EntrySummary;
}

/** What a request and its answer were, as the pipeline has them: secrets included, headers as Node's flat list. */
export interface RawEntry extends Omit<JournalEntry, 'query' | 'request' | 'response' | 'summary' | 'size'> {
  rawQuery: string;
  request: { headers: string[]; body: JournalBody | null };
  response: { headers: string[]; body: JournalBody | null };
}

const GUID = /^[0-9a-f]{32}$|^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const normalise = (id: string) => id.replace(/-/g, '').toLowerCase();

/** The record a request was about: named in its path, its body, or (for a create) its answer. */
export function relatedRecord(method: string, path: string, requestText: string | undefined, responseText: string | undefined, status: number): string | null {
  const inPath = /^\/api\/core\/records?\/([^/?]+)/i.exec(path)?.[1];
  if (inPath && GUID.test(inPath)) return normalise(inPath);
  const inRequest = requestText && /"recordId"\s*:\s*"([0-9a-fA-F-]{32,36})"/.exec(requestText)?.[1];
  if (inRequest && GUID.test(inRequest)) return normalise(inRequest);
  if (status < 300 && responseText && /^\/api\/core\/(records?|fileversion)\b/i.test(path)) {
    const created = method === 'POST' && /^\/api\/core\/records?\/?$/i.test(path) ? /"id"\s*:\s*"([0-9a-f]{32})"/.exec(responseText)?.[1] : undefined;
    if (created) return created;
    const inAnswer = /"recordId"\s*:\s*"([0-9a-fA-F-]{32,36})"/.exec(responseText)?.[1];
    if (inAnswer && GUID.test(inAnswer)) return normalise(inAnswer);
  }
  return null;
}

function replayability(query: string, headers: [string, string][], body: JournalBody | null): EntryDetail['replay'] {
  if (query.includes(SCRUBBED)) return { possible: false, reason: 'a secret or signature in the query string was scrubbed' };
  // A token header gets a fresh token of the same caller; any other value the journal did not keep cannot be sent again.
  const lost = headers.find(([name, value]) => value === SCRUBBED && !TOKEN_HEADERS.has(name.toLowerCase()));
  if (lost) return { possible: false, reason: `the value of header '${lost[0]}' was not kept by the journal` };
  if (!body) return { possible: true };
  if (body.text === undefined) return { possible: false, reason: `the body was not kept (${body.note ?? 'binary'})` };
  if (body.truncated) return { possible: false, reason: 'the body was cut short by the journal' };
  if (body.scrubbed) return { possible: false, reason: 'the body held secrets, which the journal does not keep' };
  return { possible: true };
}

const parseJson = (text: string) => parseLenientJson(Buffer.from(text, 'utf8'));

function scrubbedBody(body: JournalBody | null): JournalBody | null {
  if (!body || body.text === undefined) return body;
  const clean = scrubBody(body.text, body.contentType, parseJson);
  return clean.scrubbed ? { ...body, text: clean.text, scrubbed: true } : body;
}

function scrubbedHeaders(flat: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < flat.length && out.length < MAX_HEADERS; i += 2) {
    const name = flat[i];
    if (name.toLowerCase() === REPLAY_HEADER) continue;
    const value = flat[i + 1].length > MAX_HEADER_VALUE ? `${flat[i + 1].slice(0, MAX_HEADER_VALUE)}…` : flat[i + 1];
    out.push([name, scrubHeader(name, value)]);
  }
  return out;
}

/** The entry the journal keeps of a request: headers allowlisted, query and bodies scrubbed (scrub.ts). */
export function keptEntry(raw: RawEntry): JournalEntry {
  const { rawQuery, request, response, ...rest } = raw;
  const kept: JournalEntry = {
    ...rest,
    query: scrubQuery(rawQuery),
    request: { headers: scrubbedHeaders(request.headers), body: scrubbedBody(request.body) },
    response: { headers: scrubbedHeaders(response.headers), body: scrubbedBody(response.body) },
  };
  let chars = kept.path.length + kept.query.length + (kept.client?.length ?? 0) + (kept.request.body?.text?.length ?? 0) + (kept.response.body?.text?.length ?? 0);
  for (const [name, value] of [...kept.request.headers, ...kept.response.headers]) chars += name.length + value.length;
  for (const f of kept.findings) chars += f.message.length + (f.advice?.length ?? 0);
  kept.size = 2 * chars + ENTRY_OVERHEAD;
  return kept;
}

/** What an entry costs besides its texts (its objects, ids and times), about. */
const ENTRY_OVERHEAD = 1024;
/** Memory the journal's entries may take at most, whatever --journal-size says; past it the oldest go first. */
export const JOURNAL_MAX_BYTES = 64 * 1024 * 1024;

export function toSummary(e: JournalEntry): EntrySummary {
  return (e.summary ??= {
    id: e.id,
    time: new Date(e.at).toISOString(),
    method: e.method,
    path: e.path,
    query: e.query,
    status: e.status,
    durationMs: e.durationMs,
    client: e.client,
    route: e.route,
    caller: e.caller,
    findings: e.findings,
    recordId: relatedRecord(e.method, e.path, e.request.body?.text, e.response.body?.text, e.status),
    replayOf: e.replayOf,
  });
}

export function toDetail(e: JournalEntry): EntryDetail {
  const summary = toSummary(e);
  return { ...summary, remoteAddress: e.remoteAddress, request: e.request, response: e.response, replay: replayability(e.query, e.request.headers, e.request.body) };
}

export class Journal {
  private readonly slots: (JournalEntry | undefined)[];
  /** Id the next entry gets; ids start at 1 and never repeat within a process. */
  private nextId = 1;
  /** Entries with an id at or below this were cleared. */
  private floor = 0;
  private readonly listeners = new Set<(entry: JournalEntry) => void>();
  /** What the entries held take, by their `size`. */
  private held = 0;

  constructor(
    readonly capacity: number,
    readonly maxBytes = JOURNAL_MAX_BYTES,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`journal capacity must be a positive integer, got ${capacity}`);
    this.slots = new Array<JournalEntry | undefined>(capacity);
  }

  get lastId(): number {
    return this.nextId - 1;
  }

  /** Lowest id still held. */
  private get oldestId(): number {
    return Math.max(this.floor + 1, this.nextId - this.capacity, 1);
  }

  get size(): number {
    return Math.max(0, this.nextId - this.oldestId);
  }

  /** Stores the entry `build` makes for the next id (evicting the oldest when full) and tells the listeners. */
  add(build: (id: number) => JournalEntry): JournalEntry {
    const id = this.nextId++;
    const entry = build(id);
    const slot = (id - 1) % this.capacity;
    this.held += (entry.size ?? 0) - (this.slots[slot]?.size ?? 0);
    this.slots[slot] = entry;
    // Past the memory bound the oldest entries go, as they would past the count (the newest always stays).
    while (this.held > this.maxBytes && this.oldestId < id) {
      const oldest = this.oldestId;
      const s = (oldest - 1) % this.capacity;
      this.held -= this.slots[s]?.size ?? 0;
      this.slots[s] = undefined;
      this.floor = oldest;
    }
    for (const listener of this.listeners) {
      try {
        listener(entry);
      } catch {
        // A broken listener (a stream gone bad) must not break the request that is being journaled.
      }
    }
    return entry;
  }

  get(id: number): JournalEntry | undefined {
    if (!Number.isInteger(id) || id < this.oldestId || id > this.lastId) return undefined;
    const entry = this.slots[(id - 1) % this.capacity];
    return entry?.id === id ? entry : undefined;
  }

  /** Entries matching `filter`, newest first, at most `limit`. */
  list(filter: JournalFilter, limit: number): JournalEntry[] {
    const out: JournalEntry[] = [];
    const low = Math.max(this.oldestId, (filter.since ?? 0) + 1);
    for (let id = this.lastId; id >= low && out.length < limit; id--) {
      const entry = this.get(id);
      if (entry && matchesFilter(entry, filter)) out.push(entry);
    }
    return out;
  }

  /** Entries after `filter.since` matching `filter`, oldest first, at most `limit` (what a stream reader missed). */
  after(filter: JournalFilter, limit: number): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let id = Math.max(this.oldestId, (filter.since ?? 0) + 1); id <= this.lastId && out.length < limit; id++) {
      const entry = this.get(id);
      if (entry && matchesFilter(entry, filter)) out.push(entry);
    }
    return out;
  }

  /** Bytes the entries held take, about. */
  get bytes(): number {
    return this.held;
  }

  clear(): void {
    this.floor = this.lastId;
    this.slots.fill(undefined);
    this.held = 0;
  }

  subscribe(listener: (entry: JournalEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}
