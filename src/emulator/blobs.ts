// Bytes of uploads, file versions and renditions, as files in one folder: `<data>/blobs/` for a persistent
// emulator (a PostgreSQL-backed one: `--data`, or its schema's folder, server.ts), a private temporary folder
// (removed on close) for `:memory:`.
// Rows in the database name blobs by key; a blob is written to a temporary name and renamed into place,
// so a key that a committed row names always holds the whole file, even after `kill -9`.
// A composed blob (a committed segmented upload) is a small manifest `<key>.parts` naming its parts, which are
// blobs of their own: committing hundreds of MB then writes a few hundred bytes instead of copying every byte.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileHasher } from './fileHasher';

export interface WrittenBlob {
  key: string;
  size: number;
  sha256: string;
}

export interface BlobStore {
  /** The folder the blobs live in. */
  readonly dir: string;
  /**
   * Streams `source` into a new blob; the key exists only once the whole stream was written. `checksum: false`
   * skips the SHA-256 (`sha256` is then empty), for parts whose checksum is taken when they are composed.
   */
  write(source: Readable | AsyncIterable<Uint8Array>, options?: WriteOptions): Promise<WrittenBlob>;
  /** Writes a buffer as a new blob. */
  put(bytes: Uint8Array): Promise<WrittenBlob>;
  /**
   * A new blob whose bytes are those of its parts in order, without copying them, built up part by part so the
   * checksum can be taken while later parts are still on their way. Once finished, the parts belong to it
   * (removing it removes them) and must not be removed on their own; until a row names it, `release` undoes this.
   */
  composition(): Composition;
  /** Forgets a composed blob that no row names yet, leaving its parts as they were. */
  release(key: string): Promise<void>;
  /** Streams a blob, or the inclusive byte range of it. */
  read(key: string, range?: { start: number; end: number }): Readable;
  /** A whole blob in memory (callers bound the size first). */
  bytes(key: string): Promise<Buffer>;
  /** Where a blob's bytes (or the inclusive range of them) lie, as files and ranges in order: for a worker process that reads them itself. */
  pieces(key: string, range?: { start: number; end: number }): Promise<{ path: string; start: number; end: number }[]>;
  size(key: string): Promise<number | undefined>;
  remove(key: string): Promise<void>;
  /** Removes temporary files a killed process left behind; only while nothing else writes into the folder. */
  sweepTemporary(): Promise<number>;
  /** Removes the folder when it was a private temporary one. */
  close(): Promise<void>;
}

const KEY = /^[0-9a-f]{32}$/;
const WRITE_BUFFER = 1 << 20;

export interface WriteOptions {
  maxBytes?: number;
  signal?: AbortSignal;
  checksum?: boolean;
  /** Told where the bytes land once the blob's file exists, before the first byte is written (Composition.follow). */
  started?: (blob: BlobInProgress) => void;
}

/** A blob being written: its file's temporary name, then the one it is renamed to once whole. */
export interface BlobInProgress {
  readonly paths: readonly [partial: string, final: string];
}

interface Manifest {
  size: number;
  parts: { key: string; size: number }[];
}

/** A composed blob in the making: parts are read once as they are appended (for the size and checksum), in order. */
export interface Composition {
  /** The parts appended so far, in order. */
  readonly keys: readonly string[];
  append(key: string): Promise<void>;
  /**
   * Appends a part while it is still being written (what `write` told its `started` option), reading its bytes as
   * they land, so little is left to read once it is whole. `stored` settles with the part once it is whole and its
   * owner keeps it, or fails if it will not be; a part that fails after some of it was read fails the composition.
   */
  follow(part: BlobInProgress, stored: Promise<WrittenBlob>): Promise<void>;
  /** Writes the manifest; the composed blob exists from here on. */
  finish(): Promise<WrittenBlob>;
  /** Gives up a composition that will not be finished. */
  discard(): void;
}

export class BlobTooLargeError extends Error {}

