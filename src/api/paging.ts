// Async iterators over paged collections: by cursor (records), by `next` link, or by page number.
import type { Paged } from './schemas';
import { link } from './hal';

export type PageFetcher<T, S> = (state: S, signal?: AbortSignal) => Promise<Paged<T>>;

/**
 * Pages by cursor: the first page without one, then each `nextCursor` verbatim until it is null.
 * The fetcher must resend the same sort and filter: the cursor is bound to them (400 otherwise).
 */
export async function* cursorPages<T>(fetchPage: PageFetcher<T, string | undefined>, signal?: AbortSignal): AsyncGenerator<Paged<T>> {
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (;;) {
    signal?.throwIfAborted();
    const page = await fetchPage(cursor, signal);
    yield page;
    const next = page.nextCursor ?? undefined;
    if (!next || page.items.length === 0) return;
    // A server that hands back a cursor twice would loop us forever; stop instead.
    if (seen.has(next)) throw new Error('the service returned the same cursor twice');
    seen.add(next);
    cursor = next;
  }
}

export interface PageState {
  /** 1-based page number. */
  page: number;
  /** Absolute URL of `_links.next`, when the previous page had one. */
  nextHref?: string;
}

/**
 * Pages a collection: follows `_links.next.href` while present (the documented way), and when the
 * answer carries no links (plain `application/json`) counts pages until a short or empty page or
 * `totalCount` is reached.
 */
export async function* numberedPages<T>(fetchPage: PageFetcher<T, PageState>, options: { signal?: AbortSignal; followLinks?: boolean } = {}): AsyncGenerator<Paged<T>> {
  const { signal, followLinks = true } = options;
  let state: PageState = { page: 1 };
  let fetched = 0;
  for (;;) {
    signal?.throwIfAborted();
    const page = await fetchPage(state, signal);
    yield page;
    fetched += page.items.length;
    if (page.items.length === 0) return;
    const next = link(page, 'next');
    if (followLinks && page._links !== undefined) {
      if (!next) return;
      state = { page: state.page + 1, nextHref: next.href };
      continue;
    }
    if (typeof page.totalCount === 'number' && fetched >= page.totalCount) return;
    const size = page.pageSize ?? page.take;
    if (typeof size === 'number' && page.items.length < size) return;
    state = { page: state.page + 1 };
  }
}

/** Flattens pages into items. */
export async function* itemsOf<T>(pages: AsyncIterable<Paged<T>>): AsyncGenerator<T> {
  for await (const page of pages) yield* page.items;
}

/** Collects an async iterable (for tests and small collections). */
export async function collect<T>(source: AsyncIterable<T>, limit = Infinity): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) {
    out.push(item);
    if (out.length >= limit) break;
  }
  return out;
}
