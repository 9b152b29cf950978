// Runs a records or classifications search: parse, bind, check with the core's rules (the same verdicts as `dam lint`
// and the editor), compile to SQL, count, page (offset or cursor).
import {
  bindParameters,
  checkExpression,
  checkSort,
  guidKey,
  lookupProperty,
  parseExpression,
  parseSort,
  withSearchDefaults,
  type Diagnostic,
  type FieldRef,
  type Expr,
  type QuerySchema,
  type ResolvedSubExpression,
  type SearchExpression,
  type SearchRequest,
  type SortExpression,
} from '../../core/search';
import type { EmulatorContext } from '../context';
import { errors } from '../errors';
import { COLUMNS, Compiler, SqlBuilder, type CompileInput, type FieldDef } from './compile';
import { countPlan, type DateSort } from './countIndex';
import { decodeCursor, encodeCursor } from './cursor';
import { countFacets, type FacetRequest, type FacetResult } from './facets';
import { RowCache, type TrackedStore } from '../storage/tracking';

export interface SearchPage {
  offset: number;
  limit: number;
  cursor?: string;
  /** `filter`/`sort` from a query string or header: "only the plain form (no parameters)". */
  plainForm?: boolean;
}

export interface SearchResult {
  ids: string[];
  /** When facets were asked: their values and the names of those cut at their maximum. */
  facets?: { facets: FacetResult[]; truncatedFacets: string[] };
  totalCount: number;
  offset: number;
  nextCursor: string | null;
}

/**
 * The first error of a check in words, with its stable code, as `dam lint` and the editor report it; undefined when
 * there is none. Limits (length, nesting) and control characters are among these errors (core LIMITS).
 */
export function firstError(diagnostics: readonly Diagnostic[]): string | undefined {
  const error = diagnostics.find((d) => d.severity === 'error');
  return error && `${error.message} (${error.code})`;
}

/** A 400 naming the first error a check reported. */
function refuse(diagnostics: readonly Diagnostic[], what: string): void {
  const error = firstError(diagnostics);
  if (error) throw errors.invalidSearchExpression(`Invalid ${what}: ${error}`);
}

interface TenantFields {
  schema: QuerySchema;
  resolve(by: FieldRef['by'], key: string): FieldDef | undefined;
}

/**
 * Per store, valid while nothing is written: the tenant's field definitions (read by every records search), and the
 * totals of recent searches, so paging through a search (each cursor page is a search again) counts its hits once.
 */
const caches = new WeakMap<TrackedStore, { fields: RowCache<TenantFields>; totals: RowCache<number> }>();

function cachesOf(store: TrackedStore) {
  let found = caches.get(store);
  if (!found) caches.set(store, (found = { fields: new RowCache<TenantFields>(store, 1), totals: new RowCache<number>(store, 1000) }));
  return found;
}

async function tenantFields(ctx: EmulatorContext): Promise<TenantFields> {
  return (await cachesOf(ctx.store).fields.get('fields', () => readTenantFields(ctx)))!;
}

/** The tenant's field definitions: the schema the core checks against, and the resolver the compiler maps with. */
async function readTenantFields(ctx: EmulatorContext): Promise<TenantFields> {
  const rows = await ctx.store.query<{ id: string; name: string; data_type: string; label: string | null; options: { id: string; name: string; label?: string }[] }>(
    `SELECT id, name, data_type, labels->0->>'value' AS label, options FROM field_definitions`,
  );
  const schema: QuerySchema = {
    fields: rows.map((r) => ({
      id: r.id,
      name: r.name,
      label: r.label ?? undefined,
      dataType: r.data_type as never,
      options: Array.isArray(r.options) ? r.options.map((o) => ({ id: o.id, name: o.name, label: o.label })) : [],
    })),
  };
  return {
    schema,
    resolve(by, key) {
      const k = key.toLowerCase();
      const row = rows.find((r) =>
        by === 'id' ? r.id === guidKey(key) : by === 'name' ? r.name.toLowerCase() === k : (r.label ?? '').toLowerCase() === k,
      );
      return row && { id: row.id, name: row.name, dataType: row.data_type };
    },
  };
}

