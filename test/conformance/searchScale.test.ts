// The demo tenant grown by `--records N` (seed/scale.ts) and searched over HTTP: the growth is deterministic and
// additive, generated records carry field values and classifications like the demo's, a search's total is counted
// once while it is paged and counted again after a write, and Title contains still means the title's words.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { DamClient } from '../../src/api/client';
import { EMULATOR_CLIENT, emulatorProfile } from '../../src/api/endpoints';
import { buildApp, startEmulator } from '../../src/emulator/server';
import { openStore } from '../../src/emulator/storage/open';
import { migrate } from '../../src/emulator/storage/migrate';
import { migrations } from '../../src/emulator/storage/migrations';
import type { Store } from '../../src/emulator/storage/store';
import { seedStore } from '../../src/emulator/seed';
import { growRecords } from '../../src/emulator/seed/scale';
import { USER_AGENT } from './helpers';
import { recordingStore } from '../support/recordingStore';

async function grownStore(records: number): Promise<Store> {
  const store = await openStore({ data: ':memory:' });
  await migrate(store, migrations);
  await seedStore(store, 'demo', () => undefined);
  await growRecords(store, records, () => undefined);
  return store;
}

/** One value that changes when any generated record, field value or classification link does. */
async function fingerprint(store: Store): Promise<string> {
  const [row] = await store.query<{ r: string; f: string; c: string }>(
    `SELECT (SELECT md5(string_agg(id || title || status || content_type || search_text || created_on::text || modified_on::text || created_by, ',' ORDER BY id)) FROM records WHERE id LIKE 'ffffffff%') AS r,
            (SELECT md5(string_agg(record_id::text || field_id::text || language_id::text || value::text || coalesce(value_date::text, ''), ',' ORDER BY record_id, field_id)) FROM field_values WHERE record_id::text LIKE 'ffffffff%') AS f,
            (SELECT md5(string_agg(record_id::text || classification_id::text, ',' ORDER BY record_id, classification_id)) FROM record_classifications WHERE record_id::text LIKE 'ffffffff%') AS c`,
  );
  return `${row.r}/${row.f}/${row.c}`;
}

