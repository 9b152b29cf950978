// Limits of the search language and the lexer's control characters: deep nesting, long expressions and control
// characters are diagnostics (the same in the editor, `dam lint` and the emulator), never a stack overflow or a hang.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  DiagnosticCodes,
  LIMITS,
  complete,
  diagnoseExpression,
  formatExpression,
  hover,
  lintDocument,
  parseExpression,
  parseSort,
  walkExpr,
} from '../../../src/core/search';
import { T, lex } from '../../../src/core/search/lexer';

const nested = (depth: number, inner = "Title = 'x'") => `${'('.repeat(depth)}${inner}${')'.repeat(depth)}`;
const nots = (count: number) => `${'NOT '.repeat(count)}Title = 'x'`;
const codes = (text: string) => parseExpression(text).diagnostics.map((d) => d.code);

describe('search expression limits', () => {
  it('parses nesting up to the limit, parentheses and NOT counted together, with no diagnostic', () => {
    for (const text of [nested(LIMITS.maxNesting), nots(LIMITS.maxNesting), nested(LIMITS.maxNesting / 2, nots(LIMITS.maxNesting / 2))]) {
      assert.deepEqual(codes(text), []);
      // Every layer that walks the tree copes with the deepest tree allowed.
      assert.deepEqual(diagnoseExpression(text).diagnostics.filter((d) => d.severity === 'error'), []);
      assert.equal(typeof formatExpression(text), 'string');
      walkExpr(parseExpression(text).ast.body, () => undefined);
    }
  });

  it('one level more is DQ2011, reported once at the token past the limit', () => {
    const text = nested(LIMITS.maxNesting + 1);
    const { diagnostics, ast } = parseExpression(text);
    assert.deepEqual(diagnostics.map((d) => d.code), [DiagnosticCodes.NestingTooDeep]);
    assert.deepEqual(diagnostics[0].range, { start: LIMITS.maxNesting, end: LIMITS.maxNesting + 1 });
    assert.match(diagnostics[0].message, /nested more than 256 deep/);
    assert.ok(ast.body);
    assert.deepEqual(codes(nots(LIMITS.maxNesting + 1)), [DiagnosticCodes.NestingTooDeep]);
    assert.deepEqual(codes(nested(LIMITS.maxNesting, '-Title = x')), [DiagnosticCodes.NestingTooDeep]);
  });

  it('9,000 nested parentheses or 4,000 NOTs (once a stack overflow, an SQL refusal) are one diagnostic, in every layer', () => {
    for (const text of [nested(9_000), nots(4_000), '('.repeat(19_000)]) {
      assert.ok(text.length <= LIMITS.maxLength);
      assert.ok(codes(text).includes(DiagnosticCodes.NestingTooDeep), text.slice(0, 20));
      assert.ok(diagnoseExpression(text).diagnostics.some((d) => d.code === DiagnosticCodes.NestingTooDeep));
      assert.equal(typeof formatExpression(text), 'string');
      complete(text, text.length);
      hover(text, 5);
    }
  });

  it('a text longer than the limit is DQ2010 and is not parsed further', () => {
    const text = "Title = 'x' OR ".repeat(Math.ceil(LIMITS.maxLength / 15) + 1);
    assert.ok(text.length > LIMITS.maxLength);
    const { diagnostics, ast } = parseExpression(text);
    assert.deepEqual(diagnostics.map((d) => d.code), [DiagnosticCodes.ExpressionTooLong]);
    assert.match(diagnostics[0].message, /is 20,0\d\d characters long; at most 20,000 are allowed/);
    assert.equal(ast.body?.kind, 'error');
    assert.deepEqual(parseSort('Title asc, '.repeat(2000)).diagnostics.map((d) => d.code), [DiagnosticCodes.ExpressionTooLong]);
    assert.deepEqual(codes("Title = 'x' OR ".repeat(1300)).filter((c) => c !== DiagnosticCodes.MissingOperand && c !== DiagnosticCodes.UnexpectedEnd), []);
  });

  it('dam lint reports a 3,000-deep file (once a RangeError) with its line and column', () => {
    const diagnostics = lintDocument(`# @name deep\n${nested(3000)}\n`);
    const deep = diagnostics.find((d) => d.code === DiagnosticCodes.NestingTooDeep);
    assert.ok(deep, JSON.stringify(diagnostics.map((d) => d.code)));
    assert.equal(deep.range.start, '# @name deep\n'.length + LIMITS.maxNesting);
  });
});

describe('control characters', () => {
  const CONTROLS = [...Array.from({ length: 32 }, (_, c) => c).filter((c) => ![9, 10, 11, 12, 13].includes(c)), 127];

  it('are DQ1005 wherever they stand: between tokens, inside a word, a quoted string, an escape or a placeholder', () => {
    for (const code of CONTROLS) {
      const ch = String.fromCharCode(code);
      for (const [text, at] of [[`Title ${ch} x`, 6], [`Title = a${ch}b`, 9], [`Title = 'a${ch}b'`, 10], [`Title = a\\${ch}`, 10], [`Title = "${ch}"`, 9]] as const) {
        const found = parseExpression(text).diagnostics.filter((d) => d.code === DiagnosticCodes.ControlCharacter);
        assert.equal(found.length, 1, `${JSON.stringify(text)}: ${JSON.stringify(parseExpression(text).diagnostics)}`);
        assert.deepEqual(found[0].range, { start: at, end: at + 1 });
        assert.match(found[0].message, new RegExp(`U\\+${code.toString(16).toUpperCase().padStart(4, '0')}`));
      }
    }
    assert.ok(parseSort(`Title\u0001 desc`).diagnostics.some((d) => d.code === DiagnosticCodes.ControlCharacter));
    assert.deepEqual(codes("Title = 'a\tb'\r\n AND Name = x"), [], 'tab and line breaks are white space');
  });

  it('the lexer always ends, and every token but EOF moves it forward (fast-check)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)), fc.constantFrom('\u00a0', 'é', '\\', "'", '"')), maxLength: 60 }), (text) => {
        const { tokens, count } = lex(text);
        assert.ok(count <= text.length + 1);
        let at = 0;
        for (let i = 0; i < count - 1; i++) {
          assert.ok(tokens[i].start >= at && tokens[i].end > tokens[i].start, `token ${i} of ${JSON.stringify(text)} does not advance`);
          at = tokens[i].end;
        }
        assert.equal(tokens[count - 1].kind, T.EOF);
        assert.equal(tokens[count - 1].start, text.length);
      }),
      { numRuns: 5000 },
    );
  });
});
