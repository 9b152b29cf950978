// Every route of the service the catalogue knows: the content API (paths relative to {core_url}), the upload service,
// the work-management API, the analytics API and the identity host (paths from the host root). One line a route, with
// where it was read.
import type { Api, RouteEntry, Source } from './model';
import { CORE_DOCS, OPS_ROUTES, OPS_TASKS, client, contract, docs, notes, sdkModule, spec } from './sources';

type Method = RouteEntry['method'];

function r(api: Api, method: Method, path: string, sources: readonly Source[], extra: Partial<RouteEntry> = {}): RouteEntry {
  return { api, method, path, sources, ...extra };
}
const core = (method: Method, path: string, sources: readonly Source[], extra: Partial<RouteEntry> = {}) => r('core', method, path, sources, extra);
const ops = (method: Method, path: string, sources: readonly Source[], extra: Partial<RouteEntry> = {}) => r('ops', method, path, sources, extra);

/** List, read, create, update, delete of one resource (`/<plural>`, `/<name>/{id}`), as the spec's conventions say. */
function crud(plural: string, name: string, sources: readonly Source[], methods: readonly ('list' | 'read' | 'create' | 'update' | 'delete')[] = ['list', 'read', 'create', 'update', 'delete']): RouteEntry[] {
  const out: RouteEntry[] = [];
  if (methods.includes('list')) out.push(core('GET', `/${plural}`, sources, { resource: name, collection: true }));
  if (methods.includes('read')) out.push(core('GET', `/${name}/{id}`, sources, { resource: name }));
  if (methods.includes('create')) out.push(core('POST', `/${plural}`, sources, { resource: name }));
  if (methods.includes('update')) out.push(core('PUT', `/${name}/{id}`, sources));
  if (methods.includes('delete')) out.push(core('DELETE', `/${name}/{id}`, sources));
  return out;
}

const DISCOVERY = spec('Endpoints, Discovery and general conventions');
const SEARCH = spec('Endpoints, Advanced search');
const CHECKS = spec('Endpoints, Check framework');
const UPLOADS = spec('Endpoints, Upload service');
const OPS = spec('Endpoints, Work-management API');
const NOTES_OPS = notes('Work management');
const NOTES_ROUTES = notes('Other routes live clients use');
const NOTES_FILES = notes('More of what public clients send and read: Records and files');
/** The file resource's page of the service's documentation: its checkout and undocheckout actions. */
const FILE_DOCS = docs('https://training3.dam.aprimo.com/api/core/docs/resources/file');
const SETTINGCATEGORY_DOCS = docs('https://training3.dam.aprimo.com/api/core/docs/resources/settingcategory');

