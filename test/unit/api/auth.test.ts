// PKCE helpers, the authorize URL, the redirect reader, and the token cache's renewal timing.
import { strict as assert } from 'node:assert';
import { AuthRequiredError } from '../../../src/api/errors';
import { CachingTokenProvider, buildAuthorizeUrl, createPkcePair, pkceChallenge, readAuthorizationRedirect, type AccessToken } from '../../../src/api/auth';
import { emulatorProfile } from '../../../src/api/endpoints';

describe('PKCE', () => {
  it('matches the RFC 7636 appendix B example', () => {
    assert.equal(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'), 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('makes a 43-character url-safe verifier and its S256 challenge', () => {
    const pair = createPkcePair();
    assert.match(pair.verifier, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(pair.challenge, pkceChallenge(pair.verifier));
    assert.equal(pair.method, 'S256');
    assert.notEqual(createPkcePair().verifier, pair.verifier);
  });

  it('builds the authorize URL with every parameter the spec lists', () => {
    const url = new URL(buildAuthorizeUrl(emulatorProfile('http://127.0.0.1:7070/'), { redirectUri: 'http://127.0.0.1:5123/cb', state: 'st', challenge: 'ch' }));
    assert.equal(url.origin + url.pathname, 'http://127.0.0.1:7070/login/connect/authorize');
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      client_id: 'dam-emulator',
      redirect_uri: 'http://127.0.0.1:5123/cb',
      response_type: 'code',
      scope: 'api',
      state: 'st',
      code_challenge: 'ch',
      code_challenge_method: 'S256',
    });
  });

  it('reads the code from the redirect and refuses a foreign state or an error', () => {
    assert.deepEqual(readAuthorizationRedirect('http://127.0.0.1:5123/cb?code=abc&state=st&scope=api', 'st'), { code: 'abc', scope: 'api' });
    assert.throws(() => readAuthorizationRedirect('http://127.0.0.1:5123/cb?code=abc&state=other', 'st'), AuthRequiredError);
    assert.throws(() => readAuthorizationRedirect('http://127.0.0.1:5123/cb?error=access_denied&state=st', 'st'), /access_denied/);
  });
});

describe('token cache', () => {
  function setup(lifetimeS: number) {
    let now = 1_000_000;
    let issued = 0;
    let calls = 0;
    const provider = new CachingTokenProvider(
      async (): Promise<AccessToken> => {
        calls++;
        await new Promise((r) => setImmediate(r));
        return { value: `t${++issued}`, obtainedAt: now, expiresAt: now + lifetimeS * 1000 };
      },
      { now: () => now },
    );
    return { provider, advance: (ms: number) => (now += ms), calls: () => calls };
  }

  it('reuses a fresh token', async () => {
    const { provider, advance, calls } = setup(3600);
    assert.equal(await provider.getToken(), 't1');
    advance(3_000_000);
    assert.equal(await provider.getToken(), 't1');
    assert.equal(calls(), 1);
  });

  it('renews 60 s before expiry, not after', async () => {
    const { provider, advance } = setup(3600);
    await provider.getToken();
    advance(3_540_000 - 1);
    assert.equal(await provider.getToken(), 't1');
    advance(1);
    assert.equal(await provider.getToken(), 't2');
  });

  it('renews short-lived tokens at 90 % of their life', async () => {
    const { provider, advance } = setup(10);
    await provider.getToken();
    advance(8_999);
    assert.equal(await provider.getToken(), 't1');
    advance(1);
    assert.equal(await provider.getToken(), 't2');
  });

  it('shares one token request among concurrent callers', async () => {
    const { provider, calls } = setup(3600);
    const tokens = await Promise.all([provider.getToken(), provider.getToken(), provider.getToken()]);
    assert.deepEqual(tokens, ['t1', 't1', 't1']);
    assert.equal(calls(), 1);
  });

  it('invalidating the refused token forces a new one; a stale invalidate does not', async () => {
    const { provider } = setup(3600);
    await provider.getToken();
    provider.invalidate('t0');
    assert.equal(await provider.getToken(), 't1');
    provider.invalidate('t1');
    assert.equal(await provider.getToken(), 't2');
  });

  it('a token request failure reaches the caller and is not cached', async () => {
    let fail = true;
    const provider = new CachingTokenProvider(async () => {
      if (fail) throw new Error('identity host down');
      return { value: 'ok', obtainedAt: 0, expiresAt: Date.now() + 3_600_000 };
    });
    await assert.rejects(provider.getToken(), /identity host down/);
    fail = false;
    assert.equal(await provider.getToken(), 'ok');
  });
});
