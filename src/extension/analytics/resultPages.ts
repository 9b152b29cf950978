// The rows of an analytics query, page by page, as the panel's table and the exporter read them. Free of
// `vscode`, so the benchmark times this same code outside VS Code.
//
// The query's own `offset` and `limit` are the window the user asked for; pages are requested inside it by
// varying `limit`/`offset`, which is stable only with an `order`. Without one the query runs once as written,
// and a full answer is reported as possibly incomplete rather than silently cut.
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import type { AnalyticsApi } from '../../api/analytics';
import { MAX_LIMIT, type AnalyticsQuery, type AnalyticsRow } from '../../core/analytics';

export interface ResultPage {
  rows: AnalyticsRow[];
  /** Rows fetched so far, these included. */
  fetched: number;
  hasMore: boolean;
  /** Why nothing more will be fetched though more may exist. */
  note?: string;
}

/** Rows requested per page while the panel's table scrolls. */
export const TABLE_PAGE_SIZE = 500;

export function hasOrder(query: AnalyticsQuery): boolean {
  const order = query.order;
  return order !== undefined && (Array.isArray(order) ? order.length > 0 : Object.keys(order).length > 0);
}

export const UNORDERED_NOTE = "The query has no 'order', so it cannot be paged: these are the rows of one request and more may exist. Add an order to page through all of them.";

export async function* resultPages(api: AnalyticsApi, query: AnalyticsQuery, options: { pageSize: number; signal?: AbortSignal }): AsyncGenerator<ResultPage> {
  if (!hasOrder(query)) {
    const rows = await api.run(query, { signal: options.signal });
    const full = query.limit === undefined && rows.length >= MAX_LIMIT;
    yield { rows, fetched: rows.length, hasMore: full, note: full ? UNORDERED_NOTE : undefined };
    return;
  }
  const pageSize = Math.min(Math.max(1, Math.floor(options.pageSize)), MAX_LIMIT);
  const start = query.offset ?? 0;
  const cap = query.limit;
  let fetched = 0;
  for (;;) {
    const want = cap === undefined ? pageSize : Math.min(pageSize, cap - fetched);
    if (want <= 0) return;
    const rows = await api.run({ ...query, limit: want, offset: start + fetched }, { signal: options.signal });
    fetched += rows.length;
    const hasMore = rows.length === want && (cap === undefined || fetched < cap);
    yield { rows, fetched, hasMore };
    if (!hasMore) return;
  }
}

/** Pulls one page at a time on demand, for a table that fetches as it scrolls. */
export class ResultPager {
  private readonly iterator: AsyncGenerator<ResultPage>;
  private pending: Promise<ResultPage | undefined> | undefined;
  private finished = false;
  readonly abort = new AbortController();

  constructor(api: AnalyticsApi, query: AnalyticsQuery, pageSize = 500) {
    this.iterator = resultPages(api, query, { pageSize, signal: this.abort.signal });
  }

  get done(): boolean {
    return this.finished;
  }

  /** The next page; concurrent calls share one request; undefined once everything was fetched. */
  next(): Promise<ResultPage | undefined> {
    if (this.finished) return Promise.resolve(undefined);
    this.pending ??= this.iterator.next().then(
      (r) => {
        this.pending = undefined;
        if (r.done || !r.value.hasMore) this.finished = true;
        return r.done ? undefined : r.value;
      },
      (err: unknown) => {
        this.pending = undefined;
        this.finished = true;
        throw err;
      },
    );
    return this.pending;
  }

  dispose(): void {
    this.finished = true;
    this.abort.abort();
  }
}

/** RFC 4180: quote a cell holding a comma, quote or line break; double its quotes. */
export function csvCell(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export interface ExportOptions {
  format: 'csv' | 'json';
  pageSize?: number;
  signal?: AbortSignal;
  onProgress?: (rows: number) => void;
}

export interface ExportResult {
  rows: number;
  /** Set when the answer could not be paged and may hold more rows than were written. */
  note?: string;
}

/**
 * Streams every row of the query's window to `file`, page by page, waiting for the disk between pages.
 * A cancelled or failed export removes the partial file.
 */
export async function exportRows(api: AnalyticsApi, query: AnalyticsQuery, file: string, options: ExportOptions): Promise<ExportResult> {
  const out = createWriteStream(file, { encoding: 'utf8' });
  const closed = once(out, 'close');
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await once(out, 'drain');
  };
  let columns: string[] | undefined;
  let rows = 0;
  let note: string | undefined;
  try {
    if (options.format === 'json') await write('[');
    for await (const page of resultPages(api, query, { pageSize: options.pageSize ?? MAX_LIMIT, signal: options.signal })) {
      let chunk = '';
      for (const row of page.rows) {
        if (options.format === 'json') {
          chunk += (rows === 0 ? '\n' : ',\n') + JSON.stringify(row);
        } else {
          if (!columns) {
            columns = Object.keys(row);
            chunk += columns.map(csvCell).join(',') + '\r\n';
          }
          chunk += columns.map((c) => csvCell(row[c])).join(',') + '\r\n';
        }
        rows++;
      }
      await write(chunk);
      note = page.note;
      options.onProgress?.(rows);
    }
    if (options.format === 'json') await write(rows === 0 ? ']\n' : '\n]\n');
    out.end();
    await closed;
    return { rows, note };
  } catch (err) {
    out.destroy();
    await closed.catch(() => undefined);
    await rm(file, { force: true });
    throw err;
  }
}
