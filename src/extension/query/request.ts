// What a `.dam-query` section asks the service for: the core's search request with the section's name.
// Pure (no `vscode`, no client): the runner, the exporter, history and unit tests share it.
import { SEARCH_DEFAULTS, sectionRequest, type QuerySection, type SearchRequest } from '../../core/search';
import type { SearchQuery } from '../../api/search';

export interface QueryRequest extends SearchRequest {
  name: string;
}

/** The request of one section (the core decides what the section sends). */
export function requestOf(section: QuerySection, fallbackName: string): QueryRequest {
  return { name: section.name ?? fallbackName, ...sectionRequest(section) };
}

/**
 * A request kept in history by an earlier version, which wrote every option (`sort: null`, the defaults): read as
 * today's, sending only what differs from the defaults.
 */
export function upgradeRequest(stored: QueryRequest & { sort?: string | null }): QueryRequest {
  const { sort, namedParameters, supportWildcards, defaultLogicalOperator, ...rest } = stored;
  const request: QueryRequest = { ...rest };
  if (sort) request.sort = sort;
  if (namedParameters && Object.keys(namedParameters).length > 0) request.namedParameters = namedParameters;
  if (supportWildcards !== undefined && supportWildcards !== SEARCH_DEFAULTS.supportWildcards) request.supportWildcards = supportWildcards;
  if (defaultLogicalOperator !== undefined && defaultLogicalOperator !== SEARCH_DEFAULTS.defaultLogicalOperator) request.defaultLogicalOperator = defaultLogicalOperator;
  return request;
}

/** The client's search query for a request. */
export function searchQueryOf(request: QueryRequest, pageSize: number, signal?: AbortSignal): SearchQuery {
  const { name: _name, target: _target, ...search } = request;
  return { ...search, pageSize, signal };
}

/** One line of the history list. */
export function describeRequest(r: QueryRequest): string {
  const flat = r.expression.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 117)}…` : flat;
}
