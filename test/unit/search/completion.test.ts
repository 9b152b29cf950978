// Completion tests: `|` marks the cursor; each case lists labels that must (and must not) be offered.
import { strict as assert } from 'node:assert';
import { complete, completeInDocument, valuesUsedIn, type CompletionItem, type CompletionOptions, type QuerySchema } from '../../../src/core/search';

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
  // Issue 27, item 8: by the alias too, and content types (the tenant's where known).
  it('an item that ends with a space asks the editor to suggest again (accepting Title gives "Title " and the operators)', () => {
    const title = at('Tit|').items.find((i) => i.label === 'Title')!;
    assert.equal(title.insertText, 'Title ');
    assert.equal(title.retrigger, true);
    assert.equal(at('Title |').items.find((i) => i.label === '=')?.retrigger, true);
    assert.equal(at('Status = |').items.find((i) => i.label === 'Released')?.retrigger, undefined);
  });
  testCompletionsFor('Status = |', { has: ['Draft', 'Released', 'Archived'] });
  testCompletionsFor('ContentType = |', { has: ['Image', 'Video', 'Document'], not: ['Draft'] });
  testCompletionsFor('ContentType = |', { has: ['Image', 'Press Kit'] }, { schema: { fields: [], contentTypes: ['Press Kit'] } });
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

  describe('while typing (issue 21: completion must not fight typing)', () => {
    /** Labels in the order VS Code shows them when nothing is typed yet: by sort text. */
    const ordered = (items: CompletionItem[]) => [...items].sort((a, b) => a.sortText.localeCompare(b.sortText)).map((i) => i.label);

    testCompletionsFor('Title = "x"|', { not: ['AdditionalFile', 'Title', 'AND'] });
    testCompletionsFor("Title = 'x'|", { not: ['AdditionalFile', 'Title', 'AND'] });
    it('offers nothing right after a closing quote', () => {
      assert.deepEqual(at('Title = "harbour"|').labels, []);
      assert.deepEqual(at("FieldName('Status').Value = 'Approved'|", { schema }).labels, []);
    });
    it('still completes inside an open string and after an unterminated one', () => {
      assert.ok(at("FieldName('Status').Value = 'Ap|'", { schema }).labels.includes('Approved'));
      assert.ok(at("FieldName('Status').Value = 'Ap|", { schema }).labels.includes('Approved'));
    });

    testCompletionsFor('Title = "x" |', { has: [], not: ['AND', 'OR', 'Title', 'AdditionalFile'] }, { triggerCharacter: ' ' });
    testCompletionsFor('Title = "x" |', { has: ['AND', 'OR', 'Title'] });
    testCompletionsFor('Title |', { has: ['=', 'contains'], not: ['AND', 'OR', 'Title'] }, { triggerCharacter: ' ' });
    testCompletionsFor('Title = x AND |', { has: ['Title', 'NOT'], not: ['AND'] }, { triggerCharacter: ' ' });
    testCompletionsFor('|', { has: ['Title'] }, { triggerCharacter: ' ' });
    testCompletionsFor('Title contains |', { has: ['"words"', '?'] }, { triggerCharacter: ' ' });
    it('after a space that ends a criterion there is nothing to accept with Enter', () => {
      assert.deepEqual(at('ContentType = Image |', { triggerCharacter: ' ' }).labels, []);
    });

    it('offers a value to fill in after an operator, not only a placeholder', () => {
      const { items } = at('Title contains |');
      const words = items.find((i) => i.label === '"words"');
      assert.ok(words?.snippet, 'a snippet for the words to find');
      assert.equal(words.insertText, '"${1:words}"');
      assert.deepEqual(ordered(items), ['"words"', '?']);
      assert.ok(at('FileCount > |').labels.includes('number'));
      assert.ok(at('Id = |').labels.includes('id'));
    });

    it('offers recent values first, then the placeholder, then ? and @names', () => {
      const recentValues = new Map([['title', ['harbour', 'summer sale']]]);
      const { items } = at('Title contains |', { recentValues, boundNames: ['Who'] });
      assert.deepEqual(ordered(items), ['harbour', 'summer sale', '"words"', '?', '@Who']);
      assert.equal(items.find((i) => i.label === 'summer sale')?.insertText, "'summer sale'");
      assert.equal(items.find((i) => i.label === 'harbour')?.insertText, 'harbour');
    });

    it('ranks option values before recent ones, and does not repeat a value', () => {
      const recentValues = new Map([["name(status).value", ['Draft', 'Pending']]]);
      const labels = ordered(at("FieldName('Status').Value = |", { schema, recentValues }).items);
      assert.deepEqual(labels.slice(0, 3), ['Approved', 'Draft', 'Pending']);
      assert.equal(labels.filter((l) => l === 'Draft').length, 1);
    });

    testCompletionsFor('Title in |', { has: ['(…, …)'], not: ['"text"'] });
    testCompletionsFor('Title in (|', { has: ['"text"'], not: ['(…, …)'] });
    testCompletionsFor('Title in (a, |', { has: ['"text"'], not: ['(…, …)'] });

    for (const text of ['|', 'Title = x\n|', 'Title = x AND |', '(|']) {
      it(`ranks properties and fields first at a criterion start: ${JSON.stringify(text)}`, () => {
        const labels = ordered(at(text, { schema }).items);
        assert.equal(labels[0], 'AdditionalFile');
        const firstKeyword = labels.findIndex((l) => ['NOT', 'AND', 'OR'].includes(l));
        const lastField = labels.map((l) => l.startsWith('Field')).lastIndexOf(true);
        assert.ok(firstKeyword > lastField, labels.join(' '));
        if (labels.includes('AND')) assert.ok(labels.indexOf('AND') > labels.indexOf('NOT'), labels.join(' '));
      });
    }

    it('collects the values each property was compared with', () => {
      const values = valuesUsedIn(['Title = harbour AND ContentType = Image', "Title contains 'summer sale' OR Title in (a, b)", "FieldName('Status').Value = Approved"]);
      assert.deepEqual(values.get('title'), ['harbour', 'summer sale', 'a', 'b']);
      assert.deepEqual(values.get('contenttype'), ['Image']);
      assert.deepEqual(values.get('name(status).value'), ['Approved']);
    });

    it("offers the section's other values, not the one being typed", () => {
      const doc = '### one\nTitle = harbour OR Title contains sum';
      const items = completeInDocument(doc, doc.length);
      assert.ok(items.some((i) => i.label === 'harbour'), items.map((i) => i.label).join(' '));
      assert.ok(!items.some((i) => i.label === 'sum'));
    });
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
