// Semantic checks of parsed expressions: properties, operators per type, values, fields and options.
// Without a schema only what the spec fixes is checked; with one, fields and options too.
import type { BinaryExpr, ComparisonOperator, Criterion, Expr, FieldRef, LiteralValue, PropertyPath, ScalarValue, SearchExpression, SortExpression, Value } from './ast';
import {
  ACCESSORS_BY_DATA_TYPE,
  ACCESSOR_INDEX as ACCESSOR_INDEX_,
  ALL_ACCESSORS as ALL_ACCESSORS_,
  OPERATORS_BY_TYPE as OPERATORS_BY_TYPE_,
  CONTENT_STATUSES,
  RANK_PROPERTY,
  lookupProperty as lookupProperty_,
  propertiesFor,
  type AccessorInfo,
  type FieldDataType,
  type PropertyInfo,
  type PropertyType,
  type QueryTarget,
} from './catalogue';
import { DiagnosticCodes, diagnostic, type Diagnostic, type QuickFix } from './diagnostics';
import { findField, type FieldSchema, type QuerySchema } from './schema';
import { LEGACY_DATE, isBoolean, isGuid, isIsoDate, isSearchNumber, isToday, parseSearchDate } from './values';

// Local bindings: transpiled named imports are getter calls, and these run once per criterion.
const lookupProperty = lookupProperty_;
const OPERATORS_BY_TYPE = OPERATORS_BY_TYPE_;
const ALL_ACCESSORS = ALL_ACCESSORS_;
const ACCESSOR_INDEX = ACCESSOR_INDEX_;

/** A bit per comparison operator, for the masks below (string switches compare interned pointers). */
function operatorBit(op: ComparisonOperator): number {
  switch (op) {
    case '=':
      return 1;
    case '>':
      return 2;
    case '>=':
      return 4;
    case '<':
      return 8;
    case '<=':
      return 16;
    case '<>':
      return 32;
    case 'in':
      return 64;
    case 'contains':
      return 128;
  }
}

function maskOf(type: PropertyType): number {
  let mask = 0;
  for (const op of OPERATORS_BY_TYPE[type]) mask |= operatorBit(op);
  return mask;
}

// OPERATORS_BY_TYPE as bit masks: the check runs per criterion.
const STRING_OPS = maskOf('String');
const DATE_OPS = maskOf('DateTime');
const GUID_OPS = maskOf('Guid');
const NUMERIC_OPS = maskOf('Numeric');
const BOOLEAN_OPS = maskOf('Boolean');
const USER_OPS = maskOf('User');
const CLASSIFICATION_OPS = maskOf('Classification');

/** Whether the spec allows `op` on a property of `type` ("By type: …"). */
export function operatorAllowed(type: PropertyType, op: ComparisonOperator): boolean {
  let mask: number;
  switch (type) {
    case 'String':
      mask = STRING_OPS;
      break;
    case 'DateTime':
      mask = DATE_OPS;
      break;
    case 'Guid':
      mask = GUID_OPS;
      break;
    case 'Numeric':
      mask = NUMERIC_OPS;
      break;
    case 'Boolean':
      mask = BOOLEAN_OPS;
      break;
    case 'User':
      mask = USER_OPS;
      break;
    case 'Classification':
      mask = CLASSIFICATION_OPS;
      break;
  }
  return (mask & operatorBit(op)) !== 0;
}

export interface CheckOptions {
  /** Which search runs the expression; selects the property catalogue. Default `records`. */
  target?: QueryTarget;
  schema?: QuerySchema;
  /** False for `filter`/`sort` in a query string or header: the spec allows no parameters there. Default true. */
  allowPlaceholders?: boolean;
  /** Names with a bound value; when given, other `@Name` placeholders are reported. */
  boundNames?: ReadonlySet<string>;
}

/** What a property path resolves to: its type when known, and the schema field when there is one. */
export interface ResolvedPath {
  type: PropertyType | null;
  /** Catalogue entry of a plain property. */
  property?: PropertyInfo;
  /** Schema field of a field reference. */
  field?: FieldSchema;
  /** Data types the accessor can belong to (field references). */
  dataTypes?: FieldDataType[];
}

