// Copy as curl and Copy as dam command: what a journal entry turns back into.
import { strict as assert } from 'node:assert';
import { curlCommand, damCommand, shellQuote, type EntryDetail } from '../../../src/core/inspector';

const ORIGIN = 'http://127.0.0.1:7070';

function entry(over: Partial<EntryDetail>): EntryDetail {
  return {
    id: 1,
    time: new Date(0).toISOString(),
    method: 'GET',
    path: '/api/core/records',
    query: '',
    status: 200,
    durationMs: 1,
    client: 'app/1',
    route: null,
    caller: null,
    findings: [],
    recordId: null,
    replayOf: null,
    remoteAddress: '127.0.0.1',
    request: { headers: [], body: null },
    response: { headers: [], body: null },
    replay: { possible: true },
    ...over,
  };
}

describe('Copy as curl', () => {
  it('sends the headers as sent, a fresh token for a contract client, and keeps missing headers missing', () => {
    const { command, notes } = curlCommand(
      entry({
        query: 'pageSize=5',
        caller: { clientId: 'dam-emulator', userId: 1 },
        request: { headers: [['Host', '127.0.0.1:7070'], ['Authorization', 'Bearer [scrubbed]'], ['Content-Length', '0'], ['X-Trace', "it's"]], body: null },
      }),
      ORIGIN,
    );
    assert.equal(notes.length, 0);
    assert.match(command, /^curl -sS -i -g 'http:\/\/127\.0\.0\.1:7070\/api\/core\/records\?pageSize=5' /);
    assert.match(command, / -H 'X-Trace: it'\\''s' /);
    assert.match(command, / -H User-Agent: -H Accept: /);
    assert.match(command, /-H "Authorization: Bearer \$\(curl -sS http:\/\/127\.0\.0\.1:7070\/login\/connect\/token -d grant_type=client_credentials -d scope=api -d client_id=dam-emulator -d client_secret=dam-emulator-secret \| sed -E/);
    assert.doesNotMatch(command, /Host:|Content-Length/);
  });

  it('sends the body raw and names the method', () => {
    const { command } = curlCommand(
      entry({ method: 'POST', path: '/api/core/search/records', request: { headers: [['Content-Type', 'application/json'], ['User-Agent', 'a'], ['Accept', '*/*']], body: { contentType: 'application/json', bytes: 9, text: '{"a":"b"}', truncated: false } } }),
      ORIGIN,
    );
    assert.match(command, / -X POST /);
    assert.match(command, / --data-raw '\{"a":"b"\}'$/);
  });

  it('says what it cannot reproduce', () => {
    const { notes } = curlCommand(
      entry({ method: 'POST', path: '/uploads', request: { headers: [['Authorization', 'Bearer [scrubbed]']], body: { contentType: 'multipart/form-data', bytes: 10, truncated: false, note: '10 bytes of multipart/form-data, not kept' } } }),
      ORIGIN,
    );
    assert.equal(notes.length, 2);
    assert.match(notes.join(' '), /Authorization header is sent as scrubbed/);
    assert.match(notes.join(' '), /not kept/);
  });

  it('quotes words for a POSIX shell', () => {
    assert.equal(shellQuote('plain-word_1.2'), 'plain-word_1.2');
    assert.equal(shellQuote("a b'c"), "'a b'\\''c'");
  });
});

describe('Copy as dam command', () => {
  it('maps a content-API read to dam get with its select headers', () => {
    const cmd = damCommand(entry({ path: '/api/core/record/abc', query: 'x=1', request: { headers: [['select-record', 'fields, files'], ['Accept', 'application/json']], body: null } }), ORIGIN);
    assert.equal(cmd, "dam get 'record/abc?x=1' --select record=fields,files --plain --url http://127.0.0.1:7070");
  });

  it('maps a records search to dam search', () => {
    const body = JSON.stringify({ searchExpression: { expression: 'Title = @t', namedParameters: { t: 'x' } } });
    const cmd = damCommand(entry({ method: 'POST', path: '/api/core/search/records', query: 'pageSize=5', request: { headers: [], body: { contentType: 'application/json', bytes: body.length, text: body, truncated: false } } }), ORIGIN);
    assert.equal(cmd, "dam search 'Title = @t' --param t=x --page-size 5 --url http://127.0.0.1:7070");
  });

  it('maps string lookups, renditions and delegation', () => {
    const text = (o: unknown) => ({ contentType: 'application/json', bytes: 1, text: JSON.stringify(o), truncated: false });
    assert.equal(
      damCommand(entry({ method: 'POST', path: '/api/resources/query', request: { headers: [], body: text({ query: 'mo-a-1,mo-b-2' }) } }), ORIGIN),
      'dam strings resolve mo-a-1 mo-b-2 --url http://127.0.0.1:7070',
    );
    assert.equal(
      damCommand(entry({ method: 'POST', path: '/api/core/maintenancejobs', request: { headers: [], body: text({ type: 'record', targets: [{ recordId: 'r1' }], actions: [{ action: 'CreateRenditions', parameters: { presets: ['web'] } }] }) } }), ORIGIN),
      'dam renditions r1 --preset web --url http://127.0.0.1:7070',
    );
    assert.equal(
      damCommand(entry({ method: 'POST', path: '/api/tasks/5001/delegate', request: { headers: [], body: text({ taskAssigneeId: 7, newUserId: 2 }) } }), ORIGIN),
      'dam tasks delegate 5001 --to 2 --assignee 7 --url http://127.0.0.1:7070',
    );
  });

  it('has none for a route the CLI does not cover', () => {
    assert.equal(damCommand(entry({ method: 'DELETE', path: '/api/core/record/abc' }), ORIGIN), undefined);
  });
});
