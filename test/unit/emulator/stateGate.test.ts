// The state gate: a replacement waits for the requests holding it, later requests wait for the replacement, a
// replacement that cannot drain in time changes nothing, and background work of a replaced state is refused.
import { strict as assert } from 'node:assert';
import { GateTimeoutError, StaleStateError, StateGate } from '../../../src/emulator/state/gate';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('StateGate', () => {
  it('runs a replacement only after the requests in flight let go, and holds new requests until it is done', async () => {
    const gate = new StateGate();
    const events = [] as string[];
    const releaseA = await gate.enter();
    const replacing = gate.exclusive(async () => {
      events.push('replace start');
      await tick();
      events.push('replace end');
    }, 1000);
    await tick();
    const entering = gate.enter().then((release) => {
      events.push('B entered');
      release();
    });
    await tick();
    assert.deepEqual([...events], [], 'the replacement waits for A, and B waits behind the replacement');
    events.push('A done');
    releaseA();
    await Promise.all([replacing, entering]);
    assert.deepEqual(events, ['A done', 'replace start', 'replace end', 'B entered']);
  });

  it('gives up when the requests do not finish in time, having run nothing, and lets the waiting requests in', async () => {
    const gate = new StateGate();
    const release = await gate.enter();
    let ran = false;
    const replacing = gate.exclusive(async () => void (ran = true), 30);
    const waiting = gate.enter();
    await assert.rejects(replacing, GateTimeoutError);
    assert.equal(ran, false);
    (await waiting)();
    release();
    assert.equal(gate.inFlight, 0);
  });

  it('refuses statements of background work begun on a state that was replaced since', async () => {
    const gate = new StateGate();
    let resume!: () => void;
    const paused = new Promise<void>((r) => (resume = r));
    const work = gate.bind(async () => {
      gate.guard();
      await paused;
      gate.guard();
    });
    await gate.exclusive(async () => undefined, 1000);
    resume();
    await assert.rejects(work, StaleStateError);
    await gate.bind(async () => gate.guard());
  });
});
