// Advanced search: POST /search/records (cursor paging) and POST /search/classifications (page numbers).
import type { z } from 'zod';
import { searchExpressionObject, type SearchRequest } from '../core/search';
import type { HttpClient } from './http';
import { readHeaders, type ReadOptions } from './core';
import { cursorPages, itemsOf, numberedPages } from './paging';
import { ClassificationSchema, RecordSchema, pagedSchema, type Classification, type DamRecord, type Paged } from './schemas';

/** A search as the client sends it: the core's request (the endpoint picks the target) with read options and a page size. */
export interface SearchQuery extends Omit<SearchRequest, 'target'>, ReadOptions {
  pageSize?: number;
}

/** The request body of both search endpoints (spec, "Search expression object"). */
export function searchBody(query: SearchQuery, cursor?: string): Record<string, unknown> {
  const body: Record<string, unknown> = { searchExpression: searchExpressionObject({ ...query, target: 'records' }) };
  if (cursor !== undefined) body.cursor = cursor;
  return body;
}

const RecordPage = pagedSchema(RecordSchema) as unknown as z.ZodType<Paged<DamRecord>>;
const ClassificationPage = pagedSchema(ClassificationSchema) as unknown as z.ZodType<Paged<Classification>>;

export class SearchApi {
  constructor(private readonly http: HttpClient) {}

  /** One page of records; pass the previous page's `nextCursor` as `cursor` with the same query. */
  async records(query: SearchQuery, page: { cursor?: string; skip?: number; take?: number } = {}): Promise<Paged<DamRecord>> {
    const { accept, headers } = readHeaders(query);
    const res = await this.http.request({
      method: 'POST',
      path: '/search/records',
      query: { pageSize: query.pageSize, sort: query.sort, skip: page.skip, take: page.take },
      json: searchBody(query, page.cursor),
      headers,
      accept,
      // A search changes nothing, so a lost answer or a 504 may be asked again.
      idempotent: true,
      schema: RecordPage,
      signal: query.signal,
    });
    return res.data;
  }

  recordPages(query: SearchQuery): AsyncGenerator<Paged<DamRecord>> {
    return cursorPages<DamRecord>((cursor, signal) => this.records({ ...query, signal }, { cursor }), query.signal);
  }

  recordItems(query: SearchQuery): AsyncGenerator<DamRecord> {
    return itemsOf(this.recordPages(query));
  }

  async classifications(query: SearchQuery, page: { page?: number } = {}): Promise<Paged<Classification>> {
    const { accept, headers } = readHeaders(query);
    const res = await this.http.request({
      method: 'POST',
      path: '/search/classifications',
      query: { pageSize: query.pageSize, sort: query.sort, page: page.page },
      json: searchBody(query),
      headers,
      accept,
      idempotent: true,
      schema: ClassificationPage,
      signal: query.signal,
    });
    return res.data;
  }

  /** All classification pages by page number (a POST search has no GET-able next link). */
  classificationPages(query: SearchQuery): AsyncGenerator<Paged<Classification>> {
    return numberedPages<Classification>((state, signal) => this.classifications({ ...query, signal }, { page: state.page }), { signal: query.signal, followLinks: false });
  }

  classificationItems(query: SearchQuery): AsyncGenerator<Classification> {
    return itemsOf(this.classificationPages(query));
  }
}
