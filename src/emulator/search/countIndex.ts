// Counts a records search's hits from an in-memory index of the tenant, as the service counts `totalCount` from its
// search index and only then reads the page from its database. On a large tenant an exact count in SQL reads every
// hit (a million-record tenant: 0.3 to 1 s for a search hitting a fifth of it); here the index holds, per record
// ordinal, its dates, and per word, content type, status, option or text field value and classification the
// ordinals that have it, so a count is a few bitset operations (milliseconds).
//
// The index is a snapshot valid while the store's search generation has not moved (nothing a search reads written
// since it was read: a token or a journal row does not count). It answers only searches whose every part it can
// decide exactly as the SQL does (`countPlan`: full-text words, Title contains, ContentType, ContentStatus,
// CreatedOn/ModifiedOn, classifications by id, name, path or identifier, option and single-line text fields; AND,
// OR, NOT); anything else, a stale
// index or one being built is counted in SQL. What the index reads is PostgreSQL's own view of the data (its
// lexemes, its lower()), so it agrees with the SQL; a property test holds the two to the same counts.
import {
  guidKey,
  lookupProperty,
  parseSearchDate,
  type ComparisonOperator,
  type Criterion,
  type Expr,
  type ScalarValue,
  type SearchExpression,
} from '../../core/search';
import { StaleStateError } from '../state/gate';
import type { TrackedStore } from '../storage/tracking';
import { searchStamp } from './stamp';
import { compactWriteLog, loadIndex, saveIndex, sweepPartialFiles, type Classification, type CountIndexParts, type DateOrder } from './indexFile';
import { COLUMNS, dateComparisons, fieldAccessor, fieldDataType, tsQueryText, type CompileInput, type DateOp } from './compile';

/** What a search means to the index; `undefined` from the planner: count it in SQL. */
export type CountPlan =
  | { kind: 'all' }
  | { kind: 'none' }
  | { kind: 'and' | 'or'; of: CountPlan[] }
  | { kind: 'not'; of: CountPlan }
  | { kind: 'word'; title: boolean; word: string; prefix: boolean }
  | { kind: 'contentType' | 'status'; value: string }
  | { kind: 'date'; column: 'created' | 'modified'; op: DateOp; at: number }
  | { kind: 'field'; fieldId: string; value: string }
  | { kind: 'classification'; direct: boolean; values: string[] }
  /** A record classified directly by a classification whose name path, name or identifier is one of `values` (lowered). */
  | { kind: 'classifiedBy'; attribute: ClassificationAttribute; values: string[] };

/** What `Classification.<property>` compares, as the index holds it (lowered). */
type ClassificationAttribute = 'path' | 'name' | 'identifier';
const CLASSIFICATION_ATTRIBUTES: ReadonlyMap<string, ClassificationAttribute> = new Map([
  ['c2.name_path', 'path'],
  ['c2.name', 'name'],
  ['c2.identifier', 'identifier'],
]);
/** Field types whose `=` compares lower(value_text) (the compiler's stringCompare), which the index may hold. */
const HELD_FIELD_TYPES: ReadonlySet<string> = new Set(['OptionList', 'SingleLineText']);


const ALL: CountPlan = { kind: 'all' };
const NONE: CountPlan = { kind: 'none' };
/** Text the index compares the way PostgreSQL's lower() does: plain ASCII (other scripts are counted in SQL). */
const ASCII = /^[\x20-\x7e]*$/;
const WORD = /^[a-z0-9]+$/;

/**
 * The plan of a records search the compiler accepted (so its operators, values and fields are valid), mirroring what
 * `Compiler` emits for each part; undefined when any part is outside what the index holds.
 */
export function countPlan(search: SearchExpression, input: CompileInput): CountPlan | undefined {
  if (input.target !== 'records') return undefined;
  return search.body ? planOf(search.body, input) : ALL;
}

function planOf(e: Expr, input: CompileInput): CountPlan | undefined {
  switch (e.kind) {
    case 'matchAll':
      return ALL;
    case 'and':
    case 'or': {
      const of = e.operands.map((o) => planOf(o, input));
      return of.every((p): p is CountPlan => p !== undefined) ? { kind: e.kind, of } : undefined;
    }
    case 'not': {
      const of = planOf(e.operand, input);
      return of && { kind: 'not', of };
    }
    case 'text': {
      const value = scalar(e.value);
      if (!value) return undefined;
      if (value.text.trim() === '*') return ALL;
      return wordPlan(value, false);
    }
    case 'criterion':
      return criterionPlan(e, input);
    default:
      return undefined;
  }
}

function scalar(v: ScalarValue): { text: string; wildcard: boolean } | undefined {
  if (v.kind === 'literal') return { text: v.value, wildcard: false };
  if (v.kind === 'wildcard') return { text: v.pattern, wildcard: true };
  return undefined;
}

/** One word (or word prefix) of plain letters and digits: a single lexeme of PostgreSQL's parser. */
function wordPlan(value: { text: string; wildcard: boolean }, title: boolean): CountPlan | undefined {
  const q = tsQueryText(value);
  if (!q) return NONE;
  const m = /^([^:\s<>]+)(:\*)?$/.exec(q);
  if (!m || !WORD.test(m[1])) return undefined;
  return { kind: 'word', title, word: m[1], prefix: m[2] !== undefined };
}

