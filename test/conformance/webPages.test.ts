// The emulator's web pages (issue 27, item 5): Open in Web UI on an emulator record opened the API's JSON and
// showed a 401. `/web/record/{id}` and `/web/classification/{id}` are HTML a browser shows without a token.
import { strict as assert } from 'node:assert';
import { describeEachBackend } from './helpers';
import { webUiAddress } from '../../src/extension/explorer/nodes';

describeEachBackend('web pages', { seed: 'empty' }, (env) => {
  it('a record\'s page needs no token and shows its title, status and content type, escaped', async () => {
    const created = await env().client().records.create({ status: 'draft', title: 'Tom & <Jerry>\'s harbour' });
    const url = webUiAddress({ kind: 'emulator', endpoints: { base: env().url } }, 'record', created.id)!;
    assert.equal(url, `${env().url}/web/record/${created.id}`);
    // A browser's request: no Authorization, no API-Version.
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    const html = await res.text();
    assert.match(html, /<h1>Tom &#38; &#60;Jerry&#62;&#39;s harbour<\/h1>/);
    assert.match(html, /<th scope="row">Status<\/th><td>Draft<\/td>/i);
    assert.doesNotMatch(html, /<Jerry>/);
  });

  it('a classification\'s page, and a page for an id that is not there (404 with the error object, no 5xx)', async () => {
    const node = await env().client().classifications.create({ name: 'Harbour pages', identifier: 'harbour-pages' });
    const ok = await fetch(`${env().url}/web/classification/${node.id}`);
    assert.equal(ok.status, 200);
    assert.match(await ok.text(), /<th scope="row">Name path<\/th><td>\/Harbour pages<\/td>/);
    for (const id of ['614c068cab7c4603bbddae8200d2722a', 'not-a-guid', '%3Cscript%3E']) {
      const missing = await fetch(`${env().url}/web/record/${id}`);
      assert.equal(missing.status, 404, id);
      assert.match(((await missing.json()) as { exceptionType: string }).exceptionType, /NoDataFoundException$/);
    }
  });

  it('a tenant keeps its own web UI address', () => {
    assert.equal(webUiAddress({ kind: 'tenant', endpoints: { base: 'https://t.example/' } }, 'record', 'ab'), 'https://t.example/record/ab');
    assert.equal(webUiAddress({ kind: 'tenant', webUrl: 'https://ui.example/dam/', endpoints: { base: 'https://t.example' } }, 'classification', 'c d'), 'https://ui.example/dam/classification/c%20d');
  });
});
