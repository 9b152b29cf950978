// Counts writes on a store, so read caches can tell whether anything changed since they loaded a row.
import type { Queryable, Store } from './store';

export interface TrackedStore extends Store {
  /** Changes after every statement that may write and after every transaction. */
  generation(): number;
}

const READ_ONLY = /^\s*(SELECT|SHOW|EXPLAIN)\b/i;

export function trackWrites(store: Store): TrackedStore {
  let generation = 0;
  const tracked = (q: Queryable): Queryable => ({
    async query(sql, params) {
      if (READ_ONLY.test(sql)) return q.query(sql, params);
      generation++;
      try {
        return await q.query(sql, params);
      } finally {
        generation++;
      }
    },
    async exec(sql) {
      generation++;
      try {
        await q.exec(sql);
      } finally {
        generation++;
      }
    },
  });
  const base = tracked(store);
  return {
    kind: store.kind,
    query: base.query,
    exec: base.exec,
    async transaction(fn) {
      generation++;
      try {
        return await store.transaction((tx) => fn(tracked(tx)));
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
