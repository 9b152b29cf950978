// Completion tests: `|` marks the cursor; each case lists labels that must (and must not) be offered.
import { strict as assert } from 'node:assert';
import { complete, completeInDocument, type CompletionItem, type CompletionOptions, type QuerySchema } from '../../../src/core/search';

const schema: QuerySchema = {
  fields: [
    { id: '614c068cab7c4603bbddae8200d2722a', name: 'Status', label: 'Approval status', dataType: 'OptionList', options: [{ name: 'Approved', label: 'OK' }, { name: 'Draft' }] },
    { name: 'ReleaseDate', dataType: 'Date' },
    { name: 'Spoken', dataType: 'LanguageList' },
  ],
  classifications: ['Products'],
  languages: [{ id: 'd0e4a7b2c1f34e5a9b8c7d6e5f4a3b21', name: 'English', culture: 'en-US' }],
};

function at(textWithCursor: string, options: CompletionOptions = {}): { items: CompletionItem[]; labels: string[]; text: string; offset: number } {
  const offset = textWithCursor.indexOf('|');
  assert.ok(offset >= 0, 'the case needs a | cursor');
  const text = textWithCursor.slice(0, offset) + textWithCursor.slice(offset + 1);
  const items = complete(text, offset, options);
  return { items, labels: items.map((i) => i.label), text, offset };
}

function testCompletionsFor(textWithCursor: string, expected: { has?: string[]; not?: string[] }, options: CompletionOptions = {}): void {
  it(`${textWithCursor}${options.schema ? ' (schema)' : ''}${options.mode === 'sort' ? ' (sort)' : ''}`, () => {
    const { labels } = at(textWithCursor, options);
    for (const l of expected.has ?? []) assert.ok(labels.includes(l), `expected ${l} in ${labels.join(' ')}`);
    for (const l of expected.not ?? []) assert.ok(!labels.includes(l), `did not expect ${l} in ${labels.join(' ')}`);
  });
}

