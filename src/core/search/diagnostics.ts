// Diagnostics of the query languages: the shared shape, the stable code table, and one constructor.
import type { Range } from './ast';

export type DiagnosticPhase = 'lexical' | 'syntax' | 'semantic';
export type DiagnosticSeverity = 'error' | 'warning' | 'info';

export interface TextEdit {
  range: Range;
  newText: string;
}

export interface QuickFix {
  title: string;
  edits: TextEdit[];
}

export interface Diagnostic {
  /** Stable code from `DiagnosticCodes` (or the analytics module's own table). */
  code: string;
  phase: DiagnosticPhase;
  severity: DiagnosticSeverity;
  message: string;
  /** Offsets into the text that was checked (a whole `.dam-query` file for document-level checks). */
  range: Range;
  fixes?: QuickFix[];
  source: 'dam-query' | 'dam-analytics' | 'dam-check';
}

/**
 * Every code of the search-expression language. DQ1xxx lexical, DQ2xxx syntax, DQ3xxx semantic,
 * DQ4xxx `.dam-query` document structure (directives). Codes never change meaning once published.
 */
export const DiagnosticCodes = {
  /** A quoted string has no closing quote before the end of the expression. */
  UnterminatedString: 'DQ1001',
  /** A character that cannot start any token (`!`, `;`, …). */
  UnexpectedCharacter: 'DQ1002',
  /** `!=` or `==`: not operators of the language; the fix rewrites to `<>` / `=`. */
  ForeignOperator: 'DQ1003',
  /** A backslash at the very end of the text escapes nothing. */
  DanglingEscape: 'DQ1004',
  /** A control character (U+0000–U+001F other than tab and line breaks, or U+007F), anywhere, quoted or not. */
  ControlCharacter: 'DQ1005',

  /** A token that does not fit where it stands. */
  UnexpectedToken: 'DQ2001',
  /** The expression ends where something more was required. */
  UnexpectedEnd: 'DQ2002',
  /** A property with no operator after it, where one is required (field references, before a value). */
  MissingOperator: 'DQ2003',
  /** An operator with no value after it. */
  MissingValue: 'DQ2004',
  /** `(` without `)`. */
  UnclosedParenthesis: 'DQ2005',
  /** `)` without `(`. */
  UnmatchedParenthesis: 'DQ2006',
  /** `FieldName(` not followed by a quoted argument and `)`. */
  MalformedFieldReference: 'DQ2007',
  /** `AND`/`OR` with nothing on one side. */
  MissingOperand: 'DQ2008',
  /** A sort criterion that is not a property, or a stray token in a sort expression. */
  MalformedSort: 'DQ2009',
  /** An expression longer than `LIMITS.maxLength` characters: not parsed at all. */
  ExpressionTooLong: 'DQ2010',
  /** Parentheses and `NOT`/`-` nested deeper than `LIMITS.maxNesting`: the part beyond is not parsed. */
  NestingTooDeep: 'DQ2011',
  /** A word other languages use as an operator (`startswith`, `like`, `eq`) after a property: the fix writes ours. */
  UnknownOperator: 'DQ2012',

  /** A property not in the catalogue of the target: allowed (the list is open-ended) but suspicious. */
  UnknownProperty: 'DQ3001',
  /** The operator is not allowed for the property's type (spec: operators by type). */
  OperatorNotAllowed: 'DQ3002',
  /** `in` on a Date/Time property with anything but `today`. */
  DateInOnlyToday: 'DQ3003',
  /** A value that cannot be of the property's type (a date, number, boolean or GUID). */
  InvalidValue: 'DQ3004',
  /** A field name/id/label not in the connected schema. */
  UnknownField: 'DQ3005',
  /** A value that is not one of the option field's options (connected schema). */
  UnknownOption: 'DQ3006',
  /** The accessor after a field reference does not exist for the field's data type. */
  InvalidAccessor: 'DQ3007',
  /** `?` or `@Name` where the spec allows no parameters (`filter`/`sort` in a query string). */
  PlaceholderNotAllowed: 'DQ3008',
  /** Sorting by a property the spec marks as not sortable. */
  NotSortable: 'DQ3009',
  /** `contains` on a String property the spec does not list as full-text searchable. */
  ContainsNotListed: 'DQ3010',
  /** A date written as `M/D/YYYY`: accepted by old clients, but ISO 8601 is the documented form. */
  LegacyDateFormat: 'DQ3011',
  /**
   * Retired: a field reference with no accessor. No longer reported, since `FieldName('x') = v` compares the value as
   * `.Value` does (real-service-notes); the code keeps its meaning and is not reused.
   */
  MissingAccessor: 'DQ3012',
  /** A `@Name` placeholder with no value bound (no `@param` directive / named parameter). */
  UnboundPlaceholder: 'DQ3013',
  /** A classification name not in the connected schema. */
  UnknownClassification: 'DQ3014',
  /** A wildcard in a value of a non-text property, where it is taken literally. */
  WildcardIgnored: 'DQ3015',
  /** A content status other than Draft, Released and Archived: the search finds nothing. */
  UnknownContentStatus: 'DQ3021',
  /**
   * Criteria side by side with no operator, joined by the default OR, which a reader of two lines takes for AND.
   * Information, with fixes that write the operator out.
   */
  ImplicitOperator: 'DQ3022',

  /** `# @key` with an unknown key. */
  UnknownDirective: 'DQ4001',
  /** A directive with a value it does not accept (`@target files`, `@wildcards maybe`, `@param x`). */
  InvalidDirectiveValue: 'DQ4002',
  /** A section with no expression text. */
  EmptyQuery: 'DQ4003',
  /** A directive given twice in one section (the last one wins). */
  DuplicateDirective: 'DQ4004',
} as const;

