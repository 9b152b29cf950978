// Brings a store opened at start to the emulator's schema and fills a new one: from --import's snapshot, from the
// tenant prepared at build time, or by running the seeders.
import type { Store } from '../storage/store';
import { migrations } from '../storage/migrations';
import { migrate } from '../storage/migrate';
import { seedStore } from '../seed';
import { vacuumSearchTables } from '../seed/scale';
import { preparedTenant } from './prepared';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { listBlobs, type Manifest } from './snapshotDir';
import { loadSnapshot, readManifest, SnapshotMismatchError, verifySnapshot } from './snapshots';

export interface StartPlan {
  seed: 'demo' | 'empty';
  /** --import: a snapshot folder loaded over whatever the store holds. */
  importDir?: string;
}

/**
 * The snapshot --import names, read and verified before the store opens (a damaged one is refused naming its folder
 * and file, before anything is created): a new data folder may start from a prepared one.
 */
export async function readImport(importDir: string | undefined): Promise<Manifest | undefined> {
  if (!importDir) return undefined;
  const manifest = await readManifest(importDir);
  await verifySnapshot(importDir, manifest);
  return manifest;
}

/** Whether a snapshot was saved with exactly this emulator's schema. */
export function sameSchema(manifest: Manifest): boolean {
  const ids = migrations.map((m) => m.id);
  return manifest.migrations.length === ids.length && ids.every((id) => manifest.migrations.includes(id));
}

async function isNew(store: Store): Promise<boolean> {
  const [row] = await store.query<{ meta: string | null }>(`SELECT to_regclass('meta')::text AS meta`);
  if (!row?.meta) return true;
  return (await store.query(`SELECT 1 FROM meta WHERE key = 'seed'`)).length === 0;
}

export async function prepareStore(store: Store, blobDir: string, plan: StartPlan, log: (line: string) => void): Promise<void> {
  const started = Date.now();
  const imported = await readImport(plan.importDir);
  const fresh = await isNew(store);
  if (fresh) {
    // A new database (a new PGlite folder, a new or dropped PostgreSQL schema) names no blob: any left in the folder
    // belong to a tenant that is gone (the schema was reset, pgdata removed), and would otherwise be counted into
    // this one's snapshots and exports.
    const left = await listBlobs(blobDir);
    await Promise.all([...left.keys()].map((path) => rm(join(blobDir, path), { force: true })));
    if (left.size) log(`removed ${left.size} blob file(s) of an earlier tenant: the database is new`);
  }
  if (imported && fresh && !sameSchema(imported)) {
    // An older snapshot: the schema as it was when it was saved, its rows, then the migrations that came after.
    const known = new Set(migrations.map((m) => m.id));
    const unknown = imported.migrations.filter((id) => !known.has(id));
    if (unknown.length) throw new SnapshotMismatchError(`the snapshot in ${plan.importDir} was saved by a newer emulator (schema ${unknown.join(', ')} is unknown here)`);
    await migrate(store, migrations.filter((m) => imported.migrations.includes(m.id)));
    await loadSnapshot(store, blobDir, plan.importDir!);
    const applied = await migrate(store, migrations);
    log(`imported ${plan.importDir} and applied migrations ${applied.join(', ')} (${Date.now() - started} ms)`);
    return;
  }
  const applied = await migrate(store, migrations);
  if (applied.length) log(`applied migrations ${applied.join(', ')} (${Date.now() - started} ms)`);
  if (applied.length && !fresh) {
    // A migration may have rewritten the searched tables (013 and 015 do): their visibility map is then empty until
    // a VACUUM, which PGlite never runs on its own, and a search's index-only scan reads the heap row by row.
    const vacuumed = Date.now();
    await vacuumSearchTables(store);
    log(`vacuumed the searched tables after the migrations (${Date.now() - vacuumed} ms)`);
  }
  if (imported) {
    const result = await loadSnapshot(store, blobDir, plan.importDir!);
    log(`imported ${plan.importDir} (${result.tablesLoaded.length} tables, ${Date.now() - started} ms)`);
    return;
  }
  if (!fresh) return;
  const prepared = preparedTenant(plan.seed);
  if (prepared) {
    await loadSnapshot(store, blobDir, prepared.state);
    log(`loaded the prepared ${plan.seed} tenant (${Date.now() - started} ms)`);
    return;
  }
  await seedStore(store, plan.seed, log);
}
