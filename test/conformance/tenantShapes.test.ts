// What public clients read from a tenant (real-service-notes, second round), over raw HTTP: file versions and their
// previews (no null where a typed client wants a number, a boolean or a date), PublicCDN and download orders, the
// token endpoint's Basic authentication, discovery and refresh tokens, the record trail, user search, the legacy
// upload, quoted multipart boundaries, record-write headers, and the languages.
import { strict as assert } from 'node:assert';
import { createHash, randomBytes } from 'node:crypto';
import { CONTENT_API_IDS, EMULATOR_CLIENT } from '../../src/core/contract';
import { discPicture } from './fileFixtures';
import { describeEachBackend } from './helpers';
import { clientCredentialsToken, expectStatus, onePart, send } from '../interop/replay';

/** Members a typed client reads as numbers, booleans or dates must never be null (notes: leave out or give a value). */
function noTypedNulls(value: unknown, path = ''): void {
  if (Array.isArray(value)) return value.forEach((v, i) => noTypedNulls(v, `${path}[${i}]`));
  if (!value || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value)) {
    if (v === null) assert.ok(!/(On|Date|Size|Count|Number|width|height|size|priority|^has|^is|^prevent|disable)/.test(k), `${path}.${k} is null`);
    noTypedNulls(v, `${path}.${k}`);
  }
}

