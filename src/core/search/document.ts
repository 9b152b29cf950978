// The `.dam-query` file model: sections split by `###` lines, `# @key value` directives, one expression each.
// `sectionAt` reads only the section under an offset, so editors stay fast in very large files.
import type { LogicalOperator, Range } from './ast';
import type { QueryTarget } from './catalogue';
import {
  diagnoseExpression as diagnoseExpression_,
  diagnoseExpressionIn as diagnoseExpressionIn_,
  diagnoseSort as diagnoseSort_,
  diagnoseSortIn as diagnoseSortIn_,
} from './diagnose';
import { DiagnosticCodes, diagnostic, shiftDiagnostic, type Diagnostic } from './diagnostics';
import type { QuerySchema } from './schema';

// Local bindings: transpiled named imports are getter calls, and these run once per section.
const diagnoseExpression = diagnoseExpression_;
const diagnoseSort = diagnoseSort_;
const diagnoseExpressionIn = diagnoseExpressionIn_;
const diagnoseSortIn = diagnoseSortIn_;

export interface Directive {
  /** Key without `@`, lower-cased. */
  key: string;
  value: string;
  /** The whole comment line (without its line break). */
  range: Range;
  keyRange: Range;
  valueRange: Range;
}

export interface NamedParam {
  value: string;
  range: Range;
}

export interface QuerySection {
  index: number;
  /** From the section's first character (its `###` line, if any) to the start of the next section. */
  range: Range;
  /** The `###` line, or null for a section at the top of the file. */
  headerRange: Range | null;
  /** Text after `###`, trimmed; null when empty or absent. */
  title: string | null;
  /** `@name`, else the title, else null. */
  name: string | null;
  directives: Directive[];
  target: QueryTarget;
  /** `@sort` expression and the file offset of its first character. */
  sort: { text: string; offset: number } | null;
  /** `@param Name = value` bindings (names without `@`). */
  params: Record<string, NamedParam>;
  wildcards: boolean;
  defaultOperator: LogicalOperator;
  /**
   * The expression: from its first to its last non-comment line. Comment lines inside it are
   * blanked with spaces, so offsets in it plus `expressionOffset` are file offsets.
   */
  expression: string;
  expressionOffset: number;
  /** Directive problems, in file offsets. */
  diagnostics: Diagnostic[];
}

export interface QueryDocument {
  sections: QuerySection[];
}

const KNOWN_DIRECTIVES = ['name', 'target', 'sort', 'param', 'wildcards', 'operator'];

/** Parses every section of a `.dam-query` file. Sections with neither directives nor an expression are left out. */
export function parseDocument(text: string): QueryDocument {
  const sections: QuerySection[] = [];
  forEachSection(text, (s) => sections.push(s));
  return { sections };
}

/**
 * Visits the sections in order without keeping them, so a linter's garbage dies young. One pass over
 * the lines: a section ends where a line starts with `###`. `inPlace` says that the expression is
 * the file's own text (no comment line inside it was blanked), so it can be read where it stands.
 */
function forEachSection(text: string, visit: (section: QuerySection, inPlace: boolean) => void): void {
  let start = 0;
  let index = 0;
  let headerFirst = text.startsWith('###');
  for (;;) {
    const section = parseSection(text, start, -1, headerFirst, index);
    if (section) {
      index++;
      visit(section, !scan.blanked);
    }
    if (scan.end >= text.length) break;
    start = scan.end;
    headerFirst = true;
  }
}

/** What `parseSection` found besides the section: where it ended, and whether it blanked comment lines. */
const scan = { end: 0, blanked: false };

/** The section containing `offset`, reading only that section's text (plus a backward search for its header). */
export function sectionAt(text: string, offset: number): QuerySection | null {
  const o = Math.max(0, Math.min(offset, text.length));
  const lineStart = o === 0 ? 0 : text.lastIndexOf('\n', o - 1) + 1;
  let start: number;
  let headerFirst: boolean;
  if (text.startsWith('###', lineStart)) {
    start = lineStart;
    headerFirst = true;
  } else {
    const prev = lineStart === 0 ? -1 : text.lastIndexOf('\n###', lineStart - 1);
    if (prev === -1) {
      start = 0;
      headerFirst = text.startsWith('###');
    } else {
      start = prev + 1;
      headerFirst = true;
    }
  }
  const next = findNextHeader(text, headerFirst ? lineEnd(text, start) : start);
  // The index is unknown without reading the whole file; -1 says so.
  return parseSection(text, start, next === -1 ? text.length : next, headerFirst, -1, true);
}

