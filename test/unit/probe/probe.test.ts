// The probe's pure parts: the shape of an answer (types, never values; ids as keys hidden), route parameters filled
// from earlier answers, and two probes compared in words (samples: a null or an empty list is no difference).
import { strict as assert } from 'node:assert';
import { IdBook, PROBE_FORMAT, compareProbes, parseProbe, probeText, routeKey, sendingOrder, shapeOf, toMembers, type Probe, type ProbeRoute } from '../../../src/core/probe';

const probeOf = (routes: Record<string, { path: string; status?: number; members?: Record<string, string> }>): Probe => ({
  format: PROBE_FORMAT,
  routes: Object.fromEntries(Object.entries(routes).map(([k, r]) => [k, { api: 'core' as const, from: 'catalogue' as const, ...r }])),
});

describe('probe', () => {
  it('writes member paths with JSON types and formats, link relations, and no value or id', () => {
    const answer = {
      items: [
        { id: 'c2bd4f9bbb954bcb80c31e924c9c26dc', name: 'English', on: '2024-01-02T03:04:05Z', n: 3, ok: true, tag: null, _links: { self: { href: 'https://t/x' } } },
        { id: 'c2bd4f9b-bb95-4bcb-80c3-1e924c9c26dd', name: 'German', n: 2.5, tag: 'x', byId: { '0123456789abcdef0123456789abcdef': 1 } },
      ],
      totalCount: 2,
    };
    assert.deepEqual(toMembers(shapeOf(answer)), {
      items: 'array',
      'items[]': 'object',
      'items[]._links': 'object',
      'items[]._links.self': 'link',
      'items[].byId': 'object',
      'items[].byId.{key}': 'number',
      'items[].id': 'guid',
      'items[].n': 'number',
      'items[].name': 'string',
      'items[].ok': 'boolean',
      'items[].on': 'date-time',
      'items[].tag': 'null|string',
      totalCount: 'number',
    });
  });

  it('fills a route parameter from the items of a collection answered before, another item on each try', () => {
    const ids = new IdBook();
    const records: ProbeRoute = { api: 'core', path: '/records', resource: 'record', collection: true, from: 'catalogue' };
    ids.note(records, { items: [{ id: 'abc' }, { id: 'def' }] });
    assert.deepEqual(ids.fill({ api: 'core', path: '/record/{id}/fields', from: 'catalogue' }), { requests: [{ path: '/record/abc/fields' }, { path: '/record/def/fields' }] });
    assert.deepEqual(ids.fill({ api: 'core', path: '/record/{recordId}', from: 'catalogue' }), { requests: [{ path: '/record/abc' }, { path: '/record/def' }] });
    assert.deepEqual(ids.fill({ api: 'core', path: '/classification/{id}', from: 'catalogue' }), { missing: 'no answer gave an id for {classification}' });
  });

  it("tries a resource's sample first, then one item of each other source in turn", () => {
    const ids = new IdBook();
    ids.note({ api: 'core', path: '/records', resource: 'record', collection: true, from: 'catalogue' }, { items: [{ id: 'plain1' }, { id: 'plain2' }] });
    ids.note({ api: 'core', path: '/record/{id}/classifications', resource: 'classification', collection: true, from: 'catalogue' }, { items: [{ id: 'leaf' }] });
    ids.note({ api: 'core', path: '/classifications', resource: 'classification', collection: true, from: 'catalogue' }, { items: [{ id: 'root1' }, { id: 'root2' }] });
    // The catalogue's sample (records with a file) is answered after the plain list, and still comes first.
    ids.note({ api: 'core', path: '/records', query: { filter: 'FileCount > 0' }, resource: 'record', collection: true, from: 'sample' }, { items: [{ id: 'withfile' }] });
    const fill = (path: string) => {
      const filled = ids.fill({ api: 'core', path, from: 'catalogue' });
      return 'requests' in filled ? filled.requests.map((r) => r.path) : filled.missing;
    };
    assert.deepEqual(fill('/record/{id}/masterfile'), ['/record/withfile/masterfile', '/record/plain1/masterfile', '/record/plain2/masterfile']);
    // A root's parent is a 404: the second try is a classification from another list (a record's, a leaf).
    assert.deepEqual(fill('/classification/{id}/parent'), ['/classification/leaf/parent', '/classification/root1/parent', '/classification/root2/parent']);
  });

  it("takes ids from work management's lists, embedded relations (by the catalogue's targets) and links", () => {
    const taskRoutes: ProbeRoute[] = [
      { api: 'ops', path: '/api/tasks/{taskId}/document-uploads/{documentId}', from: 'catalogue' },
      { api: 'core', path: '/fileversion/{id}/CheckResult/{resultId}', from: 'catalogue' },
      { api: 'core', path: '/record/{id}/masterfilelatestversion', resource: 'fileversion', from: 'catalogue' },
    ];
    const ids = new IdBook({
      routes: taskRoutes,
      catalogue: { resources: { record: { name: 'record', members: [], sources: [], relations: [{ rel: 'masterfile', target: 'file', sources: [] }] } } },
      locate: (href) => (href.startsWith('https://t.example/api/core/') ? { api: 'core', path: href.slice('https://t.example/api/core'.length) } : href.startsWith('https://t.example/') ? { api: 'ops', path: href.slice('https://t.example'.length) } : undefined),
    });
    ids.note({ api: 'ops', path: '/api/tasks', collection: true, from: 'catalogue' }, { _total: 1, _embedded: { Task: [{ id: 5001 }] } });
    ids.note({ api: 'core', path: '/record/{id}', resource: 'record', from: 'catalogue' }, { id: 'r1', _embedded: { masterfile: { id: 'f1' } } });
    ids.note({ api: 'ops', path: '/api/tasks/{taskId}/document-uploads', collection: true, from: 'catalogue' }, {
      _embedded: { DocumentUpload: [{ documentUploadId: 7, _links: { self: { href: 'https://t.example/api/tasks/5001/document-uploads/7' } } }] },
    });
    ids.note({ api: 'core', path: '/fileversion/{id}/CheckResults', collection: true, from: 'catalogue' }, {
      items: [{ _links: { self: { href: 'https://t.example/api/core/fileversion/v9/CheckResult/c3' }, elsewhere: { href: 'https://cdn.example/x/1' } } }],
    });
    const paths = (route: ProbeRoute) => {
      const filled = ids.fill(route);
      return 'requests' in filled ? filled.requests.map((r) => r.path) : filled.missing;
    };
    assert.deepEqual(paths({ api: 'ops', path: '/api/tasks/{taskId}', from: 'catalogue' }), ['/api/tasks/5001']);
    assert.deepEqual(paths({ api: 'core', path: '/file/{id}', resource: 'file', from: 'catalogue' }), ['/file/f1']);
    assert.deepEqual(paths(taskRoutes[0]), ['/api/tasks/5001/document-uploads/7']);
    // A link to a record's latest version names a record, not a version; an all-zero GUID names nothing.
    ids.note({ api: 'core', path: '/records', resource: 'record', collection: true, from: 'catalogue' }, {
      items: [{ id: 'r2', watermarkId: '00000000000000000000000000000000', _links: { v: { href: 'https://t.example/api/core/record/r2/masterfilelatestversion' } } }],
    });
    assert.deepEqual(paths({ api: 'core', path: '/fileversion/{id}', resource: 'fileversion', from: 'catalogue' }), ['/fileversion/v9']);
    assert.deepEqual(paths({ api: 'core', path: '/watermark/{id}', resource: 'watermark', from: 'catalogue' }), 'no answer gave an id for {watermark}');
    assert.deepEqual(paths({ api: 'core', path: '/fileversion/{id}/CheckResult/{resultId}/Findings', collection: true, from: 'catalogue' }), ['/fileversion/v9/CheckResult/c3/Findings']);
  });

  it("takes the ids an item names of others (`documentId`), and a parameter that is not an id from the item's member", () => {
    const ids = new IdBook();
    ids.note({ api: 'ops', path: '/api/tasks/{taskId}/document-uploads', collection: true, from: 'catalogue' }, { _embedded: { DocumentUpload: [{ documentId: 801, taskId: 5001 }] } });
    ids.note({ api: 'core', path: '/fileversion/{id}/CheckResult/{resultId}/Findings', collection: true, from: 'catalogue' }, { items: [{ id: 'f-guid', occurrence: 2 }] });
    const paths = (path: string) => {
      const filled = ids.fill({ api: 'ops', path, from: 'catalogue' });
      return 'requests' in filled ? filled.requests.map((r) => r.path) : filled.missing;
    };
    assert.deepEqual(paths('/api/tasks/{taskId}/document-uploads/{documentId}'), ['/api/tasks/5001/document-uploads/801']);
    assert.deepEqual(paths('/x/{resultId}/Findings/{occurrence}'), 'no answer gave an id for {result}');
    ids.note({ api: 'core', path: '/fileversion/{id}/CheckResults', collection: true, from: 'catalogue' }, { items: [{ id: 'r1' }] });
    assert.deepEqual(paths('/CheckResult/{resultId}/Findings/{occurrence}'), ['/CheckResult/r1/Findings/2', '/CheckResult/r1/Findings/f-guid']);
  });

  it('fills query and body placeholders from sample items, says which list answered none, and never invents an id', () => {
    const ids = new IdBook();
    ids.note({ api: 'core', path: '/classifications', resource: 'classification', collection: true, from: 'catalogue' }, { items: [{ id: 'c1', namePath: '/Brand' }] });
    ids.note({ api: 'core', path: '/collections', resource: 'collection', collection: true, from: 'catalogue' }, { items: [], totalCount: 0 });
    assert.deepEqual(ids.fill({ api: 'core', path: '/classification', query: { namePath: '{classification.namePath}' }, from: 'catalogue' }), {
      requests: [{ path: '/classification', query: { namePath: '/Brand' } }],
    });
    assert.deepEqual(ids.fill({ api: 'ops', method: 'POST', path: '/api/resources/query', body: { query: '{classification}', keep: '{"a":1}' }, from: 'catalogue' }), {
      requests: [{ path: '/api/resources/query', body: { query: 'c1', keep: '{"a":1}' } }],
    });
    assert.deepEqual(ids.fill({ api: 'core', path: '/collection/{id}', resource: 'collection', from: 'catalogue' }), { missing: 'GET /api/core/collections listed no item to read' });
    assert.deepEqual(ids.fill({ api: 'ops', path: '/api/tasks/{taskId}', from: 'catalogue' }), { missing: 'no answer gave an id for {task}' });
    // The emulator's fixed ids, only when given (the runner gives them for the emulator only), after any answer's.
    const emulator = new IdBook({ wellKnown: { task: ['5001'] } });
    assert.deepEqual(emulator.fill({ api: 'ops', path: '/api/tasks/{taskId}', from: 'catalogue' }), { requests: [{ path: '/api/tasks/5001' }] });
  });

  it('sends first what needs no value, a sample before the rest', () => {
    const order = sendingOrder([
      { api: 'core', path: '/record/{id}', from: 'catalogue' },
      { api: 'core', path: '/classification', query: { namePath: '{classification.namePath}' }, from: 'catalogue' },
      { api: 'core', path: '/records', from: 'catalogue' },
      { api: 'core', path: '/records', query: { filter: 'FileCount > 0' }, from: 'sample' },
    ]).map((r) => routeKey(r));
    assert.deepEqual(order, ['GET /api/core/records?filter=FileCount > 0', 'GET /api/core/records', 'GET /api/core/record/{id}', 'GET /api/core/classification?namePath={classification.namePath}']);
  });

  it('names each difference in words, and not a member seen only as null or a list empty on one side', () => {
    const tenant = probeOf({
      'GET /api/core/languages': { path: '/languages', status: 200, members: { items: 'array', 'items[]': 'object', 'items[].a': 'boolean', 'items[].b': 'string', 'items[].c': 'null', 'items[].d': 'number' } },
      'GET /api/core/x': { path: '/x', status: 200, members: { items: 'array', 'items[]': 'object', 'items[].only': 'string' } },
      'GET /api/core/y': { path: '/y', status: 200, members: {} },
    });
    const emulator = probeOf({
      'GET /api/core/languages': { path: '/languages', status: 200, members: { items: 'array', 'items[]': 'object', 'items[].b': 'string', 'items[].c': 'number', 'items[].d': 'string', 'items[].e': 'number' } },
      'GET /api/core/x': { path: '/x', status: 200, members: { items: 'array' } },
      'GET /api/core/y': { path: '/y', status: 404 },
    });
    const { differences, compared } = compareProbes(tenant, emulator);
    assert.deepEqual(
      differences.map((d) => d.words),
      [
        "GET /api/core/languages: the tenant's items have `a` (boolean), the emulator's do not",
        "GET /api/core/languages: the tenant's items have `d` as number, the emulator's as string",
        "GET /api/core/languages: the emulator's items have `e` (number), the tenant's do not",
        'GET /api/core/y: the tenant answers 200, the emulator 404',
      ],
    );
    assert.equal(compared, 2);
  });

  it('reads back the text it writes, and says why a file is not a probe', () => {
    const probe = probeOf({ 'GET /api/core/': { path: '/', status: 200, members: { b: 'string', a: 'number' } } });
    const text = probeText(probe);
    assert.ok(text.indexOf('"a"') < text.indexOf('"b"'), 'keys sorted');
    assert.deepEqual(parseProbe(text).probe, JSON.parse(text));
    assert.match(parseProbe('{"format":"other"}').problem ?? '', /not a probe written by `dam tenant probe`/);
    assert.match(parseProbe('nope').problem ?? '', /^not JSON/);
  });
});