/** One expression object parsed, bound and checked; its subExpressions joined to it by its default operator. */
function boundExpression(
  target: SearchRequest['target'],
  e: ResolvedSubExpression,
  page: SearchPage,
  schema: QuerySchema | undefined,
): SearchExpression {
  // `Title startswith Gol` is full text to a tenant (it finds nothing): answered so here, though the editor flags it.
  const parsed = parseExpression(e.expression, { supportWildcards: e.supportWildcards, defaultOperator: e.defaultLogicalOperator, foreignOperatorsAsText: true });
  refuse(parsed.diagnostics, 'search expression');
  if (page.plainForm) refuse(checkExpression(parsed.ast, { target, allowPlaceholders: false }).filter((d) => d.code === 'DQ3008'), 'filter');
  const bound = bindParameters(parsed.ast, e.parameters, e.namedParameters, { supportWildcards: e.supportWildcards });
  refuse(bound.diagnostics, 'search expression');
  refuse(checkExpression(bound.ast, { target, schema, allowPlaceholders: !page.plainForm }), 'search expression');
  if (!e.subExpressions.length) return bound.ast;
  const operands = [bound.ast, ...e.subExpressions.map((sub) => boundExpression(target, sub, page, schema))]
    .map((s) => s.body)
    .filter((b): b is Expr => b !== null);
  if (!operands.length) return bound.ast;
  const range = { start: 0, end: e.expression.length };
  const body: Expr = operands.length === 1 ? operands[0] : { kind: e.defaultLogicalOperator === 'AND' ? 'and' : 'or', implicit: true, syntax: 'keyword', operands, range };
  return { kind: 'search', body, range };
}

/**
 * A records search with at most this many hits has its page read by their ids (from the search index) and sorted,
 * rather than by walking the sort order's index and testing each record until a page of them pass: at a million
 * records a search that 0.2 % of them match walks some 25,000 records for its first page (0.6 s on PGlite).
 */
const HITS_PAGE_MAX = 20_000;

/**
 * The date order a records search's page is in, when it is one the search index holds: no sort (the newest first),
 * or a sort by CreatedOn or ModifiedOn alone (both then by id, compile.ts orderBy).
 */
function dateSortOf(sort: SortExpression | undefined): DateSort | undefined {
  if (!sort || !sort.items.length) return { column: 'created', descending: true };
  const [item, ...rest] = sort.items;
  if (rest.length || item.target.kind === 'field') return undefined;
  const info = lookupProperty('records', item.target.name);
  const column = info?.sortable ? COLUMNS.records.get(info.name) : undefined;
  const descending = item.direction === 'desc';
  if (column?.on !== 'row') return undefined;
  if (column.sql === 'r.created_on') return { column: 'created', descending };
  if (column.sql === 'r.modified_on') return { column: 'modified', descending };
  return undefined;
}

/** The page of exactly these records (a search's hits) in the search's order: the same rows, in the same order, as the search's own SQL page. */
async function pageOfHits(ctx: EmulatorContext, ids: string[], input: CompileInput, sort: SortExpression | undefined, limit: number, offset: number): Promise<{ id: string }[]> {
  if (offset >= ids.length) return [];
  const sql = new SqlBuilder();
  const hits = sql.bind(ids);
  const order = new Compiler(input, sql).orderBy(sort, 'r.created_on DESC');
  return ctx.store.query<{ id: string }>(`SELECT r.id FROM records r WHERE r.id = ANY(${hits}::text[]) ORDER BY ${order} LIMIT ${sql.bind(limit)}::int OFFSET ${sql.bind(offset)}::int`, sql.params);
}