describe('query completion', () => {
  testCompletionsFor('|', { has: ['Title', 'CreatedOn', 'ContentType', "FieldName('…').Value", 'NOT'], not: ['AND', '='] });
  testCompletionsFor('Tit|', { has: ['Title', 'FileCount'], not: ['='] });
  testCompletionsFor('Title |', { has: ['=', 'contains', 'in', 'AND', 'OR'] });
  testCompletionsFor('CreatedOn |', { has: ['=', '>=', 'in'], not: ['contains'] });
  testCompletionsFor('IsMaster |', { has: ['=', '<>'], not: ['>', 'contains', 'in'] });
  testCompletionsFor('Id co|', { has: ['=', 'in'], not: ['contains'] });
  testCompletionsFor('CreatedOn in |', { has: ['today'], not: ['Title'] });
  testCompletionsFor('IsMaster = |', { has: ['true', 'false', '?'] });
  testCompletionsFor('ContentStatus = |', { has: ['Draft', 'Released', 'Archived'] });
  testCompletionsFor('Title = x |', { has: ['AND', 'OR', 'Title'], not: ['='] });
  testCompletionsFor('Title = x AN|', { has: ['AND', 'OR'] });
  testCompletionsFor('Title = x AND |', { has: ['Title', 'NOT'], not: ['AND'] });
  testCompletionsFor('(Title = x OR |)', { has: ['Kind', 'NOT'] });
  testCompletionsFor("FieldName('|')", { has: ['Status', 'ReleaseDate'], not: ['Title'] }, { schema });
  testCompletionsFor("FieldLabel('|')", { has: ['Approval status'], not: ['Status'] }, { schema });
  testCompletionsFor("FieldName('Status').|", { has: ['Option.Name', 'Value'], not: ['UtcValue'] }, { schema });
  testCompletionsFor("FieldName('ReleaseDate')|", { has: ['Value', 'UtcValue'], not: ['Option.Name'] }, { schema });
  testCompletionsFor("FieldName('Whatever').|", { has: ['Value', 'UtcValue', 'Option.Name', 'Url'] });
  testCompletionsFor("FieldName('ReleaseDate').Value |", { has: ['>=', '<'], not: ['contains'] }, { schema });
  testCompletionsFor("FieldName('Status').Value = |", { has: ['Approved', 'Draft'] }, { schema });
  testCompletionsFor("FieldName('Status').Option.Label = |", { has: ['OK', 'Draft'], not: ['Approved'] }, { schema });
  testCompletionsFor("FieldName('Status').Value = 'Ap|'", { has: ['Approved'], not: ['?'] }, { schema });
  testCompletionsFor('Classification = |', { has: ['Products'] }, { schema });
  testCompletionsFor("FieldName('Spoken').Language.Id = |", { has: ['d0e4a7b2c1f34e5a9b8c7d6e5f4a3b21'], not: ['Products', 'Approved'] }, { schema });
  testCompletionsFor("FieldName('Status').Value = |", { not: ['d0e4a7b2c1f34e5a9b8c7d6e5f4a3b21'] }, { schema });
  it('names the language beside its id, and quotes the id outside a string', () => {
    const { items } = at("FieldName('Spoken').Language.Id = |", { schema });
    const english = items.find((i) => i.label === 'd0e4a7b2c1f34e5a9b8c7d6e5f4a3b21');
    assert.equal(english?.detail, 'English (en-US)');
    assert.equal(english?.insertText, "'d0e4a7b2c1f34e5a9b8c7d6e5f4a3b21'");
  });
  testCompletionsFor('|', { has: ["FieldName('Status').Value", "FieldName('ReleaseDate').Value"] }, { schema });
  testCompletionsFor('|', { has: ['Label', 'NamePath'], not: ['Title'] }, { target: 'classifications' });
  testCompletionsFor('|', { has: ['Title', 'CreatedOn', 'Rank'], not: ['FileCount', 'NOT'] }, { mode: 'sort' });
  testCompletionsFor('Title |', { has: ['desc', 'asc'] }, { mode: 'sort' });
  testCompletionsFor('Title desc, |', { has: ['ModifiedOn'] }, { mode: 'sort' });

  it('replaces the word being typed', () => {
    const { items, text } = at('Title = x AND Crea|');
    const item = items.find((i) => i.label === 'CreatedOn')!;
    assert.equal(text.slice(item.range.start, item.range.end), 'Crea');
    assert.equal(item.insertText, 'CreatedOn ');
  });

  it('inserts at the cursor after a space', () => {
    const { items, offset } = at('Title |');
    const eq = items.find((i) => i.label === '=')!;
    assert.deepEqual(eq.range, { start: offset, end: offset });
  });

  it('offers field-reference snippets', () => {
    const { items } = at('|');
    const fn = items.find((i) => i.label === "FieldName('…').Value")!;
    assert.equal(fn.snippet, true);
    assert.match(fn.insertText, /^FieldName\('\$\{1:name\}'\)\.\$\{2:Value\}$/);
  });

  describe('in a .dam-query document', () => {
    const doc = ['### one', '# @target classifications', '# @sort Na', 'Name = a AND ', '', '### two', '# @ta', 'Title = x'].join('\n');
    const offsetOf = (needle: string, extra = needle.length) => doc.indexOf(needle) + extra;

    it('completes the expression of the section under the cursor with its target', () => {
      const items = completeInDocument(doc, offsetOf('Name = a AND '));
      assert.ok(items.some((i) => i.label === 'NamePath'));
      assert.ok(!items.some((i) => i.label === 'Title'));
    });

    it('completes directive keys', () => {
      const items = completeInDocument(doc, offsetOf('# @ta'));
      assert.ok(items.some((i) => i.label === '@target'));
      const t = items.find((i) => i.label === '@target')!;
      assert.equal(doc.slice(t.range.start, t.range.end), '@ta');
    });

    it('completes the @sort directive as a sort expression', () => {
      const items = completeInDocument(doc, offsetOf('# @sort Na'));
      const name = items.find((i) => i.label === 'Name');
      assert.ok(name, items.map((i) => i.label).join(' '));
      assert.equal(doc.slice(name.range.start, name.range.end), 'Na');
    });

    it('completes after the last line of an expression', () => {
      const items = completeInDocument(doc, offsetOf('Name = a AND \n'));
      assert.ok(items.some((i) => i.label === 'Label'));
    });
  });
});