function findNextHeader(text: string, from: number): number {
  if (from === 0 && text.startsWith('###')) return 0;
  const i = text.indexOf('\n###', from === 0 ? 0 : from - 1);
  return i === -1 ? -1 : i + 1;
}

function lineEnd(text: string, from: number): number {
  const i = text.indexOf('\n', from);
  return i === -1 ? text.length : i;
}

/**
 * Reads the section starting at `start`. With `end` -1 the section runs to the next line that
 * starts with `###` (or the end of the text); `scan.end` tells where that was.
 */
function parseSection(text: string, start: number, end: number, hasHeader: boolean, index: number, keepEmpty = false): QuerySection | null {
  const diagnostics: Diagnostic[] = [];
  let found = 0; // directives gather in DIRECTIVES[0, found) and are copied out at their exact size
  const findEnd = end === -1;
  if (findEnd) end = text.length;
  let pos = start;
  let headerRange: Range | null = null;
  let title: string | null = null;
  if (hasHeader) {
    const e = Math.min(lineEnd(text, start), end);
    headerRange = { start, end: e };
    title = trimmedSlice(text, start + 3, e) || null;
    pos = e + 1;
  }
  let exprStart = -1;
  let exprEnd = -1;
  let commentLines: Range[] | null = null;
  // Char-code scanning: only directive lines are sliced, which keeps a 1 MB file cheap to split.
  while (pos < end) {
    if (findEnd && text.charCodeAt(pos) === HASH && text.charCodeAt(pos + 1) === HASH && text.charCodeAt(pos + 2) === HASH) {
      end = pos;
      break;
    }
    let e = text.indexOf('\n', pos);
    if (e === -1 || e > end) e = end;
    let a = pos;
    while (a < e && isBlank(text.charCodeAt(a))) a++;
    if (a < e) {
      if (text.charCodeAt(a) === HASH) {
        const d = parseDirective(text, a, e, diagnostics);
        if (d) DIRECTIVES[found++] = d;
        if (exprStart !== -1) (commentLines ??= []).push({ start: pos, end: e });
      } else {
        if (exprStart === -1) exprStart = a;
        let b = e;
        while (b > a && isBlank(text.charCodeAt(b - 1))) b--;
        exprEnd = b;
      }
    }
    pos = e + 1;
  }
  scan.end = end;
  scan.blanked = false;
  const directives = found === 0 ? [] : found === 1 ? [DIRECTIVES[0]] : DIRECTIVES.slice(0, found);
  for (let i = 0; i < found; i++) DIRECTIVES[i] = undefined!;
  if (exprStart === -1 && directives.length === 0 && !keepEmpty) return null;
  let expression = '';
  let expressionOffset = headerRange ? Math.min(headerRange.end + 1, end) : start;
  if (exprStart !== -1) {
    expressionOffset = exprStart;
    expression = text.slice(exprStart, exprEnd);
    if (commentLines !== null) {
      for (const c of commentLines) {
        if (c.start >= exprEnd) break;
        const a = c.start - exprStart;
        const b = Math.min(c.end, exprEnd) - exprStart;
        if (b <= a) continue;
        expression = expression.slice(0, a) + ' '.repeat(b - a) + expression.slice(b);
        scan.blanked = true;
      }
    }
  }
  const section: QuerySection = {
    index,
    range: { start, end },
    headerRange,
    title,
    name: title,
    directives,
    target: 'records',
    sort: null,
    params: {},
    wildcards: true,
    defaultOperator: 'OR',
    expression,
    expressionOffset,
    diagnostics,
  };
  applyDirectives(section);
  if (exprStart === -1 && directives.length > 0) {
    const at = headerRange ?? directives[0].range;
    diagnostics.push(diagnostic(DiagnosticCodes.EmptyQuery, 'warning', 'This section has no search expression.', at));
  }
  return section;
}

/**
 * Reads `# @key value` from the line `[start, lineEnd)` of `text` (start at the `#`), scanning in
 * place: only the key and value are sliced. Returns null for a plain comment.
 */
