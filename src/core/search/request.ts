// One search request, from a `.dam-query` section or a caller of the client to the emulator's SQL: the spec's six
// search options under one type, and their defaults in one place.
import type { LogicalOperator } from './ast';
import { parameterKey } from './bind';
import type { QueryTarget } from './catalogue';
import type { QuerySection } from './document';

export interface SearchRequest {
  /** Which search endpoint: POST /search/records or /search/classifications. */
  target: QueryTarget;
  expression: string;
  /** Values of unnamed `?` placeholders, in order. */
  parameters?: readonly unknown[];
  /** Values of `@Name` placeholders, keyed without the `@` (a key written with it is accepted). */
  namedParameters?: Readonly<Record<string, unknown>>;
  /** `*` and `?` are wildcards unless false. */
  supportWildcards?: boolean;
  /** Joins criteria written side by side with no operator. */
  defaultLogicalOperator?: LogicalOperator;
  /** A plain sort expression (`Title, CreatedOn desc`, `Rank desc`). */
  sort?: string;
  /**
   * Further expressions, each with its own parameters and options, joined to `expression` (and to each other) by this
   * request's `defaultLogicalOperator`, as criteria written side by side are.
   */
  subExpressions?: readonly SubExpression[];
}

/** One of `subExpressions`: a search expression object of its own (no target, no sort). */
export type SubExpression = Omit<SearchRequest, 'target' | 'sort'>;

/** What the spec says the service assumes when a request leaves an option out. */
export const SEARCH_DEFAULTS = { supportWildcards: true, defaultLogicalOperator: 'OR' } as const satisfies Partial<SearchRequest>;

/** A request with every option decided: what the emulator evaluates. */
export type ResolvedSearchRequest = Required<Omit<SearchRequest, 'sort' | 'subExpressions'>> & { sort: string; subExpressions: ResolvedSubExpression[] };

export type ResolvedSubExpression = Omit<ResolvedSearchRequest, 'target' | 'sort' | 'subExpressions'> & { subExpressions: ResolvedSubExpression[] };

export function withSearchDefaults(request: SearchRequest): ResolvedSearchRequest {
  return {
    target: request.target,
    expression: request.expression,
    parameters: request.parameters ?? [],
    namedParameters: request.namedParameters ?? {},
    supportWildcards: request.supportWildcards ?? SEARCH_DEFAULTS.supportWildcards,
    defaultLogicalOperator: request.defaultLogicalOperator ?? SEARCH_DEFAULTS.defaultLogicalOperator,
    sort: request.sort?.trim() ?? '',
    subExpressions: (request.subExpressions ?? []).map((sub) => withSubDefaults(sub)),
  };
}

function withSubDefaults(sub: SubExpression): ResolvedSubExpression {
  const { target: _target, sort: _sort, ...rest } = withSearchDefaults({ ...sub, target: 'records' });
  return rest;
}

/**
 * The spec's search expression object (`searchExpression` of the request body). Only what the request says is sent,
 * so the service's own defaults apply to the rest; named parameter keys travel without the `@`.
 */
export function searchExpressionObject(request: SearchRequest): Record<string, unknown> {
  const out: Record<string, unknown> = { expression: request.expression };
  if (request.parameters !== undefined) out.parameters = request.parameters;
  if (request.namedParameters !== undefined) {
    out.namedParameters = Object.fromEntries(Object.entries(request.namedParameters).map(([k, v]) => [parameterKey(k), v]));
  }
  if (request.supportWildcards !== undefined) out.supportWildcards = request.supportWildcards;
  if (request.defaultLogicalOperator !== undefined) out.defaultLogicalOperator = request.defaultLogicalOperator;
  if (request.subExpressions?.length) out.subExpressions = request.subExpressions.map((sub) => searchExpressionObject({ ...sub, target: request.target }));
  return out;
}

/**
 * The request a `.dam-query` section makes: its expression (trailing spaces trimmed; line breaks kept, the service
 * ignores whitespace) with its directives; a directive left at its default is not sent.
 */
export function sectionRequest(section: QuerySection): SearchRequest {
  const request: SearchRequest = { target: section.target, expression: section.expression.replace(/[ \t]+$/gm, '') };
  const params = Object.entries(section.params);
  if (params.length > 0) request.namedParameters = Object.fromEntries(params.map(([name, p]) => [name, p.value]));
  if (section.wildcards !== SEARCH_DEFAULTS.supportWildcards) request.supportWildcards = section.wildcards;
  if (section.defaultOperator !== SEARCH_DEFAULTS.defaultLogicalOperator) request.defaultLogicalOperator = section.defaultOperator;
  if (section.sort) request.sort = section.sort.text;
  return request;
}
