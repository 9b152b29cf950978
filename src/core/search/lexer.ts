// Hand-written lexer of search expressions: one pass over char codes, tokens with offsets, lexical diagnostics.
import type { ComparisonOperator } from './ast';
import { DiagnosticCodes, diagnostic, type Diagnostic } from './diagnostics';

/** Token kinds as small integers: the parser switches on them in its hot loop. */
export const T = {
  Word: 0,
  String: 1,
  LParen: 2,
  RParen: 3,
  Comma: 4,
  Dot: 5,
  Compare: 6,
  Plus: 7,
  Minus: 8,
  Question: 9,
  Named: 10,
  Invalid: 11,
  EOF: 12,
} as const;
export type TokenKind = (typeof T)[keyof typeof T];

/** Reserved words, recognised once by the lexer (in any case) so the parser compares integers. */
export const KW = {
  None: 0,
  And: 1,
  Or: 2,
  Not: 3,
  In: 4,
  Contains: 5,
  Asc: 6,
  Desc: 7,
  FieldId: 8,
  FieldName: 9,
  FieldLabel: 10,
} as const;
export type Keyword = (typeof KW)[keyof typeof KW];

/** Case-insensitive comparison of `text[start, start + lower.length)` with a lower-case ASCII word. */
function sameWord(text: string, start: number, lower: string): boolean {
  for (let i = 0; i < lower.length; i++) if ((text.charCodeAt(start + i) | 32) !== lower.charCodeAt(i)) return false;
  return true;
}

/**
 * Most words are not reserved: decide by first letter and length, and never allocate. The letter
 * test is ASCII case folding (`| 32` maps only A–Z onto a–z), as `sameWord` compares.
 */
function keywordAt(text: string, start: number, length: number): Keyword {
  switch (text.charCodeAt(start) | 32) {
    case 97: // a
      return length !== 3 ? KW.None : sameWord(text, start, 'and') ? KW.And : sameWord(text, start, 'asc') ? KW.Asc : KW.None;
    case 99: // c
      return length === 8 && sameWord(text, start, 'contains') ? KW.Contains : KW.None;
    case 100: // d
      return length === 4 && sameWord(text, start, 'desc') ? KW.Desc : KW.None;
    case 102: // f
      if (length === 7) return sameWord(text, start, 'fieldid') ? KW.FieldId : KW.None;
      if (length === 9) return sameWord(text, start, 'fieldname') ? KW.FieldName : KW.None;
      return length === 10 && sameWord(text, start, 'fieldlabel') ? KW.FieldLabel : KW.None;
    case 105: // i
      return length === 2 && sameWord(text, start, 'in') ? KW.In : KW.None;
    case 110: // n
      return length === 3 && sameWord(text, start, 'not') ? KW.Not : KW.None;
    case 111: // o
      return length === 2 && sameWord(text, start, 'or') ? KW.Or : KW.None;
    default:
      return KW.None;
  }
}

/** The usual spellings of each reserved word, so the lexer can reuse a constant instead of slicing. */
const SPELLINGS: readonly (readonly string[])[] = [
  [],
  ['AND', 'and', 'And'],
  ['OR', 'or', 'Or'],
  ['NOT', 'not', 'Not'],
  ['in', 'IN', 'In'],
  ['contains', 'CONTAINS', 'Contains'],
  ['asc', 'ASC', 'Asc'],
  ['desc', 'DESC', 'Desc'],
  ['FieldId', 'fieldid', 'FIELDID'],
  ['FieldName', 'fieldname', 'FIELDNAME'],
  ['FieldLabel', 'fieldlabel', 'FIELDLABEL'],
];

function spelling(text: string, start: number, length: number, kw: Keyword): string {
  for (const s of SPELLINGS[kw]) if (text.startsWith(s, start)) return s;
  return text.slice(start, start + length);
}

export interface Token {
  kind: TokenKind;
  start: number;
  end: number;
  /**
   * Word/String: the decoded text (quotes removed; `\x` → `x`, except `\/`, which stays as written
   * because a slash that is not a path separator is the property's business). Named: the name
   * without `@`. Compare: the canonical operator. Otherwise ''. Null in a pooled token whose text
   * is a plain slice: read it with `tokenValue`, so a pooled token never points at a young string.
   */
  value: string | null;
  /** Word only: the reserved word it spells, else KW.None. */
  kw: Keyword;
  /** String only: the quote character (null otherwise). */
  quote: '"' | "'" | null;
  /** False only for a String without its closing quote. */
  terminated: boolean;
  /** Word/String: whether the text holds `*` or `?` (escaped or not), i.e. may be a wildcard pattern. */
  wild: boolean;
}

