// The records directly under each classification of the DAM Explorer, paged by cursor. Free of `vscode`, so
// it is tested against the emulator outside VS Code. Pages are asked for as plain JSON and kept as the few
// attributes a row shows: a HAL record carries a dozen links (1.5 KB each, 7 times the record), which cost
// the service time to write, the host time to parse, and, kept for 10,000 rows, tens of megabytes.
import type { DamClient } from '../../api/client';
import type { DamRecord } from '../../api/schemas';

/** What a record row shows and its commands need; the rest is read when the row is opened. */
export type RecordRow = Pick<DamRecord, 'id' | 'title' | 'status' | 'contentType' | 'createdOn' | 'modifiedOn'>;

/** Paging state of the records directly under one classification; `rows` are whatever the owner makes of a record. */
export interface RecordPaging<T> {
  rows: T[];
  /** Cursor of the next page; undefined once the last page arrived. */
  nextCursor: string | undefined;
  /** Where the next page starts when Load All, reading pages side by side by position, was stopped part way. */
  nextSkip?: number;
  totalCount: number | undefined;
}

/** Whether a classification has records beyond its loaded rows. */
export function hasMore(paging: Readonly<RecordPaging<unknown>>): boolean {
  return paging.nextCursor !== undefined || paging.nextSkip !== undefined;
}

/** Load All's pages in flight at once; the connection's pacer still keeps them within the tenant's rate. */
export const LOAD_ALL_CONCURRENCY = 4;

export type SearchClient = Pick<DamClient, 'search'>;

/** The largest page the service serves: Load All asks for it (the cursor is bound to filter and sort, not to the page size). */
export const LOAD_ALL_PAGE_SIZE = 100;

export function recordRow(r: DamRecord): RecordRow {
  return { id: r.id, title: r.title, status: r.status, contentType: r.contentType, createdOn: r.createdOn, modifiedOn: r.modifiedOn };
}

export class RecordPages<T> {
  private readonly paging = new Map<string, RecordPaging<T>>();
  /** First pages on their way: callers share one request, and `forget` drops them. */
  private readonly pending = new Map<string, Promise<RecordPaging<T>>>();

  constructor(
    private readonly pageSize: () => number,
    /** Makes the row kept for a record (once per record, so every caller holds the same object). */
    private readonly toRow: (classificationId: string, record: RecordRow) => T,
  ) {}

  get(classificationId: string): Readonly<RecordPaging<T>> | undefined {
    return this.paging.get(classificationId);
  }

  forget(classificationId: string): void {
    this.paging.delete(classificationId);
    // A page asked for before the refresh may answer after it: it must not come back as current.
    this.pending.delete(classificationId);
  }

  clear(): void {
    this.paging.clear();
    this.pending.clear();
  }

  /** Classifications whose loaded rows hold `recordId`. */
  holding(recordId: string, idOf: (row: T) => string): string[] {
    return [...this.paging].filter(([, p]) => p.rows.some((r) => idOf(r) === recordId)).map(([id]) => id);
  }

  /**
   * Takes a record out of a classification's loaded rows (it left it, or the tenant); whether anything changed. `left`
   * says the service took it out of this classification: the count then drops even when its row was not loaded (it
   * sorted after the loaded page), as `insert` counted one that joined there without a row.
   */
  remove(classificationId: string, recordId: string, idOf: (row: T) => string, left = false): boolean {
    const paging = this.paging.get(classificationId);
    if (!paging) return false;
    const index = paging.rows.findIndex((r) => idOf(r) === recordId);
    if (index < 0 && !left) return false;
    if (index >= 0) paging.rows.splice(index, 1);
    if (paging.totalCount !== undefined) paging.totalCount = Math.max(0, paging.totalCount - 1);
    return true;
  }

  /**
   * A record that joined a classification, placed among the loaded rows by title as the service sorts them. One
   * that sorts after the last loaded row arrives with a later page, so only the count grows. Undefined when the
   * classification's rows are not loaded.
   */
  insert(classificationId: string, record: RecordRow, idOf: (row: T) => string, titleOf: (row: T) => string): T | undefined {
    const paging = this.paging.get(classificationId);
    if (!paging || paging.rows.some((r) => idOf(r) === record.id)) return undefined;
    if (paging.totalCount !== undefined) paging.totalCount++;
    const title = record.title ?? '';
    const index = paging.rows.findIndex((r) => titleOf(r).localeCompare(title) > 0);
    if (index < 0 && paging.nextCursor) return undefined;
    const row = this.toRow(classificationId, recordRow(record as DamRecord));
    paging.rows.splice(index < 0 ? paging.rows.length : index, 0, row);
    return row;
  }

  /** The first page (or everything loaded so far), fetched once however many callers ask at the same time. */
  first(client: SearchClient, classificationId: string): Promise<RecordPaging<T>> {
    const existing = this.paging.get(classificationId);
    if (existing) return Promise.resolve(existing);
    const pending = this.pending.get(classificationId);
    if (pending) return pending;
    const request = this.fetch(client, classificationId, undefined, this.pageSize()).then(
      (page) => {
        const paging: RecordPaging<T> = { rows: this.rows(classificationId, page.items), nextCursor: page.nextCursor ?? undefined, totalCount: page.totalCount ?? undefined };
        // Kept only if no refresh came in between; the caller gets its page either way.
        if (this.pending.get(classificationId) === request) {
          this.pending.delete(classificationId);
          this.paging.set(classificationId, paging);
        }
        return paging;
      },
      (err: unknown) => {
        if (this.pending.get(classificationId) === request) this.pending.delete(classificationId);
        throw err;
      },
    );
    this.pending.set(classificationId, request);
    return request;
  }

