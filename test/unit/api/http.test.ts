// The request function's policy (headers, 401 renewal, backoff, media types, timeouts) over a
// scripted transport: each test lists the answers the network gives, in order.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { DEFAULT_RETRY, HttpClient, parseRetryAfter, retryDelay, type FetchInitLike, type FetchLike, type FetchResponseLike, type RequestEvent } from '../../../src/api/http';
import { ApiError, NetworkError, ResponseShapeError } from '../../../src/api/errors';
import { emulatorEndpoints } from '../../../src/api/endpoints';
import type { TokenProvider } from '../../../src/api/auth';

type Answer = { status: number; type?: string; body?: string; headers?: Record<string, string> } | 'network-error' | 'hang';

interface Sent {
  url: string;
  init: FetchInitLike;
}

function transport(answers: Answer[]): { fetch: FetchLike; sent: Sent[] } {
  const sent: Sent[] = [];
  const fetch: FetchLike = async (url, init) => {
    sent.push({ url, init });
    const answer = answers.shift();
    if (answer === undefined) throw new Error('test transport: no answer left');
    if (answer === 'network-error') throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    if (answer === 'hang') {
      return new Promise<FetchResponseLike>((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    }
    const headers = new Map(Object.entries({ 'content-type': answer.type ?? 'application/hal+json', ...answer.headers }).map(([k, v]) => [k.toLowerCase(), v]));
    return {
      status: answer.status,
      headers: { get: (name: string) => headers.get(name.toLowerCase()) ?? null },
      text: async () => answer.body ?? '',
      arrayBuffer: async () => new TextEncoder().encode(answer.body ?? '').buffer as ArrayBuffer,
    };
  };
  return { fetch, sent };
}

class CountingTokens implements TokenProvider {
  issued = 0;
  invalidated: string[] = [];
  private current: string | undefined;
  async getToken(): Promise<string> {
    this.current ??= `token-${++this.issued}`;
    return this.current;
  }
  invalidate(token?: string): void {
    if (token) this.invalidated.push(token);
    this.current = undefined;
  }
}

const HTML_429 = '<html><body><h1>429 Too Many Requests</h1></body></html>';

function client(answers: Answer[], extra: { tokens?: TokenProvider; timeoutMs?: number } = {}) {
  const { fetch, sent } = transport(answers);
  const delays: number[] = [];
  const events: RequestEvent[] = [];
  const http = new HttpClient({
    endpoints: emulatorEndpoints('http://dam.test'),
    userAgent: 'dam-workbench-test/1',
    fetch,
    tokenProvider: extra.tokens ?? new CountingTokens(),
    timeoutMs: extra.timeoutMs,
    random: () => 0.5,
    sleep: async (ms) => {
      delays.push(ms);
    },
    onRequest: (e) => events.push(e),
  });
  return { http, sent, delays, events };
}

describe('http request', () => {
  it('sends API-Version, Accept, User-Agent and the bearer token', async () => {
    const { http, sent } = client([{ status: 200, body: '{"id":"a"}' }]);
    const res = await http.request({ path: '/record/a' });
    assert.deepEqual(res.data, { id: 'a' });
    assert.equal(sent[0].url, 'http://dam.test/api/core/record/a');
    assert.equal(sent[0].init.headers['API-Version'], '1');
    assert.equal(sent[0].init.headers.Accept, 'application/hal+json');
    assert.equal(sent[0].init.headers['User-Agent'], 'dam-workbench-test/1');
    assert.equal(sent[0].init.headers.Authorization, 'Bearer token-1');
  });

  it('leaves out API-Version and Authorization for exempt endpoints', async () => {
    const { http, sent } = client([{ status: 200, body: '{}' }]);
    await http.request({ path: '/supportedVersions', auth: false, apiVersion: false });
    assert.equal(sent[0].init.headers['API-Version'], undefined);
    assert.equal(sent[0].init.headers.Authorization, undefined);
    assert.equal(sent[0].init.headers['User-Agent'], 'dam-workbench-test/1');
  });

  it('never sends the bearer token to a host outside the profile', async () => {
    const { http, sent } = client([{ status: 200, body: '{}' }, { status: 200, body: '{}' }]);
    await http.request({ url: 'https://cdn.example.com/file?sig=1' });
    await http.request({ url: 'http://dam.test/api/core/record/1' });
    assert.equal(sent[0].init.headers.Authorization, undefined);
    assert.equal(sent[1].init.headers.Authorization, 'Bearer token-1');
  });

  it('resolves link hrefs against the endpoint address', async () => {
    const { http } = client([]);
    assert.equal(http.urlFor({ url: '/api/core/record/1/fields' }), 'http://dam.test/api/core/record/1/fields');
    assert.equal(http.urlFor({ url: 'https://cdn.test/x?y=1' }), 'https://cdn.test/x?y=1');
    assert.equal(http.urlFor({ path: '/records', query: { filter: "Title = 'a b'", pageSize: 5, skip: undefined } }), "http://dam.test/api/core/records?filter=Title+%3D+%27a+b%27&pageSize=5");
    assert.equal(http.urlFor({ endpoint: 'auth', path: '/login/connect/token' }), 'http://dam.test/login/connect/token');
  });

  it('on 401 drops the token and retries once with a fresh one', async () => {
    const tokens = new CountingTokens();
    const { http, sent } = client([{ status: 401, body: '' }, { status: 200, body: '{"ok":true}' }], { tokens });
    await http.request({ path: '/records' });
    assert.deepEqual(tokens.invalidated, ['token-1']);
    assert.equal(sent[1].init.headers.Authorization, 'Bearer token-2');
  });

  it('a second 401 is the caller’s: no loop', async () => {
    const errorBody = JSON.stringify({ exceptionType: 'Unauthorized', exceptionMessage: 'token expired' });
    const { http, sent } = client([{ status: 401, type: 'application/json', body: errorBody }, { status: 401, type: 'application/json', body: errorBody }]);
    await assert.rejects(http.request({ path: '/records' }), (err: ApiError) => err.status === 401 && err.exceptionMessage === 'token expired');
    assert.equal(sent.length, 2);
  });

  it('429 with HTML is never parsed as JSON and is retried after Retry-After plus jitter', async () => {
    const { http, delays } = client([{ status: 429, type: 'text/html', body: HTML_429, headers: { 'Retry-After': '2' } }, { status: 200, body: '{"ok":true}' }]);
    const res = await http.request({ method: 'POST', path: '/search/records', json: {} });
    assert.deepEqual(res.data, { ok: true });
    assert.deepEqual(delays, [2200]);
  });

  it('429 answered as HTML even when it claims JSON does not crash the client', async () => {
    const noRetry = new HttpClient({ endpoints: emulatorEndpoints('http://dam.test'), userAgent: 'x', fetch: transport([{ status: 429, type: 'application/json', body: HTML_429 }]).fetch, retry: { retries: 0 } });
    await assert.rejects(noRetry.request({ path: '/records', auth: false }), (err: ApiError) => err.status === 429 && err.bodyExcerpt === '429 Too Many Requests');
  });

  it('gives up at once when Retry-After is beyond the bound', async () => {
    const { http, delays } = client([{ status: 429, type: 'text/html', body: HTML_429, headers: { 'Retry-After': '3600' } }]);
    await assert.rejects(http.request({ path: '/records' }), (err: ApiError) => err.status === 429 && err.retryAfterMs === 3_600_000);
    assert.deepEqual(delays, []);
  });

  it('stops after the retry budget and reports the last answer', async () => {
    const answers: Answer[] = Array.from({ length: DEFAULT_RETRY.retries + 1 }, () => ({ status: 504, type: 'text/html', body: '<h1>Gateway Timeout</h1>' }));
    const { http, sent, delays } = client(answers);
    await assert.rejects(http.request({ path: '/records' }), (err: ApiError) => err.status === 504 && err.bodyExcerpt === 'Gateway Timeout');
    assert.equal(sent.length, DEFAULT_RETRY.retries + 1);
    assert.deepEqual(delays, [150, 300, 600, 1200]);
  });

  it('does not retry a 504 on a non-idempotent POST', async () => {
    const { http, sent } = client([{ status: 504, type: 'text/html', body: '<h1>Gateway Timeout</h1>' }]);
    await assert.rejects(http.request({ method: 'POST', path: '/record', json: { title: 'x' } }), (err: ApiError) => err.status === 504);
    assert.equal(sent.length, 1);
  });

  it('retries network errors for idempotent requests only', async () => {
    const get = client(['network-error', { status: 200, body: '{}' }]);
    await get.http.request({ path: '/records' });
    assert.equal(get.sent.length, 2);
    const post = client(['network-error']);
    await assert.rejects(post.http.request({ method: 'POST', path: '/record', json: {} }), NetworkError);
    assert.equal(post.sent.length, 1);
  });

  it('a 2xx HTML page is a shape error, not a JSON parse crash', async () => {
    const { http } = client([{ status: 200, type: 'text/html', body: '<html>Sign in</html>' }]);
    await assert.rejects(http.request({ path: '/records' }), (err: Error) => err instanceof ResponseShapeError && /text\/html instead of JSON: Sign in/.test(err.message));
  });

  it('4xx JSON bodies become ApiError with exceptionType and exceptionMessage', async () => {
    const body = JSON.stringify({ exceptionMessage: 'Use /search/records', exceptionType: 'Dam.RouteGoneException', stackTrace: null });
    const { http } = client([{ status: 410, type: 'application/json; charset=utf-8', body }]);
    await assert.rejects(http.request({ path: '/api/oauth/create-token' }), (err: ApiError) => err.status === 410 && err.exceptionType === 'Dam.RouteGoneException' && /Use \/search\/records/.test(err.message));
  });

  it('times out a hanging attempt, retries it, then reports a timeout', async () => {
    const { http, sent } = client(['hang', 'hang', 'hang', 'hang', 'hang'], { timeoutMs: 20 });
    await assert.rejects(http.request({ path: '/records' }), (err: NetworkError) => err instanceof NetworkError && err.timedOut);
    assert.equal(sent.length, DEFAULT_RETRY.retries + 1);
  });

  it('an aborted signal stops at once with its reason', async () => {
    const controller = new AbortController();
    const { http, sent } = client(['hang']);
    const pending = http.request({ path: '/records', signal: controller.signal });
    setImmediate(() => controller.abort(new Error('user cancelled')));
    await assert.rejects(pending, /user cancelled/);
    assert.equal(sent.length, 1);
  });

  it('request events carry no secrets', async () => {
    const { http, events } = client([{ status: 401, body: '' }, { status: 200, type: 'application/json', body: '{"access_token":"abc"}' }]);
    await http.request({ endpoint: 'auth', method: 'POST', path: '/login/connect/token', query: { code: 'c0de' }, form: { client_secret: 's3cret', password: 'pw' } });
    assert.deepEqual(events.map((e) => [e.status, e.attempt]), [[401, 0], [200, 0]]);
    const text = JSON.stringify(events);
    for (const secret of ['c0de', 's3cret', 'pw', 'abc', 'token-1', 'Bearer']) assert.ok(!text.includes(secret), `${secret} leaked: ${text}`);
    assert.equal(events[0].url, 'http://dam.test/login/connect/token?code=***');
  });
});

describe('retry timing', () => {
  it('Retry-After as seconds and as HTTP date', () => {
    assert.equal(parseRetryAfter('3'), 3000);
    assert.equal(parseRetryAfter('Thu, 01 Jan 1970 00:00:10 GMT', 4000), 6000);
    assert.equal(parseRetryAfter('soon'), undefined);
    assert.equal(parseRetryAfter(null), undefined);
  });

  it('honours Retry-After: at least what was asked, at most 20 % more, never past the bound', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 60_000 }), fc.double({ min: 0, max: 0.9999, noNaN: true }), (attempt, after, r) => {
        const delay = retryDelay(attempt, after, DEFAULT_RETRY, () => r);
        if (after > DEFAULT_RETRY.maxRetryAfterMs) return delay === undefined;
        return delay !== undefined && delay >= after && delay <= Math.min(after * 1.2 + 1, DEFAULT_RETRY.maxRetryAfterMs);
      }),
    );
  });

  it('without Retry-After backs off exponentially with jitter under the cap', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.double({ min: 0, max: 0.9999, noNaN: true }), (attempt, r) => {
        const ceiling = Math.min(DEFAULT_RETRY.maxDelayMs, DEFAULT_RETRY.baseDelayMs * 2 ** attempt);
        const delay = retryDelay(attempt, undefined, DEFAULT_RETRY, () => r)!;
        return delay >= Math.floor(ceiling / 2) && delay <= ceiling;
      }),
    );
  });
});

