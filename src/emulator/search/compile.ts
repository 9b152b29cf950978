// Compiles a checked search expression (src/core/search's AST, placeholders already bound) to a parameterised SQL
// condition: values only ever travel as $n parameters, never spliced into the SQL text. What a property is (type,
// operators, sortability) is the core's table (SEARCH_PROPERTIES); this file adds only where each one is stored.
import {
  ACCESSORS_BY_DATA_TYPE,
  FIELD_DATA_TYPES,
  guidKey,
  implicitAccessor,
  isBoolean,
  isSearchNumber,
  lookupProperty,
  operatorAllowed,
  parseSearchDate,
  type ComparisonOperator,
  type Criterion,
  type Expr,
  type FieldDataType,
  type FieldRef,
  type PropertyInfo,
  type PropertyType,
  type QueryTarget,
  type ScalarValue,
  type SearchDate,
  type SearchExpression,
  type SortExpression,
  type Value,
} from '../../core/search';
import { errors } from '../errors';
import type { SqlParam } from '../storage/store';

const GUID = /^[0-9a-f]{32}$/;

export type Target = QueryTarget;

export interface FieldDef {
  id: string;
  name: string;
  dataType: string;
}

export interface CompileInput {
  target: Target;
  /** Resolves `FieldId/FieldName/FieldLabel` to a definition; undefined = unknown field (400). */
  resolveField(by: FieldRef['by'], key: string): FieldDef | undefined;
  now: Date;
}

/**
 * Where a property's value is stored, keyed by the core's property names. A record search reaches beyond the record
 * row: any file (`f`) or version (`fv`) of it, any rendition (`af`), its master file's newest version, its
 * classifications (`c2`), the values of a named field. `sql` is the value's expression in that scope.
 */
export type Column =
  | { on: 'row'; sql: string }
  | { on: 'file'; sql: string }
  | { on: 'version'; sql: string }
  | { on: 'rendition'; sql: string }
  | { on: 'masterLatest'; sql: string }
  | { on: 'recordClassification'; sql: string }
  | { on: 'classificationTree'; direct: boolean }
  | { on: 'field'; name: string };

const row = (sql: string): Column => ({ on: 'row', sql });
const version = (sql: string): Column => ({ on: 'version', sql });

/** Every core property's storage; a unit test holds this to exactly the core's names, per target. */
export const COLUMNS: { readonly [T in Target]: ReadonlyMap<string, Column> } = {
  records: new Map<string, Column>([
    ['Id', row('r.id')],
    ['Title', row('r.title')],
    ['ContentStatus', row('r.status')],
    ['ContentType', row('r.content_type')],
    ['DirectContentType', row('r.content_type')],
    ['Classification', { on: 'classificationTree', direct: false }],
    ['DirectClassification', { on: 'classificationTree', direct: true }],
    ['Classification.NamePath', { on: 'recordClassification', sql: 'c2.name_path' }],
    ['Classification.LabelPath', { on: 'recordClassification', sql: 'c2.label_path' }],
    ['Classification.Name', { on: 'recordClassification', sql: 'c2.name' }],
    ['Classification.Label', { on: 'recordClassification', sql: `(c2.labels->0->>'value')` }],
    ['Classification.Identifier', { on: 'recordClassification', sql: 'c2.identifier' }],
    ['CreatedOn', row('r.created_on')],
    ['ModifiedOn', row('r.modified_on')],
    ['CreatedBy', row('r.created_by')],
    ['ModifiedBy', row('r.modified_by')],
    ['FileCount', row('r.file_count')],
    ['Tag', row('r.tag')],
    ['Keywords', { on: 'field', name: 'Keywords' }],
    ['LatestVersionOfMasterfile.FileName', { on: 'masterLatest', sql: 'fv.filename' }],
    ['LatestVersionOfMasterfile.HasPublicUri', { on: 'masterLatest', sql: 'false' }],
    ['CheckedOutBy', { on: 'file', sql: 'f.checked_out_by' }],
    ['IsMaster', { on: 'file', sql: 'f.is_master' }],
    ['FileName', version('fv.filename')],
    ['FileSize', version('fv.file_size')],
    ['Checksum', version('fv.checksum')],
    ['Comment', version('fv.comment')],
    ['Extension', version('fv.extension')],
    // The emulator publishes no public links.
    ['HasPublicUri', version('false')],
    // A version has a (JPEG) preview when it is an image the emulator can render.
    ['Preview', version(`CASE WHEN fv.width IS NOT NULL THEN 'jpg' END`)],
    ['PreviewCount', version('CASE WHEN fv.width IS NOT NULL THEN 1 ELSE 0 END')],
    ['Version', version('fv.version_number')],
    ['VersionLabel', version('fv.version_label')],
    ['AdditionalFile', { on: 'rendition', sql: 'af.name' }],
    ['Kind', version('upper(fv.extension)')],
    ['Name', version('coalesce(f.file_type, upper(fv.extension))')],
  ]),
  classifications: new Map<string, Column>([
    ['Id', row('c.id')],
    ['Label', row(`(c.labels->0->>'value')`)],
    ['Name', row('c.name')],
    ['Identifier', row('c.identifier')],
    ['NamePath', row('c.name_path')],
    ['LabelPath', row('c.label_path')],
    ['ParentId', row(`coalesce(c.parent_id, '')`)],
    ['SortIndex', row('c.sort_index')],
    ['CreatedOn', row('c.created_on')],
    ['ModifiedOn', row('c.modified_on')],
  ]),
};

