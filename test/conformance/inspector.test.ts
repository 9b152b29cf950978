// The request inspector over real HTTP: the journal and its filters, the findings header, scrubbing of a real
// token and secret, bodies kept or only measured, the live stream, replay, the devtools' access rules, the
// journal's bound, and `dam emulator requests`.
import { strict as assert } from 'node:assert';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { PassThrough } from 'node:stream';
import { InspectorClient } from '../../src/api/inspector';
import { main } from '../../src/cli/main';
import { EMULATOR_CLIENT } from '../../src/core/contract';
import { curlCommand, parseFindingsHeader, type EntryDetail, type EntrySummary, type JournalPage } from '../../src/core/inspector';
import { startEmulator } from '../../src/emulator/server';
import { USER_AGENT, describeEachBackend, runDam, type Env } from './helpers';

const TOKEN_FORM = `grant_type=client_credentials&scope=api&client_id=${EMULATOR_CLIENT.clientId}&client_secret=${EMULATOR_CLIENT.clientSecret}`;

async function token(url: string): Promise<string> {
  const res = await fetch(`${url}/login/connect/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': USER_AGENT }, body: TOKEN_FORM });
  return ((await res.json()) as { access_token: string }).access_token;
}

async function json<T>(res: Response): Promise<T> {
  assert.match(res.headers.get('content-type') ?? '', /json/, `${res.status} ${res.url}`);
  return (await res.json()) as T;
}

const journal = (env: Env, query = '') => fetch(`${env.url}/_emulator/requests${query}`).then((r) => json<JournalPage>(r));
const entry = (env: Env, id: number | string) => fetch(`${env.url}/_emulator/requests/${id}`).then((r) => json<EntryDetail>(r));

/** Reads server-sent events from `res` until `until` says stop (or 20 s pass). */
async function readEvents(res: Response, until: (events: { id?: string; event: string; data: string }[]) => boolean) {
  const events: { id?: string; event: string; data: string }[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const deadline = Date.now() + 20_000;
  while (!until(events) && Date.now() < deadline) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = Object.fromEntries(block.split('\n').filter((l) => !l.startsWith(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]));
      if (fields.data !== undefined) events.push({ id: fields.id, event: fields.event ?? 'message', data: fields.data });
    }
  }
  await reader.cancel();
  return events;
}

describeEachBackend('request inspector', { seed: 'empty' }, (env) => {
  let bearer = '';
  before(async () => {
    bearer = await token(env().url);
  });
  const api = (path: string, headers: Record<string, string | undefined> = {}, init: RequestInit = {}) => {
    const h: Record<string, string> = {};
    for (const [k, v] of Object.entries({ 'User-Agent': USER_AGENT, Accept: 'application/json', Authorization: `Bearer ${bearer}`, 'API-Version': '1', ...headers })) if (v !== undefined) h[k] = v;
    return fetch(`${env().url}${path}`, { ...init, headers: h });
  };

  it('journals a refused request with its findings, in the header and the entry', async () => {
    const res = await api('/api/core/records?pageSize=500', { 'API-Version': undefined });
    assert.equal(res.status, 400);
    const header = parseFindingsHeader(res.headers.get('dam-emulator-findings'));
    // The burst findings (DE2050/DE2051) depend on how fast the suite has been sending; they are not this test's point.
    assert.deepEqual(header.filter((f) => !f.code.startsWith('DE205')).map((f) => `${f.code}:${f.severity}`), ['DE1003:refuse', 'DE2001:frown']);
    const id = Number(res.headers.get('dam-emulator-request-id'));
    const detail = await entry(env(), id);
    assert.equal(detail.status, 400);
    assert.equal(detail.path, '/api/core/records');
    assert.equal(detail.query, 'pageSize=500');
    assert.equal(detail.client, USER_AGENT);
    assert.ok(detail.durationMs > 0, `duration ${detail.durationMs}`);
    assert.ok(Math.abs(Date.parse(detail.time) - Date.now()) < 60_000, detail.time);
    assert.deepEqual(detail.caller, { clientId: 'dam-emulator', userId: 1 });
    assert.equal(detail.findings[0].advice, 'Send API-Version: 1.');
    assert.match(detail.response.body?.text ?? '', /MissingHeaderException/);
  });

  it('never keeps a real token or client secret: not in headers, bodies or the query', async () => {
    const res = await fetch(`${env().url}/login/connect/token?client_secret=${EMULATOR_CLIENT.clientSecret}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': USER_AGENT },
      body: TOKEN_FORM,
    });
    const fresh = ((await res.json()) as { access_token: string }).access_token;
    const id = Number(res.headers.get('dam-emulator-request-id'));
    await api('/api/core/languages', { Authorization: `Bearer ${fresh}` });
    const page = await journal(env(), '?limit=1000');
    const everything = JSON.stringify(await Promise.all(page.items.map((e) => entry(env(), e.id))));
    for (const secret of [fresh, bearer, EMULATOR_CLIENT.clientSecret]) assert.ok(!everything.includes(secret), `the journal holds '${secret.slice(0, 6)}…'`);
    assert.match(everything, /Bearer \[scrubbed\]/);
    const tokenEntry = await entry(env(), id);
    assert.match(tokenEntry.request.body?.text ?? '', /client_secret=\[scrubbed\]/);
    assert.match(tokenEntry.response.body?.text ?? '', /"access_token":"\[scrubbed\]"/);
    assert.equal(tokenEntry.query, 'client_secret=[scrubbed]');
    assert.deepEqual(tokenEntry.findings.map((f) => f.code), ['DE1010']);
    assert.equal(tokenEntry.replay.possible, false);
  });

  it('keeps no credential however it is sent: X-Access-Token, percent-encoded form names, a token in the query; replay and curl use a fresh one', async () => {
    const fresh = await token(env().url);
    const secrets = [fresh, EMULATOR_CLIENT.clientSecret, 'pass%77ord=admin'];
    const byHeader = await fetch(`${env().url}/api/users/me`, { headers: { 'X-Access-Token': fresh, 'User-Agent': USER_AGENT, Accept: 'application/json', 'X-Unlisted-Header': 'not-kept-either' } });
    assert.equal(byHeader.status, 200);
    const headerId = Number(byHeader.headers.get('dam-emulator-request-id'));
    // The server decodes the names (client%5Fsecret is client_secret): so does the journal.
    const form = `grant_type=password&username=admin&pass%77ord=admin&client_id=${EMULATOR_CLIENT.clientId}&client%5Fsecret=${EMULATOR_CLIENT.clientSecret}&scope=api`;
    const byForm = await fetch(`${env().url}/login/connect/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': USER_AGENT }, body: form });
    assert.equal(byForm.status, 200, await byForm.clone().text());
    const formId = Number(byForm.headers.get('dam-emulator-request-id'));
    const byQuery = await api(`/api/core/languages?access%5Ftoken=${fresh}&pageSize=5`);
    const queryId = Number(byQuery.headers.get('dam-emulator-request-id'));

    const stream = new AbortController();
    const streamed = await fetch(`${env().url}/_emulator/requests/stream`, { headers: { 'Last-Event-ID': String(headerId - 1) }, signal: stream.signal });
    const events = await readEvents(streamed, (e) => e.some((x) => Number(x.id) >= queryId));
    stream.abort();
    const cli = await runDam(['emulator', 'requests', '--json', '--url', env().url]);
    const details = await Promise.all([headerId, formId, queryId].map((id) => entry(env(), id)));
    const curls = details.map((d) => curlCommand(d, env().url).command);
    const everything = JSON.stringify([await journal(env(), '?limit=1000'), details, events, cli.stdout]);
    for (const secret of secrets) assert.ok(!everything.includes(secret), `the journal holds '${secret.slice(0, 12)}…'`);
    // Copy as curl asks for a fresh token with the contract's published client secret; never the one that was sent.
    assert.ok(!curls.join().includes(fresh));

    const [headerEntry, formEntry, queryEntry] = details;
    assert.deepEqual(headerEntry.request.headers.find(([n]) => n.toLowerCase() === 'x-access-token'), ['X-Access-Token', '[scrubbed]']);
    assert.deepEqual(headerEntry.request.headers.find(([n]) => n.toLowerCase() === 'x-unlisted-header'), ['X-Unlisted-Header', '[scrubbed]']);
    assert.deepEqual(headerEntry.caller, { clientId: 'dam-emulator', userId: 1 });
    assert.match(formEntry.request.body?.text ?? '', /^grant_type=password&username=admin&pass%77ord=\[scrubbed\]&client_id=dam-emulator&client%5Fsecret=\[scrubbed\]&scope=api$/);
    assert.equal(queryEntry.query, 'access%5Ftoken=[scrubbed]&pageSize=5');
    assert.match(curls[0], /-H "x-access-token: \$\(curl -sS /i);

    // Replay: a header whose value was not kept cannot be sent again; the token header alone gets a fresh token.
    assert.equal(headerEntry.replay.possible, false);
    assert.match(headerEntry.replay.reason ?? '', /x-unlisted-header/i);
    const onlyToken = await fetch(`${env().url}/api/users/me`, { headers: { 'X-Access-Token': fresh, 'User-Agent': USER_AGENT, Accept: 'application/json' } });
    const replayed = await fetch(`${env().url}/_emulator/requests/${onlyToken.headers.get('dam-emulator-request-id')}/replay`, { method: 'POST' });
    const answer = (await replayed.json()) as { status: number; entry: EntrySummary };
    assert.equal(answer.status, 200, JSON.stringify(answer));
    assert.deepEqual(answer.entry.caller, { clientId: 'dam-emulator', userId: 1 });
  });

  it('keeps an upload body only by its size, and scrubs the sasUrl signature', async () => {
    const form = new FormData();
    form.append('file1', new Blob([Buffer.alloc(3000, 7)]), 'seven.bin');
    const res = await api('/uploads', {}, { method: 'POST', body: form });
    assert.equal(res.status, 200);
    const detail = await entry(env(), Number(res.headers.get('dam-emulator-request-id')));
    assert.equal(detail.request.body?.text, undefined);
    assert.match(detail.request.body?.note ?? '', /^[\d,]+ bytes of multipart\/form-data, not kept$/);
    assert.match(detail.response.body?.text ?? '', /"sasUrl":"[^"]*sig=\[scrubbed\]"/);
  });

  it('cuts a long body and says so', async () => {
    const expression = `Title = "${'a'.repeat(12_000)}"`;
    const res = await api('/api/core/search/records', { 'Content-Type': 'application/json' }, { method: 'POST', body: JSON.stringify({ searchExpression: { expression } }) });
    const detail = await entry(env(), Number(res.headers.get('dam-emulator-request-id')));
    assert.equal(detail.request.body?.truncated, true);
    assert.equal(detail.request.body?.text?.length, 8192);
    assert.ok((detail.request.body?.bytes ?? 0) > 12_000);
  });

  it('lists newest first and filters by status class, exact status, route, client, since and limit', async () => {
    const first = Number((await api('/api/core/languages', { 'User-Agent': 'filter-test-client/2' })).headers.get('dam-emulator-request-id'));
    await api('/api/core/recrods', { 'User-Agent': 'filter-test-client/2' });
    await api('/api/core/record/0123456789abcdef0123456789abcdef', { 'User-Agent': 'filter-test-client/2' });
    const mine = await journal(env(), `?client=FILTER-TEST&since=${first - 1}`);
    assert.deepEqual(mine.items.map((e) => e.id), [first + 2, first + 1, first]);
    assert.deepEqual((await journal(env(), `?client=filter-test&status=4xx`)).items.map((e) => e.status), [404, 404]);
    assert.deepEqual((await journal(env(), `?client=filter-test&status=200`)).items.map((e) => e.id), [first]);
    const miss = (await journal(env(), `?route=recrods`)).items[0];
    assert.equal(miss.findings[0].code, 'DE4041');
    assert.match(miss.findings[0].advice ?? '', /Did you mean GET \/api\/core\/records/);
    assert.equal((await journal(env(), `?route=/api/core/record/&status=404`)).items[0].findings[0].code, 'DE4040');
    assert.equal((await journal(env(), '?limit=2')).items.length, 2);
    const bad = await fetch(`${env().url}/_emulator/requests?status=4yy`);
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { exceptionMessage: string }).exceptionMessage, /status/);
  });

  it('leaves out a client by its User-Agent (hideClient), in the list and the stream: the VS Code extension hides its own requests', async () => {
    const first = Number((await api('/api/core/languages', { 'User-Agent': 'dam-workbench/0.1.0 vscode/1.139.0' })).headers.get('dam-emulator-request-id'));
    await api('/api/core/languages', { 'User-Agent': 'my-integration/3' });
    await api('/api/core/languages', { 'User-Agent': 'dam-workbench-cli/0.1.0' });
    const shown = await journal(env(), `?since=${first - 1}&hideClient=DAM-WORKBENCH/`);
    assert.deepEqual(shown.items.map((e) => e.client), ['dam-workbench-cli/0.1.0', 'my-integration/3']);
    const followed: EntrySummary[] = [];
    const abort = new AbortController();
    const following = new InspectorClient(env().url, { userAgent: USER_AGENT }).follow({ hideClient: 'dam-workbench/' }, { onEntry: (e) => followed.push(e) }, abort.signal, first + 2);
    const own = Number((await api('/api/core/languages', { 'User-Agent': 'dam-workbench/0.1.0 vscode/1.139.0' })).headers.get('dam-emulator-request-id'));
    const theirs = Number((await api('/api/core/languages', { 'User-Agent': 'my-integration/3' })).headers.get('dam-emulator-request-id'));
    for (let i = 0; i < 200 && !followed.some((e) => e.id === theirs); i++) await new Promise((r) => setTimeout(r, 50));
    abort.abort();
    await following.catch(() => undefined);
    assert.ok(followed.some((e) => e.id === theirs), 'the integration’s request streams');
    assert.ok(!followed.some((e) => e.id === own), 'the extension’s own request does not');
  });

  it('streams new entries as server-sent events, filtered, and resumes after Last-Event-ID', async () => {
    const controller = new AbortController();
    const res = await fetch(`${env().url}/_emulator/requests/stream?status=4xx`, { signal: controller.signal });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const reading = readEvents(res, (events) => events.length >= 1);
    await api('/api/core/languages');
    const refused = await api('/api/core/languages', { Accept: 'text/html' });
    const events = await reading;
    controller.abort();
    assert.equal(events[0].event, 'request');
    const streamed = JSON.parse(events[0].data) as EntrySummary;
    assert.equal(streamed.id, Number(refused.headers.get('dam-emulator-request-id')));
    assert.equal(events[0].id, String(streamed.id));
    assert.equal(streamed.findings[0].code, 'DE1005');

    // A reader that reconnects with the last id it saw gets what it missed at once.
    const missed = Number((await api('/api/core/recrods')).headers.get('dam-emulator-request-id'));
    const again = new AbortController();
    const resumed = await fetch(`${env().url}/_emulator/requests/stream?status=4xx`, { headers: { 'Last-Event-ID': String(streamed.id) }, signal: again.signal });
    const backlog = await readEvents(resumed, (e) => e.some((x) => Number(x.id) === missed));
    again.abort();
    assert.ok(backlog.every((e) => (JSON.parse(e.data) as EntrySummary).status >= 400));
    assert.ok(backlog.some((e) => Number(e.id) === missed));
  });

  it('the client follows the stream', async () => {
    const client = new InspectorClient(env().url);
    const stop = new AbortController();
    const got: EntrySummary[] = [];
    let opened!: () => void;
    const open = new Promise<void>((r) => (opened = r));
    const following = client.follow(
      { route: '/api/core/classifications' },
      {
        onOpen: () => opened(),
        onEntry: (e) => {
          got.push(e);
          stop.abort();
        },
      },
      stop.signal,
    );
    await open;
    await api('/api/core/classifications');
    await following;
    assert.equal(got[0].path, '/api/core/classifications');
  });

  it('replays an entry with a fresh token for the same caller, and refuses one whose body lost its secrets', async () => {
    const res = await api('/api/core/languages', { 'API-Version': '7' });
    const id = Number(res.headers.get('dam-emulator-request-id'));
    const replay = await fetch(`${env().url}/_emulator/requests/${id}/replay`, { method: 'POST' });
    assert.equal(replay.status, 200);
    const answer = (await replay.json()) as { replayOf: number; status: number; entry: EntrySummary };
    assert.equal(answer.status, 400);
    assert.equal(answer.entry.replayOf, id);
    assert.deepEqual(answer.entry.findings.map((f) => f.code).filter((c) => !c.startsWith('DE205')), ['DE1004']);
    assert.deepEqual(answer.entry.caller, { clientId: 'dam-emulator', userId: 1 });
    const ok = await api('/api/core/languages');
    const replayedOk = (await (await fetch(`${env().url}/_emulator/requests/${ok.headers.get('dam-emulator-request-id')}/replay`, { method: 'POST' })).json()) as { status: number };
    assert.equal(replayedOk.status, 200);
    const tokenEntry = (await journal(env(), '?route=/login/connect/token&limit=1')).items[0];
    const refused = await fetch(`${env().url}/_emulator/requests/${tokenEntry.id}/replay`, { method: 'POST' });
    assert.equal(refused.status, 409);
    assert.match(((await refused.json()) as { exceptionMessage: string }).exceptionMessage, /cannot be replayed: .*secret/);
  });

  it('devtools take no token, are not journaled, and refuse a rebinding Host', async () => {
    const before = await journal(env());
    const withToken = await fetch(`${env().url}/_emulator/requests?limit=1`, { headers: { Authorization: `Bearer ${bearer}` } });
    const after = (await withToken.json()) as JournalPage;
    assert.equal(after.lastId, before.lastId);
    assert.deepEqual(after.items, before.items.slice(0, 1));
    assert.equal(withToken.headers.get('dam-emulator-findings'), null);
    assert.equal((await fetch(`${env().url}/_emulator/requests/999999`)).status, 404);
    assert.equal((await journal(env())).lastId, before.lastId);
    // What a page on another site sends after rebinding its name to 127.0.0.1: its own name as Host.
    const rebound = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${env().url}/_emulator/requests`, { headers: { Host: 'attacker.example:80' } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(rebound.status, 403);
    assert.equal((JSON.parse(rebound.body) as { exceptionType: string }).exceptionType, 'Dam.Emulator.DevtoolsAccessDeniedException');
  });

  it('documents the devtools routes in /docs', async () => {
    const docs = (await (await fetch(`${env().url}/api/core/docs`)).json()) as { paths: Record<string, Record<string, { tags?: string[]; parameters?: { name: string }[] }>> };
    for (const path of ['/_emulator/requests', '/_emulator/requests/stream', '/_emulator/requests/{id}', '/_emulator/requests/{id}/replay']) assert.ok(docs.paths[path], path);
    assert.deepEqual(docs.paths['/_emulator/requests'].get.tags, ['emulator devtools']);
    assert.ok(docs.paths['/_emulator/requests'].get.parameters?.some((p) => p.name === 'status'));
    assert.ok(!docs.paths['/_emulator/requests'].get.parameters?.some((p) => p.name === 'API-Version'));
  });

  it('dam emulator requests prints one line per request with its findings under it', async () => {
    await api('/api/core/records?pageSize=5000', { 'User-Agent': 'cli-test/1' });
    const run = await runDam(['emulator', 'requests', '--client', 'cli-test', '--url', env().url]);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trimEnd().split('\n');
    assert.match(lines[0], /^#\d+ \d\d:\d\d:\d\d\.\d{3} {2}200 GET \/api\/core\/records\?pageSize=5000 {2}[\d.]+ ms {2}cli-test\/1$/);
    assert.equal(lines[1], '    frown  DE2001 pageSize 5000 is above the cap of 100 for this route: a tenant silently answers pages of 100. → Ask for at most 100 and follow nextCursor for the rest.');
    const json = await runDam(['emulator', 'requests', '--status', '4xx', '--json', '--limit', '3'], { DAM_URL: env().url });
    const entries = json.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as EntrySummary);
    assert.equal(entries.length, 3);
    assert.ok(entries.every((e) => e.status >= 400 && e.status < 500));
    assert.ok(entries[0].id < entries[2].id, 'oldest first');
    assert.equal((await runDam(['emulator', 'requests', '--status', 'bad', '--url', env().url])).code, 2);
  });

  it('dam emulator requests --follow prints requests as they come until stopped', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (b: Buffer) => (text += b.toString()));
    const stop = new AbortController();
    const running = main(['emulator', 'requests', '--follow', '--route', 'fieldgroups', '--limit', '1', '--url', env().url], { stdout: out, stderr: new PassThrough(), env: {}, signal: stop.signal });
    // Whether it lands before the command's first listing or after, it is printed: the follow resumes after the listing's last id.
    await api('/api/core/fieldgroups?pageSize=2000');
    for (let i = 0; i < 100 && !text.includes('DE2001'); i++) await new Promise((r) => setTimeout(r, 50));
    stop.abort();
    assert.equal(await running, 0);
    assert.match(text, /200 GET \/api\/core\/fieldgroups\?pageSize=2000/);
    assert.match(text, /\n {4}frown {2}DE2001 /);
  });

  it('cannot reach a journal where there is none: says so and exits 1', async () => {
    const run = await runDam(['emulator', 'requests', '--url', 'http://127.0.0.1:9']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /Cannot reach the emulator at http:\/\/127\.0\.0\.1:9/);
  });
});

