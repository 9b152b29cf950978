// Azure's Put Block on the upload sasUrl (what azcopy sends for a large file; replayed in
// test/interop/sixthRoundClients.test.ts from prakashdlux/Migration): blocks put before a restart of the emulator are
// still there for the block list sent after it, as Azure keeps uncommitted blocks, and the file comes back
// byte-identical. On every backend: PGlite restarts on its data folder; a PostgreSQL-backed emulator keeps its blobs in
// a private folder that a stop removes, so there the app is started again on the same database and a blob folder
// the test keeps (what a restart keeps of either).
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DamClient } from '../../src/api/client';
import { EMULATOR_CLIENT, emulatorProfile } from '../../src/api/endpoints';
import { openBlobStore } from '../../src/emulator/blobs';
import { buildApp, startEmulator } from '../../src/emulator/server';
import { openStore } from '../../src/emulator/storage/open';
import { backends, USER_AGENT } from './helpers';
import { readAll } from './fileFixtures';

const AZCOPY = { 'x-ms-version': '2023-08-03', 'user-agent': 'AzCopy/10.27.1 azsdk-go-azblob/v1.4.0' };

interface Running {
  url: string;
  close(): Promise<void>;
}

for (const backend of backends()) {
  describe(`uploads: staged Put Blocks survive an emulator restart [${backend.name}]`, function () {
    this.timeout(180_000);
    let folder = '';
    let cleanup: () => Promise<void> = async () => undefined;
    let database: string | undefined;
    let running: Running | undefined;

    /** Starts the emulator on the test's data (the same port each time, as a restarted emulator would be). */
    async function start(port = 0): Promise<Running> {
      if (!database) {
        const emulator = await startEmulator({ port, data: join(folder, 'data'), seed: 'empty' });
        return { url: emulator.url, close: () => emulator.close() };
      }
      const store = await openStore({ data: ':memory:', database });
      const blobs = openBlobStore(join(folder, 'data'));
      let url = '';
      const { app, idle } = await buildApp(store, {}, () => url, blobs);
      await app.listen({ port, host: '127.0.0.1' });
      const address = app.server.address();
      url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
      return {
        url,
        async close() {
          await app.close();
          await idle();
          await blobs.close();
          await store.close();
        },
      };
    }

    before(async () => {
      folder = mkdtempSync(join(tmpdir(), 'dam-upload-blocks-'));
      const storage = await backend.prepare();
      cleanup = storage.cleanup;
      database = storage.database;
      if (database) {
        // The database is prepared (schema, tenant) by an emulator's start, as a user's first start does.
        const first = await startEmulator({ port: 0, data: ':memory:', database, seed: 'empty' });
        await first.close();
      }
    });
    after(async () => {
      await running?.close();
      await cleanup();
      rmSync(folder, { recursive: true, force: true });
    });

    async function bearer(url: string): Promise<string> {
      const res = await fetch(`${url}/login/connect/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=client_credentials&scope=api&client_id=${EMULATOR_CLIENT.clientId}&client_secret=${EMULATOR_CLIENT.clientSecret}`,
      });
      assert.equal(res.status, 200, await res.clone().text());
      return ((await res.json()) as { access_token: string }).access_token;
    }

    const put = (url: string, sas: URL, query: string, body: Uint8Array<ArrayBuffer> | string, headers: Record<string, string> = {}) =>
      fetch(`${url}${sas.pathname}${sas.search}&${query}`, { method: 'PUT', headers: { ...AZCOPY, ...headers }, body });

    it('two blocks put, a restart, then the block list: the file reads back byte-identical; a list naming an unknown block is a 400', async () => {
      running = await start();
      const port = Number(new URL(running.url).port);
      const session = await fetch(`${running.url}/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await bearer(running.url)}`, 'api-version': '1', 'content-type': 'application/json', 'user-agent': USER_AGENT },
        body: JSON.stringify({ fileName: 'restarted.bin' }),
      });
      assert.equal(session.status, 200, await session.clone().text());
      const answer = (await session.json()) as { token: string; sasUrl: string };
      const sas = new URL(answer.sasUrl);
      const parts = [randomBytes(300_000), randomBytes(123_457)];
      const ids = ['YmxvY2stMDAwMA==', 'YmxvY2stMDAwMQ=='];
      // Out of order, as azcopy's concurrent requests arrive.
      for (const i of [1, 0]) {
        const staged = await put(running.url, sas, `comp=block&blockid=${encodeURIComponent(ids[i])}`, new Uint8Array(parts[i]));
        assert.equal(staged.status, 201, await staged.text());
      }

      await running.close();
      running = undefined;
      running = await start(port);

      // A list naming a block never put is refused with the error object, and commits nothing.
      const unknown = await put(running.url, sas, 'comp=blocklist', '<BlockList><Latest>bm9wZQ==</Latest></BlockList>', { 'content-type': 'application/xml' });
      assert.equal(unknown.status, 400);
      const error = (await unknown.json()) as Record<string, unknown>;
      assert.match(String(error.exceptionMessage), /names a block that was not put: 'bm9wZQ=='/);
      assert.ok('exceptionType' in error && 'stackTrace' in error, JSON.stringify(error));

      const list = `<?xml version="1.0" encoding="utf-8"?><BlockList>${ids.map((id) => `<Latest>${id}</Latest>`).join('')}</BlockList>`;
      const committed = await put(running.url, sas, 'comp=blocklist', list, { 'content-type': 'application/xml' });
      assert.equal(committed.status, 201, await committed.text());

      const client = new DamClient({ profile: emulatorProfile(running.url), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, userAgent: USER_AGENT });
      const record = await client.files.createRecordFromUpload({ token: answer.token, title: 'blocks across a restart' });
      const version = (await client.files.latestVersion(record.id))!;
      const bytes = await readAll((await client.files.download(version)).body);
      assert.equal(bytes.length, parts[0].length + parts[1].length);
      assert.ok(bytes.equals(Buffer.concat(parts)), 'the file is the blocks in list order');

      // The committed list took the blocks: the same list again names blocks no longer staged.
      const again = await put(running.url, sas, 'comp=blocklist', list, { 'content-type': 'application/xml' });
      assert.equal(again.status, 400);
    });

    it('a discarded upload takes its staged blocks with it: their blobs are removed and a block list finds none', async () => {
      running ??= await start();
      const blobFiles = () => readdirSync(join(folder, 'data', 'blobs'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && !e.parentPath.endsWith('tmp')).length;
      const auth = { authorization: `Bearer ${await bearer(running.url)}`, 'api-version': '1', 'user-agent': USER_AGENT };
      const session = await fetch(`${running.url}/uploads`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ fileName: 'discarded.bin' }) });
      const answer = (await session.json()) as { token: string; sasUrl: string };
      const sas = new URL(answer.sasUrl);
      const before = blobFiles();
      for (const id of ['YQ==', 'Yg==']) assert.equal((await put(running.url, sas, `comp=block&blockid=${id}`, new Uint8Array(randomBytes(5000)))).status, 201);
      assert.equal(blobFiles(), before + 2);
      const discarded = await fetch(`${running.url}/uploads/${answer.token}`, { method: 'DELETE', headers: auth });
      assert.equal(discarded.status, 204, await discarded.text());
      assert.equal(blobFiles(), before);
      const list = await put(running.url, sas, 'comp=blocklist', '<BlockList><Latest>YQ==</Latest></BlockList>', { 'content-type': 'application/xml' });
      assert.equal(list.status, 400, await list.text());
    });
  });
}