/** Collects SQL parameters while the condition is built. */
export class SqlBuilder {
  readonly params: SqlParam[] = [];

  constructor(private readonly offset = 0) {}

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

/**
 * The words of a text as the search index holds them: split at `-`, `_` and `.` as at spaces, so `contains 'forest'`
 * finds `vivid-forest-photo-38.jpg` (PostgreSQL's parser alone keeps such a name as one token). The records' stored
 * vector and its title index use the same expression (migration 008-search-words): keep the three in step.
 */
export function searchWords(text: string): string {
  return `to_tsvector('simple', translate(${text}, '-_.', '   '))`;
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

/** A value's SQL condition given the expression it is compared to. */
type Condition = (expr: string) => string;

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
      case 'not': {
        // A chain of NOTs is one NOT or none: PostgreSQL refuses thousands of nested ones.
        let operand: Expr = e.operand;
        let negate = true;
        while (operand.kind === 'not') {
          operand = operand.operand;
          negate = !negate;
        }
        return negate ? `(NOT ${this.expr(operand)})` : this.expr(operand);
      }
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
    // Placeholders are bound before compiling (src/core/search bindParameters); one left here had no value.
    throw errors.invalidSearchExpression(v.name !== null ? `No value was given for the parameter '@${v.name}'.` : 'No value was given for a placeholder (\'?\').');
  }

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

  private criterion(c: Criterion): string {
    if (!c.operator) throw errors.invalidSearchExpression('A criterion is missing its operator.');
    const op = c.operator.op;
    const values = this.values(c.value);
    if (op !== 'in' && values.length !== 1) throw errors.invalidSearchExpression(`A list of values needs the 'in' operator.`);
    if (c.property.kind === 'field') return this.fieldCriterion(c.property, op, values);
    const target = this.input.target;
    const info = lookupProperty(target, c.property.name);
    const column = info && COLUMNS[target].get(info.name);
    if (!info || !column) {
      // The words of the editor's and `dam lint`'s DQ3001 warning, so a refusal reads as the verdict they announced.
      throw errors.invalidSearchExpression(`'${c.property.name.slice(0, 100)}' is not a searchable property of ${target}: the local emulator refuses it, and a tenant answers it only if it has such a property (DQ3001).`);
    }
    if (!operatorAllowed(info.type, op)) throw errors.invalidSearchExpression(`The operator '${op}' does not apply to ${info.name} (${info.type}).`);
    if (column.on === 'field') return this.namedFieldCriterion(column.name, op, values);
    if (column.on === 'classificationTree') return this.classificationCompare(column.direct, op, values);
    if (info.name === 'Title' && op === 'contains') {
      // The title's own vector (index records_title_tsv), not weight A of the record's: a weighted match makes every
      // candidate row be read again, an unweighted one is decided by the index, so counting the hits reads no rows.
      // Rank still scores the title's weight in the record's vector.
      const q = tsQueryText(values[0]);
      if (!q) return 'FALSE';
      this.textQueries.push(tsQueryText(values[0], 'A')!);
      return `${searchWords('r.title')} @@ to_tsquery('simple', ${this.sql.bind(q)}::text)`;
    }
    return this.located(column, op, values, (o) => (expr) => this.compare(info, expr, o, values));
  }