/** Resolves a path against the catalogue and the schema, without reporting anything. */
export function resolvePath(path: PropertyPath, target: QueryTarget, schema?: QuerySchema): ResolvedPath {
  if (path.kind === 'property') {
    const info = lookupProperty(target, path.name) ?? (path.name.toLowerCase() === 'rank' ? RANK_PROPERTY : undefined);
    return { type: info?.type ?? null, property: info };
  }
  const field = schema ? findField(schema, path.by, unescapeSlash(path.key)) : undefined;
  const acc = accessorText(path);
  if (field) {
    const a = path.accessor.length === 0 ? implicitAccessor(field.dataType) : ACCESSORS_BY_DATA_TYPE[field.dataType].find((x) => x.path.toLowerCase() === acc.toLowerCase());
    return { type: a?.type ?? null, field, dataTypes: [field.dataType] };
  }
  const entry = ACCESSOR_INDEX.get(acc);
  if (!entry) return { type: null };
  return { type: entry.type, dataTypes: entry.dataTypes };
}

/** The accessor as written, dotted (`Option.Name`); none written means `Value`. The usual single segment needs no join. */
function accessorText(ref: FieldRef): string {
  if (ref.accessor.length === 0) return 'Value';
  return ref.accessor.length === 1 ? ref.accessor[0] : ref.accessor.join('.');
}

/** What a field reference without accessor compares: the value (`Value`), or a data type's own first accessor. */
export function implicitAccessor(dataType: FieldDataType): AccessorInfo {
  const accessors = ACCESSORS_BY_DATA_TYPE[dataType];
  return accessors.find((a) => a.path === 'Value') ?? accessors[0];
}

/** Semantic diagnostics of a tree, appended to `out` when given (else to a new array), which is returned. */
export function checkExpression(ast: SearchExpression, options: CheckOptions = {}, out: Diagnostic[] = []): Diagnostic[] {
  const ctx: Ctx = { target: options.target ?? 'records', schema: options.schema, options, out };
  if (ast.body) checkExpr(ast.body, ctx);
  return out;
}

export function checkSort(ast: SortExpression, options: CheckOptions = {}, out: Diagnostic[] = []): Diagnostic[] {
  const ctx: Ctx = { target: options.target ?? 'records', schema: options.schema, options, out };
  for (let i = 0; i < ast.items.length; i++) {
    const t = ast.items[i].target;
    if (t.kind === 'property') {
      if (t.name.length === 4 && t.name.toLowerCase() === 'rank') continue;
      const info = lookupProperty(ctx.target, t.name);
      if (!info) unknownProperty(t.name, t.range, ctx);
      else if (!info.sortable) {
        const sortable = propertiesFor(ctx.target).filter((p) => p.sortable).map((p) => p.name);
        out.push(
          diagnostic(
            DiagnosticCodes.NotSortable,
            'error',
            `\`${info.name}\` cannot be sorted by. Sortable ${ctx.target} properties: ${sortable.join(', ')}, Rank.`,
            t.range,
          ),
        );
      }
    } else checkFieldRef(t, ctx);
  }
  return out;
}

interface Ctx {
  target: QueryTarget;
  schema?: QuerySchema;
  options: CheckOptions;
  out: Diagnostic[];
}

function checkExpr(e: Expr, ctx: Ctx): void {
  switch (e.kind) {
    case 'and':
    case 'or':
      for (let i = 0; i < e.operands.length; i++) checkExpr(e.operands[i], ctx);
      if (e.implicit && e.kind === 'or') checkImplicitJoin(e, ctx);
      return;
    case 'not':
      checkExpr(e.operand, ctx);
      return;
    case 'text':
      checkPlaceholder(e.value, ctx);
      return;
    case 'criterion':
      checkCriterion(e, ctx);
      return;
    default:
      return;
  }
}

/**
 * Criteria written side by side are joined by the default operator, OR (the spec's): someone who writes
 * `Title contains harbour` on one line and `Status = Released` on the next expects both to hold, and gets either.
 * Words side by side (`children harbour`) are left alone (any of them is what a word search means), and so is a
 * query that chose `# @operator AND` (its joins are AND).
 */
