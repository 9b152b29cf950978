// The probe's pure parts: the shape of an answer (types, never values; ids as keys hidden), route parameters filled
// from earlier answers, and two probes compared in words (samples: a null or an empty list is no difference).
import { strict as assert } from 'node:assert';
import { IdBook, PROBE_FORMAT, compareProbes, parseProbe, probeText, shapeOf, toMembers, type Probe, type ProbeRoute } from '../../../src/core/probe';

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

  it('fills a route parameter from the first item of a collection answered before', () => {
    const ids = new IdBook();
    const records: ProbeRoute = { api: 'core', path: '/records', resource: 'record', collection: true, from: 'catalogue' };
    ids.note(records, { items: [{ id: 'abc' }, { id: 'def' }] });
    assert.deepEqual(ids.fill({ api: 'core', path: '/record/{id}/fields', from: 'catalogue' }), { path: '/record/abc/fields' });
    assert.deepEqual(ids.fill({ api: 'core', path: '/record/{recordId}', from: 'catalogue' }), { path: '/record/abc' });
    assert.deepEqual(ids.fill({ api: 'core', path: '/classification/{id}', from: 'catalogue' }), { missing: 'id' });
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