function criterionPlan(c: Criterion, input: CompileInput): CountPlan | undefined {
  if (!c.operator || !c.value) return undefined;
  const op = c.operator.op;
  const values = (c.value.kind === 'list' ? c.value.items : [c.value]).map(scalar);
  if (!values.every((v): v is { text: string; wildcard: boolean } => v !== undefined) || values.length === 0) return undefined;
  const emptyTest = values.length === 1 && values[0].text === '' && (op === '=' || op === '<>');
  const plain = values.every((v) => ASCII.test(v.text) && !(v.wildcard && /[*?]/.test(v.text)));
  if (c.property.kind === 'field') {
    const def = input.resolveField(c.property.by, c.property.key);
    if (!def || !HELD_FIELD_TYPES.has(def.dataType) || emptyTest || !plain) return undefined;
    // An option compared by its id (compile.ts matches ids too): the index holds names only.
    if (def.dataType === 'OptionList' && values.some((v) => /^[0-9a-f]{32}$/.test(v.text.replace(/[{}-]/g, '').toLowerCase()))) return undefined;
    const accessor = fieldAccessor(fieldDataType(def), c.property.accessor);
    if (!accessor || accessor.type !== 'String') return undefined;
    return positiveOrNot(op, values, (v) => ({ kind: 'field', fieldId: def.id, value: v.text.toLowerCase() }));
  }
  const info = lookupProperty('records', c.property.name);
  const column = info && COLUMNS.records.get(info.name);
  if (!info || !column) return undefined;
  if (column.on === 'classificationTree') {
    if (!values.every((v) => ASCII.test(v.text))) return undefined;
    const plan: CountPlan = { kind: 'classification', direct: column.direct, values: values.map((v) => v.text) };
    return op === '<>' ? { kind: 'not', of: plan } : plan;
  }
  if (column.on === 'recordClassification') {
    // `=`, `in` and `<>` of plain values: lower(c2.<column>) = lower(value) for a classification the record has.
    const attribute = CLASSIFICATION_ATTRIBUTES.get(column.sql);
    if (!attribute || emptyTest || !plain) return undefined;
    return positiveOrNot(op, values, (v) => ({ kind: 'classifiedBy', attribute, values: [v.text.toLowerCase()] }));
  }
  if (info.name === 'Title' && op === 'contains') return wordPlan(values[0], true);
  if (column.on !== 'row' || emptyTest) return undefined;
  if (column.sql === 'r.content_type') {
    if (!plain || (op !== '=' && op !== 'in')) return undefined;
    return positiveOrNot(op, values, (v) => ({ kind: 'contentType', value: v.text.toLowerCase() }));
  }
  if (column.sql === 'r.status') {
    // A status is never NULL (the column is NOT NULL), so `<>` is exactly the complement of `=`.
    if (!plain) return undefined;
    return positiveOrNot(op, values, (v) => ({ kind: 'status', value: v.text.toLowerCase() }));
  }
  const dateColumn = column.sql === 'r.created_on' ? 'created' : column.sql === 'r.modified_on' ? 'modified' : undefined;
  if (dateColumn) return datePlan(dateColumn, op, values, input.now);
  return undefined;
}

/** `=` and `in` (any of the values), `<>` (none): the compiler's string comparison of one value each. */
function positiveOrNot(op: ComparisonOperator, values: { text: string }[], one: (v: { text: string }) => CountPlan): CountPlan | undefined {
  if (op === 'in') return { kind: 'or', of: values.map(one) };
  if (op === '=') return one(values[0]);
  if (op === '<>') return { kind: 'not', of: one(values[0]) };
  return undefined;
}

/** The compiler's date comparison (`dateCompare`): a date alone is its whole day. */
function datePlan(column: 'created' | 'modified', op: ComparisonOperator, values: { text: string }[], now: Date): CountPlan | undefined {
  if (op === 'in') {
    const of = values.map((v) => datePlan(column, '=', [v], now));
    return of.every((p): p is CountPlan => p !== undefined) ? { kind: 'or', of } : undefined;
  }
  if (op === 'contains') return undefined;
  const d = parseSearchDate(values[0].text, now);
  // Microseconds a double holds exactly, as the index's dates do.
  if (!d || ![d.start, d.end].every((x) => Number.isSafeInteger(x.getTime() * 1000))) return undefined;
  const { join, parts } = dateComparisons(op, d);
  const of: CountPlan[] = parts.map((p) => ({ kind: 'date', column, op: p.op, at: p.at.getTime() * 1000 }));
  return of.length === 1 ? of[0] : { kind: join === 'AND' ? 'and' : 'or', of };
}

/** A set of record ordinals, one bit each. */
class Bits {
  readonly words: Uint32Array;

  constructor(readonly size: number) {
    this.words = new Uint32Array((size + 31) >>> 5);
  }

  static of(size: number, ordinals: Int32Array | undefined): Bits {
    const b = new Bits(size);
    if (ordinals) b.add(ordinals);
    return b;
  }

  /** Sets the bits of `ordinals` (of `from` to `to` of them). */
  add(ordinals: Int32Array, from = 0, to = ordinals.length): this {
    for (let i = from; i < to; i++) this.words[ordinals[i] >>> 5] |= 1 << (ordinals[i] & 31);
    return this;
  }

  static full(size: number): Bits {
    const b = new Bits(size);
    b.words.fill(0xffffffff);
    b.trim();
    return b;
  }

