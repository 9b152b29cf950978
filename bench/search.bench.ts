// The combined search (Title contains + CreatedOn >=, first page of 50 with its total) over HTTP, beside the same
// query as hand-written SQL on the same database in the same process: served by a bare route on the same server
// (the rows as plain JSON: the like-for-like baseline), and run on the store alone. On the demo tenant and on
// 100,000 records (PGlite), samples alternating; then EXPLAIN ANALYZE of the statements the emulator ran and of
// the hand-written ones. DAM_BENCH_SEARCH_SIZES (default 600,100000) and DAM_BENCH_SAMPLES (default 40) change the load.
import { median, percentile, printRow } from './stats';
import { ADJECTIVES } from '../src/emulator/seed/demo';
import type { Store } from '../src/emulator/storage/store';
import { explainText, openSearchTenant, type SearchBody } from './searchTenant';

const SIZES = (process.env.DAM_BENCH_SEARCH_SIZES ?? '600,100000').split(',').map(Number);
const SAMPLES = Number(process.env.DAM_BENCH_SAMPLES ?? 40);
if (SAMPLES > 144) throw new Error('DAM_BENCH_SAMPLES: at most 144 different searches');

/**
 * Sample `i`'s word and date: 144 different searches, so no sample repeats an earlier one (the emulator keeps the
 * totals of searches it has counted while nothing is written, which would flatter a repeated search).
 */
function sample(i: number): { word: string; since: string } {
  // Sample -1 warms up: a date no sample uses.
  if (i < 0) return { word: ADJECTIVES[0].toLowerCase(), since: '2024-06-01' };
  return { word: ADJECTIVES[i % 12].toLowerCase(), since: `2025-${String(1 + (Math.floor(i / 12) % 12)).padStart(2, '0')}-01` };
}
const combined = (i: number): SearchBody => ({ expression: `Title contains ${sample(i).word} AND CreatedOn >= ${sample(i).since}` });
/** What a person writes for the same answer, with the same index: the page with the columns the answer shows, and the total. */
const HAND_PAGE = `SELECT id, title, status, content_type, tag, created_on, modified_on, created_by, modified_by FROM records
  WHERE to_tsvector('simple', title) @@ to_tsquery('simple', $1) AND created_on >= $2::timestamptz ORDER BY created_on DESC, id LIMIT 50`;
const HAND_COUNT = `SELECT count(*)::int AS n FROM records WHERE to_tsvector('simple', title) @@ to_tsquery('simple', $1) AND created_on >= $2::timestamptz`;
const handParams = (i: number) => [sample(i).word, `${sample(i).since}T00:00:00Z`];

async function main(): Promise<void> {
  let current = 0;
  const handRoute = {
    path: '/bench/hand-search',
    handler: async (store: Store) => {
      const items = await store.query(HAND_PAGE, handParams(current));
      const count = await store.query<{ n: number }>(HAND_COUNT, handParams(current));
      return { items, totalCount: count[0].n };
    },
  };
  const tenant = await openSearchTenant({ log: (line) => console.log(line), routes: [handRoute] });
  try {
    for (const size of SIZES) {
      await tenant.grow(size);
      const hand = async (i: number) => {
        const started = performance.now();
        const [page, count] = [await tenant.store.query(HAND_PAGE, handParams(i)), await tenant.store.query<{ n: number }>(HAND_COUNT, handParams(i))];
        return { ms: performance.now() - started, totalCount: count[0].n, items: page.length };
      };
      // Warm both (JIT, caches, the planner's statistics) on a search the samples do not make, and check they agree.
      const warm = -1;
      current = warm;
      const [viaHttp, viaSql] = [await tenant.search(combined(warm)), await hand(warm)];
      if (viaHttp.totalCount !== viaSql.totalCount || viaHttp.items !== viaSql.items) {
        throw new Error(`the emulator and the hand-written SQL disagree: ${JSON.stringify(viaHttp)} vs ${JSON.stringify(viaSql)}`);
      }
      const bare = await tenant.post(handRoute.path);
      if (bare.totalCount !== viaSql.totalCount || bare.items !== viaSql.items) throw new Error('the bare route disagrees with the hand-written SQL');
      const httpMs: number[] = [];
      const bareMs: number[] = [];
      const sqlMs: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        httpMs.push((await tenant.search(combined(i))).ms);
        current = i;
        bareMs.push((await tenant.post(handRoute.path)).ms);
        sqlMs.push((await hand(i)).ms);
      }
      const label = size <= 600 ? 'demo tenant' : `${size.toLocaleString('en-US')} records`;
      printRow(
        `combined search, ${label} (e.g. ${viaHttp.totalCount.toLocaleString('en-US')} hits)`,
        `${median(httpMs).toFixed(1)} ms`,
        `${median(bareMs).toFixed(1)} ms hand-written SQL, bare route`,
        `median of ${SAMPLES}, p99 ${percentile(httpMs, 99).toFixed(1)} vs ${percentile(bareMs, 99).toFixed(1)} ms; ${(median(httpMs) / median(bareMs)).toFixed(2)}x`,
      );
      printRow(
        '  the hand-written SQL alone, on the store',
        `${median(sqlMs).toFixed(1)} ms`,
        '',
        `the search ${(median(httpMs) / median(sqlMs)).toFixed(2)}x this; HTTP, JSON and the pipeline ${(median(httpMs) - median(sqlMs)).toFixed(1)} ms`,
      );
      // EXPLAIN of a search the samples made: the emulator has its total, so ask with a date no sample used.
      const explained = { expression: `Title contains ${sample(0).word} AND CreatedOn >= 2025-01-02` };
      const statements = await tenant.statementsOf(explained);
      for (const { sql, params } of statements.filter((s) => /^\s*SELECT\b/i.test(s.sql) && /\bFROM records r\b/.test(s.sql))) {
        console.log(`\n  EXPLAIN ANALYZE, the emulator's ${sql.replace(/\s+/g, ' ').slice(0, 110)}…`);
        console.log(indent(explainText(await tenant.store.query(`EXPLAIN ANALYZE ${sql}`, params))));
      }
      for (const sql of [HAND_PAGE, HAND_COUNT]) {
        console.log(`\n  EXPLAIN ANALYZE, hand-written ${sql.replace(/\s+/g, ' ').slice(0, 110)}…`);
        console.log(indent(explainText(await tenant.store.query(`EXPLAIN ANALYZE ${sql}`, [sample(0).word, '2025-01-02T00:00:00Z']))));
      }
      console.log('');
    }
  } finally {
    await tenant.close();
  }
}

const indent = (text: string) => text.replace(/^/gm, '    ');

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
