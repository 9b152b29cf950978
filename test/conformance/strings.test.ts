// String resources over HTTP: the static list, single reads, mixed queries, the client's caches and `dam strings resolve`.
import { strict as assert } from 'node:assert';
import { describeEachBackend, failure, runDam } from './helpers';
import { ApiError } from '../../src/api/errors';
import type { DamClient } from '../../src/api/client';
import { StringsApi } from '../../src/api/strings';

const LIMITED = { clientId: 'dam-emulator-limited', clientSecret: 'dam-emulator-limited-secret' };

describeEachBackend('work management: string resources', { seed: 'empty' }, (env) => {
  let admin: DamClient;
  before(() => {
    admin = env().client();
  });
  const raw = async <T = Record<string, unknown>>(path: string, init: { method?: 'GET' | 'POST'; json?: unknown } = {}) =>
    (await admin.http.request<T>({ endpoint: 'ops', path, ...init })).data;

  it('GET /api/resources/static lists the 50 static strings, and only those', async () => {
    const body = await raw<{ _total: number; _embedded: Record<string, { id: string; value: string }[]> }>('/api/resources/static');
    const items = Object.values(body._embedded)[0]!;
    assert.equal(body._total, 50);
    assert.deepEqual(
      items.map((i) => i.id),
      Array.from({ length: 50 }, (_, n) => `mo-replacement-strings-${n + 1}`),
    );
    assert.ok(items.every((i) => typeof i.value === 'string' && i.value.length > 0));
  });

  it('GET /api/resources/{id} reads one string of either kind with its self link', async () => {
    for (const id of ['mo-replacement-strings-50', 'mo-encoded-titles-1', 'mo-encoded-titles-50']) {
      const body = await raw<{ id: string; value: string; _links: { self: { href: string } } }>(`/api/resources/${id}`);
      assert.equal(body.id, id);
      assert.equal(typeof body.value, 'string');
      assert.ok(body._links.self.href.endsWith(`/api/resources/${id}`));
    }
  });

  it('an unknown id is a 404', async () => {
    const err = await failure<ApiError>(() => raw('/api/resources/mo-encoded-titles-51'));
    assert.equal(err.status, 404);
  });

  it('POST /api/resources/query mixes static and dynamic ids and leaves unknown ones out', async () => {
    const body = await raw<{ resources: { id: string; value: string }[] }>('/api/resources/query', {
      method: 'POST',
      json: { query: 'mo-encoded-titles-3, mo-replacement-strings-1,nope,mo-encoded-titles-3' },
    });
    assert.deepEqual(
      body.resources.map((r) => r.id),
      ['mo-encoded-titles-3', 'mo-replacement-strings-1'],
    );
    const single = await raw<{ value: string }>('/api/resources/mo-encoded-titles-3');
    assert.equal(body.resources[0]!.value, single.value);
  });

  it('the query must be sent as application/json', async () => {
    const err = await failure<ApiError>(() =>
      admin.http.request({ method: 'POST', endpoint: 'ops', path: '/api/resources/query', body: { data: 'mo-encoded-titles-1', contentType: 'text/plain' } }),
    );
    assert.equal(err.status, 415);
  });

  it('any caller may read strings (the limited client too)', async () => {
    const limited = env().client({ profile: { ...env().profile, clientId: LIMITED.clientId }, secrets: { clientSecret: LIMITED.clientSecret } });
    const found = await new StringsApi(limited.http).resolve(['mo-replacement-strings-2']);
    assert.equal(found.size, 1);
  });

  it('picklist option resource ids of attachment fields resolve', async () => {
    const fields = await raw<{ _embedded: Record<string, { options: { resourceId: string }[]; labelResourceId: string }[]> }>('/api/attachments/metadata');
    const ids = Object.values(fields._embedded)[0]!.flatMap((f) => [f.labelResourceId, ...f.options.map((o) => o.resourceId)]);
    const found = await new StringsApi(admin.http).resolve(ids);
    assert.deepEqual([...new Set(ids)].filter((id) => !found.has(id)), []);
  });

  describe('the client cache', () => {
    let clock = 0;
    let strings: StringsApi;
    const requestsTo = (fragment: string) => env().events.filter((e) => e.url.includes(fragment)).length;
    before(() => {
      strings = new StringsApi(admin.http, { dynamicTtlMs: 1000, now: () => clock });
    });

    it('static strings are fetched once per session', async () => {
      const before = requestsTo('/api/resources/static');
      const a = await strings.resolve(['mo-replacement-strings-1', 'mo-replacement-strings-2']);
      const b = await strings.resolve(['mo-replacement-strings-3']);
      assert.equal(await strings.get('mo-replacement-strings-4'), (await raw<{ value: string }>('/api/resources/mo-replacement-strings-4')).value);
      assert.deepEqual([a.size, b.size], [2, 1]);
      assert.equal(requestsTo('/api/resources/static') - before, 1);
      assert.equal(strings.sent.query, 0);
    });

    it('dynamic strings are reused until their time is up, then asked again', async () => {
      const queries = () => requestsTo('/api/resources/query');
      const start = queries();
      const first = await strings.resolve(['mo-encoded-titles-7', 'mo-replacement-strings-1']);
      const second = await strings.resolve(['mo-encoded-titles-7']);
      assert.equal(first.get('mo-encoded-titles-7'), second.get('mo-encoded-titles-7'));
      assert.equal(queries() - start, 1);
      clock += 1001;
      await strings.resolve(['mo-encoded-titles-7']);
      assert.equal(queries() - start, 2);
    });

    it('unknown ids are absent, not errors', async () => {
      const found = await strings.resolve(['mo-encoded-titles-999', 'mo-encoded-titles-8']);
      assert.deepEqual([...found.keys()], ['mo-encoded-titles-8']);
      assert.equal(await strings.get('mo-encoded-titles-999'), undefined);
    });
  });

  describe('dam strings resolve', () => {
    const run = (...argv: string[]) => runDam(argv);

    it('prints id<TAB>value per id, in the order asked', async () => {
      const res = await run('strings', 'resolve', 'mo-encoded-titles-2', 'mo-replacement-strings-1', '--url', env().url);
      assert.equal(res.code, 0, res.stderr);
      const expected = await raw<{ resources: { id: string; value: string }[] }>('/api/resources/query', {
        method: 'POST',
        json: { query: 'mo-encoded-titles-2,mo-replacement-strings-1' },
      });
      assert.equal(res.stdout, expected.resources.map((r) => `${r.id}\t${r.value}\n`).join(''));
    });

    it('an unknown id is reported and the exit code is 1', async () => {
      const res = await run('strings', 'resolve', 'mo-encoded-titles-1,mo-encoded-titles-404', '--url', env().url);
      assert.equal(res.code, 1);
      assert.match(res.stdout, /^mo-encoded-titles-1\t/);
      assert.match(res.stderr, /unknown string resource 'mo-encoded-titles-404'/);
    });
  });
});
