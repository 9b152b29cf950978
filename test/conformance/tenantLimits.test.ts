// The tenant's limits (real-service-notes): with `tenantLimits.enforce` (`--tenant-limits`) the rate shared by all
// clients, the queue served at that rate, 429 as HTML with Retry-After when it is full, and the 20 MB single-request
// upload refused; without it every request is served and findings say what a tenant would have done. The suites use
// a small rate and queue (1 request/s, a queue of 2) so that a burst of ten shows every case, and hold the emulator's
// clock still while a burst arrives, so the counts are exact however slowly the machine lets it arrive; counts and
// statuses are asserted, never durations.
import { strict as assert } from 'node:assert';
import { describeEachBackend, USER_AGENT, type Env } from './helpers';
import { EMULATOR_CLIENT } from '../../src/core/contract';
import { FINDINGS_HEADER, parseFindingsHeader } from '../../src/core/inspector';

const RATE = 1;
const QUEUE = 2;
const BURST = 10;
const MB = 1024 * 1024;

async function token(env: Env): Promise<string> {
  const res = await fetch(`${env.url}/login/connect/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': USER_AGENT },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'api', client_id: EMULATOR_CLIENT.clientId, client_secret: EMULATOR_CLIENT.clientSecret }),
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as { access_token: string }).access_token;
}

function api(env: Env, bearer: string, path = '/api/core/languages', init: RequestInit = {}): Promise<Response> {
  return fetch(`${env.url}${path}`, { ...init, headers: { Accept: 'application/json', 'API-Version': '1', 'User-Agent': USER_AGENT, Authorization: `Bearer ${bearer}`, ...(init.headers as Record<string, string>) } });
}

/** The emulator's clock: still unless a test moves it on. */
function stillClock() {
  let now = Date.parse('2026-11-27T09:00:00Z');
  return {
    now: () => new Date(now),
    /** Moves on a minute: the bucket is full again, and the next test starts from rest. */
    rest: () => void (now += 60_000),
  };
}
const enforcedClock = stillClock();
const reportedClock = stillClock();

const codes = (res: Response) => parseFindingsHeader(res.headers.get(FINDINGS_HEADER)).map((f) => f.code);

function multipartFile(name: string, bytes: number): { body: Blob; type: string } {
  const boundary = 'dam-limits-test-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file1"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return { body: new Blob([head, new Uint8Array(bytes), `\r\n--${boundary}--\r\n`]), type: `multipart/form-data; boundary=${boundary}` };
}

describeEachBackend('tenant limits enforced (--tenant-limits)', { seed: 'empty', clock: enforcedClock, tenantLimits: { enforce: true, rate: RATE, queue: QUEUE } }, (env) => {
  let bearer = '';
  const rest = enforcedClock.rest;
  before(async () => {
    bearer = await token(env());
    rest();
  });

  it('a burst past the rate waits in the queue and is served; past the queue it is answered 429 in HTML with Retry-After', async () => {
    const answers = await Promise.all(Array.from({ length: BURST }, () => api(env(), bearer)));
    const statuses = answers.map((r) => r.status);
    // The burst a bucket holds (one second's worth) is served at once, the queue at the rate, the rest refused.
    assert.equal(statuses.filter((s) => s === 200).length, RATE + QUEUE, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 429).length, BURST - RATE - QUEUE, statuses.join(','));
    for (const res of answers.filter((r) => r.status === 429)) {
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(res.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
      const body = await res.text();
      assert.match(body, /429 Too Many Requests/);
      assert.doesNotMatch(body, /exceptionType/);
      assert.ok(codes(res).includes('DE4290'), 'the inspector explains the 429');
    }
    for (const res of answers.filter((r) => r.status === 200)) {
      assert.ok((((await res.json()) as { items: unknown[] }).items).length > 0);
      assert.ok(!codes(res).some((c) => c.startsWith('DE205')), 'an enforcing emulator queues, it does not report');
    }
    rest();
  });

  it('the token endpoint, discovery and the devtools do not count and answer while the queue is full', async () => {
    const order: string[] = [];
    const mark = (name: string) => (res: Response) => {
      order.push(`${name}:${res.status}`);
      return res;
    };
    const burst = Promise.all(Array.from({ length: BURST }, () => api(env(), bearer).then(mark('api'))));
    // Sent once the burst has filled the queue: each is answered before the queued API requests are served.
    await new Promise((resolve) => setImmediate(resolve));
    const others = await Promise.all([
      fetch(`${env().url}/login/connect/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': USER_AGENT },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'api', client_id: EMULATOR_CLIENT.clientId, client_secret: EMULATOR_CLIENT.clientSecret }),
      }).then(mark('token')),
      fetch(`${env().url}/supportedVersions`, { headers: { Accept: 'application/json', 'User-Agent': USER_AGENT } }).then(mark('discovery')),
      fetch(`${env().url}/_emulator/requests?limit=1`).then(mark('devtools')),
    ]);
    assert.deepEqual(others.map((r) => r.status), [200, 200, 200]);
    const answers = await burst;
    assert.equal(answers.filter((r) => r.status === 429).length, BURST - RATE - QUEUE, 'the others took no place in the queue');
    // The last answer is the queue's last, served at the rate (two seconds on) after everything that does not count.
    assert.equal(order.at(-1), 'api:200', order.join(' '));
    rest();
  });

  it('a single-request upload above 20 MB is refused with 413 naming the limit and the segmented upload, not 429', async () => {
    const big = multipartFile('big.bin', 20 * MB + 1);
    const refused = await api(env(), bearer, '/uploads', { method: 'POST', body: big.body, headers: { 'Content-Type': big.type } });
    assert.equal(refused.status, 413);
    const error = (await refused.json()) as { exceptionType: string; exceptionMessage: string; stackTrace: unknown; innerException: unknown };
    assert.match(error.exceptionMessage, /20 MB/);
    assert.match(error.exceptionMessage, /segment/);
    assert.equal(error.stackTrace, null);
    assert.equal(error.innerException, null);
    const small = multipartFile('small.bin', 1024);
    const taken = await api(env(), bearer, '/uploads', { method: 'POST', body: small.body, headers: { 'Content-Type': small.type } });
    assert.equal(taken.status, 200);
    assert.ok(((await taken.json()) as { token: string }).token);
    rest();
  });
});

