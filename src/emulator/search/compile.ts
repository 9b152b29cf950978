// Compiles a parsed search expression (src/core/search's AST) to a parameterised SQL condition: values only ever
// travel as $n parameters, never spliced into the SQL text.
import type { ComparisonOperator, Criterion, Expr, FieldRef, ScalarValue, SearchExpression, SortExpression, Value } from '../../core/search';
import { errors } from '../errors';
import type { SqlParam } from '../storage/store';

export type Target = 'records' | 'classifications';

export interface FieldDef {
  id: string;
  name: string;
  dataType: string;
}

export interface CompileInput {
  target: Target;
  /** Values of `?` placeholders in order. */
  parameters?: unknown[];
  /** Values of `@Name` placeholders (keys without `@`). */
  namedParameters?: Record<string, unknown>;
  /** Resolves `FieldId/FieldName/FieldLabel` to a definition; undefined = unknown field (400). */
  resolveField(by: FieldRef['by'], key: string): FieldDef | undefined;
  now: Date;
}

/** Collects SQL parameters while the condition is built. */
export class SqlBuilder {
  readonly params: SqlParam[] = [];

  constructor(offset = 0) {
    this.offset = offset;
  }

  private readonly offset: number;

  bind(value: SqlParam): string {
    this.params.push(value);
    return `$${this.params.length + this.offset}`;
  }
}

interface Resolved {
  text: string;
  /** True when `*`/`?` in `text` are wildcards. */
  wildcard: boolean;
}

const TABLE: Record<Target, string> = { records: 'r', classifications: 'c' };

/** Full-text query terms: letters and digits only, so the tsquery text cannot carry operators. */
export function tsQueryText(value: Resolved, weight?: 'A'): string | undefined {
  const words = value.text.match(/[\p{L}\p{N}]+\*?/gu) ?? [];
  const parts = words
    .map((w) => {
      const prefix = value.wildcard && w.endsWith('*');
      const word = w.replace(/\*$/, '').toLowerCase();
      if (!word) return '';
      return `${word}:${prefix ? '*' : ''}${weight ?? ''}`.replace(/:$/, '');
    })
    .filter(Boolean);
  if (!parts.length) return undefined;
  return parts.join(' <-> ');
}

function likePattern(text: string): string {
  let out = '';
  for (const ch of text) {
    if (ch === '*') out += '%';
    else if (ch === '?') out += '_';
    else if (ch === '%' || ch === '_' || ch === '\\') out += `\\${ch}`;
    else out += ch;
  }
  return out;
}

function hasWildcard(v: Resolved): boolean {
  return v.wildcard && /[*?]/.test(v.text);
}

const SQL_OP: Record<Exclude<ComparisonOperator, 'in' | 'contains'>, string> = { '=': '=', '<>': '<>', '>': '>', '>=': '>=', '<': '<', '<=': '<=' };

/** Parses the date spellings seen in the wild: ISO 8601 with or without time, and M/D/YYYY. */
export function parseDate(text: string, now: Date): { start: Date; end: Date; dateOnly: boolean } {
  const t = text.trim();
  if (/^today$/i.test(t)) {
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    return { start, end: new Date(start.getTime() + 86_400_000), dateOnly: true };
  }
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  if (us) m = [us[0], us[3], us[1].padStart(2, '0'), us[2].padStart(2, '0')] as unknown as RegExpExecArray;
  if (m) {
    const start = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    if (Number.isNaN(start.getTime()) || start.getUTCDate() !== Number(m[3])) throw errors.invalidSearchExpression(`'${text}' is not a valid date.`);
    return { start, end: new Date(start.getTime() + 86_400_000), dateOnly: true };
  }
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,7})?)?(Z|[+-]\d{2}:?\d{2})?$/.test(t)) {
    const withZone = /(Z|[+-]\d{2}:?\d{2})$/.test(t) ? t : `${t}Z`;
    const d = new Date(withZone.replace(/(\.\d{3})\d+/, '$1'));
    if (!Number.isNaN(d.getTime())) return { start: d, end: d, dateOnly: false };
  }
  throw errors.invalidSearchExpression(`'${text.slice(0, 100)}' is not a valid date (use ISO 8601, e.g. 2025-01-31 or 2025-01-31T12:00:00Z).`);
}

