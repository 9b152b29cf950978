// HAL helpers and the search body: reading links, select-keys and embedded collections.
import { strict as assert } from 'node:assert';
import { embedded, embeddedAs, embeddedItems, link, links, selectKeys, stripHal } from '../../../src/api/hal';
import { searchBody } from '../../../src/api/search';
import { RecordSchema, normalizeGuid } from '../../../src/api/schemas';

const record = {
  id: 'a',
  title: 'T',
  _links: {
    self: { href: '/api/core/record/a' },
    fields: { href: '/api/core/record/a/fields', 'select-key': 'fields' },
    files: [{ href: '/f/1', 'select-key': 'files' }, { href: '/f/2' }],
  },
  _embedded: { fields: { items: [{ id: 'f1' }, { id: 'f2' }] }, masterfile: null, parent: { id: 'p' } },
};

describe('hal', () => {
  it('reads single and array links', () => {
    assert.equal(link(record, 'fields')?.href, '/api/core/record/a/fields');
    assert.equal(link(record, 'files')?.href, '/f/1');
    assert.equal(links(record, 'files').length, 2);
    assert.equal(link(record, 'nope'), undefined);
    assert.deepEqual(links(record, 'nope'), []);
  });

  it('maps relations to select-keys', () => {
    assert.deepEqual(selectKeys(record), { fields: 'fields', files: 'files' });
  });

  it('tells absent (undefined) from selected-but-missing (null)', () => {
    assert.equal(embedded(record, 'masterfile'), null);
    assert.equal(embedded(record, 'thumbnail'), undefined);
    assert.equal(embeddedAs(record, 'masterfile', RecordSchema), null);
    assert.equal(embeddedAs(record, 'parent', RecordSchema)?.id, 'p');
  });

  it('reads embedded collections as items[] or a bare array', () => {
    assert.deepEqual(embeddedItems(record, 'fields'), [{ id: 'f1' }, { id: 'f2' }]);
    assert.deepEqual(embeddedItems({ _embedded: { x: [1, 2] } }, 'x'), [1, 2]);
    assert.deepEqual(embeddedItems(record, 'parent'), []);
  });

  it('strips HAL members for reuse as a PUT body', () => {
    assert.deepEqual(stripHal(record), { id: 'a', title: 'T' });
  });

  it('schemas keep properties the service adds later', () => {
    const parsed = RecordSchema.parse({ id: 'a', newThing: 42 });
    assert.equal((parsed as Record<string, unknown>).newThing, 42);
  });

  it('normalises dashed GUIDs only', () => {
    assert.equal(normalizeGuid('614C068C-AB7C-4603-BBDD-AE8200D2722A'), '614c068cab7c4603bbddae8200d2722a');
    assert.equal(normalizeGuid('.renditionPreset'), '.renditionPreset');
  });
});

describe('search body', () => {
  it('builds the search expression object, named parameters without @', () => {
    assert.deepEqual(searchBody({ expression: 'Title = @t AND Id = ?', parameters: [1], namedParameters: { '@t': 'x', u: 'y' }, supportWildcards: false, defaultLogicalOperator: 'OR' }, 'c1'), {
      searchExpression: { expression: 'Title = @t AND Id = ?', parameters: [1], namedParameters: { t: 'x', u: 'y' }, supportWildcards: false, defaultLogicalOperator: 'OR' },
      cursor: 'c1',
    });
    assert.deepEqual(searchBody({ expression: '*' }), { searchExpression: { expression: '*' } });
  });
});
