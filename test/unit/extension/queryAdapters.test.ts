// Pure parts of the query editor: what a section sends, CSV lines, table rows, and the shipped JSON schema.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { parseDocument } from '../../../src/core/search';
import { analyticsJsonSchema } from '../../../src/extension/analytics/analyticsJsonSchema';
import { requestOf, searchQueryOf } from '../../../src/extension/query/request';
import { classificationCells, classificationIdsOf, csvLine, exportColumns, recordCells, rowOf, type ValueNames } from '../../../src/extension/query/rows';

function only(text: string) {
  const { sections } = parseDocument(text);
  assert.equal(sections.length, 1);
  return sections[0];
}

describe('query requests from sections', () => {
  it('applies every directive: target, sort, params, wildcards, operator', () => {
    const s = only(['# @name Images by status', '# @target records', '# @sort Title, CreatedOn desc', '# @param Status = "Approved"', '# @wildcards off', '# @operator AND', 'ContentType = Image', '  ContentStatus = @Status'].join('\n'));
    const r = requestOf(s, 'fallback');
    assert.deepEqual(r, {
      name: 'Images by status',
      target: 'records',
      expression: 'ContentType = Image\n  ContentStatus = @Status',
      sort: 'Title, CreatedOn desc',
      namedParameters: { Status: 'Approved' },
      supportWildcards: false,
      defaultLogicalOperator: 'AND',
    });
    const q = searchQueryOf(r, 50);
    assert.deepEqual(q, {
      expression: r.expression,
      pageSize: 50,
      signal: undefined,
      namedParameters: { Status: 'Approved' },
      supportWildcards: false,
      defaultLogicalOperator: 'AND',
      sort: 'Title, CreatedOn desc',
    });
  });

  it('sends only what the section says, leaving the service its defaults', () => {
    const r = requestOf(only('### Everything\nTitle = "a*"'), 'fallback');
    assert.equal(r.name, 'Everything');
    assert.deepEqual(searchQueryOf(r, 10), { expression: 'Title = "a*"', pageSize: 10, signal: undefined });
    assert.equal(requestOf(only('Title = x'), 'file.dam-query:1').name, 'file.dam-query:1');
  });

  it('keeps comment lines inside the expression out of what is sent', () => {
    const r = requestOf(only('Title = a\n# not sent\nOR Title = b'), 'x');
    assert.ok(!r.expression.includes('not sent'));
    assert.match(r.expression, /Title = a\s+OR Title = b/);
  });
});