export class Compiler {
  /** Full-text queries met in the expression, for `Rank`. */
  readonly textQueries: string[] = [];

  constructor(
    private readonly input: CompileInput,
    readonly sql: SqlBuilder,
  ) {}

  compile(search: SearchExpression): string {
    return search.body ? this.expr(search.body) : 'TRUE';
  }

  private expr(e: Expr): string {
    switch (e.kind) {
      case 'matchAll':
        return 'TRUE';
      case 'and':
      case 'or':
        return `(${e.operands.map((o) => this.expr(o)).join(e.kind === 'and' ? ' AND ' : ' OR ')})`;
      case 'not':
        return `(NOT ${this.expr(e.operand)})`;
      case 'text':
        return this.fullText(this.scalar(e.value));
      case 'criterion':
        return this.criterion(e);
      case 'error':
        throw errors.invalidSearchExpression('The search expression has a syntax error.');
    }
  }

  private scalar(v: ScalarValue): Resolved {
    if (v.kind === 'literal') return { text: v.value, wildcard: false };
    if (v.kind === 'wildcard') return { text: v.pattern, wildcard: true };
    let raw: unknown;
    if (v.name !== null) {
      const named = this.input.namedParameters ?? {};
      const key = Object.keys(named).find((k) => k.replace(/^@/, '').toLowerCase() === v.name!.toLowerCase());
      if (key === undefined) throw errors.invalidSearchExpression(`No value was given for the parameter '@${v.name}'.`);
      raw = named[key];
    } else {
      const list = this.input.parameters ?? [];
      if (v.index === null || v.index >= list.length) throw errors.invalidSearchExpression(`No value was given for placeholder ${(v.index ?? 0) + 1} ('?').`);
      raw = list[v.index];
    }
    if (raw === null || raw === undefined) return { text: '', wildcard: false };
    if (typeof raw === 'object') throw errors.invalidSearchExpression('Parameter values must be strings, numbers or booleans.');
    // Placeholder values are data: wildcards in them count only when the request allows wildcards.
    return { text: String(raw), wildcard: this.wildcards };
  }

  wildcards = true;

  private values(v: Value | null): Resolved[] {
    if (!v) throw errors.invalidSearchExpression('A criterion is missing its value.');
    if (v.kind === 'list') return v.items.map((i) => this.scalar(i));
    return [this.scalar(v)];
  }

  private fullText(value: Resolved): string {
    const t = TABLE[this.input.target];
    if (this.input.target === 'classifications') {
      if (!value.text.trim()) return 'TRUE';
      const pattern = `${this.sql.bind(`%${likePattern(value.text)}%`)}::text`;
      return `(${t}.name ILIKE ${pattern} OR ${t}.identifier ILIKE ${pattern})`;
    }
    if (value.text.trim() === '*') return 'TRUE';
    const q = tsQueryText(value);
    if (!q) return 'FALSE';
    this.textQueries.push(q);
    return `${t}.tsv @@ to_tsquery('simple', ${this.sql.bind(q)}::text)`;
  }

  /** String comparison: case-insensitive; `*`/`?` make `=`/`<>` a LIKE match. */
  private stringCompare(column: string, op: ComparisonOperator, values: Resolved[]): string {
    if (op === 'in') return `(${values.map((v) => this.stringCompare(column, '=', [v])).join(' OR ')})`;
    const v = values[0];
    if (op === 'contains') {
      const q = tsQueryText(v);
      if (!q) return 'FALSE';
      return `to_tsvector('simple', coalesce(${column}, '')) @@ to_tsquery('simple', ${this.sql.bind(q)}::text)`;
    }
    if ((op === '=' || op === '<>') && hasWildcard(v)) {
      const like = `${column} ILIKE ${this.sql.bind(likePattern(v.text))}::text`;
      return op === '=' ? like : `(${column} IS NULL OR NOT ${like})`;
    }
    return `lower(${column}) ${SQL_OP[op]} lower(${this.sql.bind(v.text)}::text)`;
  }

