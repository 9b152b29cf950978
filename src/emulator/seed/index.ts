// Seeders in the order they run; 'fixed' ones run for every seed, 'demo' ones only for `--seed demo`.
import type { Store } from '../storage/store';
import { createRng } from '../rng';
import type { Seeder } from './seeder';
import { fixedSeeders } from './fixed';
import { demoSeeders } from './demo';
import { analyticsEventsSeeder } from './analyticsEvents';
import { demoActivitiesSeeder, workManagementSeeder } from './workManagement';
import { demoFilesSeeder } from './files';
import { demoChecksSeeder } from './checks';

export type { Seeder };

/** Append a seeder here (work management, analytics events, …); its position is its order. */
export const seeders: Seeder[] = [...fixedSeeders, workManagementSeeder, demoActivitiesSeeder, ...demoSeeders, demoFilesSeeder, demoChecksSeeder, analyticsEventsSeeder];

/**
 * Seeds an empty store once; a store seeded before keeps its data whatever `seed` says. Each seeder gets
 * its own PRNG derived from its name, so adding a seeder does not change what the others generate.
 */
export async function seedStore(store: Store, seed: 'demo' | 'empty', log: (line: string) => void): Promise<boolean> {
  const done = await store.query<{ value: string }>(`SELECT value FROM meta WHERE key = 'seed'`);
  if (done[0]) return false;
  // One transaction: a start killed mid-seed leaves nothing behind, and the next start seeds from scratch.
  await store.transaction(async (tx) => {
    const inTx: Store = { kind: store.kind, query: tx.query, exec: tx.exec, transaction: (fn) => fn(tx), close: async () => undefined };
    for (const seeder of seeders) {
      if (seeder.kind === 'demo' && seed !== 'demo') continue;
      const started = Date.now();
      await seeder.run(inTx, createRng(hash(seeder.name)));
      log(`seeded ${seeder.name} in ${Date.now() - started} ms`);
    }
    await tx.query(`INSERT INTO meta (key, value) VALUES ('seed', $1)`, [seed]);
  });
  return true;
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}
