// Completion at a cursor: driven by what the parser expected there, enriched by the catalogue and the schema.
import { walkExpr, type ComparisonOperator, type Expr, type FieldRef, type LogicalOperator, type PropertyPath, type Range, type ScalarValue } from './ast';
import {
  ACCESSORS_BY_DATA_TYPE,
  ALL_ACCESSORS,
  BASE_CONTENT_TYPES,
  CONTENT_STATUSES,
  OPERATORS_BY_TYPE,
  RANK_PROPERTY,
  propertiesFor,
  type FieldDataType,
  type PropertyInfo,
  type PropertyType,
  type QueryTarget,
} from './catalogue';
import { sectionAt, type QuerySection } from './document';
import { lex, T } from './lexer';
import { parseExpression, parseSort, type Expectation } from './parser';
import { findField, type FieldSchema, type QuerySchema } from './schema';
import { resolvePath } from './semantics';

export type CompletionKind = 'property' | 'field' | 'function' | 'operator' | 'keyword' | 'value' | 'accessor' | 'directive';

export interface CompletionItem {
  label: string;
  kind: CompletionKind;
  /** Short text shown beside the label (a type, a data type). */
  detail?: string;
  /** Markdown. */
  documentation?: string;
  /** Text that replaces `range`; VS Code snippet syntax (`${1:x}`) when `snippet` is true. */
  insertText: string;
  snippet?: boolean;
  /** Offsets (of the text given) that the insertion replaces: the word being typed, or an empty range at the cursor. */
  range: Range;
  /** Orders groups: properties before functions before keywords. */
  sortText: string;
  /**
   * Accepting it ends with the space before what comes next (`Title `, `= `): the editor opens suggestions again,
   * so the next part is offered and the person does not type a second space.
   */
  retrigger?: boolean;
}

export interface CompletionOptions {
  target?: QueryTarget;
  schema?: QuerySchema;
  supportWildcards?: boolean;
  defaultOperator?: LogicalOperator;
  /** `filter` (default) completes a search expression; `sort` a sort expression. */
  mode?: 'filter' | 'sort';
  /** Named placeholders with values (offered as `@Name` values). */
  boundNames?: readonly string[];
  /**
   * Values used before, by `valueKey` of the property or field they were compared with, most recent first
   * (from the query history and the section at hand): offered after an operator. A function is called only
   * where values are wanted.
   */
  recentValues?: ReadonlyMap<string, readonly string[]> | (() => ReadonlyMap<string, readonly string[]>);
  /** Also offer the values the expression itself compares elsewhere (not in the criterion being typed). */
  ownValues?: boolean;
  /**
   * The character that opened the suggestions as it was typed, when one did. A space then opens them only
   * where the word before asks for something (an operator after a property, a value after an operator, a
   * criterion after AND/OR/NOT): after a whole criterion Enter must still make a new line.
   */
  triggerCharacter?: string;
}

/** The key under which values compared with `path` are remembered: the property or field reference, any case. */
export function valueKey(path: PropertyPath): string {
  return path.kind === 'property' ? path.name.toLowerCase() : `${path.by}(${path.key.toLowerCase()}).${path.accessor.join('.').toLowerCase()}`;
}

/**
 * The literal values each property or field is compared with in `expressions` (earlier expressions count as
 * more recent), at most `perKey` per key: what completion offers as recent values.
 */
export function valuesUsedIn(expressions: Iterable<string>, perKey = 8): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const expression of expressions) collectValues(parseExpression(expression).ast.body, out, perKey);
  return out;
}

function collectValues(body: Expr | null, out: Map<string, string[]>, perKey: number, skipAt?: number): void {
  const add = (key: string, v: ScalarValue) => {
    if (v.kind === 'placeholder') return;
    const text = v.kind === 'literal' ? v.value : v.pattern;
    if (!text) return;
    const list = out.get(key) ?? [];
    if (list.length < perKey && !list.includes(text)) list.push(text);
    out.set(key, list);
  };
  walkExpr(body, (e) => {
    if (e.kind !== 'criterion' || !e.value) return;
    if (skipAt !== undefined && e.range.start <= skipAt && skipAt <= e.range.end) return;
    const key = valueKey(e.property);
    if (e.value.kind === 'list') e.value.items.forEach((v) => add(key, v));
    else add(key, e.value);
  });
}

