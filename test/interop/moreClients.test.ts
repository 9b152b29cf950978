// Requests of public clients the suite did not name before (third round), replayed as raw HTTP with the headers and
// bodies their sources set (cited per describe: repository, file, function). What each client reads is asserted.
import { strict as assert } from 'node:assert';
import { createHash, randomBytes } from 'node:crypto';
import { EMULATOR_CLIENT } from '../../src/core/contract';
import { describeEachBackend } from '../conformance/helpers';
import { clientCredentialsToken, expectStatus, onePart, send, type Answer } from './replay';

const NEUTRAL = '00000000000000000000000000000000';

describeEachBackend('interop: connectors, MCP servers, a PKCE starter kit and a PHP importer', {}, (env) => {
  let token = '';
  let imageRecord = '';
  let ownRecord = '';
  let fieldId = '';
  const ids = (a: Answer) => (a.json.items ?? []).map((i) => String(i.id));

  before(async () => {
    token = await clientCredentialsToken(env().url);
    const dam = { Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/json', 'Content-Type': 'application/json' };
    const found = await send(env().url, 'POST', '/api/core/search/records', dam, JSON.stringify({ searchExpression: { expression: 'ContentType = Image AND FileCount > 0' } }));
    imageRecord = ids(found)[0];
    const defs = await send(env().url, 'GET', '/api/core/fielddefinitions?pageSize=200', dam);
    fieldId = String((defs.json.items ?? []).find((d) => d.dataType === 'SingleLineText')?.id);
    const upload = await send(env().url, 'POST', '/uploads', { Authorization: `Bearer ${token}` }, onePart('file1', 'inriver-status.txt', new TextEncoder().encode('status')));
    const t = String(upload.json.token);
    const created = await send(env().url, 'POST', '/api/core/records', dam, JSON.stringify({ title: 'interop third round', files: { master: t, addOrUpdate: [{ versions: { addOrUpdate: [{ id: t, filename: 'inriver-status.txt' }] } }] } }));
    ownRecord = String(expectStatus(created, 201).json.id);
  });

  // Aprimo-Connect/remote-http-mcp-server, Services/AprimoService.cs (SearchAprimo, DownloadOrder): System.Text.Json
  // bodies, `Accept: application/json` on the HttpClient, API-VERSION 1, User-Agent StreamHttpMcp, paging as headers.
  describe('a remote HTTP MCP server (.NET)', () => {
    const mcp = () => ({ Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/json', 'User-Agent': 'StreamHttpMcp', 'Content-Type': 'application/json; charset=utf-8' });

    it('searches with logRequest true, select-record "title, preview, thumbnail" and page/pageSize headers', async () => {
      const answer = await send(env().url, 'POST', '/api/core/search/records', { ...mcp(), 'select-record': 'title, preview, thumbnail', pageSize: '15', page: '1' }, JSON.stringify({ searchExpression: { expression: 'ContentType = Image AND FileCount > 0' }, logRequest: true }));
      expectStatus(answer, 200);
      assert.equal(answer.json.items?.length, 15);
      assert.equal(answer.json.pageSize, 15);
      const items = answer.json.items as { title: string; preview: { uri: string } | null; thumbnail: { uri: string } | null }[];
      assert.ok(items.every((i) => typeof i.title === 'string' && 'preview' in i && 'thumbnail' in i));
      // A record whose master file is no image has none (null); the pictures have both.
      assert.ok(items.some((i) => /^http/.test(String(i.thumbnail?.uri)) && /^http/.test(String(i.preview?.uri))));
    });

    it('passes the model\'s words straight through as the expression (a bare word is full text)', async () => {
      const answer = expectStatus(await send(env().url, 'POST', '/api/core/search/records', { ...mcp(), pageSize: '15', page: '1' }, JSON.stringify({ searchExpression: { expression: 'forest' }, logRequest: true })), 200);
      assert.ok(Number(answer.json.totalCount) > 0);
    });

    it('passes an expression with criteria the model wrote, in any keyword case', async () => {
      const answer = await send(env().url, 'POST', '/api/core/search/records', { ...mcp(), pageSize: '15', page: '2' }, JSON.stringify({ searchExpression: { expression: "contenttype = image and title contains 'forest'" }, logRequest: true }));
      expectStatus(answer, 200);
      assert.equal(answer.json.page, 2);
    });

    it('creates a download order and reads deliveredFiles[0] case-insensitively from the POST answer', async () => {
      const body = { type: 'download', disableNotification: true, targets: [{ recordId: imageRecord, targetTypes: ['Document'], assetType: 'LatestVersionOfMasterFile' }] };
      const order = expectStatus(await send(env().url, 'POST', '/api/core/orders', mcp(), JSON.stringify(body)), 201);
      const delivered = order.json.deliveredFiles as string[];
      assert.equal(typeof delivered[0], 'string');
      for (const key of ['status', 'id', 'type', 'message']) assert.ok(key in order.json, key);
      const bytes = await send(env().url, 'GET', delivered[0]);
      assert.equal(bytes.status, 200);
    });

    it('an order for a record without a file answers Failed with no deliveredFiles (the server reports "No download URL")', async () => {
      const bare = expectStatus(await send(env().url, 'POST', '/api/core/records', mcp(), JSON.stringify({ title: 'no file' })), 201);
      const body = { type: 'download', disableNotification: true, targets: [{ recordId: String(bare.json.id), targetTypes: ['Document'], assetType: 'LatestVersionOfMasterFile' }] };
      const order = expectStatus(await send(env().url, 'POST', '/api/core/orders', mcp(), JSON.stringify(body)), 201);
      assert.equal(order.json.status, 'Failed');
      assert.deepEqual(order.json.deliveredFiles, []);
      assert.equal(typeof order.json.message, 'string');
    });
  });

  // Aprimo-Connect/aprimo-inriver-extension, Aprimo.InRiver.InboundExtension/AprimoInboundDataExtension.cs (GetRecord,
  // EditAprimoRecord, createOperation) and Aprimo.InRiver.OutboundExtension/AprimoListenerExtension.cs (LinkCreated,
  // ConstructAddOrUpdateObjects): dynamic Newtonsoft reads, bodies concatenated by hand, exactly 204 required.
  describe('an inRiver PIM connector (.NET)', () => {
    const inriver = () => ({ Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/json', 'User-Agent': 'Aprimo inRiver Connector' });
    const put = (body: string, id = ownRecord) => send(env().url, 'PUT', `/api/core/record/${id}`, { ...inriver(), 'Content-Type': 'application/json; charset=utf-8' }, body);
    const statusBody = (value: string, trailingComma = false) =>
      `{     "fields":         {          "addOrUpdate":[            {                "id": "${fieldId}",                     "localizedValues":[                    {                          "languageId":"${NEUTRAL}",                         "value": "${value}"                     }                    ]              }${trailingComma ? ',' : ''}           ]       }}`;

    it('reads masterFileLatestVersion.fileName, fileState, fileType.mimeType, preview.uri and fields.items', async () => {
      const read = await send(env().url, 'GET', `/api/core/record/${imageRecord}`, { ...inriver(), 'select-record': 'masterfilelatestversion, fields, preview', 'select-fileversion': 'filetype' });
      const r = expectStatus(read, 200).json as Record<string, Record<string, unknown>>;
      assert.equal(typeof r.masterFileLatestVersion.fileName, 'string');
      // The connector waits (2, 4, 8, 10 minutes) until this says Available.
      assert.equal(r.masterFileLatestVersion.fileState, 'Available');
      assert.match(String((r.masterFileLatestVersion.fileType as { mimeType: string }).mimeType), /^image\//);
      assert.match(String(r.preview.uri), /^http/);
      const items = (r.fields as unknown as { items: { fieldName: string; localizedValues: { value?: string }[] }[] }).items;
      assert.ok(items.length > 0 && typeof items[0].fieldName === 'string');
    });

    it('the preview URI it reads is downloadable as the resource file (AddFileFromUrl)', async () => {
      const read = await send(env().url, 'GET', `/api/core/record/${imageRecord}`, { ...inriver(), 'select-record': 'preview' });
      const uri = String((read.json.preview as { uri: string }).uri);
      const bytes = await send(env().url, 'GET', uri);
      assert.equal(bytes.status, 200);
      assert.match(String(bytes.headers.get('content-type')), /^image\/jpeg/);
    });

    it('a record whose file is no image has fileState Available and no preview, so the connector does not wait', async () => {
      const read = await send(env().url, 'GET', `/api/core/record/${ownRecord}`, { ...inriver(), 'select-record': 'masterfilelatestversion, fields, preview', 'select-fileversion': 'filetype' });
      const r = expectStatus(read, 200).json as Record<string, Record<string, unknown> | null>;
      assert.equal(r.masterFileLatestVersion!.fileState, 'Available');
      assert.equal((r.masterFileLatestVersion!.fileType as { mimeType: string }).mimeType, 'text/plain');
      assert.equal(r.preview, null);
    });

    it('writes the status field with a hand-built body full of spaces and requires exactly 204', async () => {
      expectStatus(await put(statusBody('Complete')), 204);
      const field = await send(env().url, 'GET', `/api/core/record/${ownRecord}/field/${fieldId}`, inriver());
      assert.equal((field.json.localizedValues as { value: string }[])[0].value, 'Complete');
    });

    it('writes the resource id with a trailing comma after the last field (createOperation), as Newtonsoft accepts it', async () => {
      expectStatus(await put(statusBody('4711', true)), 204);
      const field = await send(env().url, 'GET', `/api/core/record/${ownRecord}/field/${fieldId}`, inriver());
      assert.equal((field.json.localizedValues as { value: string }[])[0].value, '4711');
    });

    it('maps several entity fields at once (LinkCreated), the last comma removed', async () => {
      const defs = await send(env().url, 'GET', '/api/core/fielddefinitions?pageSize=200', inriver());
      const texts = (defs.json.items ?? []).filter((d) => d.dataType === 'SingleLineText').slice(0, 2).map((d) => String(d.id));
      const parts = texts.map((id, i) => `{     "id": "${id}",          "localizedValues":[         {              "languageId":"${NEUTRAL}",             "value": "SKU-${i}"          }         ]  },`);
      const joined = parts.join('').slice(0, -1);
      expectStatus(await put(`{     "fields":         {          "addOrUpdate":[${joined}]       }}`), 204);
      for (const [i, id] of texts.entries()) {
        const field = await send(env().url, 'GET', `/api/core/record/${ownRecord}/field/${id}`, inriver());
        assert.equal((field.json.localizedValues as { value: string }[])[0].value, `SKU-${i}`);
      }
    });

    it('a status message with an unescaped quote is a 400 with the error object, not a 5xx (the connector logs it)', async () => {
      const broken = await put(statusBody('Resource "x" exists'));
      expectStatus(broken, 400);
    });
  });

  // Aprimo-Connect/aprimo-pkce-starter-kit-nextjs: app/my-item/page.tsx (aprimo-js search.records with an Expander for
  // record fields, masterfilelatestversion, classifications and fileversion thumbnail, preview) and
  // app/oauth/callback/page.tsx (code exchange with the verifier, a client secret only when configured; it keeps
  // access_token, token_type and expires_in).
  describe('a Next.js PKCE starter kit', () => {
    const redirect = 'http://localhost:3000/oauth/callback';
    async function code(scope = 'api'): Promise<{ code: string; verifier: string }> {
      const verifier = randomBytes(48).toString('base64url');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const q = new URLSearchParams({ client_id: EMULATOR_CLIENT.clientId, redirect_uri: redirect, response_type: 'code', scope, code_challenge: challenge, code_challenge_method: 'S256', state: 'xyz' });
      expectStatus(await send(env().url, 'GET', `/login/connect/authorize?${q.toString()}`, { Accept: 'text/html' }), 200);
      const consent = await send(env().url, 'POST', '/login/connect/authorize', { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' }, q.toString());
      assert.equal(consent.status, 302);
      const location = new URL(String(consent.headers.get('location')));
      assert.equal(location.searchParams.get('state'), 'xyz');
      return { code: location.searchParams.get('code')!, verifier };
    }
    const exchange = (c: { code: string; verifier: string }, secret?: string) =>
      send(
        env().url,
        'POST',
        '/login/connect/token',
        { 'Content-Type': 'application/x-www-form-urlencoded' },
        new URLSearchParams({ grant_type: 'authorization_code', client_id: EMULATOR_CLIENT.clientId, code: c.code, redirect_uri: redirect, code_verifier: c.verifier, ...(secret ? { client_secret: secret } : {}) }).toString(),
      );

    it('exchanges the code without a secret and keeps access_token, token_type and expires_in', async () => {
      const t = expectStatus(await exchange(await code()), 200).json;
      assert.equal(t.token_type, 'Bearer');
      assert.equal(typeof t.expires_in, 'number');
      assert.ok(String(t.access_token).length > 20);
    });

    it('exchanges the code with NEXT_PUBLIC_APRIMO_CLIENT_SECRET when it is set', async () => {
      expectStatus(await exchange(await code(), EMULATOR_CLIENT.clientSecret), 200);
    });

    it('a code used twice (a React effect run twice in development) is refused the second time with invalid_grant', async () => {
      const c = await code();
      expectStatus(await exchange(c), 200);
      const again = expectStatus(await exchange(c), 400);
      assert.equal(again.json.error, 'invalid_grant');
    });

    it('with offline_access asked, the exchange answers a refresh token that renews the session', async () => {
      const t = expectStatus(await exchange(await code('api offline_access')), 200).json;
      const renewed = await send(env().url, 'POST', '/login/connect/token', { 'Content-Type': 'application/x-www-form-urlencoded' }, `grant_type=refresh_token&client_id=${EMULATOR_CLIENT.clientId}&refresh_token=${String(t.refresh_token)}`);
      assert.ok(expectStatus(renewed, 200).json.access_token);
    });

    it('finds the item by id=\'…\' with the expander\'s select headers and reads the first item', async () => {
      const c = expectStatus(await exchange(await code()), 200).json;
      const headers = {
        Authorization: `Bearer ${String(c.access_token)}`,
        'API-VERSION': '1',
        Accept: 'application/hal+json',
        'Content-Type': 'application/json',
        'select-record': 'fields,masterfilelatestversion,classifications',
        'select-fileversion': 'thumbnail,preview',
      };
      const answer = expectStatus(await send(env().url, 'POST', '/api/core/search/records', headers, JSON.stringify({ searchExpression: { expression: `id='${imageRecord}'` } })), 200);
      assert.deepEqual(ids(answer), [imageRecord]);
      const embedded = (answer.json.items![0] as { _embedded: { masterfilelatestversion: { _embedded: { thumbnail: { uri: string } } }; fields: unknown; classifications: unknown } })._embedded;
      assert.match(embedded.masterfilelatestversion._embedded.thumbnail.uri, /^http/);
      assert.ok(embedded.fields && embedded.classifications);
    });

    it('finds the item by a dashed id too (a URL parameter pasted from the DAM)', async () => {
      const dashed = imageRecord.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
      const answer = await send(env().url, 'POST', '/api/core/search/records', { Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/hal+json', 'Content-Type': 'application/json' }, JSON.stringify({ searchExpression: { expression: `id='${dashed}'` } }));
      assert.deepEqual(ids(expectStatus(answer, 200)), [imageRecord]);
    });
  });

  // The Laravel DAM importer's Aprimo source (PHP namespace MariusCucuruz\DAMImporter\Integrations\Aprimo, class Aprimo:
  // getTokens, getRecordIdsPageItems, getRecordsByIds, fileProperties, createOrderDownloadUrl, commonDownloadMultiPart).
  // Laravel's Http client: asJson, API-VERSION from config, retries once on 401 with a new token.
  describe('a PHP DAM importer (Laravel)', () => {
    const php = () => ({ Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/json', 'Content-Type': 'application/json', 'User-Agent': 'DAMImporter/1.0' });

    it('asks for its token as a form with Cache-Control no-cache and reads access_token and expires_in', async () => {
      const body = new URLSearchParams({ client_id: EMULATOR_CLIENT.clientId, client_secret: EMULATOR_CLIENT.clientSecret, scope: 'api', grant_type: 'client_credentials' });
      const answer = expectStatus(await send(env().url, 'POST', '/login/connect/token', { 'Content-Type': 'application/x-www-form-urlencoded', 'Cache-Control': 'no-cache', Accept: 'application/json', 'User-Agent': 'DAMImporter/1.0' }, body.toString()), 200);
      assert.ok(answer.json.access_token);
      assert.equal(typeof answer.json.expires_in, 'number');
    });

    it('pages a folder\'s search by page and pageSize in the query, logRequest false, until page * pageSize >= totalCount', async () => {
      let page = 1;
      const pageSize = 100;
      const seen = new Set<string>();
      let total: number;
      for (;;) {
        const answer = expectStatus(await send(env().url, 'POST', `/api/core/search/records?page=${page}&pageSize=${pageSize}`, php(), JSON.stringify({ searchExpression: { expression: 'ContentType = Video' }, logRequest: false })), 200);
        assert.equal(answer.json.page, page);
        for (const id of ids(answer)) seen.add(id);
        total = Number(answer.json.totalCount);
        if (page * pageSize >= total) break;
        page++;
      }
      assert.equal(seen.size, total);
    });

    it('reads a batch of records by "id = ? OR id = ?" with parameters and Select-Record (PascalCase)', async () => {
      const some = ids(await send(env().url, 'POST', '/api/core/search/records?page=1&pageSize=3', php(), JSON.stringify({ searchExpression: { expression: 'ContentType = Image AND FileCount > 0' } })));
      const expression = some.map(() => 'id = ?').join(' OR ');
      const answer = await send(env().url, 'POST', `/api/core/search/records?page=1&pageSize=${some.length}`, { ...php(), 'Select-Record': 'masterfilelatestversion,thumbnail,fields' }, JSON.stringify({ searchExpression: { expression, parameters: some }, logRequest: false }));
      assert.deepEqual(new Set(ids(expectStatus(answer, 200))), new Set(some));
      const items = answer.json.items as { masterFileLatestVersion: Record<string, unknown>; thumbnail: { uri: string } | null; fields: { items: unknown[] } }[];
      const item = items.find((i) => i.thumbnail) ?? items[0];
      // fileProperties: the extension (filterSupportedFileExtensions), name, size and the file's own dates.
      assert.equal(typeof item.masterFileLatestVersion.fileExtension, 'string');
      assert.equal(typeof item.masterFileLatestVersion.fileSize, 'number');
      assert.ok(!Number.isNaN(Date.parse(String(item.masterFileLatestVersion.fileCreatedOn))));
      assert.ok(!Number.isNaN(Date.parse(String(item.masterFileLatestVersion.fileModifiedOn))));
      assert.match(String(item.thumbnail?.uri), /^http/);
      assert.ok(Array.isArray(item.fields.items));
    });

    it('orders a download with useCDN, disableProcessing and singleFileZipMode, requiring status success and deliveredFiles.0', async () => {
      const payload = {
        type: 'download',
        useCDN: 'Automatic',
        disableNotification: true,
        disableProcessing: 'YesIfPermissionGranted',
        singleFileZipMode: 'never',
        targets: [{ recordId: imageRecord, targetTypes: ['Document'], assetType: 'LatestVersionOfMasterFile' }],
      };
      const order = expectStatus(await send(env().url, 'POST', '/api/core/orders', php(), JSON.stringify(payload)), 201);
      assert.equal(String(order.json.status).toLowerCase(), 'success');
      assert.equal(typeof (order.json.deliveredFiles as string[])[0], 'string');
    });

    it('downloads the delivered file in ranges, each answered 206 until the range is past the end (416)', async () => {
      const order = await send(env().url, 'POST', '/api/core/orders', php(), JSON.stringify({ type: 'download', disableNotification: true, targets: [{ recordId: imageRecord, targetTypes: ['Document'], assetType: 'LatestVersionOfMasterFile' }] }));
      const url = (order.json.deliveredFiles as string[])[0];
      const whole = await send(env().url, 'GET', url);
      const size = Number(whole.headers.get('content-length') ?? Buffer.byteLength(whole.text));
      const chunk = Math.max(1, Math.ceil(size / 3));
      let start = 0;
      let parts = 0;
      for (;;) {
        const res = await fetch(url, { headers: { Range: `bytes=${start}-${start + chunk}` } });
        await res.arrayBuffer();
        if (res.status !== 206) {
          assert.equal(res.status, 416);
          break;
        }
        parts++;
        start += chunk + 1;
      }
      assert.ok(parts >= 2);
    });

    it('a request with an expired or unknown token is a 401 with the error object, on which it asks for a new token once', async () => {
      const answer = await send(env().url, 'POST', '/api/core/search/records?page=1&pageSize=1', { ...php(), Authorization: 'Bearer expired-token' }, JSON.stringify({ searchExpression: { expression: '*' } }));
      expectStatus(answer, 401);
    });
  });
});