describe('result rows and CSV', () => {
  it('quotes CSV fields with commas, quotes and line breaks (RFC 4180)', () => {
    assert.equal(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines', null, 3]), 'a,"b,c","say ""hi""","two\nlines",,3\r\n');
  });

  it('exports every property and each field value of a record as its own named cell', () => {
    const cells = recordCells({
      id: 'r1',
      title: 'Harbour',
      fileCount: 2,
      masterFileLatestVersion: { id: 'v1' },
      _links: { self: { href: 'x' } },
      fields: {
        items: [
          { fieldName: 'Keywords', localizedValues: [{ languageId: 'en', values: ['sea', 'dusk'] }] },
          { fieldName: 'Channel', localizedValues: [{ languageId: 'en', values: [{ id: 'o1', name: 'web', label: 'Web' }] }] },
          { fieldName: 'Caption', localizedValues: [{ languageId: 'en', value: 'At dusk' }, { languageId: 'de', value: 'In der Dämmerung' }] },
        ],
      },
    });
    assert.deepEqual(cells, {
      id: 'r1',
      title: 'Harbour',
      fileCount: '2',
      masterFileLatestVersion: '{"id":"v1"}',
      'field: Keywords': 'sea; dusk',
      'field: Channel': 'Web',
      'field: Caption': 'At dusk; In der Dämmerung',
    });
    assert.deepEqual(exportColumns(['fileCount', 'id', 'field: Keywords', 'title']), ['id', 'title', 'contentType', 'status', 'createdOn', 'modifiedOn', 'fileCount', 'field: Keywords']);
  });

  it('writes the ids an option list, a classification list and a language list hold by their names', () => {
    const item = {
      id: 'r1',
      fields: [
        { id: 'F-USAGE', fieldName: 'UsageRights', dataType: 'OptionList', localizedValues: [{ languageId: null, values: ['o1', 'o9'] }] },
        { id: 'f-line', fieldName: 'ProductLine', dataType: 'ClassificationList', localizedValues: [{ values: ['c1', 'c2'] }] },
        { id: 'f-lang', fieldName: 'Languages', dataType: 'LanguageList', localizedValues: [{ values: ['l1'] }] },
        { id: 'f-kw', fieldName: 'Keywords', dataType: 'TextList', localizedValues: [{ values: ['o1'] }] },
      ],
    };
    const names: ValueNames = {
      option: (field, option) => (field.toLowerCase() === 'f-usage' && option === 'o1' ? 'Licensed' : undefined),
      classification: (id) => ({ c1: '/Products/Office/Chairs' })[id],
      language: (id) => (id === 'l1' ? 'English' : undefined),
    };
    assert.deepEqual(classificationIdsOf(item), ['c1', 'c2']);
    const cells = recordCells(item, names);
    // An id the names do not know stays an id; a text list's "o1" is text, not an option.
    assert.equal(cells['field: UsageRights'], 'Licensed; o9');
    assert.equal(cells['field: ProductLine'], '/Products/Office/Chairs; c2');
    assert.equal(cells['field: Languages'], 'English');
    assert.equal(cells['field: Keywords'], 'o1');
  });

  it('exports every property of a classification, its labels as text, the fixed columns first', () => {
    const cells = classificationCells({
      id: 'c1',
      name: 'Chairs',
      namePath: '/Products/Office/Chairs',
      labels: [{ languageId: 'en', value: 'Chairs' }, { languageId: 'de', value: 'Stühle' }],
      sortIndex: 3,
      _links: { self: { href: 'x' } },
    });
    assert.deepEqual(cells, { id: 'c1', name: 'Chairs', namePath: '/Products/Office/Chairs', labels: 'Chairs; Stühle', sortIndex: '3' });
    assert.deepEqual(exportColumns(['labels', 'id', 'sortIndex', 'name'], 'classifications'), ['id', 'name', 'namePath', 'createdOn', 'modifiedOn', 'labels', 'sortIndex']);
  });

  it('makes table rows for records and classifications', () => {
    assert.deepEqual(rowOf({ id: 'r1', title: 'T', contentType: 'Image', status: null, modifiedOn: '2024', _links: { thumbnail: { href: 'x' } } }, 'records'), {
      id: 'r1', title: 'T', contentType: 'Image', status: '', modified: '2024', hasThumbnail: true,
    });
    assert.equal(rowOf({ id: 'r2', title: 'T' }, 'records').hasThumbnail, false);
    const c = rowOf({ id: 'c1', name: 'photos', labels: [{ value: 'Photos' }], namePath: '/root/photos' }, 'classifications');
    assert.equal(c.title, 'Photos');
    assert.equal(c.status, '/root/photos');
  });
});

describe('.dam-analytics.json schema', () => {
  it('ships exactly what the analytics catalogue generates (regenerate schemas/dam-analytics.schema.json when it changes)', () => {
    const shipped = JSON.parse(readFileSync('schemas/dam-analytics.schema.json', 'utf8')) as unknown;
    assert.deepEqual(shipped, analyticsJsonSchema());
  });

  it('names members, operators and the row limit', () => {
    const s = analyticsJsonSchema() as { properties: Record<string, { items?: { enum?: string[]; properties?: Record<string, { enum?: string[] }> }; maximum?: number }> };
    assert.ok(s.properties.measures.items?.enum?.includes('Views.count'));
    assert.ok(s.properties.filters.items?.properties?.operator.enum?.includes('inDateRange'));
    assert.equal(s.properties.limit.maximum, 10000);
  });
});