  /** Clears the bits past `size` in the last word. */
  trim(): this {
    const rest = this.size & 31;
    if (rest) this.words[this.words.length - 1] &= (1 << rest) - 1;
    return this;
  }

  count(): number {
    let n = 0;
    for (let i = 0; i < this.words.length; i++) {
      let v = this.words[i];
      v -= (v >>> 1) & 0x55555555;
      v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
      n += (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
    }
    return n;
  }
}

/** A page's order by a date column (the date, then the id ascending). */
export interface DateSort {
  column: 'created' | 'modified';
  descending: boolean;
}

/**
 * The records' ids by ordinal, packed: one string of them all and where each starts (a million 32-character ids
 * take about 36 MB so, against some 56 MB as a million separate strings).
 */
export class RecordIds {
  constructor(
    private readonly all: string,
    private readonly starts: Uint32Array,
  ) {}

  static build(chunks: string[][]): RecordIds {
    const n = chunks.reduce((sum, c) => sum + c.length, 0);
    const starts = new Uint32Array(n + 1);
    let i = 0;
    for (const chunk of chunks) for (const id of chunk) starts[i + 1] = starts[i++] + id.length;
    return new RecordIds(chunks.map((c) => c.join('')).join(''), starts);
  }

  get bytes(): number {
    return this.all.length + this.starts.byteLength;
  }

  /** What a saved index holds of them (search/indexFile.ts). */
  parts(): { all: string; starts: Uint32Array } {
    return { all: this.all, starts: this.starts };
  }

  at(ordinal: number): string {
    return this.all.slice(this.starts[ordinal], this.starts[ordinal + 1]);
  }
}

/** The tenant as the index holds it; ordinals are positions in id order. */
export class CountIndex {
  constructor(
    readonly generation: number,
    readonly size: number,
    /** `exact`: every date fits a double to the microsecond (else date criteria are counted in SQL). */
    private readonly dates: { created: DateOrder; modified: DateOrder; exact: boolean },
    private readonly words: Postings,
    private readonly titleWords: Postings,
    private readonly contentTypes: Map<string, Int32Array>,
    private readonly statuses: Map<string, Int32Array>,
    private readonly fields: Map<string, Map<string, Int32Array>>,
    private readonly classifications: Classification[],
    private readonly classified: Map<string, Int32Array>,
    private readonly ids: RecordIds,
    readonly buildMs: number,
    /**
     * The database state the index was read from (search/indexFile.ts searchStamp), when it did not change while the
     * index was read; undefined otherwise (such an index serves this process but is never saved).
     */
    public stamp?: string,
  ) {}

  /** Everything the index holds, for saving it (search/indexFile.ts). */
  parts(): CountIndexParts {
    return {
      size: this.size,
      dates: this.dates,
      words: { lists: this.words.lists, vocabulary: this.words.vocabulary },
      titleWords: { lists: this.titleWords.lists, vocabulary: this.titleWords.vocabulary },
      contentTypes: this.contentTypes,
      statuses: this.statuses,
      fields: this.fields,
      classifications: this.classifications,
      classified: this.classified,
      ids: this.ids.parts(),
    };
  }

  /** An index of the current `generation` from the parts of a saved one. */
  static fromParts(generation: number, p: CountIndexParts, stamp: string, loadMs: number): CountIndex {
    return new CountIndex(
      generation,
      p.size,
      p.dates,
      new Postings(p.words.lists, p.words.vocabulary),
      new Postings(p.titleWords.lists, p.titleWords.vocabulary),
      p.contentTypes,
      p.statuses,
      p.fields,
      p.classifications,
      p.classified,
      new RecordIds(p.ids.all, p.ids.starts),
      loadMs,
      stamp,
    );
  }

  /** The number of records the plan matches; undefined when the plan needs what the index does not hold (a rare word, another field). */
  count(plan: CountPlan): number | undefined {
    return this.search(plan, { offset: 0, limit: 0, hitsUpTo: 0 })?.count;
  }

  /**
   * What the index can tell of a search's page besides its count: undefined when the plan needs what the index does
   * not hold. In a date order (`by`, as the compiler sorts: the date, then the id ascending) the page itself, from the
   * index's dates. Otherwise, when the search has at most `hitsUpTo` hits, their ids (in id order): a search that rare
   * has its page read by them rather than by walking a sort order until enough records pass its test.
   */
  search(plan: CountPlan, page: { by?: DateSort; offset: number; limit: number; hitsUpTo: number }): { count: number; page?: string[]; hits?: string[] } | undefined {
    let bits: Bits;
    try {
      bits = this.evaluate(plan);
    } catch (err) {
      if (err === NOT_HELD) return undefined;
      throw err;
    }
    const count = bits.count();
    if (page.by && this.dates.exact) return { count, page: this.inDateOrder(bits, page.by, page.offset + page.limit).slice(page.offset).map((o) => this.ids.at(o)) };
    if (count > page.hitsUpTo) return { count };
    const hits: string[] = [];
    const words = bits.words;
    for (let w = 0; w < words.length; w++) {
      for (let v = words[w]; v !== 0; v &= v - 1) hits.push(this.ids.at((w << 5) + (31 - Math.clz32(v & -v))));
    }
    return { count, hits };
  }

