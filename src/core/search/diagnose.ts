// One call from text to tree and every diagnostic: parse, then check, for expressions and sorts.
import type { SearchExpression, SortExpression } from './ast';
import type { Diagnostic } from './diagnostics';
import {
  parseExpression as parseExpression_,
  parseExpressionIn as parseExpressionIn_,
  parseSort as parseSort_,
  parseSortIn as parseSortIn_,
  type ParseOptions,
} from './parser';
import { checkExpression as checkExpression_, checkSort as checkSort_, type CheckOptions } from './semantics';

// Local bindings: transpiled named imports are getter calls, and these run once per query.
const checkExpression = checkExpression_;
const checkSort = checkSort_;
const parseExpression = parseExpression_;
const parseSort = parseSort_;
const parseExpressionIn = parseExpressionIn_;
const parseSortIn = parseSortIn_;

export type DiagnoseOptions = Omit<ParseOptions, 'cursor'> & CheckOptions;

export interface Diagnosed<T> {
  ast: T;
  /** Lexical and syntax diagnostics first (source order), then semantic ones (source order). */
  diagnostics: Diagnostic[];
}

export function diagnoseExpression(text: string, options: DiagnoseOptions = {}): Diagnosed<SearchExpression> {
  const parsed = parseExpression(text, options);
  return { ast: parsed.ast, diagnostics: checkExpression(parsed.ast, options, parsed.diagnostics) };
}

export function diagnoseSort(text: string, options: DiagnoseOptions = {}): Diagnosed<SortExpression> {
  const parsed = parseSort(text, options);
  return { ast: parsed.ast, diagnostics: checkSort(parsed.ast, options, parsed.diagnostics) };
}

/** `diagnoseExpression` of `text.slice(begin, end)` with offsets in `text`: how a linter reads a file in place. */
export function diagnoseExpressionIn(text: string, begin: number, end: number, options: DiagnoseOptions = {}): Diagnosed<SearchExpression> {
  const parsed = parseExpressionIn(text, begin, end, options);
  return { ast: parsed.ast, diagnostics: checkExpression(parsed.ast, options, parsed.diagnostics) };
}

/** `diagnoseSort` of `text.slice(begin, end)` with offsets in `text`. */
export function diagnoseSortIn(text: string, begin: number, end: number, options: DiagnoseOptions = {}): Diagnosed<SortExpression> {
  const parsed = parseSortIn(text, begin, end, options);
  return { ast: parsed.ast, diagnostics: checkSort(parsed.ast, options, parsed.diagnostics) };
}
