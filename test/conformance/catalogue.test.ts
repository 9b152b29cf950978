// Generated from the service catalogue (src/core/catalogue, STYLE 16): one `it` per route, per resource member and per
// relation, so a line added to the catalogue is a test, and a gap in the emulator is a failing line. An item the
// catalogue marks `knownDifference` is reported pending with its reason. Prints the coverage at the end.
import { strict as assert } from 'node:assert';
import { catalogue, type MemberEntry, type ResourceEntry, type RouteEntry } from '../../src/core/catalogue';
import { describeEachBackend } from './helpers';
import { clientCredentialsToken, send, type Answer } from '../interop/replay';

const NO_SUCH = 'ffffffffffffffffffffffffffffffff';
type Json = Record<string, unknown>;

/** Whether an answer says no route is there (as opposed to a route answering 4xx about its input or its data). */
function routeMissing(a: Answer): boolean {
  return a.status === 405 || (a.status === 404 && /No route matches/.test(String(a.json.exceptionMessage ?? '')));
}

/** Whether a value has the catalogue's JSON type. */
function hasType(m: MemberEntry, v: unknown): boolean {
  if (v === null) return m.nullable === true || m.type === 'string|null';
  switch (m.type) {
    case 'guid':
      return typeof v === 'string' && /^[0-9a-f]{32}$/.test(v);
    case 'date-time':
      return typeof v === 'string' && !Number.isNaN(Date.parse(v));
    case 'integer':
      return Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    case 'boolean':
      return typeof v === 'boolean';
    case 'object':
      return typeof v === 'object' && !Array.isArray(v);
    case 'array':
      return Array.isArray(v);
    default:
      return typeof v === 'string';
  }
}

const API_BASE: Record<RouteEntry['api'], string> = { core: '/api/core', upload: '', ops: '', analytics: '', auth: '' };

/** Query strings a GET route needs to answer (the catalogue's notes name them). */
const QUERIES: Record<string, (ids: Record<string, string>) => string> = {
  'core GET /classification': (ids) => `?namePath=${encodeURIComponent(ids.namePath)}`,
  'core GET /image/preview': (ids) => `?fileVersionId=${ids.fileversion}`,
  'core GET /image/thumbnail': (ids) => `?fileVersionId=${ids.fileversion}`,
  'core GET /additionalfile': (ids) => `?fileVersionId=${ids.fileversion}`,
  'core GET /fileversion/{id}/CheckResult': (ids) => `?CheckId=${ids.check}`,
  'analytics GET /analytics/': () => `?query=${encodeURIComponent(JSON.stringify({ measures: ['Downloads.count'] }))}`,
  'auth GET /login/connect/authorize': () => '?client_id=x&response_type=code',
};

/** GETs whose 2xx needs more than an id (a download token, a browser login): only checked to be served. */
const SERVED_ONLY = new Set([
  'core GET /download',
  'auth GET /login/connect/authorize',
  // The emulator publishes to no CDN of its own, so no public URI exists to read: the route answers the 404 error object.
  'core GET /publicuri/{id}',
]);

/** Which sample id a path's `{id}` takes, by the segment before it, where the two names differ. */
const ID_OF: Record<string, string> = { entry: 'trail', checks: 'check', setting: 'setting', settingdefinition: 'settingdefinition' };

const key = (r: RouteEntry) => `${r.api} ${r.method} ${r.path}`;

interface Tally {
  routes: number;
  members: number;
  relations: number;
}