  /** The first `n` ordinals of `bits` sorted by the date, then by ordinal (id order) ascending, as ORDER BY <date> <dir>, r.id. */
  private inDateOrder(bits: Bits, by: DateSort, n: number): number[] {
    const { at, ordinals } = by.column === 'created' ? this.dates.created : this.dates.modified;
    const words = bits.words;
    const out: number[] = [];
    const step = by.descending ? -1 : 1;
    // Runs of equal dates: the sort of the dates may leave their ordinals in any order, the SQL orders them by id.
    for (let i = by.descending ? at.length - 1 : 0; out.length < n && i >= 0 && i < at.length; ) {
      let end = i + step;
      while (end >= 0 && end < at.length && at[end] === at[i]) end += step;
      const run: number[] = [];
      for (let j = i; j !== end; j += step) {
        const o = ordinals[j];
        if (words[o >>> 5] & (1 << (o & 31))) run.push(o);
      }
      if (run.length > 1) run.sort((a, b) => a - b);
      for (const o of run) out.push(o);
      i = end;
    }
    return out.slice(0, n);
  }

  /** Bytes the index's arrays hold (its postings and dates). */
  bytes(): number {
    let n = 0;
    const add = (m: Map<string, Int32Array>) => m.forEach((a) => (n += a.byteLength));
    for (const d of [this.dates.created, this.dates.modified]) n += d.at.byteLength + d.ordinals.byteLength;
    add(this.words.lists);
    add(this.titleWords.lists);
    add(this.contentTypes);
    add(this.statuses);
    this.fields.forEach(add);
    add(this.classified);
    return n + this.ids.bytes;
  }

  private evaluate(plan: CountPlan): Bits {
    switch (plan.kind) {
      case 'all':
        return Bits.full(this.size);
      case 'none':
        return new Bits(this.size);
      case 'and':
      case 'or': {
        const [first, ...rest] = plan.of.map((p) => this.evaluate(p));
        if (!first) return plan.kind === 'and' ? Bits.full(this.size) : new Bits(this.size);
        for (const other of rest) {
          const a = first.words;
          const b = other.words;
          if (plan.kind === 'and') for (let i = 0; i < a.length; i++) a[i] &= b[i];
          else for (let i = 0; i < a.length; i++) a[i] |= b[i];
        }
        return first;
      }
      case 'not': {
        const b = this.evaluate(plan.of);
        for (let i = 0; i < b.words.length; i++) b.words[i] = ~b.words[i];
        return b.trim();
      }
      case 'word': {
        const postings = plan.title ? this.titleWords : this.words;
        if (!postings.holds(plan.word, plan.prefix)) throw NOT_HELD;
        if (!plan.prefix) return Bits.of(this.size, postings.lists.get(plan.word));
        const b = new Bits(this.size);
        for (const word of postings.withPrefix(plan.word)) b.add(postings.lists.get(word)!);
        return b;
      }
      case 'contentType':
        return Bits.of(this.size, this.contentTypes.get(plan.value));
      case 'status':
        return Bits.of(this.size, this.statuses.get(plan.value));
      case 'classifiedBy': {
        const b = new Bits(this.size);
        for (const t of this.classifications) {
          const held = t[plan.attribute];
          const list = held !== null && plan.values.includes(held) ? this.classified.get(t.id) : undefined;
          if (list) b.add(list);
        }
        return b;
      }
      case 'field': {
        const values = this.fields.get(plan.fieldId);
        if (!values) throw NOT_HELD;
        return Bits.of(this.size, values.get(plan.value));
      }
      case 'date':
        if (!this.dates.exact) throw NOT_HELD;
        return this.dateRange(plan.column === 'created' ? this.dates.created : this.dates.modified, plan.op, plan.at);
      case 'classification':
        return this.underClassifications(plan.direct, plan.values);
    }
  }

  private dateRange(order: DateOrder, op: DateOp, at: number): Bits {
    // The sorted dates before `at`, equal to it, and after it: [0, first), [first, after), [after, n).
    const first = boundOf(order.at, at, false);
    const after = boundOf(order.at, at, true);
    const n = order.at.length;
    const b = new Bits(this.size);
    const below = op === '<' || op === '<=' || op === '<>';
    const equal = op === '<=' || op === '>=' || op === '=';
    const above = op === '>' || op === '>=' || op === '<>';
    if (below) b.add(order.ordinals, 0, first);
    if (equal) b.add(order.ordinals, first, after);
    if (above) b.add(order.ordinals, after, n);
    return b;
  }

  /** The compiler's classification match: by id, name, name path or identifier; a subtree unless direct. */
  private underClassifications(direct: boolean, values: string[]): Bits {
    const matched = this.classifications.filter((t) =>
      values.some((v) => {
        const p = v.trim().toLowerCase();
        return t.id === guidKey(v) || t.name === p || t.path === p || t.identifier === p;
      }),
    );
    const ids = new Set<string>();
    for (const t of matched) {
      ids.add(t.id);
      if (!direct) for (const c of this.classifications) if (c.namePath.startsWith(`${t.namePath}/`)) ids.add(c.id);
    }
    const b = new Bits(this.size);
    for (const id of ids) {
      const list = this.classified.get(id);
      if (list) b.add(list);
    }
    return b;
  }
}

const NOT_HELD = new Error('not held by the count index');

/** The first index of sorted `a` whose value is at least `x` (`past`: greater than `x`). */
function boundOf(a: Float64Array, x: number, past: boolean): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x || (past && a[mid] === x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Words and the ordinals that have each, with the words sorted for prefix lookups. */
class Postings {
  private sorted: string[] | undefined;

  /** `vocabulary`: the only words held (undefined: every word of the tenant). */
  constructor(
    readonly lists: Map<string, Int32Array>,
    readonly vocabulary: ReadonlySet<string> | undefined,
  ) {}

  /** Whether the index knows every record with this word (or, for a prefix, with every word it begins). */
  holds(word: string, prefix: boolean): boolean {
    return !this.vocabulary || (!prefix && this.vocabulary.has(word));
  }

  *withPrefix(prefix: string): Iterable<string> {
    // Sorted as JavaScript compares strings (UTF-16 code units); a prefix's words are one run of that order.
    this.sorted ??= [...this.lists.keys()].sort();
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.sorted[mid] < prefix) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.sorted.length && this.sorted[i].startsWith(prefix); i++) yield this.sorted[i];
  }
}

