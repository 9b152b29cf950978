// The one upload queue (UploadQueue: the Upload command, drag and drop and `dam upload`, no vscode) against the
// real emulator: a failed file is retried without re-sending the files that arrived, and a cancelled batch
// creates no record.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UploadQueue } from '../../src/api/uploadQueue';
import { describeEachBackend } from './helpers';

describeEachBackend('Upload queue (UploadQueue)', {}, (env) => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'dam-upload-batch-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function recordsIn(classificationId: string): Promise<{ id: string; title?: string | null }[]> {
    const page = await env().client().search.records({ expression: 'DirectClassification = @c', namedParameters: { c: classificationId }, pageSize: 100 });
    return page.items;
  }

  it('sends a few files at once, never more than asked', async () => {
    const client = env().client();
    const cls = (await client.classifications.create({ name: `batch-parallel-${Date.now()}` })).id;
    const items = Array.from({ length: 8 }, (_, i) => {
      const path = join(dir, `p${i}.bin`);
      writeFileSync(path, randomBytes(20_000));
      return { path, name: `p${i}.bin`, size: 20_000 };
    });
    const queue = new UploadQueue(client, { kind: 'classification', classificationId: cls }, items, { concurrency: 3 });
    let most = 0;
    const result = await queue.run(undefined, (s) => (most = Math.max(most, s.active.length)));
    assert.equal(result.recordIds.length, 8);
    assert.equal(most, 3);
    assert.equal((await recordsIn(cls)).length, 8);
  });

  it('retries only the failed file: what arrived is not sent again', async () => {
    const client = env().client();
    const cls = (await client.classifications.create({ name: `batch-retry-${Date.now()}` })).id;
    const a = join(dir, 'a.bin');
    const missing = join(dir, 'late.bin');
    const b = join(dir, 'b.bin');
    writeFileSync(a, randomBytes(2048));
    writeFileSync(b, randomBytes(4096));
    const batch = new UploadQueue(client, { kind: 'classification', classificationId: cls }, [
      { path: a, name: 'a.bin', size: 2048 },
      { path: missing, name: 'late.bin', size: 10 },
      { path: b, name: 'b.bin', size: 4096 },
    ]);
    const first = await batch.run();
    assert.equal(first.recordIds.length, 2);
    assert.equal(first.failed.length, 1);
    assert.equal(first.failed[0].file, 'late.bin');
    assert.match(first.failed[0].reason, /ENOENT|no such file/i);
    assert.deepEqual(batch.remaining.map((s) => s.item.name), ['late.bin']);

    writeFileSync(missing, randomBytes(10));
    const uploadsBefore = env().events.filter((e) => e.method === 'POST' && /\/uploads$/.test(e.url)).length;
    const second = await batch.run();
    const uploadsAfter = env().events.filter((e) => e.method === 'POST' && /\/uploads$/.test(e.url)).length;
    assert.deepEqual(second.failed, []);
    assert.equal(uploadsAfter - uploadsBefore, 1, 'only the failed file was sent again');
    assert.equal(second.bytes, 10);
    const records = await recordsIn(cls);
    assert.deepEqual(records.map((r) => r.title).sort(), ['a', 'b', 'late']);
  });

  it('a batch cancelled while a segmented file is on its way creates no record and closes the session', async () => {
    const client = env().client();
    const cls = (await client.classifications.create({ name: `batch-cancel-${Date.now()}` })).id;
    const big = join(dir, 'big.bin');
    writeFileSync(big, randomBytes(45 * 1024 * 1024));
    const abort = new AbortController();
    const batch = new UploadQueue(client, { kind: 'classification', classificationId: cls }, [{ path: big, name: 'big.bin', size: 45 * 1024 * 1024 }], { segmentConcurrency: 1 });
    let sentAtCancel = -1;
    const result = await batch.run(abort.signal, (s) => {
      if (sentAtCancel < 0 && s.bytesSent > 0) {
        sentAtCancel = s.bytesSent;
        abort.abort();
      }
    });
    assert.ok(sentAtCancel > 0 && sentAtCancel < 45 * 1024 * 1024);
    assert.equal(result.cancelled, true);
    assert.deepEqual(result.recordIds, []);
    assert.equal(batch.statuses[0].state, 'cancelled');
    assert.deepEqual(await recordsIn(cls), []);
    const deletes = env().events.filter((e) => e.method === 'DELETE' && /\/uploads\/segments\/[^/]+$/.test(e.url));
    assert.ok(deletes.some((e) => e.status === 204), 'the segmented session was deleted');
  });
});