describe('the decoration lane', () => {
  it('sends decorations within a lane of a third of the tenant’s rate, two at a time, and other requests outside it', async () => {
    const { fetch } = transport(Array.from({ length: 40 }, () => ({ status: 200, body: '{}' })));
    // What the lane held when each request went out.
    const laneAtSend: number[] = [];
    const lane = { of: undefined as HttpClient | undefined };
    const http: HttpClient = new HttpClient({
      endpoints: emulatorEndpoints('http://dam.test'),
      userAgent: 'x',
      tokenProvider: new CountingTokens(),
      fetch: (url, init) => {
        laneAtSend.push(lane.of!.decorationPacer.active);
        return fetch(url, init);
      },
    });
    lane.of = http;
    assert.deepEqual(http.decorationPacer.options, { ratePerSecond: 5, maxInFlight: 2, burst: 1 });
    await http.asDecoration(() => Promise.all(Array.from({ length: 6 }, (_, i) => http.request({ path: `/record/${i}/thumbnail` }))));
    assert.equal(laneAtSend.length, 6);
    assert.ok(laneAtSend.every((n) => n >= 1 && n <= 2), `lane at send: ${laneAtSend.join(', ')}`);
    laneAtSend.length = 0;
    await Promise.all(Array.from({ length: 4 }, (_, i) => http.request({ path: `/record/${i}` })));
    assert.deepEqual(laneAtSend, [0, 0, 0, 0], 'a row’s request took a turn of the decoration lane');
  });
});