function checkImplicitJoin(e: BinaryExpr, ctx: Ctx): void {
  for (let i = 1; i < e.operands.length; i++) {
    const [left, right] = [e.operands[i - 1], e.operands[i]];
    if ((left.kind === 'text' && right.kind === 'text') || left.kind === 'error' || right.kind === 'error') continue;
    const insert = (word: string) => ({ title: `Join with ${word}`, edits: [{ range: { start: right.range.start, end: right.range.start }, newText: `${word} ` }] });
    ctx.out.push(
      diagnostic(
        DiagnosticCodes.ImplicitOperator,
        'info',
        'No operator before this criterion: it is joined by OR (the default), so records matching either one are found. Write AND to need both, or OR to say so.',
        right.range,
        [insert('AND'), insert('OR')],
      ),
    );
  }
}

function checkCriterion(c: Criterion, ctx: Ctx): void {
  let type: PropertyType | null;
  let field: FieldSchema | undefined;
  let info: PropertyInfo | undefined;
  let supportsContains = true;
  if (c.property.kind === 'property') {
    info = lookupProperty(ctx.target, c.property.name);
    if (!info) {
      unknownProperty(c.property.name, c.property.range, ctx);
      type = null;
    } else {
      type = info.type;
      supportsContains = info.supportsContains;
    }
  } else {
    const r = checkFieldRef(c.property, ctx);
    type = r.type;
    field = r.field;
  }

  if (!c.operator) return;
  const op = c.operator.op;
  if (type && !operatorAllowed(type, op)) {
    const suggestion = suggestOperator(op, type);
    ctx.out.push(
      diagnostic(
        DiagnosticCodes.OperatorNotAllowed,
        'error',
        `\`${op}\` is not allowed on ${displayName(c.property, info)} (${type}); allowed: ${OPERATORS_BY_TYPE[type].join(' ')}.`,
        c.operator.range,
        suggestion ? [{ title: `Use \`${suggestion}\``, edits: [{ range: c.operator.range, newText: suggestion }] }] : undefined,
      ),
    );
    return;
  }
  if (type === 'String' && op === 'contains' && !supportsContains) {
    ctx.out.push(
      diagnostic(
        DiagnosticCodes.ContainsNotListed,
        'info',
        `The spec lists \`contains\` (full-text) only for Title; on ${displayName(c.property, info)} it may behave like \`=\`.`,
        c.operator.range,
      ),
    );
  }
  if (c.value) checkValue(c.value, op, type, field, c.property, ctx);
}

function checkFieldRef(ref: FieldRef, ctx: Ctx): ResolvedPath {
  const resolved = resolvePath(ref, ctx.target, ctx.schema);
  const haveSchema = (ctx.schema?.fields?.length ?? 0) > 0;
  if (haveSchema && !resolved.field && ref.key.length > 0) {
    const names = (ctx.schema?.fields ?? []).map((f) => (ref.by === 'id' ? (f.id ?? '') : ref.by === 'label' ? (f.label ?? '') : f.name)).filter((s) => s);
    const close = closest(ref.key, names);
    ctx.out.push(
      diagnostic(
        DiagnosticCodes.UnknownField,
        'warning',
        `No field with ${ref.by} '${ref.key}' in the connected schema.${close ? ` Did you mean '${close}'?` : ''}`,
        ref.keyRange,
        close ? [{ title: `Change to '${close}'`, edits: [{ range: ref.keyRange, newText: quoteLike(close) }] }] : undefined,
      ),
    );
  }
  // `FieldName('x') = v` compares the field's value, as `.Value` does (real-service-notes); `FieldName('x').` with
  // nothing after the dot was reported by the parser.
  if (ref.accessor.length === 0) return resolved;
  const acc = accessorText(ref);
  const range = ref.accessorRange ?? ref.range;
  if (resolved.field) {
    const valid = ACCESSORS_BY_DATA_TYPE[resolved.field.dataType];
    if (!valid.some((a) => a.path.toLowerCase() === acc.toLowerCase())) {
      ctx.out.push(
        diagnostic(
          DiagnosticCodes.InvalidAccessor,
          'error',
          `\`${acc}\` does not exist on ${resolved.field.dataType} field '${resolved.field.name}'; use ${valid.map((a) => '`' + a.path + '`').join(', ')}.`,
          range,
          valid.map((a) => ({ title: `Use \`${a.path}\``, edits: [{ range, newText: a.path }] })),
        ),
      );
    }
  } else if (resolved.dataTypes === undefined) {
    // resolvePath found no data type with this accessor.
    const all = [...ALL_ACCESSORS.values()].map((a) => a.path);
    const close = closest(acc, all);
    ctx.out.push(
      diagnostic(
        DiagnosticCodes.InvalidAccessor,
        'warning',
        `\`${acc}\` is not a field property of any data type (Value, UtcValue, Url, DisplayText, Option.Name, …).`,
        range,
        close ? [{ title: `Use \`${close}\``, edits: [{ range, newText: close }] }] : undefined,
      ),
    );
  }
  return resolved;
}

