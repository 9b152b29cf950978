// The one runner of record changes: runs a list of jobs with bounded concurrency, reports progress, stops on cancel,
// keeps going past one record's failure, and waits out a 429 the HTTP layer could not absorb.
//
// Pacing is the connection's own pacer (`client.http.pacer`), not a second limiter: every request a job sends already
// takes a turn of it (rate, places in flight, a 429's pause), so all the runner takes from it is its bound: never more
// jobs at once than the pacer lets requests be in flight. More would not go faster: they would only queue inside it. A job thrown out with a 429 (the HTTP layer's retries used up) waits out its Retry-After (the
// pacer, told of the 429 by the HTTP layer, holds every other request as long and slows down) and is tried again; a
// record retried after a 429 is not a failure.
import { abortableSleep } from './http';
import { ApiError } from './errors';
import type { RequestPacer } from './pacing';

export interface BulkJob {
  recordId: string;
  title?: string;
  /** What the job changes, in words (the change set's summary). */
  summary?: string;
}

export interface BulkProgress {
  total: number;
  done: number;
  changed: number;
  failed: number;
  /** The job that just finished. */
  last?: { recordId: string; ok: boolean };
}

export interface BulkRunOptions {
  /** Jobs in flight at once (at least 1; at most what `pacer` lets be in flight). */
  concurrency?: number;
  /** The connection's pacer (`client.http.pacer`) the jobs' requests go through; it bounds `concurrency`. */
  pacer?: RequestPacer;
  signal?: AbortSignal;
  onProgress?: (progress: BulkProgress) => void;
  /** How often one job is tried again after a 429 that outlasted the HTTP layer's own retries. */
  retriesAfter429?: number;
  /** Wait when a 429 names no Retry-After. */
  fallbackWaitMs?: number;
}

export interface BulkFailure extends BulkJob {
  reason: string;
  status?: number;
}

/** What a run did; JSON-safe, so it can be saved as it is. */
export interface BulkReport {
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  total: number;
  changed: BulkJob[];
  unchanged: BulkJob[];
  failed: BulkFailure[];
  /** Jobs not started because the run was cancelled. */
  notRun: BulkJob[];
  cancelled: boolean;
}

/** The reason of a failure in the service's words when it gave some. */
export function failureReason(err: unknown): { reason: string; status?: number } {
  if (err instanceof ApiError) {
    if (err.status === 404) return { reason: `the record does not exist (${err.exceptionMessage ?? '404'})`, status: 404 };
    return { reason: err.exceptionMessage ?? err.message, status: err.status };
  }
  return { reason: err instanceof Error ? err.message : String(err) };
}

const aborted = (signal?: AbortSignal) => signal?.aborted === true;

/**
 * Runs `apply` for each job. `unchanged` jobs (already as asked) are reported as such without a request. A job
 * whose apply throws is a failure with its reason; the others go on.
 */
export async function runBulk<J extends BulkJob>(
  jobs: readonly J[],
  apply: (job: J, signal?: AbortSignal) => Promise<void>,
  options: BulkRunOptions = {},
  unchanged: readonly BulkJob[] = [],
): Promise<BulkReport> {
  const started = Date.now();
  const concurrency = Math.max(1, Math.floor(Math.min(options.concurrency ?? 4, options.pacer?.options.maxInFlight ?? Infinity)));
  const retries = options.retriesAfter429 ?? 3;
  const report: BulkReport = {
    startedAt: new Date(started).toISOString(),
    finishedAt: '',
    durationMs: 0,
    total: jobs.length + unchanged.length,
    changed: [],
    unchanged: unchanged.map(plainJob),
    failed: [],
    notRun: [],
    cancelled: false,
  };
  const progress = () => ({ total: report.total, done: report.changed.length + report.failed.length + report.unchanged.length, changed: report.changed.length, failed: report.failed.length });
  let next = 0;
  const worker = async () => {
    while (next < jobs.length && !aborted(options.signal)) {
      const job = jobs[next++];
      let ok = false;
      for (let attempt = 0; ; attempt++) {
        try {
          await apply(job, options.signal);
          report.changed.push(plainJob(job));
          ok = true;
        } catch (err) {
          if (aborted(options.signal)) {
            report.notRun.push(plainJob(job));
            return;
          }
          if (err instanceof ApiError && err.status === 429 && attempt < retries) {
            try {
              await abortableSleep(err.retryAfterMs ?? options.fallbackWaitMs ?? 2_000, options.signal);
            } catch {
              report.notRun.push(plainJob(job));
              return;
            }
            continue;
          }
          report.failed.push({ ...plainJob(job), ...failureReason(err) });
        }
        break;
      }
      options.onProgress?.({ ...progress(), last: { recordId: job.recordId, ok } });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(jobs.length, 1)) }, worker));
  for (let i = next; i < jobs.length; i++) report.notRun.push(plainJob(jobs[i]));
  report.cancelled = aborted(options.signal);
  const finished = Date.now();
  report.finishedAt = new Date(finished).toISOString();
  report.durationMs = finished - started;
  return report;
}

function plainJob(job: BulkJob): BulkJob {
  return { recordId: job.recordId, ...(job.title !== undefined ? { title: job.title } : {}), ...(job.summary !== undefined ? { summary: job.summary } : {}) };
}