export async function runSearch(ctx: EmulatorContext, request: SearchRequest, page: SearchPage, facets?: readonly FacetRequest[]): Promise<SearchResult> {
  const r = withSearchDefaults(request);
  const fields = r.target === 'records' ? await tenantFields(ctx) : undefined;
  const bound = { ast: boundExpression(r.target, r, page, fields?.schema) };
  const sortParsed = r.sort ? parseSort(r.sort) : undefined;
  if (sortParsed) {
    refuse(sortParsed.diagnostics, 'sort expression');
    refuse(checkSort(sortParsed.ast, { target: r.target, schema: fields?.schema }), 'sort expression');
  }

  // What a cursor is bound to: the filter (expression, parameters, options) and the sort.
  const filterKey = { t: r.target, e: r.expression, p: r.parameters, n: r.namedParameters, w: r.supportWildcards, d: r.defaultLogicalOperator, s: r.subExpressions };
  let offset = page.offset;
  if (page.cursor) offset = decodeCursor(ctx.secret, page.cursor, filterKey, r.sort);

  const sql = new SqlBuilder();
  const compileInput: CompileInput = { target: r.target, resolveField: fields ? fields.resolve : () => undefined, now: ctx.clock.now() };
  const compiler = new Compiler(compileInput, sql);
  const where = compiler.compile(bound.ast);
  const table = r.target === 'records' ? 'records r' : 'classifications c';
  const alias = r.target === 'records' ? 'r' : 'c';
  const whereParams = [...sql.params];
  const order = compiler.orderBy(sortParsed?.ast, r.target === 'records' ? 'r.created_on DESC' : 'c.name_path');
  const limit = `${sql.bind(page.limit)}::int`;
  const off = `${sql.bind(offset)}::int`;
  const countSql = `SELECT count(*)::int AS n FROM ${table} WHERE ${where}`;
  const pageSql = `SELECT ${alias}.id FROM ${table} WHERE ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${off}`;
  // From the search index when it is current and holds every part of the search; else counted in SQL.
  const plan = countPlan(bound.ast, compileInput);
  const index = plan && (await ctx.searchIndex.current());
  // A sort by rank reads the search's full-text parts, which only its own SQL has.
  const byRank = sortParsed?.ast.items.some((i) => i.target.kind !== 'field' && i.target.name.toLowerCase() === 'rank');
  const held = index ? index.search(plan, { by: dateSortOf(sortParsed?.ast), offset, limit: page.limit, hitsUpTo: byRank ? 0 : HITS_PAGE_MAX }) : undefined;
  const count = async () => {
    if (held) return held.count;
    const started = performance.now();
    const n = (await ctx.store.query<{ n: number }>(countSql, whereParams))[0]?.n ?? 0;
    if (plan) ctx.searchIndex.countedInSql(performance.now() - started);
    return n;
  };
  const readPage = async () => {
    if (held?.page) return held.page.map((id) => ({ id }));
    if (held?.hits && index) {
      const byHits = await pageOfHits(ctx, held.hits, compileInput, sortParsed?.ast, page.limit, offset);
      // Read while nothing a search reads was written since the index was: the same page the SQL reads.
      if (ctx.store.searchGeneration() === index.generation) return byHits;
    }
    return ctx.store.query<{ id: string }>(pageSql, sql.params);
  };
  const [rows, total] = await Promise.all([readPage(), cachesOf(ctx.store).totals.get(`${countSql}\n${JSON.stringify(whereParams)}`, count)]);
  const totalCount = total ?? 0;
  const facetCounts = facets?.length && r.target === 'records' ? await countFacets(ctx, facets, where, whereParams, (by, key) => fields?.resolve(by, key)) : undefined;
  const ids = rows.map((x) => x.id);
  const next = offset + ids.length;
  const nextCursor = ids.length === page.limit && next < totalCount ? encodeCursor(ctx.secret, filterKey, r.sort, next) : null;
  return { ids, totalCount, offset, nextCursor, ...(facetCounts ? { facets: facetCounts } : {}) };
}
