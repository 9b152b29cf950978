// Emulator benchmark on a 100,000-record tenant: median latency of a contains + date search and of a first page,
// and GET /record/{id} throughput beside a bare fastify route returning a constant body, measured in the same run.
import Fastify from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../src/emulator/server';
import { openPglite } from '../src/emulator/storage/pglite';
import { migrate } from '../src/emulator/storage/migrate';
import { migrations } from '../src/emulator/storage/migrations';
import { seedStore } from '../src/emulator/seed';
import { seedRecords } from '../src/emulator/seed/demo';
import { createRng } from '../src/emulator/rng';
import { median, printRow } from './stats';

const RECORDS = Number(process.env.DAM_BENCH_RECORDS ?? 100_000);
const SAMPLES = 30;
const THROUGHPUT_MS = 2000;
/** Rounds of bare and emulator throughput, alternating, so background load hits both alike. */
const ROUNDS = 3;
const CONCURRENCY = 16;

async function timeIt(fn: () => Promise<void>, samples: number): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

/** Requests per second of `fn` with CONCURRENCY requests in flight for THROUGHPUT_MS. */
async function throughput(fn: (i: number) => Promise<void>): Promise<number> {
  for (let i = 0; i < 200; i++) await fn(i);
  let done = 0;
  const end = performance.now() + THROUGHPUT_MS;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        await fn(done);
        done++;
      }
    }),
  );
  return done / ((performance.now() - start) / 1000);
}

async function expectOk(res: Response) {
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

async function main() {
  const data = mkdtempSync(join(tmpdir(), 'dam-emulator-bench-'));
  try {
    let t = performance.now();
    const store = await openPglite(data);
    await migrate(store, migrations);
    await seedStore(store, 'demo', () => undefined);
    const catalog = await store.query<{ id: string; parent_id: string | null }>('SELECT id, parent_id FROM classifications');
    const extra = RECORDS - (await store.query<{ n: number }>('SELECT count(*)::int AS n FROM records'))[0].n;
    if (extra > 0) {
      await store.transaction((tx) =>
        seedRecords(tx, createRng(7), extra, { classificationIds: catalog.map((c) => c.id), productIds: catalog.filter((c) => c.parent_id).map((c) => c.id) }),
      );
    }
    await store.exec('ANALYZE');
    await store.close();
    console.log(`prepared ${RECORDS} records in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    t = performance.now();
    const emulator = await startEmulator({ port: 0, data });
    const bare = Fastify({ logger: false });
    bare.get('/constant', async () => ({ id: 'constant', title: 'a constant body' }));
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/constant`;
    try {
      const token = (await (
        await fetch(`${emulator.url}/login/connect/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=client_credentials&scope=api&client_id=dam-emulator&client_secret=dam-emulator-secret',
        })
      ).json()) as { access_token: string };
      const headers = { authorization: `Bearer ${token.access_token}`, 'api-version': '1', accept: 'application/hal+json', 'user-agent': 'dam-bench' };

      const search = () =>
        fetch(`${emulator.url}/api/core/search/records?pageSize=50`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ searchExpression: { expression: 'Title contains sunny AND CreatedOn >= 2025-01-01' } }),
        }).then(expectOk);
      const firstPage = () => fetch(`${emulator.url}/api/core/records?pageSize=50`, { headers }).then(expectOk);
      const ids = (
        (await (await fetch(`${emulator.url}/api/core/records?pageSize=100`, { headers })).json()) as { items: { id: string }[] }
      ).items.map((i) => i.id);

      const searchMs = await timeIt(search, SAMPLES);
      const pageMs = await timeIt(firstPage, SAMPLES);
      const bareRounds: number[] = [];
      const recordRounds: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        bareRounds.push(await throughput(() => fetch(bareUrl).then(expectOk)));
        recordRounds.push(await throughput((i) => fetch(`${emulator.url}/api/core/record/${ids[i % ids.length]}`, { headers }).then(expectOk)));
      }
      const bareRps = median(bareRounds);
      const recordRps = median(recordRounds);

      console.log(`emulator on ${RECORDS} records (PGlite), ${SAMPLES} samples; throughput: ${CONCURRENCY} in flight, median of ${ROUNDS} alternating rounds`);
      printRow('search: Title contains + CreatedOn >= (median)', `${searchMs.toFixed(1)} ms`, '', 'POST /search/records, page of 50');
      printRow('first page GET /records (median)', `${pageMs.toFixed(1)} ms`, '', 'page of 50, default sort');
      printRow('GET /record/{id} throughput', `${recordRps.toFixed(0)} req/s`, `${bareRps.toFixed(0)} req/s bare fastify route`, `ratio ${(recordRps / bareRps).toFixed(2)}, target >= 0.25`);
    } finally {
      await bare.close();
      await emulator.close();
    }
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
