// Requests of public clients no earlier interop test named (issue 36, part 5), replayed as raw HTTP with the headers
// and bodies their sources set (cited per describe: repository, file, function). What each client reads is asserted.
import { strict as assert } from 'node:assert';
import { createHash, randomBytes } from 'node:crypto';
import { EMULATOR_CLIENT } from '../../src/core/contract';
import { describeEachBackend } from '../conformance/helpers';
import { clientCredentialsToken, expectStatus, onePart, send, type Answer } from './replay';

const NEUTRAL = '00000000000000000000000000000000';
type Item = Record<string, unknown> & { _embedded?: Record<string, unknown> };

describeEachBackend('interop: a second MCP server, an SDK-style connector, a Docs add-on, a Chrome task inbox, a PKCE helper', {}, (env) => {
  let token = '';
  let imageRecord = '';
  let textField = { id: '', name: '' };
  const ids = (a: Answer) => (a.json.items ?? []).map((i) => String(i.id));

  before(async () => {
    token = await clientCredentialsToken(env().url);
    const dam = { Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/json', 'Content-Type': 'application/json' };
    const found = await send(env().url, 'POST', '/api/core/search/records', dam, JSON.stringify({ searchExpression: { expression: 'ContentType = Image AND FileCount > 0' } }));
    imageRecord = ids(found)[0];
    const defs = await send(env().url, 'GET', '/api/core/fielddefinitions?pageSize=200', dam);
    const def = (defs.json.items ?? []).find((d) => d.dataType === 'SingleLineText')!;
    textField = { id: String(def.id), name: String(def.name) };
  });

  // dcaelopre/ts-aprimodam-api-mcp (a second MCP server of that author, beside ts-ce-aprimo-mcp): src/aprimo/client.ts
  // (getAccessToken, apiRequest, createRecord, updateRecord, uploadRequest), src/tools/records.ts (get_record,
  // get_record_fields, get_record_files) and src/aprimo/upload.ts (uploadSmallFile). Node's fetch: no User-Agent of its
  // own, `Accept: application/hal+json` and API-VERSION 1 on the content API, `Accept: */*` and api-version on uploads.
  describe('an MCP server on the content API (TypeScript, fetch)', () => {
    let mcpToken = '';
    const api = (select: Record<string, string> = {}) => ({ Authorization: `Bearer ${mcpToken}`, Accept: 'application/hal+json', 'API-VERSION': '1', ...select });

    before(async () => {
      // getAccessToken: URLSearchParams in this order; it keeps access_token and computes the expiry from expires_in.
      const body = new URLSearchParams({ grant_type: 'client_credentials', scope: 'api', client_id: EMULATOR_CLIENT.clientId, client_secret: EMULATOR_CLIENT.clientSecret });
      const answer = expectStatus(await send(env().url, 'POST', '/login/connect/token', { 'Content-Type': 'application/x-www-form-urlencoded' }, body), 200);
      assert.equal(typeof answer.json.expires_in, 'number');
      mcpToken = String(answer.json.access_token);
    });

    it('get_record: select-record names members and masterfilelatestversion in one list without spaces', async () => {
      const read = expectStatus(await send(env().url, 'GET', `/api/core/record/${imageRecord}`, api({ 'select-record': 'title,status,contenttype,createdon,modifiedon,masterfilelatestversion' })), 200);
      for (const key of ['title', 'status', 'contentType', 'createdOn', 'modifiedOn']) assert.ok(key in read.json, key);
      const version = (read.json._embedded as { masterfilelatestversion: { fileName: string; fileSize: number } }).masterfilelatestversion;
      assert.equal(typeof version.fileName, 'string');
      assert.equal(typeof version.fileSize, 'number');
    });

    it('get_record_fields: select-record-fields by names joined with ", " limits the embedded fields', async () => {
      const read = expectStatus(await send(env().url, 'GET', `/api/core/record/${imageRecord}`, api({ 'select-record': 'fields', 'select-record-fields': `${textField.name}, Title` })), 200);
      const items = (read.json._embedded as { fields: { items: { fieldName: string; localizedValues: unknown[] }[] } }).fields.items;
      assert.ok(items.length >= 1);
      assert.ok(items.every((f) => [textField.name, 'Title'].includes(f.fieldName)), JSON.stringify(items.map((f) => f.fieldName)));
    });

    it('get_record_files with renditions: select-file latestversion,fileversions; select-fileversion renditions,filetype; select-rendition publiclinks', async () => {
      const headers = api({ 'select-record': 'files,masterfile,masterfilelatestversion', 'select-file': 'latestversion,fileversions', 'select-fileversion': 'renditions,filetype', 'select-rendition': 'publiclinks' });
      const read = expectStatus(await send(env().url, 'GET', `/api/core/record/${imageRecord}`, headers), 200);
      const embedded = read.json._embedded as Record<string, Item & { items?: Item[] }>;
      const file = embedded.files.items![0];
      assert.ok(file._embedded!.latestversion, 'the file embeds its latest version');
      assert.ok(((file._embedded!.fileversions as { items: unknown[] }).items).length >= 1);
      const latest = embedded.masterfilelatestversion;
      assert.match(String((latest._embedded!.filetype as { mimeType?: string } | null)?.mimeType ?? ''), /^image\//);
      assert.ok(Array.isArray((latest._embedded!.renditions as { items: unknown[] }).items));
    });

    it('uploads a small file to /uploads (part file1, Accept */*, api-version 1) and reads token', async () => {
      const upload = await send(env().url, 'POST', '/uploads', { Authorization: `Bearer ${mcpToken}`, Accept: '*/*', 'api-version': '1' }, onePart('file1', 'brief.pdf', new TextEncoder().encode('%PDF-1.4 brief'), 'application/pdf'));
      assert.ok(upload.status === 200 || upload.status === 201, upload.text);
      assert.equal(typeof upload.json.token, 'string');
    });

    it('create_record: status, contentType, fields by fieldId and the file, with select-record on the POST; update answers no body', async () => {
      const upload = await send(env().url, 'POST', '/uploads', { Authorization: `Bearer ${mcpToken}`, Accept: '*/*', 'api-version': '1' }, onePart('file1', 'mcp.txt', new TextEncoder().encode('from the model'), 'text/plain'));
      const t = String(upload.json.token);
      // The tool passes the content type the model names ("e.g. Asset" in its description); the demo tenant's are the
      // contract's Image, Video and Document, so the model names one of those here.
      const payload = {
        status: 'Draft',
        contentType: 'Image',
        fields: { addOrUpdate: [{ fieldId: textField.id, localizedValues: [{ languageId: NEUTRAL, value: 'from MCP' }] }] },
        files: { master: t, addOrUpdate: [{ versions: { addOrUpdate: [{ id: t, fileName: 'mcp.txt' }] } }] },
      };
      const created = expectStatus(await send(env().url, 'POST', '/api/core/records', { ...api({ 'select-record': 'title,status,contenttype,fields' }), 'Content-Type': 'application/json' }, JSON.stringify(payload)), 201);
      assert.match(String(created.json.id), /^[0-9a-f]{32}$/);
      assert.equal(created.json.status, 'Draft');
      assert.equal(created.json.contentType, 'Image');
      const fields = (created.json._embedded as { fields: { items: { id: string; localizedValues: { value: string }[] }[] } }).fields.items;
      assert.equal(fields.find((f) => f.id === textField.id)?.localizedValues[0].value, 'from MCP');
      // updateRecord: an empty answer becomes { success: true } in the tool's result.
      const update = { status: 'Released', fields: { addOrUpdate: [{ fieldId: textField.id, localizedValues: [{ languageId: NEUTRAL, value: 'edited by MCP' }] }] } };
      const updated = expectStatus(await send(env().url, 'PUT', `/api/core/record/${created.json.id}`, { ...api(), 'Content-Type': 'application/json' }, JSON.stringify(update)), 204);
      assert.equal(updated.text, '');
      const read = await send(env().url, 'GET', `/api/core/record/${created.json.id}`, api({ 'select-record': 'fields', 'select-record-fields': textField.name }));
      assert.equal(read.json.status, 'Released');
      const field = (read.json._embedded as { fields: { items: { localizedValues: { value: string }[] }[] } }).fields.items[0];
      assert.equal(field.localizedValues[0].value, 'edited by MCP');
    });
  });

  // jarrywc/aprimo-dam-connector: src/auth/client-credentials.ts (the form as a string), src/http.ts (HttpClient.request:
  // API-VERSION 1, Accept application/hal+json, User-Agent aprimo-dam-connector, Content-Type only with a JSON body; an
  // error's message from exceptionMessage), src/records/index.ts (list with page, pageSize and filter in the query,
  // select-record and select-languages joined by ","), src/pagination.ts (paginate: items, then _links.next.href until
  // there is none), src/metadata/index.ts (field definitions and classifications) and src/uploads/small-upload.ts.
  describe('an SDK-style connector (TypeScript, fetch)', () => {
    let connectorToken = '';
    const http = (extra: Record<string, string> = {}) => ({ 'API-VERSION': '1', Accept: 'application/hal+json', Authorization: `Bearer ${connectorToken}`, 'User-Agent': 'aprimo-dam-connector', ...extra });

    before(async () => {
      const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: EMULATOR_CLIENT.clientId, client_secret: EMULATOR_CLIENT.clientSecret, scope: 'api' }).toString();
      connectorToken = String(expectStatus(await send(env().url, 'POST', '/login/connect/token', { 'Content-Type': 'application/x-www-form-urlencoded' }, body), 200).json.access_token);
    });

    it('records.list: page, pageSize and filter in the query, select-record and select-languages as headers', async () => {
      const q = new URLSearchParams({ page: '1', pageSize: '5', filter: 'ContentType = Image' });
      const first = expectStatus(await send(env().url, 'GET', `/api/core/records?${q.toString()}`, http({ 'select-record': 'title,status', 'select-languages': NEUTRAL })), 200);
      assert.equal(first.json.items?.length, 5);
      assert.ok((first.json.items as Item[]).every((r) => r.contentType === 'Image' && typeof r.title === 'string'));
      assert.ok(Number(first.json.totalCount) > 5);
    });

    it('listPaged: follows _links.next.href as given (an absolute URL, no parameters of its own added) to the end', async () => {
      const q = new URLSearchParams({ page: '1', pageSize: '50', filter: 'ContentType = Image' });
      let path: string | undefined = `/api/core/records?${q.toString()}`;
      const seen = new Set<string>();
      let total = 0;
      let pages = 0;
      while (path && pages < 100) {
        const page = expectStatus(await send(env().url, 'GET', path, http()), 200);
        total = Number(page.json.totalCount);
        for (const id of ids(page)) seen.add(id);
        path = (page.json._links as { next?: { href: string } } | undefined)?.next?.href;
        pages++;
      }
      assert.equal(seen.size, total, 'every record once');
    });

    it('metadata: field definitions and classifications, paged through _links.next, each item with id and name', async () => {
      for (const collection of ['fielddefinitions', 'classifications']) {
        let path: string | undefined = `/api/core/${collection}?page=1&pageSize=25`;
        let count = 0;
        let total = -1;
        while (path) {
          const page = expectStatus(await send(env().url, 'GET', path, http()), 200);
          total = Number(page.json.totalCount);
          for (const item of (page.json.items ?? []) as Item[]) {
            assert.match(String(item.id), /^[0-9a-f]{32}$/);
            assert.equal(typeof item.name, 'string');
            count++;
          }
          path = (page.json._links as { next?: { href: string } } | undefined)?.next?.href;
        }
        assert.equal(count, total, collection);
      }
    });

    it('an error answer carries exceptionMessage, which the connector reports as the message', async () => {
      const missing = await send(env().url, 'GET', '/api/core/record/0123456789abcdef0123456789abcdef', http());
      expectStatus(missing, 404);
    });

    it('uploadSmall: the legacy content-host upload, part "file", the HttpClient\'s headers and no Content-Type of its own', async () => {
      const upload = await send(env().url, 'POST', '/api/core/uploads', http(), onePart('file', 'small.bin', randomBytes(1024)));
      assert.ok(upload.status === 200 || upload.status === 201, upload.text);
      assert.equal(typeof upload.json.token, 'string');
    });
  });

  // Tomassettinick-aprimo/Google-Docs-Extension (a Google Docs, Sheets and Slides add-on in Apps Script): src/Api.ts
  // searchAssets, getClassifications, getCollections, uploadRecord and _mapAsset; src/Auth.ts _getApiHeaders. Its single
  // upload was replayed before without its repository (uploadClients.test.ts); these are its content-API requests.
  // UrlFetchApp sends its own User-Agent and no Accept unless told, so the answers are HAL.
  describe('a Google Docs add-on (Apps Script UrlFetchApp)', () => {
    const ua = 'Mozilla/5.0 (compatible; Google-Apps-Script; beanserver; +https://script.google.com; id: UAEmdDd8)';
    const common = () => ({ Authorization: `Bearer ${token}`, 'API-VERSION': '1', 'select-Record': 'thumbnail,preview', 'User-Agent': ua });

    it('searchAssets: POST search/records?page=N&pageSize=24 (page 1-based in the query), select-Record thumbnail,preview', async () => {
      const answer = await send(env().url, 'POST', '/api/core/search/records?page=1&pageSize=24', { ...common(), 'Content-Type': 'application/json' }, JSON.stringify({ searchExpression: { expression: 'forest' } }));
      expectStatus(answer, 200);
      // _mapAsset: items from _embedded.items || items, totalCount, the thumbnail and preview at _embedded.<rel>.uri.
      const items = (answer.json.items ?? []) as Item[];
      assert.ok(items.length > 0 && items.length <= 24);
      assert.equal(typeof answer.json.totalCount, 'number');
      for (const item of items) {
        assert.equal(typeof item.title, 'string');
        assert.ok('thumbnail' in item._embedded! && 'preview' in item._embedded!);
      }
      assert.ok(items.some((i) => /^http/.test(String((i._embedded!.thumbnail as { uri?: string } | null)?.uri))));
      const second = expectStatus(await send(env().url, 'POST', '/api/core/search/records?page=2&pageSize=24', { ...common(), 'Content-Type': 'application/json' }, JSON.stringify({ searchExpression: { expression: 'forest' } })), 200);
      assert.equal(second.json.page, 2);
    });

    it('the plain listing: GET /records with take, skip and orderby as headers answers a page of take records', async () => {
      const answer = expectStatus(await send(env().url, 'GET', '/api/core/records', { ...common(), take: '24', skip: '24', orderby: 'modifiedon desc' }), 200);
      assert.equal(answer.json.items?.length, 24);
      const hasMore = 24 + 24 < Number(answer.json.totalCount);
      assert.ok(hasMore);
    });

    it('getClassifications and getCollections: $top and $orderby in the query, each item read as id and label || name', async () => {
      const plain = { Authorization: `Bearer ${token}`, 'API-VERSION': '1', 'User-Agent': ua };
      const classifications = expectStatus(await send(env().url, 'GET', '/api/core/classifications?$top=200', plain), 200);
      const c = (classifications.json.items ?? []) as Item[];
      assert.ok(c.length > 0 && c.every((i) => typeof i.id === 'string' && typeof (i.label ?? i.name) === 'string'));
      const collections = expectStatus(await send(env().url, 'GET', `/api/core/collections?$top=100&$orderby=${encodeURIComponent('label asc')}`, plain), 200);
      assert.ok(((collections.json.items ?? []) as Item[]).every((i) => typeof i.id === 'string' && typeof (i.label ?? i.name) === 'string'));
    });

    it('uploadRecord: a new record with title as { value }, a classification by addOrUpdate and the staged file; reads id', async () => {
      const staged = await send(env().url, 'POST', '/uploads', { Authorization: `Bearer ${token}`, 'User-Agent': ua }, onePart('file1', 'Brief.docx', randomBytes(512), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'));
      assert.ok(staged.status === 200 || staged.status === 201, staged.text);
      const uploadToken = String(staged.json.token);
      const classification = ids(await send(env().url, 'GET', '/api/core/classifications?$top=200', { Authorization: `Bearer ${token}`, 'API-VERSION': '1' }))[0];
      const body = {
        title: { value: 'Brief' },
        classifications: { addOrUpdate: [{ id: classification }] },
        files: { master: uploadToken, addOrUpdate: [{ versions: { addOrUpdate: [{ id: uploadToken, fileName: 'Brief.docx' }] } }] },
      };
      const created = await send(env().url, 'POST', '/api/core/records', { Authorization: `Bearer ${token}`, 'API-VERSION': '1', 'Content-Type': 'application/json', 'User-Agent': ua }, JSON.stringify(body));
      assert.ok(created.status === 200 || created.status === 201, created.text);
      const id = String(created.json.id);
      const read = expectStatus(await send(env().url, 'GET', `/api/core/record/${id}`, { ...common(), Accept: 'application/json', 'select-Record': 'classifications,masterfilelatestversion' }), 200);
      assert.equal(read.json.title, 'Brief');
      assert.equal((read.json.masterFileLatestVersion as { fileName: string }).fileName, 'Brief.docx');
      assert.deepEqual(((read.json.classifications as { items: { id: string }[] }).items).map((i) => i.id), [classification]);
    });
  });

  // Aprimo-Connect/aprimo-chrome-extension, a browser extension with the caller's task inbox: js/login.js and
  // js/tasks.js GetAccessToken (the removed native-token route: client-id, Basic loginId:userToken, no body) and
  // GetTasks (POST api/tasks/search with X-Access-Token and a PmSearchRequest body written by hand; it reads
  // _embedded.Task[].taskId, name, projectId, workFlowTaskStatus, endDate.split('T')[0] and _total).
  describe('a Chrome task inbox on the work-management API (XMLHttpRequest)', () => {
    it('its native-token sign-in is gone (410, the error object names the OAuth 2.0 token endpoint), so it shows its login error', async () => {
      const basic = Buffer.from('admin:0123456789abcdef').toString('base64');
      const answer = await send(env().url, 'POST', '/api/oauth/create-native-token', { 'client-id': EMULATOR_CLIENT.clientId, 'content-type': 'application/json', Authorization: `Basic ${basic}` });
      expectStatus(answer, 410);
      assert.match(String(answer.json.exceptionMessage), /\/login\/connect\/token/);
    });

    it('GetTasks: the or-of-equals on workFlowTaskStatus answers only tasks in status 4 or 5, each with taskId, and _total counts them', async () => {
      const body = `
        {
            "or": [
                { "equals" : { "fieldName" : "workFlowTaskStatus", "fieldValue" : 4 } },
                { "equals" : { "fieldName" : "workFlowTaskStatus", "fieldValue" : 5 } }
            ]
        }
        `;
      const answer = expectStatus(await send(env().url, 'POST', '/api/tasks/search', { 'X-Access-Token': token, 'Content-Type': 'application/json' }, body), 200);
      const tasks = (answer.json._embedded as { Task: { taskId: number; name: string; projectId: number; workFlowTaskStatus: number; endDate: string }[] }).Task;
      assert.ok(tasks.length >= 1);
      for (const t of tasks) {
        assert.ok([4, 5].includes(t.workFlowTaskStatus), `status ${t.workFlowTaskStatus}`);
        assert.equal(typeof t.taskId, 'number');
        assert.equal(typeof t.name, 'string');
        assert.equal(typeof t.projectId, 'number');
        assert.match(t.endDate.split('T')[0], /^\d{4}-\d{2}-\d{2}$/);
      }
      assert.equal(answer.json._total, tasks.length);
      // The criteria are applied: a status no task has finds none (the emulator answered every task before).
      const none = expectStatus(await send(env().url, 'POST', '/api/tasks/search', { 'X-Access-Token': token, 'Content-Type': 'application/json' }, '{ "equals": { "fieldName": "workFlowTaskStatus", "fieldValue": 99 } }'), 200);
      assert.equal(none.json._total, 0);
      // A field the task does not have is refused with the error object, naming the fields it has.
      const unknown = expectStatus(await send(env().url, 'POST', '/api/tasks/search', { 'X-Access-Token': token, 'Content-Type': 'application/json' }, '{ "equals": { "fieldName": "colour", "fieldValue": 1 } }'), 400);
      assert.match(String(unknown.json.exceptionMessage), /Unknown fieldName 'colour'.*workFlowTaskStatus/);
    });

    it('GetProjects: an or of equals on projectId, built by hand with a comma left before "]", answers _embedded.Project[] with projectId and title', async () => {
      const tasks = (expectStatus(await send(env().url, 'POST', '/api/tasks/search', { 'X-Access-Token': token, 'Content-Type': 'application/json' }, '{}'), 200).json._embedded as { Task: { projectId: number }[] }).Task;
      const projectIds = [...new Set(tasks.map((t) => t.projectId))];
      // As GetProjects concatenates it: each operand ends with "},", and substring(0, length - 1) cuts the trailing
      // space, not the comma, so the list ends "},\n ]" (a trailing comma, which Newtonsoft reads).
      let body = '\n    {\n        "or": [\n    ';
      for (const id of projectIds) body += `\n\n        { \n            "equals" :\n            {\n                "fieldName" : "projectId",\n                "fieldValue" : ${id}\n            }\n        },\n        `;
      body = body.substring(0, body.length - 1);
      body += ']\n        }\n        ';
      const answer = expectStatus(await send(env().url, 'POST', '/api/projects/search', { 'X-Access-Token': token, 'Content-Type': 'application/json' }, body), 200);
      const projects = (answer.json._embedded as { Project: { projectId: number; title: string }[] }).Project;
      assert.deepEqual(projects.map((p) => p.projectId).sort(), [...projectIds].sort());
      assert.ok(projects.every((p) => typeof p.title === 'string' && p.title.length > 0));
      // GetReviewTasks, GetActivities (api/activities/search for the projects' activityId) and RenderTasks are replayed
      // in workManagementClients.test.ts.
    });
  });

  // raenardcruz/aprimo-auth (an npm PKCE helper for browser apps): index.js getAuthorizationUrl (scope "api+offline_access"
  // written into the URL by hand, state 12345, a 128-character verifier) and BaseAuthModeClass.js getToken (axios, the
  // form as a hand-built string with lower-case content-type, client_secret last); it keeps data.access_token.
  describe('a PKCE helper for browser apps (axios)', () => {
    const redirect = 'http://localhost:8080/';
    it('authorize with scope=api+offline_access and state 12345, then exchange the code with the verifier and the secret', async () => {
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
      const verifier = Array.from(randomBytes(128), (b) => alphabet[b % alphabet.length]).join('');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const query = `response_type=code&state=12345&client_id=${EMULATOR_CLIENT.clientId}&redirect_uri=${encodeURIComponent(redirect)}&scope=api+offline_access&code_challenge_method=S256&code_challenge=${challenge}`;
      expectStatus(await send(env().url, 'GET', `/login/connect/authorize?${query}`, { Accept: 'text/html' }), 200);
      const consent = await send(env().url, 'POST', '/login/connect/authorize', { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' }, query);
      assert.equal(consent.status, 302);
      const location = new URL(String(consent.headers.get('location')));
      assert.equal(location.searchParams.get('state'), '12345');
      const code = String(location.searchParams.get('code'));
      const form = `grant_type=authorization_code&code=${code}&redirect_uri=${encodeURIComponent(redirect)}&client_id=${EMULATOR_CLIENT.clientId}&code_verifier=${verifier}&client_secret=${EMULATOR_CLIENT.clientSecret}`;
      const answer = expectStatus(await send(env().url, 'POST', '/login/connect/token', { 'content-type': 'application/x-www-form-urlencoded', Accept: 'application/json, text/plain, */*', 'User-Agent': 'axios/0.21.1' }, form), 200);
      assert.ok(String(answer.json.access_token).length > 20);
      // offline_access was asked for: the silent re-authentication has a refresh token to use.
      assert.equal(typeof answer.json.refresh_token, 'string');
      // The helper's get() sets only Authorization; the caller's own request then reaches the content API.
      const me = await send(env().url, 'GET', '/api/core/records?pageSize=1', { Authorization: `Bearer ${String(answer.json.access_token)}`, 'API-VERSION': '1', Accept: 'application/json, text/plain, */*' });
      expectStatus(me, 200);
    });
  });
});
