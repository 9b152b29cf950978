// A store that tells `onQuery` each statement run through `query` before it runs it on `store` (tests and benches
// that check which statements the emulator ran). exec and transactions pass through unrecorded.
import type { SqlParam, Store } from '../../src/emulator/storage/store';

export function recordingStore(store: Store, onQuery: (sql: string, params: SqlParam[]) => void): Store {
  return {
    kind: store.kind,
    query<T>(sql: string, params?: SqlParam[]) {
      onQuery(sql, params ?? []);
      return store.query<T>(sql, params);
    },
    exec: (sql) => store.exec(sql),
    transaction: (fn) => store.transaction(fn),
    close: () => store.close(),
  };
}