/** Merges recent-value maps, earlier maps first, each key's list without repeats. */
export function mergeValues(...maps: (ReadonlyMap<string, readonly string[]> | undefined)[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const map of maps) {
    for (const [key, values] of map ?? []) {
      const list = out.get(key) ?? [];
      for (const v of values) if (!list.includes(v)) list.push(v);
      out.set(key, list);
    }
  }
  return out;
}

const OPERATOR_DOCS: Record<ComparisonOperator, string> = {
  '=': 'equals (wildcards `*` `?` apply to text)',
  '<>': 'differs from (`<> ""` tests that a value is not empty)',
  '>': 'greater than',
  '>=': 'greater than or equal',
  '<': 'less than',
  '<=': 'less than or equal',
  in: 'one of a list `(a, b)`; on dates only `today`',
  contains: 'full-text match',
};


/** Completions at `offset` in a single expression (or sort expression with `mode: 'sort'`). */
export function complete(text: string, offset: number, options: CompletionOptions = {}): CompletionItem[] {
  // Right after a closing quote the literal is complete: nothing to suggest until a space or a letter.
  if (afterClosedString(text, offset)) return [];
  const parsed =
    options.mode === 'sort'
      ? parseSort(text, { cursor: offset })
      : parseExpression(text, { cursor: offset, supportWildcards: options.supportWildcards, defaultOperator: options.defaultOperator });
  const tok = parsed.cursorToken;
  const typing = tok !== null && tok.start < offset && offset <= tok.end && (tok.kind === T.Word || tok.kind === T.Named || tok.kind === T.String);
  const replace: Range = typing && tok ? { start: tok.start, end: tok.end } : { start: offset, end: offset };
  const inString = typing && tok?.kind === T.String;
  const out: CompletionItem[] = [];
  const ctx: Ctx = { options, target: options.target ?? 'records', replace, out, inString, text, offset, body: parsed.ast.kind === 'search' ? parsed.ast.body : null };
  for (const e of wanted(parsed.expected, options.triggerCharacter)) addFor(e, ctx);
  const seen = new Set<string>();
  return out.filter((i) => {
    const key = i.kind + '\u0000' + i.label;
    if (seen.has(key)) return false;
    seen.add(key);
    if (!i.snippet && i.insertText.endsWith(' ')) i.retrigger = true;
    return true;
  });
}

/** Whether `offset` sits right after a string literal's closing quote. */
function afterClosedString(text: string, offset: number): boolean {
  const before = text.charCodeAt(offset - 1);
  if (before !== 34 && before !== 39) return false;
  const { tokens, count } = lex(text);
  for (let i = 0; i < count; i++) {
    const t = tokens[i];
    if (t.end === offset) return t.kind === T.String && t.terminated && t.end - t.start >= 2;
    if (t.start >= offset) break;
  }
  return false;
}

/**
 * The expectations worth a list. Typed or invoked: all of them. Opened by a space: the operators after a
 * property, the values after an operator, and a criterion where only a criterion can come (after AND, OR,
 * NOT, `(` or at the start); never AND/OR after a whole criterion, where the user may be ending the line.
 */
function wanted(expected: readonly Expectation[], trigger: string | undefined): readonly Expectation[] {
  if (trigger !== ' ') return expected;
  const afterCriterion = expected.some((e) => e.kind === 'logical');
  return expected.filter((e) => e.kind !== 'logical' && e.kind !== 'end' && !(afterCriterion && e.kind === 'operand'));
}

interface Ctx {
  options: CompletionOptions;
  target: QueryTarget;
  replace: Range;
  out: CompletionItem[];
  /** The cursor is inside a quoted string: only values and field keys make sense. */
  inString: boolean;
  text: string;
  offset: number;
  /** The parsed expression, for the values it already uses. */
  body: Expr | null;
}

