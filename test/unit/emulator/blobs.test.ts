// The emulator's blob folder: plain blobs, composed blobs (a committed segmented upload's parts named by a
// manifest, never copied) and the sweep of what a killed process left in the temporary folder. Real files in a
// temporary folder; the bytes are random so a misplaced range cannot pass by chance.
import { strict as assert } from 'node:assert';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBlobStore, type BlobInProgress, type BlobStore } from '../../../src/emulator/blobs';

/** A composed blob of the given parts, appended in order. */
async function compose(blobs: BlobStore, parts: string[]) {
  const composition = blobs.composition();
  for (const part of parts) await composition.append(part);
  return composition.finish();
}

/**
 * Bytes that arrive slowly, as a segment's request body does: `pieces` chunks with a pause before each, so the
 * reader catches up with the writer and has to wait for more. `stall` holds the body before its last piece until
 * it resolves; `fail` makes the body break off there instead.
 */
async function* trickle(bytes: Buffer, pieces: number, gate: { stall?: Promise<void>; fail?: boolean } = {}): AsyncGenerator<Buffer> {
  const step = Math.ceil(bytes.length / pieces);
  for (let at = 0; at < bytes.length; at += step) {
    if (at + step >= bytes.length) {
      await gate.stall;
      if (gate.fail) throw new Error('the client went away');
    }
    await new Promise((resolve) => setTimeout(resolve, 3));
    yield bytes.subarray(at, at + step);
  }
}

/** A part written as it is followed: what `write` tells `started`, and a promise of the stored blob. */
function writeFollowed(blobs: BlobStore, bytes: Buffer, gate?: { stall?: Promise<void>; fail?: boolean }) {
  let started!: (blob: BlobInProgress) => void;
  const begun = new Promise<BlobInProgress>((resolve) => (started = resolve));
  const stored = blobs.write(trickle(bytes, 12, gate), { checksum: false, started });
  return { begun, stored };
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

  it('follows parts while they are written (two at once, as parallel segments arrive): the checksum is that of all the bytes', async () => {
    // Over the hasher's 1 MiB reads, so a part is read in several goes while its writer is still busy.
    const parts = [randomBytes(3 * 2 ** 20 + 17), randomBytes(2 ** 20 + 5)];
    const writes = parts.map((bytes) => writeFollowed(blobs, bytes));
    const composition = blobs.composition();
    for (const write of writes) await composition.follow(await write.begun, write.stored);
    const written = await Promise.all(writes.map((w) => w.stored));
    assert.deepEqual(composition.keys, written.map((w) => w.key));
    const composed = await composition.finish();
    assert.equal(composed.size, parts[0].length + parts[1].length);
    assert.equal(composed.sha256, createHash('sha256').update(Buffer.concat(parts)).digest('hex'));
    assert.deepEqual(await blobs.bytes(composed.key), Buffer.concat(parts));
  });

  it('a part that breaks off while followed fails the composition; a whole part appended after it does not revive it', async () => {
    const broken = writeFollowed(blobs, randomBytes(2 ** 20), { fail: true });
    const composition = blobs.composition();
    await assert.rejects(composition.follow(await broken.begun, broken.stored), /went away/);
    const whole = await blobs.put(randomBytes(100));
    await assert.rejects(composition.append(whole.key));
    await assert.rejects(composition.finish());
    assert.deepEqual(readdirSync(join(blobs.dir, 'tmp')), []);
  });

  it('a part whose owner does not keep it, or keeps another blob, fails the composition', async () => {
    const dropped = writeFollowed(blobs, randomBytes(5000));
    const first = blobs.composition();
    await assert.rejects(first.follow(await dropped.begun, dropped.stored.then(() => Promise.reject(new Error('not stored')))), /not stored/);
    await assert.rejects(first.finish());

    const other = await blobs.put(randomBytes(10));
    const swapped = writeFollowed(blobs, randomBytes(5000));
    const second = blobs.composition();
    await assert.rejects(second.follow(await swapped.begun, swapped.stored.then(() => other)), /not the blob stored/);
  });

  it('a composition discarded while it follows a stalled part lets go of it once the part ends', async () => {
    let release!: () => void;
    const stall = new Promise<void>((resolve) => (release = resolve));
    const stalled = writeFollowed(blobs, randomBytes(2 ** 20), { stall });
    const composition = blobs.composition();
    const following = composition.follow(await stalled.begun, stalled.stored);
    following.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    composition.discard();
    release();
    await assert.rejects(following, /dropped/);
    // The part itself was written whole; only the reading of it was given up.
    assert.equal((await stalled.stored).size, 2 ** 20);
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
