// Reading a record document's text back: JSON (no comments, no trailing commas) whose top level has the document's
// shape. Broken text yields problems with line and column and no document, so nothing half-read is ever sent.
import { getNodeValue, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { RecordDocument } from './model';
import { RecordProblemCodes as C, lineColumn, place, problem, rememberText, type Locator, type Problem } from './problems';

export interface ParsedDocument {
  doc?: RecordDocument;
  problems: Problem[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseDocument(text: string): ParsedDocument {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length || !root) {
    if (!errors.length) return { problems: [{ ...problem(C.Syntax, 'The text is empty.', []), offset: 0, length: 0, line: 1, column: 1 }] };
    const problems = errors.map((e) => ({
      ...problem(C.Syntax, `The text is not valid JSON: ${printParseErrorCode(e.error)}.`, []),
      offset: e.offset,
      length: e.length,
      ...lineColumn(text, e.offset),
    }));
    return { problems };
  }
  const value: unknown = getNodeValue(root);
  const locator: Locator = { text, root };
  const problems: Problem[] = [];
  const shape = (path: (string | number)[], message: string) => problems.push(place(problem(C.Shape, message, path), locator));
  if (!isObject(value)) {
    shape([], 'A record document is one JSON object.');
    return { problems };
  }
  if (typeof value.id !== 'string' || !value.id) shape(['id'], "'id' must be the record's id (a string).");
  if (value.title !== undefined && typeof value.title !== 'string') shape(['title'], "'title' must be a string.");
  if (value.status !== undefined && typeof value.status !== 'string') shape(['status'], "'status' must be a string.");
  if (value.contentType !== undefined && typeof value.contentType !== 'string') shape(['contentType'], "'contentType' must be a string.");
  if (value.classifications !== undefined && (!Array.isArray(value.classifications) || value.classifications.some((c) => typeof c !== 'string'))) {
    shape(['classifications'], "'classifications' must be a list of name paths (or ids).");
  }
  if (value.fields !== undefined && !isObject(value.fields)) shape(['fields'], "'fields' must be an object of values by field name.");
  if (value.readOnly !== undefined && !isObject(value.readOnly)) shape(['readOnly'], "'readOnly' must be an object.");
  if (problems.length) return { problems };
  const doc: RecordDocument = {
    ...(value as object),
    id: value.id as string,
    title: (value.title as string | undefined) ?? '',
    status: (value.status as string | undefined) ?? '',
    contentType: (value.contentType as string | undefined) ?? '',
    classifications: (value.classifications as string[] | undefined) ?? [],
    fields: (value.fields as Record<string, unknown> | undefined) ?? {},
    readOnly: (value.readOnly as RecordDocument['readOnly'] | undefined) ?? {},
  };
  rememberText(doc, locator);
  return { doc, problems };
}
