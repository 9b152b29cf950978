// Recursive-descent parser of search and sort expressions, with error recovery and cursor expectations.
import type {
  BinaryExpr,
  ComparisonOperator,
  Criterion,
  Expr,
  FieldRef,
  LogicalOperator,
  OperatorToken,
  PropertyPath,
  Range,
  ScalarValue,
  SearchExpression,
  SortExpression,
  SortItem,
  Value,
} from './ast';
import { SEARCH_PROPERTIES } from './catalogue';
import { DiagnosticCodes, LIMITS, diagnostic, type Diagnostic, type QuickFix } from './diagnostics';
import { KW as KEYWORDS, T as TOKEN_KINDS, lexPooled as lexPooled_, tokenValue as tokenValue_, type Keyword, type Token } from './lexer';

// Local bindings: a transpiled named import is a getter call on every use, and these sit in the hot loop.
const T = TOKEN_KINDS;
const KW = KEYWORDS;
const lexPooled = lexPooled_;
const tokenValue = tokenValue_;

export interface ParseOptions {
  /** `supportWildcards`: when false, `*` and `?` in values are literal. Default true. */
  supportWildcards?: boolean;
  /** `defaultLogicalOperator`: joins criteria written side by side. Default `OR` (the spec's shown value). */
  defaultOperator?: LogicalOperator;
  /** An offset at which to record what the grammar expected (for completion). */
  cursor?: number;
  /**
   * Read `Title startswith Gol` as a tenant does: three words of full text (which match nothing), not a DQ2012 error.
   * The emulator sets it (it answers what a tenant answers); the editor and `dam lint` do not: there it is a mistake.
   */
  foreignOperatorsAsText?: boolean;
}

/** What the grammar would have accepted at the cursor. */
export type Expectation =
  /** A criterion, full-text term, `NOT`, `-`, `(` or `*`. */
  | { kind: 'operand' }
  /** `AND`, `OR`, `+` (or, given a default operator, another operand). */
  | { kind: 'logical' }
  /** A comparison operator after this property. */
  | { kind: 'operator'; property: PropertyPath }
  /** A value for this criterion. */
  | { kind: 'value'; property: PropertyPath; operator: ComparisonOperator }
  /** The quoted argument of `FieldId(`/`FieldName(`/`FieldLabel(`. */
  | { kind: 'fieldKey'; by: FieldRef['by'] }
  /** `.Accessor` after a field reference (`dot` false when the dot is already written). */
  | { kind: 'accessor'; field: FieldRef; dot: boolean }
  | { kind: 'closeParen' }
  /** `,` or `)` inside an `in ( … )` list. */
  | { kind: 'listSeparator' }
  /** A property to sort by. */
  | { kind: 'sortTarget' }
  /** `asc` or `desc` after a sort target. */
  | { kind: 'direction' }
  /** `,` between sort criteria. */
  | { kind: 'sortSeparator' }
  | { kind: 'end' };

export interface ParseResult<T> {
  ast: T;
  /** Lexical and syntax diagnostics, in source order. */
  diagnostics: Diagnostic[];
  /** What the grammar expected at `options.cursor` (empty without a cursor). */
  expected: readonly Expectation[];
  /** The token under or right after the cursor, when a cursor was given. */
  cursorToken: Token | null;
}

function fieldFunction(tok: Token): FieldRef['by'] | undefined {
  if (tok.kw === KW.FieldName) return 'name';
  if (tok.kw === KW.FieldId) return 'id';
  if (tok.kw === KW.FieldLabel) return 'label';
  return undefined;
}

/** Properties of either target, lower-cased: only after one of these is a word like `startswith` read as a mistaken operator, so full text (`sunset like gold`) stays text. */
const KNOWN_PROPERTIES: ReadonlySet<string> = new Set(Object.values(SEARCH_PROPERTIES).flatMap((list) => list.map((p) => p.name.toLowerCase())));

