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
const hashes = new Map();
// One buffer for every read: a stream would allocate a new one per chunk, and those pile up in the worker's heap.
const buffer = Buffer.allocUnsafeSlow(1 << 20);
let queue = Promise.resolve();
parentPort.on('message', (m) => {
  queue = queue.then(() => handle(m));
});
async function handle(m) {
  try {
    if (m.op === 'append') {
      let hash = hashes.get(m.id);
      if (!hash) hashes.set(m.id, (hash = createHash('sha256')));
      let size = 0;
      const file = await open(m.path, 'r');
      try {
        for (;;) {
          const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
          if (bytesRead === 0) break;
          hash.update(buffer.subarray(0, bytesRead));
          size += bytesRead;
        }
      } finally {
        await file.close();
      }
      parentPort.postMessage({ seq: m.seq, size });
    } else if (m.op === 'digest') {
      const hash = hashes.get(m.id) || createHash('sha256');
      hashes.delete(m.id);
      parentPort.postMessage({ seq: m.seq, hex: hash.digest('hex') });
    } else {
      hashes.delete(m.id);
    }
  } catch (err) {
    hashes.delete(m.id);
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
  digest(): Promise<string>;
  /** Ends the hash without a digest (an abandoned composition). */
  discard(): void;
}

export class FileHasher {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  private seq = 0;
  private ids = 0;

  private call(message: { op: 'append' | 'digest' | 'drop'; id: number; path?: string }): Promise<Reply> {
    const worker = this.start();
    const seq = ++this.seq;
    const answer = new Promise<Reply>((resolve, reject) => this.pending.set(seq, { resolve, reject }));
    // Referenced while an answer is awaited, so the process waits for it; idle, it keeps nothing alive.
    worker.ref();
    worker.postMessage({ ...message, seq });
    return answer;
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
    return {
      append: async (path) => {
        if (failed) throw failed;
        try {
          return (await this.call({ op: 'append', id, path })).size!;
        } catch (err) {
          failed = err as Error;
          throw err;
        }
      },
      digest: async () => {
        if (failed) throw failed;
        return (await this.call({ op: 'digest', id })).hex!;
      },
      discard: () => {
        if (this.worker) this.worker.postMessage({ op: 'drop', id });
      },
    };
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }
}