function addFor(e: Expectation, ctx: Ctx): void {
  if (ctx.inString && e.kind !== 'value' && e.kind !== 'fieldKey') return;
  switch (e.kind) {
    case 'operand':
      for (const p of propertiesFor(ctx.target)) ctx.out.push(propertyItem(p, ctx, false));
      addFieldItems(ctx);
      keyword('NOT', 'negates the criterion after it (also written `-`)', ctx);
      return;
    case 'logical':
      // After the criteria a criterion could start with: at a criterion start, fields come first.
      keyword('AND', 'both sides must match (also written `+`)', ctx, true, '6');
      keyword('OR', 'either side matches', ctx, true, '6');
      return;
    case 'operator':
      addOperators(e.property, ctx);
      return;
    case 'value':
      addValues(e.property, e.operator, ctx);
      return;
    case 'fieldKey':
      addFieldKeys(e.by, ctx);
      return;
    case 'accessor':
      addAccessors(e.field, e.dot, ctx);
      return;
    case 'sortTarget':
      for (const p of propertiesFor(ctx.target)) if (p.sortable) ctx.out.push(propertyItem(p, ctx, true));
      ctx.out.push(propertyItem(RANK_PROPERTY, ctx, true));
      addFieldItems(ctx);
      return;
    case 'direction':
      keyword('desc', 'descending', ctx, false);
      keyword('asc', 'ascending (the default)', ctx, false);
      return;
    default:
      return;
  }
}

function propertyItem(p: PropertyInfo, ctx: Ctx, sorting: boolean): CompletionItem {
  const ops = OPERATORS_BY_TYPE[p.type].join(' ');
  return {
    label: p.name,
    kind: 'property',
    detail: p.type + (p.sortable ? ', sortable' : ''),
    documentation: `${p.description}\n\nOperators: \`${ops}\`${p.supportsContains ? ' (full-text `contains`)' : ''}`,
    insertText: sorting ? p.name : p.name + ' ',
    range: ctx.replace,
    sortText: '1' + p.name,
  };
}

const FUNCTION_NAMES: Record<FieldRef['by'], string> = { id: 'FieldId', name: 'FieldName', label: 'FieldLabel' };

function preferredAccessor(dt: FieldDataType): string {
  return dt === 'OptionList' ? 'Value' : ACCESSORS_BY_DATA_TYPE[dt][0].path;
}

function addFieldItems(ctx: Ctx): void {
  const fields = ctx.options.schema?.fields ?? [];
  for (const f of fields) {
    const acc = preferredAccessor(f.dataType);
    const ref = `FieldName(${quote(f.name)}).${acc}`;
    ctx.out.push({
      label: ref,
      kind: 'field',
      detail: f.dataType,
      documentation: fieldDoc(f),
      insertText: ref + ' ',
      range: ctx.replace,
      sortText: '2' + f.name,
    });
  }
  for (const by of ['name', 'id', 'label'] as const) {
    const fn = FUNCTION_NAMES[by];
    const arg = by === 'id' ? 'field id' : by === 'name' ? 'name' : 'label';
    ctx.out.push({
      label: `${fn}('…').Value`,
      kind: 'function',
      detail: 'field reference',
      documentation: `Refers to a field by its ${arg}${by === 'id' ? ' (most stable)' : by === 'label' ? ' (depends on the language)' : ''}, then a property for its data type: \`Value\`, \`UtcValue\`, \`Option.Name\`, \`Classification.Id\`, …`,
      insertText: `${fn}('\${1:${arg}}').\${2:Value}`,
      snippet: true,
      range: ctx.replace,
      sortText: '3' + fn,
    });
  }
}

function addOperators(path: PropertyPath, ctx: Ctx): void {
  const { type } = resolvePath(path, ctx.target, ctx.options.schema);
  const ops = type ? OPERATORS_BY_TYPE[type] : (['=', '<>', '>', '>=', '<', '<=', 'in', 'contains'] as const);
  ops.forEach((op, i) => {
    ctx.out.push({
      label: op,
      kind: 'operator',
      detail: type ? `${type} operator` : 'operator',
      documentation: OPERATOR_DOCS[op],
      insertText: op + ' ',
      range: ctx.replace,
      sortText: '0' + String(i).padStart(2, '0'),
    });
  });
}