  /**
   * A condition over a column where it lives. On the searched row it is the comparison itself; elsewhere (files,
   * versions, classifications of the record) the record matches when any of them does, and `<>` means "none is equal".
   * `= ""` and `<> ""` test emptiness, whatever the type (real-service-notes).
   */
  private located(column: Column, op: ComparisonOperator, values: Resolved[], condition: (op: ComparisonOperator) => Condition): string {
    const emptyTest = values.length === 1 && values[0].text === '' && (op === '=' || op === '<>');
    if (column.on === 'row') {
      if (emptyTest) return op === '=' ? `(${column.sql} IS NULL OR ${column.sql}::text = '')` : `(${column.sql} IS NOT NULL AND ${column.sql}::text <> '')`;
      return condition(op)(column.sql);
    }
    const exists = (cond: string) => this.exists(column, cond);
    if (emptyTest) {
      const present = exists(`(${sqlOf(column)} IS NOT NULL AND ${sqlOf(column)}::text <> '')`);
      return op === '<>' ? present : `NOT ${present}`;
    }
    if (op === '<>') return `NOT ${exists(condition('=')(sqlOf(column)))}`;
    return exists(condition(op)(sqlOf(column)));
  }

  private exists(column: Column, cond: string): string {
    switch (column.on) {
      case 'file':
        return `EXISTS (SELECT 1 FROM files f WHERE f.record_id = r.id AND ${cond})`;
      case 'version':
        return `EXISTS (SELECT 1 FROM file_versions fv JOIN files f ON f.id = fv.file_id WHERE fv.record_id = r.id AND ${cond})`;
      case 'rendition':
        return `EXISTS (SELECT 1 FROM additional_files af JOIN file_versions fv ON fv.id = af.file_version_id WHERE fv.record_id = r.id AND ${cond})`;
      case 'masterLatest':
        return `EXISTS (SELECT 1 FROM files f JOIN LATERAL (SELECT v.* FROM file_versions v WHERE v.file_id = f.id ORDER BY v.version_number DESC LIMIT 1) fv ON true
          WHERE f.record_id = r.id AND f.is_master AND ${cond})`;
      case 'recordClassification':
        return `EXISTS (SELECT 1 FROM record_classifications rc JOIN classifications c2 ON c2.uid = rc.classification_id WHERE rc.record_id = r.uid AND ${cond})`;
      default:
        throw new Error(`no EXISTS form for a column on '${column.on}'`);
    }
  }

  /** A value of a property's type against an SQL expression. */
  private compare(info: PropertyInfo, expr: string, op: ComparisonOperator, values: Resolved[]): string {
    return compareByType(this, info.type, expr, op, values);
  }

