// Saving the emulator's state to a snapshot folder (snapshotDir.ts) and loading one back, on either backend.
// A load first verifies every file the snapshot names, then replaces only the tables whose content differs from
// the snapshot's (tables.ts), in one transaction, and brings the blob folder to the snapshot's blobs: new ones are
// copied in before the database changes, those the snapshot does not have are removed after it committed, so a
// crash in between leaves unused files, never a row naming a missing blob.
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Queryable, Store } from '../storage/store';
import {
  type Manifest,
  type TableEntry,
  SnapshotDamagedError,
  SnapshotFormatError,
  copyBlobs,
  copyInto,
  listBlobs,
  pruneSnapshot,
  putFile,
  readManifest,
  readTable,
  sha256Of,
  snapshotBlobs,
  tableFileIntact,
  verifySnapshot,
  writeManifest,
} from './snapshotDir';
import {
  KEPT_ROWS,
  VERSION_SEQUENCES,
  contentIds,
  ensureTracking,
  newContentId,
  quote,
  recordContent,
  tenantSequences,
  tenantTables,
  withDependants,
  referencedBy,
  type TableInfo,
} from './tables';

export { SnapshotDamagedError, SnapshotFormatError, readManifest, verifySnapshot };

/** A snapshot that cannot be loaded into this emulator (saved by another version of it). */
export class SnapshotMismatchError extends Error {}

export interface LoadResult {
  /** Tables whose rows were replaced; the others already held the snapshot's content. */
  tablesLoaded: string[];
  blobsAdded: number;
  blobsRemoved: number;
  ms: number;
}

const selectFor = (t: TableInfo) => {
  const cols = t.columns.map(quote).join(', ');
  const kept = KEPT_ROWS[t.name];
  return kept ? `(SELECT ${cols} FROM ${quote(t.name)} WHERE NOT (${kept}))` : `${quote(t.name)} (${cols})`;
};

/** COPY text format: one line per row, so counting newlines counts rows. */
function countRows(data: Buffer): number {
  let n = 0;
  for (let i = data.indexOf(10); i !== -1; i = data.indexOf(10, i + 1)) n++;
  return n;
}

interface SavedTable {
  dir: string;
  entry: TableEntry;
}

/** Table files of snapshots by table and content id: a table saved before and unchanged since is copied, not read from the database. */
async function savedTables(dirs: string[]): Promise<Map<string, SavedTable>> {
  const found = new Map<string, SavedTable>();
  for (const dir of dirs) {
    const manifest = await readManifest(dir).catch(() => undefined);
    // Only files with a checksum: the copy is checked against it before it is used.
    for (const entry of manifest?.tables ?? []) if (entry.sha256 !== undefined) found.set(`${entry.name}\0${entry.content}`, { dir, entry });
  }
  return found;
}

/** `tables/<table>.<content id>.copy[.br]`: a new content gets a new name, so a save never writes over a file the old manifest names. */
const tableFile = (name: string, content: string, compressed: boolean) => `tables/${name}.${content}.copy${compressed ? '.br' : ''}`;

/**
 * Saves the state to `dir`, replacing what was saved there in one rename of the manifest (snapshotDir.ts). Nothing
 * may write meanwhile (the caller holds the gate). `reuse`: other snapshot folders whose files of unchanged tables
 * can be copied instead of read again from the database.
 */