/** Growable lists of ordinals per key while the index is read. */
class ListBuilder {
  private readonly lists = new Map<string, { a: Int32Array; n: number }>();

  get keys(): number {
    return this.lists.size;
  }

  add(key: string, ordinal: number): void {
    let l = this.lists.get(key);
    if (!l) this.lists.set(key, (l = { a: new Int32Array(16), n: 0 }));
    if (l.n === l.a.length) {
      const grown = new Int32Array(l.a.length * 2);
      grown.set(l.a);
      l.a = grown;
    }
    l.a[l.n++] = ordinal;
  }

  /** Ordinals packed by PostgreSQL (int4send, big-endian) after `base`. */
  addPacked(key: string, packed: Uint8Array, base: number): void {
    const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
    for (let at = 0; at + 4 <= packed.byteLength; at += 4) this.add(key, base + view.getInt32(at));
  }

  done(): Map<string, Int32Array> {
    const out = new Map<string, Int32Array>();
    for (const [k, l] of this.lists) out.set(k, l.a.slice(0, l.n));
    return out;
  }
}

/** The index's sizes and thresholds; tests lower them to see on a small tenant what a large one does. */
export interface CountIndexTuning {
  /** Tenants up to this many records have every word indexed (default ALL_WORDS_UP_TO). */
  allWordsUpTo?: number;
  /** Records per build statement (default BUILD_CHUNK). */
  chunk?: number;
  /** `auto`: the smallest tenant, and the slowest SQL count, that start a build (AUTO_MIN_RECORDS, SLOW_COUNT_MS). */
  autoMinRecords?: number;
  slowCountMs?: number;
  /** `auto`: after a build, none again for this many times its duration (default 2). */
  backoff?: number;
}

export interface BuildOptions extends CountIndexTuning {
  signal?: AbortSignal;
  /** Resolves when the store may take the next statement (the holder waits for requests in flight to end). */
  turn?: () => Promise<void>;
}

/** Records read per statement while building: other requests run between the statements. */
const BUILD_CHUNK = 10_000;
/** Up to this many records, the index holds every word; above it, the words of a sample that occur twice there. */
const ALL_WORDS_UP_TO = 50_000;
const SAMPLE_RECORDS = 20_000;
const MAX_WORDS = 2_000;
/** The most distinct values of one field the index holds (an option list has a few, a free text field may have one per record). */
const MAX_FIELD_VALUES = 10_000;

/** The lexemes of a tsvector's text form (`'word':1A 'other':2`), with whether one of a lexeme's positions is weight A. */
export function lexemesOf(tsv: string): { word: string; title: boolean }[] {
  const out: { word: string; title: boolean }[] = [];
  const re = /'((?:[^'\\]|''|\\.)*)'(?::([0-9A-D,]+))?/g;
  for (let m = re.exec(tsv); m; m = re.exec(tsv)) {
    out.push({ word: m[1].replace(/''/g, "'").replace(/\\(.)/g, '$1'), title: m[2] !== undefined && m[2].includes('A') });
  }
  return out;
}

/**
 * Reads the index from the store; undefined when the store was written while it read (the snapshot would mix two
 * states). Statements of at most BUILD_CHUNK records each, so requests are served in between. PostgreSQL packs
 * ordinals and dates into bytes (int4send/int8send) where a row per value would cost more than the work itself.
 */
export async function buildCountIndex(store: TrackedStore, options: BuildOptions = {}): Promise<CountIndex | undefined> {
  const { signal, allWordsUpTo = ALL_WORDS_UP_TO, chunk: chunkSize = BUILD_CHUNK } = options;
  const yieldTurn = options.turn ?? (async () => undefined);
  const generation = store.searchGeneration();
  /** Before every statement: requests first, and nothing more once the store was written or the build stopped. */
  const turn = async () => {
    await yieldTurn();
    if (signal?.aborted || store.searchGeneration() !== generation) throw STOPPED;
  };
  const started = performance.now();
  try {
    return await readIndex(store, generation, turn, allWordsUpTo, chunkSize, started);
  } catch (err) {
    if (err === STOPPED) return undefined;
    throw err;
  }
}

const STOPPED = new Error('the build stopped');

