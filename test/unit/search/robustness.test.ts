// Property-based robustness: random token soup and random characters never throw and stay within bounds.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  complete,
  completeInDocument,
  diagnoseExpression,
  diagnoseSort,
  formatExpression,
  hover,
  lintDocument,
  walkExpr,
  type Diagnostic,
  type Range,
} from '../../../src/core/search';
import { soup } from './soup';

const chars = fc.string({ unit: fc.constantFrom(...'Ti=<>!()\'"\\,.*?@-+# \n\tANDORNOTin;/'.split('')), maxLength: 40 });
const anyText = fc.oneof(soup, chars, fc.string({ maxLength: 30 }));

function inBounds(r: Range, length: number, what: string): void {
  assert.ok(Number.isInteger(r.start) && Number.isInteger(r.end), `${what}: integer offsets`);
  assert.ok(0 <= r.start && r.start <= r.end && r.end <= length, `${what}: ${JSON.stringify(r)} outside 0..${length}`);
}

function diagnosticsInBounds(ds: Diagnostic[], length: number): void {
  for (const d of ds) {
    inBounds(d.range, length, d.code);
    assert.match(d.code, /^DQ[1-4]\d{3}$/);
    assert.ok(d.message.length > 0);
    for (const f of d.fixes ?? []) for (const e of f.edits) inBounds(e.range, length, `${d.code} fix`);
  }
}

describe('query robustness (fast-check)', () => {
  it('diagnoses any text without throwing; every range lies inside the text', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const { ast, diagnostics } = diagnoseExpression(text);
        diagnosticsInBounds(diagnostics, text.length);
        walkExpr(ast.body, (e) => inBounds(e.range, text.length, e.kind));
        diagnosticsInBounds(diagnoseSort(text).diagnostics, text.length);
      }),
      { numRuns: 3000 },
    );
  });

  it('completes and hovers at every offset of any text', () => {
    fc.assert(
      fc.property(anyText, fc.nat(), (text, n) => {
        const offset = n % (text.length + 1);
        for (const item of complete(text, offset)) inBounds(item.range, text.length, item.label);
        for (const item of complete(text, offset, { mode: 'sort' })) inBounds(item.range, text.length, item.label);
        const h = hover(text, offset);
        if (h) inBounds(h.range, text.length, 'hover');
        assert.equal(typeof formatExpression(text), 'string');
      }),
      { numRuns: 1000 },
    );
  });

  it('lints and completes any .dam-query document', () => {
    const doc = fc.array(fc.oneof(anyText, fc.constantFrom('### q', '# @target classifications', '# @sort Title desc', '# @param P = 1', '# @wildcards off', '# @operator AND', '# @x')), { maxLength: 8 }).map((l) => l.join('\n'));
    fc.assert(
      fc.property(doc, fc.nat(), (text, n) => {
        diagnosticsInBounds(lintDocument(text), text.length);
        const offset = n % (text.length + 1);
        for (const item of completeInDocument(text, offset)) inBounds(item.range, text.length, item.label);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('every single character', () => {
  // A control character once stopped the lexer from advancing (an endless loop on one request).
  it('alone, as a value and inside a word, ends in bounded time with diagnostics in bounds', () => {
    for (let code = 0; code < 0x3000; code++) {
      const ch = String.fromCharCode(code);
      for (const text of [ch, `Title = a${ch}b`, `Title ${ch} x`, `${ch}${ch}`]) {
        const { diagnostics } = diagnoseExpression(text);
        diagnosticsInBounds(diagnostics, text.length);
      }
    }
  });

  it('reports a control character by its code point', () => {
    const { diagnostics } = diagnoseExpression('Title = a\u0000b');
    const d = diagnostics.find((x) => x.message.includes('U+0000'));
    assert.ok(d, JSON.stringify(diagnostics));
    assert.deepEqual(d.range, { start: 9, end: 10 });
  });
});
