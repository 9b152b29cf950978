// Counts writes on a store, so read caches can tell whether anything changed since they loaded a row.
import type { Queryable, Store, Transaction } from './store';

export interface TrackedStore extends Store {
  /** Changes after every statement that may write and after every transaction. */
  generation(): number;
  /**
   * Changes only after a write that may change what a records search finds (a statement naming one of
   * SEARCHED_TABLES, any `exec`, a replaced state): the search index stays valid across the others, such as the token
   * a client's first request writes.
   */
  searchGeneration(): number;
  /** Moves the generation on without a statement: the whole state was replaced (a snapshot restored). */
  invalidate(): void;
}

const READ_ONLY = /^\s*(SELECT|SHOW|EXPLAIN)\b/i;
/**
 * The tables a records search reads (search/compile.ts, search/countIndex.ts). No trigger writes them from another
 * table, and the cascades into them start from one of them; a table or trigger that changes that joins this list.
 */
const SEARCHED_TABLES = /\b(records|record_classifications|classifications|field_values|field_definitions)\b/i;

/** `guard` runs before every statement and may throw to refuse it (work of a state that was replaced since). */
export function trackWrites(store: Store, guard: () => void = () => undefined): TrackedStore {
  let generation = 0;
  let searchGeneration = 0;
  /** `searched`: the write may change a search's hits (then a transaction's commit moves the search generation too). */
  const writing = async <T>(run: () => Promise<T>, searched: boolean, touched: () => void = () => undefined): Promise<T> => {
    guard();
    generation++;
    if (searched) {
      searchGeneration++;
      touched();
    }
    try {
      return await run();
    } finally {
      generation++;
      if (searched) searchGeneration++;
    }
  };
  const tracked = <Q extends Queryable>(q: Q, touched?: () => void) => ({
    async query<T>(sql: string, params?: Parameters<Queryable['query']>[1]) {
      if (!READ_ONLY.test(sql)) return writing(() => q.query<T>(sql, params), SEARCHED_TABLES.test(sql), touched);
      guard();
      return q.query<T>(sql, params);
    },
    exec: (sql: string) => writing(() => q.exec(sql), true, touched),
  });
  const inTransaction = (tx: Transaction, touched: () => void): Transaction => ({
    ...tracked(tx, touched),
    copyTo: (source) => (guard(), tx.copyTo(source)),
    copyFrom: (target, data) => writing(() => tx.copyFrom(target, data), SEARCHED_TABLES.test(target), touched),
  });
  const base = tracked(store);
  return {
    kind: store.kind,
    query: base.query,
    exec: base.exec,
    invalidate: () => {
      generation += 2;
      searchGeneration += 2;
    },
    async transaction(fn) {
      guard();
      generation++;
      let searched = false;
      try {
        return await store.transaction((tx) => fn(inTransaction(tx, () => (searched = true))));
      } finally {
        // Writes of a transaction become visible at commit, which is when this runs.
        generation++;
        if (searched) searchGeneration++;
      }
    },
    close: () => store.close(),
    generation: () => generation,
    searchGeneration: () => searchGeneration,
  };
}

/** A small read cache valid only while the store's generation has not moved since the row was loaded. */
export class RowCache<T> {
  private readonly rows = new Map<string, { generation: number; row: T }>();

  constructor(
    private readonly store: TrackedStore,
    private readonly max = 5000,
  ) {}

  async get(key: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    const now = this.store.generation();
    const hit = this.rows.get(key);
    if (hit && hit.generation === now) return hit.row;
    const row = await load();
    if (row !== undefined) {
      if (this.rows.size >= this.max) this.rows.clear();
      this.rows.set(key, { generation: now, row });
    }
    return row;
  }
}
