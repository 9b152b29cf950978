// The emulator's blob folder: plain blobs, composed blobs (a committed segmented upload's parts named by a
// manifest, never copied) and the sweep of what a killed process left in the temporary folder. Real files in a
// temporary folder; the bytes are random so a misplaced range cannot pass by chance.
import { strict as assert } from 'node:assert';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBlobStore, type BlobStore } from '../../../src/emulator/blobs';

/** A composed blob of the given parts, appended in order. */
async function compose(blobs: BlobStore, parts: string[]) {
  const composition = blobs.composition();
  for (const part of parts) await composition.append(part);
  return composition.finish();
}

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Every file under the folder except the temporary one, relative. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !e.parentPath.endsWith('tmp'))
    .map((e) => e.name)
    .sort();
}

describe('emulator blob store', () => {
  let data: string;
  let blobs: BlobStore;
  beforeEach(() => {
    data = mkdtempSync(join(tmpdir(), 'dam-blobs-test-'));
    blobs = openBlobStore(data);
  });
  afterEach(async () => {
    await blobs.close();
    rmSync(data, { recursive: true, force: true });
  });

  it('composes parts into one blob whose bytes, size, checksum and ranges are those of the concatenation', async () => {
    const parts = [randomBytes(3000), randomBytes(1), randomBytes(5000)];
    const written = await Promise.all(parts.map((p) => blobs.put(p)));
    const whole = Buffer.concat(parts);
    const composed = await compose(blobs, written.map((w) => w.key));
    assert.equal(composed.size, whole.length);
    assert.equal(composed.sha256, createHash('sha256').update(whole).digest('hex'));
    assert.equal(await blobs.size(composed.key), whole.length);
    assert.deepEqual(await collect(blobs.read(composed.key)), whole);
    assert.deepEqual(await blobs.bytes(composed.key), whole);
    for (const [start, end] of [
      [0, 0],
      [2999, 3000],
      [2990, 3010],
      [3000, 3000],
      [3001, 7999],
      [100, 7999],
      [7999, 7999],
    ]) {
      assert.deepEqual(await collect(blobs.read(composed.key, { start, end })), whole.subarray(start, end + 1), `range ${start}-${end}`);
    }
  });

  it('builds the same blob part by part, and a part written without a checksum still counts in the whole one', async () => {
    const parts = [randomBytes(700), randomBytes(900)];
    const written = [await blobs.write((async function* () { yield parts[0]; })(), { checksum: false }), await blobs.put(parts[1])];
    assert.equal(written[0].sha256, '');
    const composition = blobs.composition();
    await composition.append(written[0].key);
    assert.deepEqual(composition.keys, [written[0].key]);
    await composition.append(written[1].key);
    const composed = await composition.finish();
    assert.equal(composed.sha256, createHash('sha256').update(Buffer.concat(parts)).digest('hex'));
    assert.deepEqual(await blobs.bytes(composed.key), Buffer.concat(parts));
  });

  it('reads plain blobs whole and by range as before', async () => {
    const bytes = randomBytes(10_000);
    const { key, size, sha256 } = await blobs.put(bytes);
    assert.equal(size, bytes.length);
    assert.equal(sha256, createHash('sha256').update(bytes).digest('hex'));
    assert.deepEqual(await collect(blobs.read(key, { start: 10, end: 19 })), bytes.subarray(10, 20));
    assert.deepEqual(await blobs.bytes(key), bytes);
    assert.equal(await blobs.size('0'.repeat(32)), undefined);
  });

  it('removing a composed blob removes its parts; releasing one leaves them', async () => {
    const a = await blobs.put(randomBytes(10));
    const b = await blobs.put(randomBytes(20));
    const released = await compose(blobs, [a.key, b.key]);
    await blobs.release(released.key);
    assert.equal(await blobs.size(released.key), undefined);
    assert.deepEqual(files(blobs.dir), [a.key, b.key].sort());

    const composed = await compose(blobs, [a.key, b.key]);
    assert.equal(files(blobs.dir).length, 3);
    await blobs.remove(composed.key);
    assert.deepEqual(files(blobs.dir), []);
    assert.equal(await blobs.size(a.key), undefined);
  });

  it('refuses a missing part and a composed part, leaving nothing behind', async () => {
    const a = await blobs.put(randomBytes(10));
    await assert.rejects(compose(blobs, [a.key, 'f'.repeat(32)]), (err: NodeJS.ErrnoException) => err.code === 'ENOENT');
    const composed = await compose(blobs, [a.key]);
    await assert.rejects(compose(blobs, [composed.key]), /cannot be a part/);
    assert.equal(files(blobs.dir).length, 2);
    assert.deepEqual(readdirSync(join(blobs.dir, 'tmp')), []);
  });

  it('sweeps what a killed writer left in the temporary folder', async () => {
    writeFileSync(join(blobs.dir, 'tmp', `${'a'.repeat(32)}.part`), 'half a file');
    const kept = await blobs.put(randomBytes(10));
    assert.equal(await blobs.sweepTemporary(), 1);
    assert.deepEqual(readdirSync(join(blobs.dir, 'tmp')), []);
    assert.ok(existsSync(join(blobs.dir, kept.key.slice(0, 2), kept.key)));
  });
});
