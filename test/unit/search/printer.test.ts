// Printer and formatter: canonical layout tables, and the property parse(print(ast)) = ast over random token soup.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { soup } from './soup';
import { formatDocument, formatExpression, parseExpression, printExpression, printSort, parseSort, stripRanges, type ParseOptions } from '../../../src/core/search';

function roundTrips(text: string, options: ParseOptions): void {
  const first = parseExpression(text, options);
  if (first.diagnostics.length > 0) return;
  const printed = printExpression(first.ast);
  const second = parseExpression(printed, options);
  assert.deepEqual(second.diagnostics, [], `printed ${JSON.stringify(printed)} from ${JSON.stringify(text)}`);
  assert.deepEqual(stripRanges(second.ast), stripRanges(first.ast), `printed ${JSON.stringify(printed)} from ${JSON.stringify(text)}`);
  const formatted = formatExpression(text, { ...options, width: 20 });
  assert.deepEqual(stripRanges(parseExpression(formatted, options).ast), stripRanges(first.ast), `formatted ${JSON.stringify(formatted)}`);
}

describe('query printer', () => {
  const canonical: [string, string][] = [
    ['title=abc and kind = jpg', 'title = abc AND kind = jpg'],
    ['a or b and not c', 'a OR b AND NOT c'],
    ['(a or b) and c', '(a OR b) AND c'],
    ['a and (b and c)', 'a AND (b AND c)'],
    ['a b or c', 'a b OR c'],
    ['a + -b', 'a + -b'],
    ["fieldname(\"x\").value CONTAINS 'it\\'s'", "FieldName('x').value contains 'it\\'s'"],
    ['Id IN (a,b ,  ?)', 'Id in (a, b, ?)'],
    ['NOT (a OR b)', 'NOT (a OR b)'],
    ['"sunset"   *', '"sunset" *'],
    ["'AEM Asset ID'='x'", "'AEM Asset ID' = 'x'"],
  ];
  for (const [input, expected] of canonical) {
    it(`prints ${input} as ${expected}`, () => assert.equal(printExpression(parseExpression(input).ast), expected));
  }

  it('prints sorts', () => {
    assert.equal(printSort(parseSort("title ,  createdOn DESC, FieldName('p').Value").ast), "title, createdOn desc, FieldName('p').Value");
  });

  it('puts one criterion per line past the width, keywords leading', () => {
    const text = "Title = 'sunset beach' and ContentType = Image and (Kind = JPG or Kind = PNG) or ModifiedOn in today";
    assert.equal(
      formatExpression(text, { width: 40 }),
      ["Title = 'sunset beach'", '  AND ContentType = Image', '  AND (Kind = JPG OR Kind = PNG)', 'OR ModifiedOn in today'].join('\n'),
    );
  });

  it('breaks a long group over indented lines', () => {
    const text = "(Title = 'a long title here' or Title = 'another long title') and Kind = JPG";
    assert.equal(formatExpression(text, { width: 30 }), ['(', "  Title = 'a long title here'", "  OR Title = 'another long title'", ')', 'AND Kind = JPG'].join('\n'));
  });

  it('indents an AND chain that continues under an OR', () => {
    const text = "Title = 'first long title' and Kind = JPG or Title = 'second long title' and Kind = PNG";
    assert.equal(
      formatExpression(text, { width: 30 }),
      ["Title = 'first long title'", '  AND Kind = JPG', "OR Title = 'second long title'", '  AND Kind = PNG'].join('\n'),
    );
  });

  it('leaves text with syntax errors alone', () => {
    assert.equal(formatExpression('title = and ('), 'title = and (');
  });

  it('formats every section of a document, keeping directives and comments', () => {
    const doc = '# top\n### q\n# @sort title ,createdOn DESC\ntitle=a and kind=b\n\n### broken\nTitle = (\n';
    assert.equal(formatDocument(doc), '# top\n### q\n# @sort title, createdOn desc\ntitle = a AND kind = b\n\n### broken\nTitle = (\n');
  });

  it('parse(print(ast)) equals ast for random token soup', () => {
    fc.assert(fc.property(soup, (text) => roundTrips(text, {})), { numRuns: 3000 });
  });

  it('parse(print(ast)) equals ast with default AND and wildcards off', () => {
    fc.assert(fc.property(soup, (text) => roundTrips(text, { defaultOperator: 'AND', supportWildcards: false })), { numRuns: 1500 });
  });

  it('round-trips hand-picked tricky inputs', () => {
    for (const t of ['\\and = \\or', 'a\\ b = "x"', "FieldName('a\\'b').Value = 'c'", 'x = -5 -y', 'NamePath = \\/A\\/B', '\\-a', 'a (b c) d']) roundTrips(t, {});
  });
});