describeEachBackend('the catalogue, served', {}, (env) => {
  let token = '';
  const ids: Record<string, string> = {};
  const served: Tally = { routes: 0, members: 0, relations: 0 };
  const differing: string[] = [];
  const servedOnly = new Set(SERVED_ONLY);
  const headers = (extra: Record<string, string> = {}) => ({ Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/hal+json', 'User-Agent': 'catalogue-test', ...extra });
  const core = (path: string, extra: Record<string, string> = {}) => send(env().url, 'GET', `/api/core/${path}`, headers(extra));
  const firstOf = (a: Answer): Json | undefined => (Array.isArray(a.json.items) ? (a.json.items[0] as Json | undefined) : a.status === 200 ? a.json : undefined);

  before(async function () {
    // Many setup requests on a shared machine: the suite's default is for one emulator start.
    this.timeout(600_000);
    token = await clientCredentialsToken(env().url);
    const rec = firstOf(await core(`records?filter=${encodeURIComponent('FileCount > 0')}`))!;
    ids.record = String(rec.id);
    const read = (await core(`record/${ids.record}`, { 'select-record': 'masterfile,masterfilelatestversion' })).json as { _embedded: { masterfile: Json; masterfilelatestversion: Json } };
    ids.file = String(read._embedded.masterfile.id);
    ids.fileversion = String(read._embedded.masterfilelatestversion.id);
    const json = headers({ 'Content-Type': 'application/json' });
    const job = await send(env().url, 'POST', '/api/core/maintenancejobs', json, JSON.stringify({ type: 'record', targets: [{ recordId: ids.record }], actions: [{ action: 'CreateRenditions', parameters: { presets: ['thumbnail'] } }] }));
    ids.maintenancejob = String(job.json.id);
    // The renditions job gives the version an additional file; wait for it by its status, not by time.
    for (let i = 0; i < 1200; i++) {
      const status = String((await core(`maintenancejob/${ids.maintenancejob}`)).json.status);
      if (['Success', 'Failed', 'PartiallyFailed', 'Cancelled'].includes(status)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const [name, path] of [
      ['classification', 'classifications'],
      ['fielddefinition', 'fielddefinitions'],
      ['fieldgroup', 'fieldgroups'],
      ['user', 'users'],
      ['usergroup', 'usergroups'],
      ['language', 'languages'],
      ['contenttype', 'contenttypes'],
      ['check', 'checks'],
      ['checkcategories', 'checkcategories'],
      ['additionalfile', `fileversion/${ids.fileversion}/additionalfiles`],
      ['rendition', `fileversion/${ids.fileversion}/renditions`],
      ['filetype', 'filetypes'],
      ['settingcategory', 'settingcategories'],
    ] as const) {
      const item = firstOf(await core(path));
      if (item) ids[name] = String(item.id);
    }
    ids.namePath = String(firstOf(await core('classifications'))?.namePath ?? '/');
    ids.setting = String(firstOf(await core('settings'))?.name ?? '');
    ids.settingdefinition = String(firstOf(await core('settingdefinitions'))?.name ?? '');
    const order = await send(env().url, 'POST', '/api/core/orders', json, JSON.stringify({ type: 'download', targets: [{ recordId: ids.record, targetTypes: ['Document'], assetType: 'LatestVersionOfMasterFile' }] }));
    ids.order = String(order.json.id);
    // A download order's output is a download link of the same id (downloadlinks).
    ids.downloadlink = ids.order;
    const result = await send(env().url, 'POST', `/api/core/fileversion/${ids.fileversion}/CheckResults`, json, JSON.stringify({ checkId: ids.check, outcome: 'info', description: 'catalogue' }));
    ids.resultId = String(result.json.id);
    await send(env().url, 'POST', `/api/core/fileversion/${ids.fileversion}/CheckResult/${ids.resultId}/Findings`, json, JSON.stringify({ occurrence: 1, finding: 'x', outcome: 'info' }));
    ids.occurrence = '1';
    const trail = await core(`record/${ids.record}/trail`);
    const entry = ((trail.json.entries ?? trail.json.items) as Json[] | undefined)?.[0];
    // A seeded record may have no trail yet: the entry route is then only checked to be served.
    if (entry) ids.trail = String(entry.id);
    else servedOnly.add('core GET /trail/entry/{id}');
    const child = ((await core(`classifications?filter=${encodeURIComponent('IsRoot = false')}`)).json.items ?? []).find((c) => c.parentId) ?? (await core('classifications?pageSize=1000')).json.items?.find((c) => c.parentId);
    if (child) ids.childClassification = String(child.id);
    // The resources the seed has none of are created through their documented writes.
    for (const [kind, body] of [
      ['collection', { name: 'Catalogue collection', description: 'catalogue test', type: 'static', records: { addOrUpdate: [ids.record] } }],
      ['watermark', { name: 'Catalogue watermark', position: 'bottomright' }],
      ['rule', { name: 'Catalogue rule', enabled: true, target: 'Record', trigger: 'WhenSavedOrDeleted' }],
      ['publiclink', { fileVersionId: ids.fileversion, uri: 'https://cdn.example.com/catalogue.jpg', provider: 'Catalogue CDN' }],
      ['contentsubscription', { objectId: ids.record, subscriptionType: 1, subscriptionObjectType: 0 }],
    ] as const) {
      const made = await send(env().url, 'POST', `/api/core/${kind}s`, json, JSON.stringify(body));
      assert.equal(made.status, 201, made.text);
      ids[kind] = String(made.json.id);
    }
    // Task 5001 of the demo seed is In Process with an open upload slot (tasks.test.ts): an attachment can be made on it.
    const ops = { Authorization: `Bearer ${token}`, Accept: 'application/json', 'Content-Type': 'application/json' };
    ids.taskId = '5001';
    const slots = await send(env().url, 'GET', `/api/tasks/${ids.taskId}/document-uploads`, ops);
    const slot = Object.values((slots.json._embedded as Record<string, Json[]> | undefined) ?? {}).flat()[0];
    ids.documentId = String(slot?.documentId ?? 1);
    const attachment = await send(env().url, 'POST', `/api/tasks/${ids.taskId}/document-uploads/${ids.documentId}/attachments`, ops, JSON.stringify({ title: 'catalogue' }));
    ids.attachmentId = String(attachment.json.id ?? NO_SUCH);
    ids.resourceId = 'mo-replacement-strings-1';
    // Work management's own integer ids: the contract's project 101, user 1 and group 10, the demo seed's activity 201.
    Object.assign(ids, { activityId: '201', projectId: '101', userId: '1', groupId: '10' });
  });

  after(() => {
    const t = (n: number, of: number) => `${n}/${of} (${Math.floor((1000 * n) / Math.max(of, 1)) / 10}%)`;
    const members = Object.values(catalogue.resources).reduce((n, r) => n + r.members.length, 0);
    const relations = Object.values(catalogue.resources).reduce((n, r) => n + r.relations.length, 0);
    console.log(
      `      catalogue coverage [${env().backend}]: routes served ${t(served.routes, catalogue.routes.length)}, members present ${t(served.members, members)}, relations embeddable ${t(served.relations, relations)}; known differences ${differing.length}`,
    );
  });

  /** A path with its parameters filled: real ids for reads, an id that names nothing for writes (nothing is harmed). */
  function fill(route: RouteEntry): string {
    const segments = route.path.split('/');
    const filled = segments.map((s, i) => {
      const m = /^\{(\w+)\}$/.exec(s);
      if (!m) return s;
      if (route.method !== 'GET') return m[1] === 'taskId' ? '999999' : NO_SUCH;
      const owner = segments[i - 1]?.toLowerCase() ?? '';
      if (m[1] === 'id') {
        if (owner === 'classification' && segments[i + 1] === 'parent') return ids.childClassification ?? NO_SUCH;
        return ids[ID_OF[owner] ?? owner] ?? NO_SUCH;
      }
      if (m[1] === 'name') return owner === 'setting' ? ids.setting : ids.settingdefinition;
      if (m[1] === 'fieldId') return ids.fielddefinition;
      return ids[m[1]] ?? NO_SUCH;
    });
    return `${API_BASE[route.api]}${filled.join('/')}${route.method === 'GET' ? (QUERIES[key(route)]?.(ids) ?? '') : ''}`;
  }

  describe('routes', () => {
    for (const route of catalogue.routes) {
      it(`${key(route)} is served${route.method === 'GET' && !SERVED_ONLY.has(key(route)) ? ' and answers 2xx' : ''}`, async function () {
        if (route.knownDifference) {
          differing.push(`${key(route)}: ${route.knownDifference}`);
          this.skip();
        }
        const write = route.method !== 'GET';
        const a = await send(env().url, route.method, fill(route), headers(write ? { 'Content-Type': 'application/json' } : {}), write ? '{}' : undefined);
        assert.ok(!routeMissing(a), `${key(route)}: no route (${a.status} ${a.text.slice(0, 200)})`);
        if (!write && !servedOnly.has(key(route))) assert.ok(a.status >= 200 && a.status < 400, `${key(route)}: ${a.status} ${a.text.slice(0, 300)}`);
        served.routes++;
      });
    }
  });

  /** One instance of a resource, HAL, with the select-only members and the given relations selected. */
  async function sample(resource: ResourceEntry, select: string[] = []): Promise<Json> {
    assert.ok(resource.sample, `${resource.name}: the catalogue gives no sample path`);
    const path = resource.sample.replace(/\{(\w+)\}/g, (_m, name: string) => ids[name] ?? NO_SUCH);
    const selected = [...resource.members.filter((m) => m.selectOnly).map((m) => m.name), ...select];
    const a = await core(path, selected.length ? { [`select-${resource.name}`]: selected.join(',') } : {});
    const item = firstOf(a);
    assert.ok(item && typeof item === 'object', `${resource.name}: no instance at ${path} (${a.status} ${a.text.slice(0, 200)})`);
    return item;
  }

  for (const resource of Object.values(catalogue.resources)) {
    describe(`${resource.name}`, () => {
      for (const member of resource.members) {
        it(`member ${member.name} is ${member.type}${member.nullable ? ' or null' : ''}`, async function () {
          if (member.knownDifference) {
            differing.push(`${resource.name}.${member.name}: ${member.knownDifference}`);
            this.skip();
          }
          const item = await sample(resource);
          assert.ok(Object.hasOwn(item, member.name), `${resource.name} has no ${member.name}: ${Object.keys(item).join(', ')}`);
          assert.ok(hasType(member, item[member.name]), `${resource.name}.${member.name} is ${JSON.stringify(item[member.name])}, not ${member.type}`);
          served.members++;
        });
      }
      for (const relation of resource.relations) {
        const selectKey = relation.selectKey ?? relation.rel;
        it(`relation ${relation.rel} (select-${resource.name}: ${selectKey}) embeds ${relation.collection ? 'a collection of ' : ''}${relation.target}`, async function () {
          if (relation.knownDifference) {
            differing.push(`${resource.name} → ${relation.rel}: ${relation.knownDifference}`);
            this.skip();
          }
          const item = await sample(resource, [selectKey]);
          const links = (item._links ?? {}) as Record<string, { href?: string; 'select-key'?: string }>;
          assert.ok(links[relation.rel]?.href, `${resource.name} has no link ${relation.rel}: ${Object.keys(links).join(', ')}`);
          assert.equal(links[relation.rel]['select-key'], selectKey);
          const embedded = (item._embedded ?? {}) as Json;
          assert.ok(Object.hasOwn(embedded, relation.rel), `select-${resource.name}: ${selectKey} embeds nothing (${Object.keys(embedded).join(', ')})`);
          const value = embedded[relation.rel] as Json | null;
          if (relation.collection) assert.ok(Array.isArray(value?.items), `${relation.rel} is not a collection: ${JSON.stringify(value).slice(0, 200)}`);
          else assert.ok(value === null || (typeof value === 'object' && !Array.isArray(value)), `${relation.rel} is not one resource or null`);
          served.relations++;
        });
      }
    });
  }
});
