// Advanced search: POST /search/records (cursor paging) and POST /search/classifications (page numbers).
import type { z } from 'zod';
import type { HttpClient } from './http';
import { readHeaders, type ReadOptions } from './core';
import { cursorPages, itemsOf, numberedPages } from './paging';
import { ClassificationSchema, RecordSchema, pagedSchema, type Classification, type DamRecord, type Paged } from './schemas';

export interface SearchQuery extends ReadOptions {
  expression: string;
  /** Values for unnamed `?` placeholders, in order. */
  parameters?: unknown[];
  /** Values for `@Name` placeholders, keyed without the `@`. */
  namedParameters?: Record<string, unknown>;
  /** Default true; false makes `*` and `?` literal. */
  supportWildcards?: boolean;
  defaultLogicalOperator?: 'AND' | 'OR';
  /** Plain sort expression, e.g. `Rank desc` or `Title, CreatedOn desc`. */
  sort?: string;
  pageSize?: number;
}

/** The request body of both search endpoints (spec, "Search expression object"). */
export function searchBody(query: SearchQuery, cursor?: string): Record<string, unknown> {
  const expression: Record<string, unknown> = { expression: query.expression };
  if (query.parameters !== undefined) expression.parameters = query.parameters;
  if (query.namedParameters !== undefined) {
    // Keys travel without the `@` (emulator contract); strip one if the caller wrote it.
    expression.namedParameters = Object.fromEntries(Object.entries(query.namedParameters).map(([k, v]) => [k.replace(/^@/, ''), v]));
  }
  if (query.supportWildcards !== undefined) expression.supportWildcards = query.supportWildcards;
  if (query.defaultLogicalOperator !== undefined) expression.defaultLogicalOperator = query.defaultLogicalOperator;
  const body: Record<string, unknown> = { searchExpression: expression };
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
