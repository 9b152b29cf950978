// Bytes of uploads, file versions and renditions, as files in one folder: `<data>/blobs/` for a persistent
// emulator, a private temporary folder (removed on close) for `:memory:` and PostgreSQL-backed ones.
// Rows in the database name blobs by key; a blob is written to a temporary name and renamed into place,
// so a key that a committed row names always holds the whole file, even after `kill -9`.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { rename, rm, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createHash } from 'node:crypto';

export interface WrittenBlob {
  key: string;
  size: number;
  sha256: string;
}

export interface BlobStore {
  /** The folder the blobs live in. */
  readonly dir: string;
  /** Streams `source` into a new blob; the key exists only once the whole stream was written. */
  write(source: Readable | AsyncIterable<Uint8Array>, options?: { maxBytes?: number; signal?: AbortSignal }): Promise<WrittenBlob>;
  /** Writes a buffer as a new blob. */
  put(bytes: Uint8Array): Promise<WrittenBlob>;
  /** Absolute path of a blob (for streaming it out or handing it to an image library). */
  path(key: string): string;
  read(key: string, range?: { start: number; end: number }): Readable;
  size(key: string): Promise<number | undefined>;
  remove(key: string): Promise<void>;
  /** Removes the folder when it was a private temporary one. */
  close(): Promise<void>;
}

const KEY = /^[0-9a-f]{32}$/;

export class BlobTooLargeError extends Error {}

export function openBlobStore(data: string | undefined): BlobStore {
  const temporary = !data || data === ':memory:';
  const dir = temporary ? mkdtempSync(join(tmpdir(), 'dam-blobs-')) : resolve(data, 'blobs');
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  const pathOf = (key: string) => {
    if (!KEY.test(key)) throw new Error(`not a blob key: ${key.slice(0, 40)}`);
    return join(dir, key.slice(0, 2), key);
  };

  async function write(source: Readable | AsyncIterable<Uint8Array>, options: { maxBytes?: number; signal?: AbortSignal } = {}): Promise<WrittenBlob> {
    const key = randomBytes(16).toString('hex');
    const partial = join(dir, 'tmp', `${key}.part`);
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (options.maxBytes !== undefined && size > options.maxBytes) return done(new BlobTooLargeError(`more than ${options.maxBytes} bytes`));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(source, meter, createWriteStream(partial), { signal: options.signal });
      mkdirSync(join(dir, key.slice(0, 2)), { recursive: true });
      await rename(partial, pathOf(key));
    } catch (err) {
      await unlink(partial).catch(() => undefined);
      throw err;
    }
    return { key, size, sha256: hash.digest('hex') };
  }

  return {
    dir,
    write,
    put: (bytes) => write((async function* () { yield bytes; })()),
    path: pathOf,
    read: (key, range) => createReadStream(pathOf(key), range),
    async size(key) {
      try {
        return (await stat(pathOf(key))).size;
      } catch {
        return undefined;
      }
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    async close() {
      if (temporary) rmSync(dir, { recursive: true, force: true });
    },
  };
}
