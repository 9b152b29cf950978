// The analytics client: runs a query object against {analytics_url}/analytics/ and pages through long answers by limit/offset.
import {
  AnalyticsQueryError,
  analyticsAnswerSchema,
  checkAnalyticsQuery,
  MAX_LIMIT,
  type AnalyticsQuery,
  type AnalyticsRow,
} from '../core/analytics';
import type { HttpClient } from './http';

export { analyticsQuery, AnalyticsQueryError, type AnalyticsQuery, type AnalyticsRow } from '../core/analytics';

export interface RunOptions {
  signal?: AbortSignal;
  /** Skip the local check (send the query as it is, e.g. to see the service's own message). */
  skipValidation?: boolean;
}

export interface PageOptions {
  /** Rows per request (`limit`); at most 10000, default the query's own limit or 10000. */
  pageSize?: number;
  signal?: AbortSignal;
}

/** Thrown by `pages()`/`rows()` for a query without `order`: the service's pages are stable only with one. */
export class UnorderedPagingError extends Error {
  constructor() {
    super("Paging needs 'order' in the query: without it the service may return rows in a different order on every page.");
    this.name = 'UnorderedPagingError';
  }
}

export class AnalyticsApi {
  constructor(private readonly http: HttpClient) {}

  /**
   * One request: the rows of one answer (at most `limit`, or 10000). The query is checked first with
   * the rules `dam lint` uses, so a mistake is reported without a round trip.
   */
  async run(query: AnalyticsQuery, options: RunOptions = {}): Promise<AnalyticsRow[]> {
    if (!options.skipValidation) {
      const checked = checkAnalyticsQuery(query);
      if (!checked.ok) throw new AnalyticsQueryError(checked.problems);
    }
    const res = await this.http.request({
      endpoint: 'analytics',
      path: '/analytics/',
      query: { query: JSON.stringify(query) },
      accept: 'application/json',
      schema: analyticsAnswerSchema,
      signal: options.signal,
    });
    return res.data.data;
  }

  /**
   * Every page of the answer, `pageSize` rows at a time from the query's `offset`, until a short page.
   * Refuses a query without `order`, since unordered pages may overlap or skip rows.
   */
  async *pages(query: AnalyticsQuery, options: PageOptions = {}): AsyncGenerator<AnalyticsRow[]> {
    if (query.order === undefined || (Array.isArray(query.order) ? query.order.length === 0 : Object.keys(query.order).length === 0)) {
      throw new UnorderedPagingError();
    }
    const pageSize = Math.min(options.pageSize ?? query.limit ?? MAX_LIMIT, MAX_LIMIT);
    if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`pageSize must be a whole number from 1 to ${MAX_LIMIT}`);
    let offset = query.offset ?? 0;
    for (;;) {
      const rows = await this.run({ ...query, limit: pageSize, offset }, { signal: options.signal });
      if (rows.length > 0) yield rows;
      if (rows.length < pageSize) return;
      offset += rows.length;
    }
  }

  /** Every row of the answer, one at a time (see `pages`). */
  async *rows(query: AnalyticsQuery, options: PageOptions = {}): AsyncGenerator<AnalyticsRow> {
    for await (const page of this.pages(query, options)) yield* page;
  }
}