/** The build's statements; `turn` before each (it throws STOPPED once the build must stop). */
async function readIndex(store: TrackedStore, generation: number, turn: () => Promise<void>, allWordsUpTo: number, chunkSize: number, started: number): Promise<CountIndex | undefined> {
  await turn();
  // The database's stamp before and after: unchanged, nothing was committed to the tables in between, by this process
  // or another, and the index may be saved under it.
  const stampBefore = await searchStamp(store);
  await turn();
  const classifications = (
    await store.query<{ id: string; name: string; path: string; identifier: string | null; name_path: string }>(
      `SELECT id, lower(name) AS name, lower(name_path) AS path, lower(identifier) AS identifier, name_path FROM classifications`,
    )
  ).map((r) => ({ id: r.id, name: r.name, path: r.path, identifier: r.identifier, namePath: r.name_path }));
  await turn();
  const optionFields = (await store.query<{ id: string }>(`SELECT id FROM field_definitions WHERE data_type = ANY($1::text[])`, [[...HELD_FIELD_TYPES]])).map((r) => r.id);
  await turn();
  const estimate = await estimatedRecords(store);
  // Which words the index holds: all of a small tenant's; on a large one the frequent ones (rare words are counted in
  // SQL, where the full-text index finds their few hits at once).
  if (estimate > allWordsUpTo) await turn();
  const vocabulary =
    estimate > allWordsUpTo
      ? new Set(
          (
            await store.query<{ word: string }>(
              `SELECT word FROM ts_stat($1) WHERE ndoc >= 2 ORDER BY ndoc DESC LIMIT ${MAX_WORDS}`,
              [`SELECT tsv FROM records TABLESAMPLE SYSTEM (${Math.min(100, (100 * SAMPLE_RECORDS) / estimate).toFixed(4)})`],
            )
          ).map((r) => r.word),
        )
      : undefined;
  const created: Float64Array[] = [];
  const modified: Float64Array[] = [];
  const words = new ListBuilder();
  const titleWords = new ListBuilder();
  const contentTypes = new ListBuilder();
  const statuses = new ListBuilder();
  const fieldLists = new Map(optionFields.map((id) => [id, new ListBuilder()]));
  const classified = new ListBuilder();
  const ids: string[][] = [];
  let size = 0;
  let after = '';
  for (;;) {
    await turn();
    const rows = await store.query<{ id: string; v: string }>(`SELECT id, tsv::text AS v FROM records WHERE id > $1::text ORDER BY id LIMIT ${chunkSize}`, [after]);
    if (!rows.length) break;
    const base = size;
    ids.push(rows.map((r) => r.id));
    rows.forEach((r, i) => {
      for (const { word, title } of lexemesOf(r.v)) {
        if (vocabulary && !vocabulary.has(word)) continue;
        words.add(word, base + i);
        if (title) titleWords.add(word, base + i);
      }
    });
    const range = [after, rows[rows.length - 1].id];
    // The same records by the same order: ordinals base + row_number.
    // The values' and links' keys are uuids (migration 014), joined on the records' `uid`; their range is the chunk's
    // (no min() of uuid before PostgreSQL 16).
    const chunk = `WITH c AS MATERIALIZED (SELECT id, uid, (row_number() OVER (ORDER BY id) - 1)::int AS o, content_type, status, created_on, modified_on
                     FROM records WHERE id > $1::text AND id <= $2::text ORDER BY id),
                   u AS MATERIALIZED (SELECT (SELECT uid FROM c ORDER BY uid LIMIT 1) AS lo, (SELECT uid FROM c ORDER BY uid DESC LIMIT 1) AS hi)`;
    await turn();
    // Wrapped in a SELECT: the store counts a statement that begins otherwise as a write.
    const packed = await store.query<{ k: string; key: string; a: Uint8Array; b: Uint8Array | null }>(
      `SELECT * FROM (${chunk}
       SELECT 'd' AS k, '' AS key, string_agg(int8send((extract(epoch FROM created_on) * 1000000)::int8), ''::bytea ORDER BY o) AS a,
              string_agg(int8send((extract(epoch FROM modified_on) * 1000000)::int8), ''::bytea ORDER BY o) AS b FROM c
       UNION ALL SELECT 't', lower(content_type), string_agg(int4send(o), ''::bytea), NULL FROM c GROUP BY 2
       UNION ALL SELECT 's', lower(status), string_agg(int4send(o), ''::bytea), NULL FROM c GROUP BY 2
       UNION ALL SELECT 'c', cl.id, string_agg(int4send(c.o), ''::bytea), NULL
         FROM record_classifications rc JOIN c ON c.uid = rc.record_id JOIN classifications cl ON cl.uid = rc.classification_id
        WHERE rc.record_id BETWEEN (SELECT lo FROM u) AND (SELECT hi FROM u) GROUP BY 2
       UNION ALL SELECT 'f:' || d.id, lower(fv.value_text), string_agg(int4send(c.o), ''::bytea), NULL
         FROM field_values fv JOIN c ON c.uid = fv.record_id JOIN field_definitions d ON d.uid = fv.field_id
        WHERE fv.record_id BETWEEN (SELECT lo FROM u) AND (SELECT hi FROM u) AND d.id = ANY($3::text[]) AND fv.value_text IS NOT NULL GROUP BY 1, 2) packed`,
      [...range, optionFields],
    );
    for (const p of packed) {
      if (p.k === 'd') {
        created.push(dates(p.a));
        modified.push(dates(p.b!));
      } else if (p.k === 't') contentTypes.addPacked(p.key, p.a, base);
      else if (p.k === 's') statuses.addPacked(p.key, p.a, base);
      else if (p.k === 'c') classified.addPacked(p.key, p.a, base);
      else fieldLists.get(p.k.slice(2))?.addPacked(p.key, p.a, base);
    }
    // A text field of (nearly) one value per record would cost a list per record: its searches are counted in SQL.
    for (const [id, list] of fieldLists) if (list.keys > MAX_FIELD_VALUES) fieldLists.delete(id);
    size += rows.length;
    after = range[1];
    if (rows.length < chunkSize) break;
  }
  const joined = (parts: Float64Array[]) => {
    const all = new Float64Array(size);
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.length;
    }
    return all;
  };
  const order = (values: Float64Array): DateOrder => {
    const ordinals = Int32Array.from(values.keys()).sort((a, b) => values[a] - values[b]);
    return { at: Float64Array.from(ordinals, (o) => values[o]), ordinals };
  };
  // Each sort is a moment of synchronous work: requests get a turn between them.
  await turn();
  const createdOrder = order(joined(created));
  await turn();
  const modifiedOrder = order(joined(modified));
  // The last turn also checks that nothing was written while the index was read.
  await turn();
  const stampAfter = await searchStamp(store);
  return new CountIndex(
    generation,
    size,
    { created: createdOrder, modified: modifiedOrder, exact: [...created, ...modified].every((part) => part.every(Number.isSafeInteger)) },
    new Postings(words.done(), vocabulary),
    new Postings(titleWords.done(), vocabulary),
    contentTypes.done(),
    statuses.done(),
    new Map([...fieldLists].map(([id, b]) => [id, b.done()])),
    classifications,
    classified.done(),
    RecordIds.build(ids),
    performance.now() - started,
    stampBefore !== undefined && stampBefore === stampAfter ? stampBefore : undefined,
  );
}

