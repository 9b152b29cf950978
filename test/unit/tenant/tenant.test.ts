// The tenant folder's core: files print the same for the same configuration and read back; differences are named in
// words a person reads (a moved classification, a gained option); the push plan keeps dependency order.
import { strict as assert } from 'node:assert';
import { diffConfigs, emptyConfig, fromFiles, localEdits, planPush, pullRecordText, tenantJsonSchemas, toFiles, type TenantConfig } from '../../../src/core/tenant';

function config(): TenantConfig {
  const c = emptyConfig();
  c.languages = [{ id: 'c2bd4f9bbb954bcb80c31e924c9c26dc', culture: 'en-US', name: 'English', isNeutral: false }];
  c.fieldGroups = [{ id: 'g1', name: 'Main', labels: {}, sortIndex: 0 }];
  c.classifications = [
    { namePath: '/Products', id: 'p', identifier: 'products', labels: {}, sortIndex: 0, sortOrder: 'SortIndex' },
    { namePath: '/Products/Shoes', id: 's', identifier: 'shoes', labels: {}, sortIndex: 0, sortOrder: 'SortIndex' },
    { namePath: '/Catalog', id: 'c', identifier: 'catalog', labels: {}, sortIndex: 1, sortOrder: 'SortIndex' },
  ];
  c.fields = [
    { id: 'f1', name: 'Brand', dataType: 'OptionList', labels: { 'en-US': 'Brand' }, group: 'Main', isRequired: false, isLocalizable: false, sortIndex: 0, options: [{ id: 'o1', name: 'Zeta' }] },
  ];
  return c;
}

describe('tenant folder', () => {
  it('prints the same files for the same configuration, in any order, and reads them back', () => {
    const a = config();
    const b = config();
    b.classifications.reverse();
    const files = toFiles(a);
    assert.deepEqual([...toFiles(b)], [...files]);
    const back = fromFiles(files);
    assert.deepEqual(back.problems, []);
    assert.deepEqual(diffConfigs(a, back.config!), []);
  });

  it('names a broken file, an unknown one and a dangling reference', () => {
    const files = toFiles(config());
    files.set('fields/Brand.json', files.get('fields/Brand.json')!.replace('"Main"', '"Nowhere"'));
    assert.deepEqual(fromFiles(files).problems, [{ file: 'fields/Brand.json', message: "field 'Brand' names field group 'Nowhere', which field-groups.json does not hold" }]);
    files.set('extra.json', '{');
    const problems = fromFiles(files).problems;
    assert.ok(problems.some((p) => p.file === 'extra.json' && /not valid JSON/.test(p.message)));
  });

  it('says a classification moved, an option was gained, a label changed', () => {
    const a = config();
    const b = config();
    b.classifications[1] = { ...b.classifications[1], namePath: '/Catalog/Shoes' };
    b.fields[0] = { ...b.fields[0], options: [...b.fields[0].options!, { id: 'o2', name: 'Acme' }], labels: { 'en-US': 'Brand name' } };
    assert.deepEqual(
      diffConfigs(a, b).map((d) => d.words),
      ["classification '/Products/Shoes' moved to '/Catalog/Shoes'", "field 'Brand' label (en-US): 'Brand' → 'Brand name'", "field 'Brand' gained option 'Acme'"],
    );
  });

  it('plans parents before children and fields after their groups; deletions only with prune, deepest first', () => {
    const target = emptyConfig();
    target.classifications = [
      { namePath: '/Old', id: 'o', identifier: 'old', labels: {}, sortIndex: 0, sortOrder: 'SortIndex' },
      { namePath: '/Old/Leaf', id: 'ol', identifier: 'old-leaf', labels: {}, sortIndex: 0, sortOrder: 'SortIndex' },
    ];
    const plan = planPush(config(), target);
    const titles = plan.steps.map((s) => `${s.action} ${s.kind} ${s.key}`);
    assert.deepEqual(titles, [
      'create language en-US',
      'create fieldGroup Main',
      'create classification /Catalog',
      'create classification /Products',
      'create classification /Products/Shoes',
      'create field Brand',
    ]);
    const pruned = planPush(config(), target, { prune: true }).steps.filter((s) => s.action === 'delete').map((s) => s.key);
    assert.deepEqual(pruned, ['/Old/Leaf', '/Old']);
  });
});

describe('tenant folder: what the last pull wrote', () => {
  const hash = (text: string) => `h${text.length}:${text}`;
  const files = (entries: Record<string, string>) => new Map(Object.entries(entries));

  it('names the files a pull would overwrite or remove that are not as pulled; a clean or new folder has none', () => {
    const pulled = files({ 'tenant.json': 't', 'fields/A.json': 'a', 'fields/B.json': 'b', '.schema/field.schema.json': 's' });
    const record = pullRecordText(pulled, hash);
    const next = files({ 'tenant.json': 't', 'fields/A.json': 'a2', '.schema/field.schema.json': 's2' });
    assert.deepEqual(localEdits(new Map(), next, undefined, hash), [], 'a new folder');
    assert.deepEqual(localEdits(pulled, next, record, hash), [], 'a clean folder: the tenant changed, nobody edited');
    const edited = files({ 'tenant.json': 't', 'fields/A.json': 'mine', 'fields/B.json': 'b', 'fields/C.json': 'c', 'README.md': 'r', '.schema/field.schema.json': 'x' });
    assert.deepEqual(localEdits(edited, next, record, hash), [
      { path: 'fields/A.json', kind: 'changed' },
      { path: 'fields/C.json', kind: 'added' },
    ]);
    assert.deepEqual(localEdits(files({ 'fields/A.json': 'a2' }), next, record, hash), [], 'an edit the pull would write anyway loses nothing');
    assert.deepEqual(localEdits(files({ 'fields/A.json': 'a' }), next, undefined, hash), [{ path: 'fields/A.json', kind: 'unrecorded' }]);
  });

  it('a new option needs only its name: the folder reads it and the schema does not ask for an id', () => {
    const files = toFiles(config());
    const brand = JSON.parse(files.get('fields/Brand.json')!) as { options: object[] };
    brand.options.push({ name: 'Acme' });
    files.set('fields/Brand.json', JSON.stringify(brand));
    const back = fromFiles(files);
    assert.deepEqual(back.problems, []);
    assert.deepEqual(diffConfigs(config(), back.config!).map((d) => d.words), ["field 'Brand' gained option 'Acme'"]);
    const schema = JSON.parse(tenantJsonSchemas().get('field.schema.json')!) as { properties: { options: { items: { required: string[] } } } };
    assert.deepEqual(schema.properties.options.items.required, ['name']);
  });
});
