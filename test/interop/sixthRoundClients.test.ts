// Requests of public clients no earlier interop test named (issue 36, part 5: the desktop admin tool, the C# migration
// toolkit and the Java batch uploader), replayed as raw HTTP with the headers and bodies their sources set (cited per
// describe: repository, file, function). What each client reads is asserted, with the type it needs.
import { strict as assert } from 'node:assert';
import { createHash, randomBytes } from 'node:crypto';
import { EMULATOR_CLIENT } from '../../src/core/contract';
import { describeEachBackend } from '../conformance/helpers';
import { clientCredentialsToken, expectStatus, onePart, send, type Answer } from './replay';

const NEUTRAL = '00000000000000000000000000000000';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
type Item = Record<string, unknown> & { _embedded?: Record<string, { items?: Item[] } & Item>; _links?: Record<string, { href: string }> };
const items = (a: Answer) => (a.json.items ?? []) as Item[];
const dashed = (id: string) => id.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

describeEachBackend('interop: a desktop admin tool, a C# migration toolkit, a Java batch uploader', {}, (env) => {
  let token = '';

  before(async () => {
    token = await clientCredentialsToken(env().url);
  });

  // Chris-Castle/aprimo-admin-tool, an Electron desktop app: electron/auth.js (login: authorization code with PKCE on
  // the fixed loopback redirect http://127.0.0.1:3002/callback, scope "api offline_access", the code exchanged with
  // the secret as URLSearchParams; refresh: grant_type=refresh_token with id and secret; it keeps access_token,
  // refresh_token and expires_in), renderer/app.js (load: aprimo-js classifications.getPaged(undefined, undefined,
  // "*") and languages.getPaged(); fetchClassificationCounts: search.records with `Classification = '<dashed id>'`,
  // page 1, pageSize 1 in the body, reading totalCount) and renderer/data-model.js (loadDataModel: field definitions
  // by pageSize 500, field groups with an Expander for `members`, content types and classifications with their
  // registered fields and groups, rules with `conditions` and `actions`). aprimo-js (timw255/aprimo-js src/utils.ts
  // buildHeaders) sends paging as headers, select headers as `select-<Type>`, and follows `_links.next`.
  describe('a desktop admin tool (Electron, aprimo-js)', () => {
    let accessToken = '';
    const sdk = (extra: Record<string, string> = {}) => ({ 'API-VERSION': '1', Accept: 'application/hal+json', 'Content-Type': 'application/json', Authorization: `Bearer ${accessToken}`, 'User-Agent': 'axios/1.7.2', ...extra });
    async function paged(path: string, headers: Record<string, string>, pageSize: number): Promise<Item[]> {
      const all: Item[] = [];
      for (let page = 1; page < 50; page++) {
        const answer = expectStatus(await send(env().url, 'GET', path, sdk({ ...headers, page: String(page), pageSize: String(pageSize) })), 200);
        all.push(...items(answer));
        if (!(answer.json._links as Record<string, unknown> | undefined)?.next) break;
      }
      return all;
    }

    before(async () => {
      const redirect = 'http://127.0.0.1:3002/callback';
      const verifier = randomBytes(32).toString('base64url');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const state = randomBytes(16).toString('base64url');
      const query = new URLSearchParams({ response_type: 'code', client_id: EMULATOR_CLIENT.clientId, redirect_uri: redirect, scope: 'api offline_access', code_challenge: challenge, code_challenge_method: 'S256', state }).toString();
      expectStatus(await send(env().url, 'GET', `/login/connect/authorize?${query}`, { Accept: 'text/html' }), 200);
      const consent = await send(env().url, 'POST', '/login/connect/authorize', { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' }, query);
      assert.equal(consent.status, 302);
      const back = new URL(String(consent.headers.get('location')));
      assert.equal(`${back.origin}${back.pathname}`, redirect);
      assert.equal(back.searchParams.get('state'), state);
      const form = new URLSearchParams({ grant_type: 'authorization_code', client_id: EMULATOR_CLIENT.clientId, client_secret: EMULATOR_CLIENT.clientSecret, code: String(back.searchParams.get('code')), code_verifier: verifier, redirect_uri: redirect }).toString();
      const tokens = expectStatus(await send(env().url, 'POST', '/login/connect/token', { 'Content-Type': 'application/x-www-form-urlencoded' }, form), 200);
      assert.equal(typeof tokens.json.expires_in, 'number');
      // applyTokenResponse: a refresh token turns on silent refresh; refresh() then exchanges it.
      assert.equal(typeof tokens.json.refresh_token, 'string');
      const refresh = new URLSearchParams({ grant_type: 'refresh_token', client_id: EMULATOR_CLIENT.clientId, client_secret: EMULATOR_CLIENT.clientSecret, refresh_token: String(tokens.json.refresh_token) }).toString();
      const refreshed = expectStatus(await send(env().url, 'POST', '/login/connect/token', { 'Content-Type': 'application/x-www-form-urlencoded' }, refresh), 200);
      accessToken = String(refreshed.json.access_token);
    });

    it('load(): every classification (languages: *) with id, name, labelPath, parentId and labels, and the languages enabled for fields', async () => {
      const classifications = await paged('/api/core/classifications', { languages: '*' }, 100);
      assert.ok(classifications.length >= 30);
      const ids = new Set(classifications.map((c) => String(c.id)));
      for (const c of classifications) {
        assert.match(String(c.id), /^[0-9a-f]{32}$/);
        assert.equal(typeof c.name, 'string');
        assert.equal(typeof c.labelPath, 'string');
        // buildFlatItems: a node whose parentId is not among the others would be shown as a root.
        if (c.parentId) assert.ok(ids.has(String(c.parentId)), `parent of ${String(c.name)}`);
        for (const l of c.labels as { languageId: string; value: string }[]) assert.equal(typeof l.languageId.toLowerCase(), 'string');
      }
      const languages = await paged('/api/core/languages', {}, 100);
      const enabled = languages.filter((l) => l.isEnabledForFields === true);
      assert.ok(enabled.length >= 1 && enabled.every((l) => typeof l.name === 'string'));
    });

    it('fetchClassificationCounts: `Classification = \'<dashed id>\'` with page and pageSize in the body answers its totalCount', async () => {
      const classifications = await paged('/api/core/classifications', { languages: '*' }, 100);
      const withRecords = classifications.find((c) => c.parentId && c.hasChildren === false)!;
      const search = async (id: string) =>
        expectStatus(await send(env().url, 'POST', '/api/core/search/records', sdk(), JSON.stringify({ searchExpression: { expression: `Classification = '${id}'` }, page: 1, pageSize: 1 })), 200);
      const counted = await search(dashed(String(withRecords.id)));
      assert.equal(typeof counted.json.totalCount, 'number');
      assert.equal(counted.json.totalCount, (await search(String(withRecords.id))).json.totalCount);
    });

    it('loadDataModel: field definitions, field groups with their members, content types and classifications with registered fields', async () => {
      const definitions = await paged('/api/core/fielddefinitions', {}, 500);
      for (const d of definitions) {
        assert.equal(typeof d.name, 'string');
        assert.equal(typeof d.dataType, 'string');
        assert.ok(Array.isArray(d.resetToDefaultFields));
        assert.ok(Array.isArray(d.labels));
      }
      const groups = await paged('/api/core/fieldgroups', { 'select-FieldGroup': 'members' }, 200);
      assert.ok(groups.length >= 1);
      const definitionIds = new Set(definitions.map((d) => d.id));
      const members = groups.flatMap((g) => (g._embedded!.members.items ?? []).map((m) => m.id));
      assert.ok(members.length >= 1 && members.every((id) => definitionIds.has(id)), 'each member is a field definition');
      const contentTypes = await paged('/api/core/contenttypes', {}, 200);
      for (const c of contentTypes) assert.ok(Array.isArray(c.registeredFieldGroups) && Array.isArray(c.registeredFields));
      const classifications = await paged('/api/core/classifications', { languages: '*' }, 100);
      for (const c of classifications) assert.ok(Array.isArray(c.registeredFieldGroups) && Array.isArray(c.registeredFields));
    });

    it('loadRules: rules with select-Rule conditions,actions embed the conditions and actions written with addOrUpdate', async () => {
      const definition = items(expectStatus(await send(env().url, 'GET', '/api/core/fielddefinitions', sdk()), 200))[0];
      const rule = {
        name: 'Admin tool rule',
        conditions: { addOrUpdate: [{ conditionType: 'FieldValue', fieldDefinitionId: definition.id, expression: `fieldName = "${String(definition.name)}"` }] },
        actions: { addOrUpdate: [{ actionType: 'SetFieldValue', fieldDefinitionId: definition.id }] },
      };
      const created = expectStatus(await send(env().url, 'POST', '/api/core/rules', sdk(), JSON.stringify(rule)), 201);
      const rules = await paged('/api/core/rules', { 'select-Rule': 'conditions,actions' }, 200);
      const read = rules.find((r) => r.id === created.json.id)!;
      // findRuleRefs: conditions[].fieldDefinitionId / expression and actions[].fieldDefinitionId.
      const conditions = read._embedded!.conditions.items!;
      const actions = read._embedded!.actions.items!;
      assert.equal(conditions.length, 1);
      assert.equal(conditions[0].fieldDefinitionId, definition.id);
      assert.equal(conditions[0].conditionType, 'FieldValue');
      assert.equal(actions[0].actionType, 'SetFieldValue');
      // An update names an element by its id (spec, Editing): the condition changes, and a removed action is gone.
      const update = { conditions: { addOrUpdate: [{ id: conditions[0].id, conditionType: 'FieldHasValue' }] }, actions: { remove: [actions[0].id] } };
      expectStatus(await send(env().url, 'PUT', `/api/core/rule/${String(created.json.id)}`, sdk(), JSON.stringify(update)), 204);
      const again = expectStatus(await send(env().url, 'GET', `/api/core/rule/${String(created.json.id)}`, sdk({ 'select-Rule': 'conditions,actions' })), 200);
      const embedded = again.json._embedded as Record<string, { items: Item[] }>;
      assert.deepEqual(embedded.conditions.items.map((c) => [c.id, c.conditionType, c.fieldDefinitionId]), [[conditions[0].id, 'FieldHasValue', definition.id]]);
      assert.deepEqual(embedded.actions.items, []);
    });
  });

  // ChickenMSalad/MigrationBaseSolution, the AEM to Aprimo migration toolkit (.NET): src/Connectors/Targets/
  // Migration.Connectors.Targets.Aprimo/Clients/AprimoAuthClient.cs (GetAccessTokenAsync: FormUrlEncodedContent with
  // scope, Accept application/json; access_token and expires_in, the JWT's nbf awaited) and AprimoAssetClient.cs
  // (GetAllClassificationsAsync, GetAllDefinitionsAsync, GetLanguageCodeToIdMapAsync, CreateUploadSessionAsync,
  // PutToAprimoUploadUrlAsync, CreateRecordFromUploadAsync, GetAssetByAprimoIdAsync, StampMetadataAsync,
  // UploadNewVersionFileToRecordAsync, UploadAdditionalFileToRecordAsync, UploadFileToRecordAsync,
  // UploadNewMasterVersionAndResetRenditionRuleRanAsync, GetAssetByAemAssetIdAsync, GetImageSetsMissingPreviewAsync,
  // GetAllAssetIdsAsync, StreamExistingMasterFileAsync, DeleteAssetByAprimoIdAsync) with Models/Aprimo/*.cs (Newtonsoft
  // models: AprimoRecord.hasImageOverlay is a bool, AprimoLanguage.Code is `culture`). Its .NET headers: API-VERSION 1,
  // `Accept: */*`, a header literally named `ContentType` (HttpRequestHeader.ContentType.ToString()), its User-Agent.
  // The upload session, the PUT and the record from the token were replayed before (uploadClients.test.ts) without
  // its repository; here are the rest of its requests.
  describe('a C# migration toolkit (.NET HttpClient, Newtonsoft)', () => {
    const ua = 'Azure Aprimo Migration Connector';
    const net = (extra: Record<string, string> = {}) => ({ Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: '*/*', ContentType: 'application/json', 'User-Agent': ua, ...extra });
    const json = (extra: Record<string, string> = {}) => net({ 'Content-Type': 'application/json; charset=utf-8', ...extra });
    const recordSelect = { 'select-record': 'masterfile, masterfilelatestversion, fields, preview', 'select-fileversion': 'filetype' };
    let classificationId = '';
    let recordId = '';
    let enUs = '';
    let text = { id: '', name: '', label: '' };
    let option = { id: '', label: '', optionId: '' };

    async function blob(name: string, bytes: Buffer, type: string): Promise<string> {
      // CreateUploadSessionAsync (fileName, fileSize, mimeType) and PutToAprimoUploadUrlAsync (no bearer token).
      const session = expectStatus(await send(env().url, 'POST', '/uploads', json({ Accept: 'application/json' }), JSON.stringify({ fileName: name, fileSize: bytes.length, mimeType: type })), 200);
      expectStatus(await send(env().url, 'PUT', String(session.json.sasUrl), { 'x-ms-blob-type': 'BlockBlob', 'Content-Type': type, 'X-Client-Name': 'PutAprimoClient' }, new Uint8Array(bytes)), 201);
      return String(session.json.token);
    }
    async function readRecord(id: string): Promise<Item> {
      return expectStatus(await send(env().url, 'GET', `/api/core/record/${id}`, net(recordSelect)), 200).json as Item;
    }
    async function pages(path: string, headers: Record<string, string>): Promise<{ all: Item[]; total: number }> {
      const all: Item[] = [];
      let total = 0;
      for (let page = 1; page < 100; page++) {
        const answer = expectStatus(await send(env().url, 'GET', `${path}${path.includes('?') ? '&' : '?'}page=${page}&pageSize=100`, net(headers)), 200);
        total = Number(answer.json.totalCount);
        if (!items(answer).length) break;
        all.push(...items(answer));
        if (all.length >= total) break;
      }
      return { all, total };
    }

    before(async () => {
      const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: EMULATOR_CLIENT.clientId, client_secret: EMULATOR_CLIENT.clientSecret, scope: 'api' }).toString();
      const answer = expectStatus(await send(env().url, 'POST', '/login/connect/token', { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' }, form), 200);
      assert.ok(Number.isInteger(answer.json.expires_in));
      const payload = JSON.parse(Buffer.from(String(answer.json.access_token).split('.')[1] ?? '', 'base64url').toString() || '{}') as { nbf?: number };
      // DumpJwt / the nbf wait: a JWT it can read must not be valid only in the future.
      if (payload.nbf !== undefined) assert.ok(payload.nbf * 1000 <= Date.now() + 1000);
    });

    it('GetAllClassificationsAsync, GetAllDefinitionsAsync, GetLanguageCodeToIdMapAsync: page until count reaches totalCount', async () => {
      const classifications = await pages('/api/core/classifications', { 'select-classification': 'parent, children' });
      assert.equal(classifications.all.length, classifications.total);
      assert.ok(classifications.all.every((c) => typeof c.name === 'string' && c.name));
      classificationId = String(classifications.all.find((c) => c.parentId)!.id);
      const definitions = await pages('/api/core/fielddefinitions', {});
      assert.equal(definitions.all.length, definitions.total);
      const single = definitions.all.find((d) => d.dataType === 'SingleLineText')!;
      text = { id: String(single.id), name: String(single.name), label: String(single.label) };
      const list = definitions.all.find((d) => d.dataType === 'OptionList')!;
      const options = expectStatus(await send(env().url, 'GET', `/api/core/fielddefinition/${String(list.id)}`, net()), 200).json.items as { id: string }[];
      option = { id: String(list.id), label: String(list.label), optionId: options[1].id };
      const languages = await pages('/api/core/languages', {});
      const byCulture = new Map(languages.all.map((l) => [String(l.culture), String(l.id)]));
      enUs = byCulture.get('en-US')!;
      assert.match(enUs, /^[0-9a-f]{32}$/);
    });

    it('UploadAzureBlobToAprimoAsync then GetAssetByAprimoIdAsync: masterfile and masterfilelatestversion ids, fields by fieldName, typed members', async () => {
      const utok = await blob('4f1e_chair.png', PNG, 'image/png');
      const payload = {
        title: 'chair.png',
        uploadId: utok,
        classifications: { addOrUpdate: [{ id: classificationId, sortIndex: 1 }] },
        files: { master: utok, addOrUpdate: [{ versions: { addOrUpdate: [{ id: utok, filename: 'chair.png' }] } }] },
      };
      const created = expectStatus(await send(env().url, 'POST', '/api/core/records', json({ Accept: 'application/json' }), JSON.stringify(payload)), 201);
      recordId = String(created.json.id);
      const record = await readRecord(recordId);
      assert.match(String(record._embedded!.masterfile.id), /^[0-9a-f]{32}$/);
      assert.match(String(record._embedded!.masterfilelatestversion.id), /^[0-9a-f]{32}$/);
      assert.ok(Array.isArray(record._embedded!.fields.items));
      // Newtonsoft into AprimoRecord: `bool HasImageOverlay` takes no null; DateTimeOffset? ModifiedOn parses.
      assert.ok(!('hasImageOverlay' in record) || typeof record.hasImageOverlay === 'boolean');
      assert.ok(!Number.isNaN(Date.parse(String(record.modifiedOn))));
    });

    it('StampMetadataAsync and UploadNewMasterVersionAndResetRenditionRuleRanAsync: a text value in en-US, an option by its id, a new master version', async () => {
      const stamp = { fields: { addOrUpdate: [{ id: text.id, localizedValues: [{ languageId: enUs, value: 'AEM-7731' }] }] } };
      expectStatus(await send(env().url, 'PUT', `/api/core/record/${recordId}`, json(), JSON.stringify(stamp)), 204);
      const before = await readRecord(recordId);
      const masterFileId = String(before._embedded!.masterfile.id);
      const v2 = await blob('chair-corrected.png', PNG, 'image/png');
      const reset = {
        files: { addOrUpdate: [{ id: masterFileId, versions: { addOrUpdate: [{ id: v2, fileName: 'chair-corrected.png' }] } }] },
        fields: { addOrUpdate: [{ id: option.id, localizedValues: [{ languageId: NEUTRAL, values: [option.optionId] }] }] },
      };
      expectStatus(await send(env().url, 'PUT', `/api/core/record/${recordId}`, json(), JSON.stringify(reset)), 204);
      const after = await readRecord(recordId);
      assert.equal(after._embedded!.masterfilelatestversion.fileName, 'chair-corrected.png');
      const fields = after._embedded!.fields.items!;
      assert.equal((fields.find((f) => f.id === text.id)!.localizedValues as { value: string }[])[0].value, 'AEM-7731');
      assert.deepEqual((fields.find((f) => f.id === option.id)!.localizedValues as { values: string[] }[])[0].values, [option.optionId]);
    });

    it('GetAssetByAemAssetIdAsync and GetImageSetsMissingPreviewAsync: a field named by its label in quotes, an option list by the option\'s id', async () => {
      const search = (expression: string, path = '/api/core/search/records') =>
        send(env().url, 'POST', path, json(recordSelect), JSON.stringify({ searchExpression: { expression }, logRequest: false }));
      const byLabel = expectStatus(await search(` '${text.label}' = 'AEM-7731'`), 200);
      assert.deepEqual(items(byLabel).map((r) => r.id), [recordId]);
      assert.ok(items(byLabel)[0]._embedded!.masterfilelatestversion, 'select-record applies to search results');
      const byOption = expectStatus(await search(` '${option.label}' = '${option.optionId}' AND fileCount = 1 `, '/api/core/search/records?page=1&pageSize=1000'), 200);
      assert.ok(items(byOption).some((r) => r.id === recordId));
      const none = expectStatus(await search(` '${option.label}' = '${option.optionId}' AND fileCount = 0 `, '/api/core/search/records?page=1&pageSize=1000'), 200);
      assert.ok(!items(none).some((r) => r.id === recordId));
    });

    it('UploadAdditionalFileToRecordAsync and UploadFileToRecordAsync: additionalFiles and Previews on the latest version, named by its id', async () => {
      const record = await readRecord(recordId);
      const masterFileId = String(record._embedded!.masterfile.id);
      const versionId = String(record._embedded!.masterfilelatestversion.id);
      const glb = await blob('chair.glb', randomBytes(64), 'model/gltf-binary');
      const additional = {
        contentType: record.contentType,
        files: {
          addOrUpdate: [
            {
              id: masterFileId,
              versions: {
                addOrUpdate: [
                  {
                    id: versionId,
                    additionalFiles: {
                      addOrUpdate: [{ id: glb, label: 'chair', filename: 'chair.glb', purposes: ['Preview3D'], extension: '.glb', metadata: [{ Key: 'purpose', Value: '3dpreview' }, { Key: 'isManual', Value: 'True' }], type: 'ThreeDimensional' }],
                    },
                  },
                ],
              },
            },
          ],
        },
      };
      expectStatus(await send(env().url, 'PUT', `/api/core/record/${recordId}`, json(), JSON.stringify(additional)), 204);
      const preview = await blob('chair-preview.png', PNG, 'image/png');
      const previews = { files: { addOrUpdate: [{ id: masterFileId, versions: { addOrUpdate: [{ id: versionId, Previews: { master: preview, addOrUpdate: [{ id: preview, name: 'chair-preview.png' }] } }] } }] } };
      expectStatus(await send(env().url, 'PUT', `/api/core/record/${recordId}`, json(), JSON.stringify(previews)), 204);
      const after = await readRecord(recordId);
      assert.equal(after._embedded!.masterfilelatestversion.id, versionId, 'editing a version adds none');
      const list = items(expectStatus(await send(env().url, 'GET', `/api/core/fileversion/${versionId}/additionalfiles`, net()), 200));
      const model = list.find((a) => a.fileName === 'chair.glb')!;
      assert.equal(model.label, 'chair');
      assert.equal(model.fileSize, 64);
      assert.deepEqual(model.purposes, ['Preview3D']);
      assert.ok(list.some((a) => a.fileName === 'chair-preview.png'));
      // The upload tokens were used once each: a second use is the spec's 404.
      const reuse = { files: { addOrUpdate: [{ id: masterFileId, versions: { addOrUpdate: [{ id: versionId, additionalFiles: { addOrUpdate: [{ id: glb, filename: 'again.glb' }] } }] } }] } };
      expectStatus(await send(env().url, 'PUT', `/api/core/record/${recordId}`, json(), JSON.stringify(reuse)), 404);
    });

    it('GetAllAssetIdsAsync: GET /records?page=N&pageSize=1000 with select-record fields, page++ until the count reaches totalCount', async () => {
      const seen = new Set<string>();
      let total = 0;
      for (let page = 1; page < 100; page++) {
        const answer = expectStatus(await send(env().url, 'GET', `/api/core/records?page=${page}&pageSize=1000`, net({ 'select-record': 'fields', 'select-fileversion': 'filetype' })), 200);
        total = Number(answer.json.totalCount);
        if (!items(answer).length) break;
        for (const r of items(answer)) {
          assert.ok(Array.isArray((r._embedded!.fields as { items: unknown[] }).items));
          seen.add(String(r.id));
        }
        if (seen.size >= total) break;
      }
      assert.equal(seen.size, total, 'each record once');
    });

    it('StreamExistingMasterFileAsync: a download order with disableProcessing "yes", read at its Location, the delivered file fetched without a token', async () => {
      const order = { type: 'download', disableNotification: true, disableProcessing: 'yes', targets: [{ recordId, targetTypes: ['Document'], assetType: 'LatestVersionOfMasterFile' }] };
      const created = await send(env().url, 'POST', '/api/core/orders', json(), JSON.stringify(order));
      assert.ok(created.status >= 200 && created.status < 300, created.text);
      const location = new URL(String(created.headers.get('location')), `${env().url}/`);
      const read = expectStatus(await send(env().url, 'GET', location.toString(), net()), 200);
      assert.notEqual(String(read.json.status).toLowerCase(), 'failed');
      const delivered = (read.json.deliveredFiles as unknown[])[0];
      const url = typeof delivered === 'string' ? delivered : String((delivered as { uri?: string }).uri);
      const download = await fetch(new URL(url, `${env().url}/`));
      assert.equal(download.status, 200);
      assert.match(String(download.headers.get('content-type')), /^image\/png/);
      assert.match(String(download.headers.get('content-disposition')), /filename\*?=.*chair-corrected\.png/);
      assert.deepEqual(Buffer.from(await download.arrayBuffer()), PNG);
    });

    it('DeleteAssetByAprimoIdAsync: DELETE with the select headers it sends on every call; then the record is a 404', async () => {
      expectStatus(await send(env().url, 'DELETE', `/api/core/record/${recordId}`, net(recordSelect)), 204);
      expectStatus(await send(env().url, 'GET', `/api/core/record/${recordId}`, net(recordSelect)), 404);
    });
  });

  // prakashdlux/Migration, a Java batch uploader from SharePoint: src/main/java/org/example/AssetMigrationBatch.java
  // (AprimoTokenManager.refreshToken: the form as a string, access_token and expires_in read with asInt;
  // uploadCsvAndGetToken: Apache HttpClient multipart, part `file` as application/octet-stream, reads `token` on any
  // 2xx; startUploadSession: POST /uploads with JSON `filename` and `size`, reads `token` and `sasUrl`; the bytes go to
  // the sasUrl with azcopy; createAssetRecordAndReturnId: status "draft", the version with versionLabel and comment, a
  // `metadata` object naming the CSV's token, Accept application/json, reads `id` on any 2xx). Apache HttpClient sends
  // its own User-Agent.
  describe('a Java batch uploader (Apache HttpClient, azcopy)', () => {
    const ua = 'Apache-HttpClient/4.5.14 (Java/17.0.9)';
    let javaToken = '';

    before(async () => {
      const form = `grant_type=client_credentials&client_id=${encodeURIComponent(EMULATOR_CLIENT.clientId)}&client_secret=${encodeURIComponent(EMULATOR_CLIENT.clientSecret)}&scope=api`;
      const answer = expectStatus(await send(env().url, 'POST', '/login/connect/token', { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': ua }, form), 200);
      assert.ok(Number.isInteger(answer.json.expires_in));
      javaToken = String(answer.json.access_token);
    });

    it('uploads the one-row metadata CSV, stages the asset through a JSON upload session and azcopy, then creates the record', async () => {
      const api = { Authorization: `Bearer ${javaToken}`, 'API-VERSION': '1', 'User-Agent': ua };
      const csv = Buffer.from('"Folder_path";"FileName";"Keywords"\n"https://share/x";"pantry.png";"oats,muesli"\n');
      const metadata = await send(env().url, 'POST', '/uploads', api, onePart('file', 'single_asset_metadata_81.csv', csv));
      assert.ok(metadata.status >= 200 && metadata.status < 300, metadata.text);
      assert.equal(typeof metadata.json.token, 'string');
      const session = await send(env().url, 'POST', '/uploads', { ...api, 'Content-Type': 'application/json' }, JSON.stringify({ filename: 'pantry.png', size: PNG.length }));
      assert.equal(typeof session.json.token, 'string');
      assert.equal(typeof session.json.sasUrl, 'string');
      // azcopy copy <file> <sasUrl> --overwrite=true: one Put Blob for a file below its block size.
      const put = await send(env().url, 'PUT', String(session.json.sasUrl), { 'x-ms-blob-type': 'BlockBlob', 'x-ms-version': '2023-08-03', 'Content-Type': 'image/png', 'User-Agent': 'AzCopy/10.27.1 azsdk-go-azblob/v1.4.0' }, new Uint8Array(PNG));
      assert.equal(put.status, 201);
      const t = String(session.json.token);
      const body = {
        status: 'draft',
        files: { master: t, addOrUpdate: [{ versions: { addOrUpdate: [{ id: t, fileName: 'pantry.png', versionLabel: 'v1', comment: 'Uploaded from SharePoint' }] } }] },
        metadata: { name: 'UpdateAssetMetadata', token: metadata.json.token, metadataMatchField: 'FileName' },
      };
      const created = await send(env().url, 'POST', '/api/core/records', { ...api, 'Content-Type': 'application/json', Accept: 'application/json' }, JSON.stringify(body));
      assert.ok(created.status >= 200 && created.status < 300, created.text);
      const id = String(created.json.id);
      assert.match(id, /^[0-9a-f]{32}$/);
      const read = expectStatus(await send(env().url, 'GET', `/api/core/record/${id}`, { ...api, Accept: 'application/json', 'select-record': 'masterfilelatestversion' }), 200);
      assert.equal(read.json.status, 'Draft');
      const version = read.json.masterFileLatestVersion as { fileName: string; versionLabel: string; comment: string; fileSize: number };
      assert.deepEqual([version.fileName, version.versionLabel, version.comment, version.fileSize], ['pantry.png', 'v1', 'Uploaded from SharePoint', PNG.length]);
    });

    // uploadViaAzCopy (every file over 20 MB): azcopy writes a file over its block size as Azure's Put Block requests,
    // several at once, then a Put Block List naming the blocks in order. The emulator used to take each block for the
    // whole file, and the list's XML last, so the file became that XML.
    it('a file over azcopy\'s block size: Put Block requests out of order, then Put Block List, give the file in list order', async () => {
      const session = await send(env().url, 'POST', '/uploads', { Authorization: `Bearer ${javaToken}`, 'API-VERSION': '1', 'User-Agent': ua, 'Content-Type': 'application/json' }, JSON.stringify({ filename: 'shelf.bin', size: 3 * 4096 }));
      const sasUrl = String(session.json.sasUrl);
      const parts = [randomBytes(4096), randomBytes(4096), randomBytes(4096)];
      const ids = parts.map((_, i) => Buffer.from(`a5f0c1d2-0000-4000-8000-00000000000${i}`).toString('base64'));
      const azcopy = { 'x-ms-version': '2023-08-03', 'User-Agent': 'AzCopy/10.27.1 azsdk-go-azblob/v1.4.0' };
      for (const i of [2, 0, 1]) {
        const put = await send(env().url, 'PUT', `${sasUrl}&comp=block&blockid=${encodeURIComponent(ids[i])}`, azcopy, new Uint8Array(parts[i]));
        assert.equal(put.status, 201, put.text);
      }
      const list = `<?xml version="1.0" encoding="utf-8"?><BlockList>${ids.map((id) => `<Latest>${id}</Latest>`).join('')}</BlockList>`;
      const committed = await send(env().url, 'PUT', `${sasUrl}&comp=blocklist`, { ...azcopy, 'x-ms-blob-content-type': 'application/octet-stream', 'Content-Type': 'application/xml' }, list);
      assert.equal(committed.status, 201, committed.text);
      const t = String(session.json.token);
      const created = await send(env().url, 'POST', '/api/core/records', { Authorization: `Bearer ${javaToken}`, 'API-VERSION': '1', 'Content-Type': 'application/json', Accept: 'application/json' }, JSON.stringify({ status: 'draft', files: { master: t, addOrUpdate: [{ versions: { addOrUpdate: [{ id: t, fileName: 'shelf.bin' }] } }] } }));
      assert.ok(created.status >= 200 && created.status < 300, created.text);
      const order = expectStatus(await send(env().url, 'POST', '/api/core/orders', { Authorization: `Bearer ${javaToken}`, 'API-VERSION': '1', 'Content-Type': 'application/json' }, JSON.stringify({ type: 'download', targets: [{ recordId: created.json.id, targetTypes: ['Document'], assetType: 'LatestVersionOfMasterFile' }] })), 201);
      const bytes = Buffer.from(await (await fetch(String((order.json.deliveredFiles as string[])[0]))).arrayBuffer());
      assert.deepEqual(bytes, Buffer.concat(parts));
      // A list naming a block that was never put is refused, with the error object.
      expectStatus(await send(env().url, 'PUT', `${sasUrl}&comp=blocklist`, azcopy, '<BlockList><Latest>bm9wZQ==</Latest></BlockList>'), 400);
    });
  });
});