  private dateCompare(column: string, op: ComparisonOperator, values: Resolved[]): string {
    if (op === 'contains') throw errors.invalidSearchExpression(`'contains' does not apply to dates.`);
    if (op === 'in') return `(${values.map((v) => this.dateCompare(column, '=', [v])).join(' OR ')})`;
    const d = parseDate(values[0].text, this.input.now);
    // Bind only what the SQL uses: an unused parameter has no type and PostgreSQL refuses it.
    const at = (date: Date) => `${this.sql.bind(date.toISOString())}::timestamptz`;
    if (!d.dateOnly) return `${column} ${SQL_OP[op]} ${at(d.start)}`;
    switch (op) {
      case '=':
        return `(${column} >= ${at(d.start)} AND ${column} < ${at(d.end)})`;
      case '<>':
        return `(${column} < ${at(d.start)} OR ${column} >= ${at(d.end)})`;
      case '>':
        return `${column} >= ${at(d.end)}`;
      case '>=':
        return `${column} >= ${at(d.start)}`;
      case '<':
        return `${column} < ${at(d.start)}`;
      default:
        return `${column} < ${at(d.end)}`;
    }
  }

  private numberCompare(column: string, op: ComparisonOperator, values: Resolved[]): string {
    if (op === 'contains') throw errors.invalidSearchExpression(`'contains' does not apply to numbers.`);
    if (op === 'in') return `(${values.map((v) => this.numberCompare(column, '=', [v])).join(' OR ')})`;
    const text = values[0].text.trim();
    if (!/^-?\d{1,15}(\.\d{1,10})?$/.test(text)) throw errors.invalidSearchExpression(`'${text.slice(0, 50)}' is not a number.`);
    return `${column} ${SQL_OP[op]} ${this.sql.bind(Number(text))}::numeric`;
  }

  private guidCompare(column: string, op: ComparisonOperator, values: Resolved[]): string {
    if (!['=', '<>', 'in'].includes(op)) throw errors.invalidSearchExpression(`The operator '${op}' does not apply to ids.`);
    const ids = values.map((v) => v.text.replace(/[{}-]/g, '').toLowerCase());
    if (op === 'in') return `${column} = ANY(${this.sql.bind(ids)}::text[])`;
    return `${column} ${SQL_OP[op as '=' | '<>']} ${this.sql.bind(ids[0])}::text`;
  }

  private userCompare(column: string, op: ComparisonOperator, values: Resolved[]): string {
    if (!['=', '<>', 'in'].includes(op)) throw errors.invalidSearchExpression(`The operator '${op}' does not apply to users.`);
    const match = values
      .map((v) => {
        const p = `${this.sql.bind(v.text.trim())}::text`;
        return `(u.id::text = ${p} OR lower(u.login) = lower(${p}) OR lower(u.first_name || ' ' || u.last_name) = lower(${p}))`;
      })
      .join(' OR ');
    const exists = `${column} IN (SELECT u.id FROM users u WHERE ${match})`;
    return op === '<>' ? `NOT (${exists})` : exists;
  }

  private classificationCompare(direct: boolean, op: ComparisonOperator, values: Resolved[]): string {
    if (!['=', '<>', 'in'].includes(op)) throw errors.invalidSearchExpression(`The operator '${op}' does not apply to classifications.`);
    const match = values
      .map((v) => {
        const p = `${this.sql.bind(v.text.trim())}::text`;
        const id = `${this.sql.bind(v.text.trim().replace(/[{}-]/g, '').toLowerCase())}::text`;
        return `(t.id = ${id} OR lower(t.name) = lower(${p}) OR lower(t.name_path) = lower(${p}) OR lower(t.identifier) = lower(${p}))`;
      })
      .join(' OR ');
    const under = direct ? 'c2.id = t.id' : `(c2.id = t.id OR starts_with(c2.name_path, t.name_path || '/'))`;
    const exists = `EXISTS (SELECT 1 FROM record_classifications rc JOIN classifications c2 ON c2.id = rc.classification_id
      JOIN classifications t ON ${under} WHERE rc.record_id = r.id AND (${match}))`;
    return op === '<>' ? `NOT ${exists}` : exists;
  }