/** Every token has the same shape, which keeps the parser's property reads monomorphic. */
function tok(kind: TokenKind, start: number, end: number, value: string | null): Token {
  return { kind, start, end, value, kw: KW.None, quote: null, terminated: true, wild: false };
}

const SPACE = 32, TAB = 9, LF = 10, CR = 13, FF = 12, VT = 11, NBSP = 160;
const LPAREN = 40, RPAREN = 41, COMMA = 44, DOT = 46, EQ = 61, LT = 60, GT = 62, BANG = 33;
const DQUOTE = 34, SQUOTE = 39, PLUS = 43, MINUS = 45, QUESTION = 63, AT = 64, BACKSLASH = 92, SEMI = 59, SLASH = 47, STAR = 42, DEL = 127;

// Character classes as lookup tables over Latin-1; everything above it belongs to words.
const SPACE_TABLE = new Uint8Array(161);
const BREAK_TABLE = new Uint8Array(161);
for (const c of [SPACE, TAB, LF, CR, FF, VT, NBSP]) SPACE_TABLE[c] = 1;
for (let c = 0; c <= SPACE; c++) BREAK_TABLE[c] = 1;
for (const c of [NBSP, LPAREN, RPAREN, COMMA, EQ, LT, GT, BANG, DQUOTE, SQUOTE, SEMI]) BREAK_TABLE[c] = 1;
// The backslash does not end a word, but lexWord must stop on it to read the escape; it notes `*`
// and `?` (3) on the way, so the parser never searches a value for wildcards, and reports DEL (4) inside a word.
BREAK_TABLE[BACKSLASH] = 2;
BREAK_TABLE[STAR] = 3;
BREAK_TABLE[QUESTION] = 3;
BREAK_TABLE[DEL] = 4;

/** C0 controls other than tab and line breaks, and DEL: never part of an expression (they cannot travel in a query string). */
function isControl(c: number): boolean {
  return (c < SPACE && c !== TAB && c !== LF && c !== CR && c !== FF && c !== VT) || c === DEL;
}

function isSpace(c: number): boolean {
  return c <= NBSP && SPACE_TABLE[c] === 1;
}

/** Characters that end a bare word; everything else (letters, digits, `.-+*?:/@_` …) belongs to it. */
function breaksWord(c: number): boolean {
  return c <= NBSP && BREAK_TABLE[c] === 1;
}

export interface LexResult {
  /** The tokens; for `lexPooled` only the first `count` are this text's (the pool may be longer). */
  tokens: Token[];
  count: number;
  diagnostics: Diagnostic[];
}

// Emission target. The parser lexes into a pool of reused Token objects (no token ever escapes
// a parse, and parsing is synchronous), so a 1 MB file costs no per-token garbage; `lex()` allocates.
// One mutable state object rather than module-level `let`s, whose every access pays a TDZ check.
const out = { tokens: [] as Token[], count: 0, pooled: false };

function emit(kind: TokenKind, start: number, end: number, value: string | null): Token {
  const o = out;
  let t: Token | undefined;
  if (o.pooled) {
    t = o.tokens[o.count];
    if (t === undefined) o.tokens[o.count] = t = tok(kind, start, end, value);
    else {
      t.kind = kind;
      t.start = start;
      t.end = end;
      t.value = value;
      t.kw = KW.None;
      t.quote = null;
      t.terminated = true;
      t.wild = false;
    }
  } else {
    t = tok(kind, start, end, value);
    o.tokens[o.count] = t;
  }
  o.count++;
  return t;
}

const POOL: Token[] = [];
const NO_TOKENS: Token[] = [];

/** Splits `text` into fresh tokens; always ends with an EOF token at `text.length`. Never throws. */
export function lex(text: string): LexResult {
  return lexWith(text, [], false);
}

/**
 * As `lex`, but into reused Token objects that are overwritten by the next call: for the parser only,
 * which copies what it keeps out of the tokens before it returns. Reads `text[start, end)` in place
 * (offsets stay those of `text`), so a `.dam-query` file is lexed section by section without slicing.
 */
export function lexPooled(text: string, start = 0, end = text.length): LexResult {
  return lexWith(text, POOL, true, start, end);
}

