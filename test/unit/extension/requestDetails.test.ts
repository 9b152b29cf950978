// The Emulator Requests details document: findings first, bodies fenced so they cannot break out, reproduction last.
import { strict as assert } from 'node:assert';
import type { EntryDetail } from '../../../src/core/inspector';
import { renderEntry, statusIcon } from '../../../src/extension/inspector/details';

const entry: EntryDetail = {
  id: 7,
  time: '2026-11-25T10:00:00.000Z',
  method: 'POST',
  path: '/api/core/search/records',
  query: 'pageSize=500',
  status: 400,
  durationMs: 3.2,
  client: 'my-app/1',
  route: '/api/core/search/records',
  caller: { clientId: 'dam-emulator', userId: 1 },
  findings: [{ code: 'DE2001', severity: 'frown', message: 'pageSize 500 is above the cap of 100', advice: 'Ask for at most 100' }],
  recordId: null,
  replayOf: null,
  remoteAddress: '127.0.0.1',
  request: { headers: [['Content-Type', 'application/json'], ['Authorization', 'Bearer [scrubbed]']], body: { contentType: 'application/json', bytes: 40, text: '{"searchExpression":{"expression":"```"}}', truncated: false } },
  response: { headers: [['content-type', 'application/json']], body: { contentType: 'image/png', bytes: 10, truncated: false, note: '10 bytes of image/png, not kept' } },
  replay: { possible: true },
};

describe('request details document', () => {
  const text = renderEntry(entry, 'http://127.0.0.1:7070');

  it('leads with the status line and the findings with what to send instead', () => {
    assert.match(text, /^# 400 POST \/api\/core\/search\/records\?pageSize=500\n/);
    assert.match(text, /## Findings\n\n- \*\*Frown\*\* `DE2001` pageSize 500 is above the cap of 100\n {2}- Send instead: Ask for at most 100\n/);
  });

  it('fences a body holding backticks with a longer fence', () => {
    assert.match(text, /\n````json\n\{\n {2}"searchExpression": \{\n {4}"expression": "```"\n {2}\}\n\}\n````\n/);
  });

  it('says what was not kept, and how to reproduce', () => {
    assert.match(text, /_10 bytes of image\/png, not kept_/);
    assert.match(text, /## Reproduce\n\n`{4}sh\ncurl -sS -i -g -X POST /);
    assert.match(text, /dam search '```' --page-size 500 --url http:\/\/127\.0\.0\.1:7070/);
  });

  it('gives every 4xx (401 too) the same error icon and colour, and each class a shape of its own', () => {
    for (const status of [400, 401, 403, 404, 409, 429]) assert.deepEqual(statusIcon(status), { id: 'error', color: 'charts.red' }, String(status));
    const shapes = new Set([200, 302, 404, 0].map((s) => statusIcon(s).id));
    assert.equal(shapes.size, 4, 'success, redirect, refusal and no answer look different even without colour');
  });
});
