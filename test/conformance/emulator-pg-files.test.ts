// A PostgreSQL-backed emulator keeps its files (blobs, named snapshots) in a folder, not a temporary one: an upload
// acknowledged before a stop or a SIGKILL downloads byte for byte after a restart on the same schema, and a snapshot
// saved before it restores after it. Skipped without DAM_TEST_DATABASE_URL, as the other PostgreSQL runs are.
import { strict as assert } from 'node:assert';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { postgresFilesFolder } from '../../src/emulator/storage/open';
import { EMULATOR_BUNDLE, exited, startEmulatorProcess, type EmulatorProcess } from '../support/emulatorProcess';
import { backends, runDam } from './helpers';

const HEADERS = { accept: 'application/hal+json', 'api-version': '1', 'user-agent': 'dam-emulator-pg-files-test' };

async function token(url: string): Promise<string> {
  const res = await fetch(`${url}/login/connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&scope=api&client_id=dam-emulator&client_secret=dam-emulator-secret',
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Uploads `bytes` as a new record with `dam upload`; answers the record id. */
async function upload(url: string, dir: string, name: string, bytes: Buffer): Promise<string> {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  const run = await runDam(['upload', path, '--json', '--url', url]);
  assert.equal(run.code, 0, run.stderr);
  const [row] = JSON.parse(run.stdout) as { recordId: string; size: number }[];
  assert.equal(row.size, bytes.length);
  return row.recordId;
}

/** The record's latest master file version as the download link serves it: status and bytes. */
async function download(url: string, recordId: string): Promise<{ status: number; bytes: Buffer }> {
  const bearer = await token(url);
  const version = await fetch(`${url}/api/core/record/${recordId}/masterfilelatestversion`, { headers: { ...HEADERS, authorization: `Bearer ${bearer}` } });
  if (version.status !== 200) return { status: version.status, bytes: Buffer.alloc(0) };
  const href = ((await version.json()) as { _links: { download: { href: string } } })._links.download.href;
  const res = await fetch(href);
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function devtools(url: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${url}/_emulator${path}`, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
}

const postgres = backends().find((b) => b.name === 'postgres');

(postgres ? describe : describe.skip)('a PostgreSQL-backed emulator keeps its files across restarts [postgres]', function () {
  this.timeout(300_000);
  let folder = '';
  const running: ChildProcess[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  const run = (started: EmulatorProcess) => (running.push(started.child), started);

  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'dam-pg-files-'));
  });
  afterEach(async () => {
    for (const child of running.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited(child);
    }
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`downloads an upload byte for byte and restores a snapshot after ${signal} and a restart on the same schema`, async () => {
      const storage = await postgres!.prepare();
      cleanups.push(() => storage.cleanup());
      const database = `${storage.database}${storage.database!.includes('?') ? '&' : '?'}schema=files_${signal.toLowerCase()}`;
      const data = join(folder, signal);
      const start = () => startEmulatorProcess({ data, args: ['--database', database] });

      const first = run(await start());
      const kept = randomBytes(300_000);
      const keptId = await upload(first.url, folder, `kept-${signal}.bin`, kept);
      assert.equal((await devtools(first.url, 'POST', '/snapshots', { name: 'base' })).status, 201);
      // After the snapshot: there after the restart, gone once the snapshot is restored.
      const later = randomBytes(50_000);
      const laterId = await upload(first.url, folder, `later-${signal}.bin`, later);
      // The files are in the folder given, not in a temporary one.
      assert.ok(existsSync(join(data, 'blobs')) && existsSync(join(data, 'snapshots', 'base', 'snapshot.json')));
      first.child.kill(signal);
      await exited(first.child);

      const second = run(await start());
      const got = await download(second.url, keptId);
      assert.equal(got.status, 200);
      assert.ok(got.bytes.equals(kept), 'the bytes uploaded before the restart');
      const gotLater = await download(second.url, laterId);
      assert.equal(gotLater.status, 200);
      assert.ok(gotLater.bytes.equals(later));
      // A second emulator on the same folder would take this one's blobs: refused while it runs.
      await assert.rejects(startEmulatorProcess({ data, args: ['--database', database] }), /in use by another emulator/);

      const listed = (await (await devtools(second.url, 'GET', '/snapshots')).json()) as { items: { name: string }[] };
      assert.deepEqual(listed.items.map((s) => s.name), ['base']);
      assert.equal((await devtools(second.url, 'POST', '/snapshots/base/restore')).status, 200);
      const restored = await download(second.url, keptId);
      assert.equal(restored.status, 200);
      assert.ok(restored.bytes.equals(kept), 'the bytes of the snapshot restored after the restart');
      assert.equal((await download(second.url, laterId)).status, 404);
    });
  }

  it('without --data keeps them in one folder per schema under .dam-emulator/postgres/, and a new schema drops blobs left there', async function () {
    // The bundle, started in a folder of its own: the default location is relative to the current folder.
    const bundle = resolve(EMULATOR_BUNDLE[0]);
    if (!existsSync(bundle)) this.skip();
    const storage = await postgres!.prepare();
    cleanups.push(() => storage.cleanup());
    const cwd = join(folder, 'cwd');
    const url = (schema: string) => `${storage.database}${storage.database!.includes('?') ? '&' : '?'}schema=${schema}`;
    mkdirSync(cwd);
    const start = (schema: string) => startEmulatorProcess({ entry: [bundle], args: ['--database', url(schema)], cwd });

    const a = run(await start('tenant_a'));
    const bytes = randomBytes(20_000);
    const id = await upload(a.url, folder, 'default-folder.bin', bytes);
    const home = join(cwd, postgresFilesFolder(url('tenant_a')));
    assert.match(home, /\.dam-emulator\/postgres\/[^/]+_\d+\/dam_test_[0-9a-f]+\/tenant_a$/);
    const blobFiles = () =>
      readdirSync(join(home, 'blobs'))
        .filter((shard) => /^[0-9a-f]{2}$/.test(shard))
        .flatMap((shard) => readdirSync(join(home, 'blobs', shard))).length;
    assert.ok(blobFiles() > 0);
    // Another schema of the same database starts beside it, with a folder of its own.
    const b = run(await start('tenant_b'));
    assert.equal((await download(b.url, id)).status, 404);
    b.child.kill('SIGTERM');
    await exited(b.child);
    a.child.kill('SIGTERM');
    await exited(a.child);
    assert.ok(existsSync(join(cwd, postgresFilesFolder(url('tenant_b')), 'blobs')));

    // The schema is reset (dropped); the next start on it begins a new tenant, and the old tenant's blobs go.
    await dropSchema(storage.database!, 'tenant_a');
    const c = run(await start('tenant_a'));
    assert.equal((await download(c.url, id)).status, 404);
    assert.equal(blobFiles(), 0);
  });
});

async function dropSchema(database: string, schema: string): Promise<void> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: database });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}
