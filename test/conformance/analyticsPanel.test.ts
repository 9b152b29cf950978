// The analytics panel's extension-side code (no `vscode` in it) against the emulator's demo tenant over HTTP:
// the table's pages join up to the one-request answer, nothing is capped silently, the export file holds
// every row, and record and user ids resolve through the client.
import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEachBackend } from './helpers';
import { exportRows, ResultPager, resultPages, UNORDERED_NOTE, csvCell } from '../../src/extension/analytics/resultPages';
import { LabelResolver, recordsByIdQuery } from '../../src/extension/analytics/labels';
import type { DamClient } from '../../src/api/client';
import type { AnalyticsQuery, AnalyticsRow } from '../../src/core/analytics';

const byRecordAndUser: AnalyticsQuery = {
  measures: ['Views.count'],
  dimensions: ['Views.recordId', 'Views.userId'],
  order: { 'Views.count': 'desc', 'Views.recordId': 'asc', 'Views.userId': 'asc' },
};

async function all(pages: AsyncGenerator<{ rows: AnalyticsRow[] }>): Promise<AnalyticsRow[]> {
  const out: AnalyticsRow[] = [];
  for await (const p of pages) out.push(...p.rows);
  return out;
}

describeEachBackend('analytics panel: pages, export, labels', {}, (env) => {
  let client: DamClient;
  let dir: string;
  before(async () => {
    client = env().client();
    dir = await mkdtemp(join(tmpdir(), 'dam-analytics-'));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it('pages inside the query window and joins up to the single answer', async () => {
    const window: AnalyticsQuery = { ...byRecordAndUser, offset: 7, limit: 1234 };
    const single = await client.analytics.run(window);
    assert.equal(single.length, 1234);
    const pager = new ResultPager(client.analytics, window, 500);
    const seen: AnalyticsRow[] = [];
    const fetched: number[] = [];
    for (let page = await pager.next(); page; page = await pager.next()) {
      seen.push(...page.rows);
      fetched.push(page.fetched);
      assert.equal(page.hasMore, page.fetched < 1234);
    }
    assert.deepEqual(fetched, [500, 1000, 1234]);
    assert.deepEqual(seen, single);
  });

  it('goes past the service cap of 10000 when ordered, and says more may exist when not', async () => {
    const ordered = await all(resultPages(client.analytics, byRecordAndUser, { pageSize: 10000 }));
    assert.ok(ordered.length > 10000, `the demo tenant should have more than 10000 record/user pairs, has ${ordered.length}`);
    const unordered: AnalyticsQuery = { measures: byRecordAndUser.measures, dimensions: byRecordAndUser.dimensions };
    const pages = [];
    for await (const p of resultPages(client.analytics, unordered, { pageSize: 500 })) pages.push(p);
    assert.equal(pages.length, 1);
    assert.equal(pages[0].rows.length, 10000);
    assert.equal(pages[0].hasMore, true);
    assert.equal(pages[0].note, UNORDERED_NOTE);
  });

  it('exports every row to CSV and JSON, equal to the client answer to the same query', async () => {
    const query: AnalyticsQuery = { ...byRecordAndUser, limit: 2500 };
    const expected = await client.analytics.run(query);
    assert.equal(expected.length, 2500);
    const progress: number[] = [];
    const json = join(dir, 'rows.json');
    const r = await exportRows(client.analytics, query, json, { format: 'json', pageSize: 1000, onProgress: (n) => progress.push(n) });
    assert.equal(r.rows, 2500);
    assert.deepEqual(progress, [1000, 2000, 2500]);
    assert.deepEqual(JSON.parse(await readFile(json, 'utf8')), expected);

    const csv = join(dir, 'rows.csv');
    await exportRows(client.analytics, query, csv, { format: 'csv', pageSize: 1000 });
    const lines = (await readFile(csv, 'utf8')).split('\r\n');
    const columns = Object.keys(expected[0]);
    assert.equal(lines[0], columns.join(','));
    assert.deepEqual(lines.slice(1, -1), expected.map((row) => columns.map((c) => csvCell(row[c])).join(',')));
    assert.equal(lines.at(-1), '');
  });

  it('removes the partial file when the export is cancelled', async () => {
    const file = join(dir, 'cancelled.csv');
    const abort = new AbortController();
    await assert.rejects(exportRows(client.analytics, byRecordAndUser, file, { format: 'csv', pageSize: 1000, signal: abort.signal, onProgress: () => abort.abort() }));
    await assert.rejects(stat(file));
  });

  it('resolves record ids to titles and user ids to names through the client, once per id', async () => {
    const rows = await client.analytics.run({ ...byRecordAndUser, limit: 2000 });
    const recordRequests: number[] = [];
    const resolver = new LabelResolver({
      recordTitles: async (ids) => {
        recordRequests.push(ids.length);
        const page = await client.search.records({ ...recordsByIdQuery(ids), pageSize: ids.length });
        return new Map(page.items.map((r) => [r.id, r.title ?? r.id]));
      },
      userName: async (id) => {
        const u = await client.users.get(id);
        return [u.firstName, u.lastName].filter(Boolean).join(' ') || undefined;
      },
    });
    const labels = await resolver.resolve(rows);
    const recordIds = new Set(rows.map((r) => r['Views.recordId']));
    const userIds = new Set(rows.map((r) => r['Views.userId']));
    assert.deepEqual(new Set(Object.keys(labels.records)), recordIds);
    assert.deepEqual(new Set(Object.keys(labels.users)), userIds);
    // One search per batch of 100 ids, not one request per record.
    const n = recordIds.size;
    assert.ok(n > 100, `only ${n} records in 2000 rows`);
    assert.deepEqual(recordRequests, Array.from({ length: Math.ceil(n / 100) }, (_, i) => Math.min(100, n - i * 100)));
    for (const id of [...recordIds].filter((x): x is string => x !== null).slice(0, 5)) assert.equal(labels.records[id], (await client.records.get(id)).title);
    assert.ok(Object.values(labels.users).every((name) => name.length > 0 && !/^\d+$/.test(name)), 'a user id stayed unresolved');
    // Already known ids are not fetched again.
    assert.deepEqual(await resolver.resolve(rows), { records: {}, users: {} });
  });
});
