// The typed syntax tree of search expressions and sort expressions; every node carries its source range.
//
// Offsets are 0-based UTF-16 offsets into the text that was parsed (for a `.dam-query` section,
// the expression text; add the section's `expressionOffset` to get a file offset).
// Nodes never hold parent links, so trees compare structurally (see `stripRanges`).

/** Half-open range of offsets: `start` inclusive, `end` exclusive. */
export interface Range {
  start: number;
  end: number;
}

/** The comparison operators of the spec, spelled canonically (keywords lower-case). */
export type ComparisonOperator = '=' | '>' | '>=' | '<' | '<=' | '<>' | 'in' | 'contains';

export const COMPARISON_OPERATORS: readonly ComparisonOperator[] = ['=', '>', '>=', '<', '<=', '<>', 'in', 'contains'];

export type LogicalOperator = 'AND' | 'OR';

/** A plain property name such as `Title`, `parent.id` or `ContentType` (as typed, escapes decoded). */
export interface PropertyRef {
  kind: 'property';
  /** The name as typed, backslash escapes decoded except `\/` (kept: a slash that is not a separator). Lookups ignore case. */
  name: string;
  range: Range;
}

/** `FieldId('…')`, `FieldName('…')` or `FieldLabel('…')` followed by an optional accessor (`.Value`, `.Option.Name`). */
export interface FieldRef {
  kind: 'field';
  by: 'id' | 'name' | 'label';
  /** `'AEM Asset ID' = …`: the label written as a quoted property, no function around it (printed as written). */
  quoted?: true;
  /** The quoted argument, quotes removed, escapes decoded except `\/`. */
  key: string;
  /** Range of the argument including its quotes (or of the gap where it is missing). */
  keyRange: Range;
  /** Accessor segments, e.g. `['Value']`, `['Option', 'Name']`; empty when none was written. */
  accessor: string[];
  /** Range of the accessor after the dot, or null when there is no accessor. */
  accessorRange: Range | null;
  range: Range;
}

export type PropertyPath = PropertyRef | FieldRef;

/** A literal value: a bare word or a quoted string. */
export interface LiteralValue {
  kind: 'literal';
  /** Decoded text (quotes removed, backslash escapes resolved except `\/`, which is kept). */
  value: string;
  quote: '"' | "'" | null;
  range: Range;
}

/** A value containing `*` (any run) or `?` (one character) while wildcards are on. */
export interface WildcardValue {
  kind: 'wildcard';
  /** Decoded text in which every `*` and `?` is a wildcard. */
  pattern: string;
  quote: '"' | "'" | null;
  range: Range;
}

/** `?` (positional, numbered from 0 in source order) or `@Name` (named, without the `@`). */
export interface PlaceholderValue {
  kind: 'placeholder';
  /** Position among the expression's `?` placeholders, or null for a named one. */
  index: number | null;
  /** Name without `@`, or null for a positional one. */
  name: string | null;
  range: Range;
}

/** `( v1, v2, … )` after `in`. */
export interface ValueList {
  kind: 'list';
  items: ScalarValue[];
  range: Range;
}

export type ScalarValue = LiteralValue | WildcardValue | PlaceholderValue;
export type Value = ScalarValue | ValueList;

export interface OperatorToken {
  op: ComparisonOperator;
  range: Range;
}

/**
 * `property op value`. `operator` and `value` are null only when the parse reported a syntax error
 * there (a half-typed query); an evaluator must refuse trees whose diagnostics contain errors.
 */
export interface Criterion {
  kind: 'criterion';
  property: PropertyPath;
  operator: OperatorToken | null;
  value: Value | null;
  range: Range;
}

/** A bare word or quoted phrase with no operator: matched against the full text. */
export interface FullTextTerm {
  kind: 'text';
  value: ScalarValue;
  range: Range;
}

/** `*` alone: matches everything. */
export interface MatchAll {
  kind: 'matchAll';
  range: Range;
}

export interface NotExpr {
  kind: 'not';
  /** `NOT` keyword or the `-` prefix. */
  syntax: 'keyword' | 'minus';
  operand: Expr;
  range: Range;
}

/**
 * An n-ary AND/OR. `implicit: true` when the operands were written side by side and joined by the
 * default logical operator; explicit chains use `syntax` to remember `AND` versus `+`.
 */
export interface BinaryExpr {
  kind: 'and' | 'or';
  implicit: boolean;
  /** For `and`: whether `+` was used; kept so the printer can round-trip. Always 'keyword' for `or`. */
  syntax: 'keyword' | 'plus';
  operands: Expr[];
  range: Range;
}

/** Placeholder left where the parser needed an expression and found none (error recovery). */
export interface ErrorExpr {
  kind: 'error';
  range: Range;
}

export type Expr = Criterion | FullTextTerm | MatchAll | NotExpr | BinaryExpr | ErrorExpr;

/** One sort criterion: a property (or field reference) and its direction. */
export interface SortItem {
  kind: 'sortItem';
  target: PropertyPath;
  direction: 'asc' | 'desc';
  /** Whether the direction keyword was written (the default is ascending). */
  explicitDirection: boolean;
  range: Range;
}

export interface SortExpression {
  kind: 'sort';
  items: SortItem[];
  range: Range;
}

/** The root of a parsed search expression; `body` is null for an empty (whitespace-only) expression. */
export interface SearchExpression {
  kind: 'search';
  body: Expr | null;
  range: Range;
}

export type Node =
  | SearchExpression
  | SortExpression
  | SortItem
  | Expr
  | PropertyPath
  | Value;

/** Walks every expression node depth-first (pre-order). */
export function walkExpr(expr: Expr | null, visit: (e: Expr) => void): void {
  if (!expr) return;
  visit(expr);
  if (expr.kind === 'and' || expr.kind === 'or') for (const o of expr.operands) walkExpr(o, visit);
  else if (expr.kind === 'not') walkExpr(expr.operand, visit);
}

/** A deep copy with every `range`, `keyRange` and `accessorRange` removed: for structural comparison. */
export function stripRanges<T>(node: T): T {
  if (Array.isArray(node)) return node.map((n) => stripRanges(n)) as unknown as T;
  if (node && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
      if (k === 'range' || k === 'keyRange' || k === 'accessorRange') continue;
      out[k] = stripRanges(v);
    }
    return out as T;
  }
  return node;
}