describe('search on a tenant grown with --records [pglite]', function () {
  this.timeout(300_000);
  let store: Store;
  let app: FastifyInstance;
  let client: DamClient;
  let url = '';
  /** Statements the app ran since the last reset. */
  let statements: string[] = [];

  before(async () => {
    store = await grownStore(3000);
    app = (await buildApp(recordingStore(store, (sql) => statements.push(sql)), {}, () => url)).app;
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    client = new DamClient({ profile: emulatorProfile(url), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, userAgent: USER_AGENT });
  });
  after(async () => {
    await app?.close();
    await store?.close();
  });

  it('grows to exactly N records, the same ones on every run, and only adds the difference', async () => {
    assert.equal((await client.search.records({ expression: '*', pageSize: 1 })).totalCount, 3000);
    const again = await grownStore(3000);
    try {
      assert.equal(await fingerprint(again), await fingerprint(store), 'two tenants grown to the same size differ');
      assert.equal(await growRecords(again, 3000, () => undefined), 0);
      assert.equal(await growRecords(again, 3400, () => undefined), 400);
      const [{ n }] = await again.query<{ n: number }>('SELECT count(*)::int AS n FROM records');
      assert.equal(n, 3400);
      // The first 2,400 generated records are the ones a tenant grown straight to 3,000 has.
      const [{ same }] = await again.query<{ same: number }>(`SELECT count(*)::int AS same FROM records WHERE id <= 'ffffffff' || lpad(to_hex(2400), 24, '0') AND id LIKE 'ffffffff%'`);
      assert.equal(same, 2400);
    } finally {
      await again.close();
    }
  });

  it('gives generated records the demo\'s field values and classifications', async () => {
    const generated = await client.search.records({ expression: `FieldName('UsageRights').Option.Name = Licensed AND ContentType = Image`, pageSize: 100 });
    assert.ok((generated.totalCount ?? 0) > 100, `only ${generated.totalCount} licensed images`);
    assert.ok(generated.items.some((r) => r.id.startsWith('ffffffff')));
    const [leaf] = await store.query<{ id: string }>(`SELECT id FROM classifications WHERE name = 'Tents'`);
    const inLeaf = await client.search.records({ expression: 'DirectClassification = @c', namedParameters: { c: leaf.id }, pageSize: 1 });
    assert.ok((inLeaf.totalCount ?? 0) > 50, `only ${inLeaf.totalCount} records under Tents`);
    const record = await client.records.get(generated.items.find((r) => r.id.startsWith('ffffffff'))!.id);
    assert.match(String(record.title), /^\w+ [\w ]+ \d+$/);
  });

  it('counts a search\'s hits once while it is paged, and again after a write', async () => {
    const query = { expression: 'Title contains golden', pageSize: 25 };
    const counts = () => statements.filter((s) => /^SELECT count\(\*\)/.test(s) && s.includes('FROM records r')).length;
    statements = [];
    const first = await client.search.records(query);
    const second = await client.search.records(query, { cursor: first.nextCursor! });
    const third = await client.search.records(query, { cursor: second.nextCursor! });
    assert.ok(third.items.length > 0);
    assert.equal(counts(), 1, 'the total was counted on every page');
    assert.equal(third.totalCount, first.totalCount);

    await client.records.create({ title: 'A golden record added later', contentType: 'Document' });
    statements = [];
    const after = await client.search.records(query);
    assert.equal(counts(), 1, 'a write did not make the total be counted again');
    assert.equal(after.totalCount, (first.totalCount ?? 0) + 1);
  });

  it('Title contains matches the title\'s words, not the description\'s', async () => {
    // "sunset" is a description word of the generated records, never a title word.
    const inTitles = await client.search.records({ expression: 'Title contains sunset', pageSize: 1 });
    const anywhere = await client.search.records({ expression: 'sunset', pageSize: 1 });
    assert.equal(inTitles.totalCount, 0);
    assert.ok((anywhere.totalCount ?? 0) > 100);
    const phrase = await client.search.records({ expression: 'Title contains "city skyline"', pageSize: 100 });
    assert.ok((phrase.totalCount ?? 0) > 0 && phrase.items.every((r) => /city skyline/i.test(String(r.title))));
  });

  it('grows a tenant at start with the records option', async () => {
    const emulator = await startEmulator({ port: 0, data: ':memory:', records: 1234 });
    try {
      const started = new DamClient({ profile: emulatorProfile(emulator.url), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, userAgent: USER_AGENT });
      assert.equal((await started.search.records({ expression: '*', pageSize: 1 })).totalCount, 1234);
    } finally {
      await emulator.close();
    }
  });
});

describe('PGlite sized for the tenant it opens [pglite]', function () {
  this.timeout(120_000);

  /** Opens a store in a process of its own (the WASM code choice is process-wide) and reads its settings. */
  function settingsOf(data: string, records?: number): { buffers: string } {
    const script = `
      const { openStore } = require('./src/emulator/storage/open');
      (async () => {
        const store = await openStore({ data: process.argv[1], records: process.argv[2] ? Number(process.argv[2]) : undefined });
        const [row] = await store.query('SHOW shared_buffers');
        await store.close();
        console.log(JSON.stringify({ buffers: row.shared_buffers }));
      })();`;
    const out = execFileSync(process.execPath, ['-r', 'tsx/cjs', '-e', script, data, String(records ?? '')], { cwd: resolve(__dirname, '../..'), encoding: 'utf8' });
    return JSON.parse(out.trim().split('\n').pop()!);
  }

  it('opens a small data folder with 16 MB of shared buffers, and one about to grow to 60,000 records with a quarter of its expected size', () => {
    const data = mkdtempSync(join(tmpdir(), 'dam-sizing-'));
    try {
      assert.equal(settingsOf(data).buffers, '16MB');
      // 60,000 records of about 5 KB: 300 MB expected, 72 MB of buffers.
      assert.equal(settingsOf(data, 60_000).buffers, '72MB');
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});
