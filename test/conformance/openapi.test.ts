// The OpenAPI document the emulator serves is generated from its routes: it validates with a standard validator,
// names every route with its path parameters, and a property-based fuzz walks every operation in it with inputs
// generated from its own schemas (valid ones and broken ones), asserting no 5xx, the error object on every 4xx,
// and a server that still answers. `DAM_FUZZ_RUNS` sets the number of requests (npm run fuzz uses many more);
// `DAM_FUZZ_SEED` replays a run whose seed a failure printed.
import { strict as assert } from 'node:assert';
import SwaggerParser from '@apidevtools/swagger-parser';
import fc from 'fast-check';
import { EMULATOR_CLIENT, EMULATOR_LIMITED_CLIENT } from '../../src/core/contract';
import { USER_AGENT, describeEachBackend } from './helpers';

const RUNS = Number(process.env.DAM_FUZZ_RUNS ?? 1500);
const SEED = process.env.DAM_FUZZ_SEED ? Number(process.env.DAM_FUZZ_SEED) : Date.now() % 2 ** 31;

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  nullable?: boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  additionalProperties?: boolean | JsonSchema;
};

interface Operation {
  method: string;
  path: string;
  parameters: { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  security?: unknown[];
}

/** Values a schema describes: what a well-behaved client would send. */
function valid(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return fc.constant(null);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => valid(s, depth + 1)));
  let base: fc.Arbitrary<unknown>;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (schema.enum?.length) base = fc.constantFrom(...schema.enum);
  else if (type === 'string') base = fc.string({ maxLength: Math.min(schema.maxLength ?? 40, 40), minLength: Math.min(schema.minLength ?? 0, 40) });
  else if (type === 'integer') base = fc.integer({ min: Math.max(schema.minimum ?? -1000, -1e6), max: Math.min(schema.maximum ?? 1000, 1e6) });
  else if (type === 'number') base = fc.double({ noNaN: true, min: -1e6, max: 1e6 });
  else if (type === 'boolean') base = fc.boolean();
  else if (type === 'array') base = fc.array(valid(schema.items, depth + 1), { maxLength: 3 });
  else if (type === 'object' || schema.properties) {
    const props = schema.properties ?? {};
    const required = new Set(schema.required ?? []);
    base = fc.record(Object.fromEntries(Object.entries(props).map(([k, s]) => [k, valid(s, depth + 1)])), { requiredKeys: [...required].filter((k) => k in props) });
  } else base = fc.jsonValue({ maxDepth: 2 });
  return schema.nullable ? fc.oneof(base, fc.constant(null)) : base;
}

/** Values a schema does not describe: wrong types, missing members, oversize text, prototype keys. */
function broken(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constantFrom(null, 42, 'text', [], {}, { __proto__: { polluted: true } }, { constructor: { prototype: { x: 1 } } }, 'a'.repeat(5000)),
    schema?.properties
      ? fc.dictionary(fc.constantFrom(...Object.keys(schema.properties), '__proto__', 'constructor', 'X'), fc.jsonValue({ maxDepth: 2 }))
      : fc.constant(undefined),
  );
}

const textValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('', '0', '-1', '1', 'null', '__proto__', 'constructor', 'toString', '%', '..', '*', 'Title desc', 'Title = a', 'a'.repeat(600)),
  fc.stringMatching(/^[0-9a-f]{32}$/),
);

