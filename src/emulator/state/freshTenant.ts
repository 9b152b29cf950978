// A snapshot folder holding a fresh tenant of a seed, for a reset and for seeding a PostgreSQL schema: the one
// prepared at build time when the bundle has it, else one made once per process in an in-memory PGlite.
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedStore } from '../seed';
import { migrations } from '../storage/migrations';
import { migrate } from '../storage/migrate';
import { openPglite } from '../storage/pglite';
import { preparedTenant } from './prepared';
import { saveSnapshot } from './snapshots';

const made = new Map<string, Promise<string>>();
let scratch: string | undefined;

/**
 * Saves a newly seeded in-memory tenant into `dir`, starting from `template` (a seeded database of this process,
 * see server.ts) when there is one.
 */
export async function makeTenantSnapshot(seed: 'demo' | 'empty', dir: string, log: (line: string) => void = () => undefined, template?: Blob): Promise<void> {
  const store = await openPglite(':memory:', template);
  try {
    await migrate(store, migrations);
    await seedStore(store, seed, log);
    const noBlobs = join(dir, '..', `.${seed}-no-blobs`);
    await mkdir(noBlobs, { recursive: true });
    await saveSnapshot(store, noBlobs, dir);
    rmSync(noBlobs, { recursive: true, force: true });
  } finally {
    await store.close();
  }
}

export function freshTenant(seed: 'demo' | 'empty', log: (line: string) => void, template?: Promise<Blob>): Promise<string> {
  const prepared = preparedTenant(seed);
  if (prepared) return Promise.resolve(prepared.state);
  let dir = made.get(seed);
  if (!dir) {
    if (!scratch) {
      const folder = mkdtempSync(join(tmpdir(), 'dam-fresh-tenant-'));
      scratch = folder;
      process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    }
    const target = join(scratch, seed);
    log(`making a fresh ${seed} tenant to load (once per process; a built emulator has it prepared)`);
    dir = (async () => {
      await makeTenantSnapshot(seed, target, log, await template?.catch(() => undefined));
      return target;
    })();
    made.set(seed, dir);
    dir.catch(() => made.delete(seed));
  }
  return dir;
}
