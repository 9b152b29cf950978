// What the SDK's content modules and the service's documentation read and write beside records (issue 36), as they use
// it: public links made, changed and deleted for a version and a rendition; renditions; file types and setting
// categories the tenant has and those created; a file checked out and in; a draft record; a download order's link;
// content subscriptions to a record and a collection (the service's contentsubscriptions page).
import { strict as assert } from 'node:assert';
import { describeEachBackend } from './helpers';
import { clientCredentialsToken, expectStatus, send } from '../interop/replay';

type Json = Record<string, unknown>;

describeEachBackend('documented content resources (publishing, file types, setting categories, check-out)', {}, (env) => {
  let token = '';
  let record = '';
  let version = '';
  let file = '';
  const headers = (extra: Record<string, string> = {}) => ({ Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/hal+json', 'Content-Type': 'application/json', ...extra });
  const call = (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
    send(env().url, method, `/api/core/${path}`, headers(extra), body === undefined ? undefined : JSON.stringify(body));
  const items = (j: Json) => (j.items as Json[] | undefined) ?? [];

  before(async function () {
    this.timeout(120_000);
    token = await clientCredentialsToken(env().url);
    record = String(items(expectStatus(await call('GET', `records?filter=${encodeURIComponent('FileCount > 0')}&pageSize=1`), 200).json)[0].id);
    const read = expectStatus(await call('GET', `record/${record}`, undefined, { 'select-record': 'masterfile,masterfilelatestversion' }), 200).json._embedded as Record<string, Json>;
    file = String(read.masterfile.id);
    version = String(read.masterfilelatestversion.id);
  });

  it('a public link for a version is listed on it, embedded, changed (not its target) and deleted', async () => {
    const made = expectStatus(await call('POST', 'publiclinks', { fileVersionId: version, uri: 'https://cdn.example.com/a.jpg', provider: 'ExampleCDN', fileSize: 1234 }), 201).json;
    const id = String(made.id);
    assert.equal(made.recordId, record, 'the link names the record its version belongs to');
    assert.equal(made.fileVersionId, version);
    assert.equal(made.additionalFileId, null);
    assert.equal(made.origin, 'Api');
    assert.equal(made.status, 'Published');
    assert.deepEqual(items(expectStatus(await call('GET', `fileversion/${version}/publiclinks`), 200).json).map((l) => l.id), [id]);
    const embedded = (expectStatus(await call('GET', `fileversion/${version}`, undefined, { 'select-fileversion': 'publiclinks' }), 200).json._embedded as Record<string, Json>).publiclinks;
    assert.deepEqual(items(embedded).map((l) => l.uri), ['https://cdn.example.com/a.jpg']);

    expectStatus(await call('PUT', `publiclink/${id}`, { uri: 'https://cdn.example.com/b.jpg' }), 204);
    assert.equal(expectStatus(await call('GET', `publiclink/${id}`), 200).json.uri, 'https://cdn.example.com/b.jpg');
    const moved = expectStatus(await call('PUT', `publiclink/${id}`, { recordId: 'ffffffffffffffffffffffffffffffff' }), 400);
    assert.match(String(moved.json.exceptionMessage), /cannot be changed/);

    expectStatus(await call('DELETE', `publiclink/${id}`), 204);
    expectStatus(await call('GET', `publiclink/${id}`), 404);
    assert.equal(items(expectStatus(await call('GET', `fileversion/${version}/publiclinks`), 200).json).length, 0);
  });

  it('a public link names exactly one target that exists, and a uri and a provider', async () => {
    assert.match(String(expectStatus(await call('POST', 'publiclinks', { uri: 'https://x/y', provider: 'p' }), 400).json.exceptionMessage), /exactly one target/);
    assert.match(String(expectStatus(await call('POST', 'publiclinks', { recordId: record, fileVersionId: version, uri: 'https://x/y', provider: 'p' }), 400).json.exceptionMessage), /exactly one target/);
    assert.match(String(expectStatus(await call('POST', 'publiclinks', { recordId: 'ffffffffffffffffffffffffffffffff', uri: 'https://x/y', provider: 'p' }), 400).json.exceptionMessage), /No record/);
    assert.match(String(expectStatus(await call('POST', 'publiclinks', { recordId: record, provider: 'p' }), 400).json.exceptionMessage), /uri/);
  });

  it('a version\'s renditions are the additional files its renditions job made, with the public links made for them', async function () {
    this.timeout(120_000);
    const job = expectStatus(await call('POST', 'maintenancejobs', { type: 'record', targets: [{ recordId: record }], actions: [{ action: 'CreateRenditions', parameters: { presets: ['thumbnail'] } }] }), 201);
    for (let i = 0; i < 1200; i++) {
      const status = String(expectStatus(await call('GET', `maintenancejob/${String(job.json.id)}`), 200).json.status);
      if (['Success', 'Failed', 'PartiallyFailed'].includes(status)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const additional = items(expectStatus(await call('GET', `fileversion/${version}/additionalfiles`), 200).json);
    const renditions = items(expectStatus(await call('GET', `fileversion/${version}/renditions`), 200).json);
    assert.ok(renditions.length > 0, 'the job made a rendition');
    assert.deepEqual(renditions.map((r) => r.id).sort(), additional.map((a) => a.id).sort());
    const rendition = renditions[0];
    const link = expectStatus(await call('POST', 'publiclinks', { additionalFileId: rendition.id, uri: 'https://cdn.example.com/r.png', provider: 'ExampleCDN' }), 201).json;
    assert.equal(link.fileVersionId, version);
    const read = expectStatus(await call('GET', `rendition/${String(rendition.id)}`, undefined, { 'select-rendition': 'publishedUri,uri,publiclinks' }), 200).json;
    assert.equal(read.publishedUri, 'https://cdn.example.com/r.png');
    assert.match(String(read.uri), /\/download\?/);
    assert.deepEqual(items((read._embedded as Record<string, Json>).publiclinks).map((l) => l.id), [link.id]);
    const viaAdditional = expectStatus(await call('GET', `additionalfile/${String(rendition.id)}`, undefined, { 'select-additionalfile': 'publiclink' }), 200).json;
    assert.equal(((viaAdditional._embedded as Record<string, Json>).publiclink as Json).id, link.id);
    expectStatus(await call('DELETE', `publiclink/${String(link.id)}`), 204);
    expectStatus(await call('GET', 'rendition/ffffffffffffffffffffffffffffffff'), 404);
  });

  it('the tenant has a file type for each extension its versions have; one is created, changed and deleted', async () => {
    const versionRead = expectStatus(await call('GET', `fileversion/${version}`, undefined, { 'select-fileversion': 'filetype' }), 200).json;
    const type = (versionRead._embedded as Record<string, Json>).filetype;
    assert.equal(type.extension, String(versionRead.fileExtension).toLowerCase());
    const listed = items(expectStatus(await call('GET', 'filetypes?pageSize=500'), 200).json);
    assert.ok(listed.some((t) => t.id === type.id), 'the version\'s file type is listed');
    assert.equal(expectStatus(await call('GET', `filetype/${String(type.id)}`), 200).json.extension, type.extension);
    assert.match(String(expectStatus(await call('DELETE', `filetype/${String(type.id)}`), 400).json.exceptionMessage), /cannot be deleted/);
    expectStatus(await call('POST', 'filetypes', { name: 'Again', extension: String(type.extension) }), 409);

    const made = expectStatus(await call('POST', 'filetypes', { name: 'WebP', extension: 'webpx', mimeType: 'image/webp', kind: 'Image' }), 201).json;
    expectStatus(await call('PUT', `filetype/${String(made.id)}`, { previewFormat: 'Png' }), 204);
    const changed = expectStatus(await call('GET', `filetype/${String(made.id)}`), 200).json;
    assert.equal(changed.previewFormat, 'Png');
    assert.equal(changed.name, 'WebP');
    expectStatus(await call('DELETE', `filetype/${String(made.id)}`), 204);
    expectStatus(await call('GET', `filetype/${String(made.id)}`), 404);

    // A change to one the tenant has keeps it, by the same id.
    expectStatus(await call('PUT', `filetype/${String(type.id)}`, { supportAssetWatermark: false, previewRequired: false }), 204);
    const kept = expectStatus(await call('GET', `filetype/${String(type.id)}`), 200).json;
    assert.equal(kept.previewRequired, false);
    assert.equal(kept.extension, type.extension);
  });

  it('setting categories are those the definitions name, with their ids; one is created, renamed and deleted', async () => {
    const definitions = items(expectStatus(await call('GET', 'settingdefinitions?pageSize=500'), 200).json);
    const categories = items(expectStatus(await call('GET', 'settingcategories?pageSize=500'), 200).json);
    const withCategory = definitions.find((d) => d.category);
    assert.ok(withCategory, 'a definition names a category');
    const named = categories.find((c) => c.id === withCategory.categoryId);
    assert.equal(named?.name, withCategory.category);
    expectStatus(await call('DELETE', `settingcategory/${String(named?.id)}`), 400);

    const made = expectStatus(await call('POST', 'settingcategories', { name: 'Just for demo' }), 201).json;
    expectStatus(await call('PUT', `settingcategory/${String(made.id)}`, { name: 'Just for demo 2' }), 204);
    assert.equal(expectStatus(await call('GET', `settingcategory/${String(made.id)}`), 200).json.name, 'Just for demo 2');
    expectStatus(await call('DELETE', `settingcategory/${String(made.id)}`), 204);
    expectStatus(await call('GET', `settingcategory/${String(made.id)}`), 404);
  });

  it('a file checked out shows who and when, and checked in shows neither', async () => {
    expectStatus(await send(env().url, 'POST', `/api/core/file/${file}/checkouts`, { Authorization: `Bearer ${token}`, 'API-VERSION': '1' }), 204);
    const out = expectStatus(await call('GET', `file/${file}`, undefined, { 'select-file': 'checkedoutby' }), 200).json;
    assert.equal(out.checkedOut, true);
    assert.ok(!Number.isNaN(Date.parse(String(out.checkedOutOn))));
    assert.ok(((out._embedded as Record<string, Json>).checkedoutby as Json).id, 'the user who checked it out');
    expectStatus(await call('DELETE', `file/${file}/checkouts`), 204);
    const back = expectStatus(await call('GET', `file/${file}`), 200).json;
    assert.equal(back.checkedOut, false);
    assert.equal(back.checkedOutOn, null);
    expectStatus(await call('POST', 'file/ffffffffffffffffffffffffffffffff/checkouts'), 404);
  });

  it('POST /records/edits creates a draft, whatever status is sent', async () => {
    const classification = String(items(expectStatus(await call('GET', 'classifications?pageSize=1'), 200).json)[0].id);
    const made = expectStatus(await call('POST', 'records/edits', { status: 'Released', classifications: { addOrUpdate: [{ id: classification }] } }), 201).json;
    assert.equal(made.status, 'Draft');
    expectStatus(await call('DELETE', `record/${String(made.id)}`), 204);
  });

  it('a download order is a download link of the same id, with its files; a record\'s locks are none', async () => {
    const order = expectStatus(await call('POST', 'orders', { type: 'download', targets: [{ recordId: record, targetTypes: ['Document'], assetType: 'LatestVersionOfMasterFile' }] }), 201).json;
    const link = expectStatus(await call('GET', `downloadlink/${String(order.id)}`, undefined, { 'select-downloadlink': 'targets' }), 200).json;
    assert.equal(link.status, order.status);
    assert.equal((link.deliveredFiles as unknown[]).length, (order.deliveredFiles as unknown[]).length);
    assert.equal(link.succeededRecordsCount, 1);
    assert.equal(items((link._embedded as Record<string, Json>).targets)[0].recordId, record);
    assert.ok(items(expectStatus(await call('GET', 'downloadlinks'), 200).json).some((l) => l.id === order.id));
    assert.deepEqual(expectStatus(await call('GET', `record/${record}/locks`), 200).json.items, []);
    expectStatus(await call('GET', 'record/ffffffffffffffffffffffffffffffff/locks'), 404);
    expectStatus(await call('GET', 'publicuri/ffffffffffffffffffffffffffffffff'), 404);
  });

  it('a content subscription to a record or a collection is created, read, listed, changed and deleted; a bad body is a 400', async () => {
    const made = expectStatus(await call('POST', 'contentsubscriptions', { objectId: record, subscriptionObjectType: 0 }), 201).json;
    const id = String(made.id);
    assert.match(id, /^[0-9a-f]{32}$/);
    assert.equal(made.objectId, record);
    assert.equal(made.subscriptionType, 1, 'Follow when no type is sent');
    assert.equal(made.subscriptionObjectType, 0);
    const read = expectStatus(await call('GET', `contentsubscription/${id}`, undefined, { 'select-contentsubscription': 'createdby' }), 200).json;
    assert.equal(read.objectId, record);
    assert.ok(((read._embedded as Record<string, Json>).createdby as Json).id, 'the subscriber');
    assert.ok(items(expectStatus(await call('GET', 'contentsubscriptions'), 200).json).some((s) => s.id === id));
    expectStatus(await call('PUT', `contentsubscription/${id}`, { subscriptionType: 2 }), 204);
    const changed = expectStatus(await call('GET', `contentsubscription/${id}`), 200).json;
    assert.equal(changed.subscriptionType, 2, 'Expiry');
    assert.equal(changed.objectId, record, 'what was not sent is kept');
    const collection = String(expectStatus(await call('POST', 'collections', { name: 'Followed collection', type: 'static' }), 201).json.id);
    const onCollection = expectStatus(await call('POST', 'contentsubscriptions', { objectId: collection, subscriptionType: 1, subscriptionObjectType: 1 }), 201).json;
    assert.equal(onCollection.subscriptionObjectType, 1);
    for (const [body, message] of [
      [{ objectId: record }, /subscriptionObjectType/],
      [{ objectId: record, subscriptionObjectType: 0, subscriptionType: 3 }, /subscriptionType/],
      [{ objectId: 'not-an-id', subscriptionObjectType: 0 }, /objectId/],
      [{ objectId: collection, subscriptionObjectType: 2 }, /subscriptionObjectType/],
    ] as const) {
      const bad = expectStatus(await call('POST', 'contentsubscriptions', body), 400).json;
      assert.match(String(bad.exceptionMessage), message);
      assert.match(String(bad.exceptionType), /ValidationException/);
    }
    expectStatus(await call('PUT', `contentsubscription/${id}`, { subscriptionObjectType: 5 }), 400);
    expectStatus(await call('POST', 'contentsubscriptions', { objectId: 'ffffffffffffffffffffffffffffffff', subscriptionObjectType: 0 }), 404);
    expectStatus(await call('POST', 'contentsubscriptions', { objectId: record, subscriptionObjectType: 1 }), 404);
    expectStatus(await call('DELETE', `contentsubscription/${id}`), 204);
    expectStatus(await call('GET', `contentsubscription/${id}`), 404);
    expectStatus(await call('DELETE', `collection/${collection}`), 204);
    expectStatus(await call('GET', `contentsubscription/${String(onCollection.id)}`), 404);
  });

  it('a record\'s or collection\'s content subscriptions go when it is deleted; others stay', async () => {
    const classification = String(items(expectStatus(await call('GET', 'classifications?pageSize=1'), 200).json)[0].id);
    const draft = String(expectStatus(await call('POST', 'records/edits', { classifications: { addOrUpdate: [{ id: classification }] } }), 201).json.id);
    const onDraft = String(expectStatus(await call('POST', 'contentsubscriptions', { objectId: draft, subscriptionObjectType: 0 }), 201).json.id);
    const collection = String(expectStatus(await call('POST', 'collections', { name: 'Deleted collection', type: 'static' }), 201).json.id);
    const onCollection = String(expectStatus(await call('POST', 'contentsubscriptions', { objectId: collection, subscriptionObjectType: 1 }), 201).json.id);
    const onRecord = String(expectStatus(await call('POST', 'contentsubscriptions', { objectId: record, subscriptionObjectType: 0 }), 201).json.id);
    expectStatus(await call('DELETE', `record/${draft}`), 204);
    expectStatus(await call('DELETE', `collection/${collection}`), 204);
    const left = items(expectStatus(await call('GET', 'contentsubscriptions?pageSize=100'), 200).json).map((s) => s.id);
    assert.ok(!left.includes(onDraft) && !left.includes(onCollection), 'the deleted objects\' subscriptions are gone');
    assert.ok(left.includes(onRecord), 'another record\'s subscription stays');
    expectStatus(await call('DELETE', `contentsubscription/${onRecord}`), 204);
  });
});