/**
 * Limits of one search or sort expression, far above what a person writes and below what breaks: the editor, `dam lint`
 * and the emulator all refuse past them with the same diagnostic. Without them a recursive-descent parse of about 1,200
 * nested parentheses overflows the stack, and some 3,500 nested `NOT` make the database refuse the query's SQL.
 */
export const LIMITS = {
  /** Characters in one expression. */
  maxLength: 20_000,
  /** Parentheses and `NOT`/`-` nested in one another, counted together. */
  maxNesting: 256,
} as const;

export type DiagnosticCode = (typeof DiagnosticCodes)[keyof typeof DiagnosticCodes];

/** The phase a code belongs to, from its number (DQ4xxx directive problems count as syntax). */
export function phaseOf(code: DiagnosticCode): DiagnosticPhase {
  // DQ1 lexical, DQ2 and DQ4 syntax, DQ3 (and anything else) semantic. By char code: slicing the
  // prefix would make a string to hash for every diagnostic.
  if (code.charCodeAt(0) === 68 /* D */ && code.charCodeAt(1) === 81 /* Q */) {
    switch (code.charCodeAt(2)) {
      case 49 /* 1 */:
        return 'lexical';
      case 50 /* 2 */:
      case 52 /* 4 */:
        return 'syntax';
      case 51 /* 3 */:
        return 'semantic';
    }
  }
  return 'semantic';
}

export function diagnostic(
  code: DiagnosticCode,
  severity: DiagnosticSeverity,
  message: string,
  range: Range,
  fixes?: QuickFix[],
): Diagnostic {
  const d: Diagnostic = { code, phase: phaseOf(code), severity, message, range: { start: range.start, end: range.end }, source: 'dam-query' };
  if (fixes && fixes.length > 0) d.fixes = fixes;
  return d;
}

/** Moves a diagnostic computed on a slice of text to the offsets of the enclosing text. */
export function shiftDiagnostic(d: Diagnostic, delta: number): Diagnostic {
  if (delta === 0) return d;
  const shift = (r: Range): Range => ({ start: r.start + delta, end: r.end + delta });
  const out: Diagnostic = { ...d, range: shift(d.range) };
  if (d.fixes) out.fixes = d.fixes.map((f) => ({ title: f.title, edits: f.edits.map((e) => ({ range: shift(e.range), newText: e.newText })) }));
  return out;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
