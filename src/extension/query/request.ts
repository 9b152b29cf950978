// What a `.dam-query` section asks the service for: its expression with the directives applied.
// Pure (no `vscode`, no client): the runner, the exporter, history and unit tests share it.
import type { QuerySection } from '../../core/search';
import type { SearchQuery } from '../../api/search';

export interface QueryRequest {
  name: string;
  target: 'records' | 'classifications';
  expression: string;
  sort: string | null;
  namedParameters: Record<string, string>;
  supportWildcards: boolean;
  defaultLogicalOperator: 'AND' | 'OR';
}

/** The request of one section; the expression keeps its line breaks (the service ignores whitespace). */
export function requestOf(section: QuerySection, fallbackName: string): QueryRequest {
  const namedParameters: Record<string, string> = {};
  for (const [name, p] of Object.entries(section.params)) namedParameters[name] = p.value;
  return {
    name: section.name ?? fallbackName,
    target: section.target,
    expression: section.expression.replace(/[ \t]+$/gm, ''),
    sort: section.sort?.text ?? null,
    namedParameters,
    supportWildcards: section.wildcards,
    defaultLogicalOperator: section.defaultOperator,
  };
}

/** The client's search query for a request; only what the section said is sent, so defaults stay the service's. */
export function searchQueryOf(request: QueryRequest, pageSize: number, signal?: AbortSignal): SearchQuery {
  const q: SearchQuery = { expression: request.expression, pageSize, signal };
  if (Object.keys(request.namedParameters).length > 0) q.namedParameters = request.namedParameters;
  if (!request.supportWildcards) q.supportWildcards = false;
  if (request.defaultLogicalOperator !== 'OR') q.defaultLogicalOperator = request.defaultLogicalOperator;
  if (request.sort) q.sort = request.sort;
  return q;
}

/** One line of the history list. */
export function describeRequest(r: QueryRequest): string {
  const flat = r.expression.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 117)}…` : flat;
}