  private criterion(c: Criterion): string {
    if (!c.operator) throw errors.invalidSearchExpression('A criterion is missing its operator.');
    const op = c.operator.op;
    const values = this.values(c.value);
    if (op !== 'in' && values.length !== 1) throw errors.invalidSearchExpression(`A list of values needs the 'in' operator.`);
    if (c.property.kind === 'field') return this.fieldCriterion(c.property, op, values);
    const name = c.property.name.toLowerCase();
    return this.input.target === 'records' ? this.recordCriterion(name, c.property.name, op, values) : this.classificationCriterion(name, c.property.name, op, values);
  }

  private recordCriterion(name: string, shown: string, op: ComparisonOperator, values: Resolved[]): string {
    switch (name) {
      case 'id':
        return this.guidCompare('r.id', op, values);
      case 'title':
        if (op === 'contains') {
          const q = tsQueryText(values[0], 'A');
          if (!q) return 'FALSE';
          this.textQueries.push(q);
          return `r.tsv @@ to_tsquery('simple', ${this.sql.bind(q)}::text)`;
        }
        return this.stringCompare('r.title', op, values);
      case 'contentstatus':
      case 'status':
        return this.stringCompare('r.status', op, values);
      case 'contenttype':
      case 'directcontenttype':
        return this.stringCompare('r.content_type', op, values);
      case 'classification':
      case 'directclassification':
        return this.classificationCompare(name === 'directclassification', op, values);
      case 'createdon':
        return this.dateCompare('r.created_on', op, values);
      case 'modifiedon':
        return this.dateCompare('r.modified_on', op, values);
      case 'createdby':
        return this.userCompare('r.created_by', op, values);
      case 'modifiedby':
        return this.userCompare('r.modified_by', op, values);
      case 'filecount':
        return this.numberCompare('r.file_count', op, values);
      case 'tag':
        return this.stringCompare('r.tag', op, values);
      default:
        if (FILE_PROPERTIES.has(name)) {
          // Files arrive with a later issue: no record has file versions yet, so nothing matches.
          return op === '<>' ? 'TRUE' : 'FALSE';
        }
        throw errors.invalidSearchExpression(`'${shown.slice(0, 100)}' is not a searchable property of records.`);
    }
  }

  private classificationCriterion(name: string, shown: string, op: ComparisonOperator, values: Resolved[]): string {
    switch (name) {
      case 'id':
        return this.guidCompare('c.id', op, values);
      case 'parent.id':
      case 'parentid':
        return this.guidCompare(`coalesce(c.parent_id, '')`, op, values);
      case 'name':
        return this.stringCompare('c.name', op, values);
      case 'identifier':
        return this.stringCompare('c.identifier', op, values);
      case 'label':
        return this.stringCompare(`(c.labels->0->>'value')`, op, values);
      case 'namepath':
        return this.stringCompare('c.name_path', op, values);
      case 'labelpath':
        return this.stringCompare('c.label_path', op, values);
      case 'createdon':
        return this.dateCompare('c.created_on', op, values);
      case 'modifiedon':
        return this.dateCompare('c.modified_on', op, values);
      default:
        throw errors.invalidSearchExpression(`'${shown.slice(0, 100)}' is not a searchable property of classifications.`);
    }
  }