  /** String comparison: case-insensitive; `*`/`?` make `=`/`<>` a LIKE match; `contains` is full-text. */
  stringCompare(column: string, op: ComparisonOperator, values: Resolved[]): string {
    if (op === 'in') return `(${values.map((v) => this.stringCompare(column, '=', [v])).join(' OR ')})`;
    const v = values[0];
    if (op === 'contains') {
      const q = tsQueryText(v);
      if (!q) return 'FALSE';
      return `${searchWords(`coalesce(${column}, '')`)} @@ to_tsquery('simple', ${this.sql.bind(q)}::text)`;
    }
    if ((op === '=' || op === '<>') && hasWildcard(v)) {
      const like = `${column} ILIKE ${this.sql.bind(likePattern(v.text))}::text`;
      return op === '=' ? like : `(${column} IS NULL OR NOT ${like})`;
    }
    return `lower(${column}) ${SQL_OP[op]} lower(${this.sql.bind(v.text)}::text)`;
  }

  dateCompare(column: string, op: ComparisonOperator, values: Resolved[]): string {
    if (op === 'in') return `(${values.map((v) => this.dateCompare(column, '=', [v])).join(' OR ')})`;
    if (op === 'contains') throw errors.invalidSearchExpression(`'contains' does not apply to dates.`);
    const d = parseSearchDate(values[0].text, this.input.now);
    if (!d) throw errors.invalidSearchExpression(`'${values[0].text.slice(0, 100)}' is not a valid date (use ISO 8601, e.g. 2025-01-31 or 2025-01-31T12:00:00Z).`);
    // Bind only what the SQL uses: an unused parameter has no type and PostgreSQL refuses it.
    const { join, parts } = dateComparisons(op, d);
    const sql = parts.map((p) => `${column} ${SQL_OP[p.op]} ${this.sql.bind(p.at.toISOString())}::timestamptz`);
    return parts.length === 1 ? sql[0] : `(${sql.join(` ${join} `)})`;
  }

  numberCompare(column: string, op: ComparisonOperator, values: Resolved[]): string {
    if (op === 'in') return `(${values.map((v) => this.numberCompare(column, '=', [v])).join(' OR ')})`;
    if (op === 'contains') throw errors.invalidSearchExpression(`'contains' does not apply to numbers.`);
    const text = values[0].text.trim();
    if (!isSearchNumber(text)) throw errors.invalidSearchExpression(`'${text.slice(0, 50)}' is not a number.`);
    return `${column} ${SQL_OP[op]} ${this.sql.bind(Number(text))}::numeric`;
  }

  booleanCompare(column: string, op: ComparisonOperator, values: Resolved[]): string {
    const text = values[0].text.trim();
    if (!isBoolean(text)) throw errors.invalidSearchExpression(`'${text.slice(0, 50)}' is not a boolean; use true or false.`);
    const value = text === '1' || text.toLowerCase() === 'true';
    return `${column} ${op === '<>' ? 'IS DISTINCT FROM' : '='} ${this.sql.bind(value)}::boolean`;
  }

  guidCompare(column: string, op: ComparisonOperator, values: Resolved[]): string {
    const ids = values.map((v) => guidKey(v.text));
    if (op === 'in') return `${column} = ANY(${this.sql.bind(ids)}::text[])`;
    return `${column} ${SQL_OP[op as '=' | '<>']} ${this.sql.bind(ids[0])}::text`;
  }

  userCompare(column: string, op: ComparisonOperator, values: Resolved[]): string {
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
    const match = values
      .map((v) => {
        const p = `${this.sql.bind(v.text.trim())}::text`;
        const id = `${this.sql.bind(guidKey(v.text))}::text`;
        return `(t.id = ${id} OR lower(t.name) = lower(${p}) OR lower(t.name_path) = lower(${p}) OR lower(t.identifier) = lower(${p}))`;
      })
      .join(' OR ');
    const under = direct ? 'c2.id = t.id' : `(c2.id = t.id OR starts_with(c2.name_path, t.name_path || '/'))`;
    const exists = `EXISTS (SELECT 1 FROM record_classifications rc JOIN classifications c2 ON c2.uid = rc.classification_id
      JOIN classifications t ON ${under} WHERE rc.record_id = r.uid AND (${match}))`;
    return op === '<>' ? `NOT ${exists}` : exists;
  }

