// Fault: the emulator process is killed (SIGKILL) in the middle of a segmented upload and restarted on the same
// data folder and port. The client resumes (acknowledged segments survived; the rest are retried), the bytes come
// back identical, and an upload that was never committed stays invisible: no half-assembled file.
import { strict as assert } from 'node:assert';
import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DamClient } from '../../src/api/client';
import type { ApiError } from '../../src/api/errors';
import type { FetchInitLike, FetchLike } from '../../src/api/http';
import { EMULATOR_CLIENT, emulatorProfile } from '../../src/api/endpoints';
import { startEmulator } from '../../src/emulator/server';
import { USER_AGENT, failure } from './helpers';
import { exited, startEmulatorProcess } from '../support/emulatorProcess';

describe('uploads: emulator killed mid segmented upload (kill -9) and restarted', function () {
  this.timeout(300_000);
  let data: string;
  const children: ChildProcess[] = [];

  before(() => {
    data = mkdtempSync(join(tmpdir(), 'dam-upload-durability-'));
  });
  after(async () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited(child);
      }
    }
    rmSync(data, { recursive: true, force: true });
  });

  it('resumes the upload after the restart; the bytes come back identical and an uncommitted upload stays invisible', async () => {
    const first = await startEmulatorProcess({ data });
    children.push(first.child);
    const nodeFetch = (await import('node-fetch')).default as unknown as FetchLike;
    // Segment requests are held back a little so the kill lands while the upload is under way.
    const fetch: FetchLike = async (url: string, init: FetchInitLike) => {
      if (/\?index=/.test(url)) await new Promise((r) => setTimeout(r, 60));
      return nodeFetch(url, init);
    };
    const client = new DamClient({
      profile: emulatorProfile(first.url),
      secrets: { clientSecret: EMULATOR_CLIENT.clientSecret },
      userAgent: USER_AGENT,
      fetch,
      retry: { retries: 10, maxDelayMs: 1500 },
    });

    // An upload left open before the crash: two of its three segments arrive, it is never committed.
    const abandoned = await client.uploads.openSession('abandoned.bin');
    await client.uploads.uploadSegment(abandoned.token, 0, randomBytes(1000), 'abandoned.bin.segment0');
    await client.uploads.uploadSegment(abandoned.token, 1, randomBytes(1000), 'abandoned.bin.segment1');

    const bytes = randomBytes(12 * 2 ** 20 + 11);
    const path = join(data, '..', `dam-upload-durability-${process.pid}.bin`);
    writeFileSync(path, bytes);
    let restarted: Promise<void> | undefined;
    try {
      const result = await client.uploads.uploadFile(path, {
        segmentSize: 2 ** 19,
        concurrency: 2,
        segmented: true,
        onProgress: ({ sent }) => {
          if (restarted || sent < 3 * 2 ** 20) return;
          first.child.kill('SIGKILL');
          restarted = exited(first.child).then(async () => {
            const second = await startEmulatorProcess({ data, port: first.port });
            children.push(second.child);
          });
        },
      });
      assert.ok(restarted, 'the emulator was killed during the upload');
      await restarted;
      assert.equal(result.segments, 25);

      const record = await client.files.createRecordFromUpload({ token: result.token, title: 'survived a kill -9' });
      const version = await client.files.latestVersion(String(record.id));
      const download = await client.files.download(version!);
      const hash = createHash('sha256');
      for await (const chunk of download.body) hash.update(chunk as Buffer);
      assert.equal(hash.digest('hex'), createHash('sha256').update(bytes).digest('hex'));
    } finally {
      rmSync(path, { force: true });
    }

    // The open upload is still open: not usable as a file, and its commit names the index that never arrived.
    const asFile = await failure<ApiError>(() => client.files.createRecordFromUpload({ token: abandoned.token }));
    assert.equal(asFile.status, 404);
    assert.ok(asFile.exceptionType?.endsWith('NoDataFoundException'));
    const commit = await failure<ApiError>(() => client.uploads.commit(abandoned.token, 'abandoned.bin', 3));
    assert.equal(commit.status, 400);
    assert.match(commit.exceptionMessage ?? '', /index\(es\) 2 missing/);
  });
});

/** Blob files under <data>/blobs (the temporary folder of partial writes excluded). */
function blobFiles(data: string): string[] {
  const root = join(data, 'blobs');
  return readdirSync(root).filter((d) => d !== 'tmp').flatMap((d) => readdirSync(join(root, d)));
}

describe('uploads: the sweep removes what nobody will use', function () {
  this.timeout(300_000);
  let data: string;
  before(() => {
    data = mkdtempSync(join(tmpdir(), 'dam-upload-sweep-'));
  });
  after(() => rmSync(data, { recursive: true, force: true }));

  it('after a day, unused uploads and abandoned sessions lose their blobs; the blob of a consumed upload stays with its version', async () => {
    const first = await startEmulator({ data, port: 0, seed: 'empty' });
    let recordId: string;
    try {
      const client = new DamClient({ profile: emulatorProfile(first.url), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, userAgent: USER_AGENT });
      const used = await client.uploads.upload({ filename: 'used.bin', data: randomBytes(1000) });
      recordId = String((await client.files.createRecordFromUpload({ token: used.token, title: 'kept by its version' })).id);
      await client.uploads.upload({ filename: 'unused.bin', data: randomBytes(1000) });
      const session = await client.uploads.openSession('abandoned.bin');
      await client.uploads.uploadSegment(session.token, 0, randomBytes(1000), 'abandoned.bin.segment0');
    } finally {
      await first.close();
    }
    const before = blobFiles(data);
    assert.ok(before.length >= 3, `blobs before the sweep: ${before.length}`);

    // A day later: the sweep runs at start, and close() waits for it.
    const later = await startEmulator({ data, port: 0, seed: 'empty', clock: { now: () => new Date(Date.now() + 25 * 3_600_000) } });
    await later.close();
    const after = blobFiles(data);
    assert.equal(before.length - after.length, 2, 'the unused upload and the abandoned segment are gone');

    // The version made from the consumed upload still downloads.
    const third = await startEmulator({ data, port: 0, seed: 'empty' });
    try {
      const client = new DamClient({ profile: emulatorProfile(third.url), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, userAgent: USER_AGENT });
      const version = await client.files.latestVersion(recordId);
      const download = await client.files.download(version!);
      let size = 0;
      for await (const chunk of download.body) size += (chunk as Buffer).length;
      assert.equal(size, 1000);
    } finally {
      await third.close();
    }
  });
});