function parseDirective(text: string, start: number, lineEnd: number, diagnostics: Diagnostic[]): Directive | null {
  let end = lineEnd;
  if (end > start && text.charCodeAt(end - 1) === 13) end--;
  let i = start + 1;
  while (i < end && isBlank(text.charCodeAt(i))) i++;
  if (i >= end || text.charCodeAt(i) !== AT) return null;
  const keyStart = i;
  i++;
  while (i < end && isLetter(text.charCodeAt(i))) i++;
  const keyEnd = i;
  while (i < end && isBlank(text.charCodeAt(i))) i++;
  let v = end;
  while (v > i && isBlank(text.charCodeAt(v - 1))) v--;
  const known = knownDirective(text, keyStart + 1, keyEnd);
  const d: Directive = {
    key: known ?? text.slice(keyStart + 1, keyEnd).toLowerCase(),
    value: text.slice(i, v),
    range: { start, end },
    keyRange: { start: keyStart, end: keyEnd },
    valueRange: { start: i, end: v },
  };
  if (known === null) {
    const rawKey = text.slice(keyStart + 1, keyEnd);
    diagnostics.push(
      diagnostic(DiagnosticCodes.UnknownDirective, 'warning', `Unknown directive \`@${rawKey}\`; known: ${KNOWN_DIRECTIVES.map((k) => '@' + k).join(', ')}.`, d.keyRange),
    );
  }
  return d;
}

function applyDirectives(s: QuerySection): void {
  if (s.directives.length === 0) return;
  let seen = 0; // one bit per KNOWN_DIRECTIVES entry
  for (const d of s.directives) {
    const known = d.key === 'param' ? -1 : KNOWN_DIRECTIVES.indexOf(d.key);
    if (known !== -1) {
      if (seen & (1 << known)) s.diagnostics.push(diagnostic(DiagnosticCodes.DuplicateDirective, 'warning', `\`@${d.key}\` is given twice; the last one wins.`, d.keyRange));
      else seen |= 1 << known;
    }
    switch (d.key) {
      case 'name':
        if (d.value) s.name = d.value;
        else invalidValue(s, d, '`@name` needs a name.');
        break;
      case 'target': {
        const v = d.value.toLowerCase();
        if (v === 'records' || v === 'classifications') s.target = v;
        else invalidValue(s, d, '`@target` is `records` or `classifications`.');
        break;
      }
      case 'sort':
        if (d.value) s.sort = { text: d.value, offset: d.valueRange.start };
        else invalidValue(s, d, '`@sort` needs a sort expression, e.g. `Title, CreatedOn desc`.');
        break;
      case 'wildcards': {
        const v = d.value.toLowerCase();
        if (v === 'on' || v === 'off') s.wildcards = v === 'on';
        else invalidValue(s, d, '`@wildcards` is `on` or `off`.');
        break;
      }
      case 'operator': {
        const v = d.value.toUpperCase();
        if (v === 'AND' || v === 'OR') s.defaultOperator = v;
        else invalidValue(s, d, '`@operator` is `AND` or `OR`.');
        break;
      }
      case 'param': {
        const eq = paramEquals(d.value);
        if (eq === -1) {
          invalidValue(s, d, '`@param` is written `@param Name = value`.');
          break;
        }
        const at = d.value.charCodeAt(0) === AT ? 1 : 0;
        let value = d.value.slice(eq + 1).trim();
        if (value.length >= 2 && (value[0] === "'" || value[0] === '"') && value[value.length - 1] === value[0]) value = value.slice(1, -1);
        s.params[d.value.slice(at, nameEnd(d.value, at))] = { value, range: d.range };
        break;
      }
      default:
        break;
    }
  }
}

/** Directives found in the section being read (see `parseSection`). */
const DIRECTIVES: Directive[] = [];

/**
 * The known directive spelled by the ASCII letters `text[start, end)` in any case, as the constant
 * of KNOWN_DIRECTIVES (no slice, no lower-casing), or null.
 */
function knownDirective(text: string, start: number, end: number): string | null {
  const n = end - start;
  for (const k of KNOWN_DIRECTIVES) {
    if (k.length !== n) continue;
    let i = 0;
    while (i < n && (text.charCodeAt(start + i) | 32) === k.charCodeAt(i)) i++;
    if (i === n) return k;
  }
  return null;
}

/** `text.slice(a, b).trim()`, slicing once when the ends are ASCII (trim removes 9–13 and 32 there). */
function trimmedSlice(text: string, a: number, b: number): string {
  while (a < b && isAsciiSpace(text.charCodeAt(a))) a++;
  while (b > a && isAsciiSpace(text.charCodeAt(b - 1))) b--;
  if (a < b && (text.charCodeAt(a) > 127 || text.charCodeAt(b - 1) > 127)) return text.slice(a, b).trim();
  return text.slice(a, b);
}

function isAsciiSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/**
 * Where the `=` of `@?Name = value` stands, or -1 when the text is not of that form: the name is a
 * letter or `_` then word characters, dots and dashes; blanks (`\s`) may surround the `=`; the value
 * holds no line terminator. (What `/^@?([A-Za-z_][\w.-]*)\s*=\s*(.*)$/` accepts, without a match array.)
 */