function checkValue(v: Value, op: ComparisonOperator, type: PropertyType | null, field: FieldSchema | undefined, path: PropertyPath, ctx: Ctx): void {
  if (v.kind === 'list') {
    for (let i = 0; i < v.items.length; i++) checkValue(v.items[i], op, type, field, path, ctx);
    return;
  }
  if (v.kind === 'placeholder') {
    checkPlaceholder(v, ctx);
    return;
  }
  const text = v.kind === 'literal' ? v.value : v.pattern;
  if (type === 'DateTime' && op === 'in') {
    if (v.kind !== 'literal' || !isToday(v.value)) {
      ctx.out.push(
        diagnostic(DiagnosticCodes.DateInOnlyToday, 'error', '`in` on a date supports only `today`.', v.range, [
          { title: 'Use `today`', edits: [{ range: v.range, newText: 'today' }] },
        ]),
      );
    }
    return;
  }
  if (v.kind === 'wildcard' && type !== null && type !== 'String') {
    ctx.out.push(
      diagnostic(DiagnosticCodes.WildcardIgnored, 'warning', `Wildcards apply to text; on a ${type} value \`*\` and \`?\` are taken literally.`, v.range),
    );
    // Taken literally, a date, number or boolean with `*` in it is no longer one: checked below like any other.
    if (type !== 'DateTime' && type !== 'Numeric' && type !== 'Boolean') return;
  }
  // `<> ""` tests that a value is not empty, whatever the type.
  if (text.length === 0) return;
  switch (type) {
    case 'DateTime':
      checkDate(text, v, ctx);
      return;
    case 'Numeric':
      if (!isSearchNumber(text)) invalid(ctx, v, `'${text}' is not a number (up to 15 digits, and 10 after the point).`);
      return;
    case 'Boolean':
      if (!isBoolean(text)) {
        ctx.out.push(
          diagnostic(DiagnosticCodes.InvalidValue, 'error', `'${text}' is not a boolean; use true or false.`, v.range, [
            { title: 'Use `true`', edits: [{ range: v.range, newText: 'true' }] },
            { title: 'Use `false`', edits: [{ range: v.range, newText: 'false' }] },
          ]),
        );
      }
      return;
    case 'Guid':
      if (!isGuid(text)) ctx.out.push(diagnostic(DiagnosticCodes.InvalidValue, 'warning', `'${text}' does not look like a GUID (32 hex digits, dashes optional).`, v.range));
      return;
    case 'Classification':
      checkClassification(text, v, ctx);
      return;
    default:
      break;
  }
  if (v.kind === 'literal' && path.kind === 'property' && lookupProperty_(ctx.target, path.name)?.name === 'ContentStatus') {
    checkContentStatus(text, v, ctx);
    return;
  }
  if (field?.options && field.options.length > 0 && v.kind === 'literal' && path.kind === 'field') {
    const acc = path.accessor.join('.').toLowerCase();
    if (acc === 'value' || acc === 'option.name' || acc === 'option.label') {
      const names = field.options.flatMap((o) => (acc === 'option.label' ? [o.label ?? o.name] : acc === 'option.name' ? [o.name] : [o.name, o.label ?? o.name]));
      if (!names.some((n) => n.toLowerCase() === text.toLowerCase())) {
        const close = closest(text, names);
        ctx.out.push(
          diagnostic(
            DiagnosticCodes.UnknownOption,
            'warning',
            `'${text}' is not an option of '${field.name}'${close ? `; did you mean '${close}'?` : ''} Options: ${field.options.map((o) => o.name).join(', ')}.`,
            v.range,
            close ? [{ title: `Change to '${close}'`, edits: [{ range: v.range, newText: quoteLike(close, v.quote) }] }] : undefined,
          ),
        );
      }
    }
  }
}