describeEachBackend('tenant shapes of files, orders, auth and routes', { seed: 'empty' }, (env) => {
  let token = '';
  let recordId = '';
  let pdfRecordId = '';
  const json = () => ({ Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/json', 'Content-Type': 'application/json' });
  const hal = () => ({ ...json(), Accept: 'application/hal+json' });
  const upload = async (name: string, bytes: Uint8Array) => String(expectStatus(await send(env().url, 'POST', '/uploads', { Authorization: `Bearer ${token}` }, onePart('file1', name, bytes)), 200).json.token);
  const recordWith = async (title: string, name: string, bytes: Uint8Array, headers: Record<string, string> = {}) => {
    const t = await upload(name, bytes);
    const body = { title, files: { master: t, addOrUpdate: [{ versions: { addOrUpdate: [{ id: t, filename: name, versionLabel: 'v1' }] } }] } };
    return String(expectStatus(await send(env().url, 'POST', '/api/core/records', { ...json(), ...headers }, JSON.stringify(body)), 201).json.id);
  };

  before(async () => {
    token = await clientCredentialsToken(env().url);
    recordId = await recordWith('shapes picture', 'vivid-forest-photo-38.png', await discPicture(640, 480));
    pdfRecordId = await recordWith('shapes document', 'notes.pdf', new TextEncoder().encode('%PDF-1.4 not really'));
  });

  describe('file versions and images', () => {
    it('carry fileExtension, fileState Available, and no null number, boolean or date', async () => {
      for (const id of [recordId, pdfRecordId]) {
        const read = expectStatus(await send(env().url, 'GET', `/api/core/record/${id}`, { ...json(), 'select-record': 'masterfilelatestversion' }), 200);
        const version = read.json.masterFileLatestVersion as Record<string, unknown>;
        assert.equal(version.fileState, 'Available');
        assert.equal(version.fileExtension, id === recordId ? 'png' : 'pdf');
        assert.equal(typeof version.versionNumber, 'number');
        assert.equal(typeof version.fileSize, 'number');
        assert.equal(typeof version.preventDownload, 'boolean');
        noTypedNulls(read.json);
      }
    });

    it('answer select-fileversion: filetype, publiclinks, publicuris (plain and HAL)', async () => {
      const read = await send(env().url, 'GET', `/api/core/record/${recordId}`, { ...json(), 'select-record': 'masterfilelatestversion', 'select-fileversion': 'filetype, publiclinks, publicuris' });
      const v = expectStatus(read, 200).json.masterFileLatestVersion as Record<string, { mimeType?: string; items?: unknown[] }>;
      assert.equal(v.fileType.mimeType, 'image/png');
      assert.deepEqual(v.publicLinks.items, []);
      assert.deepEqual(v.publicUris.items, []);
      const halRead = await send(env().url, 'GET', `/api/core/record/${recordId}`, { ...hal(), 'select-record': 'masterfilelatestversion', 'select-fileversion': 'filetype' });
      const embedded = (halRead.json._embedded as { masterfilelatestversion: { _embedded: { filetype: { mimeType: string } } } }).masterfilelatestversion;
      assert.equal(embedded._embedded.filetype.mimeType, 'image/png');
    });

    it('embed previews and thumbnails with uri, width, height, extension (size once rendered), and serve their bytes', async () => {
      const bytes = await send(env().url, 'GET', `/api/core/record/${recordId}/image/thumbnail/download`, { ...json(), Accept: '*/*' });
      assert.equal(bytes.status, 200);
      assert.match(String(bytes.headers.get('content-type')), /^image\//);
      expectStatus(await send(env().url, 'GET', `/api/core/record/${recordId}/image/preview/download`, { ...json(), Accept: '*/*' }), 200);
      const read = await send(env().url, 'GET', `/api/core/record/${recordId}`, { ...json(), 'select-record': 'preview, thumbnail' });
      for (const kind of ['preview', 'thumbnail'] as const) {
        const image = expectStatus(read, 200).json[kind] as Record<string, unknown>;
        assert.match(String(image.uri), /^http/);
        assert.equal(typeof image.width, 'number');
        assert.equal(typeof image.height, 'number');
        assert.equal(image.extension, kind === 'preview' ? 'jpg' : 'png');
        assert.equal(typeof image.size, 'number', `${kind} size`);
        assert.ok((image.size as number) > 0);
      }
    });

    it('answer select-additionalfile: uri, metadata on renditions', async () => {
      const job = await send(env().url, 'POST', '/api/core/maintenancejobs', json(), JSON.stringify({ type: 'record', targets: [{ recordId }], actions: [{ action: 'CreateRenditions', parameters: { presets: ['thumbnail'] } }] }));
      const jobId = String(expectStatus(job, 201).json.id);
      for (let i = 0; i < 200; i++) {
        const status = String((await send(env().url, 'GET', `/api/core/maintenancejob/${jobId}`, json())).json.status);
        if (!['Pending', 'Queued', 'Scheduled', 'Executing'].includes(status)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const read = await send(env().url, 'GET', `/api/core/record/${recordId}`, {
        ...json(),
        'select-record': 'masterfilelatestversion',
        'select-fileversion': 'additionalfiles',
        'select-additionalfile': 'uri, metadata',
      });
      const files = (expectStatus(read, 200).json.masterFileLatestVersion as { additionalFiles: { items: Record<string, unknown>[] } }).additionalFiles.items;
      assert.ok(files.length >= 1);
      assert.match(String(files[0].uri), /^http/);
      assert.equal((files[0].metadata as { preset: string }).preset, 'thumbnail');
    });
  });

  describe('orders', () => {
    it('a download order carries deliveredFiles (URL strings) and every field clients read, in the POST answer', async () => {
      const body = { type: 'download', targets: [{ recordId, targetTypes: ['Document'], assetType: 'LatestVersionOfMasterFile' }], disableNotification: true };
      const order = expectStatus(await send(env().url, 'POST', '/api/core/orders', hal(), JSON.stringify(body)), 201);
      const o = order.json as Record<string, unknown>;
      assert.equal(o.orderType, 'download');
      assert.equal(typeof (o.deliveredFiles as unknown[])[0], 'string');
      assert.equal((await send(env().url, 'GET', String((o.deliveredFiles as string[])[0]), {})).status, 200);
      for (const key of ['id', 'status', 'priority', 'creatorEmail', 'disableNotification', 'earliestStartDate', 'executionTime', 'startedOn', 'createdOn', 'message']) assert.ok(key in o, key);
      assert.equal(typeof o.priority, 'number');
      const links = o._links as Record<string, { href: string }>;
      for (const rel of ['self', 'targets', 'createdby']) assert.ok(links[rel]?.href, rel);
      noTypedNulls(o);
      const again = expectStatus(await send(env().url, 'GET', `/api/core/order/${String(o.id)}`, json()), 200);
      assert.equal(again.json.status, 'Success');
    });

    it('a PublicCDN order with assetTypes delivers objects with a deliveredPath', async () => {
      const body = { type: 'PublicCDN', targets: [{ recordId, assetTypes: ['LatestVersionOfMasterFile', 'thumbnail'] }], priority: 2 };
      const order = expectStatus(await send(env().url, 'POST', '/api/core/orders', json(), JSON.stringify(body)), 201);
      assert.equal(order.json.orderType, 'PublicCDN');
      assert.equal(order.json.priority, 2);
      const delivered = order.json.deliveredFiles as { deliveredPath: string; assetType: string }[];
      assert.deepEqual(delivered.map((d) => d.assetType), ['LatestVersionOfMasterFile', 'thumbnail']);
      for (const d of delivered) assert.equal((await send(env().url, 'GET', d.deliveredPath, {})).status, 200);
      const missing = expectStatus(await send(env().url, 'POST', '/api/core/orders', json(), JSON.stringify({ type: 'publiccdn', targets: [{ recordId, assetTypes: ['NoSuchRendition'] }] })), 201);
      assert.equal(missing.json.status, 'Failed');
      assert.match(String(missing.json.message), /failed/);
      expectStatus(await send(env().url, 'POST', '/api/core/orders', json(), JSON.stringify({ type: 'Print', targets: [{ recordId }] })), 400);
    });
  });

  describe('auth', () => {
    const tokenRequest = (body: string, headers: Record<string, string> = {}) => send(env().url, 'POST', '/login/connect/token', { 'Content-Type': 'application/x-www-form-urlencoded', ...headers }, body);

    it('takes the client secret in HTTP Basic (client_secret_basic) as well as in the form', async () => {
      const basic = Buffer.from(`${EMULATOR_CLIENT.clientId}:${EMULATOR_CLIENT.clientSecret}`).toString('base64');
      expectStatus(await tokenRequest('grant_type=client_credentials&scope=api', { Authorization: `Basic ${basic}` }), 200);
      const wrong = Buffer.from(`${EMULATOR_CLIENT.clientId}:nope`).toString('base64');
      expectStatus(await tokenRequest('grant_type=client_credentials', { Authorization: `Basic ${wrong}` }), 401);
    });

    it('publishes the discovery document under /login', async () => {
      const doc = expectStatus(await send(env().url, 'GET', '/login/.well-known/openid-configuration', { Accept: 'application/json' }), 200).json;
      assert.equal(doc.issuer, `${env().url}/login`);
      assert.equal(doc.token_endpoint, `${env().url}/login/connect/token`);
      for (const grant of ['authorization_code', 'client_credentials', 'password', 'refresh_token']) assert.ok((doc.grant_types_supported as string[]).includes(grant), grant);
      assert.deepEqual(doc.token_endpoint_auth_methods_supported, ['client_secret_post', 'client_secret_basic']);
      assert.deepEqual(doc.code_challenge_methods_supported, ['S256']);
    });

    it('answers a refresh token to the authorization-code flow asked with offline_access, and rotates it', async () => {
      const verifier = randomBytes(32).toString('base64url');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const redirect = 'http://127.0.0.1:9/callback';
      const form = new URLSearchParams({ client_id: EMULATOR_CLIENT.clientId, redirect_uri: redirect, response_type: 'code', scope: 'api offline_access', code_challenge: challenge, code_challenge_method: 'S256' });
      const consent = await send(env().url, 'POST', '/login/connect/authorize', { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' }, form.toString());
      assert.equal(consent.status, 302);
      const code = new URL(String(consent.headers.get('location'))).searchParams.get('code')!;
      const exchange = expectStatus(await tokenRequest(new URLSearchParams({ grant_type: 'authorization_code', client_id: EMULATOR_CLIENT.clientId, code, redirect_uri: redirect, code_verifier: verifier }).toString()), 200);
      const refresh = String(exchange.json.refresh_token);
      assert.ok(refresh.length > 20);
      const renewed = expectStatus(await tokenRequest(`grant_type=refresh_token&client_id=${EMULATOR_CLIENT.clientId}&refresh_token=${refresh}`), 200);
      assert.ok(renewed.json.access_token);
      assert.notEqual(renewed.json.refresh_token, refresh);
      const api = await send(env().url, 'GET', '/api/core/records', { ...json(), Authorization: `Bearer ${String(renewed.json.access_token)}` });
      expectStatus(api, 200);
      // Rotation: the used refresh token is spent.
      const reused = expectStatus(await tokenRequest(`grant_type=refresh_token&client_id=${EMULATOR_CLIENT.clientId}&refresh_token=${refresh}`), 400);
      assert.equal(reused.json.error, 'invalid_grant');
      // Client credentials have none, and may not ask for one.
      const cc = expectStatus(await tokenRequest(`grant_type=client_credentials&client_id=${EMULATOR_CLIENT.clientId}&client_secret=${EMULATOR_CLIENT.clientSecret}`), 200);
      assert.equal(cc.json.refresh_token, undefined);
      expectStatus(await tokenRequest(`grant_type=client_credentials&scope=api%20offline_access&client_id=${EMULATOR_CLIENT.clientId}&client_secret=${EMULATOR_CLIENT.clientSecret}`), 400);
    });
  });

  describe('routes public clients use', () => {
    it('keeps a trail of changes made through the API: record/{id}/trail entries, trail/entry/{id} changes', async () => {
      const id = String(expectStatus(await send(env().url, 'POST', '/api/core/records', json(), JSON.stringify({ title: 'trail one', status: 'draft' })), 201).json.id);
      expectStatus(await send(env().url, 'PUT', `/api/core/record/${id}`, json(), JSON.stringify({ title: 'trail two', status: 'released' })), 204);
      expectStatus(await send(env().url, 'PUT', `/api/core/record/${id}`, json(), JSON.stringify({ title: 'trail two' })), 204);
      const list = expectStatus(await send(env().url, 'GET', `/api/core/record/${id}/trail?skip=0&take=10`, json()), 200);
      const entries = list.json.entries as { id: string; createdOn: string; userId: string; action: string }[];
      // The write that changed nothing adds no entry.
      assert.deepEqual(entries.map((e) => e.action), ['Updated', 'Created']);
      // The content API names users by GUID (contract "Fixed ids"): admin.
      assert.equal(entries[0].userId, CONTENT_API_IDS.users.admin);
      const entry = expectStatus(await send(env().url, 'GET', `/api/core/trail/entry/${entries[0].id}`, json()), 200);
      const changes = entry.json.changes as { name: string; oldValue: string; newValue: string }[];
      assert.deepEqual(changes.map((c) => [c.name, c.oldValue, c.newValue]).sort(), [['Status', 'Draft', 'Released'], ['Title', 'trail one', 'trail two']]);
      const filtered = expectStatus(await send(env().url, 'GET', `/api/core/record/${id}/trail`, { ...json(), filter: "action = 'Created'" }), 200);
      assert.equal((filtered.json.entries as unknown[]).length, 1);
      expectStatus(await send(env().url, 'GET', '/api/core/trail/entry/0123456789abcdef0123456789abcdef', json()), 404);
    });

    it('answers /api/users/me with adamUserId, and POST /api/users/search with X-Access-Token', async () => {
      const me = expectStatus(await send(env().url, 'GET', '/api/users/me', { Authorization: `Bearer ${token}`, Accept: 'application/json' }), 200);
      assert.equal(me.json.adamUserId, 1);
      const found = await send(env().url, 'POST', '/api/users/search?limit=10', { 'X-Access-Token': token, 'Content-Type': 'application/json', Accept: 'application/json' }, JSON.stringify({ searchText: 'edit' }));
      const users = (expectStatus(found, 200).json._embedded as { user: { loginId: string; adamUserId: number }[] }).user;
      assert.deepEqual(users.map((u) => u.loginId), ['editor']);
      assert.equal(found.json._total, 1);
      const all = expectStatus(await send(env().url, 'POST', '/api/users/search', { 'X-Access-Token': token, 'Content-Type': 'application/json', Accept: 'application/json' }, '{}'), 200);
      assert.ok(Number(all.json._total) >= 3);
    });

    it('lists user groups for work management by their integer ids (GET /api/groups), as task assignees take them', async () => {
      const page = expectStatus(await send(env().url, 'GET', '/api/groups?limit=50', { Authorization: `Bearer ${token}`, Accept: 'application/json' }), 200);
      const groups = (page.json._embedded as { group: { groupId: number; name: string }[] }).group;
      assert.ok(groups.some((g) => g.groupId === 10 && g.name === 'Marketing'), JSON.stringify(groups));
      const found = expectStatus(await send(env().url, 'GET', '/api/groups?searchText=market', { Authorization: `Bearer ${token}`, Accept: 'application/json' }), 200);
      assert.deepEqual((found.json._embedded as { group: { name: string }[] }).group.map((g) => g.name), ['Marketing']);
    });

    it('takes JSON POST /uploads {fileName}: the bytes PUT to its sasUrl, then the token makes a version', async () => {
      const session = expectStatus(await send(env().url, 'POST', '/uploads', { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, JSON.stringify({ fileName: 'blob.txt' })), 200);
      expectStatus(await send(env().url, 'PUT', String(session.json.sasUrl), { 'x-ms-blob-type': 'BlockBlob', 'Content-Type': 'application/octet-stream' }, 'blob bytes'), 201);
      const body = { title: 'from sas', files: { master: session.json.token, addOrUpdate: [{ versions: { addOrUpdate: [{ id: session.json.token, filename: 'blob.txt' }] } }] } };
      expectStatus(await send(env().url, 'POST', '/api/core/records', json(), JSON.stringify(body)), 201);
    });

    it('takes the legacy small-file upload at /api/core/uploads (part "file", about 1 MB at most)', async () => {
      const small = await send(env().url, 'POST', '/api/core/uploads', { Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/json' }, onePart('file', 'small.txt', new TextEncoder().encode('small')));
      const t = String(expectStatus(small, 200).json.token);
      const body = { title: 'legacy upload', files: { master: t, addOrUpdate: [{ versions: { addOrUpdate: [{ id: t, filename: 'small.txt' }] } }] } };
      expectStatus(await send(env().url, 'POST', '/api/core/records', json(), JSON.stringify(body)), 201);
      const big = await send(env().url, 'POST', '/api/core/uploads', { Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/json' }, onePart('file', 'big.bin', new Uint8Array(1024 ** 2 + 1)));
      assert.equal(expectStatus(big, 413).status, 413);
    });

    it('reads multipart bodies whose quoted boundary holds spaces, slashes and colons (.NET MultipartFormDataContent)', async () => {
      const boundary = 'dotnet boundary/with:colons 1';
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name=file1; filename=quoted.txt; filename*=utf-8''quoted.txt\r\nContent-Type: text/plain\r\n\r\n`),
        Buffer.from('quoted boundary bytes'),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const answer = await send(env().url, 'POST', '/uploads', { Authorization: `Bearer ${token}`, 'Content-Type': `multipart/form-data; boundary="${boundary}"` }, body);
      assert.ok(expectStatus(answer, 200).json.token);
    });

    it('accepts disable-validations, disable-rules and client-id on record writes', async () => {
      const headers = { ...json(), 'disable-validations': 'true', 'disable-rules': 'true', 'client-id': 'connector-1' };
      const id = String(expectStatus(await send(env().url, 'POST', '/api/core/records', headers, JSON.stringify({ title: 'with headers' })), 201).json.id);
      expectStatus(await send(env().url, 'PUT', `/api/core/record/${id}`, headers, JSON.stringify({ title: 'with headers 2' })), 204);
      expectStatus(await send(env().url, 'DELETE', `/api/core/record/${id}`, headers), 204);
    });

    it('lists the languages with en-US at c2bd4f9bbb954bcb80c31e924c9c26dc', async () => {
      const languages = expectStatus(await send(env().url, 'GET', '/api/core/languages', json()), 200);
      const enUs = (languages.json.items ?? []).find((l) => l.culture === 'en-US') as { id: string };
      assert.equal(enUs.id, 'c2bd4f9bbb954bcb80c31e924c9c26dc');
    });
  });

});
