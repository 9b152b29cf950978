// The analytics API over real HTTP: every validation rule answers 400 naming the member or rule, and
// answers on the demo tenant equal the same aggregation written as plain SQL on the same database.
import { strict as assert } from 'node:assert';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describeEachBackend, failure, USER_AGENT } from './helpers';
import { AnalyticsApi, UnorderedPagingError } from '../../src/api/analytics';
import { ApiError } from '../../src/api/errors';
import { DamClient } from '../../src/api/client';
import { EMULATOR_CLIENT, emulatorProfile } from '../../src/api/endpoints';
import { AnalyticsQueryError, type AnalyticsQuery, type AnalyticsRow } from '../../src/core/analytics';
import { buildApp } from '../../src/emulator/server';
import { openStore } from '../../src/emulator/storage/open';
import { migrate } from '../../src/emulator/storage/migrate';
import { migrations } from '../../src/emulator/storage/migrations';
import { seedStore } from '../../src/emulator/seed';
import type { Store } from '../../src/emulator/storage/store';
import { main } from '../../src/cli/main';

const V = { measures: ['Views.count'] };

/** Each rule of the issue: the query breaking it and the text the 400 message must contain. */
const RULES: [string, unknown, string][] = [
  ['unknown domain', { measures: ['Clicks.count'] }, "'Clicks'"],
  ['unknown member', { measures: ['Views.clicks'] }, "'Views.clicks'"],
  ['member not written Domain.member', { measures: ['count'] }, "'count'"],
  ['a dimension under measures', { measures: ['Views.userId'] }, "'Views.userId' is a dimension"],
  ['a group the zero domains may not join', { measures: ['ZeroViewRecords.count'], dimensions: ['Users.loginId'] }, "'Users.loginId' cannot be used with domain 'ZeroViewRecords'"],
  ['Collections only with Views', { measures: ['Downloads.count'], dimensions: ['Collections.name'] }, "'Collections.name' cannot be used with domain 'Downloads'"],
  ['two domains in one query', { measures: ['Views.count', 'Downloads.count'] }, "'Downloads.count'"],
  ['joined group without a domain', { dimensions: ['Users.loginId'] }, "'Users.loginId'"],
  ['unknown operator', { ...V, filters: [{ member: 'Views.userId', operator: 'between', values: ['1'] }] }, "Unknown operator 'between'"],
  ['operator for another type', { ...V, filters: [{ member: 'Views.userId', operator: 'contains', values: ['1'] }] }, "Operator 'contains' does not apply to 'Views.userId'"],
  ['values missing', { ...V, filters: [{ member: 'Views.userId', operator: 'equals' }] }, "Filter on 'Views.userId' with operator 'equals' needs 'values'"],
  ['values empty', { ...V, filters: [{ member: 'Views.userId', operator: 'equals', values: [] }] }, 'empty'],
  ['filter without operator', { ...V, filters: [{ member: 'Views.userId' }] }, "needs 'operator'"],
  ['filter without member', { ...V, filters: [{ operator: 'set' }] }, "needs 'member'"],
  ['a value of the wrong type', { ...V, filters: [{ member: 'Views.userId', operator: 'gt', values: ['ten'] }] }, "'ten' is not a number"],
  ['inDateRange with one date', { ...V, filters: [{ member: 'Views.viewDate', operator: 'inDateRange', values: ['2026-01-01'] }] }, 'two dates'],
  ['limit over 10000', { ...V, limit: 10001 }, 'limit 10001 is over the maximum of 10000'],
  ['negative limit', { ...V, limit: -1 }, 'limit must be a whole number'],
  ['negative offset', { ...V, offset: -1, order: { 'Views.count': 'desc' } }, 'offset must be a whole number'],
  ['order on a member not in the query', { ...V, order: { 'Views.userId': 'asc' } }, "Order member 'Views.userId' is not in the query"],
  ['order direction', { ...V, order: { 'Views.count': 'up' } }, "must be 'asc' or 'desc'"],
  ['time dimension of another type', { ...V, timeDimensions: [{ dimension: 'Views.userId', granularity: 'day' }] }, "'Views.userId' is not a time dimension"],
  ['unknown granularity', { ...V, timeDimensions: [{ dimension: 'Views.viewDate', granularity: 'fortnight' }] }, "Unknown granularity 'fortnight'"],
  ['bad date range', { ...V, timeDimensions: [{ dimension: 'Views.viewDate', dateRange: ['2026-02-01', '2026-01-01'] }] }, "The dateRange of 'Views.viewDate' ends"],
  ['unknown relative range', { ...V, timeDimensions: [{ dimension: 'Views.viewDate', dateRange: 'next decade' }] }, 'next decade'],
  ['unknown attribute', { ...V, sort: {} }, "Unknown query attribute 'sort'"],
  ['empty query', {}, 'no measure, dimension or time dimension'],
  ['unknown timezone', { ...V, timezone: 'Mars/Olympus' }, 'Mars/Olympus'],
];