function lexWith(text: string, into: Token[], pool: boolean, start = 0, end = text.length): LexResult {
  out.tokens = into;
  out.count = 0;
  out.pooled = pool;
  const diagnostics: Diagnostic[] = [];
  const n = end;
  let i = start;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    // Most tokens are words starting with a letter or digit: skip the punctuation switch for them.
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57)) {
      i = lexWord(text, i, n, diagnostics);
      continue;
    }
    // Lookahead reads stop at `n`: past it lies the rest of the file, not this expression.
    const start = i;
    const d = i + 1 < n ? text.charCodeAt(i + 1) : -1;
    switch (c) {
      case LPAREN:
        emit(T.LParen, start, ++i, '');
        continue;
      case RPAREN:
        emit(T.RParen, start, ++i, '');
        continue;
      case COMMA:
        emit(T.Comma, start, ++i, '');
        continue;
      case DOT:
        emit(T.Dot, start, ++i, '');
        continue;
      case PLUS:
        emit(T.Plus, start, ++i, '');
        continue;
      case MINUS:
        emit(T.Minus, start, ++i, '');
        continue;
      case EQ: {
        if (d === EQ) {
          i += 2;
          diagnostics.push(foreign(start, i, '==', '='));
        } else i++;
        emit(T.Compare, start, i, '=');
        continue;
      }
      case LT: {
        let op: ComparisonOperator = '<';
        if (d === EQ) op = '<=';
        else if (d === GT) op = '<>';
        i += op.length;
        emit(T.Compare, start, i, op);
        continue;
      }
      case GT: {
        const op: ComparisonOperator = d === EQ ? '>=' : '>';
        i += op.length;
        emit(T.Compare, start, i, op);
        continue;
      }
      case BANG: {
        if (d === EQ) {
          i += 2;
          diagnostics.push(foreign(start, i, '!=', '<>'));
          emit(T.Compare, start, i, '<>');
        } else {
          i++;
          diagnostics.push(unexpectedChar(start, '!'));
          emit(T.Invalid, start, i, '!');
        }
        continue;
      }
      case SEMI:
        i++;
        diagnostics.push(unexpectedChar(start, ';'));
        emit(T.Invalid, start, i, ';');
        continue;
      case DQUOTE:
      case SQUOTE:
        i = lexString(text, i, n, c, diagnostics);
        continue;
      case AT: {
        i++;
        while (i < n && !breaksWord(text.charCodeAt(i))) {
          if (text.charCodeAt(i) === DEL) diagnostics.push(controlChar(i, DEL));
          i++;
        }
        emit(T.Named, start, i, out.pooled ? null : text.slice(start + 1, i));
        continue;
      }
      case QUESTION: {
        // `?` alone is a positional placeholder; `?` inside a word (`a?c`, `?ab`) is a wildcard.
        if (i + 1 >= n || breaksWord(d)) {
          emit(T.Question, start, ++i, '');
          continue;
        }
        break;
      }
      default:
        // A character that ends words but has no token of its own (control characters): report it
        // and move on, or lexWord would read an empty word here forever.
        if (breaksWord(c)) {
          i++;
          diagnostics.push(isControl(c) ? controlChar(start, c) : unexpectedChar(start, text[start]));
          emit(T.Invalid, start, i, text[start]);
          continue;
        }
        break;
    }
    i = lexWord(text, i, n, diagnostics);
  }
  emit(T.EOF, n, n, '');
  const result = { tokens: out.tokens, count: out.count, diagnostics };
  out.tokens = NO_TOKENS; // let go of a fresh array handed in by `lex`
  return result;
}

function lexWord(text: string, i: number, n: number, diagnostics: Diagnostic[]): number {
  const start = i;
  let escaped = false;
  let wild = false;
  while (i < n) {
    const c = text.charCodeAt(i);
    // One table read decides the common case: a plain word character (0 in the table).
    const k = c > NBSP ? 0 : BREAK_TABLE[c];
    if (k === 0) {
      i++;
      continue;
    }
    if (k === 3) {
      wild = true;
      i++;
      continue;
    }
    if (k === 4) {
      diagnostics.push(controlChar(i, c));
      i++;
      continue;
    }
    if (k !== 2) break;
    if (i + 1 >= n) {
      diagnostics.push(
        diagnostic(DiagnosticCodes.DanglingEscape, 'error', 'A backslash at the end escapes nothing; remove it or write `\\\\`.', { start: i, end: i + 1 }),
      );
      i++;
      break;
    }
    escaped = true;
    const e = text.charCodeAt(i + 1);
    if (e === STAR || e === QUESTION) wild = true;
    else if (isControl(e)) diagnostics.push(controlChar(i + 1, e));
    i += 2;
  }
  if (escaped) {
    // An escaped word (`\and`) is never a keyword: escaping is how one writes the word itself.
    emit(T.Word, start, i, decodeEscapes(text.slice(start, i))).wild = wild;
    return i;
  }
  const kw = keywordAt(text, start, i - start);
  // A pooled token leaves even a keyword's text to be read on demand: the parser rarely needs it.
  const t = emit(T.Word, start, i, out.pooled ? null : kw !== KW.None ? spelling(text, start, i - start, kw) : text.slice(start, i));
  t.kw = kw;
  t.wild = wild;
  return i;
}

