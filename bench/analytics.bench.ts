// Analytics at 1,000,000 events: month-by-user through the HTTP API against the same aggregation as plain SQL on the same database, and paging 50,000 ordered rows.
import { buildApp } from '../src/emulator/server';
import { openStore } from '../src/emulator/storage/open';
import { migrate } from '../src/emulator/storage/migrate';
import { migrations } from '../src/emulator/storage/migrations';
import { seedStore } from '../src/emulator/seed';
import { createRng } from '../src/emulator/rng';
import { EVENTS_END, EVENTS_START, insertAnalyticsEvents } from '../src/emulator/seed/analyticsEvents';
import { DamClient } from '../src/api/client';
import { UNPACED } from '../src/api/pacing';
import { AnalyticsApi } from '../src/api/analytics';
import { EMULATOR_CLIENT, emulatorProfile } from '../src/api/endpoints';
import type { AnalyticsQuery } from '../src/core/analytics';
import { median, printRow } from './stats';

const TOTAL_EVENTS = 1_000_000;
const RUNS = 9;
const PAGE_ROWS = 50_000;

const ms = (n: number) => `${n.toFixed(1)} ms`;

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = process.hrtime.bigint();
  const out = await fn();
  return [Number(process.hrtime.bigint() - t) / 1e6, out];
}

async function main() {
  const store = await openStore({ data: ':memory:' });
  await migrate(store, migrations);
  const [seedMs] = await timed(async () => {
    await seedStore(store, 'demo', () => undefined);
    const [{ n }] = await store.query<{ n: number }>(`SELECT ((SELECT count(*) FROM analytics_view_events) + (SELECT count(*) FROM analytics_download_events))::int AS n`);
    // Top up the demo tenant to a million events, three views for each download like the demo.
    const more = TOTAL_EVENTS - n;
    const views = Math.round(more * 0.75);
    await insertAnalyticsEvents(store, createRng(20261122), { views, downloads: more - views, start: EVENTS_START, end: EVENTS_END });
  });
  const [{ n: total }] = await store.query<{ n: number }>(`SELECT ((SELECT count(*) FROM analytics_view_events) + (SELECT count(*) FROM analytics_download_events))::int AS n`);
  console.log(`events: ${total.toLocaleString('en-US')} (seeded in ${(seedMs / 1000).toFixed(1)} s)`);

  let url = '';
  const { app } = await buildApp(store, {}, () => url);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const client = new DamClient({ profile: emulatorProfile(url), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, pacing: UNPACED, userAgent: 'dam-bench/1' });
  const api = new AnalyticsApi(client.http);

  // No limit/offset: the route aggregates afresh on every request (only windowed, ordered queries use its page cache).
  const monthByUser: AnalyticsQuery = {
    measures: ['Views.count'],
    dimensions: ['Users.loginId'],
    timeDimensions: [{ dimension: 'Views.viewDate', granularity: 'month' }],
    order: { 'Views.viewDate.month': 'asc', 'Users.loginId': 'asc' },
  };
  const plain = `SELECT u.login, date_trunc('month', v.view_date AT TIME ZONE 'UTC') AS month, count(*) AS n
                   FROM analytics_view_events v LEFT JOIN users u ON u.id = v.user_id
                  GROUP BY 1, 2 ORDER BY 2, 1`;
  // Warm both paths (token, plan caches), then alternate so both see the same machine load.
  const apiRows = await api.run(monthByUser);
  const sqlRows = await store.query(plain);
  if (apiRows.length !== sqlRows.length) throw new Error(`API answered ${apiRows.length} rows, SQL ${sqlRows.length}`);
  const apiTimes: number[] = [];
  const sqlTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    apiTimes.push((await timed(() => api.run(monthByUser)))[0]);
    sqlTimes.push((await timed(() => store.query(plain)))[0]);
  }
  const apiMedian = median(apiTimes);
  const sqlMedian = median(sqlTimes);
  printRow(`month-by-user, ${apiRows.length} rows (median of ${RUNS})`, ms(apiMedian), `plain SQL ${ms(sqlMedian)}`, `ratio ${(apiMedian / sqlMedian).toFixed(2)}, target ≤ 2`);

  // Paging aggregates the whole ordered answer on the first page and slices it for the next ones (the route's page cache).
  const paged: AnalyticsQuery = {
    measures: ['Views.count'],
    dimensions: ['Views.recordId', 'Views.userId'],
    timeDimensions: [{ dimension: 'Views.viewDate', granularity: 'month' }],
    order: { 'Views.count': 'desc' },
  };
  const [pageMs, rows] = await timed(async () => {
    let n = 0;
    for await (const page of api.pages(paged, { pageSize: 10_000 })) {
      n += page.length;
      if (n >= PAGE_ROWS) break;
    }
    return n;
  });
  const [oneMs] = await timed(() =>
    store.query(
      `SELECT record_id, user_id, date_trunc('month', view_date AT TIME ZONE 'UTC') AS m, count(*) AS n FROM analytics_view_events
        GROUP BY 1, 2, 3 ORDER BY n DESC, 1, 2, 3 LIMIT ${PAGE_ROWS}`,
    ),
  );
  printRow(`page ${rows.toLocaleString('en-US')} rows, order + limit 10000 + offset`, ms(pageMs), `plain SQL, one statement ${ms(oneMs)}`, `${Math.ceil(rows / 10_000)} pages`);

  await app.close();
  await store.close();
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
