// A short-lived cache of the head of ordered answers, so paging by limit/offset aggregates a few times instead of once per page.
//
// Cube caches query results the same way (refreshed every few seconds), so an answer up to `ttlMs` old is
// what a client of the real service sees too. Changes to the event tables invalidate at once: their
// statement triggers advance a sequence (non-transactional, so writers never wait on each other).
import type { Queryable } from '../storage/store';

type Row = Record<string, string | null>;

interface Entry {
  version: string;
  at: number;
  /** The first `end` rows of the ordered answer (fewer when the answer is shorter: then it is complete). */
  rows: Row[];
  end: number;
}

export interface AnswerCacheOptions {
  ttlMs: number;
  maxEntries: number;
  /** Pages past this many rows are not cached: they are read with LIMIT/OFFSET directly. */
  maxRows: number;
  /** The first read of an answer fetches this many pages ahead, later reads double the window. */
  pagesAhead: number;
  now: () => number;
}

export class AnswerCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly options: AnswerCacheOptions) {}

  clear(): void {
    this.entries.clear();
  }

  /**
   * Rows [offset, offset + limit) of the answer `key`. `fetchHead(n)` reads the first n rows of the ordered
   * answer; undefined means the page lies beyond what is cached and the caller reads it directly.
   */
  async page(db: Queryable, key: string, offset: number, limit: number, fetchHead: (n: number) => Promise<Row[]>): Promise<Row[] | undefined> {
    const needed = offset + limit;
    if (needed > this.options.maxRows) return undefined;
    const [{ version }] = await db.query<{ version: string }>('SELECT last_value::text AS version FROM analytics_data_version');
    const now = this.options.now();
    let entry = this.entries.get(key);
    const fresh = entry && entry.version === version && now - entry.at < this.options.ttlMs;
    const covers = entry && (entry.rows.length < entry.end || needed <= entry.end);
    if (!fresh || !covers || !entry) {
      const end = Math.min(this.options.maxRows, Math.max(needed, limit * this.options.pagesAhead, fresh && entry ? entry.end * 2 : 0));
      entry = { version, at: now, rows: await fetchHead(end), end };
      this.entries.delete(key);
      this.entries.set(key, entry);
      // Map order is insertion order: the first key is the least recently stored.
      while (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    }
    return entry.rows.slice(offset, needed);
  }
}
