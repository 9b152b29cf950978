// Where `dam` commands find the service: flags over environment over the local emulator default.
import { strict as assert } from 'node:assert';
import { resolveConnection, resolvePacing, DEFAULT_EMULATOR_URL } from '../../../src/cli/connection';
import { UsageError } from '../../../src/cli/command';

describe('cli connection', () => {
  it('defaults to the local emulator with its contract credentials', () => {
    const c = resolveConnection({}, {});
    assert.equal(c.profile.endpoints.core, `${DEFAULT_EMULATOR_URL}/api/core`);
    assert.equal(c.profile.endpoints.auth, DEFAULT_EMULATOR_URL);
    assert.equal(c.profile.clientId, 'dam-emulator');
    assert.equal(c.profile.flow, 'clientCredentials');
    assert.equal(c.secrets.clientSecret, 'dam-emulator-secret');
    assert.ok(c.usesEmulatorCredentials);
  });

  it('--url gives all six addresses from one origin; a flag beats DAM_URL', () => {
    const c = resolveConnection({ url: 'http://127.0.0.1:9000/' }, { DAM_URL: 'http://127.0.0.1:1' });
    assert.deepEqual(c.profile.endpoints, {
      auth: 'http://127.0.0.1:9000',
      base: 'http://127.0.0.1:9000',
      core: 'http://127.0.0.1:9000/api/core',
      upload: 'http://127.0.0.1:9000',
      ops: 'http://127.0.0.1:9000',
      analytics: 'http://127.0.0.1:9000',
    });
  });

  it('a tenant host by host, secrets from the environment only', () => {
    const c = resolveConnection(
      { 'core-url': 'https://acme.dam.example.com/api/core', 'auth-url': 'https://acme.example.com', 'client-id': 'my-app' },
      { DAM_CLIENT_SECRET: 'from-env', DAM_ANALYTICS_URL: 'https://analytics.example.com' },
    );
    assert.deepEqual(c.profile.endpoints, {
      base: 'https://acme.dam.example.com',
      core: 'https://acme.dam.example.com/api/core',
      auth: 'https://acme.example.com',
      upload: 'https://acme.example.com',
      ops: 'https://acme.example.com',
      analytics: 'https://analytics.example.com',
    });
    assert.equal(c.profile.kind, 'tenant');
    assert.equal(c.secrets.clientSecret, 'from-env');
    assert.equal(c.usesEmulatorCredentials, false);
  });

  it('another client id never gets the emulator secret', () => {
    assert.throws(() => resolveConnection({ 'client-id': 'my-app' }, {}), (err: Error) => err instanceof UsageError && /DAM_CLIENT_SECRET/.test(err.message));
  });

  it('password flow: username from flag or env, password only from DAM_PASSWORD', () => {
    const c = resolveConnection({ flow: 'password', username: 'editor', 'client-id': 'app' }, { DAM_PASSWORD: 'pw', DAM_CLIENT_SECRET: 's' });
    assert.equal(c.profile.flow, 'password');
    assert.equal(c.profile.username, 'editor');
    assert.equal(c.secrets.password, 'pw');
    assert.throws(() => resolveConnection({ flow: 'password', username: 'editor', 'client-id': 'app' }, { DAM_CLIENT_SECRET: 's' }), /DAM_PASSWORD/);
    const emulator = resolveConnection({ flow: 'password' }, {});
    assert.equal(emulator.profile.username, 'admin');
    assert.equal(emulator.secrets.password, 'admin');
  });

  it('flow spellings and refusals', () => {
    assert.equal(resolveConnection({ flow: 'client-credentials' }, {}).profile.flow, 'clientCredentials');
    assert.throws(() => resolveConnection({ flow: 'authorization-code' }, {}), /browser/);
    assert.throws(() => resolveConnection({ flow: 'magic' }, {}), UsageError);
    assert.throws(() => resolveConnection({ url: 'ftp://x' }, {}), /not an http/);
    assert.throws(() => resolveConnection({ 'auth-url': 'https://a.example.com' }, {}), /--base-url or --core-url/);
  });

  it('pacing: the client default, --max-rate / --max-in-flight over DAM_MAX_RATE / DAM_MAX_IN_FLIGHT, 0 for none', () => {
    assert.deepEqual(resolvePacing({}, {}), { ratePerSecond: 10, maxInFlight: 4 });
    assert.deepEqual(resolvePacing({ 'max-rate': '5' }, { DAM_MAX_RATE: '2', DAM_MAX_IN_FLIGHT: '2' }), { ratePerSecond: 5, maxInFlight: 2 });
    assert.deepEqual(resolvePacing({ 'max-rate': '0', 'max-in-flight': '0' }, {}), { ratePerSecond: Infinity, maxInFlight: Infinity });
    for (const bad of ['fast', '-1', '0.01']) assert.throws(() => resolvePacing({ 'max-rate': bad }, {}), UsageError, bad);
    assert.throws(() => resolvePacing({ 'max-in-flight': 'many' }, {}), UsageError);
  });
});