function addValues(path: PropertyPath, op: ComparisonOperator, ctx: Ctx): void {
  const resolved = resolvePath(path, ctx.target, ctx.options.schema);
  const value = (label: string, documentation: string, insert = label) =>
    ctx.out.push({ label, kind: 'value', documentation, insertText: insert, range: ctx.replace, sortText: '0' + label });
  if (resolved.type === 'DateTime' && op === 'in') {
    value('today', 'the current day (the only value `in` takes on dates)');
    return;
  }
  // `in` takes a list: right after the keyword, the parentheses come first.
  const listStart = op === 'in' && !ctx.inString && !/[(,]\s*$/.test(ctx.text.slice(0, ctx.replace.start));
  if (listStart) {
    ctx.out.push({ label: '(…, …)', kind: 'value', detail: 'a list of values', documentation: 'One of the values in the list, separated by commas.', insertText: '(${1}, ${2})', snippet: true, range: ctx.replace, sortText: '0' });
    return;
  }
  if (resolved.type === 'DateTime') {
    const today = new Date().toISOString().slice(0, 10);
    value(today, 'a date (ISO 8601); add `T12:00:00Z` for a time');
  } else if (resolved.type === 'Boolean') {
    value('true', 'boolean');
    value('false', 'boolean');
  } else if (resolved.property?.name === 'ContentStatus') {
    // By the property, not the name written: `Status` is its alias.
    for (const s of CONTENT_STATUSES) value(s, 'content status', ctx.inString ? quote(s) : s);
  } else if (resolved.property?.name === 'ContentType' || resolved.property?.name === 'DirectContentType') {
    const types = [...new Set([...BASE_CONTENT_TYPES, ...(ctx.options.schema?.contentTypes ?? [])])];
    for (const t of types) value(t, 'content type', ctx.inString ? quote(t) : quoteIfNeeded(t));
  } else if (resolved.type === 'Classification') {
    for (const c of ctx.options.schema?.classifications ?? []) value(c, 'classification', quoteIfNeeded(c));
  }
  if (path.kind === 'field' && resolved.field?.dataType === 'LanguageList' && path.accessor.join('.').toLowerCase() === 'language.id') {
    for (const l of ctx.options.schema?.languages ?? []) {
      const insertText = ctx.inString ? l.id : quote(l.id);
      ctx.out.push({ label: l.id, kind: 'value', detail: l.culture ? `${l.name} (${l.culture})` : l.name, documentation: `language **${l.name}**`, insertText, range: ctx.replace, sortText: '0' + l.name });
    }
  }
  if (resolved.field?.options && path.kind === 'field') {
    const acc = path.accessor.join('.').toLowerCase();
    for (const o of resolved.field.options) {
      const shown = acc === 'option.label' ? (o.label ?? o.name) : acc === 'option.id' ? (o.id ?? '') : o.name;
      if (shown) value(shown, `option of '${resolved.field.name}'${o.label ? ` (label: ${o.label})` : ''}`, ctx.inString ? quote(shown) : quoteIfNeeded(shown));
    }
  }
  const known = ctx.options.recentValues;
  const recentMap = typeof known === 'function' ? known() : known;
  let recent = recentMap?.get(valueKey(path)) ?? [];
  if (ctx.options.ownValues) {
    const own = new Map<string, string[]>();
    collectValues(ctx.body, own, 8, ctx.offset);
    recent = mergeValues(own, recentMap).get(valueKey(path)) ?? [];
  }
  recent.forEach((v, i) =>
    // Inside a string the range covers its quotes, as for the options above.
    ctx.out.push({ label: v, kind: 'value', detail: 'used before', insertText: ctx.inString ? quote(v) : quoteIfNeeded(v), range: ctx.replace, sortText: '1' + String(i).padStart(2, '0') }),
  );
  if (!ctx.inString) {
    const placeholder = valuePlaceholder(resolved.type, op);
    if (placeholder) ctx.out.push({ ...placeholder, kind: 'value', snippet: true, range: ctx.replace, sortText: '2' });
    ctx.out.push({ label: '?', kind: 'value', documentation: 'positional placeholder: takes the next value of `parameters`', insertText: '?', range: ctx.replace, sortText: '8?' });
    for (const n of ctx.options.boundNames ?? []) ctx.out.push({ label: '@' + n, kind: 'value', documentation: 'named placeholder', insertText: '@' + n, range: ctx.replace, sortText: '8@' + n });
  }
}

/** A value to fill in, as a snippet: quoted text, a number, an id. */
function valuePlaceholder(type: PropertyType | null | undefined, op: ComparisonOperator): Pick<CompletionItem, 'label' | 'detail' | 'documentation' | 'insertText'> | undefined {
  switch (type) {
    case 'Numeric':
      return { label: 'number', detail: 'a number', documentation: 'A whole or decimal number.', insertText: '${1:0}' };
    case 'Guid':
    case 'User':
      return { label: 'id', detail: 'an id', documentation: 'The 32-digit hexadecimal id.', insertText: '${1:id}' };
    case 'Boolean':
    case 'DateTime':
      return undefined;
    default:
      return op === 'contains'
        ? { label: '"words"', detail: 'text to find', documentation: 'Words to find in the text (full-text match).', insertText: '"${1:words}"' }
        : { label: '"text"', detail: 'quoted text', documentation: 'Text in quotes; `*` and `?` are wildcards unless `@wildcards off`.', insertText: '"${1:text}"' };
  }
}


function addFieldKeys(by: FieldRef['by'], ctx: Ctx): void {
  for (const f of ctx.options.schema?.fields ?? []) {
    const key = by === 'id' ? f.id : by === 'label' ? f.label : f.name;
    if (!key) continue;
    ctx.out.push({
      label: key,
      kind: 'field',
      detail: f.dataType,
      documentation: fieldDoc(f),
      insertText: quote(key),
      range: ctx.replace,
      sortText: '0' + key,
    });
  }
}

function addAccessors(field: FieldRef, dot: boolean, ctx: Ctx): void {
  const f = findField(ctx.options.schema, field.by, field.key);
  const list = f ? ACCESSORS_BY_DATA_TYPE[f.dataType].map((a) => ({ path: a.path, detail: `${f.dataType} → ${a.type}` })) : [...ALL_ACCESSORS.values()].map((a) => ({ path: a.path, detail: a.dataTypes.join(', ') }));
  for (const a of list) {
    ctx.out.push({
      label: a.path,
      kind: 'accessor',
      detail: a.detail,
      insertText: (dot ? '.' : '') + a.path + ' ',
      range: ctx.replace,
      sortText: '0' + a.path,
    });
  }
}

function keyword(word: string, documentation: string, ctx: Ctx, space = true, group = '5'): void {
  ctx.out.push({ label: word, kind: 'keyword', documentation, insertText: space ? word + ' ' : word, range: ctx.replace, sortText: group + word });
}

function fieldDoc(f: FieldSchema): string {
  const lines = [`**${f.name}**${f.label ? ` (${f.label})` : ''}: ${f.dataType}`];
  if (f.id) lines.push(`id \`${f.id}\``);
  lines.push('Properties: ' + ACCESSORS_BY_DATA_TYPE[f.dataType].map((a) => '`' + a.path + '`').join(', '));
  if (f.options?.length) lines.push('Options: ' + f.options.map((o) => o.name).join(', '));
  return lines.join('\n\n');
}

function quote(s: string): string {
  return "'" + s.replace(/\\/g, '\\\\').replace(/'/g, "\\'") + "'";
}

function quoteIfNeeded(s: string): string {
  return /^[A-Za-z0-9_.*:/-]+$/.test(s) && !/^(and|or|not)$/i.test(s) ? s : quote(s);
}

export interface DocumentCompletionOptions {
  schema?: QuerySchema;
  /** Values used before (see `CompletionOptions.recentValues`); the section's own values are added. */
  recentValues?: ReadonlyMap<string, readonly string[]>;
  triggerCharacter?: string;
}

const DIRECTIVE_ITEMS: { key: string; insert: string; doc: string }[] = [
  { key: 'name', insert: '@name ${1:query name}', doc: 'A name for the query.' },
  { key: 'target', insert: '@target ${1|records,classifications|}', doc: 'Which search runs the query (default records).' },
  { key: 'sort', insert: '@sort ${1:Title}', doc: 'A sort expression: comma-separated properties, each optionally `desc`.' },
  { key: 'param', insert: '@param ${1:Name} = ${2:value}', doc: 'The value of placeholder `@Name`.' },
  { key: 'wildcards', insert: '@wildcards ${1|on,off|}', doc: '`supportWildcards`: off makes `*` and `?` literal.' },
  { key: 'operator', insert: '@operator ${1|OR,AND|}', doc: '`defaultLogicalOperator`: joins criteria written side by side.' },
];

/**
 * Completions in a `.dam-query` file. Only the section under the cursor is read, so the cost does
 * not grow with the file: directives on comment lines, the expression elsewhere.
 */
export function completeInDocument(text: string, offset: number, options: DocumentCompletionOptions = {}): CompletionItem[] {
  const section = sectionAt(text, offset);
  if (!section) return [];
  const lineStart = offset === 0 ? 0 : text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  if (before.trimStart().startsWith('###')) return [];
  if (before.trimStart().startsWith('#')) return completeDirective(before, offset, section, options);
  const common: CompletionOptions = {
    target: section.target,
    schema: options.schema,
    supportWildcards: section.wildcards,
    defaultOperator: section.defaultOperator,
    boundNames: Object.keys(section.params),
    recentValues: options.recentValues,
    ownValues: true,
    triggerCharacter: options.triggerCharacter,
  };
  const base = section.expressionOffset;
  let expr = section.expression;
  if (offset < base) return shift(complete('', 0, common), offset);
  if (offset > base + expr.length) {
    // Blank lines (or directives) between the expression's end and the cursor: pad with spaces.
    const gap = text.slice(base + expr.length, offset).replace(/^[ \t]*#.*$/gm, (m) => ' '.repeat(m.length));
    expr += gap;
  }
  return shift(complete(expr, offset - base, common), base);
}

function completeDirective(before: string, offset: number, section: QuerySection, options: DocumentCompletionOptions): CompletionItem[] {
  const keyMatch = /^\s*#\s*(@?\w*)$/.exec(before);
  if (keyMatch) {
    const typed = keyMatch[1];
    const range = { start: offset - typed.length, end: offset };
    return DIRECTIVE_ITEMS.map((d) => ({ label: '@' + d.key, kind: 'directive' as const, documentation: d.doc, insertText: d.insert, snippet: true, range, sortText: '0' + d.key }));
  }
  const valueMatch = /^\s*#\s*@(\w+)\s+(.*)$/.exec(before);
  if (!valueMatch) return [];
  const key = valueMatch[1].toLowerCase();
  const typed = valueMatch[2];
  const valueStart = offset - typed.length;
  const word = /[\w]*$/.exec(typed)?.[0] ?? '';
  const range = { start: offset - word.length, end: offset };
  const choice = (values: string[]) =>
    values.map((v) => ({ label: v, kind: 'value' as const, insertText: v, range, sortText: '0' + v }));
  switch (key) {
    case 'target':
      return choice(['records', 'classifications']);
    case 'wildcards':
      return choice(['on', 'off']);
    case 'operator':
      return choice(['OR', 'AND']);
    case 'sort':
      return shift(complete(typed, typed.length, { mode: 'sort', target: section.target, schema: options.schema }), valueStart);
    default:
      return [];
  }
}

function shift(items: CompletionItem[], delta: number): CompletionItem[] {
  if (delta === 0) return items;
  return items.map((i) => ({ ...i, range: { start: i.range.start + delta, end: i.range.end + delta } }));
}
