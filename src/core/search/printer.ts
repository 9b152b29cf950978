// Printer and formatter: AST back to text (parse(print(ast)) equals ast), and one canonical layout.
// Logical keywords print upper-case; `in`, `contains` and `desc` print lower-case as the spec writes them.
import type { Expr, FieldRef, PropertyPath, ScalarValue, SearchExpression, SortExpression, SortItem, Value } from './ast';
import { hasErrors } from './diagnostics';
import { parseDocument } from './document';
import { quoteString } from './lexer';
import { parseExpression, parseSort, type ParseOptions } from './parser';

export interface FormatOptions {
  /** Past this many characters, a group puts one criterion per line. Default 80. */
  width?: number;
  /** Indentation of a parenthesized group's lines. Default two spaces. */
  indent?: string;
}

const RESERVED = new Set(['and', 'or', 'not', 'in', 'contains', 'asc', 'desc', 'fieldid', 'fieldname', 'fieldlabel']);
const BREAKS = new Set([' ', '\t', '\n', '\r', '\f', '\v', '\u00a0', '(', ')', ',', '=', '<', '>', '!', '"', "'", ';']);

/** Writes a decoded word back so that the lexer reads the same word: escapes breaking characters and reserved words. */
function bare(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch === '\\') {
      // `\/` was kept verbatim by the lexer; any other backslash came from `\\`.
      if (value[i + 1] === '/') {
        out += '\\/';
        i++;
      } else out += '\\\\';
    } else if (BREAKS.has(ch) || ch.charCodeAt(0) < 32) out += '\\' + ch;
    else out += ch;
  }
  const first = out[0];
  if (RESERVED.has(value.toLowerCase()) || first === '+' || first === '-' || first === '.' || first === '@' || (first === '?' && out.length === 1)) {
    if (first !== '\\') out = '\\' + out;
  }
  return out;
}

function scalar(v: ScalarValue): string {
  switch (v.kind) {
    case 'placeholder':
      return v.name !== null ? '@' + v.name : '?';
    case 'literal':
      return v.quote ? quoteString(v.value, v.quote) : bareValue(v.value);
    case 'wildcard':
      return v.quote ? quoteString(v.pattern, v.quote) : bareValue(v.pattern);
  }
}

/** A value may start with `-` when it is a negative number glued to its sign (`-5`); the parser merges them back. */
function bareValue(value: string): string {
  if (value.length > 1 && value[0] === '-' && value[1] !== '-' && value[1] !== '+') return '-' + bare(value.slice(1));
  return bare(value);
}

function value(v: Value): string {
  return v.kind === 'list' ? '(' + v.items.map(scalar).join(', ') + ')' : scalar(v);
}

function fieldRef(f: FieldRef): string {
  const fn = f.by === 'id' ? 'FieldId' : f.by === 'name' ? 'FieldName' : 'FieldLabel';
  const acc = f.accessor.length ? '.' + f.accessor.map(bare).join('.') : '';
  if (f.quoted) return quoteString(f.key, "'");
  return `${fn}(${quoteString(f.key, "'")})${acc}`;
}

export function printPath(p: PropertyPath): string {
  return p.kind === 'property' ? bare(p.name) : fieldRef(p);
}

function level(e: Expr): number {
  if (e.kind === 'or') return 1;
  if (e.kind === 'and') return 2;
  return 4;
}

/** Whether operand `i` of `parent` must be parenthesized to parse back into the same tree. */
function needsParens(parent: Expr & { kind: 'and' | 'or' }, child: Expr, i: number): boolean {
  if (child.kind !== 'and' && child.kind !== 'or') return false;
  const lp = level(parent);
  const lc = level(child);
  if (lc > lp) return false;
  if (lc < lp) return true;
  // Same level: only the first operand may stay bare, and only when it was a different chain (left-nested).
  if (i > 0) return true;
  return child.kind === parent.kind && child.implicit === parent.implicit && child.syntax === parent.syntax;
}

function joiner(e: Expr & { kind: 'and' | 'or' }): string {
  if (e.implicit) return ' ';
  if (e.kind === 'or') return ' OR ';
  return e.syntax === 'plus' ? ' + ' : ' AND ';
}

