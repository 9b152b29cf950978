// The inspector's request rules as a table: a request, and the codes (with severity) it must yield.
import { strict as assert } from 'node:assert';
import { requestFindings, type RequestFacts } from '../../../src/emulator/inspector/rules';

const GOOD = { 'user-agent': 'app/1', accept: 'application/hal+json', authorization: 'Bearer t', 'api-version': '1' };
const BEFORE = new Date('2026-03-01T00:00:00Z');
const AFTER = new Date('2026-07-01T00:00:00Z');

function facts(over: Partial<RequestFacts> & { url?: string }): RequestFacts {
  const [path, query = ''] = (over.url ?? over.path ?? '/api/core/records').split('?');
  return {
    method: 'GET',
    path,
    query: new URLSearchParams(query),
    headers: GOOD,
    policy: 'api',
    body: undefined,
    hasBody: false,
    bodyBytes: null,
    now: AFTER,
    ...over,
  };
}

const codes = (f: RequestFacts) => requestFindings(f).map((x) => `${x.code}:${x.severity}`);

describe('inspector request rules', () => {
  const cases: Array<[string, RequestFacts, string[]]> = [
    ['a well-formed content-API read', facts({}), []],
    ['no User-Agent', facts({ headers: { ...GOOD, 'user-agent': undefined } }), ['DE1001:refuse']],
    ['no Accept', facts({ headers: { ...GOOD, accept: undefined } }), ['DE1002:refuse']],
    ['Accept the service cannot answer', facts({ headers: { ...GOOD, accept: 'text/html' } }), ['DE1005:refuse']],
    ['no API-Version on the content API', facts({ headers: { ...GOOD, 'api-version': undefined } }), ['DE1003:refuse']],
    ['no API-Version on work management (a tenant does not ask)', facts({ path: '/api/tasks/5001', headers: { ...GOOD, 'api-version': undefined } }), []],
    ['API-Version 2', facts({ headers: { ...GOOD, 'api-version': '2' } }), ['DE1004:refuse']],
    ['no Authorization', facts({ headers: { ...GOOD, authorization: undefined } }), ['DE1006:refuse']],
    ['Basic instead of Bearer', facts({ headers: { ...GOOD, authorization: 'Basic abc' } }), ['DE1007:refuse']],
    ['discovery needs no token or version', facts({ path: '/api/core/', policy: 'discovery', headers: { 'user-agent': 'a', accept: '*/*' } }), []],
    ['download needs only User-Agent', facts({ path: '/download', policy: 'download', headers: {} }), ['DE1001:refuse']],
    ['docs need nothing', facts({ path: '/api/core/docs', policy: 'docs', headers: {} }), []],
    ['an unknown Location-Alias', facts({ path: '/download', policy: 'download', headers: { 'user-agent': 'a', 'location-alias': 'mars1' } }), ['DE1011:frown']],
    ['a known Location-Alias', facts({ path: '/download', policy: 'download', headers: { 'user-agent': 'a', 'location-alias': 'EU2' } }), []],
    ['select-resolve-default-values maybe', facts({ headers: { ...GOOD, 'select-resolve-default-values': 'maybe' } }), ['DE1012:frown']],
    ['pageSize over the records cap', facts({ url: '/api/core/records?pageSize=500' }), ['DE2001:frown']],
    ['pageSize within the general cap', facts({ url: '/api/core/classifications?pageSize=500' }), []],
    ['pageSize over the general cap, as a header', facts({ path: '/api/core/classifications', headers: { ...GOOD, pagesize: '5000' } }), ['DE2001:frown']],
    ['take over the cap on a search', facts({ method: 'POST', url: '/api/core/search/records?take=101', body: {} }), ['DE2001:frown']],
    ['pageSize not a number', facts({ url: '/api/core/records?pageSize=ten' }), ['DE2002:refuse']],
    ['a named placeholder in filter', facts({ url: '/api/core/records?filter=Title%20%3D%20%40t' }), ['DE2003:refuse']],
    ['an @ inside quotes is text', facts({ url: `/api/core/records?filter=${encodeURIComponent('Title = "a@b"')}` }), []],
    ['a ? wildcard is no placeholder', facts({ url: `/api/core/records?filter=${encodeURIComponent('Name = a?c')}` }), []],
    ['a lone ? is', facts({ url: `/api/core/records?filter=${encodeURIComponent('Name = ?')}` }), ['DE2003:refuse']],
    ['record status Published', facts({ method: 'POST', path: '/api/core/record', body: { status: 'Published' }, hasBody: true, headers: { ...GOOD, 'content-type': 'application/json' } }), ['DE2010:refuse']],
    ['record status draft (any case)', facts({ method: 'PUT', path: '/api/core/record/ab', body: { Status: 'draft' }, hasBody: true, headers: { ...GOOD, 'content-type': 'application/json' } }), []],
    [
      'check result outcome Passed and no description',
      facts({ method: 'POST', path: '/api/core/fileversion/v1/CheckResults', body: { checkId: 'c', outcome: 'Passed' }, hasBody: true, headers: { ...GOOD, 'content-type': 'application/json' } }),
      ['DE2011:refuse', 'DE2013:refuse'],
    ],
    [
      'a finding written in Markdown',
      facts({ method: 'POST', path: '/api/core/fileversion/v1/CheckResult/r1/Findings', body: { occurrence: 1, finding: '**bold** claim', outcome: 'fail' }, hasBody: true, headers: { ...GOOD, 'content-type': 'application/json' } }),
      ['DE2012:frown'],
    ],
    ['a check with another actionTypeId', facts({ method: 'POST', path: '/api/core/checks', body: { name: 'n', actionTypeId: 'abc', checkCategoryId: 'x' }, hasBody: true, headers: { ...GOOD, 'content-type': 'application/json' } }), ['DE2014:refuse']],
    [
      'a maintenance job with an unknown action and status',
      facts({
        method: 'POST',
        path: '/api/core/maintenancejobs',
        body: { type: 'record', targets: [], actions: [{ action: 'Explode' }, { action: 'changerecordstatus', parameters: { status: 'gone' } }] },
        hasBody: true,
        headers: { ...GOOD, 'content-type': 'application/json' },
      }),
      ['DE2015:refuse', 'DE2015:refuse'],
    ],
    [
      'a simple task breaking a rule and sending ignored fields',
      facts({ method: 'POST', path: '/api/simple-tasks', body: { ProjectId: 101, assignees: [{ userID: 1 }], taskRoles: [{ userId: 1 }], canSkip: 0, workGroupActionID: 1, autoAccept: 0 }, hasBody: true, headers: { 'user-agent': 'a', accept: 'application/json', authorization: 'Bearer t', 'content-type': 'application/json' } }),
      ['DE2020:refuse', 'DE2021:frown', 'DE2021:frown'],
    ],
    [
      'autoClose 1 with fields it makes the service ignore',
      facts({ method: 'POST', path: '/api/simple-tasks', body: { ProjectId: 101, assignees: [{ userID: 1 }], autoClose: 1, autoAccept: 0 }, hasBody: true, headers: { 'user-agent': 'a', accept: 'application/json', authorization: 'Bearer t', 'content-type': 'application/json' } }),
      ['DE2021:frown'],
    ],
    ['an analytics limit above 10000', facts({ url: `/analytics/?query=${encodeURIComponent(JSON.stringify({ measures: ['Views.count'], limit: 20000 }))}`, headers: { 'user-agent': 'a', accept: 'application/json', authorization: 'Bearer t' } }), ['DE2030:refuse']],
    ['the old singular measure', facts({ url: `/analytics/?query=${encodeURIComponent(JSON.stringify({ measure: ['Views.count'] }))}`, headers: { 'user-agent': 'a', accept: 'application/json', authorization: 'Bearer t' } }), ['DE2031:frown']],
    ['analytics query not JSON', facts({ url: '/analytics/?query=%7Bnope', headers: { 'user-agent': 'a', accept: 'application/json', authorization: 'Bearer t' } }), ['DE2030:refuse']],
    ['a body without Content-Type', facts({ method: 'POST', path: '/api/core/search/records', hasBody: true, bodyBytes: 10 }), ['DE1008:refuse']],
    ['the token endpoint sent JSON', facts({ method: 'POST', path: '/login/connect/token', policy: 'login', hasBody: true, headers: { 'content-type': 'application/json' } }), ['DE1009:refuse']],
    ['strings query sent as text/plain', facts({ method: 'POST', path: '/api/resources/query', hasBody: true, headers: { ...GOOD, 'content-type': 'text/plain' } }), ['DE1009:refuse']],
    ['a raw binary upload', facts({ method: 'POST', path: '/uploads', hasBody: true, bodyBytes: 5, headers: { ...GOOD, 'content-type': 'application/octet-stream' } }), ['DE1009:refuse']],
    ['a 30 MB single upload', facts({ method: 'POST', path: '/uploads', hasBody: true, bodyBytes: 30 * 1024 * 1024, headers: { ...GOOD, 'content-type': 'multipart/form-data; boundary=x' } }), ['DE2041:refuse']],
    ['a segmented upload named a:b', facts({ method: 'POST', path: '/uploads/segments', hasBody: true, body: { filename: 'a:b.png' }, headers: { ...GOOD, 'content-type': 'application/json' } }), ['DE2040:refuse']],
    ['a client secret in the URL', facts({ method: 'POST', url: '/login/connect/token?client_secret=x', policy: 'login', hasBody: false, headers: {} }), ['DE1010:frown']],
    ['a deprecated OAuth route after 2026-06-01', facts({ method: 'POST', path: '/api/oauth/create-token', policy: 'login', headers: {} }), ['DE3001:refuse']],
    ['a deprecated OAuth route before 2026-06-01', facts({ method: 'POST', path: '/api/oauth/create-token', policy: 'login', headers: {}, now: BEFORE }), ['DE3001:frown']],
    [
      'authorization code without PKCE',
      facts({ method: 'POST', path: '/login/connect/token', policy: 'login', hasBody: true, body: { grant_type: 'authorization_code', code: 'c' }, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      ['DE3003:refuse'],
    ],
    [
      'a page hook sending auth-code',
      facts({ method: 'PUT', path: '/api/core/setting/.pageHooks', hasBody: true, body: { value: [{ url: 'http://x', include: 'auth-code' }] }, headers: { ...GOOD, 'content-type': 'application/json' } }),
      ['DE3002:refuse'],
    ],
  ];
  for (const [title, input, expected] of cases) {
    it(title, () => assert.deepEqual(codes(input), expected));
  }

  it('says what to send instead', () => {
    const [f] = requestFindings(facts({ headers: { ...GOOD, 'api-version': undefined } }));
    assert.equal(f.advice, 'Send API-Version: 1.');
    assert.match(f.message, /API-Version/);
  });
});
