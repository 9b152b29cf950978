// The search index's counts (search/countIndex.ts) against the SQL counts, over HTTP: one tenant (the demo grown
// to 3,000 records), three apps on the same store: one that counts only in SQL, one that counts every search it can
// from the index (every word held), one whose index holds only the words of a sample that occur twice (as on a large
// tenant). fast-check writes the searches from the criteria the index serves, mixed with ones it leaves to SQL; every
// total must be the same in all three. Writes make the index stale: the next count is of the tenant as written.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { DamClient } from '../../src/api/client';
import { EMULATOR_CLIENT, emulatorProfile } from '../../src/api/endpoints';
import { buildApp } from '../../src/emulator/server';
import { openStore } from '../../src/emulator/storage/open';
import { migrate } from '../../src/emulator/storage/migrate';
import { migrations } from '../../src/emulator/storage/migrations';
import type { Store } from '../../src/emulator/storage/store';
import { seedStore } from '../../src/emulator/seed';
import { growRecords } from '../../src/emulator/seed/scale';
import { ADJECTIVES, WORDS } from '../../src/emulator/seed/demo';
import { lexemesOf, type CountIndexHolder } from '../../src/emulator/search/countIndex';
import { USER_AGENT, backends } from './helpers';
import { recordingStore } from '../support/recordingStore';

const RUNS = Number(process.env.DAM_TEST_COUNT_INDEX_RUNS ?? 150);

interface App {
  url: string;
  token: string;
  searchIndex: CountIndexHolder;
  close(): Promise<void>;
}

async function startApp(store: Store, options: Parameters<typeof buildApp>[1]): Promise<App> {
  let url = '';
  const built = await buildApp(store, options, () => url);
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(built.app.server.address() as { port: number }).port}`;
  const res = await fetch(`${url}/login/connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': USER_AGENT },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'api', client_id: EMULATOR_CLIENT.clientId, client_secret: EMULATOR_CLIENT.clientSecret }),
  });
  const token = ((await res.json()) as { access_token: string }).access_token;
  return { url, token, searchIndex: built.ctx.searchIndex, close: () => built.app.close() };
}

async function total(app: App, expression: string): Promise<string> {
  const res = await fetch(`${app.url}/api/core/search/records?pageSize=1`, {
    method: 'POST',
    headers: { authorization: `Bearer ${app.token}`, 'api-version': '1', 'content-type': 'application/json', 'user-agent': USER_AGENT },
    body: JSON.stringify({ searchExpression: { expression } }),
  });
  const body = (await res.json()) as { totalCount?: number; exceptionMessage?: string };
  return res.status === 200 ? `200 ${body.totalCount}` : `${res.status} ${body.exceptionMessage}`;
}

interface Page {
  ids: string[];
  totalCount: number;
  nextCursor: string | null;
}

/** A page of a search (the first, or the one a cursor names), as the client reads it. */
async function searchPage(app: App, expression: string, sort: string, pageSize: number, cursor?: string): Promise<Page | string> {
  const res = await fetch(`${app.url}/api/core/search/records?pageSize=${pageSize}${sort ? `&sort=${encodeURIComponent(sort)}` : ''}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${app.token}`, 'api-version': '1', 'content-type': 'application/json', 'user-agent': USER_AGENT },
    body: JSON.stringify({ searchExpression: { expression }, ...(cursor ? { cursor } : {}) }),
  });
  const body = (await res.json()) as { items?: { id: string }[]; totalCount: number; nextCursor?: string | null; exceptionMessage?: string };
  return res.status === 200 ? { ids: body.items!.map((i) => i.id), totalCount: body.totalCount, nextCursor: body.nextCursor ?? null } : `${res.status} ${body.exceptionMessage}`;
}

/** A search's first page and the one after it (by the first's cursor), on one app. */
async function twoPages(app: App, expression: string, sort: string, pageSize: number): Promise<(Page | string)[]> {
  const first = await searchPage(app, expression, sort, pageSize);
  if (typeof first === 'string' || !first.nextCursor) return [first];
  return [first, await searchPage(app, expression, sort, pageSize, first.nextCursor)];
}

describe('lexemes read from a tsvector\'s text', () => {
  it('reads quoted lexemes, doubled quotes, backslashes and weight A', () => {
    assert.deepEqual(lexemesOf(`'a':1A 'don''t':2 'back\\\\slash':3,4A 'plain'`), [
      { word: 'a', title: true },
      { word: "don't", title: false },
      { word: 'back\\slash', title: true },
      { word: 'plain', title: false },
    ]);
  });
});

