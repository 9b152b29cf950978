// RequestPacer: how one connection lives within a tenant's limits (15 requests/s shared by every client and
// integration of the tenant, a queue of 100, then 429). Every request of an HttpClient passes through its pacer, so
// a connection never starts requests faster than `ratePerSecond` (after a first burst of one second's worth) nor
// has more than `maxInFlight` in flight, whatever runs on it (Load All, exports, `dam search --all`, uploads,
// analytics pages). Defaults leave a third of the tenant's rate to its other integrations. A 429 holds every caller until its Retry-After and halves the rate, which
// then climbs back one request/s per second's worth of answers without one: paced, never retried into a storm.
//
// For a bulk runner (bulkRunner.ts, `dam records update` over many records): its requests are paced already, since
// they go through the connection's HttpClient, so the runner takes this same pacer (`client.http.pacer`) only to
// start no more jobs at once than `maxInFlight`. Never run a job in the pacer (`run()`): the job would hold a turn
// its own requests then wait for. Read it for a progress line instead (`currentRate` drops after a 429).
//
// Hand-written rather than p-queue or bottleneck: p-queue's rate is a fixed window (twice the rate at a window's
// edge, which a tenant's bucket counts as a burst), bottleneck is unmaintained since 2019, and neither shares the
// token bucket (core/limits) the emulator counts a tenant's rate with.
import { TENANT_LIMITS, TokenBucket, burstOf } from '../core/limits';

export interface PacingOptions {
  /** Requests started per second at most (default 10; Infinity: no rate). */
  ratePerSecond: number;
  /** Requests in flight at once at most (default 4; Infinity: no bound). */
  maxInFlight: number;
  /**
   * Requests that may start at once before the rate applies (default one second's worth). The decoration lane takes 1:
   * with a burst on top of the rate, a busy first second would start nearly twice the lane's share of the tenant.
   */
  burst?: number;
}

/** Two thirds of a tenant's 15 requests/s, four at a time: the rest of the tenant's rate stays for its other clients. */
export const DEFAULT_PACING: PacingOptions = { ratePerSecond: 10, maxInFlight: 4 };

/** No pacing at all (tests that measure the emulator, not the client). */
export const UNPACED: PacingOptions = { ratePerSecond: Infinity, maxInFlight: Infinity };

/** The lowest rate a run of 429s brings the pacer down to. */
const MIN_RATE = 1;
/** Above this, an unpaced connection that was throttled stops pacing again. */
const MAX_PACED_RATE = 4 * TENANT_LIMITS.rate;

export interface PacerClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const realClock: PacerClock = {
  now: () => performance.now(),
  sleep: abortableSleep,
};

interface Waiter {
  resolve(): void;
}

export class RequestPacer {
  readonly options: PacingOptions;
  private rate: number;
  private bucket: TokenBucket | undefined;
  private inFlight = 0;
  private readonly waiting: Waiter[] = [];
  private pausedUntil = 0;
  /** Answers since the last change of rate (for the climb back after a 429). */
  private calm = 0;
  private readonly clock: PacerClock;

  constructor(options: Partial<PacingOptions> = {}, clock: PacerClock = realClock) {
    this.options = { ...DEFAULT_PACING, ...options };
    if (!(this.options.ratePerSecond > 0) || !(this.options.maxInFlight >= 1)) throw new Error('pacing needs a rate above 0 and at least one request in flight');
    this.clock = clock;
    this.rate = this.options.ratePerSecond;
    this.bucket = this.newBucket(this.rate, this.options.burst ?? burstOf(this.rate));
  }

  /** The rate now (lower than `options.ratePerSecond` for a while after a 429). */
  get currentRate(): number {
    return this.rate;
  }

  /** Requests holding a turn now. */
  get active(): number {
    return this.inFlight;
  }

  /**
   * Waits for a turn: a free place among `maxInFlight`, then the rate's next start (and the end of a 429's
   * Retry-After). Resolves with the release to call once the answer has been read; rejects if `signal` aborts.
   */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    // A released place passes straight to the first waiter, so nobody arriving meanwhile can take it too.
    if (this.inFlight < this.options.maxInFlight) this.inFlight++;
    else await this.waitForPlace(signal);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next.resolve();
      else this.inFlight--;
    };
    try {
      for (;;) {
        const pause = this.pausedUntil - this.clock.now();
        if (pause > 0) await this.clock.sleep(pause, signal);
        const bucket = this.bucket;
        if (!bucket) break;
        const reservation = bucket.reserve();
        if (!reservation || reservation.delayMs <= 0) break;
        try {
          await this.clock.sleep(reservation.delayMs, signal);
        } catch (err) {
          reservation.cancel();
          throw err;
        }
        // A 429 during the wait changed the rate or paused everyone: take a turn of the new regime instead.
        if (bucket === this.bucket && this.pausedUntil <= this.clock.now()) break;
        reservation.cancel();
      }
    } catch (err) {
      release();
      throw err;
    }
    return release;
  }

  /** Runs `work` in a turn, releasing it however `work` ends. */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** The service answered 429: everyone holds off for `retryAfterMs` (1 s when not said) and the rate halves. */
  throttled(retryAfterMs: number | undefined): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + (retryAfterMs ?? 1000));
    // An unpaced connection starts from a tenant's rate.
    const from = Number.isFinite(this.rate) ? this.rate : TENANT_LIMITS.rate;
    this.setRate(Math.max(MIN_RATE, from / 2));
  }

  /** An answer that was not a 429: after a second's worth of them the rate climbs by one, up to the configured rate. */
  answered(): void {
    if (this.rate >= this.options.ratePerSecond) return;
    if (++this.calm < this.rate) return;
    // An unpaced connection is unpaced again once it has climbed well past any tenant's rate.
    const next = this.rate + 1;
    this.setRate(next > MAX_PACED_RATE ? this.options.ratePerSecond : Math.min(this.options.ratePerSecond, next));
  }

  private setRate(rate: number): void {
    this.rate = rate;
    this.calm = 0;
    // After a 429 no burst: the new bucket starts empty of everything but one request.
    this.bucket = this.newBucket(rate, 1);
  }

  private newBucket(rate: number, capacity: number): TokenBucket | undefined {
    return Number.isFinite(rate) ? new TokenBucket(rate, capacity, Infinity, this.clock.now) : undefined;
  }

  private waitForPlace(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it is aborted. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
