// Runs a records or classifications search: parse, compile to SQL, count, page (offset or cursor).
import { parseExpression, parseSort, type Diagnostic, type FieldRef } from '../../core/search';
import type { EmulatorContext } from '../context';
import { errors } from '../errors';
import { Compiler, SqlBuilder, type FieldDef, type Target } from './compile';
import { decodeCursor, encodeCursor } from './cursor';

export interface SearchRequest {
  target: Target;
  expression?: string;
  parameters?: unknown[];
  namedParameters?: Record<string, unknown>;
  supportWildcards?: boolean;
  defaultLogicalOperator?: 'AND' | 'OR';
  sort?: string;
  offset: number;
  limit: number;
  cursor?: string;
}

export interface SearchResult {
  ids: string[];
  totalCount: number;
  offset: number;
  nextCursor: string | null;
}

/**
 * The first error of a parse in words, with its stable code, as `dam lint` and the editor report it; undefined when
 * there is none. Limits (length, nesting) and control characters are among these errors (core LIMITS).
 */
export function firstError(diagnostics: readonly Diagnostic[]): string | undefined {
  const error = diagnostics.find((d) => d.severity === 'error');
  return error && `${error.message} (${error.code})`;
}

async function fieldResolver(ctx: EmulatorContext) {
  const rows = await ctx.store.query<{ id: string; name: string; data_type: string; label: string | null }>(
    `SELECT id, name, data_type, labels->0->>'value' AS label FROM field_definitions`,
  );
  return (by: FieldRef['by'], key: string): FieldDef | undefined => {
    const k = key.toLowerCase();
    const row = rows.find((r) =>
      by === 'id' ? r.id === k.replace(/[{}-]/g, '') : by === 'name' ? r.name.toLowerCase() === k : (r.label ?? '').toLowerCase() === k,
    );
    return row && { id: row.id, name: row.name, dataType: row.data_type };
  };
}

export async function runSearch(ctx: EmulatorContext, req: SearchRequest): Promise<SearchResult> {
  const parsed = parseExpression(req.expression ?? '', {
    supportWildcards: req.supportWildcards ?? true,
    defaultOperator: req.defaultLogicalOperator ?? 'OR',
  });
  const parseError = firstError(parsed.diagnostics);
  if (parseError) throw errors.invalidSearchExpression(`Invalid search expression: ${parseError}`);
  const sortParsed = req.sort?.trim() ? parseSort(req.sort) : undefined;
  const sortError = sortParsed && firstError(sortParsed.diagnostics);
  if (sortError) throw errors.invalidSearchExpression(`Invalid sort expression: ${sortError}`);

  const filterKey = {
    t: req.target,
    e: req.expression ?? '',
    p: req.parameters ?? [],
    n: req.namedParameters ?? {},
    w: req.supportWildcards ?? true,
    d: req.defaultLogicalOperator ?? 'OR',
  };
  const sortKey = req.sort?.trim() ?? '';
  let offset = req.offset;
  if (req.cursor) offset = decodeCursor(ctx.secret, req.cursor, filterKey, sortKey);

  const sql = new SqlBuilder();
  const compiler = new Compiler(
    {
      target: req.target,
      parameters: req.parameters,
      namedParameters: req.namedParameters,
      resolveField: req.target === 'records' ? await fieldResolver(ctx) : () => undefined,
      now: ctx.clock.now(),
    },
    sql,
  );
  compiler.wildcards = req.supportWildcards ?? true;
  const where = compiler.compile(parsed.ast);
  const table = req.target === 'records' ? 'records r' : 'classifications c';
  const alias = req.target === 'records' ? 'r' : 'c';
  const whereParams = [...sql.params];
  const order = compiler.orderBy(sortParsed?.ast, req.target === 'records' ? 'r.created_on DESC' : 'c.name_path');
  const limit = `${sql.bind(req.limit)}::int`;
  const off = `${sql.bind(offset)}::int`;
  const [rows, count] = await Promise.all([
    ctx.store.query<{ id: string }>(`SELECT ${alias}.id FROM ${table} WHERE ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${off}`, sql.params),
    ctx.store.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, whereParams),
  ]);
  const totalCount = count[0]?.n ?? 0;
  const ids = rows.map((r) => r.id);
  const next = offset + ids.length;
  const nextCursor = ids.length === req.limit && next < totalCount ? encodeCursor(ctx.secret, filterKey, sortKey, next) : null;
  return { ids, totalCount, offset, nextCursor };
}
