// `node out/prepare.js OUT_DIR FINGERPRINT`, run by esbuild.mjs when the seeders, migrations or storage changed:
// writes the prepared tenants (prepared.ts) into OUT_DIR. For each seed, one data folder is initialised, migrated
// and seeded, its state saved as a snapshot (so the data directory's table content ids match the snapshot's, and a
// reset of an untouched emulator loads nothing), and its data directory packed as a brotli tarball.
import { cpSync, createWriteStream, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, brotliCompressSync, createBrotliCompress } from 'node:zlib';
import { c as createTar } from 'tar';
import { seedStore } from '../seed';
import { migrations } from '../storage/migrations';
import { migrate } from '../storage/migrate';
import { openPglite, type PgliteTuning } from '../storage/pglite';
import { PREPARED_MANIFEST, type PreparedManifest } from './prepared';
import { readManifest, sha256Of, writeManifest } from './snapshotDir';
import { saveSnapshot } from './snapshots';

/**
 * WAL segments of 1 MB instead of 16, and old segments removed rather than kept for reuse: the data directory
 * then carries one or two MB of WAL instead of 48, which a new data folder would unpack for nothing.
 */
const SMALL_WAL: PgliteTuning = { initdbArgs: ['--wal-segsize=1'], startParams: ['-c', 'wal_recycle=off', '-c', 'min_wal_size=2MB'] };

const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 6 } };

/**
 * The emulator works in the one database PGlite opens ('postgres') and never creates another, so the two template
 * databases are dead weight in a data folder: without them a new data folder unpacks 650 files and 32 MB instead of
 * 1,200 and 47 MB, and its first start is that much quicker.
 */
async function dropTemplates(store: { exec(sql: string): Promise<void> }): Promise<void> {
  await store.exec(`UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')`);
  await store.exec('DROP DATABASE template0');
  await store.exec('DROP DATABASE template1');
}

/** Table files compressed: the prepared snapshots ship in the package. */
async function compressTables(dir: string): Promise<void> {
  const manifest = await readManifest(dir);
  for (const table of manifest.tables) {
    const raw = join(dir, table.file);
    const compressed = brotliCompressSync(readFileSync(raw), BROTLI);
    writeFileSync(`${raw}.br`, compressed);
    rmSync(raw);
    table.file = `${table.file}.br`;
    table.bytes = compressed.length;
    table.sha256 = sha256Of(compressed);
  }
  await writeManifest(dir, manifest);
}

/** One line per step on stdout, `step KEY what it does`: esbuild.mjs shows it with how long that step took last time. */
const step = (key: string, what: string) => process.stdout.write(`step ${key} ${what}\n`);

async function main(): Promise<void> {
  const [out, fingerprint] = process.argv.slice(2);
  if (!out || !fingerprint) throw new Error('usage: prepare OUT_DIR FINGERPRINT');
  const work = mkdtempSync(join(tmpdir(), 'dam-prepare-'));
  try {
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    step('migrate', 'initialising a PostgreSQL data folder (PGlite) and migrating it');
    const migrated = join(work, 'migrated');
    const base = await openPglite(migrated, undefined, SMALL_WAL);
    await migrate(base, migrations);
    await base.close();
    const noBlobs = join(work, 'no-blobs');
    mkdirSync(noBlobs);
    const seeds: PreparedManifest['seeds'] = {};
    for (const seed of ['empty', 'demo'] as const) {
      step(`seed-${seed}`, seed === 'demo' ? 'seeding the demo tenant (600 records, 120,000 analytics events) and packing it' : 'seeding the empty tenant and packing it');
      const folder = join(work, seed);
      cpSync(migrated, folder, { recursive: true });
      rmSync(join(folder, 'emulator.lock'), { force: true });
      const store = await openPglite(folder, undefined, SMALL_WAL);
      await seedStore(store, seed, () => undefined);
      const state = `${seed}.state`;
      await saveSnapshot(store, noBlobs, join(out, state));
      await dropTemplates(store);
      await store.exec('CHECKPOINT');
      await store.close();
      await compressTables(join(out, state));
      const pgdata = `${seed}.pgdata.tar.br`;
      const dataDir = join(folder, 'pgdata');
      await pipeline(createTar({ cwd: dataDir, portable: true }, readdirSync(dataDir)), createBrotliCompress(BROTLI), createWriteStream(join(out, pgdata)));
      seeds[seed] = { pgdata, state };
    }
    writeFileSync(join(out, PREPARED_MANIFEST), `${JSON.stringify({ fingerprint, seeds }, null, 2)}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`prepare: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
