// The DAM Explorer's record paging (RecordPages, no vscode) against the real emulator: pages asked for as plain
// JSON and kept as rows of a few attributes, one request for callers at the same time, a refresh that drops a
// page still on its way, Load All that draws the list once however many pages it reads, and a count that follows
// a record joining and leaving the classification.
import { strict as assert } from 'node:assert';
import type { DamClient } from '../../src/api/client';
import type { SearchQuery } from '../../src/api/search';
import { emptyChangeSet } from '../../src/core/records';
import { LOAD_ALL_PAGE_SIZE, RecordPages, recordRow, type RecordRow } from '../../src/extension/explorer/recordPages';
import { describeEachBackend } from './helpers';

const RECORDS = 2 * LOAD_ALL_PAGE_SIZE + 37;

describeEachBackend('Explorer record paging (RecordPages)', {}, (env) => {
  let classificationId: string;
  let client: DamClient;
  /** The queries the search API was given, in order (the real client's method, called through). */
  let queries: SearchQuery[];
  /** The position each page was asked at (undefined: by cursor), and the most requests that were in flight at once. */
  let skips: (number | undefined)[];
  let inFlight = 0;
  let mostInFlight = 0;

  before(async () => {
    client = env().client();
    classificationId = (await client.classifications.create({ name: `explorer-pages-${Date.now()}` })).id;
    for (let i = 0; i < RECORDS; i += 25) {
      await Promise.all(
        Array.from({ length: Math.min(25, RECORDS - i) }, (_, j) =>
          client.records.create({ title: `Paged ${String(i + j).padStart(4, '0')}`, contentType: 'Document', classifications: { addOrUpdate: [{ id: classificationId }] } }),
        ),
      );
    }
    const records = client.search.records.bind(client.search);
    client.search.records = async (query, page) => {
      queries.push(query);
      skips.push(page?.skip);
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      try {
        return await records(query, page);
      } finally {
        inFlight--;
      }
    };
  });
  beforeEach(() => {
    queries = [];
    skips = [];
    mostInFlight = 0;
  });

  const pages = () => new RecordPages<RecordRow & { parent: string }>(() => 10, (parent, row) => ({ ...row, parent }));

  it('asks for plain JSON and keeps only what a row shows', async () => {
    const paging = await pages().first(client, classificationId);
    assert.equal(queries.length, 1);
    assert.equal(queries[0].plain, true, 'the page is asked for without HAL links');
    assert.equal(paging.rows.length, 10);
    assert.equal(paging.totalCount, RECORDS);
    assert.ok(paging.nextCursor);
    assert.deepEqual(Object.keys(paging.rows[0]).sort(), ['contentType', 'createdOn', 'id', 'modifiedOn', 'parent', 'status', 'title']);
    assert.equal(paging.rows[0].title, 'Paged 0000');
    assert.equal(paging.rows[0].parent, classificationId);
  });

  it('sends one request for callers asking at the same time, and a refresh drops a page on its way', async () => {
    const p = pages();
    const [a, b] = await Promise.all([p.first(client, classificationId), p.first(client, classificationId)]);
    assert.equal(queries.length, 1);
    assert.equal(a, b);
    assert.equal(await p.first(client, classificationId), a, 'the loaded page is kept');

    p.forget(classificationId);
    const late = p.first(client, classificationId);
    p.forget(classificationId);
    await late;
    assert.equal(p.get(classificationId), undefined, 'a page asked for before the refresh came back as current');
  });

  it('loads every record in the largest pages, drawing the list once', async () => {
    const p = pages();
    await p.first(client, classificationId);
    queries = [];
    const counts: number[] = [];
    let redraws = 0;
    await p.all(client, classificationId, new AbortController().signal, (shown) => counts.push(shown), () => redraws++);
    const paging = p.get(classificationId)!;
    assert.equal(paging.rows.length, RECORDS);
    assert.equal(new Set(paging.rows.map((r) => r.id)).size, RECORDS, 'a record came twice');
    assert.deepEqual(
      paging.rows.map((r) => r.title),
      Array.from({ length: RECORDS }, (_, i) => `Paged ${String(i).padStart(4, '0')}`),
    );
    assert.equal(paging.nextCursor, undefined);
    assert.ok(queries.every((q) => q.pageSize === LOAD_ALL_PAGE_SIZE && q.plain === true));
    assert.equal(queries.length, Math.ceil((RECORDS - 10) / LOAD_ALL_PAGE_SIZE));
    assert.deepEqual(counts, [110, 210, RECORDS]);
    assert.equal(redraws, 1);
  });

  // Across the internet each page read after the one before it was one more round trip (10 for 1,000 records).
  it('reads the remaining pages side by side by position, keeping their order', async () => {
    const p = pages();
    await p.first(client, classificationId);
    queries = [];
    skips = [];
    const counts: number[] = [];
    let redraws = 0;
    await p.all(client, classificationId, new AbortController().signal, (shown) => counts.push(shown), () => redraws++, (r) => r.id);
    const paging = p.get(classificationId)!;
    assert.deepEqual(
      paging.rows.map((r) => r.title),
      Array.from({ length: RECORDS }, (_, i) => `Paged ${String(i).padStart(4, '0')}`),
    );
    assert.deepEqual(skips, [10, 10 + LOAD_ALL_PAGE_SIZE, 10 + 2 * LOAD_ALL_PAGE_SIZE]);
    assert.ok(mostInFlight > 1, 'the pages were read one after another');
    assert.deepEqual(counts, [110, 210, RECORDS]);
    assert.equal(paging.nextCursor, undefined);
    assert.equal(paging.nextSkip, undefined);
    assert.equal(redraws, 1);
  });

  it('a cancelled side-by-side Load All keeps the pages in order and the rest loads from where it stopped', async () => {
    const p = pages();
    const abort = new AbortController();
    await p.all(client, classificationId, abort.signal, () => abort.abort(), () => undefined, (r) => r.id);
    const paging = p.get(classificationId)!;
    assert.deepEqual(paging.rows.map((r) => r.title), Array.from({ length: paging.rows.length }, (_, i) => `Paged ${String(i).padStart(4, '0')}`));
    assert.ok(paging.rows.length < RECORDS, 'nothing was cancelled');
    assert.equal(paging.nextSkip, paging.rows.length);
    while (await p.more(client, classificationId, undefined, LOAD_ALL_PAGE_SIZE));
    assert.deepEqual(
      paging.rows.map((r) => r.title),
      Array.from({ length: RECORDS }, (_, i) => `Paged ${String(i).padStart(4, '0')}`),
    );
  });

  it('a cancelled Load All keeps what arrived and still draws it', async () => {
    const p = pages();
    const abort = new AbortController();
    let redraws = 0;
    await p.all(client, classificationId, abort.signal, () => abort.abort(), () => redraws++);
    const paging = p.get(classificationId)!;
    assert.equal(paging.rows.length, 10 + LOAD_ALL_PAGE_SIZE);
    assert.ok(paging.nextCursor, 'the rest can still be loaded');
    assert.equal(redraws, 1);
    assert.equal(await p.more(client, classificationId), 10);
    assert.equal(paging.rows.length, 20 + LOAD_ALL_PAGE_SIZE);
  });

  // Add to Classification then its Undo, for a record that sorts after the loaded page: the add counted it without a
  // row, and the Undo left the classification's row saying one record more than the service holds.
  it("a record that joins after the loaded page and leaves again: the count is the service's", async () => {
    const cls = (await client.classifications.create({ name: `explorer-count-${Date.now()}` })).id;
    for (let i = 0; i < 12; i++) await client.records.create({ title: `Counted ${String(i).padStart(2, '0')}`, contentType: 'Document', classifications: { addOrUpdate: [{ id: cls }] } });
    const p = pages();
    const paging = await p.first(client, cls);
    assert.equal(paging.totalCount, 12);
    assert.ok(paging.nextCursor, 'the first page holds every record');
    const late = await client.records.create({ title: 'Counted zz, joined later', contentType: 'Document' });
    const edits = client.recordEdits;
    await edits.apply({ ...emptyChangeSet(late.id, late.title ?? ''), addClassifications: [cls] });
    assert.equal(p.insert(cls, recordRow(late), (r) => r.id, (r) => r.title ?? ''), undefined, 'a row after the loaded page was placed');
    assert.equal(paging.totalCount, 13);
    await edits.apply({ ...emptyChangeSet(late.id, late.title ?? ''), removeClassifications: [cls] });
    assert.ok(p.remove(cls, late.id, (r) => r.id, true), 'the classification was not told the record left');
    assert.equal(paging.totalCount, (await pages().first(client, cls)).totalCount);
    assert.equal(paging.totalCount, 12);
    assert.equal(p.remove(cls, late.id, (r) => r.id), false, 'a record whose row is not loaded, not said to have left, changed the count');
  });
});
