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
  totalCount: number | undefined;
}

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

  /** Takes a record out of a classification's loaded rows (it left it, or the tenant); whether it was there. */
  remove(classificationId: string, recordId: string, idOf: (row: T) => string): boolean {
    const paging = this.paging.get(classificationId);
    const index = paging?.rows.findIndex((r) => idOf(r) === recordId) ?? -1;
    if (!paging || index < 0) return false;
    paging.rows.splice(index, 1);
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
    if (!paging?.nextCursor) return 0;
    const page = await this.fetch(client, classificationId, paging.nextCursor, pageSize, signal);
    // A refresh while the page was on its way replaced the paging: this page belongs to the old one.
    if (this.paging.get(classificationId) !== paging) return 0;
    for (const row of this.rows(classificationId, page.items)) paging.rows.push(row);
    paging.nextCursor = page.nextCursor ?? undefined;
    paging.totalCount = page.totalCount ?? paging.totalCount;
    return page.items.length;
  }

  /**
   * Every remaining page, in the largest pages the service serves; `onPage` hears the running count after each
   * page. `redraw` is called once, at the end (also when cancelled or failed): a redraw makes VS Code read and
   * send every row again, and redrawing a growing list while it loads (every 500 ms before) cost the host
   * 58 MB more resident memory after 10,000 records than drawing it once; the progress notification shows the
   * count meanwhile.
   */
  async all(client: SearchClient, classificationId: string, signal: AbortSignal, onPage: (shown: number, total: number | undefined) => void, redraw: () => void): Promise<void> {
    const paging = await this.first(client, classificationId);
    try {
      while (paging.nextCursor && !signal.aborted) {
        if ((await this.more(client, classificationId, signal, LOAD_ALL_PAGE_SIZE)) === 0) break;
        onPage(paging.rows.length, paging.totalCount);
      }
    } finally {
      redraw();
    }
  }

  private fetch(client: SearchClient, classificationId: string, cursor: string | undefined, pageSize: number, signal?: AbortSignal) {
    // Cursor paging needs the same expression and sort on every page; the id travels as a parameter.
    return client.search.records(
      { expression: 'DirectClassification = @classification', namedParameters: { classification: classificationId }, sort: 'Title', pageSize, plain: true, signal },
      { cursor },
    );
  }

  private rows(classificationId: string, records: readonly DamRecord[]): T[] {
    return records.map((r) => this.toRow(classificationId, recordRow(r)));
  }
}
