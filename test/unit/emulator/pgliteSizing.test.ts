// How PGlite is run for the size of its database: the small footprint up to about 50,000 records, buffers of a
// quarter of the database (64 to 512 MB), optimised WASM code and only the WAL crash recovery needs beyond.
import { strict as assert } from 'node:assert';
import { pgliteSizing } from '../../../src/emulator/storage/pglite';

const MB = 2 ** 20;

describe('PGlite sizing', () => {
  it('keeps 16 MB of shared buffers and baseline code for the demo tenant and small tenants', () => {
    for (const bytes of [0, 40 * MB, 255 * MB]) assert.deepEqual(pgliteSizing(bytes), { startParams: ['-c', 'shared_buffers=16MB'], optimisedCode: false });
  });

  it('gives a large database a quarter of its size as buffers, at least 64 MB and at most 512 MB, optimised code and minimal WAL, removed once a checkpoint is past it', () => {
    const wal = ['-c', 'wal_level=minimal', '-c', 'max_wal_senders=0', '-c', 'wal_recycle=off'];
    assert.deepEqual(pgliteSizing(256 * MB), { startParams: ['-c', 'shared_buffers=64MB', ...wal], optimisedCode: true });
    assert.deepEqual(pgliteSizing(1000 * MB), { startParams: ['-c', 'shared_buffers=250MB', ...wal], optimisedCode: true });
    assert.deepEqual(pgliteSizing(5.1 * 1024 * MB), { startParams: ['-c', 'shared_buffers=512MB', ...wal], optimisedCode: true });
  });
});
