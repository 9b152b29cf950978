// The Compare progress (DAM: Compare the Emulator with This Tenant…) says what is happening in words with counts, and
// fills its bar once across both sides, never backwards when the tenant's root links more routes.
import { strict as assert } from 'node:assert';
import { ProbeProgress } from '../../../src/extension/tenant/probeProgress';

function recorder() {
  const reports: { message?: string; increment?: number }[] = [];
  return { reports, sink: { report: (v: { message?: string; increment?: number }) => reports.push(v) } };
}

describe('Compare progress', () => {
  const tenant = { name: 'the tenant', share: 50 };
  const emulator = { name: 'the local emulator', share: 50 };

  it('says which side it reads and how many routes of how many, never a request line', () => {
    const { reports, sink } = recorder();
    const said = new ProbeProgress(sink);
    said.start(tenant);
    said.step(tenant, 1, 184);
    said.step(tenant, 40, 184);
    said.finish(tenant);
    said.start(emulator, 95);
    said.step(emulator, 95, 95);
    assert.deepEqual(
      reports.map((r) => r.message),
      ['Reading the tenant…', 'Reading the tenant: 1 of 184 routes', 'Reading the tenant: 40 of 184 routes', 'Reading the local emulator: 0 of 95 routes', 'Reading the local emulator: 95 of 95 routes'],
    );
    said.finish(emulator);
    said.comparing();
    assert.equal(reports.at(-1)?.message, 'Comparing the answers…');
    for (const r of reports) assert.doesNotMatch(r.message ?? '', /\/api|GET|\{/);
  });

  it('fills the bar to 100 once, each side its share, and never goes back when the total grows', () => {
    const { reports, sink } = recorder();
    const said = new ProbeProgress(sink);
    said.step(tenant, 1, 10);
    said.step(tenant, 2, 200); // the root linked more collections: the share done now is smaller than reported
    said.step(tenant, 200, 200);
    said.finish(tenant);
    said.step(emulator, 50, 100);
    said.step(emulator, 100, 100);
    said.finish(emulator);
    said.comparing();
    const increments = reports.map((r) => r.increment ?? 0);
    assert.ok(increments.every((i) => i >= 0), `increments: ${increments.join(', ')}`);
    assert.equal(Math.round(increments.reduce((a, b) => a + b, 0)), 100);
    assert.equal(increments[1], 0);
  });
});