/** Operators of other query languages, and what to write instead: `value` is the written value, unquoted as it stands. */
const FOREIGN_WORD_OPERATORS: Readonly<Record<string, { write: (value: string) => string; why: string }>> = (() => {
  // A quoted value takes its `*` inside the quotes.
  const star = (v: string) => (/^(['"]).*\1$/s.test(v) ? `${v.slice(0, -1).replace(/\*?$/, '*')}${v.slice(-1)}` : v.replace(/\*?$/, '*'));
  const prefix = { write: (v: string) => `= ${star(v)}`, why: 'a trailing `*` matches the words that start with it' };
  const words = { write: (v: string) => `contains ${v}`, why: '`contains` matches whole words of the value' };
  const ending = { write: (v: string) => `contains ${v}`, why: 'there is no ends-with: `=` with a trailing `*` matches the start of words, `contains` whole words' };
  const like = { write: (v: string) => `= ${v.replace(/%/g, '*')}`, why: '`*` is the wildcard' };
  const op = (o: string) => ({ write: (v: string) => `${o} ${v}`, why: `\`${o}\` is the operator` });
  return {
    startswith: prefix,
    starts_with: prefix,
    beginswith: prefix,
    begins_with: prefix,
    endswith: ending,
    ends_with: ending,
    like,
    ilike: like,
    has: words,
    includes: words,
    include: words,
    contain: words,
    matches: words,
    equals: op('='),
    eq: op('='),
    is: op('='),
    ne: op('<>'),
    neq: op('<>'),
    gt: op('>'),
    ge: op('>='),
    gte: op('>='),
    lt: op('<'),
    le: op('<='),
    lte: op('<='),
  };
})();

function isWord(tok: Token, kw: Keyword): boolean {
  return tok.kw === kw;
}

/**
 * Grammar (keywords in any case; `implicit` joins use the default operator's precedence level):
 *
 *   search     := orExpr? EOF
 *   orExpr     := andExpr ( OR andExpr | <implicit, default OR> andExpr )*
 *   andExpr    := unary ( (AND | '+') unary | <implicit, default AND> unary )*
 *   unary      := (NOT | '-') unary | primary
 *   primary    := '(' orExpr ')' | fieldRef comparison | WORD comparison | term
 *   term       := WORD | STRING | '?' | '@' NAME          -- full-text term; `*` alone matches all
 *   comparison := operator value
 *   operator   := '=' | '>' | '>=' | '<' | '<=' | '<>' | IN | CONTAINS
 *   value      := scalar | '(' scalar ( ',' scalar )* ')' -- the list only after IN
 *   scalar     := WORD | STRING | '?' | '@' NAME | '-' WORD
 *   fieldRef   := (FIELDID | FIELDNAME | FIELDLABEL) '(' STRING ')' ( '.' WORD )?
 *
 *   sort       := sortItem ( ',' sortItem )* EOF
 *   sortItem   := (fieldRef | WORD) (ASC | DESC)?
 *
 * Recovery: a token that cannot start an operand becomes an `error` node and is skipped; a missing
 * operator or value leaves null in the criterion; an unclosed `(` closes at the end. The parser
 * never throws and always consumes the whole input.
 *
 * Limits (LIMITS): a text longer than `maxLength` is not parsed (one DQ2010 diagnostic, an `error`
 * body); parentheses and `NOT`/`-` nested beyond `maxNesting` are one DQ2011 diagnostic and an
 * `error` node for the rest of that group, skipped without recursion, so no input overflows the stack.
 */
export class Parser {
  private text!: string;
  private begin!: number;
  private end!: number;
  private tokens!: Token[];
  private pos!: number;
  /** Top of `SCRATCH` for this parse (see `keep`). */
  private top!: number;
  private depth!: number;
  /** Parentheses and NOT/- enclosing the current point, counted together against LIMITS.maxNesting. */
  private nesting!: number;
  private tooDeepReported!: boolean;
  private tooLong!: boolean;
  private placeholderIndex!: number;
  private quiet!: boolean;
  private diagnostics!: Diagnostic[];
  private expected!: Expectation[];
  private last!: number;
  private cursorIndex!: number;
  private wildcards!: boolean;
  private defaultOp!: LogicalOperator;
  private foreignAsText!: boolean;

  /**
   * Parses `text[begin, end)` in place: ranges in the tree and the diagnostics are offsets of `text`
   * (a linter hands in a whole `.dam-query` file and gets file offsets without shifting anything).
   */
  constructor(text: string, options: ParseOptions = {}, begin = 0, end = text.length) {
    this.reset(text, options, begin, end);
  }

  /** Readies the parser for another text, as the constructor does (a linter reuses one parser for a file's sections). */
  reset(text: string, options: ParseOptions, begin: number, end: number): this {
    this.tooLong = end - begin > LIMITS.maxLength;
    // Too long a text is not even lexed: only its length is reported.
    const lexed = lexPooled(text, this.tooLong ? end : begin, end);
    this.text = text;
    this.begin = begin;
    this.end = end;
    this.tokens = lexed.tokens;
    this.pos = 0;
    this.top = 0;
    this.depth = 0;
    this.nesting = 0;
    this.tooDeepReported = false;
    this.placeholderIndex = 0;
    this.quiet = false;
    this.last = lexed.count - 1;
    this.diagnostics = lexed.diagnostics;
    if (this.tooLong) {
      this.diagnostics.push(
        diagnostic(
          DiagnosticCodes.ExpressionTooLong,
          'error',
          `The expression is ${(end - begin).toLocaleString('en-US')} characters long; at most ${LIMITS.maxLength.toLocaleString('en-US')} are allowed.`,
          { start: begin, end: Math.min(end, begin + 1) },
        ),
      );
    }
    this.wildcards = options.supportWildcards ?? true;
    this.defaultOp = options.defaultOperator ?? 'OR';
    this.foreignAsText = options.foreignOperatorsAsText === true;
    this.cursorIndex = options.cursor === undefined ? -1 : findCursorToken(this.tokens, this.last, options.cursor);
    // Without a cursor nothing is ever recorded: share one empty list rather than allocate per parse.
    this.expected = this.cursorIndex === -1 ? NO_EXPECTATIONS : [];
    return this;
  }

  parseSearch(): ParseResult<SearchExpression> {
    let body: Expr | null = null;
    if (this.tooLong) body = { kind: 'error', range: { start: this.begin, end: this.end } };
    else if (this.peek().kind === T.EOF) {
      if (this.pos === this.cursorIndex && this.want()) this.expected.push({ kind: 'operand' });
    } else body = this.orExpr();
    if (this.pos === this.cursorIndex && this.want()) this.expected.push({ kind: 'end' });
    return this.result({ kind: 'search', body, range: { start: this.begin, end: this.end } });
  }

  parseSort(): ParseResult<SortExpression> {
    const base = this.top;
    if (this.pos === this.cursorIndex && this.want()) this.expected.push({ kind: 'sortTarget' });
    if (this.peek().kind !== T.EOF) {
      for (;;) {
        const item = this.sortItem();
        if (item) this.keep(item);
        const tok = this.peek();
        if (tok.kind === T.EOF) break;
        if (this.pos === this.cursorIndex && this.want()) this.expected.push({ kind: 'sortSeparator' });
        if (tok.kind === T.Comma) {
          this.pos++;
          if (this.pos === this.cursorIndex && this.want()) this.expected.push({ kind: 'sortTarget' });
          if (this.peek().kind === T.EOF) {
            this.error(DiagnosticCodes.MalformedSort, 'A sort criterion is missing after `,`.', this.emptyAt(this.peek()), [
              { title: 'Remove the trailing comma', edits: [{ range: { start: tok.start, end: tok.end }, newText: '' }] },
            ]);
            break;
          }
          continue;
        }
        this.error(DiagnosticCodes.MalformedSort, `Expected \`,\` between sort criteria, found ${describe(tok, this.text)}.`, tok);
        if (!this.startsSortItem(tok)) this.pos++;
      }
    }
    if (this.pos === this.cursorIndex && this.want()) this.expected.push({ kind: 'end' });
    const items = this.take<SortItem>(base);
    return this.result({ kind: 'sort', items, range: { start: this.begin, end: this.end } });
  }

  // --- expressions -------------------------------------------------------------------------

  private orExpr(): Expr {
    const first = this.andExpr();
    // Most operands stand alone; joined ones gather on the scratch stack until the list is complete.
    const base = this.top;
    let implicit: boolean | null = null;
    for (;;) {
      const tok = this.peek();
      if (this.pos === this.cursorIndex && this.want()) this.expected.push({ kind: 'logical' });
      let joinImplicit: boolean;
      if (this.defaultOp === 'OR' && this.pos === this.cursorIndex && this.want()) this.expected.push({ kind: 'operand' });
      if (isWord(tok, KW.Or)) {
        this.pos++;
        joinImplicit = false;
      } else if (this.defaultOp === 'OR' && this.startsOperand(tok)) {
        joinImplicit = true;
      } else break;
      if (implicit === null) this.keep(first);
      else if (implicit !== joinImplicit) this.keep(this.binary('or', implicit, 'keyword', this.take(base)));
      implicit = joinImplicit;
      const next = this.andExpr();
      this.keep(next);
    }
    return implicit === null ? first : this.binary('or', implicit, 'keyword', this.take(base));
  }

  private andExpr(): Expr {
    const first = this.unary();
    const base = this.top;
    let join: 'keyword' | 'plus' | 'implicit' | null = null;
    for (;;) {
      const tok = this.peek();
      if (this.pos === this.cursorIndex && this.want()) this.expected.push({ kind: 'logical' });
      let j: 'keyword' | 'plus' | 'implicit';
      if (this.defaultOp === 'AND' && this.pos === this.cursorIndex && this.want()) this.expected.push({ kind: 'operand' });
      if (isWord(tok, KW.And)) j = 'keyword';
      else if (tok.kind === T.Plus) j = 'plus';
      else if (this.defaultOp === 'AND' && this.startsOperand(tok)) j = 'implicit';
      else break;
      if (j !== 'implicit') this.pos++;
      if (join === null) this.keep(first);
      else if (join !== j) this.keep(this.binary('and', join === 'implicit', join === 'plus' ? 'plus' : 'keyword', this.take(base)));
      join = j;
      const next = this.unary();
      this.keep(next);
    }
    if (join === null) return first;
    return this.binary('and', join === 'implicit', join === 'plus' ? 'plus' : 'keyword', this.take(base));
  }

  private unary(): Expr {
    const tok = this.peek();
    if (this.pos === this.cursorIndex && this.want()) this.expected.push({ kind: 'operand' });
    if (isWord(tok, KW.Not) || tok.kind === T.Minus) {
      if (this.nesting >= LIMITS.maxNesting) return this.tooDeep();
      this.pos++;
      this.nesting++;
      const operand = this.unary();
      this.nesting--;
      return { kind: 'not', syntax: tok.kind === T.Minus ? 'minus' : 'keyword', operand, range: { start: tok.start, end: operand.range.end } };
    }
    return this.primary();
  }

  private primary(): Expr {
    const tok = this.peek();
    switch (tok.kind) {
      case T.LParen:
        return this.nesting >= LIMITS.maxNesting ? this.tooDeep() : this.parenthesized();
      case T.Word: {
        if (isWord(tok, KW.And) || isWord(tok, KW.Or)) {
          this.error(DiagnosticCodes.MissingOperand, `\`${this.val(tok).toUpperCase()}\` needs a criterion before it.`, tok);
          return { kind: 'error', range: this.emptyAt(tok) };
        }
        const by = fieldFunction(tok);
        if (by !== undefined && this.peekAt(1).kind === T.LParen) return this.criterion(this.fieldRef(by));
        this.pos++;
        const next = this.peek();
        const property = { kind: 'property' as const, name: this.val(tok), range: { start: tok.start, end: tok.end } };
        // Side by side with the cursor, a word may still become a property: `Title |`.
        if (this.pos === this.cursorIndex && this.want()) this.expected.push({ kind: 'operator', property });
        if (next.kind === T.Compare || isWord(next, KW.In) || isWord(next, KW.Contains)) return this.criterion(property);
        if (next.kind === T.Word && KNOWN_PROPERTIES.has(property.name.toLowerCase())) {
          const foreign = this.foreignOperator(property.range.start, next);
          if (foreign) return foreign;
        }
        if (property.name === '*') return { kind: 'matchAll', range: property.range };
        return { kind: 'text', value: this.scalarFromToken(tok), range: property.range };
      }
      case T.String: {
        // `'AEM Asset ID' = …`: a quoted name before an operator is a field named by its label (a migration client's
        // searches, replayed in test/interop/sixthRoundClients.test.ts); alone it stays full text.
        const after = this.peekAt(1);
        if (after.kind === T.Compare || isWord(after, KW.In) || isWord(after, KW.Contains)) {
          this.pos++;
          const range = { start: tok.start, end: tok.end };
          return this.criterion({ kind: 'field', by: 'label', quoted: true, key: this.val(tok), keyRange: range, accessor: [], accessorRange: null, range });
        }
        this.pos++;
        return { kind: 'text', value: this.scalarFromToken(tok), range: { start: tok.start, end: tok.end } };
      }
      case T.Question:
      case T.Named:
        this.pos++;
        return { kind: 'text', value: this.scalarFromToken(tok), range: { start: tok.start, end: tok.end } };
      case T.EOF:
        this.error(DiagnosticCodes.UnexpectedEnd, 'The expression ends here, but a criterion was expected.', this.emptyAt(tok));
        return { kind: 'error', range: this.emptyAt(tok) };
      case T.RParen:
        if (this.depth > 0) {
          this.error(DiagnosticCodes.UnexpectedToken, 'A criterion was expected before `)`.', this.emptyAt(tok));
          return { kind: 'error', range: this.emptyAt(tok) };
        }
        this.pos++;
        this.error(DiagnosticCodes.UnmatchedParenthesis, 'This `)` has no matching `(`.', tok, [
          { title: 'Remove the `)`', edits: [{ range: { start: tok.start, end: tok.end }, newText: '' }] },
        ]);
        return { kind: 'error', range: { start: tok.start, end: tok.end } };
      case T.Compare: {
        this.pos++;
        this.error(DiagnosticCodes.UnexpectedToken, `\`${this.val(tok)}\` needs a property before it, e.g. \`Title ${this.val(tok)} …\`.`, tok);
        // Swallow the value too, so one mistake yields one diagnostic.
        const v = this.peek();
        if (v.kind === T.Word || v.kind === T.String || v.kind === T.Question || v.kind === T.Named) this.pos++;
        return { kind: 'error', range: { start: tok.start, end: this.tokens[this.pos - 1].end } };
      }
      default:
        this.pos++;
        if (tok.kind !== T.Invalid) this.error(DiagnosticCodes.UnexpectedToken, `Unexpected ${describe(tok, this.text)}; a criterion was expected.`, tok);
        return { kind: 'error', range: { start: tok.start, end: tok.end } };
    }
  }

  /**
   * `Title startswith Gol`: an operator of another language between a property and its value. One error with the
   * criterion in ours as its fix (`Title = Gol*`); the three tokens become an error node, so nothing half-understood
   * is searched for.
   */
  private foreignOperator(start: number, opTok: Token): Expr | undefined {
    if (this.foreignAsText) return undefined;
    const known = FOREIGN_WORD_OPERATORS[this.val(opTok).toLowerCase()];
    const valueTok = this.peekAt(1);
    if (!known || (valueTok.kind !== T.Word && valueTok.kind !== T.String)) return undefined;
    const written = this.text.slice(valueTok.start, valueTok.end);
    const property = this.text.slice(start, this.tokens[this.pos - 1].end);
    const replacement = known.write(written);
    this.pos += 2;
    this.error(
      DiagnosticCodes.UnknownOperator,
      `\`${this.val(opTok)}\` is not an operator of search expressions: did you mean \`${property} ${replacement}\`? (${known.why})`,
      { start: opTok.start, end: valueTok.end },
      [{ title: `Write \`${property} ${replacement}\``, edits: [{ range: { start: opTok.start, end: valueTok.end }, newText: replacement }] }],
    );
    return { kind: 'error', range: { start, end: valueTok.end } };
  }

  private parenthesized(): Expr {
    const open = this.tokens[this.pos++];
    this.depth++;
    this.nesting++;
    let inner: Expr;
    if (this.peek().kind === T.RParen) {
      if (this.pos === this.cursorIndex && this.want()) this.expected.push({ kind: 'operand' });
      this.error(DiagnosticCodes.UnexpectedToken, 'Empty parentheses: a criterion was expected inside.', { start: open.start, end: this.peek().end });
      inner = { kind: 'error', range: this.emptyAt(this.peek()) };
    } else inner = this.orExpr();
    this.depth--;
    this.nesting--;
    const close = this.peek();
    if (this.pos === this.cursorIndex && this.want()) this.expected.push({ kind: 'closeParen' });
    if (close.kind === T.RParen) {
      this.pos++;
    } else {
      this.error(DiagnosticCodes.UnclosedParenthesis, 'This `(` is not closed.', open, [
        { title: 'Add `)` at the end', edits: [{ range: { start: this.end, end: this.end }, newText: ')' }] },
      ]);
    }
    // Parentheses only group: the tree keeps the inner node, widened to cover them for hover and folding.
    const end = close.kind === T.RParen ? close.end : this.prevEnd();
    return widen(inner, open.start, end);
  }

  /**
   * Past the nesting limit: reports it once, and skips without recursing to the `)` that closes the group this
   * point is in (left for that group) or to the end, answering one `error` node for what was skipped.
   */
  private tooDeep(): Expr {
    const first = this.peek();
    if (!this.tooDeepReported) {
      this.tooDeepReported = true;
      this.error(
        DiagnosticCodes.NestingTooDeep,
        `Parentheses and NOT are nested more than ${LIMITS.maxNesting} deep here; write the expression with less nesting.`,
        { start: first.start, end: first.end },
      );
    }
    let open = 0;
    for (;;) {
      const tok = this.peek();
      if (tok.kind === T.EOF) break;
      if (tok.kind === T.RParen) {
        if (open === 0) break;
        open--;
      } else if (tok.kind === T.LParen) open++;
      this.pos++;
    }
    return { kind: 'error', range: { start: first.start, end: Math.max(first.start, this.prevEnd()) } };
  }

  private criterion(property: PropertyPath): Criterion {
    const opTok = this.peek();
    if (this.pos === this.cursorIndex && this.want()) this.expected.push({ kind: 'operator', property });
    let operator: OperatorToken | null = null;
    if (opTok.kind === T.Compare) operator = { op: this.val(opTok) as ComparisonOperator, range: { start: opTok.start, end: opTok.end } };
    else if (isWord(opTok, KW.In)) operator = { op: 'in', range: { start: opTok.start, end: opTok.end } };
    else if (isWord(opTok, KW.Contains)) operator = { op: 'contains', range: { start: opTok.start, end: opTok.end } };
    if (!operator && opTok.kind === T.Word) {
      const foreign = this.foreignOperator(property.range.start, opTok);
      if (foreign) return { kind: 'criterion', property, operator: null, value: null, range: foreign.range };
    }
    if (!operator) {
      if (property.kind === 'field' && property.accessor.length === 0 && this.pos === this.cursorIndex && this.want()) this.expected.push({ kind: 'accessor', field: property, dot: true });
      this.error(
        DiagnosticCodes.MissingOperator,
        `An operator (\`=\`, \`<>\`, \`>\`, \`contains\`, …) was expected after the field reference, found ${describe(opTok, this.text)}.`,
        opTok.kind === T.EOF ? this.emptyAt(opTok) : opTok,
      );
      return { kind: 'criterion', property, operator: null, value: null, range: { start: property.range.start, end: property.range.end } };
    }
    this.pos++;
    const value = this.value(property, operator);
    return { kind: 'criterion', property, operator, value, range: { start: property.range.start, end: value ? value.range.end : operator.range.end } };
  }

  private value(property: PropertyPath, operator: OperatorToken): Value | null {
    const tok = this.peek();
    if (this.pos === this.cursorIndex && this.want()) this.expected.push({ kind: 'value', property, operator: operator.op });
    if (operator.op === 'in' && tok.kind === T.LParen) return this.valueList(property, operator);
    const scalar = this.scalar(tok);
    if (scalar) return scalar;
    const where = tok.kind === T.EOF ? this.emptyAt(tok) : { start: tok.start, end: tok.end };
    this.error(DiagnosticCodes.MissingValue, `A value was expected after \`${operator.op}\`, found ${describe(tok, this.text)}.`, where, [
      { title: "Insert an empty value ''", edits: [{ range: { start: operator.range.end, end: operator.range.end }, newText: " ''" }] },
    ]);
    return null;
  }

  private valueList(property: PropertyPath, operator: OperatorToken): Value {
    const open = this.tokens[this.pos++];
    const base = this.top;
    for (;;) {
      const tok = this.peek();
      if (this.pos === this.cursorIndex && this.want()) this.expected.push({ kind: 'value', property, operator: operator.op });
      const item = this.scalar(tok);
      if (item) this.keep(item);
      else this.error(DiagnosticCodes.MissingValue, `A value was expected in the list, found ${describe(tok, this.text)}.`, tok.kind === T.EOF ? this.emptyAt(tok) : tok);
      const sep = this.peek();
      if (this.pos === this.cursorIndex && this.want()) this.expected.push({ kind: 'listSeparator' });
      if (sep.kind === T.Comma) {
        this.pos++;
        continue;
      }
      if (sep.kind === T.RParen) {
        this.pos++;
        return { kind: 'list', items: this.take<ScalarValue>(base), range: { start: open.start, end: sep.end } };
      }
      this.error(DiagnosticCodes.UnclosedParenthesis, 'The value list is not closed with `)`.', open, [
        { title: 'Close the list', edits: [{ range: { start: this.prevEnd(), end: this.prevEnd() }, newText: ')' }] },
      ]);
      return { kind: 'list', items: this.take<ScalarValue>(base), range: { start: open.start, end: this.prevEnd() } };
    }
  }

  /** Reads one value token if there is one; keywords that would start the next clause are not values. */
  private scalar(tok: Token): ScalarValue | null {
    if (tok.kind === T.Word) {
      if (isWord(tok, KW.And) || isWord(tok, KW.Or) || isWord(tok, KW.Not)) return null;
      this.pos++;
      return this.scalarFromToken(tok);
    }
    if (tok.kind === T.String || tok.kind === T.Question || tok.kind === T.Named) {
      this.pos++;
      return this.scalarFromToken(tok);
    }
    if (tok.kind === T.Minus) {
      // A negative number: `-` glued to the word after it.
      const next = this.peekAt(1);
      if (next.kind === T.Word && next.start === tok.end) {
        this.pos += 2;
        const merged: Token = { ...next, start: tok.start, value: '-' + this.val(next) };
        return this.scalarFromToken(merged);
      }
    }
    return null;
  }

  private scalarFromToken(tok: Token): ScalarValue {
    const range = { start: tok.start, end: tok.end };
    if (tok.kind === T.Question) return { kind: 'placeholder', index: this.placeholderIndex++, name: null, range };
    if (tok.kind === T.Named) {
      if (this.val(tok).length === 0) this.error(DiagnosticCodes.UnexpectedToken, 'A placeholder name was expected after `@`.', tok);
      return { kind: 'placeholder', index: null, name: this.val(tok), range };
    }
    const quote = tok.kind === T.String ? (tok.quote ?? "'") : null;
    // A pooled token's text is sliced on every read: read it once.
    const value = this.val(tok);
    if (this.wildcards && tok.wild) return { kind: 'wildcard', pattern: value, quote, range };
    return { kind: 'literal', value, quote, range };
  }

  private fieldRef(by: FieldRef['by']): FieldRef {
    const fn = this.tokens[this.pos];
    this.pos += 2; // the function word and `(`
    const arg = this.peek();
    if (this.pos === this.cursorIndex && this.want()) this.expected.push({ kind: 'fieldKey', by });
    let key = '';
    let keyRange: Range;
    if (arg.kind === T.String) {
      this.pos++;
      key = this.val(arg);
      keyRange = { start: arg.start, end: arg.end };
    } else {
      keyRange = this.emptyAt(arg);
      if (arg.kind === T.Word) {
        // `FieldName(Status)`: accept the word, but say how it should be written.
        this.pos++;
        key = this.val(arg);
        keyRange = { start: arg.start, end: arg.end };
        this.error(DiagnosticCodes.MalformedFieldReference, `The argument of \`${this.val(fn)}\` must be quoted.`, arg, [
          { title: 'Quote the argument', edits: [{ range: keyRange, newText: `'${this.val(arg)}'` }] },
        ]);
      } else {
        this.error(DiagnosticCodes.MalformedFieldReference, `\`${this.val(fn)}(\` needs a quoted argument, e.g. \`${this.val(fn)}('Status')\`.`, keyRange);
      }
    }
    const close = this.peek();
    let end: number;
    if (close.kind === T.RParen) {
      this.pos++;
      end = close.end;
    } else {
      end = this.prevEnd();
      this.error(DiagnosticCodes.MalformedFieldReference, `\`)\` was expected to close \`${this.val(fn)}(\`.`, close.kind === T.EOF ? this.emptyAt(close) : close, [
        { title: 'Insert `)`', edits: [{ range: { start: end, end }, newText: ')' }] },
      ]);
    }
    const ref: FieldRef = { kind: 'field', by, key, keyRange, accessor: [], accessorRange: null, range: { start: fn.start, end } };
    const dot = this.peek();
    if (this.pos === this.cursorIndex && this.want()) this.expected.push({ kind: 'accessor', field: ref, dot: true });
    if (dot.kind === T.Dot) {
      this.pos++;
      const acc = this.peek();
      if (this.pos === this.cursorIndex && this.want()) this.expected.push({ kind: 'accessor', field: ref, dot: false });
      if (acc.kind === T.Word && acc.start === dot.end) {
        this.pos++;
        const path = this.val(acc);
        ref.accessor = hasDot(path) ? path.split('.').filter((s) => s.length > 0) : [path];
        ref.accessorRange = { start: acc.start, end: acc.end };
        ref.range = { start: fn.start, end: acc.end };
      } else {
        ref.accessorRange = { start: dot.end, end: dot.end };
        ref.range = { start: fn.start, end: dot.end };
        this.error(DiagnosticCodes.MalformedFieldReference, 'A property such as `Value` was expected after the dot.', this.emptyAt(acc.kind === T.EOF ? acc : { start: dot.end, end: dot.end }));
      }
    }
    return ref;
  }

  private sortItem(): SortItem | null {
    const tok = this.peek();
    let target: PropertyPath;
    const by = fieldFunction(tok);
    if (by !== undefined && this.peekAt(1).kind === T.LParen) target = this.fieldRef(by);
    else if (tok.kind === T.Word && !isWord(tok, KW.Asc) && !isWord(tok, KW.Desc)) {
      this.pos++;
      target = { kind: 'property', name: this.val(tok), range: { start: tok.start, end: tok.end } };
    } else {
      this.error(DiagnosticCodes.MalformedSort, `A property to sort by was expected, found ${describe(tok, this.text)}.`, tok.kind === T.EOF ? this.emptyAt(tok) : tok);
      if (tok.kind !== T.Comma && tok.kind !== T.EOF) this.pos++;
      return null;
    }
    const dir = this.peek();
    if (this.pos === this.cursorIndex && this.want()) this.expected.push({ kind: 'direction' });
    if (isWord(dir, KW.Asc) || isWord(dir, KW.Desc)) {
      this.pos++;
      return {
        kind: 'sortItem',
        target,
        direction: isWord(dir, KW.Desc) ? 'desc' : 'asc',
        explicitDirection: true,
        range: { start: target.range.start, end: dir.end },
      };
    }
    return { kind: 'sortItem', target, direction: 'asc', explicitDirection: false, range: { start: target.range.start, end: target.range.end } };
  }

  // --- helpers ----------------------------------------------------------------------------

  /**
   * Pushes an element of the list being built onto the scratch stack. Lists nest (an operand is
   * parsed before it is kept), so each list is a run at the top; `take` copies it out at its exact
   * size, where `[first]` plus `push` would allocate room for seventeen.
   */
  private keep(x: unknown): void {
    SCRATCH[this.top++] = x;
  }

  /** The list kept since `base`, as a new array; the scratch slots are cleared so they hold on to nothing. */
  private take<E>(base: number): E[] {
    const n = this.top - base;
    // Short lists (nearly all of them) as literals: cheaper than the slice builtin.
    const list = (n === 1 ? [SCRATCH[base]] : n === 2 ? [SCRATCH[base], SCRATCH[base + 1]] : SCRATCH.slice(base, this.top)) as E[];
    for (let i = base; i < this.top; i++) SCRATCH[i] = undefined;
    this.top = base;
    return list;
  }

  private startsOperand(tok: Token): boolean {
    switch (tok.kind) {
      case T.Word:
        return !isWord(tok, KW.And) && !isWord(tok, KW.Or);
      case T.EOF:
        return false;
      case T.RParen:
        return this.depth === 0;
      default:
        return true;
    }
  }

  private startsSortItem(tok: Token): boolean {
    return tok.kind === T.Word && !isWord(tok, KW.Asc) && !isWord(tok, KW.Desc);
  }

  private binary(kind: 'and' | 'or', implicit: boolean, syntax: 'keyword' | 'plus', operands: Expr[]): BinaryExpr {
    return { kind, implicit, syntax, operands, range: { start: operands[0].range.start, end: operands[operands.length - 1].range.end } };
  }

  /** A token's text (pooled tokens leave plain slices to be read on demand). */
  private val(t: Token): string {
    return t.value !== null ? t.value : tokenValue(this.text, t);
  }

  private peek(): Token {
    // Recovery never steps past EOF; the clamp keeps a slip from turning into a crash in an editor.
    return this.tokens[Math.min(this.pos, this.last)];
  }

  private peekAt(k: number): Token {
    return this.tokens[Math.min(this.pos + k, this.last)];
  }

  private prevEnd(): number {
    return this.pos > 0 ? this.tokens[this.pos - 1].end : this.begin;
  }

  private emptyAt(tok: Range): Range {
    return { start: tok.start, end: tok.start };
  }

  /**
   * Whether to record an expectation at the cursor: not once an error stood there. Callers test
   * `this.pos === this.cursorIndex` inline first, since that runs at every token and is usually false.
   */
  private want(): boolean {
    return !this.quiet;
  }

  private error(code: (typeof DiagnosticCodes)[keyof typeof DiagnosticCodes], message: string, range: Range, fixes?: QuickFix[]): void {
    // Nothing valid stood at the cursor: what recovery looks for next there is not what the user can type.
    if (this.pos === this.cursorIndex) this.quiet = true;
    this.diagnostics.push(diagnostic(code, 'error', message, { start: range.start, end: range.end }, fixes));
  }

  private result<N>(ast: N): ParseResult<N> {
    if (this.diagnostics.length > 1) this.diagnostics.sort((a, b) => a.range.start - b.range.start);
    return { ast, diagnostics: this.diagnostics, expected: dedupe(this.expected), cursorToken: this.cursorIndex >= 0 ? { ...this.tokens[this.cursorIndex], value: this.val(this.tokens[this.cursorIndex]) } : null };
  }
}

/** The token being typed at `cursor` (a word, string or name touching it), else the first token after it. */
function findCursorToken(tokens: Token[], last: number, cursor: number): number {
  let lo = 0;
  let hi = last;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tokens[mid].end < cursor) lo = mid + 1;
    else hi = mid;
  }
  // tokens[lo] is the first token ending at or after the cursor.
  const tok = tokens[lo];
  if (tok.start < cursor && cursor < tok.end) return lo;
  if (tok.start < cursor && tok.end === cursor && lo + 1 <= last) {
    // The cursor sits right after this token: it is being typed only if it is word-like.
    if (tok.kind === T.Word || tok.kind === T.Named || (tok.kind === T.String && tok.terminated === false)) return lo;
    return lo + 1;
  }
  return lo;
}

const NO_EXPECTATIONS: Expectation[] = [];

/** Whether a word holds a dot; accessors are short, so a loop beats the `indexOf` call. */
function hasDot(word: string): boolean {
  for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) === 46) return true;
  return false;
}

