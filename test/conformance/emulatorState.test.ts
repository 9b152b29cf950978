// State snapshots (issue 23): save, change, restore without a restart and see the old state; blobs come back;
// restores are atomic for concurrent requests; a reset brings back the demo tenant; --import/--export-on-exit
// carry the state across emulators. On every backend.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backends, describeEachBackend, USER_AGENT, type Env } from './helpers';
import { discPicture, readAll, uploadBytes } from './fileFixtures';
import { buildApp, startEmulator } from '../../src/emulator/server';
import { openPglite } from '../../src/emulator/storage/pglite';
import { migrate } from '../../src/emulator/storage/migrate';
import { migrations } from '../../src/emulator/storage/migrations';
import { ApiError } from '../../src/api/errors';
import { readManifest, verifySnapshot } from '../../src/emulator/state/snapshotDir';
import { EMULATOR_BUNDLE, exited, startEmulatorProcess } from '../support/emulatorProcess';
import { DamClient } from '../../src/api/client';
import { EMULATOR_CLIENT, emulatorProfile } from '../../src/api/endpoints';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** The devtools API as a test (or a user's test suite) calls it: no token, no special headers. */
async function devtools(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${url}/_emulator${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function totalRecords(env: Env): Promise<number> {
  return (await env.client().records.list({ pageSize: 1 })).totalCount ?? NaN;
}

describeEachBackend('emulator state snapshots', { seed: 'demo' }, (env) => {
  const client = () => env().client();
  const save = (name: string) => devtools(env().url, 'POST', '/snapshots', { name });
  const restore = (name: string) => devtools(env().url, 'POST', `/snapshots/${name}/restore`);

  it('saves, sees a change, and restores the old state without a restart; the same token keeps working', async () => {
    const c = client();
    const [first] = (await c.records.list({ pageSize: 1 })).items;
    const before = await totalRecords(env());
    const saved = await save('before-change');
    assert.equal(saved.status, 201, JSON.stringify(saved.json));
    assert.equal(saved.json.name, 'before-change');
    assert.equal(saved.json.records, before);

    const created = await c.records.create({ status: 'draft', title: 'Made after the snapshot' });
    await c.records.update(first.id, { title: 'Renamed after the snapshot' });
    assert.equal(await totalRecords(env()), before + 1);

    const restored = await restore('before-change');
    assert.equal(restored.status, 200, JSON.stringify(restored.json));
    assert.ok((restored.json.tablesLoaded as string[]).includes('records'));
    // The same client, with the token it had before, reads the old state.
    assert.equal(await totalRecords(env()), before);
    assert.equal((await c.records.get(first.id)).title, first.title);
    const gone = await c.records.get(created.id).catch((err: unknown) => err);
    assert.ok(gone instanceof ApiError && gone.status === 404, 'the record made after the snapshot is gone');
  });

  it('loads only what changed: nothing after an untouched save, the record tables but not the analytics events after an edit', async () => {
    await save('untouched');
    const same = await restore('untouched');
    assert.deepEqual(same.json.tablesLoaded, []);
    const [first] = (await client().records.list({ pageSize: 1 })).items;
    await client().records.update(first.id, { title: 'Edited once' });
    const edited = await restore('untouched');
    const loaded = edited.json.tablesLoaded as string[];
    assert.ok(loaded.includes('records'), loaded.join(', '));
    assert.ok(!loaded.includes('analytics_view_events'), 'the analytics events did not change and were not reloaded');
    assert.equal((await client().records.get(first.id)).title, first.title);
  });

  it('brings the blobs back: a file made after one snapshot is gone after restoring it, and back after restoring the later one', async () => {
    const c = client();
    assert.equal((await save('without-file')).status, 201);
    const png = await discPicture(320, 200);
    const token = await uploadBytes(c, 'snapshot disc.png', png);
    const record = await c.files.createRecordFromUpload({ token, title: 'Snapshot disc' });
    assert.equal((await save('with-file')).status, 201);

    assert.equal((await restore('without-file')).status, 200);
    const gone = await c.records.get(record.id).catch((err: unknown) => err);
    assert.ok(gone instanceof ApiError && gone.status === 404);

    const back = await restore('with-file');
    assert.equal(back.json.blobsAdded, 1, JSON.stringify(back.json));
    const version = (await c.files.latestVersion(record.id))!;
    assert.equal(sha256(await readAll((await c.files.download(version)).body)), sha256(png));
  });

  it('is atomic: a request in flight finishes on the old state, requests sent during the restore wait and see the new one', async () => {
    const c = client();
    await save('atomic-base');
    const base = await totalRecords(env());
    await c.records.create({ status: 'draft', title: 'Extra record' });
    const token = await c.tokens.getToken();

    // An upload whose body is still arriving holds the state.
    const boundary = 'snapshotboundary';
    const origin = new URL(env().url);
    const upload = httpRequest({
      host: origin.hostname,
      port: origin.port,
      path: '/uploads',
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        'api-version': '1',
        'user-agent': USER_AGENT,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
    });
    const uploaded = new Promise<{ status: number; body: string }>((resolve, reject) => {
      upload.on('response', async (res) => resolve({ status: res.statusCode ?? 0, body: (await readAll(res)).toString() }));
      upload.on('error', reject);
    });
    upload.write(`--${boundary}\r\nContent-Disposition: form-data; name="file1"; filename="slow.txt"\r\nContent-Type: text/plain\r\n\r\nfirst half `);
    await new Promise((r) => setTimeout(r, 300));

    let restoreDone = false;
    const restoring = restore('atomic-base').then((r) => ((restoreDone = true), r));
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(restoreDone, false, 'the restore waits for the upload in flight');
    // Sent while the restore waits: these must see the restored state, not the one before.
    const during = Array.from({ length: 8 }, () => totalRecords(env()));
    await new Promise((r) => setTimeout(r, 200));
    upload.end(`second half\r\n--${boundary}--\r\n`);

    const answer = await uploaded;
    assert.equal(answer.status, 200, answer.body);
    assert.equal((await restoring).status, 200);
    for (const count of await Promise.all(during)) assert.equal(count, base);
    // The upload finished on the old state: its token is not part of the restored one.
    const uploadToken = (JSON.parse(answer.body) as { token: string }).token;
    const missing = await c.files.createRecordFromUpload({ token: uploadToken, title: 'From an upload of the old state' }).catch((err: unknown) => err);
    assert.ok(missing instanceof ApiError && missing.status === 404, String(missing));
  });

  it('never mixes two states within one answer while restores run under concurrent reads', async () => {
    const c = client();
    await save('mix-a');
    const a = await totalRecords(env());
    const extra = await c.records.create({ status: 'draft', title: 'Only in mix-b' });
    await save('mix-b');
    const seen = new Set<string>();
    let stop = false;
    const reader = async () => {
      while (!stop) {
        // One answer, two statements: the page (newest first) and the total count.
        const page = await c.records.list({ pageSize: 5 });
        const hasExtra = page.items.some((r) => r.id === extra.id);
        const state = page.totalCount === a + 1 && hasExtra ? 'b' : page.totalCount === a && !hasExtra ? 'a' : `mixed(${page.totalCount}, ${hasExtra})`;
        seen.add(state);
      }
    };
    const readers = Array.from({ length: 6 }, reader);
    for (let i = 0; i < 6; i++) {
      assert.equal((await restore(i % 2 ? 'mix-b' : 'mix-a')).status, 200);
      await new Promise((r) => setTimeout(r, 30));
    }
    stop = true;
    await Promise.all(readers);
    assert.deepEqual([...seen].filter((s) => s.startsWith('mixed')), []);
    assert.ok(seen.has('a') && seen.has('b'), `both states were read while restoring (saw ${[...seen].join(', ')})`);
  });

  it('lists, reads and deletes snapshots; bad names and unknown snapshots answer the error object', async () => {
    await save('listed');
    const list = await devtools(env().url, 'GET', '/snapshots');
    assert.equal(list.status, 200);
    const items = list.json.items as { name: string; createdOn: string; records: number }[];
    assert.ok(items.some((s) => s.name === 'listed' && !Number.isNaN(Date.parse(s.createdOn)) && s.records > 0));
    assert.equal((await devtools(env().url, 'GET', '/snapshots/listed')).status, 200);
    assert.equal((await devtools(env().url, 'DELETE', '/snapshots/listed')).status, 204);
    for (const [method, path, body, status] of [
      ['GET', '/snapshots/listed', undefined, 404],
      ['POST', '/snapshots/listed/restore', undefined, 404],
      ['POST', '/snapshots', { name: '../outside' }, 400],
      ['POST', '/snapshots', { name: '.hidden' }, 400],
      ['POST', '/snapshots', {}, 400],
      ['POST', '/snapshots/..%2Fetc/restore', undefined, 400],
    ] as const) {
      const res = await devtools(env().url, method, path, body);
      assert.equal(res.status, status, `${method} ${path}: ${JSON.stringify(res.json)}`);
      assert.equal(typeof res.json.exceptionMessage, 'string');
      assert.match(String(res.json.exceptionType), /^Dam\./);
      assert.equal(res.json.stackTrace, null);
      assert.equal(res.json.innerException, null);
    }
  });

  it('resets to the demo tenant, keeping the token', async () => {
    const c = client();
    assert.equal((await devtools(env().url, 'POST', '/reset')).status, 200);
    const [first] = (await c.records.list({ pageSize: 1 })).items;
    await c.records.delete(first.id);
    await c.records.create({ status: 'draft', title: 'Before the reset' });
    const reset = await devtools(env().url, 'POST', '/reset');
    assert.equal(reset.status, 200, JSON.stringify(reset.json));
    assert.equal(await totalRecords(env()), 600);
    assert.equal((await c.records.get(first.id)).id, first.id);
  });
});

for (const backend of backends()) {
  describe(`--import and --export-on-exit [${backend.name}]`, function () {
    this.timeout(180_000);
    const folders: string[] = [];
    const cleanups: (() => Promise<void>)[] = [];
    const folder = () => {
      const dir = mkdtempSync(join(tmpdir(), 'dam-state-'));
      folders.push(dir);
      return dir;
    };
    after(async () => {
      for (const c of cleanups) await c();
      for (const f of folders) rmSync(f, { recursive: true, force: true });
    });

    it('a state exported on a clean stop starts another emulator, files included', async () => {
      const exported = join(folder(), 'exported');
      const first = await backend.prepare();
      cleanups.push(first.cleanup);
      const a = await startEmulator({ port: 0, data: first.database ? ':memory:' : join(folder(), 'data'), database: first.database, seed: 'empty', exportOnExit: exported });
      const envA = { url: a.url } as Env;
      const clientFor = (url: string) => new DamClient({ profile: emulatorProfile(url), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, userAgent: USER_AGENT });
      const png = await discPicture(200, 120);
      let recordId: string;
      try {
        const c = clientFor(envA.url);
        const token = await uploadBytes(c, 'exported.png', png);
        recordId = (await c.files.createRecordFromUpload({ token, title: 'Exported record' })).id;
      } finally {
        await a.close();
      }
      assert.ok(existsSync(join(exported, 'snapshot.json')), 'close() exported the state');
      for (const file of filesUnder(exported)) assert.equal(statSync(join(exported, file)).nlink, 1, `${file} is a file of its own, not a link to the emulator's`);

      const second = await backend.prepare();
      cleanups.push(second.cleanup);
      const b = await startEmulator({ port: 0, data: second.database ? ':memory:' : join(folder(), 'data'), database: second.database, importDir: exported });
      try {
        const c = clientFor(b.url);
        assert.equal((await c.records.get(recordId)).title, 'Exported record');
        const version = (await c.files.latestVersion(recordId))!;
        assert.equal(sha256(await readAll((await c.files.download(version)).body)), sha256(png));
      } finally {
        await b.close();
      }
    });
  });
}

describe('the state devtools answer only this machine unless the emulator serves other hosts', function () {
  this.timeout(120_000);
  const apps: { close(): Promise<unknown> }[] = [];
  let store: Awaited<ReturnType<typeof openPglite>>;
  before(async () => {
    store = await openPglite(':memory:');
    await migrate(store, migrations);
  });
  after(async () => {
    for (const app of apps) await app.close();
    await store?.close();
  });

  for (const [host, fromElsewhere] of [
    ['127.0.0.1', 403],
    ['0.0.0.0', 200],
  ] as const) {
    it(`bound to ${host}: a caller on another machine gets ${fromElsewhere}, this machine 200`, async () => {
      const { app } = await buildApp(store, { host }, () => 'http://127.0.0.1');
      apps.push(app);
      const local = await app.inject({ method: 'GET', url: '/_emulator/snapshots', remoteAddress: '127.0.0.1' });
      assert.equal(local.statusCode, 200, local.body);
      const remote = await app.inject({ method: 'GET', url: '/_emulator/snapshots', remoteAddress: '192.0.2.7' });
      assert.equal(remote.statusCode, fromElsewhere, remote.body);
      if (fromElsewhere === 403) {
        const body = JSON.parse(remote.body) as Record<string, unknown>;
        assert.match(String(body.exceptionMessage), /only on this machine/);
        assert.equal(body.stackTrace, null);
      }
      // A tenant token unlocks nothing more there.
      const withToken = await app.inject({ method: 'GET', url: '/_emulator/snapshots', remoteAddress: '192.0.2.7', headers: { authorization: 'Bearer anything' } });
      assert.equal(withToken.statusCode, fromElsewhere);
    });
  }

  it('a web page of another origin cannot drive them through the browser (a form POSTed to reset is refused before it runs)', async () => {
    const { app } = await buildApp(store, { host: '127.0.0.1' }, () => 'http://127.0.0.1');
    apps.push(app);
    const page = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', 'content-type': 'application/x-www-form-urlencoded' };
    for (const [method, url] of [['POST', '/_emulator/reset'], ['POST', '/_emulator/snapshots'], ['GET', '/_emulator/requests']] as const) {
      const answer = await app.inject({ method, url, remoteAddress: '127.0.0.1', headers: page, payload: 'seed=empty' });
      assert.equal(answer.statusCode, 403, `${method} ${url}: ${answer.body}`);
      assert.match(String((JSON.parse(answer.body) as Record<string, unknown>).exceptionMessage), /web page of another origin \(https:\/\/evil\.example\)/);
    }
    // Sec-Fetch-Site alone (a browser that leaves Origin out of a GET) is refused too; the page's own origin is not.
    const sameSite = await app.inject({ method: 'GET', url: '/_emulator/snapshots', remoteAddress: '127.0.0.1', headers: { 'sec-fetch-site': 'same-site' } });
    assert.equal(sameSite.statusCode, 403);
    const own = await app.inject({ method: 'GET', url: '/_emulator/snapshots', remoteAddress: '127.0.0.1', headers: { origin: 'http://localhost:80', host: 'localhost:80' } });
    assert.equal(own.statusCode, 200, own.body);
  });
});

/** Every file under `dir`, by path relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(dir, join(prefix, e.name)) : [join(prefix, e.name)]));
}

interface SavedManifest {
  tables: { name: string; file: string; bytes?: number; sha256?: string; rows: number }[];
}
const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'snapshot.json'), 'utf8')) as SavedManifest;
const tableFileOf = (dir: string, table: string) => join(dir, manifestOf(dir).tables.find((t) => t.name === table)!.file);

for (const backend of backends()) {
  describe(`snapshots survive damage and killed saves [${backend.name}]`, function () {
    this.timeout(180_000);
    let home: string;
    let url: string;
    let close: () => Promise<void>;
    const folders: string[] = [];
    const folder = () => {
      const dir = mkdtempSync(join(tmpdir(), 'dam-damage-'));
      folders.push(dir);
      return dir;
    };
    const save = (name: string) => devtools(url, 'POST', '/snapshots', { name });
    const restore = (name: string) => devtools(url, 'POST', `/snapshots/${name}/restore`);
    const clientOf = (origin: string) => new DamClient({ profile: emulatorProfile(origin), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, userAgent: USER_AGENT });

    before(async () => {
      home = folder();
      const storage = await backend.prepare();
      const emulator = await startEmulator({ port: 0, data: ':memory:', database: storage.database, seed: 'empty', snapshotHome: home });
      url = emulator.url;
      close = async () => {
        await emulator.close();
        await storage.cleanup();
      };
    });
    after(async () => {
      await close?.();
      for (const f of folders) rmSync(f, { recursive: true, force: true });
    });

    const assertDamaged = (answer: { status: number; json: Record<string, unknown> }, name: string, file: RegExp) => {
      assert.equal(answer.status, 409, JSON.stringify(answer.json));
      assert.equal(answer.json.exceptionType, 'Dam.Core.Emulator.SnapshotDamagedException');
      assert.match(String(answer.json.exceptionMessage), new RegExp(`^Snapshot '${name}' is damaged: ${file.source}`));
      assert.equal(answer.json.stackTrace, null);
      assert.equal(answer.json.innerException, null);
    };

    it('refuses a snapshot with a table file missing, cut short or altered, naming the file, and changes nothing', async () => {
      const c = clientOf(url);
      for (const name of ['d-missing', 'd-cut', 'd-altered', 'd-legacy', 'd-legacy-whole']) assert.equal((await save(name)).status, 201);
      const made = await c.records.create({ status: 'draft', title: 'Made after the damaged snapshots' });

      rmSync(tableFileOf(join(home, 'd-missing'), 'records'));
      assertDamaged(await restore('d-missing'), 'd-missing', /tables\/records\.[0-9a-f]{32}\.copy is missing/);

      const cut = tableFileOf(join(home, 'd-cut'), 'users');
      truncateSync(cut, Math.floor(statSync(cut).size / 2));
      assertDamaged(await restore('d-cut'), 'd-cut', /tables\/users\.[0-9a-f]{32}\.copy is \d+ bytes, the manifest says \d+/);

      // A table that did not change since the save is not reloaded, and yet its damage is found.
      const languages = tableFileOf(join(home, 'd-altered'), 'languages');
      const bytes = readFileSync(languages);
      bytes[0] ^= 1;
      writeFileSync(languages, bytes);
      assertDamaged(await restore('d-altered'), 'd-altered', /tables\/languages\.[0-9a-f]{32}\.copy does not match its checksum/);

      // Snapshots saved before manifests carried sizes and checksums: each table file must still read as its rows.
      for (const name of ['d-legacy', 'd-legacy-whole']) {
        const manifest = JSON.parse(readFileSync(join(home, name, 'snapshot.json'), 'utf8')) as { tables: Record<string, unknown>[]; blobs: Record<string, unknown> };
        for (const t of manifest.tables) {
          delete t.bytes;
          delete t.sha256;
        }
        delete manifest.blobs.files;
        writeFileSync(join(home, name, 'snapshot.json'), JSON.stringify(manifest));
      }
      const legacyUsers = tableFileOf(join(home, 'd-legacy'), 'users');
      const rows = readFileSync(legacyUsers, 'utf8').split('\n');
      writeFileSync(legacyUsers, `${rows.slice(0, -2).join('\n')}\n`);
      assertDamaged(await restore('d-legacy'), 'd-legacy', /tables\/users\.[0-9a-f]{32}\.copy holds \d+ row\(s\), the manifest says \d+/);

      assert.equal((await c.records.get(made.id)).title, 'Made after the damaged snapshots', 'nothing was replaced');
      const whole = await restore('d-legacy-whole');
      assert.equal(whole.status, 200, JSON.stringify(whole.json));
      const gone = await c.records.get(made.id).catch((err: unknown) => err);
      assert.ok(gone instanceof ApiError && gone.status === 404);
    });

    it('shares no file between snapshots or with the live blobs: damage in place to one leaves the others whole', async () => {
      const c = clientOf(url);
      const png = await discPicture(160, 100);
      const record = await c.files.createRecordFromUpload({ token: await uploadBytes(c, 'shared.png', png), title: 'Shared file' });
      assert.equal((await save('s1')).status, 201);
      assert.equal((await save('s2')).status, 201);
      const inodes = new Map<number, string>();
      for (const name of ['s1', 's2']) {
        for (const file of filesUnder(join(home, name))) {
          const s = statSync(join(home, name, file));
          assert.equal(s.nlink, 1, `${name}/${file} has ${s.nlink} links`);
          assert.ok(!inodes.has(s.ino), `${name}/${file} is the same file as ${inodes.get(s.ino)}`);
          inodes.set(s.ino, `${name}/${file}`);
        }
      }
      // Every file of s1 cut to nothing, in place.
      for (const file of filesUnder(join(home, 's1'))) if (file !== 'snapshot.json') truncateSync(join(home, 's1', file), 0);
      await c.records.update(record.id, { title: 'Changed after s2' });
      const back = await restore('s2');
      assert.equal(back.status, 200, JSON.stringify(back.json));
      assert.equal((await c.records.get(record.id)).title, 'Shared file');
      const version = (await c.files.latestVersion(record.id))!;
      assert.equal(sha256(await readAll((await c.files.download(version)).body)), sha256(png));
      assertDamaged(await restore('s1'), 's1', /(tables|blobs)\//);
    });

    it('replaces a snapshot without ever moving its folder away, and sweeps what killed saves left at the next start', async () => {
      const c = clientOf(url);
      assert.equal((await save('atomic')).status, 201);
      const folderBefore = statSync(join(home, 'atomic')).ino;
      const before = manifestOf(join(home, 'atomic'));
      await c.records.create({ status: 'draft', title: 'Between two saves' });
      assert.equal((await save('atomic')).status, 201);
      assert.equal(statSync(join(home, 'atomic')).ino, folderBefore, 'the folder under the name was never renamed away');
      assert.notEqual(tableFileOf(join(home, 'atomic'), 'records'), join(home, 'atomic', before.tables.find((t) => t.name === 'records')!.file));
      assert.ok(!existsSync(join(home, 'atomic', before.tables.find((t) => t.name === 'records')!.file)), 'the replaced file is gone');

      // What saves killed at various points leave: staging folders of earlier versions, files no manifest names,
      // a manifest being written, a first save's folder without a manifest.
      for (const leftover of ['.atomic.0123abcd.partial/tables', '.atomic.89abcdef.old/tables', 'half-saved/tables']) mkdirSync(join(home, leftover), { recursive: true });
      writeFileSync(join(home, '.atomic.0123abcd.partial/tables/records.copy'), 'x'.repeat(1000));
      writeFileSync(join(home, 'atomic/tables/records.0123456789abcdef0123456789abcdef.copy'), 'orphan\n');
      writeFileSync(join(home, 'atomic/.snapshot.json.0a1b2c3d.tmp'), '{');
      const exportParent = folder();
      mkdirSync(join(exportParent, '.exported.0123abcd.partial'));
      mkdirSync(join(exportParent, '.mine.0123abcd.partial'));

      const storage = await backend.prepare();
      const second = await startEmulator({ port: 0, data: ':memory:', database: storage.database, seed: 'empty', snapshotHome: home, exportOnExit: join(exportParent, 'exported') });
      try {
        for (const gone of ['.atomic.0123abcd.partial', '.atomic.89abcdef.old', 'half-saved', 'atomic/tables/records.0123456789abcdef0123456789abcdef.copy', 'atomic/.snapshot.json.0a1b2c3d.tmp']) {
          assert.ok(!existsSync(join(home, gone)), `${gone} was swept`);
        }
        assert.ok(!existsSync(join(exportParent, '.exported.0123abcd.partial')), 'the export staging was swept');
        assert.ok(existsSync(join(exportParent, '.mine.0123abcd.partial')), 'a neighbour of the export folder is not ours to sweep');
        const restored = await devtools(second.url, 'POST', '/snapshots/atomic/restore');
        assert.equal(restored.status, 200, JSON.stringify(restored.json));
      } finally {
        await second.close();
        await storage.cleanup();
      }
    });
  });
}

describe('snapshots share no file with the build’s prepared tenant (the bundle, as users run it)', function () {
  this.timeout(300_000);
  const prepared = 'dist/prepared/demo.state';

  it('a snapshot of an untouched demo tenant is made of copies: cutting its files in place leaves reset and the prepared tenant whole', async function () {
    if (!existsSync(join(prepared, 'snapshot.json'))) this.skip();
    const manifest = await readManifest(prepared);
    const preparedFiles = new Set(filesUnder(prepared).map((f) => statSync(join(prepared, f)).ino));
    const data = mkdtempSync(join(tmpdir(), 'dam-prepared-'));
    const emulator = await startEmulatorProcess({ data, seed: 'demo', entry: EMULATOR_BUNDLE });
    try {
      assert.equal((await devtools(emulator.url, 'POST', '/snapshots', { name: 'untouched' })).status, 201);
      const saved = join(data, 'snapshots', 'untouched');
      for (const file of filesUnder(saved)) {
        const s = statSync(join(saved, file));
        assert.ok(s.nlink === 1 && !preparedFiles.has(s.ino), `${file} is shared with the build's prepared tenant`);
      }
      for (const file of filesUnder(saved)) if (file !== 'snapshot.json') truncateSync(join(saved, file), 0);
      const reset = await devtools(emulator.url, 'POST', '/reset');
      assert.equal(reset.status, 200, JSON.stringify(reset.json));
      await verifySnapshot(prepared, manifest);
      const client = new DamClient({ profile: emulatorProfile(emulator.url), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, userAgent: USER_AGENT });
      assert.equal((await client.records.list({ pageSize: 1 })).totalCount, 600);
    } finally {
      emulator.child.kill('SIGTERM');
      await exited(emulator.child);
      rmSync(data, { recursive: true, force: true });
    }
  });
});