function flat(e: Expr): string {
  switch (e.kind) {
    case 'criterion': {
      let s = printPath(e.property);
      if (e.operator) s += ' ' + e.operator.op;
      if (e.value) s += ' ' + value(e.value);
      return s;
    }
    case 'text':
      return e.value.kind === 'literal' && e.value.quote === null ? bare(e.value.value) : scalar(e.value);
    case 'matchAll':
      return '*';
    case 'error':
      return '';
    case 'not': {
      const inner = e.operand.kind === 'and' || e.operand.kind === 'or' ? '(' + flat(e.operand) + ')' : flat(e.operand);
      return e.syntax === 'minus' ? '-' + inner : 'NOT ' + inner;
    }
    case 'and':
    case 'or':
      return e.operands.map((o, i) => (needsParens(e, o, i) ? '(' + flat(o) + ')' : flat(o))).join(joiner(e));
  }
}

/** One-line text of an expression tree. */
export function printExpression(ast: SearchExpression | Expr): string {
  if (ast.kind === 'search') return ast.body ? flat(ast.body) : '';
  return flat(ast);
}

function sortItem(i: SortItem): string {
  return printPath(i.target) + (i.explicitDirection || i.direction === 'desc' ? ' ' + i.direction : '');
}

export function printSort(ast: SortExpression): string {
  return ast.items.map(sortItem).join(', ');
}

/** Lays out an expression: on one line when it fits, else one operand per line, operators leading. */
function layout(e: Expr, indent: string, width: number, unit: string): string[] {
  const one = flat(e);
  if (indent.length + one.length <= width || (e.kind !== 'and' && e.kind !== 'or' && e.kind !== 'not')) return [indent + one];
  if (e.kind === 'not') {
    const op = e.syntax === 'minus' ? '-' : 'NOT ';
    if (e.operand.kind === 'and' || e.operand.kind === 'or') return [indent + op + '(', ...layout(e.operand, indent + unit, width, unit), indent + ')'];
    return [indent + op + flat(e.operand)];
  }
  const lines: string[] = [];
  const join = joiner(e).trim();
  e.operands.forEach((o, i) => {
    const prefix = i === 0 || join === '' ? '' : join + ' ';
    if (needsParens(e, o, i)) {
      const inner = flat(o);
      if (indent.length + prefix.length + inner.length + 2 <= width) lines.push(indent + prefix + '(' + inner + ')');
      else lines.push(indent + prefix + '(', ...layout(o, indent + unit, width, unit), indent + ')');
    } else {
      // A tighter chain (AND under OR) continues one level deeper, so its lines read as one operand.
      const inner = o.kind === 'and' || o.kind === 'or' ? indent + unit : indent;
      const sub = layout(o, inner, width, unit);
      sub[0] = indent + prefix + sub[0].slice(inner.length);
      lines.push(...sub);
    }
  });
  return lines;
}

/**
 * The canonical layout of an expression. Text with syntax errors is returned unchanged: reflowing
 * a broken query would move the user's mistake somewhere else.
 */
export function formatExpression(text: string, options: FormatOptions & Omit<ParseOptions, 'cursor'> = {}): string {
  const parsed = parseExpression(text, options);
  if (hasErrors(parsed.diagnostics) || !parsed.ast.body) return text;
  return layout(parsed.ast.body, '', options.width ?? 80, options.indent ?? '  ').join('\n');
}

export function formatSort(text: string): string {
  const parsed = parseSort(text);
  return hasErrors(parsed.diagnostics) ? text : printSort(parsed.ast);
}

/** Formats every section of a `.dam-query` file in place; directives, comments and broken sections are kept as they are. */
export function formatDocument(text: string, options: FormatOptions = {}): string {
  const edits: { start: number; end: number; newText: string }[] = [];
  for (const s of parseDocument(text).sections) {
    // A comment line inside the expression was blanked in `s.expression`; such a section is left alone.
    if (s.expression && s.expression === text.slice(s.expressionOffset, s.expressionOffset + s.expression.length)) {
      const formatted = formatExpression(s.expression, { ...options, supportWildcards: s.wildcards, defaultOperator: s.defaultOperator });
      edits.push({ start: s.expressionOffset, end: s.expressionOffset + s.expression.length, newText: formatted });
    }
    if (s.sort) edits.push({ start: s.sort.offset, end: s.sort.offset + s.sort.text.length, newText: formatSort(s.sort.text) });
  }
  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}