describeEachBackend('analytics rules', { seed: 'empty' }, (env) => {
  const api = () => new AnalyticsApi(env().client().http);

  for (const [rule, query, names] of RULES) {
    it(`400 for ${rule}, naming it`, async () => {
      const err = await failure<ApiError>(() => api().run(query as AnalyticsQuery, { skipValidation: true }));
      assert.ok(err instanceof ApiError, String(err));
      assert.equal(err.status, 400);
      assert.equal(err.exceptionType, 'Dam.Analytics.InvalidQueryException');
      assert.ok(err.exceptionMessage?.includes(names), `'${err.exceptionMessage}' should contain ${names}`);
      // The client refuses the same query before sending it, with the same message (one rule set for lint, client and emulator).
      const local = await failure<AnalyticsQueryError>(() => api().run(query as AnalyticsQuery));
      assert.ok(local instanceof AnalyticsQueryError);
      assert.ok(local.message.includes(names));
    });
  }

  it("400 without the 'query' parameter", async () => {
    const err = await failure<ApiError>(() => env().client().http.request({ endpoint: 'analytics', path: '/analytics/', accept: 'application/json' }));
    assert.equal(err.status, 400);
    assert.match(err.exceptionMessage ?? '', /'query' parameter is required/);
  });

  it('400 when the query is not JSON', async () => {
    const err = await failure<ApiError>(() =>
      env().client().http.request({ endpoint: 'analytics', path: '/analytics/', query: { query: '{measures:' }, accept: 'application/json' }),
    );
    assert.equal(err.status, 400);
    assert.match(err.exceptionMessage ?? '', /not valid JSON/);
  });

  it('401 without a token, and no CORS headers', async () => {
    const q = encodeURIComponent(JSON.stringify(V));
    const res = await fetch(`${env().url}/analytics/?query=${q}`, { headers: { accept: 'application/json', 'user-agent': USER_AGENT, 'api-version': '1', origin: 'https://example.com' } });
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  });

  it('answers an empty tenant with a zero count as a string', async () => {
    assert.deepEqual(await api().run({ measures: ['Views.count'] }), [{ 'Views.count': '0' }]);
  });
});

