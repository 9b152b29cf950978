// Authentication through the client: the three OAuth flows, opaque expiring tokens, 401 rules,
// renewal before expiry and the single fresh-token retry.
import { strict as assert } from 'node:assert';
import { describeEachBackend, failure, USER_AGENT } from './helpers';
import { ApiError } from '../../src/api/errors';
import { HttpClient } from '../../src/api/http';
import {
  CachingTokenProvider,
  StaticTokenProvider,
  buildAuthorizeUrl,
  createPkcePair,
  createState,
  exchangeCode,
  readAuthorizationRedirect,
  requestToken,
  type AccessToken,
} from '../../src/api/auth';
import { EMULATOR_CLIENT } from '../../src/api/endpoints';
import { DamClient } from '../../src/api/client';
import { CONTENT_API_IDS } from '../../src/core/contract';

/** Plays the browser on the consent page: reads its form and submits it, returning the redirect target. */
async function consent(http: HttpClient, authorizeUrl: string): Promise<string> {
  const page = await http.request<string>({ url: authorizeUrl, accept: 'text/html', auth: false, apiVersion: false, responseType: 'text' });
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(page.data);
  assert.ok(form, 'the authorize page has a form');
  const fields: Record<string, string> = {};
  for (const input of form[2].matchAll(/<input[^>]*name="([^"]*)"[^>]*value="([^"]*)"/gi)) {
    fields[input[1]] = input[2].replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');
  }
  const res = await http.request({ method: 'POST', url: new URL(form[1], authorizeUrl).toString(), form: fields, accept: 'text/html', auth: false, apiVersion: false, responseType: 'none', redirect: 'manual' });
  assert.ok(res.status === 302 || res.status === 303, `consent answers a redirect, got ${res.status}`);
  const location = res.headers.get('location');
  assert.ok(location, 'the redirect has a Location');
  return location;
}