function checkPlaceholder(v: ScalarValue, ctx: Ctx): void {
  if (v.kind !== 'placeholder') return;
  if (ctx.options.allowPlaceholders === false) {
    const shown = v.name !== null ? '@' + v.name : '?';
    ctx.out.push(
      diagnostic(DiagnosticCodes.PlaceholderNotAllowed, 'error', `\`${shown}\`: \`filter\` and \`sort\` in a query string take no parameters; write the value itself.`, v.range),
    );
    return;
  }
  const bound = ctx.options.boundNames;
  if (bound && v.name !== null && !bound.has(v.name)) {
    ctx.out.push(diagnostic(DiagnosticCodes.UnboundPlaceholder, 'warning', `\`@${v.name}\` has no value; add \`# @param ${v.name} = …\`.`, v.range));
  }
  if (bound && v.name === null) {
    ctx.out.push(diagnostic(DiagnosticCodes.UnboundPlaceholder, 'warning', '`?` takes its value from the request\'s `parameters`; a `.dam-query` file binds only named `@Name` placeholders.', v.range));
  }
}

function checkDate(text: string, v: ScalarValue, ctx: Ctx): void {
  if (isToday(text)) return;
  const parsed = parseSearchDate(text, EPOCH);
  const legacy = LEGACY_DATE.exec(text);
  if (!parsed) {
    if (isIsoDate(text) || legacy) {
      invalid(ctx, v, `'${text}' is not a real date.`);
      return;
    }
    // A year or a year and month reads as its first day: offer that (the value keeps its quotes).
    const partial = /^(\d{4})(?:-(\d{2}))?$/.exec(text);
    const first = partial && (!partial[2] || (Number(partial[2]) >= 1 && Number(partial[2]) <= 12)) ? `${partial[1]}-${partial[2] ?? '01'}-01` : undefined;
    ctx.out.push(
      diagnostic(
        DiagnosticCodes.InvalidValue,
        'error',
        `'${text}' is not a date; use ISO 8601 such as 2024-05-01 or 2024-05-01T12:00:00Z.`,
        v.range,
        first ? [{ title: `Write \`${first}\``, edits: [{ range: v.range, newText: quoteLike(first, v.kind === 'placeholder' ? null : v.quote) }] }] : undefined,
      ),
    );
    return;
  }
  if (legacy) {
    const day = `${legacy[3]}-${legacy[1].padStart(2, '0')}-${legacy[2].padStart(2, '0')}`;
    const iso = legacy[4] === undefined ? day : parsed.start.toISOString().replace('.000Z', 'Z');
    ctx.out.push(
      diagnostic(DiagnosticCodes.LegacyDateFormat, 'info', `\`M/D/YYYY\` dates come from old clients; ISO 8601 (\`${iso}\`) is the documented form.`, v.range, [
        { title: `Write \`${iso}\``, edits: [{ range: v.range, newText: iso }] },
      ]),
    );
  }
}

/** Any instant: only `today` depends on the clock, and checks accept it before asking. */
const EPOCH = new Date(0);

/** A record has one of three statuses: any other value quietly finds no record, so it is said, with the closest one. */
function checkContentStatus(text: string, v: LiteralValue, ctx: Ctx): void {
  if (CONTENT_STATUSES.some((s) => s.toLowerCase() === text.toLowerCase())) return;
  const close = closest(text, CONTENT_STATUSES);
  ctx.out.push(
    diagnostic(
      DiagnosticCodes.UnknownContentStatus,
      'warning',
      `'${text}' is not a content status, so no record matches.${close ? ` Did you mean '${close}'?` : ''} Statuses: ${CONTENT_STATUSES.join(', ')}.`,
      v.range,
      close ? [{ title: `Change to '${close}'`, edits: [{ range: v.range, newText: quoteLike(close, v.quote) }] }] : undefined,
    ),
  );
}

