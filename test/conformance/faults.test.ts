// The client against an emulator started with --faults: 429 (HTML, Retry-After) and 504 (HTML)
// are never parsed as JSON, are retried within bounds, and a long walk still completes.
import { strict as assert } from 'node:assert';
import { describeEachBackend, failure } from './helpers';
import { ApiError } from '../../src/api/errors';
import { collect } from '../../src/api/paging';

describeEachBackend('faults: every API call answers 429', { seed: 'empty', faults: { rate: 1, kinds: ['429'] } }, (env) => {
  it('429 comes as HTML with Retry-After; the client waits, retries, then reports it readably', async () => {
    env().events.length = 0;
    const client = env().client({ retry: { retries: 1 } });
    const err = await failure<ApiError>(() => client.languages.list());
    assert.ok(err instanceof ApiError, `an ApiError, not a JSON parse error: ${String(err)}`);
    assert.equal(err.status, 429);
    assert.equal(err.retryAfterMs, 1000);
    assert.match(err.bodyExcerpt ?? '', /Too Many Requests/);
    assert.equal(err.exceptionType, undefined);
    assert.deepEqual(env().events.filter((e) => e.url.endsWith('/languages')).map((e) => [e.status, e.attempt]), [[429, 0], [429, 1]]);
  });

  it('a Retry-After beyond the caller’s bound is not waited for', async () => {
    env().events.length = 0;
    const client = env().client({ retry: { retries: 3, maxRetryAfterMs: 500 } });
    const err = await failure<ApiError>(() => client.languages.list());
    assert.equal(err.status, 429);
    assert.equal(env().events.filter((e) => e.url.endsWith('/languages')).length, 1);
  });

  it('the token endpoint is not rate limited, so authentication still works', async () => {
    const token = await env().client().tokens.getToken();
    assert.ok(token.length > 0);
  });
});

describeEachBackend('faults: every API call answers 504', { seed: 'empty', faults: { rate: 1, kinds: ['504'] } }, (env) => {
  it('a GET is retried with backoff, then the 504 is reported without parsing HTML', async () => {
    env().events.length = 0;
    const client = env().client({ retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 20 } });
    const err = await failure<ApiError>(() => client.languages.list());
    assert.equal(err.status, 504);
    assert.match(err.bodyExcerpt ?? '', /Gateway Timeout/);
    assert.equal(env().events.filter((e) => e.url.endsWith('/languages')).length, 3);
  });

  it('a create (POST) is not repeated after a 504: it may have happened', async () => {
    env().events.length = 0;
    const client = env().client({ retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 20 } });
    const err = await failure<ApiError>(() => client.records.create({ title: 'maybe created' }));
    assert.equal(err.status, 504);
    assert.equal(env().events.filter((e) => e.url.endsWith('/record')).length, 1);
  });
});

describeEachBackend('faults: 30 % of API calls fail', { seed: 'demo', faults: { rate: 0.3 } }, (env) => {
  it('a cursor walk over every record completes through retries', async () => {
    env().events.length = 0;
    const client = env().client({ retry: { retries: 12, baseDelayMs: 5, maxDelayMs: 50 } });
    const pages = await collect(client.records.cursorPages({ pageSize: 100, plain: true }));
    const items = pages.flatMap((p) => p.items);
    assert.equal(items.length, pages[0].totalCount);
    assert.equal(new Set(items.map((r) => r.id)).size, items.length);
  });

  it('a search walk completes too (search is safe to repeat)', async () => {
    const client = env().client({ retry: { retries: 12, baseDelayMs: 5, maxDelayMs: 50 } });
    const items = await collect(client.search.recordItems({ expression: 'ContentType = Video', pageSize: 100 }));
    assert.ok(items.length > 0);
    assert.equal(new Set(items.map((r) => r.id)).size, items.length);
  });
});
