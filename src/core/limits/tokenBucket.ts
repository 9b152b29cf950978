// A token bucket that may go into debt: the one rate model behind the emulator's tenant limits (a tenant's queue
// served at its rate) and the client's pacer (never faster than the rate it was given). Pure: the clock is injected.

export interface Reservation {
  /** Milliseconds the caller waits before it may go; 0 when a token was there. */
  delayMs: number;
  /** Gives the reservation back (a caller that left the queue): later callers fill its place. */
  cancel(): void;
}

export class TokenBucket {
  private tokens: number;
  private stamp: number;

  /**
   * `rate`: tokens added per second; `capacity`: tokens the bucket holds (the burst served at once); `queue`:
   * reservations that may wait for a token at once (Infinity: no bound).
   */
  constructor(
    readonly rate: number,
    readonly capacity: number,
    readonly queue = Infinity,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = capacity;
    this.stamp = now();
  }

  private refill(): void {
    const t = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((t - this.stamp) * this.rate) / 1000);
    this.stamp = t;
  }

  /** Reservations waiting for their token now (a bucket in debt by 2.3 tokens has 3 callers waiting). */
  waiting(): number {
    this.refill();
    return this.waitingNow();
  }

  /**
   * Takes the next token, waiting for it if need be; undefined (nothing taken) when `queue` callers already wait,
   * the queue being full.
   */
  reserve(): Reservation | undefined {
    this.refill();
    if (this.tokens < 1 && this.waitingNow() >= this.queue) return undefined;
    this.tokens -= 1;
    const delayMs = this.tokens >= 0 ? 0 : (-this.tokens * 1000) / this.rate;
    let cancelled = false;
    return {
      delayMs,
      cancel: () => {
        if (cancelled) return;
        cancelled = true;
        this.refill();
        this.tokens = Math.min(this.capacity, this.tokens + 1);
      },
    };
  }

  /** Milliseconds until the queue has room for one more reservation (0 when it has room now). */
  msUntilRoom(): number {
    this.refill();
    const debt = -this.tokens;
    // Room comes once fewer than `queue` whole tokens are owed.
    const excess = debt - (this.queue - 1);
    return excess > 0 ? (excess * 1000) / this.rate : 0;
  }

  private waitingNow(): number {
    return this.tokens >= 0 ? 0 : Math.ceil(-this.tokens - 1e-9);
  }
}
