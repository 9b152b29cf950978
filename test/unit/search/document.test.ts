// `.dam-query` document model, offsets, parameter binding and hover.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  bindParameters,
  hover,
  hoverInDocument,
  LineIndex,
  lintDocument,
  parseDocument,
  parseExpression,
  sectionAt,
  stripRanges,
  DiagnosticCodes as C,
  type QuerySchema,
} from '../../../src/core/search';

const DOC = [
  '# file header comment',
  '### Recent images',
  '# @name recent',
  '# @target records',
  '# @sort CreatedOn desc',
  '# @param Since = 2024-01-01',
  '# @operator AND',
  'ContentType = Image',
  '# a comment inside',
  'CreatedOn > @Since',
  '',
  '### Classes',
  '# @target classifications',
  '# @wildcards off',
  "Name = 'a*'",
].join('\n');

describe('.dam-query documents', () => {
  it('splits sections and reads directives', () => {
    const { sections } = parseDocument(DOC);
    assert.equal(sections.length, 2);
    const [a, b] = sections;
    assert.equal(a.name, 'recent');
    assert.equal(a.title, 'Recent images');
    assert.equal(a.target, 'records');
    assert.equal(a.defaultOperator, 'AND');
    assert.deepEqual(a.sort && DOC.slice(a.sort.offset, a.sort.offset + a.sort.text.length), 'CreatedOn desc');
    assert.equal(a.params.Since.value, '2024-01-01');
    assert.equal(a.expression, 'ContentType = Image\n' + ' '.repeat('# a comment inside'.length) + '\nCreatedOn > @Since');
    assert.equal(DOC.slice(a.expressionOffset, a.expressionOffset + 19), 'ContentType = Image');
    assert.equal(b.name, 'Classes');
    assert.equal(b.target, 'classifications');
    assert.equal(b.wildcards, false);
    assert.equal(b.expression, "Name = 'a*'");
  });

  it('parses a section body with the section settings: wildcards off, implicit AND', () => {
    const [a, b] = parseDocument(DOC).sections;
    const body = parseExpression(a.expression, { defaultOperator: a.defaultOperator }).ast.body!;
    assert.equal(body.kind, 'and');
    const value = parseExpression(b.expression, { supportWildcards: b.wildcards }).ast.body;
    assert.equal(value?.kind === 'criterion' && value.value?.kind, 'literal');
  });

  it('a file without ### is one section', () => {
    assert.equal(parseDocument('Title = a\n').sections.length, 1);
    assert.equal(parseDocument('# only a comment\n').sections.length, 0);
  });

  it('sectionAt reads the same section parseDocument finds, at any offset', () => {
    const doc = fc.array(fc.constantFrom('### s', '# @target classifications', 'Title = a', '', '#x', 'b', '###', '  ### not a header'), { maxLength: 12 }).map((l) => l.join('\n'));
    fc.assert(
      fc.property(doc, fc.nat(), (text, n) => {
        const offset = n % (text.length + 1);
        const local = sectionAt(text, offset);
        assert.ok(local);
        assert.ok(local.range.start <= offset && (offset < local.range.end || local.range.end === text.length), 'contains the offset');
        const full = parseDocument(text).sections.find((s) => s.range.start === local.range.start);
        if (full) assert.deepEqual({ ...local, index: 0 }, { ...full, index: 0 });
      }),
      { numRuns: 1000 },
    );
  });

  it('reports directive problems and lints each section with its own settings', () => {
    const text = '### a\n# @target files\n# @bogus 1\nTitle = a\n### b\n# @target classifications\nTitle = a\n';
    const codes = lintDocument(text).map((d) => [d.code, text.slice(d.range.start, d.range.end)]);
    assert.deepEqual(codes, [
      [C.InvalidDirectiveValue, 'files'],
      [C.UnknownDirective, '@bogus'],
      [C.UnknownProperty, 'Title'],
    ]);
  });

  it('places expression diagnostics at file offsets, also past a comment inside the expression', () => {
    const lines = new LineIndex(DOC);
    const text = DOC.replace('CreatedOn > @Since', 'CreatedOn > @Sinze');
    const [d] = lintDocument(text);
    assert.equal(d.code, C.UnboundPlaceholder);
    const pos = lines.positionAt(d.range.start);
    assert.deepEqual(pos, { line: 9, character: 12 });
  });

  it('warns about an empty section with directives', () => {
    const [d] = lintDocument('### a\n# @name x\n');
    assert.equal(d.code, C.EmptyQuery);
  });
});

describe('LineIndex', () => {
  it('maps offsets to 0-based lines and columns and back', () => {
    const idx = new LineIndex('ab\ncd\n\nefg');
    assert.deepEqual(idx.positionAt(0), { line: 0, character: 0 });
    assert.deepEqual(idx.positionAt(3), { line: 1, character: 0 });
    assert.deepEqual(idx.positionAt(6), { line: 2, character: 0 });
    assert.deepEqual(idx.positionAt(10), { line: 3, character: 3 });
    assert.equal(idx.offsetAt({ line: 3, character: 1 }), 8);
    assert.equal(idx.offsetAt({ line: 0, character: 99 }), 2);
  });
});

describe('bindParameters', () => {
  it('fills positional and named placeholders (names without or with @)', () => {
    const { ast } = parseExpression('Title = ? AND Kind = @K OR Kind = @K OR Name = ?');
    const r = bindParameters(ast, ['sun*', 'x'], { '@K': 'JPG' });
    assert.deepEqual(r.diagnostics, []);
    assert.deepEqual(stripRanges(r.ast), stripRanges(parseExpression("Title = 'sun*' AND Kind = 'JPG' OR Kind = 'JPG' OR Name = 'x'").ast));
  });

  it('reports every missing value at its placeholder', () => {
    const text = 'Title = ? AND Kind = @K';
    const r = bindParameters(parseExpression(text).ast, [], {});
    assert.deepEqual(
      r.diagnostics.map((d) => [d.code, d.severity, text.slice(d.range.start, d.range.end)]),
      [
        [C.UnboundPlaceholder, 'error', '?'],
        [C.UnboundPlaceholder, 'error', '@K'],
      ],
    );
  });

  it('keeps * literal when wildcards are off', () => {
    const r = bindParameters(parseExpression('Title = ?').ast, ['a*'], {}, { supportWildcards: false });
    const body = r.ast.body;
    assert.equal(body?.kind === 'criterion' && body.value?.kind, 'literal');
  });
});

describe('hover', () => {
  const schema: QuerySchema = { fields: [{ name: 'Status', label: 'Approval', dataType: 'OptionList', options: [{ name: 'Approved' }] }] };

  it('describes a property: type and allowed operators', () => {
    const h = hover('x AND CreatedOn >= 2024-01-01', 8)!;
    assert.deepEqual(h.range, { start: 6, end: 15 });
    assert.match(h.contents, /DateTime/);
    assert.match(h.contents, /`>=`/);
    assert.doesNotMatch(h.contents, /contains/);
  });

  it('describes a field: data type and label', () => {
    const h = hover("FieldName('Status').Value = Approved", 3, { schema })!;
    assert.match(h.contents, /OptionList/);
    assert.match(h.contents, /Approval/);
  });

  it('explains keywords and directives', () => {
    assert.match(hover('a or b', 3)!.contents, /OR/);
    const doc = '### x\n# @wildcards off\nTitle = a';
    assert.match(hoverInDocument(doc, doc.indexOf('@wildcards') + 2)!.contents, /supportWildcards/);
    assert.match(hoverInDocument(doc, doc.indexOf('Title') + 1)!.contents, /String/);
  });
});