export function openBlobStore(data: string | undefined): BlobStore {
  const temporary = !data || data === ':memory:';
  const dir = temporary ? mkdtempSync(join(tmpdir(), 'dam-blobs-')) : resolve(data, 'blobs');
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  const hasher = new FileHasher();
  const pathOf = (key: string) => {
    if (!KEY.test(key)) throw new Error(`not a blob key: ${key.slice(0, 40)}`);
    return join(dir, key.slice(0, 2), key);
  };

  async function write(source: Readable | AsyncIterable<Uint8Array>, options: WriteOptions = {}): Promise<WrittenBlob> {
    const key = randomBytes(16).toString('hex');
    const partial = join(dir, 'tmp', `${key}.part`);
    const hash = options.checksum === false ? undefined : createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (options.maxBytes !== undefined && size > options.maxBytes) return done(new BlobTooLargeError(`more than ${options.maxBytes} bytes`));
        hash?.update(chunk);
        done(null, chunk);
      },
    });
    try {
      // A request body arrives in chunks of a few KB. With a 1 MiB buffer the file stream gathers the chunks that
      // arrive while a write is under way into one writev: a few hundred system calls per 512 MB instead of tens of
      // thousands, and no copy (concatenating them into runs allocated 512 MB per 512 MB, which kept V8 collecting).
      const file = createWriteStream(partial, { highWaterMark: WRITE_BUFFER });
      if (options.started) {
        const { started } = options;
        file.once('open', () => started({ paths: [partial, pathOf(key)] }));
      }
      await pipeline(source, meter, file, { signal: options.signal });
      mkdirSync(join(dir, key.slice(0, 2)), { recursive: true });
      await rename(partial, pathOf(key));
    } catch (err) {
      await unlink(partial).catch(() => undefined);
      throw err;
    }
    return { key, size, sha256: hash?.digest('hex') ?? '' };
  }

  async function manifest(key: string): Promise<Manifest | undefined> {
    try {
      return JSON.parse(await readFile(`${pathOf(key)}.parts`, 'utf8')) as Manifest;
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  /** The pieces of a blob as (file, first byte, last byte) that together hold the range asked for, in order. */
  async function pieces(key: string, range?: { start: number; end: number }): Promise<{ path: string; start: number; end: number }[]> {
    const listed = await manifest(key);
    if (!listed) return [{ path: pathOf(key), start: range?.start ?? 0, end: range?.end ?? Infinity }];
    const out = [];
    const first = range?.start ?? 0;
    const last = range?.end ?? listed.size - 1;
    let offset = 0;
    for (const part of listed.parts) {
      const from = Math.max(first, offset);
      const to = Math.min(last, offset + part.size - 1);
      if (from <= to) out.push({ path: pathOf(part.key), start: from - offset, end: to - offset });
      offset += part.size;
    }
    return out;
  }

  async function* stream(key: string, range?: { start: number; end: number }): AsyncGenerator<Uint8Array> {
    // Large reads: streaming out is bound by per-chunk overhead, not by the disk.
    for (const piece of await pieces(key, range)) yield* createReadStream(piece.path, { start: piece.start, end: piece.end, highWaterMark: 1 << 20 });
  }

  function composition(): Composition {
    const hash = hasher.begin();
    const listed: Manifest = { size: 0, parts: [] };
    const keys: string[] = [];
    let busy = false;
    /** Adds a part whose size `read` answers once it has hashed it; parts go one at a time, in order. */
    async function add(read: () => Promise<{ key: string; size: number }>): Promise<void> {
      if (busy) throw new Error('parts are appended one at a time');
      busy = true;
      try {
        const { key, size } = await read();
        listed.parts.push({ key, size });
        listed.size += size;
        keys.push(key);
      } finally {
        busy = false;
      }
    }
    return {
      keys,
      append: (part) =>
        add(async () => {
          if (await manifest(part)) throw new Error(`a composed blob cannot be a part: ${part}`);
          return { key: part, size: await hash.append(pathOf(part)) };
        }),
      follow: (part, stored) =>
        add(async () => {
          const followed = hash.follow(part.paths);
          // Awaited below; failing before then (a discarded composition) must not count as unhandled.
          followed.done.catch(() => undefined);
          let blob: WrittenBlob;
          try {
            blob = await stored;
          } catch (err) {
            followed.abort('the part was not kept');
            throw err;
          }
          if (!part.paths[1].endsWith(blob.key)) {
            followed.abort('another blob was stored');
            throw new Error(`the part followed is not the blob stored (${blob.key})`);
          }
          followed.end(blob.size);
          return { key: blob.key, size: await followed.done };
        }),
      async finish() {
        const sha256 = await hash.digest();
        const key = randomBytes(16).toString('hex');
        const partial = join(dir, 'tmp', `${key}.part`);
        await writeFile(partial, JSON.stringify(listed));
        mkdirSync(join(dir, key.slice(0, 2)), { recursive: true });
        await rename(partial, `${pathOf(key)}.parts`);
        return { key, size: listed.size, sha256 };
      },
      discard: () => hash.discard(),
    };
  }

  return {
    dir,
    write,
    put: (bytes) => write((async function* () { yield bytes; })()),
    composition,
    async release(key) {
      await rm(`${pathOf(key)}.parts`, { force: true });
    },
    read: (key, range) => Readable.from(stream(key, range), { objectMode: false }),
    pieces,
    async bytes(key) {
      const chunks: Uint8Array[] = [];
      for await (const chunk of stream(key)) chunks.push(chunk);
      return Buffer.concat(chunks);
    },
    async size(key) {
      // Plain blobs are the common case (every version, preview and thumbnail): their file first.
      try {
        return (await stat(pathOf(key))).size;
      } catch {
        return (await manifest(key))?.size;
      }
    },
    async remove(key) {
      const listed = await manifest(key);
      // The manifest goes last: a remove cut short by a crash leaves it, and the next remove finishes the job.
      for (const part of listed?.parts ?? []) await rm(pathOf(part.key), { force: true });
      await rm(pathOf(key), { force: true });
      await rm(`${pathOf(key)}.parts`, { force: true });
    },
    async sweepTemporary() {
      const names = await readdir(join(dir, 'tmp'));
      await Promise.all(names.map((name) => rm(join(dir, 'tmp', name), { force: true })));
      return names.length;
    },
    async close() {
      await hasher.close();
      if (temporary) rmSync(dir, { recursive: true, force: true });
    },
  };
}
