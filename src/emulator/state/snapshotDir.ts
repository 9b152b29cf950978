// A saved state on disk: `snapshot.json` (what it holds), `tables/<table>.copy` (each table in PostgreSQL's COPY
// text format, which loads into PGlite and PostgreSQL alike; `.copy.br` when compressed) and `blobs/` (the bytes of
// files and renditions, hard links to the emulator's own when they share a file system: blobs never change once
// written, so a link is a copy that costs nothing).
import { link, copyFile, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompress } from 'node:zlib';
import { z } from 'zod';

const MANIFEST = 'snapshot.json';
const FORMAT = 'dam-emulator-state';

const TableEntry = z.object({
  name: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/),
  columns: z.array(z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/)).min(1),
  rows: z.number().int().nonnegative(),
  content: z.string().regex(/^[0-9a-f]{32}$/),
  file: z.string().regex(/^tables\/[a-z0-9_]+\.copy(\.br)?$/),
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
  sequences: z.array(z.object({ name: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/), value: z.string().regex(/^-?\d+$/), called: z.boolean() })),
  blobs: z.object({ count: z.number().int().nonnegative(), bytes: z.number().nonnegative() }),
});
export type Manifest = z.infer<typeof Manifest>;
export type TableEntry = z.infer<typeof TableEntry>;

export class SnapshotFormatError extends Error {}

export async function readManifest(dir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new SnapshotFormatError(`${dir} holds no saved emulator state (no ${MANIFEST})`);
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SnapshotFormatError(`${join(dir, MANIFEST)} is not JSON`);
  }
  const parsed = Manifest.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SnapshotFormatError(`${join(dir, MANIFEST)} is not a saved emulator state: ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

export async function readTable(dir: string, entry: TableEntry): Promise<Buffer> {
  const bytes = await readFile(join(dir, entry.file));
  return entry.file.endsWith('.br') ? promisify(brotliDecompress)(bytes) : bytes;
}

/** A new folder beside `final` to write a snapshot into; `commit` puts it in place of whatever `final` was. */
export async function stagingFor(final: string): Promise<{ dir: string; commit(): Promise<void>; discard(): Promise<void> }> {
  const parent = dirname(final);
  await mkdir(parent, { recursive: true });
  const dir = join(parent, `.${basename(final)}.${randomBytes(4).toString('hex')}.partial`);
  await mkdir(join(dir, 'tables'), { recursive: true });
  return {
    dir,
    async commit() {
      // Renames are atomic: a crash leaves the old snapshot or the new one in place (and a stray folder to sweep).
      const old = join(parent, `.${basename(final)}.${randomBytes(4).toString('hex')}.old`);
      let moved = false;
      try {
        await rename(final, old);
        moved = true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      await rename(dir, final);
      if (moved) await rm(old, { recursive: true, force: true });
    },
    discard: () => rm(dir, { recursive: true, force: true }),
  };
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

/** A hard link where the file system allows one, else a copy. */
export async function linkFile(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw err;
    await copyFile(from, to);
  }
}

/** Puts `from/<path>` at `to/<path>` for each path: a hard link where it can, a copy across file systems. */
export async function linkBlobs(from: string, to: string, paths: Iterable<string>): Promise<void> {
  const jobs: Promise<void>[] = [];
  for (const path of paths) {
    jobs.push(
      (async () => {
        await mkdir(join(to, dirname(path)), { recursive: true });
        await linkFile(join(from, path), join(to, path));
      })(),
    );
  }
  await Promise.all(jobs);
}

export async function writeManifest(dir: string, manifest: Manifest): Promise<void> {
  await writeFile(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}
