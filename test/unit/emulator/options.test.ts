// The emulator's command-line options: --records N, the size a scaling measurement grows the tenant to.
import { strict as assert } from 'node:assert';
import { toEmulatorOptions } from '../../../src/emulator/options';

describe('emulator options', () => {
  it('takes --records as a number of records', () => {
    assert.equal(toEmulatorOptions({ seed: 'demo', records: '1000000' }).records, 1_000_000);
    assert.equal(toEmulatorOptions({}).records, undefined);
  });

  it('refuses a --records that is not a number from 1 to ten million', () => {
    for (const bad of ['0', '-5', '1e6', 'many', '10000001', '']) {
      assert.throws(() => toEmulatorOptions({ records: bad }), /--records must be a number of records from 1 to 10000000/, bad);
    }
  });

  it('--tenant-limits enforces a tenant\'s numbers; --tenant-rate and --tenant-queue change them, enforced or only reported', () => {
    assert.equal(toEmulatorOptions({}).tenantLimits, undefined);
    assert.deepEqual(toEmulatorOptions({ 'tenant-limits': true }).tenantLimits, { enforce: true });
    assert.deepEqual(toEmulatorOptions({ 'tenant-limits': true, 'tenant-rate': '2.5', 'tenant-queue': '0' }).tenantLimits, { enforce: true, rate: 2.5, queue: 0 });
    assert.deepEqual(toEmulatorOptions({ 'tenant-rate': '4' }).tenantLimits, { enforce: false, rate: 4 });
    for (const bad of ['0', '-1', 'fast', '1e3', '']) assert.throws(() => toEmulatorOptions({ 'tenant-rate': bad }), /--tenant-rate must be/, bad);
    for (const bad of ['-1', '1.5', 'many']) assert.throws(() => toEmulatorOptions({ 'tenant-queue': bad }), /--tenant-queue must be/, bad);
  });
});
