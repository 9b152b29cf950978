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
});