for (const backend of backends()) {
  describe(`search totals from the search index agree with SQL [${backend.name}]`, function () {
    this.timeout(600_000);
    let storage: Awaited<ReturnType<typeof backend.prepare>>;
    let store: Store;
    let sql: App;
    let indexed: App;
    let sampled: App;
    /** Statements the apps on a recording store ran. */
    let statements: string[] = [];
    const recording = () => recordingStore(store, (sql) => statements.push(sql));
    const countedInSql = () => statements.some((s) => /^SELECT count\(\*\)/.test(s));
    const classifications: string[] = [];
    /** Name paths, names and identifiers of classifications records have, for `Classification.<property>`. */
    const paths: string[] = [];
    const names: string[] = [];
    const identifiers: string[] = [];

    before(async () => {
      storage = await backend.prepare();
      store = await openStore({ data: ':memory:', database: storage.database });
      await migrate(store, migrations);
      await seedStore(store, 'demo', () => undefined);
      await growRecords(store, 3000, () => undefined);
      // Records that share a creation or modification instant: a page in date order breaks the tie by id.
      await store.query(
        `UPDATE records SET created_on = timestamptz '2025-03-05T10:00:00Z' + (abs(hashtext(id)) % 3) * interval '1 hour',
                            modified_on = timestamptz '2025-06-30T00:00:00Z' + (abs(hashtext(id)) % 2) * interval '1 day'
          WHERE abs(hashtext(id)) % 7 = 0`,
      );
      const rows = await store.query<{ id: string; name: string; name_path: string }>('SELECT id, name, name_path FROM classifications ORDER BY id LIMIT 12');
      for (const r of rows) classifications.push(r.id, r.name, r.name_path);
      const used = await store.query<{ name: string; name_path: string; identifier: string | null }>(
        'SELECT name, name_path, identifier FROM classifications WHERE uid IN (SELECT classification_id FROM record_classifications) ORDER BY id LIMIT 10',
      );
      for (const r of used) {
        paths.push(r.name_path);
        names.push(r.name);
        if (r.identifier) identifiers.push(r.identifier);
      }
      sql = await startApp(store, { searchIndex: 'off' });
      indexed = await startApp(recording(), { searchIndex: 'always' });
      sampled = await startApp(store, { searchIndex: 'always', searchIndexTuning: { allWordsUpTo: 0, chunk: 700 } });
    });
    after(async () => {
      for (const app of [sql, indexed, sampled]) await app?.close();
      await store?.close();
      await storage?.cleanup();
    });

    it('counts the benchmark\'s searches from the index, with the totals SQL counts', async () => {
      const searches = [
        'Title contains golden AND CreatedOn >= 2025-03-01',
        `DirectClassification = '${classifications[0]}'`,
        'launch AND ContentType = Video AND ModifiedOn >= 2025-02-01',
        "FieldName('UsageRights').Option.Name = Licensed AND ContentType = Image AND CreatedOn >= 2025-04-01",
        // What live clients search on besides (real-service-notes): statuses, classifications by name path, text fields.
        'ContentStatus = Released AND CreatedOn >= 2025-01-01',
        `Classification.NamePath = "${paths[0]}"`,
        `Classification.NamePath = "${paths[1].toUpperCase()}" AND Title contains ${ADJECTIVES[0].toLowerCase()}`,
        "FieldName('Photographer') = 'Ana Lima' AND ContentType = Image",
      ];
      for (const expression of searches) {
        statements = [];
        const counted = await total(indexed, expression);
        assert.equal(counted, await total(sql, expression), expression);
        assert.ok(Number(counted.split(' ')[1]) > 0, `${expression}: no hits, a weak comparison`);
        assert.ok(!countedInSql(), `${expression} was counted in SQL`);
      }
    });

    /** Searches from the criteria the index serves, mixed with ones it leaves to SQL. */
    const generatedSearches = () => {
    const word = fc.constantFrom(...WORDS, ...ADJECTIVES.map((a) => a.toLowerCase()), 'sun*', 'br*', 'photo', '2999', 'nothere', 'city skyline', '"city skyline"', 'café', '*');
    const date = fc.constantFrom('2024-01-01', '2025-03-05', '2025-06-30', '2025-03-05T10:00:00Z', '2026-01-01', '2023-12-31');
    const dateOp = fc.constantFrom('=', '<>', '>', '>=', '<', '<=');
    const option = fc.constantFrom('Licensed', 'licensed', 'InternalOnly', 'Unrestricted', 'Nope', 'Lic*');
    const cls = fc.constantFrom(...classifications, 'nope', 'Products*');
    const leaf = fc.oneof(
      word,
      word.map((w) => `Title contains ${w}`),
      fc.constantFrom('Image', 'video', 'DOCUMENT', 'Imag*', 'Nope').map((t) => `ContentType = ${t}`),
      fc.constantFrom('ContentType in (Image, Video)', 'ContentType <> Image', 'DirectContentType = Document'),
      fc.tuple(fc.constantFrom('CreatedOn', 'ModifiedOn'), dateOp, date).map(([p, o, d]) => `${p} ${o} ${d}`),
      fc.tuple(date, date).map(([a, b]) => `CreatedOn in (${a}, ${b})`),
      fc.tuple(fc.constantFrom('Option.Name', 'Option.Label', 'Value', ''), fc.constantFrom('=', '<>'), option).map(([a, o, v]) => `FieldName('UsageRights')${a ? `.${a}` : ''} ${o} '${v}'`),
      option.map((v) => `FieldName('UsageRights').Option.Name in (${v}, InternalOnly)`),
      fc.tuple(fc.constantFrom('Classification', 'DirectClassification'), fc.constantFrom('=', '<>'), cls).map(([p, o, c]) => `${p} ${o} '${c}'`),
      fc.constantFrom('Keywords = sunset', 'FileCount > 0', "Title = 'x*'"),
      fc.tuple(fc.constantFrom('=', '<>'), fc.constantFrom('Released', 'draft', 'ARCHIVED', 'Rel*', 'Nope', '')).map(([o, v]) => `ContentStatus ${o} '${v}'`),
      fc.constantFrom('ContentStatus in (Draft, Archived)', 'ContentStatus contains released'),
      fc
        .tuple(
          fc.constantFrom('Classification.NamePath', 'Classification.Name', 'Classification.Identifier'),
          fc.constantFrom('=', '<>'),
          fc.constantFrom(...paths, ...names, ...identifiers, ...paths.map((p) => p.toUpperCase()), '/Products/*', 'nope', ''),
        )
        .map(([p, o, v]) => `${p} ${o} "${v}"`),
      fc.constantFrom(...paths).map((p) => `Classification.NamePath in ("${p}", "${paths[paths.length - 1]}")`),
      fc
        .tuple(fc.constantFrom('', '.Value'), fc.constantFrom('=', '<>'), fc.constantFrom('Ana Lima', 'ana lima', 'Kenji Sato', 'Unknown', 'Ana*', 'Nobody', ''))
        .map(([a, o, v]) => `FieldName('Photographer')${a} ${o} '${v}'`),
    );
    const expression = fc.letrec<{ expr: string }>((tie) => ({
      expr: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.tuple(tie('expr'), fc.constantFrom(' AND ', ' OR '), tie('expr')).map(([a, j, b]) => `(${a})${j}(${b})`),
        tie('expr').map((e) => `NOT (${e})`),
      ),
    })).expr;
      return expression;
    };

    it('agrees with SQL on generated searches', async () => {
      const expression = generatedSearches();
      await fc.assert(
        fc.asyncProperty(expression, async (e) => {
          const expected = await total(sql, e);
          assert.equal(await total(indexed, e), expected, `index: ${e}`);
          assert.equal(await total(sampled, e), expected, `index of a sample's words: ${e}`);
        }),
        { numRuns: RUNS },
      );
    });

    it('reads a search\'s page from the index as SQL reads it: the same records, order and cursor', async () => {
      const pageReads = () => statements.filter((s) => /^SELECT r\.id FROM records r WHERE/.test(s));
      // In date order (no sort: the newest first) the page comes from the index's dates; in another order a rare
      // search's page is read by its hits' ids.
      const cases: [string, string, RegExp | null][] = [
        [`Classification.NamePath = "${paths[0]}"`, '', null],
        [`ContentType = Image AND Classification.NamePath = "${paths[1]}"`, '', null],
        ['CreatedOn = 2025-03-05', 'CreatedOn desc', null],
        ['ModifiedOn >= 2025-06-30', 'ModifiedOn', null],
        [`Classification.NamePath = "${paths[0]}"`, 'Title', /= ANY\(/],
        ["FieldName('Photographer') = 'Ana Lima' AND ContentType = Image", 'Title desc', /= ANY\(/],
      ];
      for (const [expression, sort, read] of cases) {
        statements = [];
        const pages = await twoPages(indexed, expression, sort, 9);
        assert.deepEqual(pages, await twoPages(sql, expression, sort, 9), `${expression} sorted by '${sort}'`);
        assert.equal(pages.length, 2, `${expression}: a single page, a weak comparison`);
        const reads = pageReads();
        if (read) assert.ok(reads.length > 0 && reads.every((s) => read.test(s)), `${expression} sorted by '${sort}': the page was not read by its hits`);
        else assert.deepEqual(reads, [], `${expression} sorted by '${sort}': the page was read in SQL`);
      }
    });

    it('pages generated searches in any order as SQL does', async () => {
      const expression = generatedSearches();
      const sort = fc.constantFrom('', 'CreatedOn', 'CreatedOn desc', 'ModifiedOn', 'ModifiedOn desc', 'Title', 'Title desc', 'ContentType', 'Rank desc', "FieldName('UsageRights')");
      await fc.assert(
        fc.asyncProperty(expression, sort, fc.integer({ min: 1, max: 60 }), async (e, by, size) => {
          assert.deepEqual(await twoPages(indexed, e, by, size), await twoPages(sql, e, by, size), `${e} sorted by '${by}', pages of ${size}`);
        }),
        { numRuns: Math.ceil(RUNS / 2) },
      );
    });

    it('on its own, builds the index in the background after a slow count, and answers requests while it builds', async () => {
      // Every count is "slow" and the tenant "large" for this app (a sample's words held, no back-off between builds);
      // small statements make the build take a while.
      const auto = await startApp(recording(), { searchIndex: 'auto', searchIndexTuning: { autoMinRecords: 0, slowCountMs: 0, chunk: 50, backoff: 0, allWordsUpTo: 0 } });
      try {
        statements = [];
        const expression = 'Title contains golden AND ContentType = Image';
        assert.equal(await total(auto, expression), await total(sql, expression));
        assert.ok(countedInSql(), 'the first count was not in SQL');
        let built = false;
        const settled = auto.searchIndex.settled().then((index) => {
          built = index !== undefined;
        });
        assert.equal(await total(auto, 'ContentType = Video'), await total(sql, 'ContentType = Video'));
        assert.equal(built, false, 'the index was built before a request answered: nothing shows requests run beside the build');
        await settled;
        assert.ok(built, 'the background build gave no index');
        statements = [];
        assert.equal(await total(auto, 'ContentType = Document AND CreatedOn >= 2025-01-01'), await total(sql, 'ContentType = Document AND CreatedOn >= 2025-01-01'));
        assert.ok(!countedInSql(), 'counted in SQL with the index built');
        // A search the current index does not hold (a word prefix, with only a sample's words held) is counted in SQL,
        // and does not make that index be built again.
        const index = await auto.searchIndex.settled();
        statements = [];
        assert.equal(await total(auto, 'sun* AND ContentType = Image'), await total(sql, 'sun* AND ContentType = Image'));
        assert.ok(countedInSql(), 'a prefix was counted from an index of sampled words');
        assert.equal(await auto.searchIndex.settled(), index, 'the current index was built again');
      } finally {
        await auto.close();
      }
    });

    it('on a large tenant, builds the index before the first request (warm)', async () => {
      const store2 = recording();
      const auto = await startApp(store2, { searchIndex: 'auto', searchIndexTuning: { autoMinRecords: 0 } });
      try {
        assert.ok(await auto.searchIndex.warm(), 'warm() built no index');
        // A client's first request writes its token: that leaves what a search finds, and so the index, as it was.
        const res = await fetch(`${auto.url}/login/connect/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': USER_AGENT },
          body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'api', client_id: EMULATOR_CLIENT.clientId, client_secret: EMULATOR_CLIENT.clientSecret }),
        });
        assert.equal(res.status, 200);
        statements = [];
        const expression = `Classification.NamePath = "${paths[0]}" AND ContentStatus = Released`;
        assert.equal(await total(auto, expression), await total(sql, expression));
        assert.ok(!countedInSql(), 'the first request was counted in SQL');
      } finally {
        await auto.close();
      }
      const small = await startApp(store, { searchIndex: 'auto' });
      try {
        assert.equal(await small.searchIndex.warm(), undefined, 'a tenant below the size that needs an index got one');
      } finally {
        await small.close();
      }
    });

    it('counts the tenant as written after a write', async () => {
      const expression = 'Title contains zanzibar AND ContentType = Document';
      assert.equal(await total(indexed, expression), '200 0');
      const client = new DamClient({ profile: emulatorProfile(indexed.url), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, userAgent: USER_AGENT });
      const created = await client.records.create({ title: 'Zanzibar harbour', contentType: 'Document' });
      assert.equal(await total(indexed, expression), '200 1');
      await client.records.delete(created.id);
      assert.equal(await total(indexed, expression), '200 0');
      assert.equal(await total(indexed, 'ContentType = Document'), await total(sql, 'ContentType = Document'));
    });
  });
}
