// Filter and sort for small collections (users, languages, settings, …): the same AST, evaluated over the
// resources' own attributes in memory, since these tables hold tens of rows, not thousands.
import { parseExpression, parseSearchDate, parseSort, type Criterion, type Expr, type ScalarValue } from '../../core/search';
import { errors } from '../errors';
import { firstError } from './run';

type Item = Record<string, unknown>;

function attribute(item: Item, name: string): unknown {
  const lower = name.toLowerCase().replace(/\./g, '');
  const key = Object.keys(item).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : item[key];
}

function scalarText(v: ScalarValue): { text: string; wildcard: boolean } {
  if (v.kind === 'literal') return { text: v.value, wildcard: false };
  if (v.kind === 'wildcard') return { text: v.pattern, wildcard: true };
  throw errors.invalidSearchExpression('Placeholders are not allowed in a filter query parameter or header.');
}

function wildcardRegex(pattern: string): RegExp {
  const body = [...pattern].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${body}$`, 'is');
}

function compare(actual: unknown, op: string, expected: { text: string; wildcard: boolean }): boolean {
  if (actual === undefined || actual === null) return op === '<>' ? expected.text !== '' : expected.text === '';
  if (typeof actual === 'number' || typeof actual === 'boolean') {
    const want = typeof actual === 'number' ? Number(expected.text) : expected.text.toLowerCase() === 'true';
    if (typeof actual === 'number' && Number.isNaN(want)) throw errors.invalidSearchExpression(`'${expected.text.slice(0, 50)}' is not a number.`);
    const a = Number(actual);
    const b = Number(want);
    return op === '=' ? a === b : op === '<>' ? a !== b : op === '>' ? a > b : op === '>=' ? a >= b : op === '<' ? a < b : a <= b;
  }
  const text = String(actual);
  if (/^\d{4}-\d{2}-\d{2}T/.test(text) && op !== 'contains' && /^\d/.test(expected.text)) {
    const a = new Date(text).getTime();
    const d = parseSearchDate(expected.text, new Date());
    if (!d) throw errors.invalidSearchExpression(`'${expected.text.slice(0, 100)}' is not a valid date (use ISO 8601, e.g. 2025-01-31).`);
    const s = d.start.getTime();
    const e = d.dateOnly ? d.end.getTime() : s;
    if (op === '=') return d.dateOnly ? a >= s && a < e : a === s;
    if (op === '<>') return d.dateOnly ? a < s || a >= e : a !== s;
    return op === '>' ? a >= (d.dateOnly ? e : s + 1) : op === '>=' ? a >= s : op === '<' ? a < s : a < (d.dateOnly ? e : s + 1);
  }
  if (op === 'contains') return text.toLowerCase().includes(expected.text.replace(/\*/g, '').toLowerCase());
  if ((op === '=' || op === '<>') && expected.wildcard && /[*?]/.test(expected.text)) {
    const m = wildcardRegex(expected.text).test(text);
    return op === '=' ? m : !m;
  }
  const c = text.localeCompare(expected.text, undefined, { sensitivity: 'accent' });
  return op === '=' ? c === 0 : op === '<>' ? c !== 0 : op === '>' ? c > 0 : op === '>=' ? c >= 0 : op === '<' ? c < 0 : c <= 0;
}

function matches(item: Item, e: Expr): boolean {
  switch (e.kind) {
    case 'matchAll':
      return true;
    case 'and':
      return e.operands.every((o) => matches(item, o));
    case 'or':
      return e.operands.some((o) => matches(item, o));
    case 'not':
      return !matches(item, e.operand);
    case 'text': {
      const { text } = scalarText(e.value);
      const needle = text.replace(/\*/g, '').toLowerCase();
      return Object.values(item).some((v) => typeof v === 'string' && v.toLowerCase().includes(needle));
    }
    case 'criterion':
      return criterion(item, e);
    case 'error':
      throw errors.invalidSearchExpression('The search expression has a syntax error.');
  }
}

function criterion(item: Item, c: Criterion): boolean {
  if (!c.operator || !c.value) throw errors.invalidSearchExpression('A criterion is missing its operator or value.');
  const property = c.property;
  if (property.kind === 'field') throw errors.invalidSearchExpression('Field references apply to record searches only.');
  const actual = attribute(item, property.name);
  if (actual === undefined && !Object.keys(item).some((k) => k.toLowerCase() === property.name.toLowerCase().replace(/\./g, ''))) {
    throw errors.invalidSearchExpression(`'${property.name.slice(0, 100)}' is not a searchable property here.`);
  }
  const op = c.operator.op;
  if (c.value.kind === 'list') {
    if (op !== 'in') throw errors.invalidSearchExpression(`A list of values needs the 'in' operator.`);
    return c.value.items.some((v) => compare(actual, '=', scalarText(v)));
  }
  return compare(actual, op === 'in' ? '=' : op, scalarText(c.value));
}

/** Filters and sorts plain resource objects by a filter and sort expression (both optional). */
export function filterAndSort<T extends Item>(items: T[], filter: string | undefined, sort: string | undefined): T[] {
  let out = items;
  if (filter?.trim()) {
    const parsed = parseExpression(filter);
    const error = firstError(parsed.diagnostics);
    if (error) throw errors.invalidSearchExpression(`Invalid search expression: ${error}`);
    const body = parsed.ast.body;
    if (body) out = out.filter((item) => matches(item, body));
  }
  if (sort?.trim()) {
    const parsed = parseSort(sort);
    const error = firstError(parsed.diagnostics);
    if (error) throw errors.invalidSearchExpression(`Invalid sort expression: ${error}`);
    const keys = parsed.ast.items.map((i) => {
      if (i.target.kind === 'field') throw errors.invalidSearchExpression('Field references apply to record searches only.');
      const name = i.target.name;
      // As a records search does: a property the resources do not have, or one holding a list or an object, is not
      // a sort key (it was ignored, and the list came back unsorted as if the request had been understood).
      const lower = name.toLowerCase().replace(/\./g, '');
      const values = items.flatMap((item) => Object.entries(item).filter(([k]) => k.toLowerCase() === lower).map(([, v]) => v));
      if (items.length && (!values.length || values.some((v) => v !== null && typeof v === 'object'))) {
        throw errors.invalidSearchExpression(`Invalid sort expression: '${name.slice(0, 100)}' is not a sortable property here.`);
      }
      return { name, dir: i.direction === 'desc' ? -1 : 1 };
    });
    out = [...out].sort((a, b) => {
      for (const k of keys) {
        const x = attribute(a, k.name);
        const y = attribute(b, k.name);
        const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x ?? '').localeCompare(String(y ?? ''));
        if (c) return c * k.dir;
      }
      return 0;
    });
  }
  return out;
}