describeEachBackend('the OpenAPI document', {}, (env) => {
  let doc: { openapi: string; paths: Record<string, Record<string, Operation>> };
  let operations: Operation[] = [];
  const tokens: string[] = [];
  const ids: Record<string, string[]> = {};

  before(async () => {
    doc = (await (await fetch(`${env().url}/api/core/docs`)).json()) as typeof doc;
    operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([m]) => ['get', 'post', 'put', 'delete'].includes(m))
        .map(([method, op]) => ({ ...op, method: method.toUpperCase(), path, parameters: op.parameters ?? [] })),
    );
    for (const [id, secret] of [
      [EMULATOR_CLIENT.clientId, EMULATOR_CLIENT.clientSecret],
      [EMULATOR_LIMITED_CLIENT.clientId, EMULATOR_LIMITED_CLIENT.clientSecret],
    ]) {
      const res = await fetch(`${env().url}/login/connect/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'api', client_id: id, client_secret: secret }),
      });
      tokens.push(((await res.json()) as { access_token: string }).access_token);
    }
    // Real ids make the fuzz reach past "not found" into the handlers.
    const get = async (path: string) =>
      (await (await fetch(`${env().url}/api/core${path}`, { headers: { Authorization: `Bearer ${tokens[0]}`, 'API-Version': '1', Accept: 'application/json', 'User-Agent': USER_AGENT } })).json()) as {
        items: { id: string | number }[];
      };
    ids.record = (await get('/records?pageSize=20')).items.map((i) => String(i.id));
    ids.classification = (await get('/classifications?pageSize=20')).items.map((i) => String(i.id));
    ids.check = (await get('/checks')).items.map((i) => String(i.id));
  });

  it('is a valid OpenAPI 3 document', async () => {
    await SwaggerParser.validate(structuredClone(doc) as never);
    assert.equal(doc.openapi, '3.0.3');
  });

  it('declares every path parameter, the filter and sort of collections, and a response for every operation', () => {
    assert.ok(operations.length > 100, `${operations.length} operations`);
    for (const op of operations) {
      const inPath = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
      assert.deepEqual(declared.sort(), inPath.sort(), `${op.method} ${op.path}`);
      assert.ok(Object.keys((op as unknown as { responses: object }).responses).length > 0, `${op.method} ${op.path} has no response`);
    }
    const records = doc.paths['/api/core/records'].get;
    assert.ok(records.parameters.some((p) => p.name === 'filter' && p.in === 'query'));
    assert.ok(records.parameters.some((p) => p.name === 'sort' && p.in === 'query'));
    assert.ok(!('query' in (doc.paths['/api/oauth/create-token'] ?? {})), 'no invalid "query" method');
  });

  it(`answers ${RUNS} generated requests over every operation without a 5xx, with the error object on every 4xx (seed ${SEED})`, async function () {
    this.timeout(Math.max(120_000, RUNS * 400));
    const request = fc.record({
      op: fc.nat({ max: operations.length - 1 }),
      goodInputs: fc.boolean(),
      token: fc.constantFrom(0, 0, 0, 1, -1),
      pathValues: fc.array(fc.oneof(textValue, fc.constant('@real')), { minLength: 4, maxLength: 4 }),
      query: fc.dictionary(fc.string({ maxLength: 10 }), textValue, { maxKeys: 3 }),
      validBody: fc.nat(),
      bodySeed: fc.nat(),
      contentType: fc.constantFrom('application/json', 'application/json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded', undefined),
    });
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const op = operations[r.op];
        let path = op.path;
        let n = 0;
        for (const p of op.parameters.filter((x) => x.in === 'path')) {
          let value = r.pathValues[n++ % r.pathValues.length];
          if (value === '@real') {
            const pool = /record/.test(path) ? ids.record : /classification/.test(path) ? ids.classification : /check/.test(path) ? ids.check : ids.record;
            value = pool[r.bodySeed % pool.length] ?? 'x';
          }
          path = path.replace(`{${p.name}}`, encodeURIComponent(value));
        }
        const url = new URL(path, env().url);
        const queryParams = op.parameters.filter((p) => p.in === 'query');
        if (r.goodInputs) {
          for (const p of queryParams) {
            const sample = fc.sample(valid(p.schema), { seed: r.bodySeed, numRuns: 1 })[0];
            if (sample !== null && sample !== undefined) url.searchParams.set(p.name, String(sample));
          }
        } else for (const [k, v] of Object.entries(r.query)) url.searchParams.set(k, v);
        const media = op.requestBody ? Object.keys(op.requestBody.content)[0] : undefined;
        let body: string | undefined;
        if (media === 'application/json' || (media && r.contentType === 'application/json')) {
          const schema = op.requestBody!.content[media]?.schema;
          const value = fc.sample(r.goodInputs ? valid(schema) : broken(schema), { seed: r.bodySeed, numRuns: 1 })[0];
          body = value === undefined ? undefined : JSON.stringify(value);
        }
        const headers: Record<string, string> = { 'API-Version': '1', Accept: 'application/json', 'User-Agent': USER_AGENT };
        if (r.token >= 0) headers.Authorization = `Bearer ${tokens[r.token]}`;
        if (body !== undefined) headers['Content-Type'] = r.goodInputs ? 'application/json' : (r.contentType ?? 'application/json');
        const label = `${op.method} ${url.pathname}${url.search.slice(0, 100)} ${body?.slice(0, 200) ?? ''}`;
        let res: Response;
        try {
          res = await fetch(url, { method: op.method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
        } catch (err) {
          failures.push(`no answer for ${label}: ${String((err as Error).cause ?? err)}`);
          return false;
        }
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        // An event stream never ends: its status and headers are the answer.
        const streaming = res.status === 200 && /^text\/event-stream/.test(res.headers.get('content-type') ?? '');
        const text = streaming ? (await res.body?.cancel(), '') : await res.text();
        if (res.status >= 500) failures.push(`${res.status} for ${label}: ${text.slice(0, 300)}`);
        else if (res.status >= 400) {
          let parsed: Record<string, unknown> | undefined;
          try {
            parsed = JSON.parse(text) as Record<string, unknown>;
          } catch {
            parsed = undefined;
          }
          if (typeof parsed?.exceptionMessage !== 'string' || typeof parsed?.exceptionType !== 'string') failures.push(`${res.status} without the error object for ${label}: ${text.slice(0, 200)}`);
        }
        return failures.length === 0;
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    ).catch((err: Error) => {
      throw new Error(`${failures.slice(0, 5).join('\n')}\nreplay with DAM_FUZZ_SEED=${SEED}\n${err.message.slice(0, 2000)}\n${String(err.cause ?? '')}`);
    });
    console.log(`      fuzz seed ${SEED}: ${RUNS} requests, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
    // Still answering, and the well-formed requests got through often enough to reach the handlers.
    const alive = await fetch(`${env().url}/api/core/supportedVersions`, { headers: { Accept: 'application/json', 'User-Agent': USER_AGENT } });
    assert.equal(alive.status, 200);
    const succeeded = [...statuses].filter(([s]) => s < 300).reduce((a, [, c]) => a + c, 0);
    assert.ok(succeeded > RUNS / 20, `only ${succeeded} of ${RUNS} succeeded: ${JSON.stringify([...statuses])}`);
  });
});