/** Lists under construction, shared by all parses (a parse runs to its end before the next starts). */
const SCRATCH: unknown[] = [];

function dedupe(list: Expectation[]): Expectation[] {
  if (list.length === 0) return list;
  const seen = new Set<string>();
  const out: Expectation[] = [];
  for (const e of list) {
    const key = e.kind + ('property' in e ? ':' + e.property.range.start : '') + ('operator' in e ? ':' + e.operator : '') + ('dot' in e ? ':' + e.dot : '');
    if (!seen.has(key)) {
      seen.add(key);
      out.push(e);
    }
  }
  return out;
}

function widen(e: Expr, start: number, end: number): Expr {
  return { ...e, range: { start: Math.min(start, e.range.start), end: Math.max(end, e.range.end) } } as Expr;
}

function describe(tok: Token, text: string): string {
  const value = tokenValue(text, tok);
  switch (tok.kind) {
    case T.EOF:
      return 'the end of the expression';
    case T.Word:
      return `\`${value}\``;
    case T.String:
      return 'a quoted string';
    case T.Compare:
      return `\`${value}\``;
    case T.LParen:
      return '`(`';
    case T.RParen:
      return '`)`';
    case T.Comma:
      return '`,`';
    case T.Dot:
      return '`.`';
    case T.Plus:
      return '`+`';
    case T.Minus:
      return '`-`';
    case T.Question:
      return '`?`';
    case T.Named:
      return `\`@${value}\``;
    default:
      return `\`${value}\``;
  }
}

export function parseExpression(text: string, options?: ParseOptions): ParseResult<SearchExpression> {
  return new Parser(text, options).parseSearch();
}

export function parseSort(text: string, options?: ParseOptions): ParseResult<SortExpression> {
  return new Parser(text, options).parseSort();
}

/**
 * `parseExpression` of `text.slice(begin, end)`, with every offset in `text` (see the Parser
 * constructor). One parser serves every call: a parse runs to its end before the next begins.
 */
export function parseExpressionIn(text: string, begin: number, end: number, options: ParseOptions = {}): ParseResult<SearchExpression> {
  return (shared ??= new Parser('')).reset(text, options, begin, end).parseSearch();
}

/** `parseSort` of `text.slice(begin, end)`, with every offset in `text`. */
export function parseSortIn(text: string, begin: number, end: number, options: ParseOptions = {}): ParseResult<SortExpression> {
  return (shared ??= new Parser('')).reset(text, options, begin, end).parseSort();
}

let shared: Parser | undefined;
