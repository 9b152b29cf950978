// Requests of three public clients no earlier round named (fourth round), replayed as raw HTTP with the headers and bodies
// their sources set; what each reads from the answer, and the type it needs, is asserted. Sources are cited per describe.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { describeEachBackend } from '../conformance/helpers';
import { clientCredentialsToken, expectStatus, send, type Answer } from './replay';

const GUID = /^[0-9a-f]{32}$/;
const EN_US = 'c2bd4f9bbb954bcb80c31e924c9c26dc';
const isGuid = (v: unknown) => typeof v === 'string' && GUID.test(v.replace(/-/g, '').toLowerCase());

/** A multipart body with one part whose headers are written out (Go's `textproto.MIMEHeader` + `CreatePart`). */
function goPart(name: string, filename: string, type: string, bytes: Uint8Array): FormData {
  const form = new FormData();
  form.append(name, new Blob([new Uint8Array(bytes)], { type }), filename);
  return form;
}

describeEachBackend('interop: a configuration workbook exporter (.NET), a Salesforce connector (Apex) and a Go upload gateway', {}, (env) => {
  let token = '';
  before(async () => {
    token = await clientCredentialsToken(env().url);
  });

  // jonapror/DAM-Workbook-Generator, WorkbookHelper.cs: GetRestResponse (RestSharp; Authorization, Accept
  // application/hal+json, API-VERSION 1, `pageSize: 500` and `Languages: *` as headers on every GET, plus the call's own
  // select header), LoadAllObjects (follows `_links.next.href` until it is null; `Guid.Parse(item.id)`), and the sheet
  // writers, which read members through Newtonsoft `dynamic`: a member that is absent is a null reference and stops
  // the sheet, a JSON null reads as "" (so a null is fine where a missing member is not).
  describe('a configuration workbook exporter (.NET, RestSharp, dynamic reads)', () => {
    const rest = (extra: Record<string, string> = {}) => ({
      Authorization: `Bearer ${token}`,
      Accept: 'application/hal+json',
      'API-VERSION': '1',
      pageSize: '500',
      Languages: '*',
      'User-Agent': 'RestSharp/110.2.0.0',
      ...extra,
    });
    /** LoadAllObjects: every page, by the absolute next link, keyed by the GUID of each item. */
    async function loadAll(path: string, extra: Record<string, string> = {}): Promise<Map<string, Record<string, unknown>>> {
      const out = new Map<string, Record<string, unknown>>();
      let url = `${env().url}/api/core/${path}`;
      for (let pages = 0; url && pages < 50; pages++) {
        const answer = expectStatus(await send(env().url, 'GET', url, rest(extra)), 200);
        assert.ok(Array.isArray(answer.json.items), `${path}: items`);
        for (const item of answer.json.items!) {
          assert.ok(isGuid(item.id), `${path}: Guid.Parse(${String(item.id)})`);
          out.set(String(item.id), item);
        }
        url = (answer.json._links as { next?: { href: string } } | undefined)?.next?.href ?? '';
      }
      return out;
    }
    const hasMember = (item: Record<string, unknown>, ...members: string[]) => {
      for (const m of members) assert.ok(m in item, `${String(item.name ?? item.id)} has no member ${m}`);
    };
    const labelIn = (labels: unknown, languageId: string) =>
      (labels as { languageId: string; value: string }[]).find((l) => l.languageId.replace(/-/g, '') === languageId)?.value;

    it('field groups: every page by the next link, each with a GUID id and a name', async () => {
      const groups = await loadAll('fieldgroups');
      assert.ok(groups.size >= 2);
      for (const g of groups.values()) assert.equal(typeof g.name, 'string');
    });

    it('field definitions: every member the sheet reads is there, typed as the sheet converts it', async () => {
      const groups = await loadAll('fieldgroups');
      const defs = await loadAll('fielddefinitions');
      assert.ok(defs.size >= 5);
      for (const d of defs.values()) {
        hasMember(d, 'name', 'labels', 'sortIndex', 'dataType', 'scope', 'isRequired', 'indexed', 'isReadOnly', 'isUniqueIdentifier', 'defaultValue', 'resetToDefaultTriggers', 'validation', 'validationErrorMessage', 'memberships', 'helpText');
        assert.equal(typeof d.sortIndex, 'number');
        assert.equal(typeof d.scope, 'string');
        for (const b of ['isRequired', 'indexed', 'isReadOnly', 'isUniqueIdentifier']) assert.equal(typeof d[b], 'boolean', b);
        assert.ok(Array.isArray(d.resetToDefaultTriggers), 'resetToDefaultTriggers is enumerated');
        // ConvertFieldGroupIdsToNames: each membership is a field group loaded before.
        const memberships = d.memberships as string[];
        assert.ok(Array.isArray(memberships));
        for (const g of memberships) assert.ok(groups.has(g), `membership ${g} is a field group`);
        assert.equal(typeof labelIn(d.labels, EN_US), 'string', 'FindLabelInEnglish');
      }
    });

    it('an option list definition carries items with id, name and label (the Option List Items sheet)', async () => {
      const defs = [...(await loadAll('fielddefinitions')).values()];
      const list = defs.find((d) => d.dataType === 'OptionList');
      assert.ok(list);
      const items = list.items as Record<string, unknown>[];
      assert.ok(items.length > 0);
      for (const o of items) hasMember(o, 'id', 'name', 'label');
    });

    it('a classification list definition carries rootId (a classification or the empty GUID), filter, linkRecordToSelectedClassifications and acceptMultipleOptions', async () => {
      const classifications = await loadAll('classifications', { 'select-classification': 'NamePath' });
      const defs = [...(await loadAll('fielddefinitions')).values()];
      const list = defs.find((d) => d.dataType === 'ClassificationList');
      assert.ok(list);
      hasMember(list, 'rootId', 'filter', 'linkRecordToSelectedClassifications', 'acceptMultipleOptions');
      const root = String(list.rootId).replace(/-/g, '');
      assert.ok(root === '0'.repeat(32) || typeof classifications.get(root)?.namePath === 'string', 'Classifications[rootId].namePath');
      assert.equal(typeof list.linkRecordToSelectedClassifications, 'boolean');
      assert.equal(typeof list.acceptMultipleOptions, 'boolean');
    });

    it('classifications with select-classification NamePath: namePath, name, labels, identifier and the registered field groups and fields', async () => {
      const groups = await loadAll('fieldgroups');
      const defs = await loadAll('fielddefinitions');
      const classifications = await loadAll('classifications', { 'select-classification': 'NamePath' });
      assert.ok(classifications.size >= 30);
      for (const c of classifications.values()) {
        hasMember(c, 'namePath', 'name', 'labels', 'identifier', 'registeredFieldGroups', 'registeredFields');
        for (const g of c.registeredFieldGroups as { fieldGroupId: string }[]) assert.ok(groups.has(g.fieldGroupId));
        for (const f of c.registeredFields as { fieldId: string }[]) assert.ok(defs.has(f.fieldId));
      }
    });

    it('content types: purpose, parentId, registered and inheritable fields, default file extensions, title and inheritance configuration', async () => {
      const defs = await loadAll('fielddefinitions');
      const types = await loadAll('contenttypes');
      assert.ok(types.size >= 3);
      for (const t of types.values()) {
        hasMember(t, 'name', 'purpose', 'parentId', 'registeredFields', 'defaultFileExtensions', 'titleConfiguration', 'inheritanceConfiguration', 'inheritanceFieldId', 'inheritableFields');
        for (const f of [...(t.registeredFields as { fieldId: string }[]), ...(t.inheritableFields as { fieldId: string }[])]) assert.ok(defs.has(f.fieldId));
        assert.ok(Array.isArray(t.defaultFileExtensions));
      }
    });

    it('settings: definitions paged by the next link with totalCount; each non-role, non-manual setting read by name has a value', async () => {
      const first = expectStatus(await send(env().url, 'GET', `${env().url}/api/core/settingdefinitions`, rest()), 200);
      assert.equal(typeof first.json.totalCount, 'number');
      const defs = [...(await loadAll('settingdefinitions')).values()];
      assert.equal(defs.length, first.json.totalCount);
      let read = 0;
      for (const d of defs) {
        hasMember(d, 'name', 'dataType', 'userGroupSettingMode', 'defaultValue', 'labels');
        if (String(d.dataType).toUpperCase() === 'ROLE' || String(d.userGroupSettingMode).toUpperCase() === 'MANUAL') continue;
        const setting = expectStatus(await send(env().url, 'GET', `${env().url}/api/core/setting/${String(d.name)}`, rest()), 200);
        hasMember(setting.json, 'value');
        read++;
      }
      assert.ok(read >= 3);
    });

    it('watermarks: a collection of id, name and position (a tenant without any answers an empty page, not 404)', async () => {
      const marks = await loadAll('watermarks');
      for (const w of marks.values()) hasMember(w, 'name', 'position');
    });

    it('translations: id, studio, module, name and localizedValues (an empty page where there are none)', async () => {
      const translations = await loadAll('translations');
      for (const t of translations.values()) {
        hasMember(t, 'studio', 'module', 'name', 'localizedValues');
        assert.ok(Array.isArray(t.localizedValues));
      }
    });

    it('rules with select-Rule "conditions, actions": target, trigger, enabled, includeDraftRecords and the embedded items', async () => {
      const rules = await loadAll('rules', { 'select-Rule': 'conditions, actions' });
      for (const r of rules.values()) {
        hasMember(r, 'name', 'target', 'trigger', 'enabled', 'includeDraftRecords', '_embedded');
        const embedded = r._embedded as { conditions: { items: { conditionType: string }[] }; actions: { items: { actionType: string }[] } };
        assert.ok(Array.isArray(embedded.conditions.items) && Array.isArray(embedded.actions.items));
      }
    });

    it('functional permissions: /permissions paged by the next link, each with a name and labels[0].value', async () => {
      let url = `${env().url}/api/core/permissions`;
      let count = 0;
      while (url) {
        const answer = expectStatus(await send(env().url, 'GET', url, rest()), 200);
        for (const p of answer.json.items!) {
          assert.equal(typeof p.name, 'string');
          assert.equal(typeof (p.labels as { value: string }[])[0].value, 'string');
          count++;
        }
        url = (answer.json._links as { next?: { href: string } }).next?.href ?? '';
      }
      assert.ok(count > 0);
    });

    it("a user group's permissions: items of name and value, the names among /permissions", async () => {
      const all = expectStatus(await send(env().url, 'GET', `${env().url}/api/core/permissions`, rest()), 200);
      const names = new Set(all.json.items!.map((p) => String(p.name)));
      const groups = expectStatus(await send(env().url, 'GET', `${env().url}/api/core/usergroups`, rest()), 200);
      const group = groups.json.items![0];
      const answer = expectStatus(await send(env().url, 'GET', `${env().url}/api/core/usergroup/${String(group.id)}/permissions`, rest()), 200);
      assert.ok(Array.isArray(answer.json.items));
      for (const p of answer.json.items!) {
        assert.ok(names.has(String(p.name)), String(p.name));
        assert.equal(typeof p.value, 'string');
      }
    });

    it('classification permissions: ClassificationTreePermissions, RecordPermissions and DownloadPermissions answer permissions[] and breakInheritance', async () => {
      const classifications = await loadAll('classifications', { 'select-classification': 'NamePath' });
      const id = [...classifications.keys()][0];
      for (const kind of ['ClassificationTreePermissions', 'RecordPermissions', 'DownloadPermissions']) {
        const answer = expectStatus(await send(env().url, 'GET', `${env().url}/api/core/classification/${id}/${kind}`, rest()), 200);
        assert.ok(Array.isArray(answer.json.permissions), kind);
        assert.equal(typeof answer.json.breakInheritance, 'boolean', kind);
        for (const p of answer.json.permissions as Record<string, unknown>[]) hasMember(p, 'userGroupId', 'accessRight');
      }
    });

    it('a request with an expired token answers 401 (StatusCode Unauthorized), and the same request with a new token 200', async () => {
      const stale = await send(env().url, 'GET', `${env().url}/api/core/fieldgroups`, rest({ Authorization: 'Bearer expired' }));
      expectStatus(stale, 401);
      const fresh = await clientCredentialsToken(env().url);
      expectStatus(await send(env().url, 'GET', `${env().url}/api/core/fieldgroups`, rest({ Authorization: `Bearer ${fresh}` })), 200);
    });
  });

  // Aprimo-Connect/DAM-Configuration-Moving-Tools, DAM Config Mover/Helpers/ImportHelper.cs (ImportOrUpdateFieldDefinitions,
  // GetFieldDefinitionForImport) with Models/DTOs/ImportDTOs/GenericFieldDefinitionDTO.cs and
  // ClassificationListFieldDefinitionDTO.cs: a DataContract body (every member, nulls included), `memberships` and
  // `enabledLanguages` as addOrUpdate/remove sections, `defaultValue` as text, `scope` left out on an update; success is
  // only Created or NoContent, otherwise it logs `exceptionMessage`. (The mover's export reads are replayed in
  // contentClients.test.ts; these are its writes of field definitions.)
  describe('a .NET configuration mover importing field definitions', () => {
    const rest = () => ({ Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/hal+json', 'Content-Type': 'application/json', 'User-Agent': 'RestSharp/110.2.0.0' });
    const dto = (name: string, group: string, extra: Record<string, unknown> = {}) => ({
      label: name,
      labels: [{ languageId: EN_US, value: name }],
      helpText: null,
      helpTexts: [],
      name,
      scope: 'RecordContentGlobal',
      dataType: 'SingleLineText',
      indexed: true,
      isUniqueIdentifier: false,
      isInheritable: false,
      isReadOnly: false,
      isRequired: false,
      memberships: { addOrUpdate: [group], remove: [] },
      defaultValue: null,
      resetToDefaultTriggers: [],
      resetToDefaultFields: [],
      validation: null,
      validationErrorMessage: null,
      validationTrigger: 'Always',
      storageMode: 'LogChanges',
      languageMode: 'Normal',
      enabledLanguages: { addOrUpdate: [EN_US], remove: [] },
      tag: null,
      sortIndex: 7,
      inlineStyle: null,
      metadataPredictionEnabled: false,
      hints: null,
      ...extra,
    });
    const groups = async () => (expectStatus(await send(env().url, 'GET', '/api/core/fieldgroups', rest()), 200).json.items ?? []).map((g) => String(g.id));
    const read = async (id: string) => expectStatus(await send(env().url, 'GET', `/api/core/fielddefinition/${id}`, { ...rest(), Accept: 'application/json' }), 200).json;

    it('creates a text definition from the DTO: 201 (Created); the group, the text default and the enabled languages are taken as meant', async () => {
      const [group] = await groups();
      const created = await send(env().url, 'POST', '/api/core/fielddefinitions', rest(), JSON.stringify(dto('MovedCampaignCode', group, { defaultValue: 'CMP-0000', maximumLength: 0, minimumLength: 0, regularExpression: null, allowReferences: null })));
      expectStatus(created, 201);
      const def = await read(String(created.json.id));
      assert.deepEqual(def.memberships, [group]);
      assert.deepEqual(def.enabledLanguages, [EN_US], 'the sections are applied, not kept as sent');
      assert.deepEqual(def.defaultValue, { value: 'CMP-0000' });
      assert.equal(def.indexed, true);
    });

    it('updates it with scope left out and the membership moved by remove and addOrUpdate: 204 (NoContent)', async () => {
      const [first, second] = await groups();
      const created = expectStatus(await send(env().url, 'POST', '/api/core/fielddefinitions', rest(), JSON.stringify(dto('MovedRegion', first))), 201);
      const id = String(created.json.id);
      const { scope: _scope, ...update } = dto('MovedRegion', second, { memberships: { addOrUpdate: [second], remove: [first] }, validation: '^[A-Z]{2}$', validationErrorMessage: 'Two capitals' });
      expectStatus(await send(env().url, 'PUT', `/api/core/fielddefinition/${id}`, rest(), JSON.stringify(update)), 204);
      const def = await read(id);
      assert.deepEqual(def.memberships, [second]);
      assert.equal(def.validation, '^[A-Z]{2}$');
      assert.equal(def.scope, 'RecordContentGlobal');
    });

    it('creates a classification list definition with rootId (the target tenant\'s classification) and reads it back', async () => {
      const [group] = await groups();
      const classifications = expectStatus(await send(env().url, 'GET', '/api/core/classifications', rest()), 200).json.items!;
      const root = String(classifications[0].id);
      const body = dto('MovedProductLine', group, { dataType: 'ClassificationList', rootId: root, filter: null, acceptMultipleOptions: true, linkRecordToSelectedClassifications: false, defaultSelectionDisplayMode: 'Browse' });
      const created = expectStatus(await send(env().url, 'POST', '/api/core/fielddefinitions', rest(), JSON.stringify(body)), 201);
      const def = await read(String(created.json.id));
      assert.equal(def.rootId, root);
      assert.equal(def.acceptMultipleOptions, true);
    });
  });

  // Aprimo-Connect/AprimoSalesforceLightningComponents: aprimodamcollections/classes/AprimoCollectionsConnector.cls
  // (getAprimoAccessToken, searchDAMRequest, searchAprimoForRecords) and aprimocontentselector/classes/
  // AprimoContentSelector.cls (getAprimoRecordDownloadUrl, getAprimoOrderStatus): Apex HttpRequest with the JSON headers on
  // every call (a GET included), `page` and `pagesize` as headers, JSON.deserializeUntyped casts ((Integer) totalCount,
  // (String) id, (List<Object>) deliveredFiles), exact status codes (200, 201) or a CalloutException.
  describe('a Salesforce Lightning connector (Apex)', () => {
    const apex = () => ({ Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json', 'API-VERSION': '1', 'User-Agent': 'SFDC-Callout/59.0' });
    let recordId = '';
    before(async () => {
      const found = await send(env().url, 'POST', '/api/core/search/records', apex(), JSON.stringify({ searchExpression: { expression: 'ContentType = Image AND FileCount > 0' } }));
      recordId = String(found.json.items![0].id);
    });

    it('asks for its token as a form with its own Content-Length and no Accept; the answer is a map with access_token', async () => {
      const payload = 'grant_type=client_credentials&scope=api&client_id=dam-emulator&client_secret=dam-emulator-secret';
      const answer = expectStatus(await send(env().url, 'POST', '/login/connect/token', { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': 'SFDC-Callout/59.0' }, payload), 200);
      assert.equal(typeof answer.json.access_token, 'string');
    });

    it('searches a collection with page and pagesize headers and select-record "title, preview"; totalCount casts to Integer and the loop ends', async () => {
      const body = '{"searchExpression": { "expression": "Collection(20ae20d93dcb40d4a3e6ace5013ff94a)" }, "logRequest": true}';
      const records: unknown[] = [];
      let page = 1;
      let total: number;
      do {
        const answer = expectStatus(await send(env().url, 'POST', '/api/core/search/records', { ...apex(), 'select-record': 'title, preview', page: String(page), pagesize: '50' }, body), 200);
        assert.ok(Number.isInteger(answer.json.totalCount), '(Integer)fullResponse.get(\'totalCount\')');
        assert.ok(Array.isArray(answer.json.items), '(List<Object>)fullResponse.get(\'items\')');
        total = Number(answer.json.totalCount);
        records.push(...answer.json.items!);
        page++;
        // searchAprimoForRecords loops while records.size() < totalCount: a page that adds nothing would never end.
        if (records.length < total) assert.ok(answer.json.items!.length > 0);
      } while (records.length < total && page < 20);
      assert.equal(records.length, total);
    });

    it('orders the download without disableNotification: exactly 201, status Pending or Success, and an id string', async () => {
      const body = `{ "type": "download", "targets": [{ "recordId": "${recordId}", "targetTypes":["Document"], "assetType": "LatestVersionOfMasterFile" }] }`;
      const order = expectStatus(await send(env().url, 'POST', '/api/core/orders', apex(), body), 201);
      assert.ok(['Pending', 'Success'].includes(String(order.json.status)));
      assert.equal(typeof order.json.id, 'string');
    });

    it('polls GET /order/{id} with the JSON Content-Type on a GET: 200, and on Success deliveredFiles[0] is a String URL', async () => {
      const body = `{ "type": "download", "targets": [{ "recordId": "${recordId}", "targetTypes":["Document"], "assetType": "LatestVersionOfMasterFile" }] }`;
      const order = expectStatus(await send(env().url, 'POST', '/api/core/orders', apex(), body), 201);
      const polled = expectStatus(await send(env().url, 'GET', `/api/core/order/${String(order.json.id)}`, apex()), 200);
      // The Lightning component polls again while Pending or Executing, and gives up on Failed.
      assert.ok(['Pending', 'Executing', 'Success'].includes(String(polled.json.status)));
      if (polled.json.status === 'Success') assert.match(String((polled.json.deliveredFiles as unknown[])[0]), /^http/);
    });
  });

  // IIP-Design/commons-gateway, serverless/utils/aprimo/main.go (GetAuthToken, PostJsonData, InitFileUpload, UploadSegment,
  // CommitFileUpload, UploadFile, SubmitRecord, DeleteRecord) with serverless/funcs/aprimo-upload-file/main.go and the
  // live-tenant test serverless/utils/aprimo/aprimo_test.go: Go's net/http (User-Agent Go-http-client/1.1, no Accept on
  // the token request), bodies written with fmt.Sprintf (tabs and newlines), success decided by exact status codes.
  describe('a Go upload gateway (AWS Lambda, net/http)', () => {
    const goJson = () => ({ Accept: 'application/json', 'API-VERSION': '1', Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'User-Agent': 'Go-http-client/1.1' });
    const goUpload = () => ({ Accept: '*/*', 'API-VERSION': '1', Authorization: `Bearer ${token}`, 'User-Agent': 'Go-http-client/1.1' });
    const png = () => Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(2048)]);

    /** InitFileUpload → UploadSegment (each must be 202) → CommitFileUpload (`segmentcount` as a string). */
    async function segmented(key: string, parts: Buffer[]): Promise<string> {
      const setup = await send(env().url, 'POST', '/uploads/segments', goJson(), `{\n\t\t"filename":"${key}"\n\t}`);
      expectStatus(setup, 200);
      const uri = String(setup.json.uri);
      for (const [i, part] of parts.entries()) {
        const seg = await send(env().url, 'POST', `${uri}?index=${i}`, goUpload(), goPart(`segment${i}`, `${key}.segment${i}`, 'image/png', part));
        assert.equal(seg.status, 202, seg.text);
      }
      const commit = await send(env().url, 'POST', `${uri}/commit`, goJson(), `{\n\t\t"filename":"${key}",\n\t\t"segmentcount": "${parts.length}"\n\t}`);
      expectStatus(commit, 200);
      assert.equal(typeof commit.json.token, 'string');
      return String(commit.json.token);
    }
    /** SubmitRecord: fields named by `Name` (PascalCase) with localizedValues that carry no languageId. */
    const submit = (description: string, key: string, fileToken: string) =>
      send(
        env().url,
        'POST',
        '/api/core/records',
        goJson(),
        `{\n\t\t"status":"draft",\n\t\t"fields": {\n\t\t\t"addOrUpdate": [\n\t\t\t\t{\n\t\t\t\t\t"Name": "Description",\n\t\t\t\t\t"localizedValues": [\n\t\t\t\t\t\t{ "value": "${description}" }\n\t\t\t\t\t]\n\t\t\t\t},\n\t\t\t\t{\n\t\t\t\t\t"Name": "Photographer",\n\t\t\t\t\t"localizedValues": [\n\t\t\t\t\t\t{ "value": "${key}" }\n\t\t\t\t\t]\n\t\t\t\t},\n\t\t\t\t{\n\t\t\t\t\t"Name": "Keywords",\n\t\t\t\t\t"localizedValues": [\n\t\t\t\t\t\t{ "values": ["GPAVideo"] }\n\t\t\t\t\t]\n\t\t\t}\n\t\t\t]\n\t\t},\n\t\t"files": {\n\t\t\t"master": "${fileToken}",\n\t\t\t"addOrUpdate": [\n\t\t\t\t{\n\t\t\t\t\t"versions": {\n\t\t\t\t\t\t"addOrUpdate": [\n\t\t\t\t\t\t\t{\n\t\t\t\t\t\t\t\t"id": "${fileToken}",\n\t\t\t\t\t\t\t\t"filename": "${key}"\n\t\t\t\t\t\t\t}\n\t\t\t\t\t\t]\n\t\t\t\t\t}\n\t\t\t\t}\n\t\t\t]\n\t\t}\n\t}`,
      );
    const readField = async (id: string, name: string): Promise<{ languageId: string; value?: string; values?: string[] }[]> => {
      const read = expectStatus(await send(env().url, 'GET', `/api/core/record/${id}`, { ...goJson(), 'select-record': 'fields' }), 200);
      const field = (read.json.fields as { items: { fieldName: string; localizedValues: { languageId: string; value?: string; values?: string[] }[] }[] }).items.find((f) => f.fieldName === name);
      return field?.localizedValues ?? [];
    };

    it('asks for its token with http.Post (a form, no Accept) and unmarshals expires_in as an int, scope, access_token and token_type', async () => {
      const answer = expectStatus(
        await send(env().url, 'POST', '/login/connect/token', { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': 'Go-http-client/1.1' }, 'client_id=dam-emulator&client_secret=dam-emulator-secret&grant_type=client_credentials&scope=api'),
        200,
      );
      assert.ok(Number.isInteger(answer.json.expires_in));
      assert.equal(answer.json.scope, 'api');
      assert.equal(answer.json.token_type, 'Bearer');
      assert.equal(typeof answer.json.access_token, 'string');
    });

    it('uploads a small file in one request with the part named by the file name (not file1) and reads the token', async () => {
      const answer = await send(env().url, 'POST', '/uploads', goUpload(), goPart('test-file.png', 'test-file.png', 'image/png', png()));
      assert.ok(answer.status < 400, answer.text);
      assert.equal(typeof answer.json.token, 'string');
      assert.ok(String(answer.json.token).length > 0);
    });

    it('opens a segmented upload with a tab-indented body and uses the absolute uri verbatim', async () => {
      const setup = expectStatus(await send(env().url, 'POST', '/uploads/segments', goJson(), '{\n\t\t"filename":"gateway-large.png"\n\t}'), 200);
      assert.match(String(setup.json.uri), /^http:\/\/.+\/uploads\/segments\//);
    });

    it('sends segments with the part\'s own Content-Type (the file type), Accept */*, each answered exactly 202, then commits with segmentcount "3" as a string', async () => {
      const bytes = png();
      const fileToken = await segmented('gateway-three.png', [bytes.subarray(0, 700), bytes.subarray(700, 1400), bytes.subarray(1400)]);
      assert.ok(fileToken.length > 0);
    });

    it('submits the record (small-file lifecycle): POST /records with "Name" field references and values without languageId; reads id', async () => {
      const up = await send(env().url, 'POST', '/uploads', goUpload(), goPart('test-file.png', 'test-file.png', 'image/png', png()));
      const created = await submit('Test File', 'test-file.png', String(up.json.token));
      expectStatus(created, 201);
      assert.ok(isGuid(created.json.id));
      const id = String(created.json.id);
      // A value without languageId lands in the field's language (neutral for a field that is not localised).
      assert.equal((await readField(id, 'Description'))[0]?.value, 'Test File');
      assert.equal((await readField(id, 'Photographer'))[0]?.value, 'test-file.png');
      assert.deepEqual((await readField(id, 'Keywords'))[0]?.values, ['GPAVideo']);
    });

    it('the large-file lifecycle: one segment, commit with "1", the record carries the committed file', async () => {
      const bytes = png();
      const fileToken = await segmented('test-file.png', [bytes]);
      const created = expectStatus(await submit('Test File', 'test-file.png', fileToken), 201);
      const master = expectStatus(await send(env().url, 'GET', `/api/core/record/${String(created.json.id)}`, { ...goJson(), 'select-record': 'masterfilelatestversion' }), 200);
      const version = master.json.masterFileLatestVersion as { fileName: string; fileSize: number };
      assert.equal(version.fileName, 'test-file.png');
      assert.equal(version.fileSize, bytes.length);
    });

    it('deletes the record with DELETE /record/{id}, no body, Accept application/json, requiring exactly 204', async () => {
      const up = await send(env().url, 'POST', '/uploads', goUpload(), goPart('test-file.png', 'test-file.png', 'image/png', png()));
      const created = expectStatus(await submit('to delete', 'test-file.png', String(up.json.token)), 201);
      const { 'Content-Type': _json, ...headers } = goJson();
      const deleted: Answer = await send(env().url, 'DELETE', `/api/core/record/${String(created.json.id)}`, headers);
      assert.equal(deleted.status, 204, deleted.text);
      expectStatus(await send(env().url, 'GET', `/api/core/record/${String(created.json.id)}`, headers), 404);
    });

    it('a record submitted with an already used upload token answers 404 with the error object, which SubmitRecord only logs', async () => {
      const up = await send(env().url, 'POST', '/uploads', goUpload(), goPart('test-file.png', 'test-file.png', 'image/png', png()));
      const fileToken = String(up.json.token);
      expectStatus(await submit('first', 'test-file.png', fileToken), 201);
      const again = await submit('replayed event', 'test-file.png', fileToken);
      expectStatus(again, 404);
      // json.Unmarshal of the error object into RecordCreationResponse gives an empty id, which the Lambda stores.
      assert.equal(again.json.id, undefined);
    });
  });
});