function paramEquals(text: string): number {
  const n = text.length;
  let i = text.charCodeAt(0) === AT ? 1 : 0;
  const c = text.charCodeAt(i);
  if (!(isLetter(c) || c === 95)) return -1;
  i = nameEnd(text, i);
  while (i < n && isRegexSpace(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) !== 61 /* = */) return -1;
  const eq = i;
  for (i++; i < n && isRegexSpace(text.charCodeAt(i)); i++);
  for (; i < n; i++) {
    const d = text.charCodeAt(i);
    if (d === 10 || d === 13 || d === 0x2028 || d === 0x2029) return -1;
  }
  return eq;
}

/** The end of a parameter name starting at `i` (its first character already checked). */
function nameEnd(text: string, i: number): number {
  for (i++; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!(isLetter(c) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45)) break;
  }
  return i;
}

/** `\s` of a regular expression: ASCII blanks and line breaks, NBSP, BOM and the Unicode spaces. */
function isRegexSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

const HASH = 35;
const AT = 64;

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 12 || c === 11 || c === 160;
}

function invalidValue(s: QuerySection, d: Directive, message: string): void {
  s.diagnostics.push(diagnostic(DiagnosticCodes.InvalidDirectiveValue, 'error', message, d.value ? d.valueRange : d.keyRange));
}

export interface LintOptions {
  schema?: QuerySchema;
}

/** Every diagnostic of one section (directives, expression, `@sort`), in file offsets. */
export function lintSection(section: QuerySection, options: LintOptions = {}): Diagnostic[] {
  return lintSectionInto(section, options, [], null, newCheckOptions());
}

/** The options a section's expression and sort are checked with; `lintDocument` refills one object per section. */
interface SectionCheckOptions {
  target: QueryTarget;
  schema: QuerySchema | undefined;
  supportWildcards: boolean;
  defaultOperator: LogicalOperator;
  boundNames: ReadonlySet<string>;
  allowPlaceholders: boolean;
}

function newCheckOptions(): SectionCheckOptions {
  return { target: 'records', schema: undefined, supportWildcards: true, defaultOperator: 'OR', boundNames: NO_NAMES, allowPlaceholders: true };
}

/**
 * Appends the section's diagnostics to `out` (sorted among themselves); one array for a whole file.
 * Given the file's `text` (when the expression is that text unchanged), the expression and `@sort`
 * are parsed where they stand, already in file offsets; else their own strings are, and shifted.
 */
function lintSectionInto(section: QuerySection, options: LintOptions, out: Diagnostic[], text: string | null, common: SectionCheckOptions): Diagnostic[] {
  const first = out.length;
  for (const d of section.diagnostics) out.push(d);
  let names: Set<string> | null = null;
  for (const k in section.params) (names ??= new Set()).add(k);
  // Nothing keeps the options past the calls below, so one object serves every section of a file.
  common.target = section.target;
  common.schema = options.schema;
  common.supportWildcards = section.wildcards;
  common.defaultOperator = section.defaultOperator;
  common.boundNames = names ?? NO_NAMES;
  common.allowPlaceholders = true;
  if (section.expression.length > 0) {
    const at = section.expressionOffset;
    if (text !== null) pushAll(out, diagnoseExpressionIn(text, at, at + section.expression.length, common).diagnostics);
    else for (const d of diagnoseExpression(section.expression, common).diagnostics) out.push(shiftDiagnostic(d, at));
  }
  if (section.sort) {
    common.allowPlaceholders = false;
    const at = section.sort.offset;
    if (text !== null) pushAll(out, diagnoseSortIn(text, at, at + section.sort.text.length, common).diagnostics);
    else for (const d of diagnoseSort(section.sort.text, common).diagnostics) out.push(shiftDiagnostic(d, at));
  }
  if (out.length - first > 1) {
    const mine = out.splice(first).sort((a, b) => a.range.start - b.range.start);
    for (const d of mine) out.push(d);
  }
  return out;
}

function pushAll(out: Diagnostic[], ds: Diagnostic[]): void {
  for (let i = 0; i < ds.length; i++) out.push(ds[i]);
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** Every diagnostic of a `.dam-query` file, in file offsets, in source order. */
export function lintDocument(text: string, options: LintOptions = {}): Diagnostic[] {
  const out: Diagnostic[] = [];
  const common = newCheckOptions();
  forEachSection(text, (s, inPlace) => lintSectionInto(s, options, out, inPlace ? text : null, common));
  return out;
}