function checkClassification(text: string, v: ScalarValue, ctx: Ctx): void {
  const known = ctx.schema?.classifications;
  if (!known || known.length === 0 || isGuid(text) || v.kind !== 'literal') return;
  const lower = text.toLowerCase();
  if (known.some((k) => k.toLowerCase() === lower)) return;
  const close = closest(text, known);
  ctx.out.push(
    diagnostic(
      DiagnosticCodes.UnknownClassification,
      'warning',
      `No classification '${text}' in the connected schema.${close ? ` Did you mean '${close}'?` : ''}`,
      v.range,
      close ? [{ title: `Change to '${close}'`, edits: [{ range: v.range, newText: quoteLike(close, v.quote) }] }] : undefined,
    ),
  );
}

function unknownProperty(name: string, range: { start: number; end: number }, ctx: Ctx): void {
  const names = propertiesFor(ctx.target).map((p) => p.name);
  const close = closest(name, names);
  const fixes: QuickFix[] | undefined = close ? [{ title: `Change to \`${close}\``, edits: [{ range, newText: close }] }] : undefined;
  ctx.out.push(
    diagnostic(
      DiagnosticCodes.UnknownProperty,
      'warning',
      // A warning, not an error: the list is open-ended (real-service-notes), so a tenant may have the property. The
      // emulator has only the catalogue's, and refuses it with the same words (one verdict, said the same everywhere).
      `\`${name}\` is not a known ${ctx.target} property: the local emulator refuses it, and a tenant answers it only if it has such a property.${close ? ` Did you mean \`${close}\`?` : ''}`,
      range,
      fixes,
    ),
  );
}

function invalid(ctx: Ctx, v: ScalarValue, message: string): void {
  ctx.out.push(diagnostic(DiagnosticCodes.InvalidValue, 'error', message, v.range));
}

function suggestOperator(op: ComparisonOperator, type: PropertyType): ComparisonOperator | null {
  const allowed = OPERATORS_BY_TYPE[type];
  if (op === 'contains') return allowed.includes('>=') ? '>=' : '=';
  if ((op === '>' || op === '>=' || op === '<' || op === '<=') && allowed.includes('=')) return '=';
  if (op === 'in') return '=';
  return allowed[0] ?? null;
}

/** The name messages use; built only when a message is, since most criteria have none. */
function displayName(path: PropertyPath, info: PropertyInfo | undefined): string {
  return path.kind === 'property' ? (info?.name ?? path.name) : fieldLabel(path);
}

function fieldLabel(ref: FieldRef): string {
  const fn = ref.by === 'id' ? 'FieldId' : ref.by === 'name' ? 'FieldName' : 'FieldLabel';
  return `${fn}('${ref.key}')`;
}

function quoteLike(text: string, quote: '"' | "'" | null = "'"): string {
  if (quote === null && /^[A-Za-z0-9_.*-]+$/.test(text)) return text;
  const q = quote ?? "'";
  return q + text.replace(/\\/g, '\\\\').split(q).join('\\' + q) + q;
}

function unescapeSlash(s: string): string {
  return s.replace(/\\\//g, '/');
}

/** The candidate nearest to `word` by edit distance (case-insensitive), if near enough to be a typo. */
export function closest(word: string, candidates: readonly string[]): string | null {
  const w = word.toLowerCase();
  let best: string | null = null;
  let bestD = Math.max(1, Math.min(3, Math.floor(w.length / 3)));
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase(), bestD);
    if (d <= bestD && (best === null || d < editDistance(w, best.toLowerCase(), bestD))) {
      best = c;
      bestD = d;
    }
  }
  return best;
}

/** Optimal-string-alignment distance: a swap of two neighbours (`Titel`) counts as one typo. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
      cur[j] = d;
    }
    before = prev;
    prev = cur;
  }
  return prev[b.length];
}