  /** A property stored as a field of the tenant (`Keywords`): its value, as `FieldName('…')` compares it. */
  private namedFieldCriterion(name: string, op: ComparisonOperator, values: Resolved[]): string {
    const def = this.input.resolveField('name', name);
    // A tenant without the field has no record with such a value.
    if (!def) return op === '<>' ? 'TRUE' : 'FALSE';
    return this.fieldCompare(def, [], op, values);
  }

  private fieldCriterion(ref: FieldRef, op: ComparisonOperator, values: Resolved[]): string {
    if (this.input.target !== 'records') throw errors.invalidSearchExpression('Field references apply to record searches only.');
    const def = this.input.resolveField(ref.by, ref.key);
    if (!def) throw errors.invalidSearchExpression(`Unknown field '${ref.key.slice(0, 100)}'.`);
    return this.fieldCompare(def, ref.accessor, op, values);
  }

  /** A criterion on a field's values: the record matches when one of its values does (`<>`: none is equal). */
  private fieldCompare(def: FieldDef, accessorPath: string[], op: ComparisonOperator, values: Resolved[]): string {
    const dataType = fieldDataType(def);
    const written = accessorPath.join('.');
    const accessor = fieldAccessor(dataType, accessorPath);
    if (!accessor) {
      const valid = ACCESSORS_BY_DATA_TYPE[dataType].map((a) => a.path).join(', ');
      throw errors.invalidSearchExpression(`'${written.slice(0, 100)}' does not exist on ${dataType} field '${def.name}'; use ${valid}.`);
    }
    if (!operatorAllowed(accessor.type, op)) throw errors.invalidSearchExpression(`The operator '${op}' does not apply to ${def.name}.${accessor.path} (${accessor.type}).`);
    const field = `dam_uid(${this.sql.bind(def.id)}::text)`;
    const exists = (cond: string) => `EXISTS (SELECT 1 FROM field_values fv WHERE fv.record_id = r.uid AND fv.field_id = ${field} AND ${cond})`;
    const emptyTest = values.length === 1 && values[0].text === '' && (op === '=' || op === '<>');
    if (emptyTest) {
      const present = exists(`coalesce(fv.value_text, '') <> ''`);
      return op === '<>' ? present : `NOT ${present}`;
    }
    const positive = op === '<>' ? '=' : op;
    let cond: string;
    if (accessor.type === 'Guid') {
      cond = `jsonb_exists_any(coalesce(fv.value->'values', '[]'::jsonb), ${this.sql.bind(values.map((v) => guidKey(v.text)))}::text[])`;
    } else if (accessor.type === 'DateTime') {
      cond = this.dateCompare('fv.value_date', positive, values);
    } else if (accessor.type === 'Numeric') {
      cond = this.numberCompare(`(CASE WHEN fv.value_text ~ '^-?[0-9]+(\\.[0-9]+)?$' THEN fv.value_text::numeric END)`, positive, values);
    } else if (dataType === 'TextList' && positive !== 'contains') {
      // One value per list element: `Keywords = sunset` matches a record with `sunset` among its keywords.
      cond = `EXISTS (SELECT 1 FROM jsonb_array_elements_text(coalesce(fv.value->'values', '[]'::jsonb)) AS item(text) WHERE ${this.stringCompare('item.text', positive, values)})`;
    } else if (dataType === 'OptionList' && positive === '=' && !accessorPath.length && values.every((v) => GUID.test(guidKey(v.text)))) {
      // `'Asset Type' = '04c25cb5…'`: an option list compared with an option's id matches that option, as its name does.
      const ids = `${this.sql.bind(values.map((v) => guidKey(v.text)))}::text[]`;
      cond = `(${this.stringCompare('fv.value_text', positive, values)} OR jsonb_exists_any(coalesce(fv.value->'values', '[]'::jsonb), ${ids}))`;
    } else {
      cond = this.stringCompare('fv.value_text', positive, values);
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
        const dated = def.dataType === 'Date' || def.dataType === 'DateTime';
        const value = dated ? 'fv.value_date' : 'lower(fv.value_text)';
        terms.push(`(SELECT min(${value}) FROM field_values fv WHERE fv.record_id = r.uid AND fv.field_id = dam_uid(${this.sql.bind(def.id)}::text)) ${dir} NULLS LAST`);
        continue;
      }
      const name = item.target.name;
      if (name.toLowerCase() === 'rank') {
        if (this.input.target === 'records' && this.textQueries.length) {
          terms.push(`ts_rank(r.tsv, to_tsquery('simple', ${this.sql.bind(this.textQueries.map((q) => `(${q})`).join(' | '))}::text)) ${dir}`);
        }
        continue;
      }
      const info = lookupProperty(this.input.target, name);
      const column = info?.sortable ? COLUMNS[this.input.target].get(info.name) : undefined;
      if (!column || column.on !== 'row') throw errors.invalidSearchExpression(`'${name.slice(0, 100)}' is not a sortable property of ${this.input.target}.`);
      // The service sorts text case-insensitively (`big` between `Apple` and `Vivid`); the column itself, then the
      // id, break ties so the order (and so a cursor's offset) stays the same from one page to the next.
      if (info?.type === 'String') terms.push(`lower(${column.sql}) ${dir}`);
      terms.push(`${column.sql} ${dir}`);
    }
    terms.push(`${t}.id`);
    return terms.join(', ');
  }
}

