// Lets a snapshot restore replace the emulator's whole state while it serves: each request holds the gate shared
// from its first hook until its answer is sent (or, cut off by the client, until its handler is done), and a
// restore holds it alone. A restore waits for the requests in flight, which finish on the old state; requests
// that arrive meanwhile wait and then see the new one. Work a request left running in the background is bound to
// the state it began on: after a restore its statements are refused (see `guard`), so nothing of the old state
// leaks into the new one.
import { AsyncLocalStorage } from 'node:async_hooks';

export class StaleStateError extends Error {
  constructor() {
    super('the emulator state this work began on was replaced by a snapshot restore; the work was stopped');
  }
}

/** Thrown when the requests in flight did not finish in time; the state was left as it was. */
export class GateTimeoutError extends Error {}

export class StateGate {
  private active = 0;
  private closed = false;
  private waiting: (() => void)[] = [];
  private drained: (() => void) | undefined;
  private turn: Promise<unknown> = Promise.resolve();
  private current = 0;
  private readonly work = new AsyncLocalStorage<number>();

  /** Number of requests holding the gate now. */
  get inFlight(): number {
    return this.active;
  }

  /** Which state is served; moves on with every replacement. */
  get epoch(): number {
    return this.current;
  }

  /** Waits while the state is being replaced, then holds the gate shared; call the result once to let go. */
  async enter(): Promise<() => void> {
    while (this.closed) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      if (--this.active === 0) this.drained?.();
    };
  }

  /**
   * Runs `fn` alone: no request runs meanwhile. Replacements take turns. Rejects with GateTimeoutError, having
   * run nothing, when the requests in flight are not done within `timeoutMs`.
   */
  exclusive<T>(fn: () => Promise<T>, timeoutMs: number): Promise<T> {
    const run = this.turn.then(async () => {
      this.closed = true;
      try {
        if (this.active > 0) await this.drain(timeoutMs);
        this.current++;
        return await fn();
      } finally {
        this.closed = false;
        this.drained = undefined;
        const waiting = this.waiting;
        this.waiting = [];
        for (const resume of waiting) resume();
      }
    });
    this.turn = run.catch(() => undefined);
    return run;
  }

  private drain(timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.drained = undefined;
        reject(new GateTimeoutError(`${this.active} request(s) still running after ${Math.round(timeoutMs / 1000)} s; nothing was changed`));
      }, timeoutMs);
      this.drained = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Runs background work bound to the state served now. */
  bind<T>(task: () => Promise<T>): Promise<T> {
    return this.work.run(this.current, task);
  }

  /** Throws StaleStateError when called from background work of a state that was replaced since. */
  readonly guard = (): void => {
    const began = this.work.getStore();
    if (began !== undefined && began !== this.current) throw new StaleStateError();
  };
}
