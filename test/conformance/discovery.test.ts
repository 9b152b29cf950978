// The header table, discovery endpoints, media types, retired routes and the error object.
import { strict as assert } from 'node:assert';
import { describeEachBackend, failure, USER_AGENT } from './helpers';
import { ApiError } from '../../src/api/errors';
import { HttpClient } from '../../src/api/http';
import { link } from '../../src/api/hal';

describeEachBackend('discovery and headers', { seed: 'empty' }, (env) => {
  const anonymous = () => new HttpClient({ endpoints: env().profile.endpoints, userAgent: USER_AGENT });

  it('/ lists resources as links, without token or API-Version', async () => {
    const root = (await env().client().root()) as { _links?: Record<string, { href: string }> };
    assert.ok(link(root as never, 'records'), 'root links records');
    assert.ok(link(root as never, 'classifications'), 'root links classifications');
  });

  it('/supportedVersions answers whatever API-Version says', async () => {
    const plain = await anonymous().request({ path: '/supportedVersions', auth: false, apiVersion: false });
    const odd = await anonymous().request({ path: '/supportedVersions', auth: false, headers: { 'API-Version': '99' } });
    assert.deepEqual(odd.data, plain.data);
    assert.match(JSON.stringify(plain.data), /"1"/);
  });

  it('/docs needs neither token nor API-Version', async () => {
    const docs = await anonymous().request<string>({ path: '/docs', auth: false, apiVersion: false, accept: '*/*', responseType: 'text' });
    assert.ok(docs.data.length > 100);
  });

  it('other endpoints require API-Version', async () => {
    const client = env().client();
    const err = await failure<ApiError>(() => client.http.request({ path: '/languages', apiVersion: false }));
    assert.equal(err.status, 400);
    assert.match(err.exceptionMessage ?? '', /API-Version/i);
  });

  it('the API-Version header name is case-insensitive', async () => {
    const client = env().client();
    const res = await client.http.request({ path: '/languages', apiVersion: false, headers: { 'api-version': '1' } });
    assert.ok(Array.isArray((res.data as { items: unknown[] }).items));
  });

  it('other endpoints require User-Agent, and / requires Accept', async () => {
    const client = env().client();
    // An empty User-Agent is as good as none; transports add their own when the header is absent.
    const noAgent = await failure<ApiError>(() => client.http.request({ path: '/languages', headers: { 'User-Agent': '' } }));
    assert.equal(noAgent.status, 400);
    assert.match(noAgent.exceptionMessage ?? '', /User-Agent/i);
    const noAccept = await failure<ApiError>(() => client.http.request({ path: '/', auth: false, apiVersion: false, accept: '' }));
    assert.equal(noAccept.status, 400);
    assert.match(noAccept.exceptionMessage ?? '', /Accept/i);
  });

  it('application/json is plain: no _links, no _embedded', async () => {
    const client = env().client();
    const hal = await client.languages.list();
    const plain = await client.languages.list({ plain: true });
    assert.ok(hal._links, 'HAL has links');
    assert.equal(plain._links, undefined);
    assert.ok(plain.items.every((i) => !('_links' in i) && !('_embedded' in i)));
    assert.deepEqual(plain.items.map((i) => i.id), hal.items.map((i) => i.id));
  });

  it('*/* is answered as HAL', async () => {
    const res = await env().client().http.request({ path: '/languages', accept: '*/*' });
    assert.match(res.headers.get('content-type') ?? '', /application\/hal\+json/);
  });

  it('retired OAuth routes answer 410 naming the replacement', async () => {
    for (const path of ['/api/oauth/create-native-token', '/api/oauth/authorize', '/api/oauth/create-token', '/api/oauth/exchange-auth-code']) {
      const err = await failure<ApiError>(() => anonymous().request({ method: 'POST', endpoint: 'auth', path, auth: false, form: {} }));
      assert.equal(err.status, 410, path);
      assert.match(err.exceptionMessage ?? '', /\/login\/connect\/token/, path);
      assert.ok(err.exceptionType);
    }
  });

  it('an Accept the service cannot answer is a 4xx with the error object', async () => {
    const err = await failure<ApiError>(() => env().client().http.request({ path: '/languages', accept: 'text/csv' }));
    assert.ok(err.status >= 400 && err.status < 500);
    assert.ok(err.exceptionType && err.exceptionMessage);
  });

  it('an unknown route is a 404 with the error object', async () => {
    const err = await failure<ApiError>(() => env().client().http.request({ path: '/nosuchcollection' }));
    assert.equal(err.status, 404);
    assert.ok(err.exceptionType && err.exceptionMessage);
  });
});