  /** Appends the next page; the number of records it brought (0 when nothing is left or nothing was loaded). */
  async more(client: SearchClient, classificationId: string, signal?: AbortSignal, pageSize = this.pageSize()): Promise<number> {
    const paging = this.paging.get(classificationId);
    if (!paging || !hasMore(paging)) return 0;
    const skip = paging.nextCursor === undefined ? paging.nextSkip : undefined;
    const page = await this.fetch(client, classificationId, paging.nextCursor, pageSize, signal, skip);
    // A refresh while the page was on its way replaced the paging: this page belongs to the old one.
    if (this.paging.get(classificationId) !== paging) return 0;
    for (const row of this.rows(classificationId, page.items)) paging.rows.push(row);
    paging.totalCount = page.totalCount ?? paging.totalCount;
    if (skip === undefined) paging.nextCursor = page.nextCursor ?? undefined;
    else paging.nextSkip = page.items.length && skip + page.items.length < (paging.totalCount ?? Infinity) ? skip + page.items.length : undefined;
    return page.items.length;
  }

  /**
   * Every remaining page, in the largest pages the service serves; `onPage` hears the running count after each
   * page. `redraw` is called once, at the end (also when cancelled or failed): a redraw makes VS Code read and
   * send every row again, and redrawing a growing list while it loads (every 500 ms before) cost the host
   * 58 MB more resident memory after 10,000 records than drawing it once; the progress notification shows the
   * count meanwhile.
   */
  async all(client: SearchClient, classificationId: string, signal: AbortSignal, onPage: (shown: number, total: number | undefined) => void, redraw: () => void, idOf?: (row: T) => string): Promise<void> {
    const paging = await this.first(client, classificationId);
    try {
      // With the total known, the remaining pages are read side by side by position (the search takes skip and take),
      // not one after another by cursor: across the internet each page was one more round trip.
      if (paging.nextCursor && paging.totalCount !== undefined && idOf) await this.sideBySide(client, classificationId, paging, signal, onPage, idOf);
      while (hasMore(paging) && !signal.aborted && this.paging.get(classificationId) === paging) {
        if ((await this.more(client, classificationId, signal, LOAD_ALL_PAGE_SIZE)) === 0) break;
        onPage(paging.rows.length, paging.totalCount);
      }
    } finally {
      redraw();
    }
  }

  /**
   * The pages after the loaded rows, up to the total, LOAD_ALL_CONCURRENCY at a time, appended in their order as each
   * next one arrives. A record that moved up a page while they were read would come twice: it is kept once. Stopped
   * part way (cancelled, or a page failed), the rows so far stay and the rest continues from its position.
   */
  private async sideBySide(client: SearchClient, classificationId: string, paging: RecordPaging<T>, signal: AbortSignal, onPage: (shown: number, total: number | undefined) => void, idOf: (row: T) => string): Promise<void> {
    const start = paging.rows.length;
    const count = Math.ceil(((paging.totalCount ?? 0) - start) / LOAD_ALL_PAGE_SIZE);
    if (count <= 0) return;
    const seen = new Set(paging.rows.map(idOf));
    const pages: (readonly DamRecord[] | undefined)[] = new Array(count);
    let appended = 0;
    let next = 0;
    const current = () => this.paging.get(classificationId) === paging;
    const flush = () => {
      // Cancelled from a page's progress: the pages that arrived after it are not shown either (the rest, from the
      // position reached, is what a later Load More reads).
      while (appended < count && pages[appended] && current() && !stop.signal.aborted) {
        for (const row of this.rows(classificationId, pages[appended]!)) {
          if (seen.has(idOf(row))) continue;
          seen.add(idOf(row));
          paging.rows.push(row);
        }
        pages[appended++] = undefined;
        onPage(paging.rows.length, paging.totalCount);
      }
    };
    // A failed page stops the others too, so nothing arrives after the paging's state was settled below.
    const stop = new AbortController();
    const onAbort = () => stop.abort(signal.reason);
    signal.addEventListener('abort', onAbort);
    const worker = async () => {
      while (next < count && !stop.signal.aborted && current()) {
        const i = next++;
        const page = await this.fetch(client, classificationId, undefined, LOAD_ALL_PAGE_SIZE, stop.signal, start + i * LOAD_ALL_PAGE_SIZE);
        if (stop.signal.aborted) return;
        pages[i] = page.items;
        flush();
      }
    };
    try {
      const ends = await Promise.allSettled(Array.from({ length: Math.min(LOAD_ALL_CONCURRENCY, count) }, () => worker().catch((err: unknown) => {
        stop.abort(err);
        throw err;
      })));
      const failed = ends.find((e): e is PromiseRejectedResult => e.status === 'rejected');
      if (failed && !signal.aborted) throw failed.reason;
    } finally {
      signal.removeEventListener('abort', onAbort);
      if (current()) {
        // The cursor points after the first page: the rest, if any, goes on by position.
        paging.nextCursor = undefined;
        const read = start + appended * LOAD_ALL_PAGE_SIZE;
        paging.nextSkip = appended < count ? read : undefined;
      }
    }
  }

  private fetch(client: SearchClient, classificationId: string, cursor: string | undefined, pageSize: number, signal?: AbortSignal, skip?: number) {
    // Cursor paging needs the same expression and sort on every page; the id travels as a parameter.
    return client.search.records(
      { expression: 'DirectClassification = @classification', namedParameters: { classification: classificationId }, sort: 'Title', pageSize, plain: true, signal },
      skip === undefined ? { cursor } : { skip, take: pageSize },
    );
  }

  private rows(classificationId: string, records: readonly DamRecord[]): T[] {
    return records.map((r) => this.toRow(classificationId, recordRow(r)));
  }
}