/** The planner's estimate of the tenant's records: no count, so cheap at any size. */
async function estimatedRecords(store: TrackedStore): Promise<number> {
  const [row] = await store.query<{ n: number }>(`SELECT reltuples::float8 AS n FROM pg_class WHERE oid = 'records'::regclass`);
  return Math.max(0, Number(row?.n ?? 0));
}

/** Microseconds since 1970 packed by int8send (big-endian), one per record in ordinal order. */
function dates(packed: Uint8Array): Float64Array {
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  const out = new Float64Array(packed.byteLength / 8);
  for (let i = 0; i < out.length; i++) {
    const at = view.getBigInt64(i * 8);
    // Beyond 2^53 µs (after the year 2255) a double is not exact: NaN marks the index's dates as not held.
    out[i] = at <= BigInt(Number.MAX_SAFE_INTEGER) && at >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(at) : NaN;
  }
  return out;
}

export type CountIndexMode = 'auto' | 'always' | 'off';

/** In `auto` mode a SQL count slower than this, on a tenant of at least AUTO_MIN_RECORDS, starts a build. */
const SLOW_COUNT_MS = 100;
const AUTO_MIN_RECORDS = 200_000;
/** The longest a background build's statement waits for requests in flight to end. */
const MAX_WAIT_MS = 250;

/**
 * The index of one store and when to (re)build it. `auto`: after a slow SQL count on a large tenant, in the
 * background, never two at once, and after a build that writes made useless not again before twice its duration has
 * passed (under steady writes the index costs at most a third of the time). `always` (tests): built before the count
 * that needs it, whatever the tenant's size.
 */
export class CountIndexHolder {
  private index: CountIndex | undefined;
  private building: Promise<CountIndex | undefined> | undefined;
  /** A build `auto` decided to start, from the slow count until its build runs. */
  private starting: Promise<void> | undefined;
  private notBefore = 0;
  private readonly abort = new AbortController();
  /** The stamp of the index file last written or read, which need not be written again. */
  private savedStamp: string | undefined;

  constructor(
    private readonly store: TrackedStore,
    readonly mode: CountIndexMode,
    private readonly background: (task: () => Promise<void>) => void,
    private readonly log: (line: string) => void,
    private readonly tuning: CountIndexTuning = {},
    /** Whether requests are in flight: a build takes the store only between them (in `auto` mode). */
    private readonly busy: () => boolean = () => false,
    /** Where the index is kept between starts (search/indexFile.ts); undefined: never saved. */
    private readonly file?: string,
  ) {}

  /** The index when it is current; in `always` mode built first. */
  async current(): Promise<CountIndex | undefined> {
    if (this.mode === 'off' || this.abort.signal.aborted) return undefined;
    if (this.index && this.index.generation === this.store.searchGeneration()) return this.index;
    // A generation never comes back: an index of an older one is no use again, and its memory goes now.
    this.index = undefined;
    if (this.mode === 'always') {
      for (let attempt = 0; attempt < 3; attempt++) {
        const built = await this.build();
        if (built && built.generation === this.store.searchGeneration()) return built;
      }
    }
    return undefined;
  }

  /** A SQL count the index could have served took `ms`: in `auto` mode a slow one on a large tenant starts a build. */
  countedInSql(ms: number): void {
    if (this.mode !== 'auto' || ms < (this.tuning.slowCountMs ?? SLOW_COUNT_MS) || this.building || performance.now() < this.notBefore) return;
    // A current index that could not serve this search (a rare word, a phrase) would only be built again as it is.
    if (this.abort.signal.aborted || (this.index && this.index.generation === this.store.searchGeneration())) return;
    this.notBefore = performance.now() + 1000;
    this.background(() => (this.starting ??= (async () => {
      try {
        if ((await estimatedRecords(this.store)) >= (this.tuning.autoMinRecords ?? AUTO_MIN_RECORDS)) await this.build();
      } catch (err) {
        if (!(err instanceof StaleStateError)) throw err;
      } finally {
        this.starting = undefined;
      }
    })()));
  }