describeEachBackend('auth', { seed: 'empty', tokenTtl: 3 }, (env) => {
  const http = () => new HttpClient({ endpoints: env().profile.endpoints, userAgent: USER_AGENT });

  it('client credentials: an opaque bearer token with expires_in', async () => {
    const res = await http().request({
      method: 'POST',
      endpoint: 'auth',
      path: '/login/connect/token',
      auth: false,
      accept: 'application/json',
      form: { grant_type: 'client_credentials', scope: 'api', client_id: EMULATOR_CLIENT.clientId, client_secret: EMULATOR_CLIENT.clientSecret },
    });
    const body = res.data as Record<string, unknown>;
    assert.equal(typeof body.access_token, 'string');
    assert.equal(body.expires_in, 3);
    assert.match(String(body.token_type), /^bearer$/i);
    assert.equal(body.scope, 'api');
  });

  it('client credentials as JSON are refused as IdentityServer refuses them: 400 invalid_request (a multipart body: 415)', async () => {
    const fields = { grant_type: 'client_credentials', scope: 'api', client_id: EMULATOR_CLIENT.clientId, client_secret: EMULATOR_CLIENT.clientSecret };
    const json = await fetch(`${env().url}/login/connect/token`, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT }, body: JSON.stringify(fields) });
    assert.equal(json.status, 400);
    const answer = (await json.json()) as { error: string; error_description: string };
    assert.equal(answer.error, 'invalid_request');
    assert.match(answer.error_description, /reads application\/x-www-form-urlencoded, not application\/json/);
    const multipart = new FormData();
    for (const [k, v] of Object.entries(fields)) multipart.append(k, v);
    const refused = await fetch(`${env().url}/login/connect/token`, { method: 'POST', headers: { 'user-agent': USER_AGENT }, body: multipart });
    assert.equal(refused.status, 415);
  });

  it('client credentials through the client reads a protected resource', async () => {
    const page = await env().client().users.list();
    assert.ok(page.items.length >= 3);
  });

  it('password flow with the contract user', async () => {
    const profile = { ...env().profile, flow: 'password' as const, username: 'admin' };
    const client = new DamClient({ profile, secrets: { clientSecret: EMULATOR_CLIENT.clientSecret, password: 'admin' }, userAgent: USER_AGENT });
    // The content API names users by GUID (emulator contract): admin is the contract's fixed id.
    const me = await client.users.get(CONTENT_API_IDS.users.admin);
    assert.equal(me.id, CONTENT_API_IDS.users.admin);
  });

  it('a wrong password or secret is refused with an error the user can read', async () => {
    const wrongPassword = await failure<ApiError>(() => requestToken(http(), env().profile, { grant_type: 'password', client_secret: EMULATOR_CLIENT.clientSecret, username: 'admin', password: 'nope' }));
    assert.ok(wrongPassword instanceof ApiError && wrongPassword.status >= 400 && wrongPassword.status < 500);
    assert.ok(wrongPassword.exceptionMessage && wrongPassword.exceptionType);
    assert.doesNotMatch(wrongPassword.message, /nope/);
    const wrongSecret = await failure<ApiError>(() => requestToken(http(), env().profile, { grant_type: 'client_credentials', client_secret: 'guess' }));
    assert.ok(wrongSecret instanceof ApiError && wrongSecret.status >= 400 && wrongSecret.status < 500);
  });

  it('authorization code with PKCE S256: consent, code, exchange', async () => {
    const pkce = createPkcePair();
    const state = createState();
    const redirectUri = 'http://127.0.0.1:5123/callback';
    const location = await consent(http(), buildAuthorizeUrl(env().profile, { redirectUri, state, challenge: pkce.challenge }));
    assert.ok(location.startsWith(redirectUri));
    const { code } = readAuthorizationRedirect(location, state);
    const token = await exchangeCode(http(), env().profile, { code, redirectUri, verifier: pkce.verifier, clientSecret: EMULATOR_CLIENT.clientSecret });
    const client = new DamClient({ profile: { ...env().profile, flow: 'authorizationCode' }, tokenProvider: new StaticTokenProvider(token.value), userAgent: USER_AGENT });
    assert.ok((await client.languages.list()).items.length > 0);
  });

  it('authorization code: a wrong verifier and a reused code are refused', async () => {
    const pkce = createPkcePair();
    const state = createState();
    const redirectUri = 'http://127.0.0.1:5123/callback';
    const { code } = readAuthorizationRedirect(await consent(http(), buildAuthorizeUrl(env().profile, { redirectUri, state, challenge: pkce.challenge })), state);
    const wrong = await failure<ApiError>(() => exchangeCode(http(), env().profile, { code, redirectUri, verifier: createPkcePair().verifier }));
    assert.equal(wrong.status, 400);
    const reused = await failure<ApiError>(() => exchangeCode(http(), env().profile, { code, redirectUri, verifier: pkce.verifier }));
    assert.equal(reused.status, 400);
  });

  it('401 with the error object when the token is missing or unknown', async () => {
    const noToken = await failure<ApiError>(() => http().request({ path: '/records', auth: false }));
    assert.equal(noToken.status, 401);
    assert.ok(noToken.exceptionType && noToken.exceptionMessage);
    const client = env().client({ tokenProvider: new StaticTokenProvider('not-a-token') });
    const unknown = await failure<ApiError>(() => client.records.list());
    assert.equal(unknown.status, 401);
  });

  it('401 once the token has expired (expires_in = 3 s here)', async () => {
    const token = await requestToken(http(), env().profile, { grant_type: 'client_credentials', scope: 'api', client_secret: EMULATOR_CLIENT.clientSecret });
    const client = env().client({ tokenProvider: new StaticTokenProvider(token.value) });
    await client.languages.list();
    await new Promise((r) => setTimeout(r, token.expiresAt - Date.now() + 500));
    const expired = await failure<ApiError>(() => client.languages.list());
    assert.equal(expired.status, 401);
  });

  it('the cache renews before expiry: a new token is fetched once 90 % of the life is used', async () => {
    let now = Date.now();
    const client = env().client({ tokenCache: { now: () => now } });
    const first = await client.tokens.getToken();
    now += 2_000;
    assert.equal(await client.tokens.getToken(), first);
    now += 800;
    const second = await client.tokens.getToken();
    assert.notEqual(second, first);
    await client.languages.list();
  });

  it('a refused token is replaced once and the request succeeds', async () => {
    let fetches = 0;
    const http1 = http();
    const provider = new CachingTokenProvider(async (): Promise<AccessToken> => {
      fetches++;
      return requestToken(http1, env().profile, { grant_type: 'client_credentials', scope: 'api', client_secret: EMULATOR_CLIENT.clientSecret });
    });
    // Seed a token the server never issued, as if it had been revoked.
    provider.set({ value: 'revoked-token', obtainedAt: Date.now(), expiresAt: Date.now() + 3_600_000 });
    env().events.length = 0;
    const client = env().client({ tokenProvider: provider });
    const page = await client.languages.list();
    assert.ok(page.items.length > 0);
    assert.equal(fetches, 1);
    assert.deepEqual(env().events.filter((e) => e.url.endsWith('/languages')).map((e) => e.status), [401, 200]);
  });

  it('the request log never carries the secret or the token', async () => {
    env().events.length = 0;
    const client = env().client();
    const token = await client.tokens.getToken();
    await client.languages.list();
    const log = JSON.stringify(env().events);
    assert.ok(env().events.length >= 2);
    assert.ok(!log.includes(token));
    assert.ok(!log.includes(EMULATOR_CLIENT.clientSecret));
  });
});
