// The bulk runner against an emulator that answers one request in five with 429 and Retry-After (`faults`): with
// the HTTP layer's own retries off, the runner's wait-and-retry carries every record through; one record's failure
// does not stop the others; it never runs more jobs at once than the connection's pacer allows; cancel stops taking
// records and reports the rest as not run.
import { strict as assert } from 'node:assert';
import { describeEachBackend } from './helpers';
import { buildRecordTenant } from './recordFixture';
import { RecordSchema } from '../../src/api/schemas';
import { runBulk, type BulkJob } from '../../src/api/bulkRunner';
import { RequestPacer } from '../../src/api/pacing';
import { emptyChangeSet, type ChangeSet } from '../../src/core/records';

describeEachBackend('bulk runner', { seed: 'empty', faults: { rate: 0.2, kinds: ['429'] } }, (env) => {
  // Setup rides out the faults with the HTTP layer's retries; the runner's client has none of its own.
  const steady = () => env().client({ retry: { retries: 12 } });
  const bare = () => env().client({ retry: { retries: 0 } });
  const ids: string[] = [];
  const jobOf = (id: string, photographer: string): BulkJob & { changes: ChangeSet } => {
    const changes = emptyChangeSet(id);
    changes.fields.push({ field: 'Photographer', fieldId: '', dataType: 'SingleLineText', before: null, after: photographer });
    return { recordId: id, changes };
  };

  before(async () => {
    await buildRecordTenant(steady());
    for (let i = 0; i < 12; i++) {
      ids.push((await steady().http.request({ method: 'POST', path: '/record', json: { title: `Runner ${i}`, status: 'Draft' }, schema: RecordSchema })).data.id);
    }
  });

  it('waits out each 429 and changes every record; progress counts each one', async () => {
    const client = bare();
    const seen: number[] = [];
    const report = await runBulk(ids.map((id) => jobOf(id, 'Ana Lima')), (job, signal) => client.recordEdits.apply(job.changes, { signal }), {
      concurrency: 3,
      retriesAfter429: 12,
      onProgress: (p) => seen.push(p.done),
    });
    assert.deepEqual(report.failed, []);
    assert.equal(report.changed.length, ids.length);
    assert.deepEqual(seen, ids.map((_, i) => i + 1));
    for (const id of ids) assert.equal((await steady().recordEdits.open(id)).document.fields.Photographer, 'Ana Lima');
  });

  it('one record’s failure does not stop the others, and is named with its reason', async () => {
    const client = steady();
    const gone = (await client.http.request({ method: 'POST', path: '/record', json: { title: 'Gone' }, schema: RecordSchema })).data.id;
    await client.recordEdits.delete(gone);
    const jobs = [ids[0], gone, ids[1]].map((id) => jobOf(id, 'Kenji Sato'));
    const report = await runBulk(jobs, (job, signal) => client.recordEdits.apply(job.changes, { signal }), { concurrency: 1 });
    assert.deepEqual(report.changed.map((c) => c.recordId), [ids[0], ids[1]]);
    assert.equal(report.failed.length, 1);
    assert.equal(report.failed[0].recordId, gone);
    assert.equal(report.failed[0].status, 404);
    assert.match(report.failed[0].reason, /does not exist/);
  });

  it('cancel stops taking records: the rest are reported as not run, none as failed', async () => {
    const client = steady();
    const controller = new AbortController();
    const report = await runBulk(ids.map((id) => jobOf(id, 'Marta Nowak')), (job, signal) => client.recordEdits.apply(job.changes, { signal }), {
      concurrency: 1,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.done === 3) controller.abort();
      },
    });
    assert.equal(report.cancelled, true);
    assert.equal(report.changed.length, 3);
    assert.equal(report.notRun.length, ids.length - 3);
    assert.deepEqual(report.failed, []);
    assert.equal((await client.recordEdits.open(ids[ids.length - 1])).document.fields.Photographer, 'Ana Lima');
  });

  it('never has more jobs in flight than the connection’s pacer allows, whatever concurrency it is asked for', async () => {
    const pacer = new RequestPacer({ maxInFlight: 2, ratePerSecond: Infinity });
    const client = env().client({ pacing: pacer, retry: { retries: 12 } });
    let inFlight = 0;
    let most = 0;
    const report = await runBulk(
      ids.map((id) => jobOf(id, 'Two at a time')),
      async (job, signal) => {
        most = Math.max(most, ++inFlight);
        try {
          await client.recordEdits.apply(job.changes, { signal });
        } finally {
          inFlight--;
        }
      },
      { concurrency: 8, pacer: client.http.pacer, retriesAfter429: 12 },
    );
    assert.deepEqual(report.failed, []);
    assert.equal(report.changed.length, ids.length);
    assert.equal(most, 2);
  });
});
