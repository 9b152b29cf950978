// `dam emulator snapshot …` and `dam emulator reset` against a running emulator, as a shell runs them; `dam emulator
// --import` of a damaged snapshot.
import { strict as assert } from 'node:assert';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backends, runDam, USER_AGENT } from './helpers';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server';
import { DamClient } from '../../src/api/client';
import { EMULATOR_CLIENT, emulatorProfile } from '../../src/api/endpoints';

describe('dam emulator snapshot and reset', function () {
  this.timeout(120_000);
  let emulator: RunningEmulator;
  let client: DamClient;
  const dam = (...args: string[]) => runDam([...args, '--url', emulator.url]);

  before(async () => {
    emulator = await startEmulator({ port: 0, data: ':memory:', seed: 'empty' });
    client = new DamClient({ profile: emulatorProfile(emulator.url), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, userAgent: USER_AGENT });
  });
  after(async () => emulator?.close());

  it('saves, lists, restores and deletes a snapshot', async () => {
    const saved = await dam('emulator', 'snapshot', 'save', 'cli-base');
    assert.equal(saved.code, 0, saved.stderr);
    assert.match(saved.stdout, /^saved 'cli-base' \(0 records, 0 files\)$/m);

    const created = await client.records.create({ status: 'draft', title: 'Made from the CLI test' });
    const restored = await dam('emulator', 'snapshot', 'restore', 'cli-base');
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /^restored 'cli-base': \d+ table\(s\) loaded in \d+ ms/m);
    assert.equal((await client.records.list({ pageSize: 1 })).totalCount, 0, `record ${created.id} is gone`);

    const listed = await dam('emulator', 'snapshot', 'list', '--json');
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual((JSON.parse(listed.stdout) as { name: string }[]).map((s) => s.name), ['cli-base']);
    const table = await dam('emulator', 'snapshot', 'list');
    assert.match(table.stdout, /^cli-base {2}\d{4}-\d\d-\d\dT.* 0 records$/m);

    const deleted = await dam('emulator', 'snapshot', 'delete', 'cli-base');
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal((await dam('emulator', 'snapshot', 'list')).stdout.trim(), 'no saved states');
  });

  it('resets the tenant, and the token of a client from before still works', async () => {
    await client.records.create({ status: 'draft', title: 'Before the reset' });
    const reset = await dam('emulator', 'reset', '--seed', 'empty');
    assert.equal(reset.code, 0, reset.stderr);
    assert.match(reset.stdout, /^reset to the empty tenant: /m);
    assert.equal((await client.records.list({ pageSize: 1 })).totalCount, 0);
  });

  it('says what went wrong: an unknown snapshot, a bad name, a bad address, no emulator there', async () => {
    const unknown = await dam('emulator', 'snapshot', 'restore', 'never-saved');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /No snapshot with id 'never-saved' was found\. \(HTTP 404\)/);
    const badName = await dam('emulator', 'snapshot', 'save', 'a/b');
    assert.equal(badName.code, 1);
    assert.match(badName.stderr, /is not a snapshot name/);
    const badUrl = await runDam(['emulator', 'snapshot', 'list', '--url', 'ftp://x']);
    assert.equal(badUrl.code, 2);
    const nobody = await runDam(['emulator', 'snapshot', 'list', '--url', 'http://127.0.0.1:9']);
    assert.equal(nobody.code, 1);
    assert.match(nobody.stderr, /No DAM service answers at http:\/\/127\.0\.0\.1:9/);
    const missingName = await dam('emulator', 'snapshot', 'save');
    assert.equal(missingName.code, 2);
  });
});

for (const backend of backends()) {
  describe(`dam emulator --import of a damaged snapshot [${backend.name}]`, function () {
    this.timeout(180_000);
    const folders: string[] = [];
    after(() => folders.forEach((f) => rmSync(f, { recursive: true, force: true })));

    it('refuses it before anything is created, naming the folder and the file', async () => {
      const parent = mkdtempSync(join(tmpdir(), 'dam-import-'));
      folders.push(parent);
      const saved = join(parent, 'saved');
      await (await startEmulator({ port: 0, data: ':memory:', seed: 'empty', exportOnExit: saved })).close();
      const manifest = JSON.parse(readFileSync(join(saved, 'snapshot.json'), 'utf8')) as { tables: { name: string; file: string }[] };
      const users = manifest.tables.find((t) => t.name === 'users')!.file;
      const languages = manifest.tables.find((t) => t.name === 'languages')!.file;

      const cut = join(parent, 'cut');
      cpSync(saved, cut, { recursive: true });
      truncateSync(join(cut, users), Math.floor(statSync(join(cut, users)).size / 2));
      const missing = join(parent, 'missing');
      cpSync(saved, missing, { recursive: true });
      rmSync(join(missing, languages));

      const storage = await backend.prepare();
      try {
        const where = storage.database ? ['--database', storage.database, '--data', join(parent, 'files')] : ['--data', ':memory:'];
        // Stopped at once if it ever started: the test then fails on the exit code rather than waiting.
        const stopped = AbortSignal.abort();
        for (const [dir, file, reason] of [
          [cut, users, /is \d+ bytes, the manifest says \d+/],
          [missing, languages, /is missing/],
        ] as const) {
          const run = await runDam(['emulator', '--import', dir, '--port', '0', ...where], {}, stopped);
          assert.equal(run.code, 1, run.stderr);
          assert.ok(run.stderr.includes(`the snapshot in ${dir} is damaged: ${file} `), run.stderr);
          assert.match(run.stderr, reason);
        }
      } finally {
        await storage.cleanup();
      }
    });
  });
}