export const routes: RouteEntry[] = [
  // Discovery
  core('GET', '/', [DISCOVERY]),
  core('GET', '/supportedVersions', [DISCOVERY]),
  core('GET', '/docs', [DISCOVERY]),
  r('core', 'GET', '/download', [DISCOVERY], { note: 'The download URI comes from an order or an image; the path is the service\'s, its query carries a token.' }),

  // Records and what hangs off them
  core('GET', '/records', [DISCOVERY, sdkModule('records')], { resource: 'record', collection: true }),
  core('GET', '/record/{id}', [DISCOVERY, sdkModule('records')], { resource: 'record' }),
  core('POST', '/record', [DISCOVERY], { resource: 'record' }),
  core('POST', '/records', [notes('Creating a record with an uploaded file'), sdkModule('records')], { resource: 'record', note: 'The spec shows POST /record; live clients post to /records: both are served.' }),
  core('PUT', '/record/{id}', [CORE_DOCS, sdkModule('records')]),
  core('DELETE', '/record/{id}', [DISCOVERY, sdkModule('records')]),
  core('GET', '/record/{id}/fields', [spec('Endpoints, Selecting'), CORE_DOCS], { resource: 'field', collection: true }),
  core('GET', '/record/{id}/field/{fieldId}', [CORE_DOCS], { resource: 'field' }),
  core('GET', '/record/{id}/files', [CORE_DOCS], { resource: 'file', collection: true }),
  core('GET', '/record/{id}/masterfile', [CORE_DOCS], { resource: 'file' }),
  core('GET', '/record/{id}/masterfilelatestversion', [notes('Creating a record with an uploaded file')], { resource: 'fileversion' }),
  core('GET', '/record/{id}/classifications', [CORE_DOCS], { resource: 'classification', collection: true }),
  core('GET', '/record/{id}/permissions', [CORE_DOCS], { collection: true }),
  core('GET', '/record/{id}/preview', [CORE_DOCS], { resource: 'image' }),
  core('GET', '/record/{id}/thumbnail', [CORE_DOCS], { resource: 'image' }),
  core('GET', '/record/{id}/image/preview', [client('contentClients.test.ts: BI extract')], { resource: 'image' }),
  core('GET', '/record/{id}/image/thumbnail', [client('contentClients.test.ts: BI extract')], { resource: 'image' }),
  core('GET', '/record/{id}/image/preview/download', [NOTES_FILES]),
  core('GET', '/record/{id}/image/thumbnail/download', [NOTES_FILES, client('Aprimo-Connect/aprimo-episerver-extension RetrieveImage')]),
  core('GET', '/record/{id}/trail', [NOTES_FILES, sdkModule('audit-trail')]),
  core('GET', '/trail/entry/{id}', [NOTES_FILES, sdkModule('audit-trail')]),
  core('GET', '/record/{id}/collections', [spec('What the service does, 1'), sdkModule('collections')], { resource: 'collection', collection: true, note: 'The link a record carries to the collections holding it.' }),

  // Files, versions, renditions, images
  core('GET', '/file/{id}', [CORE_DOCS], { resource: 'file' }),
  core('GET', '/file/{id}/fileversions', [CORE_DOCS], { resource: 'fileversion', collection: true }),
  core('GET', '/file/{id}/latestversion', [CORE_DOCS], { resource: 'fileversion' }),
  core('GET', '/fileversion/{id}', [CORE_DOCS, sdkModule('file-versions')], { resource: 'fileversion' }),
  core('GET', '/fileversion/{id}/additionalfiles', [CORE_DOCS, sdkModule('additional-files')], { resource: 'additionalfile', collection: true }),
  core('GET', '/fileversion/{id}/preview', [CORE_DOCS], { resource: 'image' }),
  core('GET', '/fileversion/{id}/thumbnail', [CORE_DOCS], { resource: 'image' }),
  core('GET', '/additionalfile/{id}', [CORE_DOCS, sdkModule('additional-files')], { resource: 'additionalfile' }),
  core('GET', '/additionalfile', [DISCOVERY], { note: 'Spec: a known concrete path; the emulator answers it with the query naming the file.' }),
  core('GET', '/image/preview', [DISCOVERY], { resource: 'image' }),
  core('GET', '/image/thumbnail', [DISCOVERY], { resource: 'image' }),

  // Classifications
  ...crud('classifications', 'classification', [DISCOVERY, sdkModule('classifications')], ['list', 'read', 'update', 'delete']),
  core('GET', '/classification', [NOTES_ROUTES], { resource: 'classification', query: { namePath: '{classification.namePath}' }, note: '?namePath=/A/B answers the classification at that path.' }),
  core('POST', '/classification', [CORE_DOCS], { resource: 'classification' }),
  core('POST', '/classifications', [sdkModule('classifications')], { resource: 'classification' }),
  core('GET', '/classification/{id}/children', [spec('Endpoints, Selecting')], { resource: 'classification', collection: true }),
  core('GET', '/classification/{id}/parent', [spec('Endpoints, Selecting')], { resource: 'classification' }),
  core('GET', '/classification/{id}/ancestors', [notes('Core resources')], { resource: 'classification', collection: true }),
  core('GET', '/classification/{id}/fields', [notes('Core resources')], { resource: 'field', collection: true }),
  core('GET', '/classification/{id}/ClassificationTreePermissions', [sdkModule('classifications')]),
  core('GET', '/classification/{id}/RecordPermissions', [sdkModule('classifications')]),
  core('GET', '/classification/{id}/DownloadPermissions', [sdkModule('classifications')]),

  // Search
  core('POST', '/search/records', [SEARCH, sdkModule('search')], { resource: 'record', collection: true, readOnly: { body: { searchExpression: { expression: 'FileCount >= 0' } } } }),
  core('POST', '/search/classifications', [SEARCH, sdkModule('search')], { resource: 'classification', collection: true, readOnly: { body: { searchExpression: { expression: "Name = '*'" } } } }),
  core('PUT', '/searchindex', [NOTES_ROUTES]),
  core('GET', '/searchindex', [NOTES_ROUTES]),

  // Fields
  ...crud('fielddefinitions', 'fielddefinition', [CORE_DOCS, sdkModule('field-definitions')]),
  ...crud('fieldgroups', 'fieldgroup', [CORE_DOCS, sdkModule('field-groups')]),

  // Directory
  ...crud('users', 'user', [DISCOVERY, sdkModule('users')]),
  core('GET', '/user/{id}/usergroups', [CORE_DOCS], { resource: 'usergroup', collection: true }),
  ...crud('usergroups', 'usergroup', [CORE_DOCS, sdkModule('user-groups')]),
  core('GET', '/usergroup/{id}/members', [CORE_DOCS], { resource: 'user', collection: true }),
  core('GET', '/usergroup/{id}/permissions', [sdkModule('user-groups')]),
  ...crud('languages', 'language', [notes('More of what public clients send and read: Records and files'), sdkModule('languages')]),
  ...crud('contenttypes', 'contenttype', [spec('What the service does, 1'), sdkModule('content-types')]),

  // Settings
  core('GET', '/settings', [sdkModule('settings')], { resource: 'setting', collection: true }),
  core('GET', '/setting/{name}', [sdkModule('settings')], { resource: 'setting' }),
  core('PUT', '/setting/{name}', [sdkModule('settings')]),
  core('GET', '/settingdefinitions', [sdkModule('setting-definitions')], { resource: 'settingdefinition', collection: true }),
  core('GET', '/settingdefinition/{name}', [sdkModule('setting-definitions')], { resource: 'settingdefinition' }),
  core('POST', '/settingdefinitions', [sdkModule('setting-definitions')], { resource: 'settingdefinition' }),

  // Maintenance, orders
  core('POST', '/maintenancejobs', [spec('Endpoints, Maintenance jobs'), sdkModule('maintenance-jobs')], { resource: 'maintenancejob' }),
  core('GET', '/maintenancejobs', [notes('Maintenance jobs'), sdkModule('maintenance-jobs')], { resource: 'maintenancejob', collection: true }),
  core('GET', '/maintenancejob/{id}', [notes('Maintenance jobs'), sdkModule('maintenance-jobs')], { resource: 'maintenancejob' }),
  core('POST', '/orders', [NOTES_ROUTES, sdkModule('orders')], { resource: 'order' }),
  core('GET', '/orders', [sdkModule('orders')], { resource: 'order', collection: true }),
  core('GET', '/order/{id}', [NOTES_ROUTES, sdkModule('orders')], { resource: 'order' }),

  // Configuration the spec lists
  core('GET', '/permissions', [spec('What the service does, 1'), sdkModule('permissions')], { resource: 'permission', collection: true }),
  ...crud('watermarks', 'watermark', [spec('What the service does, 1'), DISCOVERY, CORE_DOCS]),
  ...crud('rules', 'rule', [spec('What the service does, 1'), sdkModule('rules')]),
  ...crud('contentsubscriptions', 'contentsubscription', [spec('What the service does, 1'), docs('https://training3.dam.aprimo.com/api/core/docs/resources/contentsubscriptions.html')]).map((route) => ({
    ...route,
    note: 'The documentation page (resources/contentsubscriptions) shows the UI Server\'s subscribe and unsubscribe routes, which forward to the DAM API, not the DAM API\'s own paths: these follow the spec\'s conventions (list, read, create, update, delete) under the page\'s name.',
  })),
  core('GET', '/translations', [sdkModule('translations')], { collection: true }),

  // Collections (spec: a resource of the content API; aprimo-js collections module)
  core('GET', '/collections', [spec('What the service does, 1'), sdkModule('collections')], { resource: 'collection', collection: true }),
  core('GET', '/collection/{id}', [sdkModule('collections')], { resource: 'collection' }),
  core('POST', '/collections', [sdkModule('collections')], { resource: 'collection' }),
  core('PUT', '/collection/{id}', [CORE_DOCS, spec('Resources and their fields, Common representation rules: Editing')]),
  core('DELETE', '/collection/{id}', [sdkModule('collections')]),
  core('PUT', '/collection/{id}/records', [sdkModule('collections')]),
  core('GET', '/collection/{id}/records', [sdkModule('collections'), spec('What the service does, 2')], { resource: 'record', collection: true }),

  // Check framework
  core('GET', '/checkcategories', [CHECKS, sdkModule('checks')], { collection: true }),
  core('GET', '/checkcategories/{id}', [CHECKS]),
  core('GET', '/checks', [CHECKS, sdkModule('checks')], { collection: true }),
  core('POST', '/checks', [CHECKS, sdkModule('checks')]),
  core('GET', '/checks/{id}', [CHECKS]),
  core('PUT', '/checks/{id}', [CHECKS]),
  core('DELETE', '/checks/{id}', [sdkModule('checks')]),
  core('POST', '/fileversion/{id}/CheckResults', [CHECKS]),
  core('GET', '/fileversion/{id}/CheckResults', [CHECKS], { collection: true }),
  core('GET', '/fileversion/{id}/CheckResult', [CHECKS], { query: { CheckId: '{check}' }, note: '?CheckId= answers the latest result of that check.' }),
  core('GET', '/fileversion/{id}/CheckResult/{resultId}', [CHECKS]),
  core('PUT', '/fileversion/{id}/CheckResult/{resultId}', [CHECKS]),
  core('DELETE', '/fileversion/{id}/CheckResult/{resultId}', [CHECKS]),
  core('POST', '/fileversion/{id}/CheckResult/{resultId}/Findings', [CHECKS]),
  core('GET', '/fileversion/{id}/CheckResult/{resultId}/Findings', [CHECKS], { collection: true }),
  core('GET', '/fileversion/{id}/CheckResult/{resultId}/Findings/{occurrence}', [CHECKS]),
  core('PUT', '/fileversion/{id}/CheckResult/{resultId}/Findings/{occurrence}', [CHECKS]),
  core('DELETE', '/fileversion/{id}/CheckResult/{resultId}/Findings/{occurrence}', [CHECKS]),

  // Legacy small-file upload on the content host
  core('POST', '/uploads', [notes('More of what public clients send and read: Uploads')]),

  // Issue 36: what the SDK's modules and the service's documentation list that the catalogue lacked (content API)
  core('GET', '/fileversion/{id}/renditions', [sdkModule('file-versions')], { resource: 'rendition', collection: true }),
  core('GET', '/rendition/{id}', [sdkModule('renditions')], { resource: 'rendition' }),
  core('GET', '/fileversion/{id}/publiclinks', [sdkModule('file-versions')], { resource: 'publiclink', collection: true }),
  core('POST', '/publiclinks', [sdkModule('public-links')], { resource: 'publiclink' }),
  core('GET', '/publiclink/{id}', [sdkModule('public-links')], { resource: 'publiclink' }),
  core('PUT', '/publiclink/{id}', [sdkModule('public-links')], { note: 'Only uri, provider, renditionName and fileSize change; a target id sent that differs is a 400 (the module: "target ids cannot be changed after creation").' }),
  core('DELETE', '/publiclink/{id}', [sdkModule('public-links')]),
  core('GET', '/fileversion/{id}/publicuris', [sdkModule('file-versions')], { collection: true, note: 'The emulator publishes nothing to a CDN of its own: an empty collection, as on a tenant where none was published.' }),
  core('GET', '/publicuri/{id}', [sdkModule('public-uris')], { note: 'Served; with no public URI published, every id answers the 404 error object.' }),
  core('GET', '/downloadlinks', [sdkModule('download-links')], { resource: 'downloadlink', collection: true }),
  core('GET', '/downloadlink/{id}', [sdkModule('download-links')], { resource: 'downloadlink' }),
  core('GET', '/settingcategories', [sdkModule('setting-categories')], { resource: 'settingcategory', collection: true }),
  core('GET', '/settingcategory/{id}', [sdkModule('setting-categories')], { resource: 'settingcategory' }),
  core('POST', '/settingcategories', [sdkModule('setting-categories')], { resource: 'settingcategory' }),
  core('PUT', '/settingcategory/{id}', [SETTINGCATEGORY_DOCS], { note: 'On the service\'s settingcategory page (edit: 204, 404), not in the SDK\'s module: the page wins, being the service\'s own. A category the definitions name is kept once changed.' }),
  core('DELETE', '/settingcategory/{id}', [sdkModule('setting-categories'), SETTINGCATEGORY_DOCS], { note: 'A category a setting definition names cannot be deleted (400); one created through the API can.' }),
  ...crud('filetypes', 'filetype', [sdkModule('file-types'), docs('https://training3.dam.aprimo.com/api/core/docs/resources/filetypepagedcollection')]),
  core('GET', '/record/{id}/locks', [sdkModule('record-locks')], { note: 'The record\'s active locks ({ items }, the SDK\'s RecordLocks); the emulator takes none, so items is empty.' }),
  core('POST', '/file/{id}/checkouts', [sdkModule('files'), FILE_DOCS], { note: 'Checks the file out to the caller (checkedOut, checkedOutOn, checkedoutby); 204.' }),
  core('DELETE', '/file/{id}/checkouts', [sdkModule('files'), FILE_DOCS], { note: 'Checks the file back in; 204.' }),
  core('POST', '/records/edits', [docs('https://training3.dam.aprimo.com/api/core/docs/resources/recordpagedcollection')], { resource: 'record', note: 'The record collection\'s page lists it as createdraft, "creates a new record as draft": the body of POST /records, the status Draft whatever it says.' }),

  // Upload service ({upload_url}, from the host root)
  r('upload', 'POST', '/uploads', [UPLOADS, sdkModule('uploader')]),
  r('upload', 'POST', '/uploads/segments', [UPLOADS, sdkModule('uploader')]),
  r('upload', 'POST', '/uploads/segments/{token}', [UPLOADS], { note: '?index=<n>, zero-based.' }),
  r('upload', 'POST', '/uploads/segments/{token}/commit', [UPLOADS]),
  r('upload', 'DELETE', '/uploads/segments/{token}', [UPLOADS]),
  r('upload', 'DELETE', '/uploads/{token}', [notes('Upload service')]),
  r('upload', 'PUT', '/uploads/blobs/{id}', [notes('More of what public clients send and read: Uploads'), client('prakashdlux/Migration src/main/java/org/example/AssetMigrationBatch.java')], {
    note: 'The writable sasUrl the emulator hands out; a tenant\'s is a blob store\'s address. It takes a whole file, or Azure\'s Put Block (comp=block) and Put Block List (comp=blocklist), which azcopy sends for a large file. Blocks not yet named by a block list are kept with the upload (a restart keeps them; Azure keeps them a week, the emulator as long as the upload, a day).',
  }),

  // Work management ({ops_url})
  ops('POST', '/api/simple-tasks', [OPS, OPS_TASKS]),
  ops('POST', '/api/tasks/simple-tasks', [NOTES_OPS, sdkModule('productivity/tasks')]),
  ops('GET', '/api/tasks', [NOTES_OPS, sdkModule('productivity/tasks')], { collection: true }),
  ops('GET', '/api/tasks/mine', [NOTES_OPS, sdkModule('productivity/tasks')], { collection: true }),
  ops('POST', '/api/tasks/search', [sdkModule('productivity/tasks'), OPS_ROUTES, client('fifthRoundClients.test.ts: Aprimo-Connect/aprimo-chrome-extension GetTasks')], { collection: true, readOnly: { body: {} }, note: 'The route list documents POST api/<resources>/search beside each resource\'s routes (activities shown); the SDK sends it for tasks, typing the body as PmSearchRequest (src/model/productivity/PmSearchRequest.ts). The emulator applies it to the tasks as rendered (a field the task lacks is a 400 naming those it has; a collectionName operand narrows nothing), then pages. Each task carries taskId (the SDK\'s Task model) beside id.' }),
  ops('GET', '/api/tasks/{taskId}', [OPS, sdkModule('productivity/tasks')]),
  ops('PUT', '/api/tasks/{taskId}', [sdkModule('productivity/tasks')]),
  ops('GET', '/api/tasks/{taskId}/assignees', [NOTES_OPS, sdkModule('productivity/tasks')], { collection: true }),
  ops('POST', '/api/tasks/{taskId}/delegate', [OPS, sdkModule('productivity/tasks')]),
  ops('POST', '/api/tasks/{taskId}/accept', [NOTES_OPS, sdkModule('productivity/tasks')]),
  ops('POST', '/api/tasks/{taskId}/close', [NOTES_OPS, sdkModule('productivity/tasks')]),
  ops('POST', '/api/tasks/{taskId}/decline', [NOTES_OPS, sdkModule('productivity/tasks')]),
  ops('GET', '/api/tasks/{taskId}/document-uploads', [OPS, sdkModule('productivity/tasks')], { collection: true }),
  ops('GET', '/api/tasks/{taskId}/document-uploads/{documentId}', [sdkModule('productivity/tasks')]),
  ops('GET', '/api/tasks/{taskId}/document-uploads/{documentId}/document-versions', [sdkModule('productivity/tasks')], { collection: true }),
  ops('POST', '/api/tasks/{taskId}/document-uploads/{documentId}/attachments', [OPS, sdkModule('productivity/tasks')]),
  ops('GET', '/api/tasks/{taskId}/document-uploads/{documentId}/attachments/{attachmentId}', [spec('Endpoints, Work-management API: task attachment procedure')], { note: 'Not in the spec\'s table: the read-back of what step 3 of its procedure creates (an attachment with id), which a client polls before step 4.' }),
  ops('POST', '/api/tasks/{taskId}/document-uploads/{documentId}/attachments/{attachmentId}/versions', [OPS, sdkModule('productivity/tasks')]),
  ops('PUT', '/api/tasks/{taskId}/document-uploads/{documentId}/upload-document', [OPS, sdkModule('productivity/tasks')]),
  ops('GET', '/api/tasks/{taskId}/documents', [sdkModule('productivity/tasks')], { collection: true }),
  ops('GET', '/api/tasks/{taskId}/documents/attachments', [sdkModule('productivity/tasks')], { collection: true }),
  ops('GET', '/api/tasks/{taskId}/documents/assets', [sdkModule('productivity/tasks')], { collection: true }),
  ops('GET', '/api/tasks/{taskId}/working-digital-assets', [sdkModule('productivity/tasks')], { collection: true }),
  ops('GET', '/api/tasks/{taskId}/working-attachments', [sdkModule('productivity/tasks')], { collection: true }),
  ops('GET', '/api/tasks/{taskId}/document-votes', [sdkModule('productivity/tasks')], { collection: true }),
  ops('GET', '/api/tasks/{taskId}/review-materials', [sdkModule('productivity/tasks')], { collection: true }),
  ops('GET', '/api/projects', [client('opsClients.test.ts'), sdkModule('productivity/projects')], { collection: true }),
  ops('POST', '/api/projects/search', [OPS_ROUTES, client('fifthRoundClients.test.ts: Aprimo-Connect/aprimo-chrome-extension GetProjects')], { collection: true, readOnly: { body: {} }, note: 'The route list documents POST api/<resources>/search beside each resource; a browser task inbox sends it for its tasks\' projects. The PmSearchRequest applies as on tasks. Projects carry projectId and title (the SDK\'s Project model) beside id and name (the task form\'s); each carries activityId, the activity it belongs to (null when none).' }),
  ops('GET', '/api/attachments/metadata', [OPS]),
  ops('POST', '/api/attachments', [OPS], { note: 'The generic attachments route; the spec sends task attachments through the task-scoped route instead.' }),
  ops('GET', '/api/resources/static', [OPS, sdkModule('productivity/resources')]),
  ops('GET', '/api/resources/{resourceId}', [OPS, sdkModule('productivity/resources')]),
  ops('POST', '/api/resources/query', [OPS, sdkModule('productivity/resources')], { readOnly: { body: { query: '{resource}' } } }),
  ops('GET', '/api/users/me', [notes('More of what public clients send and read: Work management'), sdkModule('productivity/users')]),
  ops('POST', '/api/users/search', [notes('More of what public clients send and read: Work management'), sdkModule('productivity/users')], { collection: true, readOnly: { body: {} }, note: 'Two bodies: the notes\' flat criteria (searchText, loginId, …), and the SDK\'s PmSearchRequest (users.search), applied as on tasks.' }),
  ops('GET', '/api/groups', [docs('https://developers.aprimo.com/marketing-operations/rest-api/api-basics/'), contract('Fixed ids in every seed')], {
    collection: true,
    note: 'Read from the API basics (every resource is a plural collection under /api/{resource}, paged by limit and offset) and the contract (work management names groups by integer, as task assignees take them); the exact route is not in a source we could read.',
  }),
  // Issue 36: what the API basics page and the SDK's productivity modules list beside tasks and projects.
  ops('GET', '/api/activities', [OPS_ROUTES, docs('https://developers.aprimo.com/marketing-operations/rest-api/api-basics/'), sdkModule('productivity/activities')], { collection: true, note: 'The API basics page\'s own examples: GET api/activities, api/activities/123, api/activities?limit=20. Items as the SDK\'s Activity model (src/model/productivity/Activity.ts) names them, activityId beside id; _embedded.Activity.' }),
  ops('GET', '/api/activities/{activityId}', [OPS_ROUTES, docs('https://developers.aprimo.com/marketing-operations/rest-api/api-basics/'), sdkModule('productivity/activities')]),
  ops('POST', '/api/activities', [OPS_ROUTES, sdkModule('productivity/activities')], { note: 'CreateActivityRequest: name, activityTypeId, activityStateId, ownerId, administratorId, beginDate, endDate, currencyCode, timeZoneId required; the owner and administrator must be users. 201 with the activity and Location.' }),
  ops('PUT', '/api/activities/{activityId}', [OPS_ROUTES, sdkModule('productivity/activities')], { note: 'The route list marks it PUT* (field-level: only the members sent change); the SDK\'s UpdateActivityRequest has every member optional.' }),
  ops('DELETE', '/api/activities/{activityId}', [OPS_ROUTES, sdkModule('productivity/activities')], { note: 'The emulator refuses (400) while projects belong to the activity; the SDK says only that it cannot be undone.' }),
  ops('POST', '/api/activities/search', [OPS_ROUTES, sdkModule('productivity/activities'), client('workManagementClients.test.ts: Aprimo-Connect/aprimo-chrome-extension GetActivities')], { collection: true, readOnly: { body: {} }, note: 'The route list\'s own example of POST api/<resources>/search; the SDK types the body as PmSearchRequest. Applied as on tasks (routes/pmSearch.ts).' }),
  ops('GET', '/api/attachments/{attachmentId}/activity', [OPS_ROUTES], { note: 'The activity associated with an attachment; the emulator\'s attachments are task attachments, so it is their task\'s project\'s activity (404 when the project has none).' }),
  ops('GET', '/api/activities/{activityId}/projects', [sdkModule('productivity/projects')], { collection: true, note: 'projects.getByActivityId: the projects whose activityId is the activity.' }),
  ops('GET', '/api/projects/{projectId}', [sdkModule('productivity/projects')]),
  ops('POST', '/api/projects/{projectId}/start', [sdkModule('productivity/projects')], { note: 'From Draft or Paused to InProcess; the SDK sends {} and reads no body: 204. The other moves are refused (400).' }),
  ops('POST', '/api/projects/{projectId}/pause', [sdkModule('productivity/projects')], { note: 'From InProcess to Paused: 204.' }),
  ops('POST', '/api/projects/{projectId}/close', [sdkModule('productivity/projects')], { note: 'From InProcess or Paused to Closed: 204.' }),
  ops('POST', '/api/projects/{projectId}/cancel', [sdkModule('productivity/projects')], { note: 'From Draft, InProcess or Paused to Cancelled: 204.' }),
  ops('GET', '/api/projects/{projectId}/attachments', [sdkModule('productivity/projects')], { collection: true, note: 'The emulator keeps no project attachments: an empty page for a project that exists.' }),
  ops('GET', '/api/projects/{projectId}/digital-assets', [sdkModule('productivity/projects')], { collection: true, note: 'The emulator keeps no project digital assets: an empty page for a project that exists.' }),
  ops('GET', '/api/users/{userId}', [sdkModule('productivity/users')], { note: 'The work-management (integer) id; the same members as /api/users/search.' }),
  ops('GET', '/api/groups/{groupId}', [sdkModule('productivity/groups')], { note: 'groupId, name and users [{ userId }] (the SDK\'s CreateGroupRequest names members so).' }),
  ops('POST', '/api/groups/search', [OPS_ROUTES, sdkModule('productivity/groups')], { collection: true, readOnly: { body: {} }, note: 'PmSearchRequest on groupId or name, as on tasks.' }),
  ops('POST', '/api/review-tasks/search', [client('workManagementClients.test.ts: Aprimo-Connect/aprimo-chrome-extension GetReviewTasks')], { collection: true, readOnly: { body: {} }, note: 'The inbox reads _embedded.ReviewTask and _total. The emulator keeps no review tasks (the spec creates simple tasks only): an empty page.' }),

  // Analytics ({analytics_url})
  r('analytics', 'GET', '/analytics/', [spec('Endpoints, Analytics API'), notes('Analytics')], { query: { query: '{"measures":["Views.count"]}' } }),

  // Identity ({auth_url})
  r('auth', 'POST', '/login/connect/token', [spec('Authentication, 1')]),
  r('auth', 'GET', '/login/connect/authorize', [spec('Authentication, 4')]),
  r('auth', 'GET', '/login/.well-known/openid-configuration', [notes('More of what public clients send and read: Auth')]),
];

