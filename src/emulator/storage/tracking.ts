// Counts writes on a store, so read caches can tell whether anything changed since they loaded a row.
import type { Queryable, Store, Transaction } from './store';

export interface TrackedStore extends Store {
  /** Changes after every statement that may write and after every transaction. */
  generation(): number;
  /** Moves the generation on without a statement: the whole state was replaced (a snapshot restored). */
  invalidate(): void;
}

const READ_ONLY = /^\s*(SELECT|SHOW|EXPLAIN)\b/i;

/** `guard` runs before every statement and may throw to refuse it (work of a state that was replaced since). */
export function trackWrites(store: Store, guard: () => void = () => undefined): TrackedStore {
  let generation = 0;
  const writing = async <T>(run: () => Promise<T>): Promise<T> => {
    guard();
    generation++;
    try {
      return await run();
    } finally {
      generation++;
    }
  };
  const tracked = <Q extends Queryable>(q: Q) => ({
    async query<T>(sql: string, params?: Parameters<Queryable['query']>[1]) {
      if (!READ_ONLY.test(sql)) return writing(() => q.query<T>(sql, params));
      guard();
      return q.query<T>(sql, params);
    },
    exec: (sql: string) => writing(() => q.exec(sql)),
  });
  const inTransaction = (tx: Transaction): Transaction => ({
    ...tracked(tx),
    copyTo: (source) => (guard(), tx.copyTo(source)),
    copyFrom: (target, data) => writing(() => tx.copyFrom(target, data)),
  });
  const base = tracked(store);
  return {
    kind: store.kind,
    query: base.query,
    exec: base.exec,
    invalidate: () => void (generation += 2),
    async transaction(fn) {
      guard();
      generation++;
      try {
        return await store.transaction((tx) => fn(inTransaction(tx)));
      } finally {
        // Writes of a transaction become visible at commit, which is when this runs.
        generation++;
      }
    },
    close: () => store.close(),
    generation: () => generation,
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
