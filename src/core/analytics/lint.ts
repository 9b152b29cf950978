// `dam lint` and the editor for `.dam-analytics.json`: parses the text keeping offsets and places each query problem on its member or value.
import { findNodeAtLocation, parseTree, printParseErrorCode, ParseErrorCode, getNodeValue, type Node, type ParseError } from 'jsonc-parser';
import type { Diagnostic } from '../search';
import { AnalyticsCodes as C, analyticsPhaseOf, type AnalyticsCode } from './codes';
import { validateAnalyticsQuery, type AnalyticsProblem, type JsonPath } from './validate';

function make(code: AnalyticsCode, severity: Diagnostic['severity'], message: string, start: number, end: number): Diagnostic {
  return { code, phase: analyticsPhaseOf(code), severity, message, range: { start, end }, source: 'dam-analytics' };
}

const LEXICAL: Partial<Record<ParseErrorCode, AnalyticsCode>> = {
  [ParseErrorCode.InvalidSymbol]: C.InvalidJsonToken,
  [ParseErrorCode.InvalidNumberFormat]: C.InvalidJsonToken,
  [ParseErrorCode.InvalidUnicode]: C.InvalidJsonToken,
  [ParseErrorCode.InvalidEscapeCharacter]: C.InvalidJsonToken,
  [ParseErrorCode.InvalidCharacter]: C.InvalidJsonToken,
  [ParseErrorCode.UnexpectedEndOfString]: C.UnterminatedJsonString,
  [ParseErrorCode.UnexpectedEndOfComment]: C.JsonComment,
  [ParseErrorCode.UnexpectedEndOfNumber]: C.InvalidJsonToken,
};

const PARSE_MESSAGES: Partial<Record<ParseErrorCode, string>> = {
  [ParseErrorCode.InvalidSymbol]: 'Invalid symbol in JSON.',
  [ParseErrorCode.InvalidNumberFormat]: 'Invalid number.',
  [ParseErrorCode.PropertyNameExpected]: 'A property name in double quotes is expected.',
  [ParseErrorCode.ValueExpected]: 'A value is expected.',
  [ParseErrorCode.ColonExpected]: "':' is expected after the property name.",
  [ParseErrorCode.CommaExpected]: "',' is expected.",
  [ParseErrorCode.CloseBraceExpected]: "'}' is expected.",
  [ParseErrorCode.CloseBracketExpected]: "']' is expected.",
  [ParseErrorCode.EndOfFileExpected]: 'Only one JSON value is allowed: text follows the query object.',
  [ParseErrorCode.UnexpectedEndOfString]: 'The string has no closing quote.',
  [ParseErrorCode.UnexpectedEndOfComment]: 'The comment is not closed.',
};

/** The node a problem points at: the deepest existing node on its path, or the property key for `onKey`. */
function nodeFor(root: Node, path: JsonPath, onKey: boolean): Node {
  for (let n = path.length; n >= 0; n--) {
    const node = findNodeAtLocation(root, path.slice(0, n));
    if (!node) continue;
    if (onKey && n === path.length && node.parent?.type === 'property' && node.parent.children?.[0]) return node.parent.children[0];
    return node;
  }
  return root;
}

/** Diagnostics of one `.dam-analytics.json` text (one analytics query object), with offsets into the text. */
/** Deepest nesting a query may have: a query object is a few levels deep; the JSON parser recurses per level. */
export const MAX_ANALYTICS_DEPTH = 64;

/** Where the nesting of arrays and objects first goes past `max` (outside strings), or -1; a linear scan, no recursion. */
function tooDeepAt(text: string, max: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) depth = Math.max(0, depth - 1);
  }
  return -1;
}

export function lintAnalyticsText(text: string): Diagnostic[] {
  const deep = tooDeepAt(text, MAX_ANALYTICS_DEPTH);
  if (deep >= 0) {
    return [make(C.NestedTooDeep, 'error', `Arrays and objects are nested more than ${MAX_ANALYTICS_DEPTH} levels deep here; an analytics query needs a few.`, deep, deep + 1)];
  }
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: false, allowTrailingComma: false, allowEmptyContent: true });
  const out: Diagnostic[] = [];
  for (const [i, e] of errors.entries()) {
    // The parser's recovery can report twice at one spot (a trailing comma: no name, then no value); one is enough.
    if (i > 0 && errors[i - 1].offset === e.offset) continue;
    const code = LEXICAL[e.error] ?? C.InvalidJson;
    out.push(make(code, 'error', PARSE_MESSAGES[e.error] ?? `Invalid JSON (${printParseErrorCode(e.error)}).`, e.offset, e.offset + Math.max(e.length, 1)));
  }
  // jsonc-parser tolerates comments; a `.dam-analytics.json` is plain JSON, which the service requires.
  for (const m of text.matchAll(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g)) {
    if (root && isInsideString(root, m.index)) continue;
    out.push(make(C.JsonComment, 'error', 'Comments are not allowed: a .dam-analytics.json file is plain JSON.', m.index, m.index + m[0].length));
  }
  const byOffset = (a: Diagnostic, b: Diagnostic) => a.range.start - b.range.start;
  if (!root) {
    if (errors.length === 0) out.push(make(C.NotAnObject, 'error', 'The file is empty; it should hold one analytics query object.', 0, text.length));
    return out.sort(byOffset);
  }
  // With syntax errors the recovered tree may be partial; semantic checks would then mislead.
  if (out.some((d) => d.severity === 'error')) return out.sort(byOffset);
  const value: unknown = getNodeValue(root);
  for (const p of validateAnalyticsQuery(value)) out.push(toDiagnostic(root, p));
  return out.sort(byOffset);
}

function toDiagnostic(root: Node, p: AnalyticsProblem): Diagnostic {
  const node = nodeFor(root, p.path, p.onKey === true);
  return make(p.code, p.severity, p.message, node.offset, node.offset + node.length);
}

function isInsideString(root: Node, offset: number): boolean {
  const stack: Node[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (offset < n.offset || offset >= n.offset + n.length) continue;
    if (n.type === 'string') return true;
    if (n.children) stack.push(...n.children);
  }
  return false;
}
