// `dam --version` and the default address: a `dam` given no address finds the emulator VS Code started through the
// state file the extension writes, while that process lives; otherwise the contract's default.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { findRunningEmulator, forgetRunningEmulator, recordRunningEmulator, stateDir } from '../../../src/api/emulatorDiscovery';
import { DEFAULT_EMULATOR_URL, defaultEmulator, emulatorOrigin, resolveConnection } from '../../../src/cli/connection';
import { main } from '../../../src/cli/main';

async function runDam(argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await main(argv, { stdout, stderr: new PassThrough(), env, signal: new AbortController().signal });
  return { code, out };
}

describe('dam --version and the emulator VS Code started', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dam-state-'));
    env = { DAM_STATE_DIR: dir };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('the state folder follows DAM_STATE_DIR, XDG_STATE_HOME, HOME, and LOCALAPPDATA on Windows; none without a home', () => {
    assert.equal(stateDir({ DAM_STATE_DIR: '/s', XDG_STATE_HOME: '/x', HOME: '/h' }, 'linux'), '/s');
    assert.equal(stateDir({ XDG_STATE_HOME: '/x', HOME: '/h' }, 'linux'), join('/x', 'dam-workbench'));
    assert.equal(stateDir({ HOME: '/h' }, 'darwin'), join('/h', '.local', 'state', 'dam-workbench'));
    assert.equal(stateDir({ LOCALAPPDATA: 'C:\\Users\\a\\AppData\\Local', HOME: '/h' }, 'win32'), join('C:\\Users\\a\\AppData\\Local', 'dam-workbench'));
    assert.equal(stateDir({}, 'linux'), undefined);
  });

  it('uses the recorded emulator while its process lives, and the default address after it ended', async () => {
    recordRunningEmulator(env, { url: 'http://127.0.0.1:45678', pid: process.pid });
    assert.deepEqual(findRunningEmulator(env), { url: 'http://127.0.0.1:45678', pid: process.pid });
    assert.equal(resolveConnection({}, env).profile.endpoints.core, 'http://127.0.0.1:45678/api/core');
    assert.equal(emulatorOrigin(undefined, env), 'http://127.0.0.1:45678');
    assert.equal(emulatorOrigin(undefined, { ...env, DAM_URL: 'http://127.0.0.1:1' }), 'http://127.0.0.1:1');
    const version = await runDam(['--version'], env);
    assert.equal(version.code, 0);
    assert.match(version.out, /^dam \S+ \(DAM Workbench\), Node\.js v\d+/);
    assert.match(version.out, /service: http:\/\/127\.0\.0\.1:45678 \(the local emulator started by VS Code/);

    // A process that has ended: its record is not followed.
    const child = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => child.on('exit', resolve));
    recordRunningEmulator(env, { url: 'http://127.0.0.1:45679', pid: child.pid! });
    assert.equal(findRunningEmulator(env), undefined);
    assert.equal(defaultEmulator(env).url, DEFAULT_EMULATOR_URL);
    assert.match((await runDam(['--version'], env)).out, /service: http:\/\/127\.0\.0\.1:7070 \(the default address/);
  });

  it('forgets only its own emulator; a broken state file is ignored', () => {
    recordRunningEmulator(env, { url: 'http://127.0.0.1:45678', pid: process.pid });
    forgetRunningEmulator(env, process.pid + 1);
    assert.ok(findRunningEmulator(env));
    forgetRunningEmulator(env, process.pid);
    assert.equal(findRunningEmulator(env), undefined);
    writeFileSync(join(dir, 'emulator.json'), '{not json');
    assert.equal(findRunningEmulator(env), undefined);
  });

  it('says which service and which sign-in a VS Code terminal gives it, and how to give a tenant its secret', async () => {
    const emulator = await runDam(['--version'], { ...env, DAM_URL: 'http://127.0.0.1:5555', DAM_CONNECTION: 'Local emulator' });
    assert.match(emulator.out, /service: http:\/\/127\.0\.0\.1:5555 \(DAM_URL, set by VS Code for its connection 'Local emulator'\)/);
    assert.match(emulator.out, /sign-in: client 'dam-emulator', secret from the emulator's published credentials/);
    const tenant = await runDam(['--version'], { ...env, DAM_CORE_URL: 'https://acme.example/api/core', DAM_CLIENT_ID: 'acme-tools', DAM_FLOW: 'clientCredentials', DAM_CONNECTION: 'acme' });
    assert.match(tenant.out, /service: https:\/\/acme\.example\/api\/core \(DAM_CORE_URL, set by VS Code for its connection 'acme'\)/);
    assert.match(tenant.out, /sign-in: not possible yet: no client secret for client 'acme-tools': set DAM_CLIENT_SECRET in this terminal/);
    const withSecret = await runDam(['--version'], { ...env, DAM_CORE_URL: 'https://acme.example/api/core', DAM_CLIENT_ID: 'acme-tools', DAM_CLIENT_SECRET: 'sekrit-4711' });
    assert.match(withSecret.out, /sign-in: client 'acme-tools', secret from DAM_CLIENT_SECRET/);
    assert.ok(!withSecret.out.includes('sekrit-4711'), 'the secret itself is never printed');
  });
});