describe('request inspector: bounds', function () {
  this.timeout(120_000);

  it('keeps only --journal-size entries', async () => {
    const emulator = await startEmulator({ port: 0, data: ':memory:', seed: 'empty', journalSize: 3 });
    try {
      for (let i = 0; i < 6; i++) await fetch(`${emulator.url}/api/core/`, { headers: { 'User-Agent': USER_AGENT, Accept: 'application/json' } });
      const page = (await (await fetch(`${emulator.url}/_emulator/requests`)).json()) as JournalPage;
      assert.equal(page.capacity, 3);
      assert.equal(page.size, 3);
      assert.deepEqual(page.items.map((e) => e.id), [6, 5, 4]);
      assert.equal((await fetch(`${emulator.url}/_emulator/requests/1`)).status, 404);
    } finally {
      await emulator.close();
    }
  });

  it('takes a bounded number of stream readers, and drops one that reads nothing once its buffer is full', async () => {
    const emulator = await startEmulator({ port: 0, data: ':memory:', seed: 'empty', streamReaders: 2 });
    const reading = new AbortController();
    try {
      const origin = new URL(emulator.url);
      // A reader that never reads: a socket paused from the start.
      const idle = connect({ host: origin.hostname, port: Number(origin.port) });
      await once(idle, 'connect');
      idle.write(`GET /_emulator/requests/stream HTTP/1.1\r\nHost: ${origin.host}\r\n\r\n`);
      idle.pause();
      const idleClosed = once(idle, 'close');
      // A reader that reads all along.
      const live = await fetch(`${emulator.url}/_emulator/requests/stream`, { signal: reading.signal });
      assert.equal(live.status, 200);
      void (async () => {
        const r = live.body!.getReader();
        while (!(await r.read()).done);
      })().catch(() => undefined);

      const refused = await fetch(`${emulator.url}/_emulator/requests/stream`);
      assert.equal(refused.status, 503);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      const body = (await refused.json()) as Record<string, unknown>;
      assert.equal(body.exceptionType, 'Dam.Emulator.DevtoolsBusyException');
      assert.match(String(body.exceptionMessage), /has 2 readers already/);
      assert.equal(body.stackTrace, null);

      // Large entries until the idle reader's buffers are full and it is dropped: its place is then free again.
      const pad = 'p'.repeat(30_000);
      let opened: Response | undefined;
      for (let round = 0; round < 100 && !opened; round++) {
        await Promise.all(Array.from({ length: 10 }, () => fetch(`${emulator.url}/api/core/?pad=${pad}`, { headers: { 'User-Agent': USER_AGENT, Accept: 'application/json' } }).then((r) => r.arrayBuffer())));
        const again = await fetch(`${emulator.url}/_emulator/requests/stream`, { signal: reading.signal });
        if (again.status === 200) opened = again;
        else await again.arrayBuffer();
      }
      assert.ok(opened, 'the idle reader was never dropped');
      // What was waiting for it went with its connection: it reads what got through, then the end.
      idle.resume();
      await idleClosed;
    } finally {
      reading.abort();
      await emulator.close();
    }
  });

  it('--journal-size 0 turns the inspector off', async () => {
    const emulator = await startEmulator({ port: 0, data: ':memory:', seed: 'empty', journalSize: 0 });
    try {
      const res = await fetch(`${emulator.url}/api/core/records`, { headers: { 'User-Agent': USER_AGENT, Accept: 'application/json' } });
      assert.equal(res.status, 401);
      assert.equal(res.headers.get('dam-emulator-findings'), null);
      assert.equal((await fetch(`${emulator.url}/_emulator/requests`)).status, 404);
      const run = await runDam(['emulator', 'requests', '--url', emulator.url]);
      assert.equal(run.code, 1);
      assert.match(run.stderr, /has no request journal/);
    } finally {
      await emulator.close();
    }
  });
});
