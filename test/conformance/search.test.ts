// Advanced search through the client: expressions, placeholders, wildcards, the default operator,
// full-text `contains` with `Rank desc`, cursor paging and its binding, clamps and errors.
import { strict as assert } from 'node:assert';
import { describeEachBackend, failure } from './helpers';
import { ApiError } from '../../src/api/errors';
import { collect } from '../../src/api/paging';

describeEachBackend('search', { seed: 'demo' }, (env) => {
  const client = () => env().client();
  const tag = `q${Date.now().toString(36)}`;
  const titles = [`${tag} zebrafish`, `${tag} zebrafish zebrafish lagoon`, `${tag} lagoon`, `${tag}Star*`, `${tag}Starling`];
  const ids = new Map<string, string>();

  before(async () => {
    for (const title of titles) ids.set(title, (await client().records.create({ title, contentType: 'Document' })).id);
  });

  const idsOf = (items: Array<{ id: string }>) => new Set(items.map((i) => i.id));
  const expect = (...wanted: string[]) => new Set(wanted.map((t) => ids.get(t)!));

  it('contains finds words in the title; Rank desc is accepted', async () => {
    const hits = await collect(client().search.recordItems({ expression: `Title contains 'zebrafish' AND Title = '${tag}*'`, sort: 'Rank desc' }));
    assert.deepEqual(idsOf(hits), expect(titles[0], titles[1]));
  });

  it('Rank desc puts the hit matching every term first', async () => {
    const hits = await collect(client().search.recordItems({ expression: `(Title contains 'zebrafish' OR Title contains 'lagoon') AND Title = '${tag}*'`, sort: 'Rank desc' }));
    assert.deepEqual(idsOf(hits), expect(titles[0], titles[1], titles[2]));
    assert.equal(hits[0].id, ids.get(titles[1]));
  });

  it('a bare word is a full-text term', async () => {
    const hits = await collect(client().search.recordItems({ expression: `lagoon AND Title = '${tag}*'` }));
    assert.deepEqual(idsOf(hits), expect(titles[1], titles[2]));
  });

  it('unnamed ? and named @ placeholders take their values', async () => {
    const unnamed = await collect(client().search.recordItems({ expression: 'Title = ?', parameters: [titles[2]] }));
    assert.deepEqual(idsOf(unnamed), expect(titles[2]));
    const named = await collect(client().search.recordItems({ expression: 'Title = @t OR Title = @u', namedParameters: { t: titles[0], '@u': titles[2] } }));
    assert.deepEqual(idsOf(named), expect(titles[0], titles[2]));
  });

  it('supportWildcards false makes * literal', async () => {
    const literal = await collect(client().search.recordItems({ expression: `Title = '${tag}Star*'`, supportWildcards: false }));
    assert.deepEqual(idsOf(literal), expect(titles[3]));
    const wild = await collect(client().search.recordItems({ expression: `Title = '${tag}Star*'` }));
    assert.deepEqual(idsOf(wild), expect(titles[3], titles[4]));
  });

  it('criteria side by side join with defaultLogicalOperator', async () => {
    const or = await collect(client().search.recordItems({ expression: `Title = '${titles[2]}' Title = '${titles[4]}'`, defaultLogicalOperator: 'OR' }));
    assert.deepEqual(idsOf(or), expect(titles[2], titles[4]));
  });

  it('pages by cursor through every hit once; nextCursor is null at the end', async () => {
    const pages = await collect(client().search.recordPages({ expression: 'ContentType = Image', sort: 'Title', pageSize: 100 }));
    const items = pages.flatMap((p) => p.items);
    assert.equal(items.length, pages[0].totalCount);
    assert.equal(new Set(items.map((r) => r.id)).size, items.length);
    assert.ok(pages.length > 1);
    assert.equal(pages.at(-1)?.nextCursor ?? null, null);
  });

  it('sorts titles case-insensitively, as the service does (`big` between `Apple` and `Vivid`)', async () => {
    const sortTitles = [`${tag} sort Vivid`, `${tag} sort big`, `${tag} sort Apple`, `${tag} sort notes`];
    for (const title of sortTitles) await client().records.create({ title, contentType: 'Document' });
    const expression = `Title = '${tag} sort *'`;
    const asc = await collect(client().search.recordItems({ expression, sort: 'Title' }));
    assert.deepEqual(asc.map((r) => r.title), [`${tag} sort Apple`, `${tag} sort big`, `${tag} sort notes`, `${tag} sort Vivid`]);
    const desc = await collect(client().search.recordItems({ expression, sort: 'Title desc' }));
    assert.deepEqual(desc.map((r) => r.title), asc.map((r) => r.title).reverse());
  });

  it('a search cursor reused with another sort or expression is a 400', async () => {
    const first = await client().search.records({ expression: 'ContentType = Image', sort: 'Title', pageSize: 10 });
    assert.ok(first.nextCursor);
    const err = await failure<ApiError>(() => client().search.records({ expression: 'ContentType = Image', sort: 'CreatedOn', pageSize: 10 }, { cursor: first.nextCursor! }));
    assert.equal(err.status, 400);
    const err2 = await failure<ApiError>(() => client().search.records({ expression: 'ContentType = Video', sort: 'Title', pageSize: 10 }, { cursor: first.nextCursor! }));
    assert.equal(err2.status, 400);
  });

  it('records search clamps pageSize to 100', async () => {
    const page = await client().search.records({ expression: '*', pageSize: 1000 });
    assert.equal(page.items.length, 100);
  });

  it('a malformed expression is a 400 with exceptionType and exceptionMessage', async () => {
    const err = await failure<ApiError>(() => client().search.records({ expression: "Title = 'unterminated" }));
    assert.equal(err.status, 400);
    assert.ok(err.exceptionType && err.exceptionMessage);
  });

  it('classification search pages by number', async () => {
    const pages = await collect(client().search.classificationPages({ expression: '*', pageSize: 7 }));
    const items = pages.flatMap((p) => p.items);
    assert.equal(items.length, pages[0].totalCount);
    assert.equal(new Set(items.map((c) => c.id)).size, items.length);
  });
});
