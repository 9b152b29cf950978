// The image worker pool: every decode, resize, encode and header probe runs in a worker process of its own, never on
// the emulator's event loop, so one image can neither stall the API nor take the emulator's memory.
//
// Why processes and not worker threads: a thread's resourceLimits bound only its JavaScript heap, while decoded
// pixels live in Buffers outside it (jimp decoding a 24-megapixel JPEG peaks near 850 MB, almost none of it heap),
// and a native decoder (sharp) that crashes takes its whole process along. A process can be measured (its resident
// memory, read from /proc while it works), stopped when it goes over its limit, and lost without losing the emulator.
//
// Two lanes, each a small pool: `probe` reads headers only (a record create waits for it, so it never queues
// behind a long rendition), `render` does the decoding. Workers start on first use and stop after a while idle.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import type { ImageTask, ReplyMessage, TaskMessage } from './protocol';

/** A task the worker could not finish: the message says why in words (it goes into a job's errors). */
export class ImageWorkError extends Error {}

export interface PoolOptions {
  /** Workers at most. */
  size: number;
  /** Resident memory a worker may reach; over it the worker is stopped and its task fails. */
  memoryMb: number;
  /** A worker with nothing to do for this long exits (started again on the next task). */
  idleMs: number;
  /** A task that runs longer fails, and its worker is stopped. */
  taskTimeoutMs: number;
}