export async function saveSnapshot(store: Store, blobDir: string, dir: string, reuse: string[] = []): Promise<Manifest> {
  await mkdir(join(dir, 'tables'), { recursive: true });
  const current = await readManifest(dir).catch(() => undefined);
  // This folder's own files first: a table unchanged since its last save here keeps its file as it is.
  const earlier = await savedTables([...reuse, ...(current ? [dir] : [])]);
  const manifest = await store.transaction(async (tx) => {
    const tables = await tenantTables(tx);
    await ensureTracking(tx, tables);
    const known = await contentIds(tx, tables);
    const content = new Map<string, string>();
    const entries: Manifest['tables'] = [];
    for (const t of tables) {
      const id = known.get(t.name) ?? newContentId();
      content.set(t.name, id);
      const same = known.has(t.name) ? earlier.get(`${t.name}\0${id}`) : undefined;
      if (same && same.entry.columns.join() === t.columns.join() && (await tableFileIntact(same.dir, same.entry))) {
        const file = tableFile(t.name, id, same.entry.file.endsWith('.br'));
        if (same.dir !== dir || same.entry.file !== file) await copyInto(join(same.dir, same.entry.file), join(dir, file));
        entries.push({ ...same.entry, file });
        continue;
      }
      const data = await tx.copyTo(selectFor(t));
      const file = tableFile(t.name, id, false);
      await putFile(dir, file, data);
      entries.push({ name: t.name, columns: t.columns, rows: countRows(data), content: id, file, bytes: data.length, sha256: sha256Of(data) });
    }
    await recordContent(tx, tables, content);
    const sequences: Manifest['sequences'] = [];
    for (const name of await tenantSequences(tx)) {
      const [row] = await tx.query<{ value: string; called: boolean }>(`SELECT last_value::text AS value, is_called AS called FROM ${quote(name)}`);
      sequences.push({ name, value: row.value, called: row.called });
    }
    const migrations = (await tx.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY applied_on, id')).map((r) => r.id);
    const seed = (await tx.query<{ value: string }>(`SELECT value FROM meta WHERE key = 'seed'`))[0]?.value ?? null;
    const records = entries.find((e) => e.name === 'records')?.rows ?? 0;
    return { migrations, seed, records, tables: entries, sequences };
  });
  // Blobs never change once written, so one of the same key and size already here is the same blob.
  const blobs = await listBlobs(blobDir);
  const here = await listBlobs(join(dir, 'blobs'));
  await copyBlobs(blobDir, join(dir, 'blobs'), [...blobs.keys()].filter((p) => here.get(p) !== blobs.get(p)));
  const full: Manifest = {
    format: 'dam-emulator-state',
    version: 1,
    createdOn: new Date().toISOString(),
    backend: store.kind,
    ...manifest,
    blobs: { count: blobs.size, bytes: [...blobs.values()].reduce((a, b) => a + b, 0), files: Object.fromEntries(blobs) },
  };
  await writeManifest(dir, full);
  await pruneSnapshot(dir, full);
  return full;
}

async function mayLeaveForeignKeysUnchecked(db: Queryable): Promise<boolean> {
  const [row] = await db.query<{ superuser: boolean }>(`SELECT rolsuper AS superuser FROM pg_roles WHERE rolname = current_user`);
  return row?.superuser === true;
}

/** The largest part of `replace` that one TRUNCATE can empty: no table outside that part references one inside it. */
async function truncatableTogether(db: Queryable, replace: Set<string>): Promise<Set<string>> {
  const refs = await referencedBy(db);
  const together = new Set([...replace].filter((t) => !KEPT_ROWS[t]));
  for (let shrunk = true; shrunk; ) {
    shrunk = false;
    for (const t of together) {
      if ((refs.get(t) ?? []).some((child) => !together.has(child))) {
        together.delete(t);
        shrunk = true;
      }
    }
  }
  return together;
}

/** Checks that the snapshot fits this database's schema before anything is changed. */
async function checkFits(store: Store, manifest: Manifest, tables: TableInfo[]): Promise<void> {
  const live = (await store.query<{ id: string }>('SELECT id FROM schema_migrations')).map((r) => r.id);
  const unknown = manifest.migrations.filter((m) => !live.includes(m));
  if (unknown.length) throw new SnapshotMismatchError(`the snapshot was saved by a newer emulator (schema ${unknown.join(', ')} is unknown here)`);
  const missing = live.filter((m) => !manifest.migrations.includes(m));
  if (missing.length) {
    throw new SnapshotMismatchError(
      `the snapshot was saved by an older emulator (before schema ${missing.join(', ')}); load it into a new data folder with --import, which brings it up to date`,
    );
  }
  for (const entry of manifest.tables) {
    const t = tables.find((x) => x.name === entry.name);
    if (!t) throw new SnapshotMismatchError(`the snapshot has a table '${entry.name}' this emulator does not`);
    const extra = entry.columns.filter((c) => !t.columns.includes(c));
    if (extra.length) throw new SnapshotMismatchError(`the snapshot's table '${entry.name}' has columns this emulator does not: ${extra.join(', ')}`);
  }
}

/**
 * Loads the snapshot in `dir` over the current state. Nothing may read or write meanwhile (the caller holds the
 * gate).
 */
export async function loadSnapshot(store: Store, blobDir: string, dir: string): Promise<LoadResult> {
  const started = performance.now();
  const manifest = await readManifest(dir);
  const tables = await tenantTables(store);
  await checkFits(store, manifest, tables);
  await verifySnapshot(dir, manifest);
  await ensureTracking(store, tables);

  // The snapshot's blobs go in first: whatever row of the snapshot names one finds it.
  const wanted = await snapshotBlobs(dir, manifest);
  const present = await listBlobs(blobDir);
  const toAdd = [...wanted.keys()].filter((p) => !present.has(p));
  await copyBlobs(join(dir, 'blobs'), blobDir, toAdd, join(blobDir, 'tmp'));

  const loaded = await store.transaction(async (tx) => {
    const live = await contentIds(tx, tables);
    const byName = new Map(manifest.tables.map((e) => [e.name, e]));
    const differ = new Set(tables.filter((t) => !byName.has(t.name) || live.get(t.name) !== byName.get(t.name)!.content).map((t) => t.name));
    // As a superuser (always on PGlite) foreign keys can be left unchecked while the rows are swapped, so only the
    // changed tables are reloaded: a table that did not change still matches the parents the snapshot loads. Else
    // emptying a parent would cascade into (or be blocked by) its children, so they are reloaded with it.
    const unchecked = await mayLeaveForeignKeysUnchecked(tx);
    if (unchecked) await tx.exec('SET LOCAL session_replication_role = replica');
    const replace = unchecked ? differ : await withDependants(tx, differ);
    const order = tables.filter((t) => replace.has(t.name));
    // Read every file before the first row goes, so a missing or damaged file changes nothing.
    const data = new Map<string, Buffer>();
    for (const t of order) {
      const entry = byName.get(t.name);
      if (entry) data.set(t.name, await readTable(dir, entry));
    }
    // TRUNCATE is quickest, but only for tables whose referencing tables are emptied in the same statement.
    const truncatable = await truncatableTogether(tx, replace);
    const truncate = order.filter((t) => truncatable.has(t.name));
    if (truncate.length) await tx.exec(`TRUNCATE ${truncate.map((t) => quote(t.name)).join(', ')}`);
    for (const t of [...order].reverse()) {
      if (truncate.includes(t)) continue;
      await tx.exec(`DELETE FROM ${quote(t.name)}${KEPT_ROWS[t.name] ? ` WHERE NOT (${KEPT_ROWS[t.name]})` : ''}`);
    }
    for (const t of order) {
      const entry = byName.get(t.name);
      const rows = data.get(t.name);
      if (!entry || !rows?.length) continue;
      try {
        await tx.copyFrom(`${quote(t.name)} (${entry.columns.map(quote).join(', ')})`, rows);
      } catch (err) {
        // Rows the database refuses (a file altered along with its manifest): the transaction rolls back, naming the file.
        throw new SnapshotDamagedError(dir, entry.file, `could not be loaded: ${(err as Error).message}`);
      }
    }
    for (const s of manifest.sequences) {
      if (VERSION_SEQUENCES.has(s.name)) continue;
      await tx.query(`SELECT setval($1, $2::bigint, $3)`, [s.name, s.value, s.called]);
    }
    // Caches keyed by these versions must not take the loaded rows for ones they have seen.
    for (const name of VERSION_SEQUENCES) {
      const exists = await tx.query(`SELECT 1 FROM pg_class WHERE relname = $1 AND relnamespace = current_schema()::regnamespace`, [name]);
      if (exists.length) await tx.query(`SELECT nextval($1)`, [name]);
    }
    const content = new Map<string, string>();
    // A table the snapshot does not have was emptied: its content is that of no snapshot.
    for (const t of order) content.set(t.name, byName.get(t.name)?.content ?? newContentId());
    await recordContent(tx, order, content);
    return order.map((t) => t.name);
  });

  const toRemove = [...present.keys()].filter((p) => !wanted.has(p));
  await Promise.all(toRemove.map((p) => rm(join(blobDir, p), { force: true })));
  return { tablesLoaded: loaded, blobsAdded: toAdd.length, blobsRemoved: toRemove.length, ms: performance.now() - started };
}
