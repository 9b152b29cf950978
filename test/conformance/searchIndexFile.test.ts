// The search index kept between starts (search/indexFile.ts, migration 016-search-stamp): a start loads it only for
// the exact database state it was read from, and answers as a rebuilt index and as SQL do; a write made while the
// emulator was stopped (SQL on another connection, as another program would), a damaged or truncated file, or a save
// killed part-way makes the start build the index again. Both backends; the size that builds an index at start is
// lowered, as searchWarmUp.test.ts does.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EMULATOR_CLIENT } from '../../src/api/endpoints';
import { startEmulator, type EmulatorOptions } from '../../src/emulator/server';
import { openStore } from '../../src/emulator/storage/open';
import { USER_AGENT, backends } from './helpers';

interface Running {
  url: string;
  token: string;
  close(): Promise<void>;
}

/** Searches the index answers (counts, date-ordered pages, small hit lists) and a few it leaves to SQL. */
const SEARCHES: { expression: string; sort?: string }[] = [
  { expression: '*' },
  { expression: 'CreatedOn >= 2000-01-01' },
  { expression: 'CreatedOn >= 2000-01-01', sort: 'CreatedOn' },
  { expression: 'ModifiedOn >= 2000-01-01', sort: '-ModifiedOn' },
  { expression: 'ContentType = Image' },
  { expression: 'ContentType = Image OR ContentType = Video', sort: 'ModifiedOn' },
  { expression: 'ContentStatus = Released AND NOT ContentType = Image' },
  { expression: 'Title contains product' },
  { expression: 'product*' },
  { expression: 'Classification.NamePath = /Products' },
  { expression: 'Classification.NamePath <> /Products AND CreatedOn < 2030-01-01' },
  { expression: 'ModifiedOn >= 2024-01-01 AND ModifiedOn < 2026-06-01' },
  { expression: 'Title contains zebraword' },
  { expression: 'ContentType = Image', sort: 'Title' },
];