interface Job {
  id: number;
  task: ImageTask;
  what: string;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

interface Worker {
  child: ChildProcess;
  job: Job | undefined;
  idle: NodeJS.Timeout | undefined;
  watch: NodeJS.Timeout | undefined;
  /** Why this worker was stopped by the pool, for the message of the task it was running. */
  stoppedBecause: string | undefined;
}

/** The bundle ships `imageWorker.js` beside itself; the TypeScript sources (tests) run `imageWorker.ts` under tsx. */
function workerEntry(): { path: string; execArgv: string[] } {
  const bundled = join(__dirname, 'imageWorker.js');
  if (existsSync(bundled)) return { path: bundled, execArgv: [] };
  return { path: join(__dirname, 'imageWorker.ts'), execArgv: ['--import', 'tsx'] };
}

/** Resident memory of a process in bytes (Linux /proc); undefined where that cannot be read. */
export function residentBytes(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

const WATCH_MS = 50;

export class ImagePool {
  private readonly workers = new Set<Worker>();
  private readonly queue: Job[] = [];
  private nextId = 1;

  constructor(readonly options: PoolOptions) {}

  /** Runs a task in a worker; `what` names it in messages ("the thumbnail of 'a.png'"). */
  run<T>(task: ImageTask, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, task, what, resolve: resolve as (v: unknown) => void, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length) {
      // A worker being stopped still counts against the size until its exit is seen, but takes no task.
      let worker = [...this.workers].find((w) => !w.job && w.stoppedBecause === undefined);
      if (!worker) {
        if (this.workers.size >= this.options.size) return;
        worker = this.spawn();
      }
      this.assign(worker, this.queue.shift()!);
    }
  }

  private spawn(): Worker {
    const entry = workerEntry();
    const child = fork(entry.path, [], {
      execArgv: [...entry.execArgv, `--max-old-space-size=${Math.max(64, Math.floor(this.options.memoryMb / 2))}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      // Inside VS Code the emulator runs on Electron's binary: run the worker as plain Node, as the emulator is.
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
    const worker: Worker = { child, job: undefined, idle: undefined, watch: undefined, stoppedBecause: undefined };
    this.workers.add(worker);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-1000)));
    child.on('message', (reply: ReplyMessage) => this.settle(worker, reply));
    child.once('error', (err) => this.lost(worker, `the image worker could not run (${err.message})`));
    child.once('exit', (code, signal) => {
      const how = signal ? `was stopped by ${signal}` : `exited with code ${code}`;
      const detail = stderr.trim().split('\n').at(-1);
      this.lost(worker, worker.stoppedBecause ?? `the image worker ${how}${detail ? ` (${detail.slice(0, 200)})` : ''}`);
    });
    this.rest(worker);
    return worker;
  }

  private assign(worker: Worker, job: Job): void {
    clearTimeout(worker.idle);
    worker.job = job;
    // Keep the emulator's process alive while work is under way; an idle worker must not.
    worker.child.ref();
    worker.child.channel?.ref();
    (worker.child.stderr as Socket | null)?.ref();
    const started = Date.now();
    const limit = this.options.memoryMb * 1024 * 1024;
    worker.watch = setInterval(() => {
      const rss = worker.child.pid === undefined ? undefined : residentBytes(worker.child.pid);
      if (rss !== undefined && rss > limit) {
        this.stop(worker, `the image worker went over its memory limit of ${this.options.memoryMb} MB (${Math.round(rss / 1048576)} MB)`);
      } else if (Date.now() - started > this.options.taskTimeoutMs) {
        this.stop(worker, `the image worker took longer than ${Math.round(this.options.taskTimeoutMs / 1000)} s`);
      }
    }, WATCH_MS);
    worker.child.send({ id: job.id, task: job.task } satisfies TaskMessage, (err) => {
      if (err) this.stop(worker, `the image worker could not be reached (${err.message})`);
    });
  }

  private settle(worker: Worker, reply: ReplyMessage): void {
    const job = worker.job;
    if (!job || job.id !== reply.id) return;
    this.release(worker);
    if (reply.ok) job.resolve(reply.value);
    else job.reject(new ImageWorkError(`${job.what} could not be made: ${reply.message}`));
    this.rest(worker);
    this.dispatch();
  }

  /** The worker is gone: its task fails with the reason, and the next task starts a new one. */
  private lost(worker: Worker, reason: string): void {
    if (!this.workers.delete(worker)) return;
    const job = worker.job;
    this.release(worker);
    clearTimeout(worker.idle);
    job?.reject(new ImageWorkError(`${job.what} could not be made: ${reason}`));
    this.dispatch();
  }

  private release(worker: Worker): void {
    clearInterval(worker.watch);
    worker.watch = undefined;
    worker.job = undefined;
  }

  private rest(worker: Worker): void {
    worker.child.unref();
    worker.child.channel?.unref();
    // The stderr pipe is a socket of its own: left referenced, it held a stopping emulator for the idle timeout (30 s).
    (worker.child.stderr as Socket | null)?.unref();
    clearTimeout(worker.idle);
    worker.idle = setTimeout(() => this.stop(worker, 'idle'), this.options.idleMs);
    worker.idle.unref();
  }

  /** Stops a worker; its task (if any) fails with `because` when the exit is seen (see `lost`). */
  private stop(worker: Worker, because: string): void {
    worker.stoppedBecause ??= because;
    if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
  }
}

const envNumber = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

let pools: { probe: ImagePool; render: ImagePool } | undefined;

/**
 * The process's image pools, made on first use and shared by every emulator in the process (test suites start
 * several), so the bound holds for the process. `DAM_EMULATOR_IMAGE_MEMORY_MB` sets a render worker's memory limit
 * (default 1024: sharp needs far less; jimp, the fallback, needs about 35 bytes per pixel).
 */
export function imagePools(): { probe: ImagePool; render: ImagePool } {
  pools ??= {
    probe: new ImagePool({ size: 1, memoryMb: 256, idleMs: 30_000, taskTimeoutMs: 30_000 }),
    render: new ImagePool({
      size: Math.max(1, Math.min(2, availableParallelism() - 1)),
      memoryMb: envNumber('DAM_EMULATOR_IMAGE_MEMORY_MB', 1024),
      idleMs: 30_000,
      taskTimeoutMs: envNumber('DAM_EMULATOR_IMAGE_TIMEOUT_S', 300) * 1000,
    }),
  };
  return pools;
}
