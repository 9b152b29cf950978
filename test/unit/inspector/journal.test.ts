// The journal ring: bounded, ids that never repeat, O(1) lookup, newest-first listing with filters, listeners.
import { strict as assert } from 'node:assert';
import { Journal, type JournalEntry } from '../../../src/emulator/inspector/journal';

function entry(id: number, over: Partial<JournalEntry> = {}): JournalEntry {
  return {
    id,
    at: 0,
    method: 'GET',
    path: `/api/core/record/${id}`,
    query: '',
    status: 200,
    durationMs: 1,
    client: 'test/1',
    route: '/api/core/record/:id',
    caller: null,
    findings: [],
    replayOf: null,
    remoteAddress: '127.0.0.1',
    request: { headers: [], body: null },
    response: { headers: [], body: null },
    ...over,
  };
}

describe('inspector journal', () => {
  it('keeps only the last N entries and forgets the evicted ones', () => {
    const j = new Journal(3);
    for (let i = 0; i < 10; i++) j.add((id) => entry(id));
    assert.equal(j.size, 3);
    assert.equal(j.lastId, 10);
    assert.deepEqual(j.list({}, 100).map((e) => e.id), [10, 9, 8]);
    assert.equal(j.get(7), undefined);
    assert.equal(j.get(8)?.id, 8);
    assert.equal(j.get(11), undefined);
    assert.equal(j.get(0), undefined);
  });

  it('lists newest first with filters, since and a limit', () => {
    const j = new Journal(100);
    j.add((id) => entry(id, { status: 200, client: 'curl/8' }));
    j.add((id) => entry(id, { status: 404, client: 'dam-workbench/1', path: '/api/core/recrods' }));
    j.add((id) => entry(id, { status: 400, method: 'POST', path: '/api/core/search/records' }));
    j.add((id) => entry(id, { status: 201, findings: [{ code: 'DE2001', severity: 'frown', message: 'm' }] }));
    assert.deepEqual(j.list({ status: '4xx' }, 10).map((e) => e.id), [3, 2]);
    assert.deepEqual(j.list({ status: '404,201' }, 10).map((e) => e.id), [4, 2]);
    assert.deepEqual(j.list({ route: 'SEARCH' }, 10).map((e) => e.id), [3]);
    assert.deepEqual(j.list({ client: 'workbench' }, 10).map((e) => e.id), [2]);
    assert.deepEqual(j.list({ method: 'post' }, 10).map((e) => e.id), [3]);
    assert.deepEqual(j.list({ since: 2 }, 10).map((e) => e.id), [4, 3]);
    assert.deepEqual(j.list({ withFindings: true }, 10).map((e) => e.id), [4]);
    assert.deepEqual(j.list({}, 2).map((e) => e.id), [4, 3]);
  });

  it('clears without reusing ids', () => {
    const j = new Journal(5);
    j.add((id) => entry(id));
    j.add((id) => entry(id));
    j.clear();
    assert.equal(j.size, 0);
    assert.equal(j.get(2), undefined);
    assert.equal(j.add((id) => entry(id)).id, 3);
    assert.deepEqual(j.list({}, 10).map((e) => e.id), [3]);
  });

  it('tells listeners of each entry; a throwing listener breaks nothing', () => {
    const j = new Journal(5);
    const seen: number[] = [];
    j.subscribe(() => {
      throw new Error('broken stream');
    });
    const stop = j.subscribe((e) => seen.push(e.id));
    j.add((id) => entry(id));
    stop();
    j.add((id) => entry(id));
    assert.deepEqual(seen, [1]);
    assert.equal(j.listenerCount, 1);
  });

  it('refuses a capacity that is not a positive integer', () => {
    assert.throws(() => new Journal(0), RangeError);
  });
});

describe('inspector journal: memory bound', () => {
  it('lets the oldest entries go past its byte bound, whatever its count allows, and always keeps the newest', () => {
    const j = new Journal(1000, 10_000);
    for (let i = 0; i < 20; i++) j.add((id) => ({ ...entry(id), size: 3000 }));
    assert.equal(j.size, 3);
    assert.ok(j.bytes <= 10_000);
    assert.deepEqual(j.list({}, 100).map((e) => e.id), [20, 19, 18]);
    j.add((id) => ({ ...entry(id), size: 50_000 }));
    assert.deepEqual(j.list({}, 100).map((e) => e.id), [21]);
    j.clear();
    assert.equal(j.bytes, 0);
  });
});
