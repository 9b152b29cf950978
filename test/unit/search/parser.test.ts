// Parser tables: input → tree (ranges stripped), plus the ranges the editor relies on.
import { strict as assert } from 'node:assert';
import { parseExpression, parseSort, stripRanges, type Expr, type SearchExpression } from '../../../src/core/search';

const lit = (value: string, quote: '"' | "'" | null = null) => ({ kind: 'literal', value, quote });
const prop = (name: string) => ({ kind: 'property', name });
const crit = (property: object, op: string, value: object | null) => ({ kind: 'criterion', property, operator: { op }, value });
const and = (...operands: object[]) => ({ kind: 'and', implicit: false, syntax: 'keyword', operands });
const or = (...operands: object[]) => ({ kind: 'or', implicit: false, syntax: 'keyword', operands });
const text = (value: object) => ({ kind: 'text', value });

function tree(input: string, options = {}): unknown {
  const r = parseExpression(input, options);
  assert.deepEqual(r.diagnostics, [], `unexpected diagnostics for ${input}: ${JSON.stringify(r.diagnostics)}`);
  return stripRanges((r.ast as SearchExpression).body);
}

describe('query parser', () => {
  const table: [string, unknown][] = [
    ['Title = sunset', crit(prop('Title'), '=', lit('sunset'))],
    ["Title = 'sunset beach'", crit(prop('Title'), '=', lit('sunset beach', "'"))],
    ['Title = "sunset beach"', crit(prop('Title'), '=', lit('sunset beach', '"'))],
    ['title=abc', crit(prop('title'), '=', lit('abc'))],
    ['FileCount>=3', crit(prop('FileCount'), '>=', lit('3'))],
    ['Title <> ""', crit(prop('Title'), '<>', lit('', '"'))],
    ['CreatedOn in today', crit(prop('CreatedOn'), 'in', lit('today'))],
    ['Title CONTAINS report', crit(prop('Title'), 'contains', lit('report'))],
    ['CreatedOn > 2024-05-01T10:00:00Z', crit(prop('CreatedOn'), '>', lit('2024-05-01T10:00:00Z'))],
    ['FileCount > -1', crit(prop('FileCount'), '>', lit('-1'))],
    ['Name = a*', crit(prop('Name'), '=', { kind: 'wildcard', pattern: 'a*', quote: null })],
    ["Title = 'wh?t'", crit(prop('Title'), '=', { kind: 'wildcard', pattern: 'wh?t', quote: "'" })],
    ['Title = ?', crit(prop('Title'), '=', { kind: 'placeholder', index: 0, name: null })],
    ['Title = @Title', crit(prop('Title'), '=', { kind: 'placeholder', index: null, name: 'Title' })],
    ['Title = ? OR Title = ?', or(crit(prop('Title'), '=', { kind: 'placeholder', index: 0, name: null }), crit(prop('Title'), '=', { kind: 'placeholder', index: 1, name: null }))],
    ['NamePath = \\/Root\\/A', crit(prop('NamePath'), '=', lit('\\/Root\\/A'))],
    ["Title = 'it\\'s'", crit(prop('Title'), '=', lit("it's", "'"))],
    ['*', { kind: 'matchAll' }],
    ['sunset', text(lit('sunset'))],
    ['"sunset beach"', text(lit('sunset beach', '"'))],
    ['a AND b', and(text(lit('a')), text(lit('b')))],
    ['a and b', and(text(lit('a')), text(lit('b')))],
    ['a + b', { kind: 'and', implicit: false, syntax: 'plus', operands: [text(lit('a')), text(lit('b'))] }],
    ['a OR b AND c', or(text(lit('a')), and(text(lit('b')), text(lit('c'))))],
    ['(a OR b) AND c', and(or(text(lit('a')), text(lit('b'))), text(lit('c')))],
    ['a AND (b AND c)', and(text(lit('a')), and(text(lit('b')), text(lit('c'))))],
    ['NOT a', { kind: 'not', syntax: 'keyword', operand: text(lit('a')) }],
    ['-Kind = PNG', { kind: 'not', syntax: 'minus', operand: crit(prop('Kind'), '=', lit('PNG')) }],
    ['not not a', { kind: 'not', syntax: 'keyword', operand: { kind: 'not', syntax: 'keyword', operand: text(lit('a')) } }],
    ['a b', { kind: 'or', implicit: true, syntax: 'keyword', operands: [text(lit('a')), text(lit('b'))] }],
    ['a b OR c', or({ kind: 'or', implicit: true, syntax: 'keyword', operands: [text(lit('a')), text(lit('b'))] }, text(lit('c')))],
    ['Kind = JPG "sunset"', { kind: 'or', implicit: true, syntax: 'keyword', operands: [crit(prop('Kind'), '=', lit('JPG')), text(lit('sunset', '"'))] }],
    [
      'Id in (a1, ?, @X)',
      crit(prop('Id'), 'in', { kind: 'list', items: [lit('a1'), { kind: 'placeholder', index: 0, name: null }, { kind: 'placeholder', index: null, name: 'X' }] }),
    ],
    [
      "FieldName('Status').Value = 'Approved'",
      crit({ kind: 'field', by: 'name', key: 'Status', accessor: ['Value'] }, '=', lit('Approved', "'")),
    ],
    [
      "fieldid('abc').Option.Name = Red",
      crit({ kind: 'field', by: 'id', key: 'abc', accessor: ['Option', 'Name'] }, '=', lit('Red')),
    ],
    [
      'FieldLabel("Release date").UtcValue >= 2024-01-01',
      crit({ kind: 'field', by: 'label', key: 'Release date', accessor: ['UtcValue'] }, '>=', lit('2024-01-01')),
    ],
    // A field's label as a quoted property (ChickenMSalad/MigrationBaseSolution AprimoAssetClient.cs); alone, a quoted
    // string stays full text (above).
    [" 'AEM Asset ID' = 'x-1' AND fileCount = 0", and(crit({ kind: 'field', by: 'label', quoted: true, key: 'AEM Asset ID', accessor: [] }, '=', lit('x-1', "'")), crit(prop('fileCount'), '=', lit('0')))],
    ['"Usage rights" contains licensed', crit({ kind: 'field', by: 'label', quoted: true, key: 'Usage rights', accessor: [] }, 'contains', lit('licensed'))],
  ];
  for (const [input, expected] of table) {
    it(`parses ${input}`, () => assert.deepEqual(tree(input), expected));
  }

  it('joins side-by-side criteria at AND precedence when the default operator is AND', () => {
    assert.deepEqual(tree('a b OR c', { defaultOperator: 'AND' }), or({ kind: 'and', implicit: true, syntax: 'keyword', operands: [text(lit('a')), text(lit('b'))] }, text(lit('c'))));
  });

  it('takes * and ? literally when wildcards are off', () => {
    assert.deepEqual(tree('Title = a*', { supportWildcards: false }), crit(prop('Title'), '=', lit('a*')));
  });

  it('keeps source ranges of every part of a criterion', () => {
    const input = "x AND FieldName('S').Value = 'A'";
    const body = parseExpression(input).ast.body as Expr & { kind: 'and' };
    const c = body.operands[1];
    assert.equal(c.kind, 'criterion');
    if (c.kind !== 'criterion' || c.property.kind !== 'field' || !c.operator || !c.value) throw new Error('shape');
    assert.equal(input.slice(c.range.start, c.range.end), "FieldName('S').Value = 'A'");
    assert.equal(input.slice(c.property.keyRange.start, c.property.keyRange.end), "'S'");
    assert.equal(input.slice(c.property.accessorRange!.start, c.property.accessorRange!.end), 'Value');
    assert.equal(input.slice(c.operator.range.start, c.operator.range.end), '=');
    assert.equal(input.slice(c.value.range.start, c.value.range.end), "'A'");
  });

  it('widens a parenthesized group to its parentheses', () => {
    const body = parseExpression('(a OR b)').ast.body!;
    assert.deepEqual(body.range, { start: 0, end: 8 });
  });

  it('still yields a tree for a half-typed query', () => {
    const r = parseExpression("Title = 'x' AND FieldName('St");
    assert.ok(r.diagnostics.length > 0);
    const body = r.ast.body as Expr & { kind: 'and' };
    assert.equal(body.kind, 'and');
    assert.equal(body.operands.length, 2);
    assert.equal(body.operands[1].kind, 'criterion');
  });

  const sorts: [string, unknown][] = [
    ['Title', [{ kind: 'sortItem', target: prop('Title'), direction: 'asc', explicitDirection: false }]],
    [
      'Title, CreatedOn desc',
      [
        { kind: 'sortItem', target: prop('Title'), direction: 'asc', explicitDirection: false },
        { kind: 'sortItem', target: prop('CreatedOn'), direction: 'desc', explicitDirection: true },
      ],
    ],
    ['Rank DESC', [{ kind: 'sortItem', target: prop('Rank'), direction: 'desc', explicitDirection: true }]],
    [
      "FieldName('x').Value desc",
      [{ kind: 'sortItem', target: { kind: 'field', by: 'name', key: 'x', accessor: ['Value'] }, direction: 'desc', explicitDirection: true }],
    ],
  ];
  for (const [input, expected] of sorts) {
    it(`parses sort ${input}`, () => {
      const r = parseSort(input);
      assert.deepEqual(r.diagnostics, []);
      assert.deepEqual(stripRanges(r.ast.items), expected);
    });
  }
});
