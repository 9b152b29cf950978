// Pages of a query's results, fetched one at a time on demand: cursor paging for records, page
// numbers for classifications. The panel and the exporter both read from it.
import type { DamClient } from '../../api/client';
import type { SearchQuery } from '../../api/search';
import type { QueryRequest } from './request';
import { searchQueryOf } from './request';

export type ResultItem = Record<string, unknown> & { id: string };

export interface Page {
  items: ResultItem[];
  totalCount: number | null;
  done: boolean;
}

export class Pager {
  private readonly pages: AsyncGenerator<{ items: unknown[]; totalCount?: number | null }>;
  private finished = false;
  totalCount: number | null = null;
  fetched = 0;

  /** `read`: how the items are asked for beyond the request (the CSV export wants plain JSON with the field values). */
  constructor(client: DamClient, readonly request: QueryRequest, pageSize: number, signal?: AbortSignal, read: Pick<SearchQuery, 'plain' | 'select'> = {}) {
    const query = { ...searchQueryOf(request, pageSize, signal), ...read };
    this.pages = request.target === 'classifications' ? client.search.classificationPages(query) : client.search.recordPages(query);
  }

  get done(): boolean {
    return this.finished;
  }

  async next(): Promise<Page> {
    if (this.finished) return { items: [], totalCount: this.totalCount, done: true };
    const r = await this.pages.next();
    if (r.done) {
      this.finished = true;
      return { items: [], totalCount: this.totalCount, done: true };
    }
    const items = r.value.items as ResultItem[];
    if (typeof r.value.totalCount === 'number') this.totalCount = r.value.totalCount;
    this.fetched += items.length;
    // The generator ends after the last page; knowing that now saves the user one empty request.
    if (items.length === 0 || (this.totalCount !== null && this.fetched >= this.totalCount)) this.finished = true;
    return { items, totalCount: this.totalCount, done: this.finished };
  }

  async dispose(): Promise<void> {
    await this.pages.return(undefined).catch(() => undefined);
  }
}
