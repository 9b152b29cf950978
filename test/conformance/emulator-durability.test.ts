// The emulator keeps what it acknowledged: a write answered 2xx survives SIGKILL of the process right after. And the
// bundled emulator, as users run it, initialises a new data folder in a process of its own.
import { strict as assert } from 'node:assert';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMULATOR_BUNDLE, exited, startEmulatorProcess } from '../support/emulatorProcess';

const HEADERS = { accept: 'application/hal+json', 'api-version': '1', 'user-agent': 'dam-emulator-durability-test' };

async function token(url: string): Promise<string> {
  const res = await fetch(`${url}/login/connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&scope=api&client_id=dam-emulator&client_secret=dam-emulator-secret',
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/**
 * A new data folder for the emulator processes of one describe block, removed after it together with the process
 * still running (`run` records each one started).
 */
function dataFolderFor(prefix: string): { readonly data: string; run(started: { child: ChildProcess; url: string }): { child: ChildProcess; url: string } } {
  let data = '';
  let running: ChildProcess | undefined;
  before(() => {
    data = mkdtempSync(join(tmpdir(), prefix));
  });
  after(async () => {
    if (running && running.exitCode === null && running.signalCode === null) {
      running.kill('SIGKILL');
      await exited(running);
    }
    rmSync(data, { recursive: true, force: true });
  });
  return {
    get data() {
      return data;
    },
    run(started) {
      running = started.child;
      return started;
    },
  };
}

describe('emulator durability (kill -9)', function () {
  this.timeout(300_000);
  const folder = dataFolderFor('dam-emulator-durability-');

  it('finds a record created right before SIGKILL after a restart on the same data folder', async () => {
    const first = folder.run(await startEmulatorProcess({ data: folder.data }));
    const bearer = await token(first.url);
    const title = `durable ${Date.now()}`;
    const created = await fetch(`${first.url}/api/core/record`, {
      method: 'POST',
      headers: { ...HEADERS, authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title, status: 'Released' }),
    });
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: string };
    // No grace period: the kill follows the acknowledgement immediately.
    first.child.kill('SIGKILL');
    await exited(first.child);

    const second = folder.run(await startEmulatorProcess({ data: folder.data }));
    // The token issued before the kill is kept too.
    const read = await fetch(`${second.url}/api/core/record/${id}`, { headers: { ...HEADERS, authorization: `Bearer ${bearer}` } });
    assert.equal(read.status, 200);
    const body = (await read.json()) as { id: string; title: string; status: string };
    assert.equal(body.id, id);
    assert.equal(body.title, title);
    assert.equal(body.status, 'Released');

    // A second emulator on the same folder would corrupt it: it refuses to start while this one runs.
    await assert.rejects(startEmulatorProcess({ data: folder.data }), /in use by another emulator/);

    second.child.kill('SIGTERM');
    await exited(second.child);
    assert.equal(second.child.exitCode, 0, 'SIGTERM stops the emulator cleanly');
  });
});

describe('the bundled emulator on a new data folder', function () {
  this.timeout(300_000);
  before(() => {
    assert.ok(existsSync('dist/emulator.js') && existsSync('dist/initdb.js'), 'the bundles are built first (node esbuild.mjs; npm test does)');
  });
  const folder = dataFolderFor('dam-emulator-bundle-');

  it('initialises it in a process of its own, so the emulator never holds initdb\'s memory, and keeps its data across a restart', async () => {
    const first = folder.run(await startEmulatorProcess({ data: folder.data, entry: EMULATOR_BUNDLE }));
    assert.ok(existsSync(join(folder.data, 'pgdata', 'PG_VERSION')), 'the folder is a PostgreSQL data folder');
    // initdb's throw-away PostgreSQL is a WASM instance of 400-500 MB: in process, the emulator peaked near 670 MB.
    const peak = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${first.child.pid}/status`, 'utf8'));
    if (peak) assert.ok(Number(peak[1]) < 400 * 1024, `the emulator's peak was ${Math.round(Number(peak[1]) / 1024)} MB`);
    const bearer = await token(first.url);
    const created = await fetch(`${first.url}/api/core/record`, {
      method: 'POST',
      headers: { ...HEADERS, authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'kept', status: 'Released' }),
    });
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: string };
    first.child.kill('SIGTERM');
    await exited(first.child);

    const second = folder.run(await startEmulatorProcess({ data: folder.data, entry: EMULATOR_BUNDLE }));
    const read = await fetch(`${second.url}/api/core/record/${id}`, { headers: { ...HEADERS, authorization: `Bearer ${bearer}` } });
    assert.equal(read.status, 200);
    second.child.kill('SIGTERM');
    await exited(second.child);
  });
});
