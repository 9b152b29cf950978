// Problems of a record document (broken text, values the tenant's definitions refuse), placed on the text when the
// document came from text: parseDocument remembers where each value sits, so validation can point at it.
import { findNodeAtLocation, type Node } from 'jsonc-parser';
import type { RecordDocument } from './model';

export const RecordProblemCodes = {
  /** The text is not JSON. */
  Syntax: 'record.syntax',
  /** A member has the wrong shape (not an object, not a string…). */
  Shape: 'record.shape',
  UnknownField: 'record.unknownField',
  ReadOnly: 'record.readOnly',
  WrongType: 'record.wrongType',
  NotAnOption: 'record.notAnOption',
  UnknownLanguage: 'record.unknownLanguage',
  NotLocalized: 'record.notLocalized',
  Required: 'record.required',
  BadStatus: 'record.badStatus',
  UnknownClassification: 'record.unknownClassification',
  BadRecordId: 'record.badRecordId',
} as const;
export type RecordProblemCode = (typeof RecordProblemCodes)[keyof typeof RecordProblemCodes];

export type JsonPath = (string | number)[];

export interface Problem {
  code: RecordProblemCode;
  severity: 'error' | 'warning';
  message: string;
  /** Where in the document: `['fields', 'UsageRights', 0]`. */
  path: JsonPath;
  /** The field's name, when the problem is about one field. */
  field?: string;
  /** Offsets into the text and 1-based line/column of the start, when the document came from text. */
  offset?: number;
  length?: number;
  line?: number;
  column?: number;
}

export interface Locator {
  text: string;
  root: Node;
}

const locators = new WeakMap<object, Locator>();

/** Remembers where a parsed document's values sit in its text (parseDocument calls it). */
export function rememberText(doc: RecordDocument, locator: Locator): void {
  locators.set(doc, locator);
}

export function locatorOf(doc: RecordDocument): Locator | undefined {
  return locators.get(doc);
}

/** Offset → 1-based line and column. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** Places a problem on the deepest node of its path that exists in the text (the key for a member that should not be there). */
export function place(problem: Problem, locator: Locator | undefined, onKey = false): Problem {
  if (!locator) return problem;
  let node: Node | undefined;
  for (let n = problem.path.length; n >= 0 && !node; n--) {
    const found = findNodeAtLocation(locator.root, problem.path.slice(0, n));
    if (!found) continue;
    node = onKey && n === problem.path.length && found.parent?.type === 'property' ? found.parent.children?.[0] : found;
  }
  node ??= locator.root;
  return { ...problem, offset: node.offset, length: node.length, ...lineColumn(locator.text, node.offset) };
}

export function problem(code: RecordProblemCode, message: string, path: JsonPath, field?: string, severity: Problem['severity'] = 'error'): Problem {
  return { code, severity, message, path, ...(field !== undefined ? { field } : {}) };
}

export const hasErrors = (problems: readonly Problem[]) => problems.some((p) => p.severity === 'error');

/** `file:line:col: message` lines, for the CLI and logs. */
export function formatProblem(p: Problem, file?: string): string {
  const where = p.line !== undefined ? `${file ? `${file}:` : ''}${p.line}:${p.column}: ` : file ? `${file}: ` : '';
  return `${where}${p.message}`;
}
