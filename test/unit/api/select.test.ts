// select-* header builder: the headers a selection becomes, read like the spec's examples.
import { strict as assert } from 'node:assert';
import { parseSelectSpec, select, selectHeaders, type Selection } from '../../../src/api/select';

describe('select headers', () => {
  const cases: Array<[string, Selection, Record<string, string>]> = [
    ['one resource', { resources: { record: ['fields'] } }, { 'select-record': 'fields' }],
    ['nested resources', { resources: { record: ['fields', 'files'], field: ['definition'] } }, { 'select-record': 'fields,files', 'select-field': 'definition' }],
    ['duplicates collapse', { resources: { classification: ['children', 'children', 'parent'] } }, { 'select-classification': 'children,parent' }],
    ['field names are percent-encoded, comma as %2C', { recordFields: ['Title', 'Size, in cm', 'Ümlaut'] }, { 'select-record-fields': 'Title,Size%2C%20in%20cm,%C3%9Cmlaut' }],
    ['field ids pass unchanged', { recordFields: ['614c068cab7c4603bbddae8200d2722a'] }, { 'select-record-fields': '614c068cab7c4603bbddae8200d2722a' }],
    ['field groups', { recordFieldGroups: ['Marketing/Web'] }, { 'select-record-fieldgroups': 'Marketing%2FWeb' }],
    ['resolve default values off', { resolveDefaultValues: false }, { 'select-resolve-default-values': 'false' }],
    ['all languages', { languages: '*' }, { languages: '*' }],
    ['several languages', { languages: ['00000000000000000000000000000000', 'c2bd4f9bbb954bcb80c31e924c9c26dc'] }, { languages: '00000000000000000000000000000000,c2bd4f9bbb954bcb80c31e924c9c26dc' }],
    ['empty lists send nothing', { resources: { record: [] }, recordFields: [] }, {}],
  ];
  for (const [name, selection, expected] of cases) {
    it(name, () => assert.deepEqual(selectHeaders(selection), expected));
  }

  it('rejects a resource type that cannot be a header name', () => {
    assert.throws(() => selectHeaders({ resources: { 'rec ord': ['fields'] } }), /resource type/);
  });

  it('rejects a select-key with a comma or space', () => {
    assert.throws(() => selectHeaders({ resources: { record: ['fields,files'] } }), /select-key/);
    assert.throws(() => selectHeaders({ resources: { record: ['my fields'] } }), /select-key/);
  });

  it('fluent builder gives the same headers', () => {
    const headers = select().resource('record', 'fields').resource('record', 'classifications').resource('field', 'definition').recordFields('a,b').languages('*').resolveDefaultValues(true).headers();
    assert.deepEqual(headers, {
      'select-record': 'fields,classifications',
      'select-field': 'definition',
      'select-record-fields': 'a%2Cb',
      'select-resolve-default-values': 'true',
      languages: '*',
    });
  });

  it('parses the CLI form record=fields,files;field=definition', () => {
    assert.deepEqual(parseSelectSpec('record=fields,files; field=definition'), { resources: { record: ['fields', 'files'], field: ['definition'] } });
    assert.throws(() => parseSelectSpec('fields'), /resource/);
    // Resource names are the user's: those of Object.prototype members are names like any other.
    const odd = parseSelectSpec('constructor=a;__proto__=b;toString=c,d');
    assert.equal(JSON.stringify(odd.resources), '{"constructor":["a"],"__proto__":["b"],"toString":["c","d"]}');
  });
});
