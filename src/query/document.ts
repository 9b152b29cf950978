// The `.dam-query` file model: sections split by `###` lines, `# @key value` directives, one expression each.
// `sectionAt` reads only the section under an offset, so editors stay fast in very large files.
import type { LogicalOperator, Range } from './ast';
import type { QueryTarget } from './catalogue';
import { diagnoseExpression as diagnoseExpression_, diagnoseSort as diagnoseSort_ } from './diagnose';
import { DiagnosticCodes, diagnostic, shiftDiagnostic, type Diagnostic } from './diagnostics';
import type { QuerySchema } from './schema';

// Local bindings: transpiled named imports are getter calls, and these run once per section.
const diagnoseExpression = diagnoseExpression_;
const diagnoseSort = diagnoseSort_;

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

/** Visits the sections in order without keeping them, so a linter's garbage dies young. */
function forEachSection(text: string, visit: (section: QuerySection) => void): void {
  let start = 0;
  let index = 0;
  let headerFirst = text.startsWith('###');
  for (;;) {
    const next = findNextHeader(text, headerFirst ? lineEnd(text, start) : start);
    const end = next === -1 ? text.length : next;
    const section = parseSection(text, start, end, headerFirst, index);
    if (section) {
      index++;
      visit(section);
    }
    if (next === -1) break;
    start = next;
    headerFirst = true;
  }
}

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

function parseSection(text: string, start: number, end: number, hasHeader: boolean, index: number, keepEmpty = false): QuerySection | null {
  const diagnostics: Diagnostic[] = [];
  const directives: Directive[] = [];
  let pos = start;
  let headerRange: Range | null = null;
  let title: string | null = null;
  if (hasHeader) {
    const e = Math.min(lineEnd(text, start), end);
    headerRange = { start, end: e };
    title = stripCr(text.slice(start + 3, e)).trim() || null;
    pos = e + 1;
  }
  let exprStart = -1;
  let exprEnd = -1;
  const commentLines: Range[] = [];
  // Char-code scanning: only directive lines are sliced, which keeps a 1 MB file cheap to split.
  while (pos < end) {
    let e = text.indexOf('\n', pos);
    if (e === -1 || e > end) e = end;
    let a = pos;
    while (a < e && isBlank(text.charCodeAt(a))) a++;
    if (a < e) {
      if (text.charCodeAt(a) === HASH) {
        const d = parseDirective(text, a, e, diagnostics);
        if (d) directives.push(d);
        if (exprStart !== -1) commentLines.push({ start: pos, end: e });
      } else {
        if (exprStart === -1) exprStart = a;
        let b = e;
        while (b > a && isBlank(text.charCodeAt(b - 1))) b--;
        exprEnd = b;
      }
    }
    pos = e + 1;
  }
  if (exprStart === -1 && directives.length === 0 && !keepEmpty) return null;
  let expression = '';
  let expressionOffset = headerRange ? Math.min(headerRange.end + 1, end) : start;
  if (exprStart !== -1) {
    expressionOffset = exprStart;
    expression = text.slice(exprStart, exprEnd);
    for (const c of commentLines) {
      if (c.start >= exprEnd) break;
      const a = c.start - exprStart;
      const b = Math.min(c.end, exprEnd) - exprStart;
      if (b <= a) continue;
      expression = expression.slice(0, a) + ' '.repeat(b - a) + expression.slice(b);
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
  const rawKey = text.slice(keyStart + 1, keyEnd);
  const d: Directive = {
    key: rawKey.toLowerCase(),
    value: text.slice(i, v),
    range: { start, end },
    keyRange: { start: keyStart, end: keyEnd },
    valueRange: { start: i, end: v },
  };
  if (!KNOWN_DIRECTIVES.includes(d.key)) {
    diagnostics.push(
      diagnostic(DiagnosticCodes.UnknownDirective, 'warning', `Unknown directive \`@${rawKey}\`; known: ${KNOWN_DIRECTIVES.map((k) => '@' + k).join(', ')}.`, d.keyRange),
    );
  }
  return d;
}

function applyDirectives(s: QuerySection): void {
  if (s.directives.length === 0) return;
  const seen: string[] = [];
  for (const d of s.directives) {
    if (d.key !== 'param' && KNOWN_DIRECTIVES.includes(d.key)) {
      if (seen.includes(d.key)) s.diagnostics.push(diagnostic(DiagnosticCodes.DuplicateDirective, 'warning', `\`@${d.key}\` is given twice; the last one wins.`, d.keyRange));
      else seen.push(d.key);
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
        const m = /^@?([A-Za-z_][\w.-]*)\s*=\s*(.*)$/.exec(d.value);
        if (!m) {
          invalidValue(s, d, '`@param` is written `@param Name = value`.');
          break;
        }
        let value = m[2].trim();
        if (value.length >= 2 && (value[0] === "'" || value[0] === '"') && value[value.length - 1] === value[0]) value = value.slice(1, -1);
        s.params[m[1]] = { value, range: d.range };
        break;
      }
      default:
        break;
    }
  }
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

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

export interface LintOptions {
  schema?: QuerySchema;
}

/** Every diagnostic of one section (directives, expression, `@sort`), in file offsets. */
export function lintSection(section: QuerySection, options: LintOptions = {}): Diagnostic[] {
  return lintSectionInto(section, options, []);
}

/** Appends the section's diagnostics to `out` (sorted among themselves); one array for a whole file. */
function lintSectionInto(section: QuerySection, options: LintOptions, out: Diagnostic[]): Diagnostic[] {
  const first = out.length;
  for (const d of section.diagnostics) out.push(d);
  let names: string[] | null = null;
  for (const k in section.params) (names ??= []).push(k);
  const common = {
    target: section.target,
    schema: options.schema,
    supportWildcards: section.wildcards,
    defaultOperator: section.defaultOperator,
    boundNames: names === null ? NO_NAMES : new Set(names),
    allowPlaceholders: true,
  };
  if (section.expression.length > 0) {
    const ds = diagnoseExpression(section.expression, common).diagnostics;
    for (const d of ds) out.push(shiftDiagnostic(d, section.expressionOffset));
  }
  if (section.sort) {
    common.allowPlaceholders = false;
    for (const d of diagnoseSort(section.sort.text, common).diagnostics) out.push(shiftDiagnostic(d, section.sort.offset));
  }
  if (out.length - first > 1) {
    const mine = out.splice(first).sort((a, b) => a.range.start - b.range.start);
    for (const d of mine) out.push(d);
  }
  return out;
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** Every diagnostic of a `.dam-query` file, in file offsets, in source order. */
export function lintDocument(text: string, options: LintOptions = {}): Diagnostic[] {
  const out: Diagnostic[] = [];
  forEachSection(text, (s) => lintSectionInto(s, options, out));
  return out;
}
