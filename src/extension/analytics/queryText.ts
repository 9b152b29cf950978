// The `.dam-analytics.json` text and the builder's query object, both ways: the builder's change becomes
// minimal text edits (one per changed top-level attribute), so formatting and attributes the builder
// does not know stay as they were. Free of `vscode`: the editor provider turns the edits into a WorkspaceEdit.
import { applyEdits, modify, parse, type Edit, type ParseError } from 'jsonc-parser';

export type ParsedQueryText = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The query object of a document, or why the builder cannot show it (the text view still can). */
export function parseQueryText(text: string): ParsedQueryText {
  if (text.trim() === '') return { ok: true, value: {} };
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: false, disallowComments: false });
  if (errors.length > 0) return { ok: false, message: `The JSON text has ${errors.length} syntax error(s); fix them in the text editor to build visually.` };
  if (!isObject(value)) return { ok: false, message: 'The file must hold one JSON object (the analytics query).' };
  return { ok: true, value };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The edits that turn `text` into the text of `next`: each top-level attribute that changed is
 * replaced, added or removed in place. Text that does not parse as an object is replaced whole.
 */
export function editsToQuery(text: string, next: Record<string, unknown>, eol = '\n'): Edit[] {
  const parsed = parseQueryText(text);
  if (!parsed.ok || text.trim() === '') {
    return [{ offset: 0, length: text.length, content: JSON.stringify(next, null, 2) + eol }];
  }
  const formattingOptions = { insertSpaces: true, tabSize: 2, eol };
  let current = text;
  const all: Edit[] = [];
  const keys = new Set([...Object.keys(parsed.value), ...Object.keys(next)]);
  for (const key of keys) {
    const before = parsed.value[key];
    const after = next[key];
    if (same(before, after)) continue;
    const edits = modify(current, [key], after, { formattingOptions });
    current = applyEdits(current, edits);
    all.push(...edits);
  }
  if (all.length === 0) return [];
  // Each edit above was computed against the text after the ones before it, so they cannot be applied
  // together: one edit over the span that differs is equivalent and still leaves the rest untouched.
  return [minimalReplace(text, current)];
}

/** One edit covering the span between the common prefix and suffix of the two texts. */
function minimalReplace(from: string, to: string): Edit {
  let start = 0;
  const max = Math.min(from.length, to.length);
  while (start < max && from.charCodeAt(start) === to.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && from.charCodeAt(from.length - 1 - end) === to.charCodeAt(to.length - 1 - end)) end++;
  return { offset: start, length: from.length - start - end, content: to.slice(start, to.length - end) };
}