function lexString(text: string, i: number, n: number, quote: number, diagnostics: Diagnostic[]): number {
  const start = i;
  i++;
  let escaped = false;
  let terminated = false;
  let wild = false;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) {
      escaped = true;
      const e = i + 1 < n ? text.charCodeAt(i + 1) : -1;
      if (e === STAR || e === QUESTION) wild = true;
      else if (e >= 0 && isControl(e)) diagnostics.push(controlChar(i + 1, e));
      i += 2;
      continue;
    }
    if (c === quote) {
      terminated = true;
      i++;
      break;
    }
    if (c === STAR || c === QUESTION) wild = true;
    else if (c < SPACE || c === DEL) {
      if (isControl(c)) diagnostics.push(controlChar(i, c));
    }
    i++;
  }
  if (i > n) i = n;
  const q = quote === DQUOTE ? '"' : "'";
  const inner = escaped || !out.pooled ? text.slice(start + 1, terminated ? i - 1 : i) : '';
  if (!terminated) {
    diagnostics.push(
      diagnostic(DiagnosticCodes.UnterminatedString, 'error', `The string starting here has no closing ${q}.`, { start, end: i }, [
        { title: `Add the closing ${q}`, edits: [{ range: { start: i, end: i }, newText: q }] },
      ]),
    );
  }
  const t = emit(T.String, start, i, escaped ? decodeEscapes(inner) : out.pooled ? null : inner);
  t.quote = q;
  t.terminated = terminated;
  t.wild = wild;
  return i;
}

/** A token's text: its `value`, or for a pooled token left lazy (null), the slice it stands for. */
export function tokenValue(text: string, t: Token): string {
  if (t.value !== null) return t.value;
  if (t.kind === T.String) return text.slice(t.start + 1, t.terminated ? t.end - 1 : t.end);
  if (t.kind === T.Named) return text.slice(t.start + 1, t.end);
  return text.slice(t.start, t.end);
}

/** `\x` → `x`, except `\/`, which is kept (see Token.value). */
export function decodeEscapes(raw: string): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === BACKSLASH && i + 1 < raw.length) {
      if (raw.charCodeAt(i + 1) === SLASH) out += '\\/';
      else out += raw[i + 1];
      i++;
    } else out += raw[i];
  }
  return out;
}

/** Inverse of decoding for a quoted string: escapes the quote and backslashes that are not `\/`. */
export function quoteString(value: string, quote: '"' | "'" = "'"): string {
  let out = quote;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch === '\\' && value[i + 1] === '/') {
      out += '\\/';
      i++;
    } else if (ch === '\\' || ch === quote) out += '\\' + ch;
    else out += ch;
  }
  return out + quote;
}

/** Whether `value` can be written as a bare word and read back as the same single word token. */
export function isBareWord(value: string): boolean {
  if (value.length === 0) return false;
  const first = value.charCodeAt(0);
  if (first === PLUS || first === MINUS || first === DOT || first === AT || first === BACKSLASH) return false;
  if (value === '?') return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (breaksWord(c) || c === BACKSLASH) return false;
  }
  return true;
}

function foreign(start: number, end: number, written: string, canonical: string): Diagnostic {
  return diagnostic(
    DiagnosticCodes.ForeignOperator,
    'error',
    `\`${written}\` is not an operator of search expressions; write \`${canonical}\`.`,
    { start, end },
    [{ title: `Replace with \`${canonical}\``, edits: [{ range: { start, end }, newText: canonical }] }],
  );
}

function controlChar(at: number, code: number): Diagnostic {
  const shown = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return diagnostic(DiagnosticCodes.ControlCharacter, 'error', `The control character ${shown} cannot be part of an expression; remove it.`, { start: at, end: at + 1 }, [
    { title: `Remove ${shown}`, edits: [{ range: { start: at, end: at + 1 }, newText: '' }] },
  ]);
}

function unexpectedChar(start: number, ch: string): Diagnostic {
  const code = ch.charCodeAt(0);
  const shown = code < 32 || code === 127 ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `\`${ch}\``;
  return diagnostic(DiagnosticCodes.UnexpectedCharacter, 'error', `Unexpected character ${shown}.`, { start, end: start + 1 });
}