describeEachBackend('tenant limits reported (no --tenant-limits)', { seed: 'empty', clock: reportedClock, tenantLimits: { rate: RATE, queue: QUEUE } }, (env) => {
  let bearer = '';
  const rest = reportedClock.rest;
  before(async () => {
    bearer = await token(env());
    rest();
  });

  it('a burst is served whole, each request a tenant would have queued or refused carrying a finding', async () => {
    const answers = await Promise.all(Array.from({ length: BURST }, () => api(env(), bearer)));
    assert.deepEqual(answers.map((r) => r.status), Array(BURST).fill(200));
    const found = answers.map(codes);
    assert.equal(found.filter((c) => !c.includes('DE2050') && !c.includes('DE2051')).length, RATE, found.join(' | '));
    assert.equal(found.filter((c) => c.includes('DE2050')).length, QUEUE, found.join(' | '));
    assert.equal(found.filter((c) => c.includes('DE2051')).length, BURST - RATE - QUEUE, found.join(' | '));
    const refused = parseFindingsHeader(answers.find((r) => codes(r).includes('DE2051'))!.headers.get(FINDINGS_HEADER)).find((f) => f.code === 'DE2051');
    assert.equal(refused?.severity, 'refuse');
    rest();
  });

  it('the token endpoint and the devtools get no rate finding during a burst', async () => {
    const burst = Promise.all(Array.from({ length: BURST }, () => api(env(), bearer)));
    const tokenAnswer = await fetch(`${env().url}/login/connect/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': USER_AGENT },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'api', client_id: EMULATOR_CLIENT.clientId, client_secret: EMULATOR_CLIENT.clientSecret }),
    });
    await burst;
    assert.equal(tokenAnswer.status, 200);
    assert.ok(!codes(tokenAnswer).some((c) => c.startsWith('DE205')));
    const journal = (await (await fetch(`${env().url}/_emulator/requests?limit=50`)).json()) as { items: { path: string; findings: { code: string }[] }[] };
    const counted = journal.items.filter((e) => e.findings.some((f) => f.code === 'DE2050' || f.code === 'DE2051'));
    assert.ok(counted.length > 0);
    assert.ok(counted.every((e) => e.path.startsWith('/api/')), counted.map((e) => e.path).join(', '));
    rest();
  });

  it('a single-request upload above 20 MB is taken, with a finding that a tenant refuses it', async () => {
    const big = multipartFile('big.bin', 20 * MB + 1);
    const res = await api(env(), bearer, '/uploads', { method: 'POST', body: big.body, headers: { 'Content-Type': big.type } });
    assert.equal(res.status, 200);
    assert.ok(codes(res).includes('DE2041'));
  });
});
