// A saved state on disk: `snapshot.json` (what it holds, with each file's size and SHA-256), `tables/<table>.<content
// id>.copy` (each table in PostgreSQL's COPY text format, which loads into PGlite and PostgreSQL alike; `.copy.br`
// when compressed) and `blobs/` (the bytes of files and renditions). Every file is a copy of its own (a reflink
// where the file system has one): a snapshot never shares a writable file with the live state, the build's
// prepared tenants or another snapshot, so damage to one stays in it, and is found by `verifySnapshot` before
// anything is replaced.
//
// A replace is atomic without moving the folder: a file name carries its content (table files their content id,
// blobs their immutable key), so a save writes only files the old manifest does not name, then renames the new
// manifest over `snapshot.json`, the one pointer, and only then removes what the new manifest no longer names. A
// save killed at any point leaves the old snapshot or the new one whole, plus unnamed files that `pruneSnapshot`
// (at the next save, and at start) removes.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { constants, copyFile, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { brotliDecompress } from 'node:zlib';
import { z } from 'zod';

const MANIFEST = 'snapshot.json';
const FORMAT = 'dam-emulator-state';
const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;
/** A blob as `listBlobs` names it: `<2 hex>/<32 hex key>[.parts]`. */
const BLOB_PATH = /^[0-9a-f]{2}\/[0-9a-f]{32}(\.parts)?$/;

