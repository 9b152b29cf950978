// The client's pacer on a virtual clock: how many requests start per second, how many are in flight, and what a
// 429 does. Time is the fake clock's, so the figures are exact and nothing waits for real.
import { strict as assert } from 'node:assert';
import { RequestPacer, type PacerClock } from '../../../src/api/pacing';
import { TokenBucket } from '../../../src/core/limits';

/** A clock whose sleeps end in order of their deadlines, each moving the time to its deadline. */
function virtualClock(): PacerClock & { time: number } {
  const sleepers: { until: number; wake(): void }[] = [];
  let scheduled = false;
  const clock = {
    time: 0,
    now: () => clock.time,
    sleep(ms: number) {
      return new Promise<void>((resolve) => {
        sleepers.push({ until: clock.time + ms, wake: resolve });
        if (!scheduled) {
          scheduled = true;
          // Once every runnable task has run, the earliest sleeper wakes.
          setImmediate(function tick() {
            sleepers.sort((a, b) => a.until - b.until);
            const next = sleepers.shift();
            if (next) {
              clock.time = Math.max(clock.time, next.until);
              next.wake();
            }
            if (sleepers.length) setImmediate(tick);
            else scheduled = false;
          });
        }
      });
    },
  };
  return clock;
}

describe('RequestPacer', () => {
  it('with a burst of 1, starts no more than the rate in any second, from the first', async () => {
    const clock = virtualClock();
    const pacer = new RequestPacer({ ratePerSecond: 5, maxInFlight: 2, burst: 1 }, clock);
    const starts: number[] = [];
    await Promise.all(Array.from({ length: 12 }, () => pacer.run(async () => void starts.push(clock.time))));
    assert.equal(starts.length, 12);
    for (const s of starts) {
      const inWindow = starts.filter((t) => t >= s && t < s + 1000).length;
      assert.ok(inWindow <= 5, `${inWindow} starts in the second from ${s} ms: ${starts.join(', ')}`);
    }
    // The default burst is a second's worth: the same pacer without it starts 5 at once and 5 more within that second.
    const burstClock = virtualClock();
    const bursty = new RequestPacer({ ratePerSecond: 5, maxInFlight: 2 }, burstClock);
    const burstStarts: number[] = [];
    await Promise.all(Array.from({ length: 12 }, () => bursty.run(async () => void burstStarts.push(burstClock.time))));
    assert.ok(burstStarts.filter((t) => t < 1000).length > 5, `default burst: ${burstStarts.join(', ')}`);
  });

  it('starts no faster than the rate after a first second’s burst, and never more than maxInFlight at once', async () => {
    const clock = virtualClock();
    const pacer = new RequestPacer({ ratePerSecond: 10, maxInFlight: 4 }, clock);
    const starts: number[] = [];
    let inFlight = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 50 }, () =>
        pacer.run(async () => {
          starts.push(clock.time);
          most = Math.max(most, ++inFlight);
          await clock.sleep(50);
          inFlight--;
        }),
      ),
    );
    assert.equal(starts.length, 50);
    assert.equal(most, 4);
    // 10 at once, then one every 100 ms: the 50th starts at 4 s.
    assert.equal(Math.round(starts[49]), 4000);
    for (let i = 10; i < 50; i++) assert.ok(starts[i] >= (i - 9) * 100 - 1e-6, `start ${i} at ${starts[i]} ms comes after its token`);
  });

  it('a 429 holds everyone until Retry-After and halves the rate; answers bring it back', async () => {
    const clock = virtualClock();
    const pacer = new RequestPacer({ ratePerSecond: 10, maxInFlight: 4 }, clock);
    pacer.throttled(2000);
    assert.equal(pacer.currentRate, 5);
    const release = await pacer.acquire();
    assert.ok(clock.time >= 2000, 'nobody starts before the Retry-After has passed');
    release();
    for (let i = 0; i < 5; i++) pacer.answered();
    assert.equal(pacer.currentRate, 6);
    for (let i = 0; i < 100; i++) pacer.answered();
    assert.equal(pacer.currentRate, 10);
  });

  it('an unpaced connection is paced once throttled', () => {
    const pacer = new RequestPacer({ ratePerSecond: Infinity, maxInFlight: Infinity }, virtualClock());
    pacer.throttled(undefined);
    assert.equal(pacer.currentRate, 7.5);
  });

  it('a caller that gives up while waiting leaves its place to the next', async () => {
    const clock = virtualClock();
    const pacer = new RequestPacer({ ratePerSecond: Infinity, maxInFlight: 1 }, clock);
    const first = await pacer.acquire();
    const controller = new AbortController();
    const gaveUp = pacer.acquire(controller.signal).then(
      () => 'acquired',
      () => 'aborted',
    );
    const next = pacer.acquire();
    controller.abort();
    assert.equal(await gaveUp, 'aborted');
    first();
    (await next)();
    assert.equal(pacer.active, 0);
  });
});

describe('TokenBucket (the tenant’s queue)', () => {
  it('serves its capacity at once, queues up to `queue`, then refuses; a refusal says when there is room', () => {
    let now = 0;
    const bucket = new TokenBucket(2, 2, 3, () => now);
    const delays = Array.from({ length: 7 }, () => bucket.reserve()?.delayMs);
    assert.deepEqual(delays, [0, 0, 500, 1000, 1500, undefined, undefined]);
    assert.equal(bucket.waiting(), 3);
    assert.equal(bucket.msUntilRoom(), 500);
    now = 500;
    assert.equal(bucket.reserve()?.delayMs, 1500);
  });

  it('a cancelled reservation gives its place back', () => {
    const bucket = new TokenBucket(1, 1, 1, () => 0);
    bucket.reserve();
    const queued = bucket.reserve();
    assert.equal(bucket.reserve(), undefined);
    queued?.cancel();
    assert.equal(bucket.reserve()?.delayMs, 1000);
  });
});