  private fieldCriterion(ref: FieldRef, op: ComparisonOperator, values: Resolved[]): string {
    if (this.input.target !== 'records') throw errors.invalidSearchExpression('Field references apply to record searches only.');
    const def = this.input.resolveField(ref.by, ref.key);
    if (!def) throw errors.invalidSearchExpression(`Unknown field '${ref.key.slice(0, 100)}'.`);
    const accessor = (ref.accessor.length ? ref.accessor.join('.') : 'Value').toLowerCase();
    const field = `${this.sql.bind(def.id)}::text`;
    const exists = (cond: string) => `EXISTS (SELECT 1 FROM field_values fv WHERE fv.record_id = r.id AND fv.field_id = ${field} AND ${cond})`;
    const emptyTest = values.length === 1 && values[0].text === '' && (op === '=' || op === '<>');
    if (emptyTest) {
      const present = exists(`coalesce(fv.value_text, '') <> ''`);
      return op === '<>' ? present : `NOT ${present}`;
    }
    // `<>` means "has no value equal to": the negation of `=` over the record's values.
    const positive = op === '<>' ? '=' : op;
    let cond: string;
    switch (accessor) {
      case 'option.id':
      case 'classification.id':
      case 'language.id':
      case 'record.id':
      case 'recordid':
      case 'usergroup.id':
      case 'child.record.id': {
        if (!['=', '<>', 'in'].includes(op)) throw errors.invalidSearchExpression(`The operator '${op}' does not apply to ids.`);
        const ids = values.map((v) => v.text.replace(/[{}-]/g, '').toLowerCase());
        cond = `jsonb_exists_any(coalesce(fv.value->'values', '[]'::jsonb), ${this.sql.bind(ids)}::text[])`;
        break;
      }
      default:
        if (def.dataType === 'Date' || def.dataType === 'DateTime' || def.dataType === 'Time') cond = this.dateCompare('fv.value_date', positive, values);
        else if (def.dataType === 'Numeric' || def.dataType === 'Duration') {
          cond = this.numberCompare(`(CASE WHEN fv.value_text ~ '^-?[0-9]+(\\.[0-9]+)?$' THEN fv.value_text::numeric END)`, positive, values);
        } else cond = this.stringCompare('fv.value_text', positive, values);
    }
    return op === '<>' ? `NOT ${exists(cond)}` : exists(cond);
  }

  /** ORDER BY terms for a sort expression; `Rank` sorts by relevance to the expression's full-text parts. */
  orderBy(sort: SortExpression | undefined, fallback: string): string {
    const t = TABLE[this.input.target];
    if (!sort || !sort.items.length) return `${fallback}, ${t}.id`;
    const terms: string[] = [];
    for (const item of sort.items) {
      const dir = item.direction === 'desc' ? 'DESC' : 'ASC';
      if (item.target.kind === 'field') {
        if (this.input.target !== 'records') throw errors.invalidSearchExpression('Field references apply to record searches only.');
        const def = this.input.resolveField(item.target.by, item.target.key);
        if (!def) throw errors.invalidSearchExpression(`Unknown field '${item.target.key.slice(0, 100)}'.`);
        const column = def.dataType === 'Date' || def.dataType === 'DateTime' ? 'value_date' : 'value_text';
        terms.push(`(SELECT min(fv.${column}) FROM field_values fv WHERE fv.record_id = r.id AND fv.field_id = ${this.sql.bind(def.id)}::text) ${dir} NULLS LAST`);
        continue;
      }
      const name = item.target.name.toLowerCase();
      const column = SORTABLE[this.input.target][name];
      if (name === 'rank') {
        if (this.input.target === 'records' && this.textQueries.length) {
          terms.push(`ts_rank(r.tsv, to_tsquery('simple', ${this.sql.bind(this.textQueries.map((q) => `(${q})`).join(' | '))}::text)) ${dir}`);
        }
        continue;
      }
      if (!column) throw errors.invalidSearchExpression(`'${item.target.name.slice(0, 100)}' is not a sortable property of ${this.input.target}.`);
      terms.push(`${column} ${dir}`);
    }
    terms.push(`${t}.id`);
    return terms.join(', ');
  }
}

const FILE_PROPERTIES = new Set(
  ['checkedoutby', 'ismaster', 'filename', 'filesize', 'checksum', 'comment', 'extension', 'haspublicuri', 'preview', 'previewcount', 'version', 'versionlabel', 'additionalfile', 'kind', 'name'],
);

const SORTABLE: Record<Target, Record<string, string>> = {
  records: { id: 'r.id', title: 'r.title', createdon: 'r.created_on', modifiedon: 'r.modified_on', rank: '' },
  classifications: { id: 'c.id', name: 'c.name', identifier: 'c.identifier', label: `(c.labels->0->>'value')`, sortindex: 'c.sort_index', rank: '' },
};
