// Applies the ordered migrations once each, recording them in `schema_migrations`.
import type { Store } from './store';

export interface Migration {
  /** Unique and stable, e.g. '001-core'; the order of the list is the order of application. */
  id: string;
  sql: string;
}

export async function migrate(store: Store, migrations: Migration[]): Promise<string[]> {
  await store.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_on timestamptz NOT NULL DEFAULT now())`);
  const done = new Set((await store.query<{ id: string }>('SELECT id FROM schema_migrations')).map((r) => r.id));
  const applied: string[] = [];
  for (const m of migrations) {
    if (done.has(m.id)) continue;
    await store.transaction(async (tx) => {
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [m.id]);
    });
    applied.push(m.id);
  }
  return applied;
}
