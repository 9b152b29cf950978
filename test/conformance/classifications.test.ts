// Classifications through the client: the tree (parent, children, ancestors, namePath), CRUD,
// the recursion rule of select headers, the 1000 clamp and classification search.
import { strict as assert } from 'node:assert';
import { describeEachBackend, failure } from './helpers';
import { ApiError } from '../../src/api/errors';
import { collect } from '../../src/api/paging';
import { embedded } from '../../src/api/hal';
import type { Classification } from '../../src/api/schemas';

describeEachBackend('classifications', { seed: 'demo' }, (env) => {
  const client = () => env().client();
  let all: Classification[] = [];
  const byId = new Map<string, Classification>();
  let leaf: Classification;

  function depth(c: Classification): number {
    let d = 1;
    let cur = c;
    while (cur.parentId && byId.has(cur.parentId)) {
      cur = byId.get(cur.parentId)!;
      d++;
    }
    return d;
  }

  before(async () => {
    all = await collect(client().classifications.items({ pageSize: 1000, plain: true }));
    for (const c of all) byId.set(c.id, c);
    leaf = all.filter((c) => !c.isRoot).sort((a, b) => depth(b) - depth(a))[0];
  });

  it('the demo tree has at least 30 nodes and 3 levels', () => {
    assert.ok(all.length >= 30);
    assert.ok(depth(leaf) >= 3);
  });

  it('pageSize above 1000 is clamped silently; the default is 50', async () => {
    const big = await client().classifications.list({ pageSize: 5000 });
    assert.equal(big.pageSize, 1000);
    assert.equal(big.items.length, Math.min(1000, all.length));
    const normal = await client().classifications.list();
    assert.equal(normal.items.length, Math.min(50, all.length));
  });

  it('parent, children and ancestors follow the links', async () => {
    const parent = await client().classifications.parent(leaf.id);
    assert.equal(parent?.id, leaf.parentId);
    const siblings = await client().classifications.children(parent!);
    assert.ok(siblings.some((c) => c.id === leaf.id));
    const ancestors = await client().classifications.ancestors(leaf.id);
    const expected: string[] = [];
    for (let cur = byId.get(leaf.parentId!); cur; cur = cur.parentId ? byId.get(cur.parentId) : undefined) expected.push(cur.id);
    assert.deepEqual(new Set(ancestors.map((a) => a.id)), new Set(expected));
  });

  it('a root has no parent', async () => {
    const root = all.find((c) => c.isRoot)!;
    assert.equal(await client().classifications.parent(root.id), null);
  });

  it('namePath joins the names from the root', () => {
    const names: string[] = [];
    for (let cur: Classification | undefined = leaf; cur; cur = cur.parentId ? byId.get(cur.parentId) : undefined) names.unshift(cur.name ?? '');
    const segments = (leaf.namePath ?? '').split(/(?<!\\)\//).filter(Boolean).map((s) => s.replace(/\\\//g, '/'));
    assert.deepEqual(segments, names);
  });

  it('select-classification: parent embeds the parent, at most twice per type on a path', async () => {
    const selected = await client().classifications.get(leaf.id, { select: { resources: { classification: ['parent'] } } });
    const parent = embedded(selected, 'parent') as Classification | undefined;
    assert.equal(parent?.id, leaf.parentId);
    // leaf → parent is the type's second occurrence: the grandparent is not embedded.
    assert.equal(embedded(parent!, 'parent'), undefined);
  });

  it('select-classification: children embeds the children', async () => {
    const parent = byId.get(leaf.parentId!)!;
    const selected = await client().classifications.get(parent.id, { select: { resources: { classification: ['children'] } } });
    const children = embedded(selected, 'children') as { items?: Classification[] } | Classification[] | undefined;
    const items = Array.isArray(children) ? children : (children?.items ?? []);
    assert.ok(items.some((c) => c.id === leaf.id));
  });

  it('create under a parent, rename, reset a property with null, delete', async () => {
    const parent = byId.get(leaf.parentId!)!;
    const created = await client().classifications.create({ name: 'Conformance node', identifier: 'conf-node', parentId: parent.id });
    assert.match(created.id, /^[0-9a-f]{32}$/);
    assert.equal(created.parentId, parent.id);
    assert.equal(created.namePath, `${parent.namePath}/Conformance node`);
    await client().classifications.update(created.id, { name: 'Renamed node' });
    const renamed = await client().classifications.get(created.id);
    assert.equal(renamed.name, 'Renamed node');
    assert.equal(renamed.identifier, 'conf-node');
    // null resets to the default (which may be derived from the name), never keeps the old value.
    await client().classifications.update(created.id, { identifier: null });
    assert.notEqual((await client().classifications.get(created.id)).identifier, 'conf-node');
    await client().classifications.delete(created.id);
    const gone = await failure<ApiError>(() => client().classifications.get(created.id));
    assert.equal(gone.status, 404);
  });

  it('labels come in the caller\'s default language unless the languages header asks for others', async () => {
    const EN = 'c2bd4f9bbb954bcb80c31e924c9c26dc';
    const languages = await collect(client().languages.items({ plain: true }));
    const de = languages.find((l) => l.culture === 'de-DE');
    assert.ok(de, 'the fixed seed has de-DE');
    const created = await client().classifications.create({
      name: 'Language probe',
      labels: [
        { languageId: EN, value: 'Colour' },
        { languageId: de.id, value: 'Farbe' },
      ],
    });
    try {
      const values = (c: Classification) => (c.labels ?? []).map((l) => l.value).sort();
      // The caller (admin) works in en-US.
      assert.deepEqual(values(await client().classifications.get(created.id)), ['Colour']);
      assert.deepEqual(values(await client().classifications.get(created.id, { headers: { languages: '*' } })), ['Colour', 'Farbe']);
      assert.deepEqual(values(await client().classifications.get(created.id, { headers: { languages: de.id } })), ['Farbe']);
    } finally {
      await client().classifications.delete(created.id);
    }
  });

  it('search by name with a wildcard, sorted, all pages by page number', async () => {
    const name = leaf.name!;
    const prefix = name.slice(0, Math.max(1, Math.min(3, name.length)));
    const found = await collect(client().search.classificationItems({ expression: `Name = '${prefix}*'`, sort: 'Name', pageSize: 2 }));
    assert.ok(found.some((c) => c.id === leaf.id));
    assert.ok(found.every((c) => (c.name ?? '').toLowerCase().startsWith(prefix.toLowerCase())));
    assert.equal(new Set(found.map((c) => c.id)).size, found.length);
  });

  it('filter on the collection by name', async () => {
    const found = await collect(client().classifications.items({ filter: `Name = '${leaf.name}'`, pageSize: 1000 }));
    const expected = all.filter((c) => c.name?.toLowerCase() === leaf.name?.toLowerCase()).map((c) => c.id);
    assert.deepEqual(new Set(found.map((c) => c.id)), new Set(expected));
  });
});
