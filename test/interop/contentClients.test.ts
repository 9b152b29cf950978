// Content-API, check, order and search requests of public clients, replayed as raw HTTP with the headers and bodies
// their sources set (cited per test: repository, file, function). What each client reads from the answer is asserted.
import { strict as assert } from 'node:assert';
import { CHECK_ACTION_TYPE_ID } from '../../src/core/contract';
import { describeEachBackend } from '../conformance/helpers';
import { clientCredentialsToken, expectStatus, send, type Answer } from './replay';

describeEachBackend('interop: content API clients', {}, (env) => {
  let token = '';
  let imageRecord = '';
  let versionId = '';
  const ids = (a: Answer) => (a.json.items ?? []).map((i) => String(i.id));

  before(async () => {
    token = await clientCredentialsToken(env().url);
    const dam = { Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/json', 'User-Agent': 'interop' };
    const found = await send(env().url, 'POST', '/api/core/search/records', { ...dam, 'Content-Type': 'application/json' }, JSON.stringify({ searchExpression: { expression: "ContentType = Image AND FileCount > 0" } }));
    imageRecord = ids(found)[0];
    const read = await send(env().url, 'GET', `/api/core/record/${imageRecord}`, { ...dam, 'select-record': 'masterfilelatestversion' });
    versionId = String((read.json.masterFileLatestVersion as { id: string }).id);
  });

  // timw255/aprimo-js, src/client.ts (damHttp) and src/utils.ts buildHeaders: paging as request headers,
  // `Content-Type: application/json` on every call, no User-Agent of its own (axios sends its default).
  describe('aprimo-js (TypeScript SDK)', () => {
    const dam = () => ({ 'API-VERSION': '1', Accept: 'application/hal+json', 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'User-Agent': 'axios/1.7.2' });

    it('lists records with page and pageSize as headers, following _links.next', async () => {
      const first = expectStatus(await send(env().url, 'GET', '/api/core/records', { ...dam(), page: '1', pageSize: '100' }), 200);
      assert.equal(first.json.items?.length, 100);
      assert.ok((first.json._links as Record<string, { href: string }>).next.href);
    });

    it('reads a record with select headers in the caller\'s casing (select-Record: masterfile,fields; select-File: fileversions)', async () => {
      const read = expectStatus(await send(env().url, 'GET', `/api/core/record/${imageRecord}`, { ...dam(), 'select-Record': 'masterfile,fields', 'select-File': 'fileversions' }), 200);
      const master = (read.json._embedded as { masterfile: { _embedded: { fileversions: { items: unknown[] } } } }).masterfile;
      assert.ok(master._embedded.fileversions.items.length >= 1);
    });

    it('creates a record with "fileName" (capital N), updates a field by "fieldId", deletes with an empty JSON body', async () => {
      const created = expectStatus(await send(env().url, 'POST', '/api/core/records', { ...dam(), 'set-immediateSearchIndexUpdate': 'true' }, JSON.stringify({ status: 'draft', title: 'SDK record' })), 201);
      const id = String(created.json.id);
      const defs = await send(env().url, 'GET', '/api/core/fielddefinitions', { ...dam(), filter: "Name = 'Photographer'" });
      const fieldId = ids(defs)[0];
      // README: fields.addOrUpdate[] with `fieldId`, languageId of the neutral language.
      const update = { fields: { addOrUpdate: [{ fieldId, localizedValues: [{ languageId: '00000000000000000000000000000000', value: 'Updated value' }] }] } };
      expectStatus(await send(env().url, 'PUT', `/api/core/record/${id}`, dam(), JSON.stringify(update)), 204);
      const field = await send(env().url, 'GET', `/api/core/record/${id}/field/Photographer`, dam());
      assert.equal((field.json.localizedValues as { value: string }[])[0].value, 'Updated value');
      expectStatus(await send(env().url, 'DELETE', `/api/core/record/${id}`, dam()), 204);
    });

    it('searches with the full search expression object and schedules an index rebuild', async () => {
      const body = { searchExpression: { expression: 'Title contains harbour', parameters: [], namedParameters: {}, supportWildcards: true, defaultLogicalOperator: 'AND', languages: [] }, logRequest: false };
      const hits = expectStatus(await send(env().url, 'POST', '/api/core/search/records', dam(), JSON.stringify(body)), 200);
      assert.ok((hits.json.totalCount as number) > 0);
      expectStatus(await send(env().url, 'PUT', '/api/core/searchindex', dam(), JSON.stringify({ rebuildScheduled: true })), 204);
    });

    it('uses the check framework with lower-case paths and "Pass" as its JSDoc writes it', async () => {
      const categories = expectStatus(await send(env().url, 'GET', '/api/core/checkcategories', dam()), 200);
      const check = expectStatus(
        await send(env().url, 'POST', '/api/core/checks', dam(), JSON.stringify({ name: 'SDK check', actionTypeId: CHECK_ACTION_TYPE_ID, checkCategoryId: ids(categories)[0] })),
        201,
      );
      const result = expectStatus(await send(env().url, 'POST', `/api/core/fileversion/${versionId}/checkresults`, dam(), JSON.stringify({ checkId: check.json.id, outcome: 'Pass', description: 'ok' })), 201);
      expectStatus(await send(env().url, 'POST', `/api/core/fileversion/${versionId}/checkresult/${result.json.id}/findings`, dam(), JSON.stringify({ occurrence: 1, finding: 'logo', outcome: 'Fail' })), 201);
      const findings = expectStatus(await send(env().url, 'GET', `/api/core/fileversion/${versionId}/checkresult/${result.json.id}/findings`, dam()), 200);
      assert.equal((findings.json.items?.[0] as { outcome: string }).outcome, 'fail');
    });
  });

  // dcaelopre/ts-ce-aprimo-mcp, src/aprimo/search.ts searchRecords and src/aprimo/classifications.ts: no User-Agent of
  // its own (Node fetch sends `node`), expressions built from APRIMO_SEARCH_FIELDS.
  describe('an MCP server', () => {
    const mcp = () => ({ Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/hal+json', 'User-Agent': 'node' });

    it('searches Keywords and the master file name with CONTAINS, reading page, pageSize and totalCount', async () => {
      const body = { searchExpression: { expression: "Keywords CONTAINS 'sunset' OR LatestVersionOfMasterfile.FileName CONTAINS 'sunset'" } };
      const hits = await send(env().url, 'POST', '/api/core/search/records?page=1&pageSize=25', { ...mcp(), 'Content-Type': 'application/json', 'select-record': 'title,thumbnail,status' }, JSON.stringify(body));
      expectStatus(hits, 200);
      assert.equal(hits.json.page, 1);
      assert.equal(hits.json.pageSize, 25);
      assert.ok((hits.json.totalCount as number) > 0);
    });

    it('reads a classification with its parent and children, and searches classifications by name', async () => {
      const all = await send(env().url, 'GET', '/api/core/classifications?page=1&pageSize=200', { ...mcp(), languages: '*' });
      const child = (all.json.items ?? []).find((c) => c.parentId) as { id: string };
      const read = expectStatus(await send(env().url, 'GET', `/api/core/classification/${child.id}`, { ...mcp(), 'select-classification': 'parent,children', languages: '*' }), 200);
      assert.ok((read.json._embedded as { parent: unknown }).parent);
      const found = await send(env().url, 'POST', '/api/core/search/classifications?page=1&pageSize=25', { ...mcp(), 'Content-Type': 'application/json' }, JSON.stringify({ searchExpression: { expression: "Name CONTAINS 'Kitchen' OR Identifier CONTAINS 'Kitchen'" } }));
      expectStatus(found, 200);
      assert.ok((found.json.totalCount as number) >= 1);
    });

    it('pages field definitions and setting definitions with headers', async () => {
      expectStatus(await send(env().url, 'GET', '/api/core/fielddefinitions', { ...mcp(), page: '1', pageSize: '200' }), 200);
      expectStatus(await send(env().url, 'GET', '/api/core/settingdefinitions?page=1&pageSize=200', { ...mcp(), languages: '*' }), 200);
    });
  });

  // Aprimo-Connect/DAM-Configuration-Moving-Tools (RestSharp): base …/api/core, Accept application/hal+json, success
  // only on 200 (GET), 201 (POST) and 204 (PUT). ExportHelper.GetSettingValues, ImportHelper.*, GetClassificationByNamepath.
  describe('a .NET configuration mover', () => {
    const rest = () => ({ Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/hal+json', 'User-Agent': 'RestSharp/110.2.0.0' });

    it('asks for its token without a scope and with a field the server does not know', async () => {
      const answer = await send(env().url, 'POST', '/login/connect/token', { 'Content-Type': 'application/x-www-form-urlencoded' }, 'grant_type=client_credentials&client_credentials=configmover&client_id=dam-emulator&client_secret=dam-emulator-secret');
      expectStatus(answer, 200);
      assert.equal(answer.json.token_type, 'Bearer');
      // Clients read the expiry from the token's own `exp` claim.
      const claims = JSON.parse(Buffer.from(String(answer.json.access_token).split('.')[1], 'base64url').toString()) as { exp: number };
      assert.ok(claims.exp > Date.now() / 1000);
    });

    it('exports with pageSize and filter headers, following absolute next links', async () => {
      const first = expectStatus(await send(env().url, 'GET', '/api/core/classifications', { ...rest(), pageSize: '10', 'select-classification': 'NamePath, HasChildren, image, fields', languages: '*' }), 200);
      const next = (first.json._links as Record<string, { href: string }>).next.href;
      assert.match(next, /^http:\/\//);
      expectStatus(await send(env().url, 'GET', next, rest()), 200);
      const filtered = expectStatus(await send(env().url, 'GET', '/api/core/fielddefinitions', { ...rest(), pageSize: '1000', filter: "name <> '*DAM*'" }), 200);
      assert.ok((filtered.json.items?.length ?? 0) >= 5);
    });

    it('imports: POST must answer 201, PUT 204, settings with nulls and a scope, the index rebuild in single-quoted JSON', async () => {
      const group = expectStatus(await send(env().url, 'POST', '/api/core/fieldgroups', { ...rest(), 'Content-Type': 'application/json' }, JSON.stringify({ labels: null, name: 'Moved group', sortIndex: null })), 201);
      assert.ok(group.json.id);
      const setting = { name: '.renditionPreset', scope: 'system', scopeId: null, value: [{ name: 'thumbnail', format: 'png', size: 256 }, { name: 'web', format: 'jpg', size: 1024 }, { name: 'cutout', format: 'png', aiActions: ['removeBackground'] }] };
      expectStatus(await send(env().url, 'PUT', '/api/core/setting/.renditionPreset', { ...rest(), 'Content-Type': 'application/json' }, JSON.stringify(setting)), 204);
      expectStatus(await send(env().url, 'PUT', '/api/core/searchindex', { ...rest(), 'Content-Type': 'application/json' }, "{ 'rebuildScheduled': true }"), 204);
    });

    it('finds a classification by name path: /classification/?namepath= with %2f and +', async () => {
      const found = expectStatus(await send(env().url, 'GET', '/api/core/classification/?namepath=%2fProducts%2fOutdoor', rest()), 200);
      assert.equal(found.json.namePath, '/Products/Outdoor');
      const spaced = expectStatus(await send(env().url, 'GET', '/api/core/classification/?namepath=%2fRegions%2fAsia+Pacific', rest()), 200);
      assert.equal(spaced.json.name, 'Asia Pacific');
      expectStatus(await send(env().url, 'GET', '/api/core/classification/?namepath=%2fNo%2fSuch', rest()), 404);
    });
  });

  // Aprimo-Connect/Classification-Importer-Tool, Helpers/ConfigurationHelper.cs, CreateClassification: DataContract JSON
  // (nulls included), parent by `parentNamePath`, label key `languageid`.
  it('classification importer: parent by parentNamePath, "languageid", explicit nulls, filter header on field definitions', async () => {
    const headers = { Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/json, text/json, text/x-json', 'User-Agent': 'RestSharp/106.11.7.0', 'Content-Type': 'application/json' };
    const body = { fields: null, identifier: 'PRD-1', labels: [{ languageid: 'c2bd4f9bbb954bcb80c31e924c9c26dc', value: 'Product 1' }], name: 'Product 1', parentNamePath: '/Products/Kitchen' };
    const created = expectStatus(await send(env().url, 'POST', '/api/core/classifications', headers, JSON.stringify(body)), 201);
    assert.equal(created.json.namePath, '/Products/Kitchen/Product 1');
    const defs = expectStatus(await send(env().url, 'GET', '/api/core/fielddefinitions', { ...headers, filter: "name='Photographer'" }), 200);
    assert.equal((defs.json.items?.[0] as { dataType: string }).dataType, 'SingleLineText');
  });

  // Aprimo-Connect/aprimo-akeneo-connector, src/API/Aprimo/AprimoDAMService.cs GetRecord, UpdateRecordFields: plain JSON,
  // fields named by `name`, exactly 204 required.
  it('Akeneo connector: reads plain JSON fields.items, updates a field by name and requires 204', async () => {
    const headers = { Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/json', 'User-Agent': 'Aprimo.Akeneo.Connector/HOST' };
    const read = expectStatus(await send(env().url, 'GET', `/api/core/record/${imageRecord}`, { ...headers, 'select-record': 'fields' }), 200);
    assert.ok(((read.json.fields as { items: { fieldName: string }[] }).items).some((f) => f.fieldName === 'Description'));
    const update = { fields: { addOrUpdate: [{ name: 'Photographer', localizedValues: [{ languageId: '00000000000000000000000000000000', value: 'Akeneo' }] }] } };
    expectStatus(await send(env().url, 'PUT', `/api/core/record/${imageRecord}`, { ...headers, 'Content-Type': 'application/json; charset=utf-8' }, JSON.stringify(update)), 204);
  });

  // Aprimo-Connect/aprimo-optimizely-extension, Aprimo.Opti/Services/AprimoAssetService.cs GetAsset, SearchAsset, AddOrUpdate.
  it('Optimizely extension: select headers with ", ", page headers on search, value and values both sent; .NET models need a versionNumber', async () => {
    const headers = { 'Content-Type': 'application/json;charset=utf-8', Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/hal+json', 'User-Agent': 'RestSharp/106.6.10.0' };
    const read = expectStatus(await send(env().url, 'GET', `/api/core/record/${imageRecord}`, { ...headers, 'select-record': 'preview, thumbnail, masterfilelatestversion, fields', 'select-fileversion': 'additionalfiles' }), 200);
    const version = (read.json._embedded as { masterfilelatestversion: { versionNumber: number; fileSize?: number | null } }).masterfilelatestversion;
    assert.equal(typeof version.versionNumber, 'number');
    // Never null (a non-nullable long there): a seeded version whose bytes are not made yet leaves it out.
    assert.notEqual(version.fileSize, null);
    const hits = expectStatus(await send(env().url, 'POST', '/api/core/search/records', { ...headers, page: '1', pageSize: '50' }, JSON.stringify({ searchExpression: { expression: 'ContentType = Image' }, logRequest: false })), 200);
    assert.equal(hits.json.pageSize, 50);
    const update = { fields: { addOrUpdate: [{ id: 'f1e1d0000000400080000000000000a5', localizedValues: [{ value: 'Opti', languageId: '00000000000000000000000000000000', values: [] }] }] } };
    expectStatus(await send(env().url, 'PUT', `/api/core/record/${imageRecord}`, headers, JSON.stringify(update)), 204);
  });

  // Aprimo-Connect/aprimo-episerver-extension, Aprimo.Epi.Extensions/Services/AprimoRestService.cs GetClassificationChildren,
  // GetAssets (two criteria with no operator; recurses while page * pageSize < totalCount), AprimoBlobHelper.cs orders.
  it('Episerver extension: unquoted parent.id filter, criteria side by side, orders polled until "Success"', async () => {
    const headers = { 'Content-Type': 'application/json;charset=utf-8', Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/hal+json', 'User-Agent': 'RestSharp/106.6.10.0' };
    const roots = await send(env().url, 'GET', "/api/core/classifications?filter=name%3DProducts", headers);
    const children = expectStatus(await send(env().url, 'GET', `/api/core/classifications?filter=parent.id%3D${ids(roots)[0]}`, { ...headers, 'select-record': 'preview' }), 200);
    assert.equal(children.json.items?.length, 4);
    const leaf = (await send(env().url, 'GET', `/api/core/classification/${ids(children)[0]}/children`, headers)).json.items?.[0] as { id: string };
    const body = { searchExpression: { expression: `DirectClassification.Id=${leaf.id} FileCount > 0` }, logRequest: true };
    const page = expectStatus(await send(env().url, 'POST', '/api/core/search/records', { ...headers, page: '1', pageSize: '50', 'select-record': 'preview, thumbnail, masterfilelatestversion, fields' }, JSON.stringify(body)), 200);
    assert.equal(page.json.page, 1);
    assert.equal(page.json.pageSize, 50);
    const order = await send(
      env().url,
      'POST',
      '/api/core/orders',
      headers,
      JSON.stringify({ type: 'download', creatorEmail: 'episerver@aprimo.com', targets: [{ recordId: imageRecord, targetTypes: ['Document'], assetType: 'LatestVersionOfMasterFile' }] }),
    );
    expectStatus(order, 201);
    const polled = expectStatus(await send(env().url, 'GET', `/api/core/order/${order.json.id}`, headers), 200);
    assert.equal(polled.json.status, 'Success');
    const file = String((polled.json.deliveredFiles as string[])[0]);
    // Downloaded with a plain WebClient: no token, only the link's own signature.
    const bytes = await fetch(file, { headers: { 'User-Agent': 'WebClient' } });
    assert.equal(bytes.status, 200);
  });

  // Aprimo-Connect/Aprimo.PublicLinks.Export, AprimoRESTApi.cs searchAprimoRecords: logRequest as the string "true",
  // paging headers, plain camelCase masterFileLatestVersion.
  it('public links export: "logRequest":"true", HasPublicUri on the master file, plain camelCase embedded names', async () => {
    const headers = {
      Authorization: `Bearer ${token}`,
      'API-VERSION': '1',
      Accept: 'application/json',
      'User-Agent': 'Aprimo.PublicLinks.Export',
      pageSize: '50',
      page: '1',
      'select-record': 'masterfilelatestversion',
      'Content-Type': 'application/json',
    };
    const none = expectStatus(await send(env().url, 'POST', '/api/core/search/records', headers, JSON.stringify({ searchExpression: { expression: 'LatestVersionOfMasterFile.HasPublicUri = true' }, logRequest: 'true' })), 200);
    assert.equal(none.json.totalCount, 0);
    const some = expectStatus(await send(env().url, 'POST', '/api/core/search/records', headers, JSON.stringify({ searchExpression: { expression: 'FileCount > 0' }, logRequest: 'true' })), 200);
    assert.ok((some.json.items?.[0] as { masterFileLatestVersion?: { id: string } }).masterFileLatestVersion?.id);
  });

  // Aprimo-Connect/CheckFramework-Demo, Services/AprimoApiService.cs: reads only `id` of a created result, plain
  // masterFileLatestVersion, and deliveredFiles[0] from the order's create answer.
  it('check framework demo: plain masterFileLatestVersion.id, a result read back by its id, deliveredFiles in the order answer', async () => {
    const headers = { Accept: 'application/json', 'User-Agent': 'Compliance Check POC', 'API-VERSION': '1', Authorization: `Bearer ${token}` };
    const read = expectStatus(await send(env().url, 'GET', `/api/core/record/${imageRecord}`, { ...headers, 'select-record': 'masterfilelatestversion' }), 200);
    const fv = (read.json.masterFileLatestVersion as { id: string }).id;
    const checks = expectStatus(await send(env().url, 'GET', '/api/core/checks', headers), 200);
    const created = await send(env().url, 'POST', `/api/core/fileversion/${fv}/checkresults`, { ...headers, 'Content-Type': 'application/json' }, JSON.stringify({ checkId: ids(checks)[0], outcome: 'info', description: 'Qr Code points to a valid URL, linked [here](https://example.com)' }));
    expectStatus(created, 201);
    expectStatus(await send(env().url, 'DELETE', `/api/core/fileversion/${fv}/checkresult/${created.json.id}`, headers), 204);
    const order = await send(
      env().url,
      'POST',
      '/api/core/orders',
      { ...headers, 'Content-Type': 'application/json' },
      JSON.stringify({ type: 'download', disableNotification: true, targets: [{ recordId: imageRecord, targetTypes: ['Document'], assetType: 'LatestVersionOfMasterFile' }] }),
    );
    expectStatus(order, 201);
    assert.ok(order.headers.get('location'), 'the migration connector requires a Location');
    assert.match(String((order.json.deliveredFiles as string[])[0]), /^http:\/\/.*\/download\?/);
  });

  // Aprimo-Connect/dam-metadata-extract-utility, src/AprimoExport/Auth/OAuthTokenProvider.cs (client_secret_basic) and
  // Export/PagedRecordReader.cs (keyset expressions with bare ISO instants, sort in the query).
  it('metadata extract: token by HTTP Basic with no credentials in the body, keyset search over ModifiedOn', async () => {
    const basic = Buffer.from('dam-emulator:dam-emulator-secret').toString('base64');
    const answer = expectStatus(await send(env().url, 'POST', '/login/connect/token', { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' }, 'grant_type=client_credentials&scope=api'), 200);
    const headers = { Authorization: `Bearer ${answer.json.access_token}`, 'API-VERSION': '1', Accept: 'application/json', 'User-Agent': 'AprimoExport/1.0', languages: '*', 'Content-Type': 'application/json' };
    const body = { searchExpression: { expression: 'ModifiedOn >= 1900-01-01T00:00:00.000Z', parameters: [], namedParameters: {}, supportWildcards: true, defaultLogicalOperator: 'AND' }, logRequest: false };
    const page = expectStatus(await send(env().url, 'POST', '/api/core/search/records?skip=0&take=100&sort=ModifiedOn', headers, JSON.stringify(body)), 200);
    assert.equal(page.json.items?.length, 100);
  });

  // jscarano/bi-aprimo-api, aprimo-client.ts getAuthToken, getRecordDetails, getImagePreview: the token request carries
  // `Authorization: Bearer null` and API-VERSION; sub-resources in camelCase paths; the preview as JSON with a uri.
  it('BI extract: a token asked with "Bearer null", camelCase sub-resource paths, /record/{id}/image/preview', async () => {
    const answer = await send(
      env().url,
      'POST',
      '/login/connect/token',
      { Authorization: 'Bearer null', 'API-VERSION': '1', Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': 'docuvera-aprimo-client' },
      'grant_type=client_credentials&scope=api&client_id=dam-emulator&client_secret=dam-emulator-secret',
    );
    expectStatus(answer, 200);
    const headers = { Authorization: `Bearer ${answer.json.access_token}`, 'API-VERSION': '1', Accept: 'application/json', 'Content-Type': 'application/json', 'User-Agent': 'docuvera-aprimo-client' };
    expectStatus(await send(env().url, 'GET', `/api/core/record/${imageRecord}/masterFileLatestVersion`, headers), 200);
    expectStatus(await send(env().url, 'GET', `/api/core/record/${imageRecord}/masterFile`, headers), 200);
    const preview = expectStatus(await send(env().url, 'GET', `/api/core/record/${imageRecord}/image/preview`, headers), 200);
    const image = await fetch(String(preview.json.uri), { headers: { 'User-Agent': 'docuvera-aprimo-client' } });
    assert.equal(image.headers.get('content-type'), 'image/jpeg');
  });

  // Aprimo-Connect/aprimo-episerver-extension RetrieveImage: the bytes at /record/{id}/image/Thumbnail/download.
  it('Episerver extension: image bytes at /image/Thumbnail/download (enum casing)', async () => {
    const res = await fetch(`${env().url}/api/core/record/${imageRecord}/image/Thumbnail/download`, {
      headers: { Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/hal+json', 'User-Agent': 'RestSharp/106.6.10.0' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
  });

  // Aprimo-Connect/Metadata-Translation-Tool, services/aprimoClient.js: `Languages: *` (capital L), exactly 204 on PUT.
  it('translation tool: Languages header in any case, a localized value PUT answered 204', async () => {
    const headers = { Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/hal+json', 'Content-Type': 'application/json', Languages: '*', 'User-Agent': 'axios/1.6.0' };
    const languages = expectStatus(await send(env().url, 'GET', '/api/core/languages', headers), 200);
    const german = (languages.json.items ?? []).find((l) => l.culture === 'de-DE') as { id: string };
    const update = { fields: { addOrUpdate: [{ id: 'f1e1d0000000400080000000000000a1', localizedValues: [{ languageId: german.id, value: 'Übersetzt' }] }] } };
    expectStatus(await send(env().url, 'PUT', `/api/core/record/${imageRecord}`, headers, JSON.stringify(update)), 204);
  });
});