/** A field definition's data type as the compiler reads it (an unknown one as SingleLineText). */
export function fieldDataType(def: FieldDef): FieldDataType {
  return (FIELD_DATA_TYPES as readonly string[]).includes(def.dataType) ? (def.dataType as FieldDataType) : 'SingleLineText';
}

/** The accessor a field reference names (the data type's implicit one when none is written); undefined when it has none such. */
export function fieldAccessor(dataType: FieldDataType, accessorPath: string[]) {
  const written = accessorPath.join('.').toLowerCase();
  return accessorPath.length === 0 ? implicitAccessor(dataType) : ACCESSORS_BY_DATA_TYPE[dataType].find((a) => a.path.toLowerCase() === written);
}

export type DateOp = Exclude<ComparisonOperator, 'in' | 'contains'>;

/** What a date comparison means, as comparisons with instants: a date alone is its whole day ([start, end)). */
export function dateComparisons(op: DateOp, d: SearchDate): { join: 'AND' | 'OR'; parts: { op: DateOp; at: Date }[] } {
  const one = (o: DateOp, at: Date) => ({ join: 'AND' as const, parts: [{ op: o, at }] });
  if (!d.dateOnly) return one(op, d.start);
  switch (op) {
    case '=':
      return { join: 'AND', parts: [{ op: '>=', at: d.start }, { op: '<', at: d.end }] };
    case '<>':
      return { join: 'OR', parts: [{ op: '<', at: d.start }, { op: '>=', at: d.end }] };
    case '>':
      return one('>=', d.end);
    case '>=':
      return one('>=', d.start);
    case '<':
      return one('<', d.start);
    default:
      return one('<', d.end);
  }
}

/** The SQL expression of a column that is not on the searched row. */
function sqlOf(column: Column): string {
  if ('sql' in column) return column.sql;
  throw new Error(`column on '${column.on}' has no expression`);
}

function compareByType(c: Compiler, type: PropertyType, expr: string, op: ComparisonOperator, values: Resolved[]): string {
  switch (type) {
    case 'String':
      return c.stringCompare(expr, op, values);
    case 'DateTime':
      return c.dateCompare(expr, op, values);
    case 'Numeric':
      return c.numberCompare(expr, op, values);
    case 'Boolean':
      return c.booleanCompare(expr, op, values);
    case 'Guid':
      return c.guidCompare(expr, op, values);
    case 'User':
      return c.userCompare(expr, op, values);
    case 'Classification':
      throw new Error('classifications are compared through their tree');
  }
}