async function connect(url: string): Promise<string> {
  const res = await fetch(`${url}/login/connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': USER_AGENT },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'api', client_id: EMULATOR_CLIENT.clientId, client_secret: EMULATOR_CLIENT.clientSecret }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Every search's first page as a client reads it: status, total, the ids in order. */
async function answers(app: Running): Promise<string[]> {
  const out: string[] = [];
  for (const s of SEARCHES) {
    const res = await fetch(`${app.url}/api/core/search/records?pageSize=25${s.sort ? `&sort=${encodeURIComponent(s.sort)}` : ''}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.token}`, 'api-version': '1', 'content-type': 'application/json', 'user-agent': USER_AGENT },
      body: JSON.stringify({ searchExpression: { expression: s.expression } }),
    });
    const body = (await res.json()) as { items?: { id: string }[]; totalCount?: number; exceptionMessage?: string };
    out.push(`${s.expression} ${s.sort ?? ''}: ${res.status} ${body.totalCount} ${body.items?.map((i) => i.id).join(',')} ${body.exceptionMessage ?? ''}`);
  }
  return out;
}

for (const backend of backends()) {
  describe(`the search index kept between starts [${backend.name}]`, function () {
    this.timeout(600_000);
    let storage: Awaited<ReturnType<typeof backend.prepare>>;
    let dir: string;
    let file: string;
    let lines: string[] = [];
    /** Answers of the first start, whose index was built from the database. */
    let built: string[];

    const options = (extra: Partial<EmulatorOptions> = {}): EmulatorOptions => ({
      seed: 'demo',
      records: 700,
      port: 0,
      data: dir,
      database: storage.database,
      // PostgreSQL has no data folder of the emulator's: the file is named.
      searchIndexFile: storage.database ? file : undefined,
      snapshotHome: join(dir, 'snapshots'),
      // A start builds the index of any tenant; a sample of the words, as on a large one.
      searchIndexTuning: { autoMinRecords: 0, allWordsUpTo: 300 },
      log: (line) => lines.push(line),
      ...extra,
    });
    const start = async (extra: Partial<EmulatorOptions> = {}): Promise<Running> => {
      lines = [];
      const emulator = await startEmulator(options(extra));
      return { url: emulator.url, token: await connect(emulator.url), close: () => emulator.close() };
    };
    /** Starts, reads every search's answer, stops; with what the start logged of the index. */
    const run = async (extra: Partial<EmulatorOptions> = {}): Promise<{ answers: string[]; index: string[] }> => {
      const app = await start(extra);
      try {
        const index = lines.filter((l) => l.startsWith('search index:'));
        return { answers: await answers(app), index };
      } finally {
        await app.close();
      }
    };
    /** SQL on a connection of its own, as another program on the stopped emulator's database would write. */
    const sqlElsewhere = async (sql: string) => {
      const store = await openStore({ data: dir, database: storage.database });
      try {
        await store.query(sql);
      } finally {
        await store.close();
      }
    };
    const loaded = (index: string[]) => index.some((l) => /^search index: \d+ records loaded from the data folder/.test(l));

    before(async () => {
      storage = await backend.prepare();
      dir = mkdtempSync(join(tmpdir(), 'dam-index-file-'));
      file = join(dir, 'search-index.bin');
      const first = await run();
      built = first.answers;
      assert.ok(first.index.some((l) => /^search index: \d+ records in \d+ ms/.test(l)), first.index.join(' | '));
      assert.ok(existsSync(file), 'the index was not saved');
    });
    after(async () => {
      rmSync(dir, { recursive: true, force: true });
      await storage?.cleanup();
    });

    it('loads the saved index on the next start, and answers every search as the built index and SQL do', async () => {
      const next = await run();
      assert.ok(loaded(next.index), next.index.join(' | '));
      assert.deepEqual(next.answers, built);
      const sql = await run({ searchIndex: 'off' });
      assert.deepEqual(sql.answers, built);
      // Started without the index, the emulator wrote nothing that moves the stamp: the file is still the state's.
      assert.ok(loaded((await run()).index));
    });

    it('builds again after a write by SQL while the emulator was stopped, and saves that index for the next start', async () => {
      await sqlElsewhere(`UPDATE records SET title = 'Zebraword ' || title WHERE id = (SELECT id FROM records ORDER BY id LIMIT 1)`);
      await sqlElsewhere(`DELETE FROM records WHERE id = (SELECT id FROM records WHERE content_type = 'Image' ORDER BY id DESC LIMIT 1)`);
      const after = await run();
      assert.ok(after.index.some((l) => l.includes('not loaded from the data folder, it is built again: the database was written since the index was saved')), after.index.join(' | '));
      assert.ok(!loaded(after.index));
      const sql = await run({ searchIndex: 'off' });
      assert.deepEqual(after.answers, sql.answers);
      assert.notDeepEqual(after.answers, built, 'the writes changed no answer');
      const again = await run();
      assert.ok(loaded(again.index), again.index.join(' | '));
      assert.deepEqual(again.answers, sql.answers);
      built = sql.answers;
    });

    it('builds again after a write made through the API of a start without the index', async () => {
      const app = await start({ searchIndex: 'off' });
      try {
        const found = (await (
          await fetch(`${app.url}/api/core/search/records?pageSize=1`, {
            method: 'POST',
            headers: { authorization: `Bearer ${app.token}`, 'api-version': '1', 'content-type': 'application/json', 'user-agent': USER_AGENT },
            body: JSON.stringify({ searchExpression: { expression: 'ContentType = Image' } }),
          })
        ).json()) as { items: { id: string }[] };
        const id = found.items[0].id;
        const res = await fetch(`${app.url}/api/core/record/${id}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${app.token}`, 'api-version': '1', 'user-agent': USER_AGENT },
        });
        assert.ok(res.status < 300, `delete: ${res.status}`);
      } finally {
        await app.close();
      }
      const after = await run();
      assert.ok(!loaded(after.index), after.index.join(' | '));
      const sql = await run({ searchIndex: 'off' });
      assert.deepEqual(after.answers, sql.answers);
      built = sql.answers;
    });

    it('builds again after a state snapshot is restored, even to the state the saved index was first read from', async () => {
      const devtools = (app: Running, path: string, body?: unknown) =>
        fetch(`${app.url}/_emulator${path}`, { method: 'POST', headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      let app = await start();
      try {
        assert.ok(loaded(lines.filter((l) => l.startsWith('search index:'))));
        assert.equal((await devtools(app, '/snapshots', { name: 'before' })).status, 201);
      } finally {
        await app.close();
      }
      await sqlElsewhere(`DELETE FROM records WHERE id = (SELECT id FROM records WHERE content_type = 'Image' ORDER BY id LIMIT 1)`);
      const changed = await run();
      assert.ok(!loaded(changed.index));
      assert.notDeepEqual(changed.answers, built);
      app = await start();
      try {
        assert.ok(loaded(lines.filter((l) => l.startsWith('search index:'))), 'the changed state\'s index was saved');
        assert.equal((await devtools(app, '/snapshots/before/restore')).status, 200);
      } finally {
        await app.close();
      }
      const restored = await run();
      assert.ok(restored.index.some((l) => l.includes('the database was written since the index was saved')), restored.index.join(' | '));
      assert.deepEqual(restored.answers, built);
      assert.deepEqual((await run({ searchIndex: 'off' })).answers, built);
    });

    it('builds again from a truncated, a damaged or a foreign file, and never answers from it', async () => {
      assert.ok(loaded((await run()).index));
      // Each case damages the file of the state as it is (a rebuild saves a new one, under a new stamp).
      const cases: [string, (whole: Buffer) => Buffer, RegExp][] = [
        ['truncated', (whole) => whole.subarray(0, Math.floor(whole.length / 2)), /truncated/],
        ['its end cut off', (whole) => whole.subarray(0, whole.length - 3), /truncated/],
        ['a byte changed', (whole) => {
          const b = Buffer.from(whole);
          b[b.length >> 1] ^= 0xff;
          return b;
        }, /damaged/],
        ['not an index', () => Buffer.from('hello'), /truncated|not an index file/],
        ['empty', () => Buffer.alloc(0), /truncated/],
      ];
      for (const [what, damage, reason] of cases) {
        writeFileSync(file, damage(readFileSync(file)));
        const r = await run();
        assert.ok(r.index.some((l) => l.includes('it is built again') && reason.test(l)), `${what}: ${r.index.join(' | ')}`);
        assert.deepEqual(r.answers, built, what);
      }
      assert.ok(loaded((await run()).index), 'the index saved after the rebuild is used');
    });

    it('a save killed before its file is renamed into place leaves no file taken for a whole one', async function () {
      // The stopped emulator's write log moves on (a write by SQL), so the child's start builds and saves; the child
      // is killed (SIGKILL) once its file is written and the database's log compacted, before the rename.
      await sqlElsewhere(`UPDATE records SET title = title || ' x' WHERE id = (SELECT id FROM records ORDER BY id LIMIT 1 OFFSET 5)`);
      const before = readFileSync(file);
      const script = `
        const { startEmulator } = require('./src/emulator/server');
        const { CountIndexHolder } = require('./src/emulator/search/countIndex');
        const save = CountIndexHolder.prototype.save;
        // The test's stop point: the save has written its temporary file and committed the new stamp.
        CountIndexHolder.prototype.save = function () {
          return save.call(this, async () => { process.stdout.write('renaming\\n'); await new Promise(() => undefined); });
        };
        startEmulator(JSON.parse(process.argv[1])).catch((err) => { console.error(err); process.exit(1); });`;
      const { log: _, ...plain } = options();
      const child = spawn(process.execPath, ['-r', 'tsx/cjs', '-e', script, JSON.stringify(plain)], { cwd: resolve(__dirname, '../..'), stdio: ['ignore', 'pipe', 'inherit'] });
      const exited = new Promise((resolve) => child.on('exit', resolve));
      await new Promise<void>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('renaming\n')) resolve();
        });
        child.on('exit', (code) => reject(new Error(`the child ended (${code}) before its save: ${out}`)));
      });
      child.kill('SIGKILL');
      await exited;
      const partial = readdirSync(dir).filter((n) => n.endsWith('.partial'));
      assert.equal(partial.length, 1, 'the killed save left its temporary file');
      assert.ok(readFileSync(file).equals(before), 'the file under the name was replaced');
      const r = await run();
      assert.ok(r.index.includes('search index: removed 1 unfinished saved index file(s)'), r.index.join(' | '));
      assert.ok(r.index.some((l) => l.includes('the database was written since the index was saved')), r.index.join(' | '));
      assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith('.partial')), []);
      const sql = await run({ searchIndex: 'off' });
      assert.deepEqual(r.answers, sql.answers);
      assert.ok(statSync(file).size > 0);
    });
  });
}
