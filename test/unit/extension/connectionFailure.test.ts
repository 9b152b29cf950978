// Why a connection failed, in words (issue 21, item 3): the client's real error objects in, a sentence out.
import { strict as assert } from 'node:assert';
import { ApiError, NetworkError, ResponseShapeError } from '../../../src/api/errors';
import type { Profile } from '../../../src/api/profile';
import { describeConnectionFailure } from '../../../src/extension/connections/failure';

const tenant: Profile = {
  id: 'acme',
  name: 'Acme',
  kind: 'tenant',
  endpoints: {
    auth: 'https://acme.example.com',
    base: 'https://acme.dam.example.com',
    core: 'https://acme.dam.example.com/api/core',
    upload: 'https://acme.example.com',
    ops: 'https://acme.example.com',
    analytics: 'https://acme.example.com',
  },
  flow: 'clientCredentials',
  clientId: 'acme-integration',
  scope: 'api',
  redirect: 'loopback',
};
const local: Profile = { ...tenant, endpoints: { ...tenant.endpoints, auth: 'http://127.0.0.1:7070' } };
const tokenUrl = 'https://acme.example.com/login/connect/token';

function oauth(status: number, exceptionType: string, exceptionMessage: string): ApiError {
  return new ApiError({ method: 'POST', url: tokenUrl, status, exceptionType, exceptionMessage });
}

describe('describeConnectionFailure', () => {
  it('names a refused client secret, from the OAuth code or the exception type naming it', () => {
    for (const type of ['invalid_client', 'Dam.Identity.OAuth.InvalidClientException']) {
      const f = describeConnectionFailure(oauth(401, type, 'Invalid client_secret.'), tenant);
      assert.equal(f.reason, 'secret');
      assert.equal(f.message, "The server refused the client secret of 'acme-integration': sign in again with the right secret.");
    }
  });

  it('tells an unknown client id from a wrong secret', () => {
    const f = describeConnectionFailure(oauth(401, 'invalid_client', 'Unknown client_id.'), tenant);
    assert.equal(f.reason, 'clientId');
    assert.match(f.message, /does not know the client id 'acme-integration'/);
  });

  it('names a refused password in the password flow', () => {
    const f = describeConnectionFailure(oauth(400, 'invalid_grant', 'Invalid username or password.'), { ...tenant, flow: 'password', username: 'kim' });
    assert.equal(f.reason, 'password');
    assert.match(f.message, /refused the user name or password of 'kim'/);
  });

  it('says nothing answers, and asks about the emulator on this machine', () => {
    const refused = new NetworkError('POST', 'http://127.0.0.1:9/login/connect/token', false, new Error('connect ECONNREFUSED 127.0.0.1:9'));
    assert.deepEqual(describeConnectionFailure(refused, local), { reason: 'unreachable', message: 'Nothing answers at http://127.0.0.1:9: is the emulator running?' });
    const dns = new NetworkError('POST', tokenUrl, false, new Error('getaddrinfo ENOTFOUND acme.example.com'));
    assert.equal(describeConnectionFailure(dns, tenant).message, 'Nothing answers at https://acme.example.com: check the address and your network connection.');
  });

  it('says how long it waited on a timeout', () => {
    const f = describeConnectionFailure(new NetworkError('POST', tokenUrl, true, new Error('aborted')), tenant, 30);
    assert.equal(f.reason, 'timeout');
    assert.match(f.message, /^https:\/\/acme\.example\.com did not answer within 30 seconds/);
  });

  it('recognises an address that is not the service', () => {
    assert.equal(describeConnectionFailure(new ResponseShapeError('GET … answered an unexpected shape'), tenant).reason, 'notService');
    assert.match(describeConnectionFailure(new ApiError({ method: 'POST', url: tokenUrl, status: 404 }), tenant).message, /has no sign-in endpoint/);
  });

  it('never passes the raw HTTP text on for the cases it knows', () => {
    for (const err of [oauth(401, 'invalid_client', 'Invalid client_secret.'), new ApiError({ method: 'POST', url: tokenUrl, status: 503 })]) {
      const { message } = describeConnectionFailure(err, tenant);
      assert.doesNotMatch(message, /POST|answered 401|invalid_client/);
    }
  });
});
