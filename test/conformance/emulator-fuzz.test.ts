// 10,000 random and malformed requests (bodies, headers, expressions): never a 5xx, never a hang, every 4xx is
// the error object, and the server still answers normally afterwards.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server';

const TOTAL = 10_000;
const CONCURRENCY = 8;

const PROPERTIES = [
  'Title', 'title', 'CreatedOn', 'ModifiedOn', 'ContentType', 'ContentStatus', 'Id', 'Classification', 'DirectClassification',
  'CreatedBy', 'FileCount', 'Kind', 'NamePath', 'Name', 'Identifier', 'parent.id', 'Rank', 'Unknown', "FieldName('Description').Value",
  "FieldName('UsageRights').Option.Id", "FieldName('PublicationDate').Value", "FieldId('f1e1d0000000400080000000000000a4').Value",
  "FieldLabel('Photographer, credit').Value", "FieldName('nope').Value", "FieldName('ProductLine').Classification.Id", "FieldName(",
];
const OPERATORS = ['=', '<>', '>', '>=', '<', '<=', 'in', 'contains', 'CONTAINS', '!=', '==', ''];
const VALUES = [
  'x', '"quoted value"', "'single'", '*', 'sun*', 's?n', '2025-01-01', '1/2/2024', '2025-13-45', '2025-01-01T10:00:00Z', '-5', '1e309', '42',
  "'", '"', '(', ')', '@p', '@missing', '?', '(a, b)', '("2025-01-01", today)', '\\', 'NULL', "'; DROP TABLE records; --", '%_%',
  'f1e1d0000000400080000000000000a1', '/Products/Kitchen', 'Kitchen', 'admin', '\u0000', '😀', 'a'.repeat(300),
];
const JOINS = [' AND ', ' OR ', ' ', ' + ', ' NOT ', ' -', ' and ', ')', '(', ' OR NOT '];

const expression = fc
  .array(fc.tuple(fc.constantFrom(...PROPERTIES), fc.constantFrom(...OPERATORS), fc.constantFrom(...VALUES), fc.constantFrom(...JOINS)), { minLength: 0, maxLength: 5 })
  .map((parts) => parts.map(([p, o, v, j]) => `${p} ${o} ${v}${j}`).join('').trim());
const sort = fc.oneof(
  fc.constantFrom('', 'Title', 'Title desc', 'Rank desc', 'CreatedOn asc, Id', 'Nope', "FieldName('PublicationDate').Value desc", 'Title,,', 'desc', 'Status'),
  fc.string({ maxLength: 30 }),
);
const anyText = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('', ' ', '%', '%zz', '%2C', '..', '-1', '99999999999', 'null', 'true'));
const idText = fc.oneof(fc.constant('f1e1d0000000400080000000000000a1'), fc.stringMatching(/^[0-9a-f]{32}$/), anyText, fc.constantFrom('1', '2', '10', '0', '-1'));

/** Routes as [method, path]; `{r}` is a record id, `{c}` a classification id, `{x}` anything. */
const ROUTES: [string, string][] = [
  ['GET', '/api/core/records'], ['GET', '/api/core/records'], ['GET', '/api/core/record/{r}'], ['GET', '/api/core/record/{r}'], ['POST', '/api/core/record'],
  ['PUT', '/api/core/record/{r}'], ['PUT', '/api/core/record/{r}'], ['DELETE', '/api/core/record/{x}'], ['GET', '/api/core/record/{r}/fields'],
  ['GET', '/api/core/record/{r}/field/{x}'], ['GET', '/api/core/record/{r}/masterfile'], ['GET', '/api/core/record/{r}/classifications'],
  ['GET', '/api/core/classifications'], ['GET', '/api/core/classification/{c}'], ['GET', '/api/core/classification/{c}/children'],
  ['GET', '/api/core/classification/{c}/ancestors'], ['GET', '/api/core/classification/{c}/parent'], ['POST', '/api/core/classification'],
  ['PUT', '/api/core/classification/{c}'], ['POST', '/api/core/search/records'], ['POST', '/api/core/search/records'], ['POST', '/api/core/search/records'],
  ['POST', '/api/core/search/classifications'], ['GET', '/api/core/fielddefinitions'], ['GET', '/api/core/fielddefinition/{x}'], ['POST', '/api/core/fielddefinition'],
  ['PUT', '/api/core/fielddefinition/{x}'], ['GET', '/api/core/fieldgroups'], ['POST', '/api/core/fieldgroup'], ['GET', '/api/core/users'], ['GET', '/api/core/user/{x}'],
  ['PUT', '/api/core/user/{x}'], ['GET', '/api/core/usergroups'], ['PUT', '/api/core/usergroup/{x}'], ['POST', '/api/core/usergroup'], ['GET', '/api/core/languages'],
  ['GET', '/api/core/settings'], ['GET', '/api/core/setting/.renditionPreset'], ['PUT', '/api/core/setting/{x}'], ['GET', '/api/core/settingdefinitions'],
  ['GET', '/api/core/contenttypes'], ['GET', '/'], ['GET', '/api/core/supportedVersions'], ['GET', '/docs'], ['POST', '/login/connect/token'],
  ['GET', '/login/connect/authorize'], ['POST', '/login/connect/authorize'], ['GET', '/api/oauth/create-token'], ['GET', '/api/core/{x}'], ['GET', '/{x}/..%2F..%2Fetc'],
];

const jsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.record(
    {
      title: fc.oneof(fc.string(), fc.constant(null), fc.integer()),
      status: fc.oneof(fc.constantFrom('draft', 'Released', 'ARCHIVED', 'bogus'), fc.constant(null)),
      contentType: fc.oneof(fc.constantFrom('Image', 'video', 'Nope'), fc.constant(null)),
      tag: fc.oneof(fc.string(), fc.constant(null)),
      classifications: fc.record({ addOrUpdate: fc.array(fc.record({ id: idText })), remove: fc.array(idText) }, { requiredKeys: [] }),
      fields: fc.record(
        {
          addOrUpdate: fc.array(
            fc.record(
              {
                id: idText,
                fieldName: fc.constantFrom('Description', 'UsageRights', 'PublicationDate', 'ProductLine', 'Nope'),
                localizedValues: fc.array(fc.record({ languageId: fc.oneof(idText, fc.constant(null)), value: fc.jsonValue({ maxDepth: 2 }), values: fc.array(fc.jsonValue({ maxDepth: 1 })) }, { requiredKeys: [] })),
              },
              { requiredKeys: [] },
            ),
          ),
          remove: fc.array(idText),
        },
        { requiredKeys: [] },
      ),
      files: fc.record({ master: fc.string() }, { requiredKeys: [] }),
      searchExpression: fc.record(
        {
          expression: expression,
          parameters: fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.jsonValue({ maxDepth: 1 }))),
          namedParameters: fc.dictionary(fc.constantFrom('p', '@p', 'q'), fc.oneof(fc.string(), fc.double(), fc.boolean())),
          supportWildcards: fc.oneof(fc.boolean(), fc.constantFrom('true', 'False', 'maybe')),
          defaultLogicalOperator: fc.constantFrom('AND', 'or', 'XOR'),
        },
        { requiredKeys: [] },
      ),
      cursor: fc.oneof(fc.string(), fc.constant('eyJ2IjoxfQ.abc'), fc.constant(null)),
      sort,
      name: fc.oneof(fc.string(), fc.constant(null)),
      parentId: fc.oneof(idText, fc.constant(null)),
      value: fc.jsonValue({ maxDepth: 3 }),
    },
    { requiredKeys: [] },
  ),
);

const rawBody = fc.oneof(
  { weight: 6, arbitrary: jsonBody.map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 1, arbitrary: fc.constantFrom('{', '{"title":', '[]', 'null', '"str"', '{"a":1}}', '\u0000', 'grant_type=client_credentials&client_id=dam-emulator', '{"title":"x"'.repeat(50)) },
);

const request = fc.record({
  route: fc.nat(),
  /** Mostly the route's own method, sometimes another. */
  method: fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD') }),
  id: idText,
  realId: fc.nat(),
  useRealId: fc.boolean(),
  auth: fc.constantFrom('good', 'good', 'good', 'good', 'good', 'good', 'none', 'garbage', 'basic'),
  apiVersion: fc.oneof({ weight: 8, arbitrary: fc.constant('1') }, { weight: 2, arbitrary: fc.constantFrom(undefined, '2', '', ' 1 ', 'x') }),
  accept: fc.oneof({ weight: 8, arbitrary: fc.constantFrom('application/hal+json', 'application/json', '*/*') }, { weight: 2, arbitrary: fc.constantFrom(undefined, 'text/html', 'application/xml', '') }),
  contentType: fc.oneof({ weight: 8, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8') }, { weight: 2, arbitrary: fc.constantFrom(undefined, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/hal+json') }),
  query: fc.oneof(
    { weight: 3, arbitrary: fc.constant({}) },
    { weight: 2, arbitrary: fc.record({ pageSize: fc.constantFrom('5', '200', '0'), page: fc.constantFrom('1', '2', '9999') }, { requiredKeys: [] }) },
    { weight: 2, arbitrary: fc.record({ filter: expression, sort, page: anyText, pageSize: anyText, skip: anyText, take: anyText, cursor: anyText }, { requiredKeys: [] }) },
  ),
  headers: fc.oneof({ weight: 1, arbitrary: fc.constant({} as Record<string, string>) }, { weight: 1, arbitrary: fc.record(
    {
      filter: expression,
      sort,
      'select-record': fc.constantFrom('fields', 'fields,classifications,createdby', 'masterfilelatestversion', 'nonsense', '', ',,,'),
      'select-field': fc.constantFrom('definition', 'x'),
      'select-classification': fc.constantFrom('children,parent,ancestors', 'children'),
      'select-record-fields': fc.constantFrom('Description', 'Photographer%2C%20credit', '%zz', 'f1e1d0000000400080000000000000a1', ''),
      'select-record-fieldgroups': fc.constantFrom('Rights', 'nope'),
      'select-resolve-default-values': fc.constantFrom('true', 'false', ' ', 'maybe'),
      languages: fc.constantFrom('*', 'c2bd4f9bbb954bcb80c31e924c9c26dc', 'xx', ''),
    },
    { requiredKeys: [] },
  ) }),
  body: fc.option(rawBody, { nil: undefined }),
});

