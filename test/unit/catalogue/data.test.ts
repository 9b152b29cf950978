// The catalogue's own rules: every line cites a source, nothing is listed twice, defaults have the member's type.
import { strict as assert } from 'node:assert';
import { catalogue, defaultOf, readRoutes, type MemberEntry } from '../../../src/core/catalogue';

const everything = () => [
  ...catalogue.routes.map((r) => ({ what: `${r.api} ${r.method} ${r.path}`, sources: r.sources })),
  ...Object.values(catalogue.resources).flatMap((res) => [
    ...res.members.map((m) => ({ what: `${res.name}.${m.name}`, sources: m.sources })),
    ...res.relations.map((r) => ({ what: `${res.name} → ${r.rel}`, sources: r.sources })),
    ...(res.searchable ?? []).map((s) => ({ what: `${res.name} search ${s.property}`, sources: s.sources })),
  ]),
  ...catalogue.analytics.map((a) => ({ what: a.name, sources: a.sources })),
];

describe('the service catalogue', () => {
  it('cites at least one source on every line, each with a reference', () => {
    for (const line of everything()) {
      assert.ok(line.sources.length > 0, `${line.what} has no source`);
      for (const s of line.sources) assert.ok(s.ref.trim(), `${line.what}: a ${s.kind} source without a reference`);
    }
  });

  it('lists each route, member, relation and analytics member once', () => {
    const dupes = (names: string[]) => names.filter((n, i) => names.indexOf(n) !== i);
    assert.deepEqual(dupes(catalogue.routes.map((r) => `${r.api} ${r.method} ${r.path.toLowerCase()}`)), []);
    for (const res of Object.values(catalogue.resources)) {
      assert.deepEqual(dupes(res.members.map((m) => m.name.toLowerCase())), [], res.name);
      assert.deepEqual(dupes(res.relations.map((r) => r.rel)), [], res.name);
    }
    assert.deepEqual(dupes(catalogue.analytics.map((a) => a.name)), []);
  });

  it('names each resource by its key, and routes only catalogued resources', () => {
    for (const [key, res] of Object.entries(catalogue.resources)) assert.equal(res.name, key);
    for (const r of catalogue.routes) if (r.resource) assert.ok(catalogue.resources[r.resource], `${r.method} ${r.path}: unknown resource ${r.resource}`);
  });

  it('gives every member a default of its type, null only for a nullable text, date, object or list', () => {
    const check: Record<string, (v: unknown) => boolean> = {
      integer: Number.isInteger,
      number: (v) => typeof v === 'number',
      boolean: (v) => typeof v === 'boolean',
      array: Array.isArray,
      object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
    };
    for (const res of Object.values(catalogue.resources)) {
      for (const m of res.members as MemberEntry[]) {
        const v = defaultOf(m, '2026-01-01T00:00:00.000Z');
        if (v === null) assert.ok(m.nullable && !['integer', 'number', 'boolean'].includes(m.type), `${res.name}.${m.name} defaults to null`);
        else if (check[m.type]) assert.ok(check[m.type](v), `${res.name}.${m.name} defaults to ${JSON.stringify(v)}`);
        else assert.equal(typeof v, 'string', `${res.name}.${m.name}`);
      }
    }
  });

  it('offers the probe only reads', () => {
    assert.ok(readRoutes().length > 0);
    assert.ok(readRoutes().every((r) => r.method === 'GET' || (r.method === 'POST' && r.readOnly)));
    // Only searches and lookups are marked read-only: never a route that creates, changes or acts.
    const posts = readRoutes().filter((r) => r.method === 'POST').map((r) => r.path);
    assert.ok(posts.length > 0);
    for (const path of posts) assert.match(path, /\/search(\/|$)|\/query$/, path);
  });
});
