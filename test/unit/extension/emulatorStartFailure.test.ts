// Issue 35: an emulator start that failed because its port was taken said `EADDRINUSE` with only Show Log. The port
// is read from the emulator's own words (as EmulatorProcess passes them on), so the extension can say it in words and
// offer another port.
import { strict as assert } from 'node:assert';
import { portInUse, portInUseMessage } from '../../../src/extension/emulator/startFailure';

describe('emulator start failures', () => {
  it('reads the port of an EADDRINUSE from what the emulator printed', () => {
    // Word for word what a start on a taken port rejects with (dist/emulator.js's stderr, three last lines).
    const said = 'The emulator exited before it was ready (code 1): opened pglite store in 10590 ms dam emulator: listen EADDRINUSE: address already in use 127.0.0.1:35359';
    assert.equal(portInUse(said), 35359);
    assert.equal(portInUse('listen EADDRINUSE: address already in use :::7070'), 7070);
    assert.equal(portInUse('listen EADDRINUSE: address already in use [::1]:7071'), 7071);
  });

  it('is not fooled by other failures', () => {
    assert.equal(portInUse('The emulator exited before it was ready (code 1): the data folder /x is in use by another emulator (pid 12)'), undefined);
    assert.equal(portInUse("The emulator did not report 'listening on' within 120 s."), undefined);
  });

  it('says the port is in use and what to do, without the error code', () => {
    const message = portInUseMessage(7070);
    assert.match(message, /port 7070 is in use by another program/);
    assert.match(message, /free port/);
    assert.doesNotMatch(message, /EADDRINUSE/);
  });
});