describe('emulator fuzz', function () {
  this.timeout(900_000);
  let emulator: RunningEmulator;
  let token: string;
  let recordIds: string[] = [];
  let classificationIds: string[] = [];

  before(async () => {
    emulator = await startEmulator({ port: 0, data: ':memory:', seed: 'demo' });
    const res = await fetch(`${emulator.url}/login/connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=dam-emulator&client_secret=dam-emulator-secret&scope=api',
    });
    token = ((await res.json()) as { access_token: string }).access_token;
    const headers = { authorization: `Bearer ${token}`, 'api-version': '1', accept: 'application/json', 'user-agent': 'dam-fuzz' };
    const records = (await (await fetch(`${emulator.url}/api/core/records?pageSize=20`, { headers })).json()) as { items: { id: string }[] };
    recordIds = records.items.map((i) => i.id);
    const classifications = (await (await fetch(`${emulator.url}/api/core/classifications?pageSize=20`, { headers })).json()) as { items: { id: string }[] };
    classificationIds = classifications.items.map((i) => i.id);
  });
  after(async () => emulator?.close());

  it(`answers ${TOTAL} random and malformed requests without a 5xx or a hang`, async () => {
    const samples = fc.sample(request, { numRuns: TOTAL, seed: 20261122 });
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < samples.length && failures.length < 5) {
        const r = samples[next++];
        const [routeMethod, template] = ROUTES[r.route % ROUTES.length];
        const method = r.method ?? routeMethod;
        const pick = (ids: string[]) => encodeURIComponent(r.useRealId ? ids[r.realId % ids.length] : r.id);
        const path = template.replace('{r}', pick(recordIds)).replace('{c}', pick(classificationIds)).replace('{x}', encodeURIComponent(r.id));
        // Concatenated, not resolved: a path starting with `//` must stay a path.
        const url = new URL(emulator.url + path);
        for (const [k, v] of Object.entries(r.query)) url.searchParams.set(k, v);
        const headers: Record<string, string> = { 'user-agent': 'dam-fuzz' };
        for (const [k, v] of Object.entries(r.headers)) headers[k] = encodeURIComponent(v).length === v.length ? v : encodeURIComponent(v);
        if (r.auth === 'good') headers.authorization = `Bearer ${token}`;
        if (r.auth === 'garbage') headers.authorization = 'Bearer nonsense';
        if (r.auth === 'basic') headers.authorization = 'Basic ZGFtLWVtdWxhdG9yOmRhbS1lbXVsYXRvci1zZWNyZXQ=';
        if (r.apiVersion !== undefined) headers['api-version'] = r.apiVersion;
        if (r.accept !== undefined) headers.accept = r.accept;
        const withBody = r.body !== undefined && method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
        if (withBody && r.contentType !== undefined) headers['content-type'] = r.contentType;
        const label = `${method} ${url.pathname}${url.search.slice(0, 200)} body=${String(r.body).slice(0, 200)} headers=${JSON.stringify(headers).slice(0, 300)}`;
        try {
          const res = await fetch(url, { method, headers, body: withBody ? r.body : undefined, signal: AbortSignal.timeout(20_000) });
          const text = await res.text();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const hasBody = method !== 'HEAD';
          if (res.status >= 500) failures.push(`${res.status} for ${label}: ${text.slice(0, 300)}`);
          else if (hasBody && res.status >= 400 && !/exceptionType/.test(text)) failures.push(`${res.status} without the error object for ${label}: ${text.slice(0, 200)}`);
        } catch (err) {
          failures.push(`${(err as Error).name} (${(err as Error).message}) for ${label}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    // The requests must reach the handlers, not only bounce off routing and auth.
    assert.deepEqual(failures, []);
    const ok = [...statuses].filter(([status]) => status < 300).reduce((sum, [, n]) => sum + n, 0);
    assert.ok(ok >= 500, `only ${ok} requests succeeded: ${JSON.stringify([...statuses])}`);

    const res = await fetch(`${emulator.url}/api/core/records?pageSize=5`, {
      headers: { authorization: `Bearer ${token}`, 'api-version': '1', accept: 'application/hal+json', 'user-agent': 'dam-fuzz' },
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { items: unknown[]; totalCount: number };
    assert.equal(body.items.length, 5);
    assert.ok(body.totalCount >= 500);
  });
});
