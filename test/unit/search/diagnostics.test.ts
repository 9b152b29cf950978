// Diagnostic tables: input → codes with the exact range they point at, and the quick fixes offered.
import { strict as assert } from 'node:assert';
import { DiagnosticCodes as C, diagnoseExpression, diagnoseSort, type DiagnoseOptions, type QuerySchema } from '../../../src/core/search';

/** `[code, the text the range covers]`; the marked text must appear once in the input (or '' for an empty range at the end). */
type Expected = [string, string];

function check(input: string, expected: Expected[], options: DiagnoseOptions = {}): void {
  const got = diagnoseExpression(input, options).diagnostics.map((d) => [d.code, input.slice(d.range.start, d.range.end)]);
  assert.deepEqual(got, expected, input);
}

const schema: QuerySchema = {
  fields: [
    { id: '614c068cab7c4603bbddae8200d2722a', name: 'Status', label: 'Approval status', dataType: 'OptionList', options: [{ name: 'Approved' }, { name: 'Draft' }, { name: 'Rejected' }] },
    { name: 'ReleaseDate', label: 'Release date', dataType: 'Date' },
    { name: 'Budget', dataType: 'Numeric' },
  ],
  classifications: ['Products', 'Brand Assets'],
};

describe('query diagnostics', () => {
  const table: [string, Expected[], DiagnoseOptions?][] = [
    ['Title = sunset', []],
    ["Title = 'sunset", [[C.UnterminatedString, "'sunset"]]],
    ['Title = a ; b', [[C.UnexpectedCharacter, ';']]],
    ['Title != a', [[C.ForeignOperator, '!=']]],
    ['Title == a', [[C.ForeignOperator, '==']]],
    ['Title = a\\', [[C.DanglingEscape, '\\']]],
    ['Title =', [[C.MissingValue, '']]],
    ['Title = a AND', [[C.UnexpectedEnd, '']]],
    ['OR a', [[C.MissingOperand, 'OR']]],
    ['(a', [[C.UnclosedParenthesis, '(']]],
    ['a)', [[C.UnmatchedParenthesis, ')']]],
    ["FieldName(Status).Value = x", [[C.MalformedFieldReference, 'Status']]],
    ["FieldName('Status').Value", [[C.MissingOperator, '']]],
    ['= a', [[C.UnexpectedToken, '=']]],
    ['Titel = a', [[C.UnknownProperty, 'Titel']]],
    ['parent.id = 5', [[C.UnknownProperty, 'parent.id']]],
    ['CreatedOn contains 2024', [[C.OperatorNotAllowed, 'contains']]],
    ['Id >= 614c068cab7c4603bbddae8200d2722a', [[C.OperatorNotAllowed, '>=']]],
    ['IsMaster > true', [[C.OperatorNotAllowed, '>']]],
    ['CreatedOn in yesterday', [[C.DateInOnlyToday, 'yesterday']]],
    ['CreatedOn in TODAY', []],
    ['CreatedOn > 2024-02-30', [[C.InvalidValue, '2024-02-30']]],
    ['CreatedOn > 2024-02-29T10:00:00Z', []],
    ['CreatedOn > 2/3/2024', [[C.LegacyDateFormat, '2/3/2024']]],
    ['FileCount = ten', [[C.InvalidValue, 'ten']]],
    ['IsMaster = yes', [[C.InvalidValue, 'yes']]],
    ['Id = 42', [[C.InvalidValue, '42']]],
    ['Id = 614c068c-ab7c-4603-bbdd-ae8200d2722a', []],
    ['ContentType contains Im', [[C.ContainsNotListed, 'contains']]],
    ['CreatedOn = 2024*', [[C.WildcardIgnored, '2024*'], [C.InvalidValue, '2024*']]],
    ['ModifiedOn <> ""', []],
    // No accessor compares the value, as `.Value` does (real-service-notes).
    ["FieldName('Status') = x", []],
    ["FieldName('Status').Vlue = x", [[C.InvalidAccessor, 'Vlue']]],
    ["FieldName('Status').Option.Name > x", []],
    ["FieldName('x').Option.Id contains y", [[C.OperatorNotAllowed, 'contains']]],
    ['Title = ?', [[C.PlaceholderNotAllowed, '?']], { allowPlaceholders: false }],
    ['Title = @T', [[C.PlaceholderNotAllowed, '@T']], { allowPlaceholders: false }],
    ['Title = @T', [[C.UnboundPlaceholder, '@T']], { boundNames: new Set(['X']) }],
    ['Title = @T', [], { boundNames: new Set(['T']) }],
    ['Label = a', [[C.UnknownProperty, 'Label']]],
    ['Label = a', [], { target: 'classifications' }],
    // With a schema: fields, accessors per data type, options and classifications.
    ["FieldName('Status').Value = 'Aproved'", [[C.UnknownOption, "'Aproved'"]], { schema }],
    ["FieldName('Status').Value = 'approved'", [], { schema }],
    ["FieldName('Stauts').Value = x", [[C.UnknownField, "'Stauts'"]], { schema }],
    ["FieldLabel('Release date').Option.Name = x", [[C.InvalidAccessor, 'Option.Name']], { schema }],
    ["FieldName('ReleaseDate').Value contains 2024", [[C.OperatorNotAllowed, 'contains']], { schema }],
    ["FieldName('Budget').Value >= lots", [[C.InvalidValue, 'lots']], { schema }],
    ["FieldId('614c068c-ab7c-4603-bbdd-ae8200d2722a').Option.Name = Draft", [], { schema }],
    ["Classification = 'Prodcts'", [[C.UnknownClassification, "'Prodcts'"]], { schema }],
    ['Classification = Products', [], { schema }],
  ];
  for (const [input, expected, options] of table) {
    it(`${input}${options ? ' (' + Object.keys(options).join(', ') + ')' : ''} → ${expected.map((e) => e[0]).join(', ') || 'clean'}`, () => check(input, expected, options));
  }

  it('offers `>=` for contains on a date, as a ready edit', () => {
    const [d] = diagnoseExpression('CreatedOn contains 2024').diagnostics;
    assert.equal(d.severity, 'error');
    assert.equal(d.phase, 'semantic');
    assert.equal(d.source, 'dam-query');
    assert.deepEqual(d.fixes, [{ title: 'Use `>=`', edits: [{ range: { start: 10, end: 18 }, newText: '>=' }] }]);
  });

  it('offers the first day for a year or a month that is not a date (the next fix after `>=`)', () => {
    const [year] = diagnoseExpression('CreatedOn >= 2024').diagnostics;
    assert.deepEqual(year.fixes, [{ title: 'Write `2024-01-01`', edits: [{ range: { start: 13, end: 17 }, newText: '2024-01-01' }] }]);
    const [month] = diagnoseExpression("CreatedOn >= '2024-05'").diagnostics;
    assert.equal(month.fixes?.[0].edits[0].newText, "'2024-05-01'");
    assert.equal(diagnoseExpression('CreatedOn >= 2024-13').diagnostics[0].fixes, undefined);
  });

  // Issue 35: `Title startswith Gol` got no diagnostic at all (three words of full text that match nothing).
  const foreign: [string, string, string][] = [
    ['Title startswith Gol', 'startswith', '= Gol*'],
    ['Title beginswith "Gol"', 'beginswith', '= "Gol*"'],
    ["Title like 'Gol%'", 'like', "= 'Gol*'"],
    ['Title has harbour', 'has', 'contains harbour'],
    ['ModifiedOn gt 2025-01-01', 'gt', '> 2025-01-01'],
    ["FieldName('Status') eq Approved", 'eq', '= Approved'],
  ];
  for (const [text, word, fix] of foreign) {
    it(`\`${text}\` is an error that names \`${word}\` and offers \`${fix}\``, () => {
      const found = diagnoseExpression(text, { schema }).diagnostics.filter((d) => d.code === C.UnknownOperator);
      assert.equal(found.length, 1, JSON.stringify(diagnoseExpression(text, { schema }).diagnostics));
      assert.equal(found[0].severity, 'error');
      assert.match(found[0].message, new RegExp(`^\`${word}\` is not an operator of search expressions: did you mean`));
      assert.equal(found[0].fixes?.[0].edits[0].newText, fix);
    });
  }

  it('full text that only looks like an operator stays full text', () => {
    assert.deepEqual(diagnoseExpression('sunset like gold').diagnostics.filter((d) => d.severity === 'error'), []);
  });

  it('suggests the nearest option and property', () => {
    const [opt] = diagnoseExpression("FieldName('Status').Value = 'Aproved'", { schema }).diagnostics;
    assert.equal(opt.severity, 'warning');
    assert.equal(opt.fixes?.[0].edits[0].newText, "'Approved'");
    const [p] = diagnoseExpression('Titel = a').diagnostics;
    assert.equal(p.severity, 'warning');
    assert.equal(p.fixes?.[0].edits[0].newText, 'Title');
  });

  // Second walk of issue 27: `Title contains harbour` and `Status = Released` on two lines found 368 records that
  // were not about harbours, with no word why (the lines were joined by the default OR).
  it('criteria side by side are a hint that they are joined by OR, with fixes that write AND or OR', () => {
    const text = 'Title contains harbour\nStatus = Released';
    const [d, ...rest] = diagnoseExpression(text).diagnostics;
    assert.deepEqual(rest, []);
    assert.equal(d?.code, C.ImplicitOperator);
    assert.equal(d.severity, 'info');
    assert.equal(text.slice(d.range.start, d.range.end), 'Status = Released');
    assert.match(d.message, /joined by OR \(the default\), so records matching either one are found\. Write AND to need both/);
    assert.deepEqual(d.fixes?.map((f) => [f.title, f.edits[0].range.start, f.edits[0].newText]), [
      ['Join with AND', 23, 'AND '],
      ['Join with OR', 23, 'OR '],
    ]);
    // Words side by side are a word search; written operators, and joins the query made AND, say what they mean.
    for (const quiet of ['harbour sunset', '"children\'s" harbour', 'Title contains harbour AND Status = Released', 'Title contains harbour OR Status = Released']) {
      assert.deepEqual(diagnoseExpression(quiet).diagnostics, [], quiet);
    }
    assert.deepEqual(diagnoseExpression(text, { defaultOperator: 'AND' }).diagnostics, []);
    assert.equal(diagnoseExpression('harbour Status = Released').diagnostics[0]?.code, C.ImplicitOperator);
  });

  // Issue 27, item 8: `Status = Relesed` quietly found 0 records.
  it('a content status that is none of the three is a warning with a fix to the closest', () => {
    const [d] = diagnoseExpression('Status = Relesed').diagnostics;
    assert.equal(d?.code, C.UnknownContentStatus);
    assert.equal(d.severity, 'warning');
    assert.match(d.message, /'Relesed' is not a content status, so no record matches\. Did you mean 'Released'\?/);
    assert.equal(d.fixes?.[0].edits[0].newText, 'Released');
    assert.equal(diagnoseExpression("ContentStatus = 'archivd'").diagnostics[0]?.fixes?.[0].edits[0].newText, "'Archived'");
    for (const ok of ['Status = Released', 'ContentStatus = draft', 'Status in (Draft, Archived)', 'Status <> ""']) assert.deepEqual(diagnoseExpression(ok).diagnostics, [], ok);
  });

  it('groups codes by phase', () => {
    const phases = (s: string) => diagnoseExpression(s).diagnostics.map((d) => d.phase);
    assert.deepEqual(phases("Title = 'a"), ['lexical']);
    assert.deepEqual(phases('Title ='), ['syntax']);
    assert.deepEqual(phases('FileCount = x'), ['semantic']);
  });

  const sortTable: [string, Expected[]][] = [
    ['Title, CreatedOn desc', []],
    ['Rank desc', []],
    ['FileCount', [[C.NotSortable, 'FileCount']]],
    ['Title,', [[C.MalformedSort, '']]],
    ['Title Kind', [[C.MalformedSort, 'Kind'], [C.NotSortable, 'Kind']]],
    ['Title Foo', [[C.MalformedSort, 'Foo'], [C.UnknownProperty, 'Foo']]],
    ["FieldName('x')", []],
  ];
  for (const [input, expected] of sortTable) {
    it(`sort ${input} → ${expected.map((e) => e[0]).join(', ') || 'clean'}`, () => {
      const got = diagnoseSort(input).diagnostics.map((d) => [d.code, input.slice(d.range.start, d.range.end)]);
      assert.deepEqual(got, expected);
    });
  }
});
