// What VS Code's terminals get: the CLI's variables for the active connection (never a secret) and a `dam`
// launcher that runs the bundled CLI with a given Node.js.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emulatorProfile } from '../../../src/api/endpoints';
import type { Profile } from '../../../src/api/profile';
import { connectionVariables, launchers } from '../../../src/extension/terminal/terminalVariables';

const tenant: Profile = {
  id: 't',
  name: 'Acme',
  kind: 'tenant',
  endpoints: {
    auth: 'https://acme.example',
    base: 'https://acme.dam.example',
    core: 'https://acme.dam.example/api/core',
    upload: 'https://acme.example',
    ops: 'https://acme.example',
    analytics: 'https://acme.example',
  },
  flow: 'password',
  clientId: 'acme-tools',
  scope: 'api',
  username: 'ann',
  redirect: 'loopback',
};

describe('terminal environment', () => {
  it('an emulator connection is DAM_URL alone: the CLI fills in the published credentials', () => {
    assert.deepEqual(connectionVariables(emulatorProfile('http://127.0.0.1:41234')), { DAM_CONNECTION: 'Local emulator', DAM_URL: 'http://127.0.0.1:41234' });
  });

  it('a tenant is its six addresses, client id, flow and user name, without any secret', () => {
    const vars = connectionVariables(tenant);
    assert.deepEqual(vars, {
      DAM_CONNECTION: 'Acme',
      DAM_AUTH_URL: 'https://acme.example',
      DAM_BASE_URL: 'https://acme.dam.example',
      DAM_CORE_URL: 'https://acme.dam.example/api/core',
      DAM_UPLOAD_URL: 'https://acme.example',
      DAM_OPS_URL: 'https://acme.example',
      DAM_ANALYTICS_URL: 'https://acme.example',
      DAM_CLIENT_ID: 'acme-tools',
      DAM_FLOW: 'password',
      DAM_USERNAME: 'ann',
    });
    assert.ok(!Object.keys(vars).some((name) => /SECRET|PASSWORD|TOKEN/.test(name)));
    assert.deepEqual(connectionVariables(undefined), {});
  });

  it('the sh launcher runs the CLI with the given Node.js, arguments intact, as plain Node (ELECTRON_RUN_AS_NODE)', function () {
    if (process.platform === 'win32') this.skip();
    const dir = mkdtempSync(join(tmpdir(), "dam bin's-"));
    try {
      const cli = join(dir, 'cli.js');
      writeFileSync(cli, 'console.log(JSON.stringify({ args: process.argv.slice(2), electron: process.env.ELECTRON_RUN_AS_NODE }))');
      const { sh, cmd } = launchers(process.execPath, cli);
      writeFileSync(join(dir, 'dam'), sh);
      chmodSync(join(dir, 'dam'), 0o755);
      const out = JSON.parse(execFileSync(join(dir, 'dam'), ['search', "Title = 'a b'"], { encoding: 'utf8' })) as { args: string[]; electron: string };
      assert.deepEqual(out, { args: ['search', "Title = 'a b'"], electron: '1' });
      assert.match(cmd, /^@echo off\r\n/);
      assert.ok(cmd.includes(`"${process.execPath}" "${cli}" %*`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
