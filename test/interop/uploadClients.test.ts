// Upload flows of public clients, replayed as raw HTTP: the PowerShell hot folder, the aprimo-js SDK, the BI extract,
// the AEM migration connector's writable blob location. Sources are cited per test (repository, file, function).
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { describeEachBackend } from '../conformance/helpers';
import { clientCredentialsToken, expectStatus, onePart, send } from './replay';

describeEachBackend('interop: uploads as public clients send them', {}, (env) => {
  let token = '';
  before(async () => {
    token = await clientCredentialsToken(env().url);
  });

  // Aprimo-Connect/HotFolderUpload, AprimoHotFolderService/modules/Aprimo.HotFolderService.Functions.psm1
  // (CreateHeaders -kind DAM: the DAM header set goes to the upload host too; UploadFile, UploadData, ParseUploadResult).
  const hotFolderHeaders = () => ({
    'API-Version': '1',
    Accept: 'application/json',
    'Content-Type': 'application/json; charset=utf-8',
    Authorization: `Bearer ${token}`,
    'User-Agent': 'Aprimo.Hotfolder.Service/1.0.20720.10724 (PowerShell 5.1; Microsoft Windows Server 2019 Build 17763; x64)',
  });

  it('hot folder: segmented setup with a here-string {"FileName":…}, segments POSTed to the absolute uri, commit, then a record on /records', async () => {
    const name = 'hotfolder-big.bin';
    const bytes = randomBytes(300_000);
    // UploadFile: the setup body is a PowerShell here-string, not escaped JSON, with `FileName` capitalised.
    const setup = expectStatus(await send(env().url, 'POST', '/uploads/segments', hotFolderHeaders(), `{\n    "FileName":"${name}"\n}`), 200);
    const uri = String(setup.json.uri);
    assert.match(uri, /^http:\/\//, 'the uri is used verbatim as an absolute URL');
    const parts = [bytes.subarray(0, 150_000), bytes.subarray(150_000)];
    for (const [i, part] of parts.entries()) {
      // UploadData: `POST <uri>?index=<n>`, part `segment<n>`, file name `<name>.segment<n>`; the answer is ConvertFrom-Json'ed.
      const { 'Content-Type': _json, ...headers } = hotFolderHeaders();
      const segment = await send(env().url, 'POST', `${uri}?index=${i}`, headers, onePart(`segment${i}`, `${name}.segment${i}`, part));
      expectStatus(segment, 202);
      assert.doesNotThrow(() => JSON.parse(segment.text), 'a segment answer is JSON');
    }
    // ParseUploadResult: `ConvertTo-Json -Compress` of a hashtable, key order not guaranteed.
    const commit = expectStatus(await send(env().url, 'POST', `${uri}/commit`, hotFolderHeaders(), `{"segmentcount":2,"filename":"${name}"}`), 200);
    const utok = String(commit.json.token);
    // New-Record, CreateBody: POST {core}/records (plural) with the token twice and status draft.
    const record = await send(
      env().url,
      'POST',
      '/api/core/records',
      hotFolderHeaders(),
      JSON.stringify({ files: { master: utok, addOrUpdate: [{ versions: { addOrUpdate: [{ id: utok, filename: name }] } }] }, status: 'draft' }),
    );
    expectStatus(record, 201);
    assert.ok(record.json.id);
  });

  it('hot folder: a failed record discards its upload with DELETE /uploads/<token> (Content-Type JSON, no body)', async () => {
    const { 'Content-Type': _json, ...multipartHeaders } = hotFolderHeaders();
    const single = expectStatus(await send(env().url, 'POST', '/uploads', multipartHeaders, onePart('file1', 'small.txt', Buffer.from('hello'), 'text/plain')), 200);
    // DeleteUploadedFile: the DAM header set, Content-Type application/json included, and no body.
    expectStatus(await send(env().url, 'DELETE', `/uploads/${single.json.token}`, hotFolderHeaders()), 204);
  });

  it('hot folder: classification lookup by parent.id and name (UrlEncode: + for spaces), create with set-immediateSearchIndexUpdate', async () => {
    const headers = hotFolderHeaders();
    const roots = expectStatus(await send(env().url, 'GET', '/api/core/classifications?filter=name+%3d+%27Products%27', headers), 200);
    const productsId = String(roots.json.items?.[0]?.id);
    // CreateClassificationTree: HttpUtility.UrlEncode of `parent.id = '<id>' and name = '<name>'`.
    const lookup = await send(env().url, 'GET', `/api/core/classifications?filter=parent.id+%3d+%27${productsId}%27+and+name+%3d+%27Outdoor%27`, headers);
    expectStatus(lookup, 200);
    assert.equal(lookup.json.items?.length, 1);
    const created = await send(env().url, 'POST', '/api/core/classifications', { ...headers, 'set-immediateSearchIndexUpdate': 'true' }, JSON.stringify({ name: 'Hot folder drop', parentId: productsId }));
    expectStatus(created, 201);
    assert.ok(created.json.id);
  });

  // timw255/aprimo-js, src/modules/uploader/index.ts uploadLargeFile (moHttp: Accept application/hal+json, no API-VERSION).
  it('aprimo-js: segments in parallel and out of order to new URL(uri).pathname, abort with DELETE carrying Content-Type JSON', async () => {
    const mo = { Accept: 'application/hal+json', Authorization: `Bearer ${token}`, 'User-Agent': 'axios/1.7.2' };
    const setup = expectStatus(await send(env().url, 'POST', '/uploads/segments', { ...mo, 'Content-Type': 'application/json' }, JSON.stringify({ filename: 'sdk.bin' })), 200);
    const path = new URL(String(setup.json.uri)).pathname; // a relative uri makes `new URL` throw
    const bytes = randomBytes(90_000);
    const pieces = [bytes.subarray(0, 30_000), bytes.subarray(30_000, 60_000), bytes.subarray(60_000)];
    const sent = await Promise.all([2, 0, 1].map((i) => send(env().url, 'POST', `${path}?index=${i}`, mo, onePart(`segment${i}`, `sdk.bin.segment${i}`, pieces[i]))));
    for (const s of sent) assert.ok(s.status >= 200 && s.status < 300);
    const commit = expectStatus(await send(env().url, 'POST', `${path}/commit`, { ...mo, 'Content-Type': 'application/json' }, JSON.stringify({ filename: 'sdk.bin', segmentcount: 3 })), 200);
    assert.ok(commit.json.token);
    // Abort of another session: DELETE with the JSON content type and an empty body.
    const other = expectStatus(await send(env().url, 'POST', '/uploads/segments', { ...mo, 'Content-Type': 'application/json' }, JSON.stringify({ filename: 'gone.bin' })), 200);
    expectStatus(await send(env().url, 'DELETE', new URL(String(other.json.uri)).pathname, { ...mo, 'Content-Type': 'application/json' }), 204);
  });

  // jscarano/bi-aprimo-api, libs/shared/aprimo-client/src/lib/aprimo-client.ts prepareUpload, uploadFileSegment, commitUpload.
  it('BI extract: segments addressed by the token (not the uri), JSON answers parsed without a status check', async () => {
    const headers = { Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/json', 'User-Agent': 'docuvera-aprimo-client' };
    const setup = expectStatus(await send(env().url, 'POST', '/uploads/segments', { ...headers, 'Content-Type': 'application/json' }, JSON.stringify({ filename: 'extract.csv' })), 200);
    const segment = await send(env().url, 'POST', `/uploads/segments/${setup.json.token}?index=0`, headers, onePart('file1', 'blob', Buffer.from('a,b\n1,2\n')));
    expectStatus(segment, 202);
    JSON.parse(segment.text);
    const commit = await send(env().url, 'POST', `/uploads/segments/${setup.json.token}/commit`, { ...headers, 'Content-Type': 'application/json' }, JSON.stringify({ filename: 'extract.csv', segmentcount: 1 }));
    expectStatus(commit, 200);
  });

  // The AEM→Aprimo migration connector (AprimoAssetClient.cs CreateUploadSessionAsync, PutToAprimoUploadUrlAsync,
  // CreateRecordFromUploadAsync): the spec's writable blob location.
  it('migration connector: JSON POST /uploads for a blob location, the bytes PUT to sasUrl with x-ms-blob-type, a record from the token', async () => {
    const headers = { Authorization: `Bearer ${token}`, 'API-VERSION': '1', 'User-Agent': 'Azure Aprimo Migration Connector', Accept: '*/*' };
    const bytes = randomBytes(2048);
    const session = await send(env().url, 'POST', '/uploads', { ...headers, 'Content-Type': 'application/json' }, JSON.stringify({ fileName: 'migrated.bin', fileSize: bytes.length, mimeType: 'application/octet-stream' }));
    expectStatus(session, 200);
    assert.ok(session.json.token && session.json.sasUrl);
    const put = await send(env().url, 'PUT', String(session.json.sasUrl), {
      'x-ms-blob-type': 'BlockBlob',
      'Content-Type': 'application/octet-stream',
      'X-Client-Name': 'PutAprimoClient',
    }, bytes);
    expectStatus(put, 201);
    const utok = String(session.json.token);
    const record = await send(
      env().url,
      'POST',
      '/api/core/records',
      { ...headers, 'Content-Type': 'application/json', ContentType: 'application/json' },
      JSON.stringify({ title: 'Migrated', uploadId: utok, files: { master: utok, addOrUpdate: [{ versions: { addOrUpdate: [{ id: utok, filename: 'migrated.bin' }] } }] } }),
    );
    expectStatus(record, 201);
    const read = await send(env().url, 'GET', `/api/core/record/${record.json.id}`, { ...headers, Accept: 'application/json', 'select-record': 'masterfilelatestversion' });
    const version = read.json.masterFileLatestVersion as { fileSize: number; fileName: string };
    assert.equal(version.fileSize, bytes.length);
  });

  // Google Apps Script add-on (Api.ts uploadRecord): only Authorization on the upload, 200 or 201 accepted.
  it('Apps Script add-on: a single upload with only Authorization and a User-Agent of its runtime', async () => {
    const single = await send(env().url, 'POST', '/uploads', { Authorization: `Bearer ${token}`, 'User-Agent': 'Mozilla/5.0 (compatible; Google-Apps-Script)' }, onePart('file1', 'doc.txt', Buffer.from('text')));
    assert.ok(single.status === 200 || single.status === 201, single.text);
    assert.ok(single.json.token);
  });

  // What a .NET client sends when it serialises its C# models with Newtonsoft's default settings (names as declared,
  // PascalCase) and sets API-Version from a System.Version ("1.0"): ASP.NET binds both. A tenant adds the version, named
  // as sent; the emulator used to drop a PascalCase files section silently (204, no version).
  it('.NET models in PascalCase: a Files section adds the version named as sent, with API-Version 1.0', async () => {
    const headers = { Authorization: `Bearer ${token}`, 'API-Version': '1.0', Accept: 'application/json', 'User-Agent': 'dotnet-model-client/1.0' };
    const first = expectStatus(await send(env().url, 'POST', '/uploads', headers, onePart('file1', 'first.txt', Buffer.from('one'), 'text/plain')), 200);
    const created = await send(env().url, 'POST', '/api/core/records', { ...headers, 'Content-Type': 'application/json' }, JSON.stringify({
      Status: 'Draft',
      Files: { Master: first.json.token, AddOrUpdate: [{ Versions: { AddOrUpdate: [{ Id: first.json.token, FileName: 'Chosen Name.txt', VersionLabel: 'v1' }] } }] },
    }));
    expectStatus(created, 201);
    const second = expectStatus(await send(env().url, 'POST', '/uploads', headers, onePart('file1', 'second.txt', Buffer.from('two'), 'text/plain')), 200);
    const updated = await send(env().url, 'PUT', `/api/core/record/${created.json.id}`, { ...headers, 'Content-Type': 'application/json' }, JSON.stringify({
      Files: { AddOrUpdate: [{ Versions: { AddOrUpdate: [{ Id: second.json.token, FileName: 'Second Name.txt', VersionLabel: 'v2' }] } }] },
    }));
    expectStatus(updated, 204);
    const read = expectStatus(await send(env().url, 'GET', `/api/core/record/${created.json.id}`, { ...headers, 'select-record': 'masterfilelatestversion' }), 200);
    const latest = read.json.masterFileLatestVersion as { fileName: string; versionLabel: string };
    assert.equal(latest.fileName, 'Second Name.txt');
    assert.equal(latest.versionLabel, 'v2');
    // The same client calling a route with a method it does not have gets ASP.NET's 405 and the methods it has.
    const patched = await send(env().url, 'PATCH', `/api/core/record/${created.json.id}`, { ...headers, 'Content-Type': 'application/json' }, '{}');
    expectStatus(patched, 405);
    assert.match(String(patched.headers.get('allow')), /PUT/);
  });
});
