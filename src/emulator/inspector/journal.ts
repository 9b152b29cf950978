// The request journal: a ring of the last N entries (memory bounded by N and the per-body limit), looked up by id
// in O(1), listed newest first, with listeners told of each new entry synchronously (they must not block).
import { matchesFilter, type EntryDetail, type EntrySummary, type JournalFilter } from '../../core/inspector';

export type JournalEntry = EntryDetail;

export function toSummary(e: JournalEntry): EntrySummary {
  return {
    id: e.id,
    time: e.time,
    method: e.method,
    path: e.path,
    query: e.query,
    status: e.status,
    durationMs: e.durationMs,
    client: e.client,
    route: e.route,
    caller: e.caller,
    findings: e.findings,
    recordId: e.recordId,
    replayOf: e.replayOf,
  };
}

export class Journal {
  private readonly slots: (JournalEntry | undefined)[];
  /** Id the next entry gets; ids start at 1 and never repeat within a process. */
  private nextId = 1;
  /** Entries with an id at or below this were cleared. */
  private floor = 0;
  private readonly listeners = new Set<(entry: JournalEntry) => void>();

  constructor(readonly capacity: number) {
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
    this.slots[(id - 1) % this.capacity] = entry;
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

  clear(): void {
    this.floor = this.lastId;
    this.slots.fill(undefined);
  }

  subscribe(listener: (entry: JournalEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}
