// Records through the client: create, read, partial update (null resets, addOrUpdate/remove),
// delete, collection paging rules, cursors, HAL links and embedding, and links to missing data.
import { strict as assert } from 'node:assert';
import { describeEachBackend, failure } from './helpers';
import { ApiError } from '../../src/api/errors';
import { collect } from '../../src/api/paging';
import { embedded, embeddedItems, link, selectKeys, stripHal } from '../../src/api/hal';
import { RecordSchema } from '../../src/api/schemas';

describeEachBackend('records', { seed: 'demo' }, (env) => {
  const client = () => env().client();

  describe('create, read, update, delete', () => {
    let id = '';

    it('POST /record answers the new record with its id and a Location', async () => {
      const res = await client().http.request({ method: 'POST', path: '/record', json: { title: 'Conformance record', status: 'Draft', contentType: 'Image' }, schema: RecordSchema });
      assert.ok(res.status >= 200 && res.status < 300);
      assert.match(res.data.id, /^[0-9a-f]{32}$/);
      assert.equal(res.data.title, 'Conformance record');
      assert.ok(res.headers.get('location')?.endsWith(res.data.id), 'Location names the new record');
      id = res.data.id;
    });

    it('GET /record/{id} is minimal: links with select-keys, nothing embedded', async () => {
      const record = await client().records.get(id);
      assert.equal(record.id, id);
      assert.ok(link(record, 'self'));
      const keys = selectKeys(record);
      assert.ok(keys.fields, 'fields link has a select-key');
      assert.ok(keys.files, 'files link has a select-key');
      assert.equal(record._embedded, undefined);
    });

    it('a dashed GUID is accepted and normalised', async () => {
      const dashed = `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`.toUpperCase();
      assert.equal((await client().records.get(dashed)).id, id);
    });

    it('PUT changes only the sent properties', async () => {
      const before = await client().records.get(id, { plain: true });
      await client().records.update(id, { title: 'Renamed' });
      const after = await client().records.get(id, { plain: true });
      assert.equal(after.title, 'Renamed');
      assert.equal(after.status, before.status);
      assert.equal(after.contentType, before.contentType);
    });

    it('PUT with null resets a property', async () => {
      await client().records.update(id, { tag: '<tags><t>x</t></tags>' });
      assert.equal((await client().records.get(id)).tag, '<tags><t>x</t></tags>');
      await client().records.update(id, { tag: null });
      assert.equal((await client().records.get(id)).tag ?? null, null);
    });

    // The service's record page and the SDK's model type aiInfluenced Unknown | No | Yes; the emulator answered a boolean.
    it('aiInfluenced is the service\'s enum: Unknown until told, written in any case, anything else a 400', async () => {
      const read = async () => (await client().records.get(id, { select: { resources: { record: ['aiInfluenced'] } } })).aiInfluenced;
      assert.equal(await read(), 'Unknown');
      await client().records.update(id, { aiInfluenced: 'yes' });
      assert.equal(await read(), 'Yes');
      await client().records.update(id, { aiInfluenced: false });
      assert.equal(await read(), 'No');
      const err = await failure<ApiError>(() => client().records.update(id, { aiInfluenced: 'Maybe' }));
      assert.equal(err.status, 400);
      assert.match(err.exceptionMessage ?? '', /aiInfluenced must be one of Unknown, No, Yes/);
      assert.equal(await read(), 'No');
    });

    it('a read reused as a body is accepted (application/json round trip)', async () => {
      const plain = await client().records.get(id, { plain: true });
      await client().records.update(id, stripHal({ ...plain, title: 'Round trip' }));
      assert.equal((await client().records.get(id)).title, 'Round trip');
    });

    it('nested classifications change with addOrUpdate and remove', async () => {
      const [first, second] = (await client().classifications.list({ pageSize: 2 })).items;
      await client().records.update(id, { classifications: { addOrUpdate: [{ id: first.id }, { id: second.id }] } });
      const withTwo = await client().records.get(id, { select: { resources: { record: ['classifications'] } } });
      assert.deepEqual(embeddedItems(withTwo, 'classifications').map((c) => (c as { id: string }).id).sort(), [first.id, second.id].sort());
      await client().records.update(id, { classifications: { remove: [{ id: first.id }] } });
      const withOne = await client().records.get(id, { select: { resources: { record: ['classifications'] } } });
      assert.deepEqual(embeddedItems(withOne, 'classifications').map((c) => (c as { id: string }).id), [second.id]);
    });

    it('a link to missing data answers 404 when followed and null when selected', async () => {
      const record = await client().records.get(id);
      const target = link(record, 'masterfilelatestversion');
      assert.ok(target, 'the relation exists even without a file');
      const err = await failure<ApiError>(() => client().follow(target, RecordSchema.partial()));
      assert.equal(err.status, 404);
      assert.ok(err.exceptionMessage);
      const selected = await client().records.get(id, { select: { resources: { record: ['masterfilelatestversion'] } } });
      assert.equal(embedded(selected, 'masterfilelatestversion'), null);
    });

    it('DELETE removes it: reading it again is 404 NoDataFound', async () => {
      await client().records.delete(id);
      const err = await failure<ApiError>(() => client().records.get(id));
      assert.equal(err.status, 404);
      assert.match(err.exceptionType ?? '', /NoDataFoundException$/);
    });

    it('an invalid body is a 400 with the error object', async () => {
      const err = await failure<ApiError>(() => client().records.create({ status: 'Sideways' }));
      assert.equal(err.status, 400);
      assert.ok(err.exceptionType && err.exceptionMessage);
    });
  });

  describe('collection rules', () => {
    it('default page size is 50', async () => {
      const page = await client().records.list();
      assert.equal(page.items.length, 50);
      assert.ok((page.totalCount ?? 0) >= 500);
    });

    it('records clamp pageSize to 100 silently', async () => {
      const page = await client().records.list({ pageSize: 500 });
      assert.equal(page.items.length, 100);
      assert.equal(page.pageSize, 100);
    });

    it('filter, sort, page and pageSize work the same as query parameters and as headers', async () => {
      const options = { filter: 'ContentType = Image', sort: 'Title desc', page: 2, pageSize: 7 };
      const byQuery = await client().records.list({ ...options, plain: true });
      const byHeader = await client().records.list({ ...options, plain: true, paramsIn: 'header' });
      assert.equal(byQuery.items.length, 7);
      assert.deepEqual(byHeader.items.map((r) => r.id), byQuery.items.map((r) => r.id));
      assert.ok(byQuery.items.every((r) => r.contentType === 'Image'));
      const titles = byQuery.items.map((r) => r.title ?? '');
      assert.deepEqual(titles, [...titles].sort((a, b) => b.localeCompare(a, 'en', { sensitivity: 'base' })).map((t) => t));
    });

    it('skip and take select a window', async () => {
      const all = await client().records.list({ sort: 'Title', take: 10, plain: true });
      const window = await client().records.list({ sort: 'Title', skip: 5, take: 5, plain: true });
      assert.deepEqual(window.items.map((r) => r.id), all.items.slice(5, 10).map((r) => r.id));
    });

    it('next links walk the whole collection', async () => {
      const pages = await collect(client().records.pages({ filter: 'ContentType = Video', pageSize: 40 }));
      const ids = pages.flatMap((p) => p.items.map((r) => r.id));
      assert.equal(ids.length, pages[0].totalCount);
      assert.equal(new Set(ids).size, ids.length);
      assert.ok(pages.length > 1);
    });

    it('cursors walk every record once, in sort order', async () => {
      const pages = await collect(client().records.cursorPages({ filter: 'ContentType = Image', sort: 'Title', pageSize: 100, plain: true }));
      const items = pages.flatMap((p) => p.items);
      assert.equal(items.length, pages[0].totalCount);
      assert.equal(new Set(items.map((r) => r.id)).size, items.length);
      assert.equal(pages.at(-1)?.nextCursor ?? null, null);
      assert.ok(pages.slice(0, -1).every((p) => typeof p.nextCursor === 'string'));
    });

    it('a cursor is bound to its sort and filter: 400 otherwise', async () => {
      const first = await client().records.listByCursor({ filter: 'ContentType = Image', sort: 'Title', pageSize: 10 });
      assert.ok(first.nextCursor);
      const sameQuery = await client().records.listByCursor({ filter: 'ContentType = Image', sort: 'Title', pageSize: 10, cursor: first.nextCursor });
      assert.equal(sameQuery.items.length, 10);
      const otherSort = await failure<ApiError>(() => client().records.listByCursor({ filter: 'ContentType = Image', sort: 'Title desc', pageSize: 10, cursor: first.nextCursor! }));
      assert.equal(otherSort.status, 400);
      assert.ok(otherSort.exceptionType && otherSort.exceptionMessage);
      const otherFilter = await failure<ApiError>(() => client().records.listByCursor({ filter: 'ContentType = Video', sort: 'Title', pageSize: 10, cursor: first.nextCursor! }));
      assert.equal(otherFilter.status, 400);
    });

    it('a cursor is opaque: a forged one is refused with 400', async () => {
      const err = await failure<ApiError>(() => client().records.listByCursor({ cursor: 'bm90LWEtY3Vyc29y' }));
      assert.equal(err.status, 400);
    });
  });

  describe('selecting', () => {
    let recordId = '';
    before(async () => {
      // A demo record that has field values.
      for await (const record of client().records.items({ pageSize: 20 })) {
        const withFields = await client().records.get(record.id, { select: { resources: { record: ['fields'] } } });
        if (embeddedItems(withFields, 'fields').length >= 2) {
          recordId = record.id;
          break;
        }
      }
      assert.ok(recordId, 'the demo seed has records with field values');
    });

    it('select-record: fields embeds _embedded.fields.items', async () => {
      const record = await client().records.get(recordId, { select: { resources: { record: ['fields'] } } });
      const fields = embeddedItems(record, 'fields') as Array<{ fieldName?: string; dataType?: string; localizedValues?: unknown[] }>;
      assert.ok(fields.length >= 2);
      assert.ok(fields.every((f) => typeof f.fieldName === 'string' && typeof f.dataType === 'string' && Array.isArray(f.localizedValues)));
    });

    it('nested select-field: definition applies inside embedded fields', async () => {
      const record = await client().records.get(recordId, { select: { resources: { record: ['fields'], field: ['definition'] } } });
      const fields = embeddedItems(record, 'fields') as Array<{ _embedded?: Record<string, unknown> }>;
      assert.ok(fields.every((f) => f._embedded?.definition && typeof f._embedded.definition === 'object'));
    });

    it('select-record-fields limits the embedded fields by name and drops the record links', async () => {
      const all = embeddedItems(await client().records.get(recordId, { select: { resources: { record: ['fields'] } } }), 'fields') as Array<{ fieldName: string }>;
      const wanted = all[0].fieldName;
      const record = await client().records.get(recordId, { select: { recordFields: [wanted] } });
      assert.deepEqual((embeddedItems(record, 'fields') as Array<{ fieldName: string }>).map((f) => f.fieldName), [wanted]);
      assert.equal(record._links, undefined);
    });

    it('languages: * returns values of every language; one id filters to it', async () => {
      const neutral = '00000000000000000000000000000000';
      const one = embeddedItems(await client().records.get(recordId, { select: { resources: { record: ['fields'] }, languages: neutral } }), 'fields') as Array<{ localizedValues: Array<{ languageId: string }> }>;
      assert.ok(one.every((f) => f.localizedValues.every((v) => v.languageId === neutral)));
      const all = embeddedItems(await client().records.get(recordId, { select: { resources: { record: ['fields'] }, languages: '*' } }), 'fields') as Array<{ localizedValues: unknown[] }>;
      const count = (fs: Array<{ localizedValues: unknown[] }>) => fs.reduce((n, f) => n + f.localizedValues.length, 0);
      assert.ok(count(all) >= count(one));
    });

    it('plain application/json carries the same data without HAL members', async () => {
      const hal = await client().records.get(recordId);
      const plain = await client().records.get(recordId, { plain: true });
      assert.deepEqual(plain, stripHal(hal));
    });
  });
});