const TableEntry = z.object({
  name: z.string().regex(IDENT),
  columns: z.array(z.string().regex(IDENT)).min(1),
  rows: z.number().int().nonnegative(),
  content: z.string().regex(/^[0-9a-f]{32}$/),
  /** `tables/<name>.copy` in snapshots saved before file names carried the content id. */
  file: z.string().regex(/^tables\/[a-z0-9_]+(\.[0-9a-f]{32})?\.copy(\.br)?$/),
  /** Size and SHA-256 of the file as saved; absent in snapshots saved before they were written. */
  bytes: z.number().int().nonnegative().optional(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
});

export const Manifest = z.object({
  format: z.literal(FORMAT),
  version: z.literal(1),
  createdOn: z.string(),
  /** The backend that saved it (either loads it). */
  backend: z.string(),
  migrations: z.array(z.string()),
  seed: z.string().nullable(),
  records: z.number().int().nonnegative(),
  tables: z.array(TableEntry),
  sequences: z.array(z.object({ name: z.string().regex(IDENT), value: z.string().regex(/^-?\d+$/), called: z.boolean() })),
  blobs: z.object({
    count: z.number().int().nonnegative(),
    bytes: z.number().nonnegative(),
    /** Each blob by path with its size; absent in older snapshots, whose `blobs/` holds exactly their blobs. */
    files: z.record(z.string().regex(BLOB_PATH), z.number().int().nonnegative()).optional(),
  }),
});
export type Manifest = z.infer<typeof Manifest>;
export type TableEntry = z.infer<typeof TableEntry>;

/** A folder that is not a saved state (no manifest, or not ours). */
export class SnapshotFormatError extends Error {}

/** A saved state one of whose files is missing, cut short, altered or unreadable: nothing was replaced from it. */
export class SnapshotDamagedError extends SnapshotFormatError {
  constructor(
    readonly dir: string,
    /** The damaged file, relative to the snapshot folder (`tables/records.….copy`, `blobs/ab/…`). */
    readonly file: string,
    readonly reason: string,
  ) {
    super(`the snapshot in ${dir} is damaged: ${file} ${reason}`);
  }
}

export async function readManifest(dir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new SnapshotFormatError(`${dir} holds no saved emulator state (no ${MANIFEST})`);
    throw new SnapshotDamagedError(dir, MANIFEST, `cannot be read (${code ?? String(err)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SnapshotDamagedError(dir, MANIFEST, 'is not JSON');
  }
  const parsed = Manifest.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SnapshotFormatError(`${join(dir, MANIFEST)} is not a saved emulator state: ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

export const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** SHA-256 of a file, streamed (a table file may be larger than one wants in memory twice). */
async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

function reasonOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'is missing';
  return `cannot be read (${code ?? (err as Error).message ?? String(err)})`;
}

/** COPY text format: a row per line, columns split by tabs (a tab in a value is written `\t`). */
function checkCopyText(data: Buffer, entry: TableEntry): string | undefined {
  if (data.length > 0 && data[data.length - 1] !== 10) return 'is cut short (its last row has no end)';
  let rows = 0;
  let tabs = 0;
  for (let i = 0; i < data.length; i++) {
    const c = data[i];
    if (c === 9) tabs++;
    else if (c === 10) {
      if (tabs !== entry.columns.length - 1) return `has a row with ${tabs + 1} column(s) at line ${rows + 1}, the manifest says ${entry.columns.length}`;
      rows++;
      tabs = 0;
    }
  }
  return rows === entry.rows ? undefined : `holds ${rows} row(s), the manifest says ${entry.rows}`;
}

async function decompressed(dir: string, entry: TableEntry, bytes: Buffer): Promise<Buffer> {
  if (!entry.file.endsWith('.br')) return bytes;
  try {
    return await promisify(brotliDecompress)(bytes);
  } catch {
    throw new SnapshotDamagedError(dir, entry.file, 'is not valid brotli (cut short or altered)');
  }
}

/**
 * Checks a table file against its manifest entry: present, of its size and checksum, or (in a snapshot saved
 * without them) readable as COPY text of the manifest's rows and columns.
 */
async function verifyTable(dir: string, entry: TableEntry): Promise<void> {
  const path = join(dir, entry.file);
  let size: number;
  try {
    const s = await stat(path);
    if (!s.isFile()) throw new SnapshotDamagedError(dir, entry.file, 'is not a file');
    size = s.size;
  } catch (err) {
    if (err instanceof SnapshotDamagedError) throw err;
    throw new SnapshotDamagedError(dir, entry.file, reasonOf(err));
  }
  if (entry.bytes !== undefined && size !== entry.bytes) throw new SnapshotDamagedError(dir, entry.file, `is ${size} bytes, the manifest says ${entry.bytes} (cut short or altered)`);
  if (entry.sha256 !== undefined) {
    let sum: string;
    try {
      sum = await hashFile(path);
    } catch (err) {
      throw new SnapshotDamagedError(dir, entry.file, reasonOf(err));
    }
    if (sum !== entry.sha256) throw new SnapshotDamagedError(dir, entry.file, 'does not match its checksum (altered since it was saved)');
    return;
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (err) {
    throw new SnapshotDamagedError(dir, entry.file, reasonOf(err));
  }
  const wrong = checkCopyText(await decompressed(dir, entry, bytes), entry);
  if (wrong) throw new SnapshotDamagedError(dir, entry.file, wrong);
}

/** The snapshot's blobs by path with their sizes: as its manifest lists them, or (older snapshots) as its folder holds them. */
export async function snapshotBlobs(dir: string, manifest: Manifest): Promise<Map<string, number>> {
  return manifest.blobs.files ? new Map(Object.entries(manifest.blobs.files)) : listBlobs(join(dir, 'blobs'));
}

/**
 * Checks every file the snapshot names before anything is replaced from it; throws SnapshotDamagedError naming the
 * first damaged file. All tables are checked, not only those a restore would load: a damaged snapshot is never
 * restored, even when its damaged tables happen to match the live state.
 */
export async function verifySnapshot(dir: string, manifest: Manifest): Promise<void> {
  for (const entry of manifest.tables) await verifyTable(dir, entry);
  if (manifest.blobs.files) {
    for (const [path, size] of Object.entries(manifest.blobs.files)) {
      const file = `blobs/${path}`;
      let actual: number;
      try {
        actual = (await stat(join(dir, file))).size;
      } catch (err) {
        throw new SnapshotDamagedError(dir, file, reasonOf(err));
      }
      if (actual !== size) throw new SnapshotDamagedError(dir, file, `is ${actual} bytes, the manifest says ${size} (cut short or altered)`);
    }
    return;
  }
  const blobs = await listBlobs(join(dir, 'blobs'));
  const bytes = [...blobs.values()].reduce((a, b) => a + b, 0);
  if (blobs.size !== manifest.blobs.count || bytes !== manifest.blobs.bytes) {
    throw new SnapshotDamagedError(dir, 'blobs/', `holds ${blobs.size} file(s) of ${bytes} bytes, the manifest says ${manifest.blobs.count} of ${manifest.blobs.bytes}`);
  }
}

/** A table file's rows as COPY text, checked against the manifest again (the file may have changed since the verification). */
export async function readTable(dir: string, entry: TableEntry): Promise<Buffer> {
  let bytes: Buffer;
  try {
    bytes = await readFile(join(dir, entry.file));
  } catch (err) {
    throw new SnapshotDamagedError(dir, entry.file, reasonOf(err));
  }
  if (entry.sha256 !== undefined && sha256Of(bytes) !== entry.sha256) throw new SnapshotDamagedError(dir, entry.file, 'does not match its checksum (altered since it was saved)');
  return decompressed(dir, entry, bytes);
}

/** Writes `bytes` to `dir/file` under a temporary name first, so the name holds the whole file or nothing. */
export async function putFile(dir: string, file: string, bytes: Uint8Array): Promise<void> {
  const tmp = join(dir, dirname(file), `.${basename(file)}.${randomBytes(4).toString('hex')}.tmp`);
  await writeFile(tmp, bytes);
  await rename(tmp, join(dir, file));
}

/**
 * A copy of `from` at `to` (through a temporary name beside it, or in `tmpDir`): its own file, never a hard link,
 * so writing to one cannot change the other; a reflink where the file system has them, so it costs no space.
 */
export async function copyInto(from: string, to: string, tmpDir = dirname(to)): Promise<void> {
  const tmp = join(tmpDir, `.${basename(to)}.${randomBytes(4).toString('hex')}.tmp`);
  await copyFile(from, tmp, constants.COPYFILE_FICLONE);
  await rename(tmp, to);
}

/** Whether `dir/entry.file` exists and holds what the entry says (size and checksum). */
export async function tableFileIntact(dir: string, entry: TableEntry): Promise<boolean> {
  if (entry.sha256 === undefined || entry.bytes === undefined) return false;
  try {
    const path = join(dir, entry.file);
    return (await stat(path)).size === entry.bytes && (await hashFile(path)) === entry.sha256;
  } catch {
    return false;
  }
}

/** Puts `manifest` in place of the snapshot's manifest in one rename: the moment the snapshot becomes the new one. */
export async function writeManifest(dir: string, manifest: Manifest): Promise<void> {
  await putFile(dir, MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
}

/** Every blob file under a blob folder (`<2 hex>/<key>[.parts]`), by relative path, with its size. */
export async function listBlobs(root: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  let shards: string[];
  try {
    shards = await readdir(root);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return out;
    throw err;
  }
  await Promise.all(
    shards
      .filter((s) => /^[0-9a-f]{2}$/.test(s))
      .map(async (shard) => {
        for (const name of await readdir(join(root, shard))) {
          if (!/^[0-9a-f]{32}(\.parts)?$/.test(name)) continue;
          out.set(`${shard}/${name}`, (await stat(join(root, shard, name))).size);
        }
      }),
  );
  return out;
}

/** Copies `from/<path>` to `to/<path>` for each path (each its own file; see copyInto). */
export async function copyBlobs(from: string, to: string, paths: Iterable<string>, tmpDir?: string): Promise<void> {
  const jobs: Promise<void>[] = [];
  if (tmpDir) await mkdir(tmpDir, { recursive: true });
  for (const path of paths) {
    jobs.push(
      (async () => {
        await mkdir(join(to, dirname(path)), { recursive: true });
        await copyInto(join(from, path), join(to, path), tmpDir);
      })(),
    );
  }
  await Promise.all(jobs);
}

/**
 * Removes from a snapshot folder what its manifest does not name: files of an earlier version of it, and what a
 * save killed part way wrote. Only `tables/`, `blobs/` and the manifest's temporary names are touched, so a folder
 * given by path (--export-on-exit) keeps anything else it holds. Answers how many files were removed.
 */
export async function pruneSnapshot(dir: string, manifest: Manifest): Promise<number> {
  let removed = 0;
  const drop = async (path: string) => {
    await rm(path, { recursive: true, force: true });
    removed++;
  };
  const tables = new Set(manifest.tables.map((t) => basename(t.file)));
  for (const name of await readdir(join(dir, 'tables')).catch(() => [] as string[])) if (!tables.has(name)) await drop(join(dir, 'tables', name));
  for (const name of await readdir(dir).catch(() => [] as string[])) if (name.startsWith(`.${MANIFEST}.`) && name.endsWith('.tmp')) await drop(join(dir, name));
  const blobs = manifest.blobs.files;
  for (const shard of await readdir(join(dir, 'blobs')).catch(() => [] as string[])) {
    for (const name of await readdir(join(dir, 'blobs', shard)).catch(() => [] as string[])) {
      // An older snapshot (no list) holds exactly its blobs: only what a save was writing goes.
      const keep = blobs ? blobs[`${shard}/${name}`] !== undefined : !name.endsWith('.tmp');
      if (!keep) await drop(join(dir, 'blobs', shard, name));
    }
  }
  return removed;
}

/** `.NAME.xxxxxxxx.partial` and `.NAME.xxxxxxxx.old`: the staging folders of the save of earlier versions. */
const STAGING = /^\..+\.[0-9a-f]{8}\.(partial|old)$/;

/**
 * Sweeps what killed saves left in a folder of snapshots: the staging folders of earlier versions (of every
 * snapshot, or only of `only`, a folder given by path whose neighbours are not ours), folders a first save left
 * without a manifest, and each snapshot's unnamed files. Answers how many it removed.
 */
export async function sweepSnapshots(parent: string, only?: string): Promise<number> {
  let removed = 0;
  let names: string[];
  try {
    names = await readdir(parent);
  } catch {
    return 0;
  }
  for (const name of names) {
    const path = join(parent, name);
    if (STAGING.test(name) && (only === undefined || name.startsWith(`.${only}.`))) {
      await rm(path, { recursive: true, force: true });
      removed++;
      continue;
    }
    if (only !== undefined && name !== only) continue;
    if (name.startsWith('.')) continue;
    let manifest: Manifest;
    try {
      manifest = await readManifest(path);
    } catch (err) {
      // A folder of ours with nothing but what a first save was writing when it was stopped.
      const empty = only === undefined && err instanceof SnapshotFormatError && !(err instanceof SnapshotDamagedError) && (await isSaveRemnant(path));
      if (empty) {
        await rm(path, { recursive: true, force: true });
        removed++;
      }
      continue;
    }
    removed += await pruneSnapshot(path, manifest);
  }
  return removed;
}

/** A folder holding at most `tables/` and `blobs/` and no manifest: a save stopped before its first manifest. */
async function isSaveRemnant(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isDirectory()) return false;
    return (await readdir(path)).every((n) => n === 'tables' || n === 'blobs');
  } catch {
    return false;
  }
}
