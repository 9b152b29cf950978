// Connections inside a real VS Code: profiles round-trip through settings with their secrets only in
// SecretStorage, and "Start local emulator" spawns the real emulator and signs in to it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DamApi } from '../../../src/extension/controller';
import type { Session } from '../../../src/extension/connections/session';

const SECRET = 'e2e-client-secret-7f3a91';
const PASSWORD = 'e2e-password-c0ffee42';

async function api(): Promise<DamApi> {
  const ext = vscode.extensions.getExtension<DamApi>('dam-workbench.dam-workbench');
  assert.ok(ext, 'extension not found');
  return ext.activate();
}

function settingsText(): string {
  const inspected = vscode.workspace.getConfiguration('dam').inspect('connections');
  return JSON.stringify([inspected?.globalValue, inspected?.workspaceValue, vscode.workspace.getConfiguration('dam')]);
}

describe('Connections', () => {
  it('round-trips a profile through settings and keeps its secrets in SecretStorage only', async () => {
    const dam = await api();
    const profile = {
      id: 'e2e-tenant',
      name: 'E2E tenant',
      kind: 'tenant' as const,
      endpoints: {
        auth: 'https://e2e.example.com',
        base: 'https://e2e.dam.example.com',
        core: 'https://e2e.dam.example.com/api/core',
        upload: 'https://e2e.example.com',
        ops: 'https://e2e.example.com',
        analytics: 'https://e2e.example.com',
      },
      flow: 'password' as const,
      clientId: 'e2e-client',
      scope: 'api',
      username: 'someone',
      redirect: 'loopback' as const,
    };
    await dam.profiles.save(profile);
    await dam.profiles.setSecrets(profile.id, { clientSecret: SECRET, password: PASSWORD });

    assert.deepEqual(await dam.profiles.get(profile.id), profile);
    const raw = vscode.workspace.getConfiguration('dam').get<unknown[]>('connections') ?? [];
    assert.deepEqual(raw.find((p) => (p as { id: string }).id === profile.id), profile);
    assert.deepEqual(await dam.profiles.getSecrets(profile.id), { clientSecret: SECRET, password: PASSWORD });
    const text = settingsText();
    assert.ok(!text.includes(SECRET) && !text.includes(PASSWORD), 'a secret reached the settings');

    // Saving again replaces rather than duplicates.
    await dam.profiles.save({ ...profile, name: 'E2E tenant renamed' });
    assert.equal((await dam.profiles.list()).filter((p) => p.id === profile.id).length, 1);
    assert.equal((await dam.profiles.get(profile.id))?.name, 'E2E tenant renamed');

    await dam.profiles.remove(profile.id);
    assert.equal(await dam.profiles.get(profile.id), undefined);
    assert.deepEqual(await dam.profiles.getSecrets(profile.id), { clientSecret: undefined, password: undefined });
  });

  it('reports a connection failure on the status without leaking the secret', async () => {
    const dam = await api();
    // Nothing listens on port 9 of loopback: the sign-in must fail with a clear error.
    await dam.profiles.save({
      id: 'e2e-unreachable',
      name: 'Unreachable',
      kind: 'tenant',
      endpoints: { auth: 'http://127.0.0.1:9', base: 'http://127.0.0.1:9', core: 'http://127.0.0.1:9/api/core', upload: 'http://127.0.0.1:9', ops: 'http://127.0.0.1:9', analytics: 'http://127.0.0.1:9' },
      flow: 'clientCredentials',
      clientId: 'nobody',
      scope: 'api',
      redirect: 'loopback',
    });
    await dam.profiles.setSecrets('e2e-unreachable', { clientSecret: SECRET });
    await assert.rejects(dam.connections.connect('e2e-unreachable', { interactive: false }));
    const state = dam.connections.state;
    assert.equal(state.kind, 'error');
    assert.ok(state.kind === 'error' && state.message.length > 0);
    assert.ok(!dam.log.tail().some((line) => line.includes(SECRET)), 'the secret reached the log');
    await dam.profiles.remove('e2e-unreachable');
  });

  it('starts the local emulator, signs in with the contract credentials, and logs requests without secrets', async function () {
    this.timeout(180_000);
    const dam = await api();
    const session = (await vscode.commands.executeCommand('dam.startEmulator')) as Session | undefined;
    assert.ok(session, 'dam.startEmulator returned no session (see the DAM log)');
    assert.match(dam.emulator.url ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(dam.connections.state.kind, 'connected');
    assert.equal(session.profile.kind, 'emulator');

    const root = await session.client.http.request({ method: 'GET', path: '/' });
    assert.equal(root.status, 200);

    const token = await session.tokens.getToken();
    const tail = dam.log.tail();
    assert.ok(tail.some((line) => /POST \S+\/login\/connect\/token 200 \d+ms/.test(line)), `no token request in the log:\n${tail.join('\n')}`);
    assert.ok(tail.some((line) => /GET \S+\/api\/core\/ 200 \d+ms/.test(line) || /GET \S+\/api\/core 200 \d+ms/.test(line)), 'no core request in the log');
    for (const line of tail) {
      assert.ok(!line.includes('dam-emulator-secret'), `client secret in the log: ${line}`);
      assert.ok(!line.includes(token), `access token in the log: ${line}`);
    }
    assert.ok(!settingsText().includes('dam-emulator-secret'), 'the emulator secret reached the settings');
  });

  it('signs out by forgetting the secrets, and stops the emulator', async () => {
    const dam = await api();
    await vscode.commands.executeCommand('dam.signOut');
    assert.deepEqual(await dam.profiles.getSecrets('emulator'), { clientSecret: undefined, password: undefined });
    await vscode.commands.executeCommand('dam.stopEmulator');
    assert.equal(dam.emulator.running, false);
  });
});
