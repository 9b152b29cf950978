// Page iterators: when they stop, what they send next, and how they guard against loops.
import { strict as assert } from 'node:assert';
import { collect, cursorPages, itemsOf, numberedPages, type PageState } from '../../../src/api/paging';
import type { Paged } from '../../../src/api/schemas';

describe('cursor pages', () => {
  it('starts without a cursor, passes each nextCursor verbatim, stops at null', async () => {
    const seen: Array<string | undefined> = [];
    const pages: Array<Paged<number>> = [
      { items: [1, 2], nextCursor: 'c/1+=' },
      { items: [3, 4], nextCursor: 'c2' },
      { items: [5], nextCursor: null },
    ];
    const items = await collect(itemsOf(cursorPages<number>(async (cursor) => (seen.push(cursor), pages[seen.length - 1]))));
    assert.deepEqual(items, [1, 2, 3, 4, 5]);
    assert.deepEqual(seen, [undefined, 'c/1+=', 'c2']);
  });

  it('refuses a cursor handed out twice instead of looping', async () => {
    await assert.rejects(collect(cursorPages<number>(async () => ({ items: [1], nextCursor: 'same' }))), /same cursor twice/);
  });

  it('stops early when the consumer breaks', async () => {
    let calls = 0;
    const items = await collect(itemsOf(cursorPages<number>(async () => ({ items: [calls++], nextCursor: `c${calls}` }))), 3);
    assert.deepEqual(items, [0, 1, 2]);
    assert.equal(calls, 3);
  });
});

describe('numbered pages', () => {
  it('follows next links until there is none', async () => {
    const states: PageState[] = [];
    const pages: Array<Paged<string>> = [
      { items: ['a'], _links: { self: { href: '/x?page=1' }, next: { href: 'http://h/x?page=2' } } },
      { items: ['b'], _links: { self: { href: '/x?page=2' } } },
    ];
    const items = await collect(itemsOf(numberedPages<string>(async (state) => (states.push(state), pages[states.length - 1]))));
    assert.deepEqual(items, ['a', 'b']);
    assert.deepEqual(states, [{ page: 1 }, { page: 2, nextHref: 'http://h/x?page=2' }]);
  });

  it('without links counts pages until totalCount', async () => {
    const all = ['a', 'b', 'c', 'd', 'e'];
    const fetch = async (state: PageState) => ({ items: all.slice((state.page - 1) * 2, state.page * 2), pageSize: 2, totalCount: 5 });
    assert.deepEqual(await collect(itemsOf(numberedPages<string>(fetch))), all);
  });

  it('without links or totals stops at a short page', async () => {
    let calls = 0;
    const fetch = async () => (calls++ === 0 ? { items: ['a', 'b'], pageSize: 2 } : { items: ['c'], pageSize: 2 });
    assert.deepEqual(await collect(itemsOf(numberedPages<string>(fetch))), ['a', 'b', 'c']);
    assert.equal(calls, 2);
  });

  it('ignores links when told to (POST searches)', async () => {
    let calls = 0;
    const fetch = async (state: PageState) => (calls++, { items: state.page < 3 ? ['x'] : [], _links: {} });
    assert.deepEqual(await collect(itemsOf(numberedPages<string>(fetch, { followLinks: false }))), ['x', 'x']);
    assert.equal(calls, 3);
  });
});
