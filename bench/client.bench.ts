// Client iteration over 100,000 records by cursor (records/s), beside raw HTTP paging with plain
// fetch against the same emulator in the same run: the ratio is the client's overhead.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { startEmulator } from '../src/emulator/server';
import { openStore } from '../src/emulator/storage/open';
import { migrate } from '../src/emulator/storage/migrate';
import { migrations } from '../src/emulator/storage/migrations';
import { seedStore } from '../src/emulator/seed';
import { insertRecords, type RecordRow } from '../src/emulator/domain/bulk';
import { DamClient } from '../src/api/client';
import { UNPACED } from '../src/api/pacing';
import { EMULATOR_CLIENT, emulatorProfile } from '../src/api/endpoints';
import { emulatorToken } from './stats';

const TOTAL = Number(process.env.BENCH_RECORDS ?? 100_000);
const PAGE = 100;
/** Records per paired sample. */
const CHUNK = Math.max(PAGE, Math.floor(TOTAL / 20 / PAGE) * PAGE);
const USER_AGENT = 'dam-workbench-bench/1';

/** Seeds the contract's fixed data, then TOTAL records in bulk straight into the emulator's store. */
async function prepare(dir: string): Promise<void> {
  const store = await openStore({ data: dir });
  try {
    await migrate(store, migrations);
    await seedStore(store, 'empty', () => undefined);
    const rows: RecordRow[] = [];
    const types = ['Image', 'Video', 'Document'];
    const statuses = ['Draft', 'Released', 'Archived'];
    const base = Date.UTC(2025, 0, 1);
    for (let i = 0; i < TOTAL; i++) {
      const title = `Bench record ${i}`;
      const when = new Date(base + i * 60_000).toISOString();
      rows.push({ id: randomBytes(16).toString('hex'), title, status: statuses[i % 3], contentType: types[i % 3], searchText: title.toLowerCase(), createdOn: when, modifiedOn: when, createdBy: 1 });
    }
    await insertRecords(store, rows);
  } finally {
    await store.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}


type PlainFetch = (url: string, init: { headers: Record<string, string> }) => Promise<{ status: number; text(): Promise<string>; json(): Promise<unknown> }>;
let plainFetch: PlainFetch;

/**
 * Baseline: the same cursor walk with plain fetch (node-fetch, the client's own transport, so the
 * ratio isolates the client's work), hand-built headers and JSON.parse, nothing else.
 */
async function* rawPages(url: string, bearer: string): AsyncGenerator<unknown[]> {
  const headers = { Accept: 'application/hal+json', 'User-Agent': USER_AGENT, 'API-Version': '1', Authorization: `Bearer ${bearer}` };
  let cursor: string | null | undefined;
  do {
    const q = new URLSearchParams({ pageSize: String(PAGE) });
    if (cursor) q.set('cursor', cursor);
    const res = await plainFetch(`${url}/api/core/records?${q}`, { headers });
    if (res.status !== 200) throw new Error(`raw paging answered ${res.status}: ${await res.text()}`);
    const page = (await res.json()) as { items: unknown[]; nextCursor?: string | null };
    yield page.items;
    cursor = page.nextCursor;
  } while (cursor);
}

async function* clientPages(client: DamClient): AsyncGenerator<unknown[]> {
  for await (const page of client.records.cursorPages({ pageSize: PAGE })) yield page.items;
}

interface Walk {
  count: number;
  ms: number;
}

/**
 * Walks both sides in lockstep, one page each in turn: both ask for the same offsets at nearly the
 * same moment, so the emulator's cost per page and any drift in machine load hit both alike. Time
 * is summed per chunk of CHUNK records, giving one paired sample per chunk.
 */
async function lockstep(raw: AsyncGenerator<unknown[]>, ours: AsyncGenerator<unknown[]>): Promise<Array<{ raw: Walk; ours: Walk }>> {
  const chunks: Array<{ raw: Walk; ours: Walk }> = [];
  let current = { raw: { count: 0, ms: 0 }, ours: { count: 0, ms: 0 } };
  let total = 0;
  for (;;) {
    let t = performance.now();
    const a = await raw.next();
    current.raw.ms += performance.now() - t;
    t = performance.now();
    const b = await ours.next();
    current.ours.ms += performance.now() - t;
    if (a.done !== b.done) throw new Error('the two walks ended at different pages');
    if (a.done || b.done) break;
    if (a.value.length !== b.value.length) throw new Error('the two walks got pages of different sizes');
    current.raw.count += a.value.length;
    current.ours.count += b.value.length;
    total += a.value.length;
    if (current.raw.count >= CHUNK) {
      chunks.push(current);
      current = { raw: { count: 0, ms: 0 }, ours: { count: 0, ms: 0 } };
    }
  }
  if (current.raw.count > 0) chunks.push(current);
  if (total !== TOTAL) throw new Error(`iterated ${total} records, expected ${TOTAL}`);
  return chunks;
}

async function main(): Promise<void> {
  plainFetch = (await import('node-fetch')).default as unknown as PlainFetch;
  const dir = mkdtempSync(join(tmpdir(), 'dam-bench-client-'));
  try {
    const seeded = performance.now();
    await prepare(dir);
    console.log(`seeded ${TOTAL} records in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
    const emulator = await startEmulator({ port: 0, data: dir, seed: 'empty' });
    try {
      const client = new DamClient({ profile: emulatorProfile(emulator.url), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, pacing: UNPACED, userAgent: USER_AGENT });
      const bearer = await emulatorToken(emulator.url);
      // A short warm-up for both sides (JIT, connection pools, the emulator's caches).
      const warm = [rawPages(emulator.url, bearer), clientPages(client)];
      for (let i = 0; i < 10; i++) for (const walk of warm) await walk.next();
      for (const walk of warm) await walk.return(undefined);

      const chunks = await lockstep(rawPages(emulator.url, bearer), clientPages(client));
      const rate = (w: Walk) => (w.count / w.ms) * 1000;
      const sum = (side: 'raw' | 'ours') => chunks.reduce((acc, c) => ({ count: acc.count + c[side].count, ms: acc.ms + c[side].ms }), { count: 0, ms: 0 });
      const r = rate(sum('raw'));
      const c = rate(sum('ours'));
      const ratios = chunks.map((ch) => rate(ch.ours) / rate(ch.raw));
      console.log(`records by cursor (GET /records), ${TOTAL.toLocaleString('en')} records, pageSize ${PAGE}, both walks in lockstep:`);
      console.log(`  baseline (plain fetch + JSON.parse): ${Math.round(r).toLocaleString('en')} records/s (median per ${CHUNK}-record chunk ${Math.round(median(chunks.map((ch) => rate(ch.raw)))).toLocaleString('en')})`);
      console.log(`  DamClient.records.cursorPages:       ${Math.round(c).toLocaleString('en')} records/s (median per chunk ${Math.round(median(chunks.map((ch) => rate(ch.ours)))).toLocaleString('en')})`);
      console.log(`  ratio client/baseline:               ${(c / r).toFixed(2)} overall, median of ${chunks.length} paired chunks ${median(ratios).toFixed(2)}`);
    } finally {
      await emulator.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
