// Our own client, CLI included, lives within the tenant's limits: `dam search --all` and a `dam upload` batch run at
// once against an emulator enforcing a tight tenant finish with no failure (a 429 slows the client down rather than
// being retried into a storm); at a tenant's numbers the client's default pacing never even needs the queue; an
// expired token is answered 401 as a tenant does and the client renews it and sends the request again.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEachBackend, runDam, USER_AGENT } from './helpers';
import { DEFAULT_PACING } from '../../src/api/pacing';

interface JournalItem {
  path: string;
  status: number;
  client: string | null;
  findings: { code: string }[];
}

async function journal(url: string, query = ''): Promise<JournalItem[]> {
  const res = await fetch(`${url}/_emulator/requests?limit=1000${query}`);
  assert.equal(res.status, 200);
  return ((await res.json()) as { items: JournalItem[] }).items;
}

const RECORDS = 240;

/** `--all --json` prints one hit per line (NDJSON). */
const lines = (out: string) => out.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as { id: string });

describeEachBackend('our client under a tight tenant (--tenant-limits, 5 requests/s, a queue of 1)', { seed: 'empty', records: RECORDS, tenantLimits: { enforce: true, rate: 5, queue: 1 } }, (env) => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'dam-limits-cli-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('dam search --all and a dam upload batch, run at once, finish with every item and no failure', async () => {
    const cls = (await env().client().classifications.create({ name: `limits-${Date.now()}` })).id;
    const paths = Array.from({ length: 10 }, (_, i) => {
      const path = join(dir, `paced-${i}.png`);
      writeFileSync(path, randomBytes(2000 + i));
      return path;
    });
    const [search, upload] = await Promise.all([
      runDam(['search', '*', '--all', '--json', '--page-size', '20', '--url', env().url]),
      runDam(['upload', ...paths, '--classification', cls, '--json', '--url', env().url]),
    ]);
    assert.equal(search.code, 0, search.stderr);
    // Every record, and some of those the upload made meanwhile.
    const hits = lines(search.stdout).length;
    assert.ok(hits >= RECORDS && hits <= RECORDS + paths.length, `${hits} hits`);
    assert.equal(upload.code, 0, upload.stderr);
    assert.equal((JSON.parse(upload.stdout) as { recordId: string }[]).filter((r) => r.recordId).length, paths.length);
    const cli = (await journal(env().url)).filter((e) => e.client?.startsWith('dam-workbench-cli'));
    const throttled = cli.filter((e) => e.status === 429).length;
    // Two clients at 10 requests/s each against a tenant serving 5: some 429s, each halving the client's rate, so a
    // handful at most (10 → 5 → 2.5 → 1.25 requests/s), never one per request.
    assert.ok(throttled <= 6, `${throttled} answers 429 of ${cli.length}: the client was not slowed down`);
    assert.ok(cli.every((e) => e.status < 400 || e.status === 429), cli.filter((e) => e.status >= 400).map((e) => `${e.status} ${e.path}`).join(', '));
  });
});

describeEachBackend('our client at a tenant’s numbers (15 requests/s, a queue of 100), reported', { seed: 'empty', records: RECORDS }, (env) => {
  it('dam search --all with the default pacing stays within the rate: no request a tenant would have queued', async () => {
    const run = await runDam(['search', '*', '--all', '--json', '--page-size', '10', '--url', env().url]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(lines(run.stdout).length, RECORDS);
    const cli = (await journal(env().url)).filter((e) => e.client?.startsWith('dam-workbench-cli'));
    assert.ok(cli.length > RECORDS / 10, `${cli.length} requests`);
    const flagged = cli.filter((e) => e.findings.some((f) => f.code === 'DE2050' || f.code === 'DE2051'));
    assert.deepEqual(flagged.map((e) => e.path), [], `pacing at ${DEFAULT_PACING.ratePerSecond}/s should never reach the tenant's 15/s`);
  });

  it('an unpaced client in the same burst would have been queued: the findings see it', async () => {
    const client = env().client({ userAgent: 'unpaced-burst/1' });
    await Promise.all(Array.from({ length: 40 }, () => client.languages.list()));
    const burst = (await journal(env().url)).filter((e) => e.client === 'unpaced-burst/1' && e.path.endsWith('/languages'));
    assert.ok(burst.some((e) => e.findings.some((f) => f.code === 'DE2050')));
  });
});

describeEachBackend('tokens expire (--token-ttl 2)', { seed: 'empty', tokenTtl: 2 }, (env) => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('an expired token is answered 401 with the error object and WWW-Authenticate: Bearer error="invalid_token"', async () => {
    const token = await env().client().tokens.getToken();
    await sleep(2300);
    const res = await fetch(`${env().url}/api/core/languages`, { headers: { Accept: 'application/json', 'API-Version': '1', 'User-Agent': USER_AGENT, Authorization: `Bearer ${token}` } });
    assert.equal(res.status, 401);
    assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer error="invalid_token"/);
    const body = (await res.json()) as { exceptionType: string; stackTrace: unknown };
    assert.match(body.exceptionType, /Unauthorized/);
    assert.equal(body.stackTrace, null);
  });

  it('a client across expiry renews before the token runs out: every call succeeds without a 401', async () => {
    const events: { url: string; status: number }[] = [];
    const client = env().client({ pacing: DEFAULT_PACING, onRequest: (e) => events.push(e) });
    for (let i = 0; i < 4; i++) {
      assert.ok((await client.languages.list()).items.length > 0);
      await sleep(900);
    }
    assert.deepEqual(events.filter((e) => e.status === 401), []);
    assert.ok(events.filter((e) => e.url.endsWith('/connect/token')).length >= 2, 'a new token was fetched');
  });

  it('a token the service expired while the client thought it fresh: 401, a new token, the request sent again, and the caller sees only the answer', async () => {
    const events: { url: string; status: number }[] = [];
    const start = Date.now();
    // The client's clock runs at a quarter speed: it believes the 2 s token lives 8 s, as after a revocation or a
    // lifetime cut short by the service.
    const client = env().client({ pacing: DEFAULT_PACING, onRequest: (e) => events.push(e), tokenCache: { now: () => start + (Date.now() - start) / 4 } });
    assert.ok((await client.languages.list()).items.length > 0);
    await sleep(2300);
    assert.ok((await client.languages.list()).items.length > 0);
    const statuses = events.map((e) => `${e.url.endsWith('/connect/token') ? 'token' : 'languages'}:${e.status}`);
    assert.deepEqual(statuses, ['token:200', 'languages:200', 'languages:401', 'token:200', 'languages:200']);
  });
});