  /**
   * Builds the index of a large tenant now (`auto`, at least AUTO_MIN_RECORDS records), for the emulator to call before
   * it listens: otherwise the first request of each search on such a tenant is counted in SQL (0.55 to 0.7 s at a
   * million records) and only a slow count starts the build. Resolves with the index, or undefined (a small tenant).
   */
  async warm(): Promise<CountIndex | undefined> {
    if (this.mode !== 'auto' || this.abort.signal.aborted) return undefined;
    const small = (await estimatedRecords(this.store)) < (this.tuning.autoMinRecords ?? AUTO_MIN_RECORDS);
    // Only a save compacts the write log: where none will be, the log is compacted here.
    if (small || !this.file) await compactWriteLog(this.store).catch((err: unknown) => this.log(`search index: the write log was not compacted (${err instanceof Error ? err.message : String(err)})`));
    if (small) return undefined;
    return (await this.load()) ?? this.build();
  }

  /** The index saved in the data folder, if it is of the database's state now; else undefined, and the log says why. */
  async load(): Promise<CountIndex | undefined> {
    if (!this.file) return undefined;
    try {
      const swept = await sweepPartialFiles(this.file);
      if (swept) this.log(`search index: removed ${swept} unfinished saved index file(s)`);
      const saved = await loadIndex(this.store, this.file);
      const loaded = CountIndex.fromParts(saved.generation, saved.parts, saved.stamp, saved.ms);
      this.index = loaded;
      this.savedStamp = saved.stamp;
      this.log(`search index: ${loaded.size} records loaded from the data folder in ${Math.round(loaded.buildMs)} ms (${(loaded.bytes() / 1048576).toFixed(1)} MB)`);
      return loaded;
    } catch (err) {
      if (err instanceof StaleStateError) return undefined;
      this.log(`search index: not loaded from the data folder, it is built again: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
  }

  /**
   * Keeps the current index in the data folder for the next start (on a clean stop, and after a build at start), unless
   * it is there already. Never throws: a failed save only means the next start builds.
   */
  async save(beforeRename?: () => Promise<void>): Promise<boolean> {
    if (!this.file) return false;
    while (this.starting || this.building) await (this.starting ?? this.building);
    const index = this.index;
    if (!index || index.generation !== this.store.searchGeneration() || !index.stamp || index.stamp === this.savedStamp) return false;
    const started = performance.now();
    try {
      const saved = await saveIndex(this.store, index.parts(), index.stamp, this.file, beforeRename);
      if (!saved) {
        this.log('search index: not saved, the tables were written since it was read');
        return false;
      }
      index.stamp = saved.stamp;
      this.savedStamp = saved.stamp;
      this.log(`search index: saved to the data folder in ${Math.round(performance.now() - started)} ms (${(saved.bytes / 1048576).toFixed(1)} MB)`);
      return true;
    } catch (err) {
      this.log(`search index: not saved (${err instanceof Error ? err.message : String(err)})`);
      return false;
    }
  }

  /** Resolves when no build is running (benchmarks wait for the index before they measure); the index if current. */
  async settled(): Promise<CountIndex | undefined> {
    while (this.starting || this.building) await (this.starting ?? this.building);
    return this.index && this.index.generation === this.store.searchGeneration() ? this.index : undefined;
  }

  close(): void {
    this.abort.abort();
  }

  /**
   * Resolves when the build may take the store again: after the event loop had a turn (PGlite runs statements on
   * this thread and a run of awaited statements never yields to I/O, so sockets would wait for the whole build) and
   * no request is in flight.
   */
  private async idle(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    // Under requests that never stop overlapping, a statement goes after a while anyway: the build advances.
    const until = performance.now() + MAX_WAIT_MS;
    while (this.busy() && !this.abort.signal.aborted && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
  }

  private build(): Promise<CountIndex | undefined> {
    this.building ??= (async () => {
      const started = performance.now();
      try {
        // In the background a build gives way to every request: a statement of it waits until none is in flight, so
        // a request that reads the store many times is not held behind the build's statements each time. In
        // `always` mode the build is part of the request that needs it.
        const turn = this.mode === 'auto' ? () => this.idle() : () => new Promise<void>((resolve) => setImmediate(resolve));
        // A state replaced while the build reads (a snapshot restored) stops it: its statements are refused then.
        const built = await buildCountIndex(this.store, { ...this.tuning, signal: this.abort.signal, turn }).catch((err: unknown) => {
          if (err instanceof StaleStateError) return undefined;
          throw err;
        });
        if (built) {
          this.index = built;
          this.log(`search index: ${built.size} records in ${Math.round(built.buildMs)} ms (${(built.bytes() / 1048576).toFixed(1)} MB)`);
        }
        return built;
      } catch (err) {
        this.log(`search index: the build failed, searches are counted in SQL (${err instanceof Error ? err.message : String(err)})`);
        return undefined;
      } finally {
        // Not again before twice what this one took, unless it gave a current index (then only a write needs one).
        this.notBefore = performance.now() + (this.tuning.backoff ?? 2) * (performance.now() - started);
        this.building = undefined;
      }
    })();
    return this.building;
  }
}
