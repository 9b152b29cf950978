// Collections, watermarks and rules as their documented reads and writes use them (aprimo-js collections and rules
// modules): a static collection's records edited by sections, a dynamic one's found by its expression, a record's
// collections embedded, and a refusal changes nothing.
import { strict as assert } from 'node:assert';
import { describeEachBackend } from './helpers';
import { clientCredentialsToken, expectStatus, send } from '../interop/replay';

describeEachBackend('collections, watermarks and rules', {}, (env) => {
  let token = '';
  let records: string[] = [];
  const headers = (extra: Record<string, string> = {}) => ({ Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/hal+json', 'Content-Type': 'application/json', ...extra });
  const call = (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
    send(env().url, method, `/api/core/${path}`, headers(extra), body === undefined ? undefined : JSON.stringify(body));
  const ids = (items: unknown) => ((items as { id: string }[] | undefined) ?? []).map((i) => i.id);

  before(async () => {
    token = await clientCredentialsToken(env().url);
    records = ids(expectStatus(await call('GET', 'records?pageSize=3'), 200).json.items);
  });

  it('a static collection holds the records sent, and a record embeds the collections holding it', async () => {
    const made = expectStatus(await call('POST', 'collections', { name: 'Launch', description: 'Q3', type: 'static', records: { addOrUpdate: [records[0]] } }), 201);
    const id = String(made.json.id);
    assert.equal(made.json.type, 'Static');
    expectStatus(await call('PUT', `collection/${id}/records`, { records: { addOrUpdate: [records[1]] } }), 204);
    const listed = expectStatus(await call('GET', `collection/${id}/records`), 200);
    assert.deepEqual(ids(listed.json.items).sort(), [records[0], records[1]].sort());
    const record = expectStatus(await call('GET', `record/${records[1]}`, undefined, { 'select-record': 'collections' }), 200);
    const embedded = (record.json._embedded as { collections: { items: unknown[] } }).collections;
    assert.deepEqual(ids(embedded.items), [id]);
    const withRecords = expectStatus(await call('GET', `collection/${id}`, undefined, { 'select-collection': 'records,ownedby' }), 200);
    assert.equal((withRecords.json._embedded as { records: { items: unknown[] } }).records.items.length, 2);
    assert.ok((withRecords.json._embedded as { ownedby: unknown }).ownedby, 'the owner is the creating user');

    expectStatus(await call('PUT', `collection/${id}/records`, { records: { remove: [records[0]] } }), 204);
    assert.deepEqual(ids(expectStatus(await call('GET', `collection/${id}/records`), 200).json.items), [records[1]]);
  });

  it('an unknown record in a section is a 404 naming it, and the collection keeps what it had', async () => {
    const id = String(expectStatus(await call('POST', 'collections', { name: 'Kept', records: { addOrUpdate: [records[2]] } }), 201).json.id);
    const refused = expectStatus(await call('PUT', `collection/${id}/records`, { records: { addOrUpdate: [records[0], 'ffffffffffffffffffffffffffffffff'] } }), 404);
    assert.match(String(refused.json.exceptionMessage), /ffffffffffffffffffffffffffffffff/);
    assert.deepEqual(ids(expectStatus(await call('GET', `collection/${id}/records`), 200).json.items), [records[2]]);
    expectStatus(await call('PUT', `collection/${id}`, { records: 'all of them' }), 400);
  });

  it('a dynamic collection lists what its search expression finds, and refuses record edits', async () => {
    const title = String(expectStatus(await call('GET', `record/${records[0]}`), 200).json.title);
    const made = expectStatus(await call('POST', 'collections', { name: 'By title', type: 'dynamic', searchExpression: { expression: `Id = ${records[0]}` } }), 201);
    assert.equal(made.json.type, 'Dynamic');
    const listed = expectStatus(await call('GET', `collection/${made.json.id}/records`), 200);
    assert.deepEqual(ids(listed.json.items), [records[0]], `found by Id = ${records[0]} (${title})`);
    expectStatus(await call('PUT', `collection/${made.json.id}/records`, { records: { addOrUpdate: [records[1]] } }), 400);
  });

  it('updates only the members sent, and a deleted collection is gone', async () => {
    const id = String(expectStatus(await call('POST', 'collections', { name: 'Before', description: 'kept' }), 201).json.id);
    expectStatus(await call('PUT', `collection/${id}`, { name: 'After' }), 204);
    const read = expectStatus(await call('GET', `collection/${id}`), 200);
    assert.equal(read.json.name, 'After');
    assert.equal(read.json.description, 'kept');
    expectStatus(await call('DELETE', `collection/${id}`), 204);
    expectStatus(await call('GET', `collection/${id}`), 404);
    expectStatus(await call('POST', 'collections', { description: 'no name' }), 400);
  });

  it('watermarks and rules are listed, read, changed and deleted, with the members a tenant answers', async () => {
    const mark = String(expectStatus(await call('POST', 'watermarks', { name: 'Confidential' }), 201).json.id);
    const rule = String(expectStatus(await call('POST', 'rules', { name: 'Classify videos', enabled: true }), 201).json.id);
    const readMark = expectStatus(await call('GET', `watermark/${mark}`), 200).json;
    assert.equal(readMark.position, 'middlecenter', 'the catalogue default where none was sent');
    expectStatus(await call('PUT', `watermark/${mark}`, { position: 'bottomright' }), 204);
    assert.equal(expectStatus(await call('GET', `watermark/${mark}`), 200).json.position, 'bottomright');
    const readRule = expectStatus(await call('GET', `rule/${rule}`, undefined, { 'select-rule': 'tag' }), 200).json;
    assert.equal(readRule.enabled, true);
    assert.equal(readRule.trigger, 'WhenSavedOrDeleted');
    assert.equal(typeof readRule.version, 'number');
    assert.ok('tag' in readRule);
    assert.ok(ids(expectStatus(await call('GET', 'rules'), 200).json.items).includes(rule));
    expectStatus(await call('DELETE', `rule/${rule}`), 204);
    expectStatus(await call('GET', `rule/${rule}`), 404);
  });
});