/** A demo tenant served by the emulator's own app, with the store kept for plain-SQL comparisons. */
describe('analytics answers [pglite, demo tenant]', function () {
  this.timeout(300_000);
  let store: Store;
  let app: FastifyInstance;
  let client: DamClient;
  let api: AnalyticsApi;
  let url = '';
  const sql = <T = Record<string, unknown>>(text: string, params: (string | number)[] = []) => store.query<T>(text, params);
  const run = (q: AnalyticsQuery) => api.run(q);

  before(async () => {
    store = await openStore({ data: ':memory:' });
    await migrate(store, migrations);
    await seedStore(store, 'demo', () => undefined);
    app = (await buildApp(store, {}, () => url)).app;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    client = new DamClient({ profile: emulatorProfile(url), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, userAgent: USER_AGENT });
    api = new AnalyticsApi(client.http);
  });
  after(async () => {
    await app?.close();
    await store?.close();
  });

  it('the demo tenant has at least 100,000 view and download events', async () => {
    const [views] = await run({ measures: ['Views.count'] });
    const [downloads] = await run({ measures: ['Downloads.count'] });
    assert.ok(Number(views['Views.count']) + Number(downloads['Downloads.count']) >= 100_000);
    const [span] = await sql<{ months: string }>(`SELECT count(DISTINCT date_trunc('month', view_date AT TIME ZONE 'UTC'))::text AS months FROM analytics_view_events`);
    assert.equal(span.months, '12');
  });

  it('month by user equals the same aggregation in plain SQL, every value a string', async () => {
    const rows = await run({
      measures: ['Views.count'],
      dimensions: ['Users.loginId'],
      timeDimensions: [{ dimension: 'Views.viewDate', granularity: 'month' }],
      order: { 'Views.viewDate.month': 'asc', 'Users.loginId': 'asc' },
    });
    const expected = await sql<{ login: string; month: string; n: string }>(
      `SELECT u.login, to_char(date_trunc('month', v.view_date AT TIME ZONE 'UTC'), 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS month, count(*)::text AS n
         FROM analytics_view_events v LEFT JOIN users u ON u.id = v.user_id GROUP BY 1, 2 ORDER BY 2, 1`,
    );
    assert.deepEqual(
      rows,
      expected.map((e) => ({ 'Users.loginId': e.login, 'Views.viewDate.month': e.month, 'Views.viewDate': e.month, 'Views.count': e.n })),
    );
    for (const row of rows) for (const value of Object.values(row)) assert.equal(typeof value, 'string');
  });

  it('record ids come back as undashed GUIDs', async () => {
    const rows = await run({ measures: ['Downloads.count'], dimensions: ['Downloads.recordId', 'Downloads.versionId'], order: { 'Downloads.count': 'desc' }, limit: 20 });
    assert.equal(rows.length, 20);
    for (const r of rows) {
      assert.match(r['Downloads.recordId'] ?? '', /^[0-9a-f]{32}$/);
      assert.match(r['Downloads.versionId'] ?? '', /^[0-9a-f]{32}$/);
    }
  });

  it('counting by groups counts a user in two groups twice, as the spec warns', async () => {
    const byGroup = await run({ measures: ['Views.count'], dimensions: ['Groups.name'], order: { 'Groups.name': 'asc' } });
    const total = Number((await run({ measures: ['Views.count'] }))[0]['Views.count']);
    const sum = byGroup.reduce((s, r) => s + Number(r['Views.count']), 0);
    const [joined] = await sql<{ n: string }>(`SELECT count(*)::text AS n FROM analytics_view_events v LEFT JOIN user_group_members gm ON gm.user_id = v.user_id`);
    assert.equal(sum, Number(joined.n));
    assert.ok(sum > total, 'some viewers belong to two groups');
  });

  it('counting by classifications counts a record with several classifications once per classification', async () => {
    const byClass = await run({ measures: ['Downloads.count'], dimensions: ['Classifications.classificationId'], order: { 'Downloads.count': 'desc' } });
    const [joined] = await sql<{ n: string }>(`SELECT count(*)::text AS n FROM analytics_download_events d LEFT JOIN record_classifications rc ON rc.record_id = dam_uid(d.record_id)`);
    assert.equal(byClass.reduce((s, r) => s + Number(r['Downloads.count']), 0), Number(joined.n));
  });

  it('filters: equals, contains, inDateRange, gt, gte, set and notSet match plain SQL', async () => {
    const count = async (q: AnalyticsQuery) => Number((await run(q))[0]?.['Views.count'] ?? 0);
    const one = async (where: string, params: string[] = []) =>
      Number((await sql<{ n: string }>(`SELECT count(*)::text AS n FROM analytics_view_events v LEFT JOIN users u ON u.id = v.user_id WHERE ${where}`, params))[0].n);
    const cases: [AnalyticsQuery['filters'], string, string[]][] = [
      [[{ member: 'Users.loginId', operator: 'equals', values: ['admin', 'editor'] }], `u.login IN ('admin', 'editor')`, []],
      [[{ member: 'Users.lastName', operator: 'contains', values: ['ER'] }], `u.last_name ILIKE '%er%'`, []],
      [[{ member: 'Views.viewDate', operator: 'inDateRange', values: ['2026-01-01', '2026-01-31'] }], `v.view_date >= '2026-01-01T00:00:00Z' AND v.view_date < '2026-02-01T00:00:00Z'`, []],
      [[{ member: 'Views.userId', operator: 'gt', values: ['1020'] }], 'v.user_id > 1020', []],
      [[{ member: 'Views.userId', operator: 'gte', values: ['1020'] }], 'v.user_id >= 1020', []],
      [[{ member: 'Views.spaceId', operator: 'set' }], 'v.space_id IS NOT NULL', []],
      [[{ member: 'Views.collectionId', operator: 'notSet' }], 'v.collection_id IS NULL', []],
    ];
    for (const [filters, where, params] of cases) {
      const n = await count({ measures: ['Views.count'], filters });
      assert.equal(n, await one(where, params), JSON.stringify(filters));
      assert.ok(n > 0, `${JSON.stringify(filters)} selects something`);
    }
  });

  it('a measure filter keeps only the groups over the threshold', async () => {
    const rows = await run({ measures: ['Views.count'], dimensions: ['Views.userId'], filters: [{ member: 'Views.count', operator: 'gt', values: ['2000'] }], order: { 'Views.count': 'desc' } });
    const expected = await sql<{ n: string }>(`SELECT count(*)::text AS n FROM analytics_view_events GROUP BY user_id HAVING count(*) > 2000`);
    assert.equal(rows.length, expected.length);
    assert.ok(rows.length > 0, 'someone viewed more than 2000 times');
    assert.ok(rows.every((r) => Number(r['Views.count']) > 2000));
  });

  it('fiscal years start in July; the label groups read from the date dimension', async () => {
    const rows = await run({
      measures: ['Downloads.count'],
      dimensions: ['DateDimension.fiscalYear', 'DateDimension.fiscalQuarter', 'Month.label', 'Quarter.label'],
      timeDimensions: [{ dimension: 'Downloads.downloadDate', dateRange: ['2026-06-01', '2026-07-31'] }],
      order: { 'DateDimension.fiscalQuarter': 'asc', 'Month.label': 'asc' },
    });
    assert.deepEqual(
      rows.map((r) => [r['DateDimension.fiscalYear'], r['DateDimension.fiscalQuarter'], r['Month.label'], r['Quarter.label']]),
      [
        ['FY2026', 'FY2026-Q4', 'Jun', 'Q2'],
        ['FY2027', 'FY2027-Q1', 'Jul', 'Q3'],
      ],
    );
  });

  it('Views break down by context flags; ContentEngagement combines views and downloads', async () => {
    const flags = await run({ measures: ['Views.count'], dimensions: ['Views.hasNoContext', 'Views.hasSpaceContext', 'Views.hasCollectionContext'], order: { 'Views.count': 'desc' } });
    assert.ok(flags.every((r) => ['true', 'false'].includes(r['Views.hasNoContext'] ?? '')));
    const [ce] = await api.run({ measures: ['ContentEngagement.viewsCount', 'ContentEngagement.downloadsCount'] });
    const [v] = await run({ measures: ['Views.count'] });
    const [d] = await api.run({ measures: ['Downloads.count'] });
    assert.equal(ce['ContentEngagement.viewsCount'], v['Views.count']);
    assert.equal(ce['ContentEngagement.downloadsCount'], d['Downloads.count']);
  });

  it('date-typed members bucket like instants: engagement by month equals views by month', async () => {
    const ce = await api.run({
      measures: ['ContentEngagement.viewsCount'],
      timeDimensions: [{ dimension: 'ContentEngagement.date', granularity: 'month', dateRange: ['2026-01-01', '2026-06-30'] }],
      order: { 'ContentEngagement.date.month': 'asc' },
    });
    const views = await run({
      measures: ['Views.count'],
      timeDimensions: [{ dimension: 'Views.viewDate', granularity: 'month', dateRange: ['2026-01-01', '2026-06-30'] }],
      order: { 'Views.viewDate.month': 'asc' },
    });
    assert.equal(ce.length, 6);
    assert.deepEqual(
      ce.map((r) => [r['ContentEngagement.date.month'], r['ContentEngagement.viewsCount']]),
      views.map((r) => [r['Views.viewDate.month'], r['Views.count']]),
    );
    const byMonthStart = await run({ measures: ['Views.count'], dimensions: ['DateDimension.monthStartDate'], filters: [{ member: 'DateDimension.monthStartDate', operator: 'equals', values: ['2026-03-01'] }] });
    assert.deepEqual(byMonthStart, [{ 'DateDimension.monthStartDate': '2026-03-01T00:00:00.000', 'Views.count': views[2]['Views.count'] }]);
  });

  it('the zero domains list the records never viewed or downloaded', async () => {
    const [zv] = await api.run({ measures: ['ZeroViewRecords.count'] });
    const [expected] = await sql<{ n: string }>(`SELECT count(*)::text AS n FROM records r WHERE NOT EXISTS (SELECT 1 FROM analytics_view_events v WHERE v.record_id = r.id)`);
    assert.equal(zv['ZeroViewRecords.count'], expected.n);
    assert.ok(Number(expected.n) > 0);
  });

  it('paging with order, limit and offset returns every row once', async () => {
    const query: AnalyticsQuery = { measures: ['Views.count'], dimensions: ['Views.recordId', 'Views.userId'], order: { 'Views.count': 'desc' } };
    const pages: AnalyticsRow[][] = [];
    for await (const page of api.pages(query, { pageSize: 1000 })) pages.push(page);
    const all = pages.flat();
    const [expected] = await sql<{ n: string }>(`SELECT count(*)::text AS n FROM (SELECT 1 FROM analytics_view_events GROUP BY record_id, user_id) g`);
    assert.equal(all.length, Number(expected.n));
    assert.ok(pages.length > 1);
    assert.equal(new Set(all.map((r) => `${r['Views.recordId']}/${r['Views.userId']}`)).size, all.length, 'no row twice');
    for (let i = 1; i < all.length; i++) assert.ok(Number(all[i - 1]['Views.count']) >= Number(all[i]['Views.count']));
  });

  it('a new event shows at once in a paged (ordered, limited) answer', async () => {
    const q: AnalyticsQuery = { measures: ['Views.count'], dimensions: ['Views.userId'], filters: [{ member: 'Views.userId', operator: 'equals', values: ['2'] }], order: { 'Views.count': 'desc' }, limit: 10 };
    const before = Number((await run(q))[0]?.['Views.count'] ?? 0);
    await sql(`INSERT INTO analytics_view_events (view_date, date_dimension_id, user_id, record_id) VALUES ('2026-05-05T10:00:00Z', 20260505, 2, (SELECT min(id) FROM records))`);
    assert.equal(Number((await run(q))[0]['Views.count']), before + 1);
    await sql(`DELETE FROM analytics_view_events WHERE user_id = 2 AND view_date = '2026-05-05T10:00:00Z'`);
    assert.equal(Number((await run(q))[0]?.['Views.count'] ?? 0), before);
  });

  it('the client refuses to page without order', async () => {
    const err = await failure(async () => {
      for await (const _page of api.pages({ measures: ['Views.count'], dimensions: ['Views.recordId'] })) break;
    });
    assert.ok(err instanceof UnorderedPagingError);
  });

  describe('dam analytics run', () => {
    const fixtures = join(__dirname, '..', 'fixtures', 'analytics');
    async function dam(...args: string[]): Promise<{ code: number; out: string; err: string }> {
      let out = '';
      let err = '';
      const sink = (append: (s: string) => void) =>
        new Writable({
          write(chunk, _enc, done) {
            append(String(chunk));
            done();
          },
        });
      const env = { DAM_CLIENT_SECRET: EMULATOR_CLIENT.clientSecret };
      const code = await main(args, { stdout: sink((s) => (out += s)), stderr: sink((s) => (err += s)), env, signal: new AbortController().signal });
      return { code, out, err };
    }

    it('prints CSV with a header, every page with --all', async () => {
      const r = await dam('analytics', 'run', join(fixtures, 'views-by-month-and-user.dam-analytics.json'), '--all', '--csv', '--page-size', '50', '--url', url);
      assert.equal(r.code, 0, r.err);
      const lines = r.out.trimEnd().split('\n');
      assert.equal(lines[0], 'Users.loginId,Views.viewDate.month,Views.viewDate,Views.count');
      const direct = await run({
        measures: ['Views.count'],
        dimensions: ['Users.loginId'],
        timeDimensions: [{ dimension: 'Views.viewDate', granularity: 'month', dateRange: ['2025-11-01', '2026-10-31'] }],
        order: { 'Views.viewDate.month': 'asc', 'Users.loginId': 'asc' },
      });
      assert.equal(lines.length - 1, direct.length);
      assert.ok(direct.length > 100, 'more rows than the file’s limit of 100: --all paged');
    });

    it('streams NDJSON with --json', async () => {
      const r = await dam('analytics', 'run', join(fixtures, 'downloads-by-group-and-fiscal-year.dam-analytics.json'), '--json', '--url', url);
      assert.equal(r.code, 0, r.err);
      const rows = r.out.trimEnd().split('\n').map((l) => JSON.parse(l) as AnalyticsRow);
      assert.ok(rows.length > 0 && rows.every((row) => typeof row['Downloads.count'] === 'string' && row['Groups.name']));
    });

    it('reports a broken file as dam lint does and sends nothing', async () => {
      const file = join(fixtures, 'broken-limit.dam-analytics.json');
      const r = await dam('analytics', 'run', file, '--url', url);
      assert.equal(r.code, 1);
      assert.match(r.err, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:5:12: error DA3201 limit 20000 is over the maximum of 10000`));
    });

    it('--all refuses a query without order', async () => {
      const r = await dam('analytics', 'run', join(fixtures, 'views-unordered.dam-analytics.json'), '--all', '--url', url);
      assert.equal(r.code, 1);
      assert.match(r.err, /--all needs "order"/);
    });
  });
});
