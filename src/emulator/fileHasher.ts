// SHA-256 over a run of files, taken in a worker thread. A segmented upload's checksum is read back from its
// segments (src/emulator/blobs.ts, compositions); hashing hundreds of MB on the event loop would hold up every
// request the emulator serves meanwhile, the segments of the same upload included.
//
// The worker's source is a short script evaluated as CommonJS, so it runs the same from the TypeScript sources
// (tsx, tests) and from the esbuild bundles, with no file of its own to ship.
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { open } = require('node:fs/promises');
// Per hash: the running hash, its queue (its files are read in order, other hashes' reads go on meanwhile), its
// own read buffer (a stream would allocate a new one per chunk, and those pile up in the worker's heap), and the
// error that ended it, after which it only answers that error.
const hashes = new Map();
// Files followed while they are written, by number: the size the writer ended at, or why it did not, and how to
// wake the reader waiting for more of it.
const files = new Map();
// A followed file is looked at again after 2 ms, then less often while nothing new comes (a slow client's segment).
const POLL_MS = 2;
const POLL_MAX_MS = 64;
function fileState(id, file) {
  let f = files.get(file);
  if (!f) files.set(file, (f = { id, size: undefined, error: undefined, wake: undefined }));
  return f;
}
parentPort.on('message', (m) => {
  // News about a followed file is taken at once, not behind the reads it concerns.
  // (Of a hash that is gone, it concerns no one.)
  if (m.op === 'end' || m.op === 'abort') {
    if (!hashes.has(m.id)) return;
    const f = fileState(m.id, m.file);
    if (m.op === 'end') f.size = m.size;
    else f.error = m.reason;
    f.wake?.();
    return;
  }
  let entry = hashes.get(m.id);
  if (!entry) hashes.set(m.id, (entry = { hash: createHash('sha256'), queue: Promise.resolve(), buffer: undefined, error: undefined }));
  // A dropped hash stops following at once: its writer may never finish.
  if (m.op === 'drop') {
    entry.error ??= 'the hash was dropped';
    for (const f of files.values()) if (f.id === m.id) f.wake?.();
  }
  entry.queue = entry.queue.then(() => handle(m, entry));
});
function forget(id) {
  hashes.delete(id);
  for (const [file, f] of files) if (f.id === id) files.delete(file);
}
// A file being written is opened under its temporary name or, once renamed into place, under its own.
async function openFirst(paths) {
  for (let i = 0; ; i++) {
    try {
      return await open(paths[i], 'r');
    } catch (err) {
      if (!(err && err.code === 'ENOENT') || i === paths.length - 1) throw err;
    }
  }
}
async function feed(entry, m) {
  entry.buffer ??= Buffer.allocUnsafeSlow(1 << 20);
  const state = m.file === undefined ? undefined : fileState(m.id, m.file);
  let size = 0;
  let wait = POLL_MS;
  const file = await openFirst(m.paths);
  try {
    for (;;) {
      const stop = entry.error ?? state?.error;
      if (stop !== undefined) throw new Error(stop);
      const { bytesRead } = await file.read(entry.buffer, 0, entry.buffer.length, size);
      if (bytesRead > 0) {
        entry.hash.update(entry.buffer.subarray(0, bytesRead));
        size += bytesRead;
        wait = POLL_MS;
        continue;
      }
      if (!state) return size;
      // At the end of what is written so far: done once the writer has said where it ended, else look again soon.
      if (state.size !== undefined) {
        if (size !== state.size) throw new Error('read ' + size + ' bytes of a file that ended at ' + state.size);
        return size;
      }
      // Woken early by the writer's news.
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, wait);
        state.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      state.wake = undefined;
      wait = Math.min(wait * 2, POLL_MAX_MS);
    }
  } finally {
    await file.close();
    if (state) files.delete(m.file);
  }
}
async function handle(m, entry) {
  try {
    if (m.op === 'drop') return forget(m.id);
    if (entry.error !== undefined) throw new Error(entry.error);
    if (m.op === 'append') {
      parentPort.postMessage({ seq: m.seq, size: await feed(entry, m) });
    } else if (m.op === 'digest') {
      forget(m.id);
      parentPort.postMessage({ seq: m.seq, hex: entry.hash.digest('hex') });
    }
  } catch (err) {
    // The hash stays, failed, until its owner drops it: a read queued behind this one must not start a new hash.
    entry.error ??= String(err && err.message);
    if (m.seq !== undefined) parentPort.postMessage({ seq: m.seq, error: String(err && err.message), code: err && err.code });
  }
}
`;

interface Reply {
  seq: number;
  size?: number;
  hex?: string;
  error?: string;
  code?: string;
}

/** One running hash: files are appended in order, then `digest` ends it. */
export interface FileHash {
  /** Feeds a whole file; answers its size. A failed append ends the hash (later calls fail too). */
  append(path: string): Promise<number>;
  /**
   * Feeds a file that is still being written, reading it as it grows until its writer says where it ended (`end`)
   * or that it will not (`abort`, which fails the hash). `paths` are the names it may have, tried in order (its
   * temporary name, then the one it is renamed to). `done` answers the size once every byte is hashed.
   */
  follow(paths: readonly string[]): FollowedFile;
  digest(): Promise<string>;
  /** Ends the hash without a digest (an abandoned composition); a file it follows is let go. */
  discard(): void;
}

export interface FollowedFile {
  readonly done: Promise<number>;
  end(size: number): void;
  abort(reason: string): void;
}

type Message =
  | { op: 'append'; id: number; paths: readonly string[]; file?: number }
  | { op: 'digest' | 'drop'; id: number }
  | { op: 'end'; id: number; file: number; size: number }
  | { op: 'abort'; id: number; file: number; reason: string };

export class FileHasher {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  private seq = 0;
  private ids = 0;
  private files = 0;

  private call(message: Message): Promise<Reply> {
    const worker = this.start();
    const seq = ++this.seq;
    const answer = new Promise<Reply>((resolve, reject) => this.pending.set(seq, { resolve, reject }));
    // Referenced while an answer is awaited, so the process waits for it; idle, it keeps nothing alive.
    worker.ref();
    worker.postMessage({ ...message, seq });
    return answer;
  }

  /** A message that wants no answer, to a worker that is running (one that is not has nothing to be told). */
  private tell(message: Message): void {
    this.worker?.postMessage(message);
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.seq);
      this.pending.delete(reply.seq);
      if (this.pending.size === 0) worker.unref();
      if (!waiting) return;
      if (reply.error === undefined) waiting.resolve(reply);
      else waiting.reject(Object.assign(new Error(reply.error), { code: reply.code }));
    });
    const fail = (err: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(err);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the hashing worker stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  begin(): FileHash {
    const id = ++this.ids;
    let failed: Error | undefined;
    const guard = async <T>(work: () => Promise<T>): Promise<T> => {
      if (failed) throw failed;
      try {
        return await work();
      } catch (err) {
        failed ??= err as Error;
        this.tell({ op: 'drop', id });
        throw err;
      }
    };
    return {
      append: (path) => guard(async () => (await this.call({ op: 'append', id, paths: [path] })).size!),
      follow: (paths) => {
        const file = ++this.files;
        const done = guard(async () => (await this.call({ op: 'append', id, paths, file })).size!);
        return {
          done,
          end: (size) => this.tell({ op: 'end', id, file, size }),
          abort: (reason) => this.tell({ op: 'abort', id, file, reason }),
        };
      },
      digest: () => guard(async () => (await this.call({ op: 'digest', id })).hex!),
      discard: () => this.tell({ op: 'drop', id }),
    };
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }
}
