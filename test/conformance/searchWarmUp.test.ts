// The search warm-up a large tenant's start runs before it listens (search/warmUp.ts): it must leave every answer
// and the state as they were (only reads, no request the inspector or trail could show) and run each of its searches
// without an error, on both backends; and the emulator's start runs it when the tenant is large enough (the size is
// lowered here, as searchCountIndex.test.ts does).
import { strict as assert } from 'node:assert';
import { EMULATOR_CLIENT } from '../../src/api/endpoints';
import { buildApp, startEmulator } from '../../src/emulator/server';
import { openStore } from '../../src/emulator/storage/open';
import { migrate } from '../../src/emulator/storage/migrate';
import { migrations } from '../../src/emulator/storage/migrations';
import type { Store } from '../../src/emulator/storage/store';
import { seedStore } from '../../src/emulator/seed';
import { growRecords } from '../../src/emulator/seed/scale';
import { warmSearches, warmUpSearches } from '../../src/emulator/search/warmUp';
import type { SearchRequest } from '../../src/core/search';
import { USER_AGENT, backends } from './helpers';
import { recordingStore } from '../support/recordingStore';

async function listen(built: Awaited<ReturnType<typeof buildApp>>): Promise<{ url: string; token: string }> {
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(built.app.server.address() as { port: number }).port}`;
  const res = await fetch(`${url}/login/connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': USER_AGENT },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'api', client_id: EMULATOR_CLIENT.clientId, client_secret: EMULATOR_CLIENT.clientSecret }),
  });
  return { url, token: ((await res.json()) as { access_token: string }).access_token };
}

/** A search's first page as a client reads it: status, total, the records' ids in order, the cursor's presence. */
async function page(app: { url: string; token: string }, search: Omit<SearchRequest, 'target'>): Promise<string> {
  const res = await fetch(`${app.url}/api/core/search/records?pageSize=20${search.sort ? `&sort=${encodeURIComponent(search.sort)}` : ''}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${app.token}`, 'api-version': '1', 'content-type': 'application/json', 'user-agent': USER_AGENT },
    body: JSON.stringify({ searchExpression: { expression: search.expression, namedParameters: search.namedParameters } }),
  });
  const body = (await res.json()) as { items?: { id: string }[]; totalCount?: number; nextCursor?: string | null; exceptionMessage?: string };
  return `${res.status} ${body.totalCount} ${body.items?.map((i) => i.id).join(',')} ${Boolean(body.nextCursor)} ${body.exceptionMessage ?? ''}`;
}

for (const backend of backends()) {
  describe(`search warm-up before a large tenant listens [${backend.name}]`, function () {
    this.timeout(600_000);
    let storage: Awaited<ReturnType<typeof backend.prepare>>;
    let store: Store;

    before(async () => {
      storage = await backend.prepare();
      store = await openStore({ data: ':memory:', database: storage.database });
      await migrate(store, migrations);
      await seedStore(store, 'demo', () => undefined);
      await growRecords(store, 600, () => undefined);
    });
    after(async () => {
      await store?.close();
      await storage?.cleanup();
    });

    it('runs a search of each kind, only reads, and leaves every answer as SQL gives it', async () => {
      const statements: string[] = [];
      const warmed = await buildApp(recordingStore(store, (sql) => statements.push(sql)), { searchIndex: 'auto', searchIndexTuning: { autoMinRecords: 0 } }, () => '');
      const sql = await buildApp(store, { searchIndex: 'off' }, () => '');
      try {
        assert.ok(await warmed.ctx.searchIndex.warm(), 'no search index');
        const searches = await warmSearches(warmed.ctx);
        // Titles, words, file names, statuses, content types (default and Title order), classifications by id and
        // name path, option and text field values, dates and a combination: the demo tenant has each.
        assert.equal(searches.length, 12, JSON.stringify(searches));
        statements.length = 0;
        const lines: string[] = [];
        await warmUpSearches(warmed.ctx, (line) => lines.push(line));
        assert.deepEqual(lines, [lines.find((l) => /^search warm-up: 12 searches in \d+ ms \(each: [\d, ]+ ms\)$/.test(l))], 'a warm-up search failed');
        const writes = statements.filter((s) => !/^\s*SELECT\b/i.test(s));
        assert.deepEqual(writes, [], 'the warm-up wrote');
        const [a, b] = [await listen(warmed), await listen(sql)];
        for (const search of searches) assert.equal(await page(a, search), await page(b, search), search.expression);
      } finally {
        await warmed.app.close();
        await sql.app.close();
      }
    });
  });
}

describe('the emulator start warms the search path of a large tenant', function () {
  this.timeout(600_000);
  it('runs the warm-up before it listens, and not on a small tenant', async () => {
    const lines: string[] = [];
    const large = await startEmulator({ data: ':memory:', port: 0, searchIndexTuning: { autoMinRecords: 0 }, log: (l) => lines.push(l) });
    await large.close();
    assert.ok(lines.some((l) => /^search warm-up: [1-9]\d* searches in \d+ ms \(each: [\d, ]+ ms\)$/.test(l)), lines.join('\n'));
    const small: string[] = [];
    const emulator = await startEmulator({ data: ':memory:', port: 0, log: (l) => small.push(l) });
    await emulator.close();
    assert.ok(!small.some((l) => l.startsWith('search warm-up')), small.join('\n'));
  });
});
