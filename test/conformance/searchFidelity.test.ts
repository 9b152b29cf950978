// What a tenant's search does that public clients rely on (real-service-notes, second round): words split at `-`, `_`
// and `.`, an empty searchExpression refused, subExpressions, facets, logRequest as a string, paging as headers or
// skip/take, .NET and bare ISO dates, criteria side by side, and an unknown sort on a small list refused. Raw HTTP.
import { strict as assert } from 'node:assert';
import { describeEachBackend } from './helpers';
import { clientCredentialsToken, expectStatus, onePart, send, type Answer } from '../interop/replay';

describeEachBackend('search as a tenant answers it', { seed: 'empty' }, (env) => {
  const tag = `sf${Date.now().toString(36)}`;
  let token = '';
  const dam = () => ({ Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/json', 'Content-Type': 'application/json' });
  const search = (body: unknown, headers: Record<string, string> = {}, query = '') =>
    send(env().url, 'POST', `/api/core/search/records${query}`, { ...dam(), ...headers }, JSON.stringify(body));
  const total = async (expression: string, extra: Record<string, unknown> = {}) =>
    Number(expectStatus(await search({ searchExpression: { expression, ...extra } }), 200).json.totalCount);
  const ids = (a: Answer) => new Set((a.json.items ?? []).map((i) => String(i.id)));
  const made = new Map<string, string>();
  let fieldId = '';

  before(async () => {
    token = await clientCredentialsToken(env().url);
    const field = await send(env().url, 'POST', '/api/core/fielddefinitions', dam(), JSON.stringify({ name: 'Mood', dataType: 'SingleLineText' }));
    fieldId = String(expectStatus(field, 201).json.id);
    const records: [string, string, string | undefined, string][] = [
      [`${tag} alpha-beta_gamma.delta`, 'Document', undefined, 'calm'],
      [`${tag} second`, 'Document', 'vivid-forest-photo-38.jpg', 'Calm'],
      [`${tag} third`, 'Image', 'quiet_forest.sunrise.png', 'bright'],
      [`${tag} fourth`, 'Video', 'forestry-clip.mp4', 'bright'],
    ];
    for (const [title, contentType, fileName, mood] of records) {
      const body: Record<string, unknown> = { title, contentType, fields: { addOrUpdate: [{ id: fieldId, localizedValues: [{ languageId: '00000000000000000000000000000000', value: mood }] }] } };
      if (fileName) {
        const upload = await send(env().url, 'POST', '/uploads', { Authorization: `Bearer ${token}` }, onePart('file1', fileName, new TextEncoder().encode(`bytes of ${fileName}`)));
        body.files = { master: upload.json.token, addOrUpdate: [{ versions: { addOrUpdate: [{ id: upload.json.token, filename: fileName }] } }] };
      }
      const created = expectStatus(await send(env().url, 'POST', '/api/core/records', dam(), JSON.stringify(body)), 201);
      made.set(title, String(created.json.id));
    }
  });

  describe('words', () => {
    it('finds a word of a file name split at - _ . (LatestVersionOfMasterfile.FileName and FileName)', async () => {
      const hits = expectStatus(await search({ searchExpression: { expression: "LatestVersionOfMasterfile.FileName contains 'forest'" } }), 200);
      assert.deepEqual(ids(hits), new Set([made.get(`${tag} second`), made.get(`${tag} third`)]));
      assert.equal(await total("FileName contains 'forest' AND ContentType = Image"), 1);
      assert.equal(await total("FileName contains 'sunrise'"), 1);
      assert.equal(await total("FileName contains 'forest-photo'"), 1);
      // A part of a word is not a word (forestry is not forest), unless it is asked as a prefix.
      assert.equal(await total("LatestVersionOfMasterfile.FileName contains 'fores'"), 0);
      assert.equal(await total("FileName contains 'forest*'"), 3);
    });

    it('splits titles the same way, for Title contains and for a bare full-text term', async () => {
      const id = made.get(`${tag} alpha-beta_gamma.delta`);
      for (const expression of [`Title contains 'beta' AND Title = '${tag}*'`, `gamma AND Title = '${tag}*'`, `Title contains 'alpha-beta' AND Title = '${tag}*'`]) {
        const hits = expectStatus(await search({ searchExpression: { expression } }), 200);
        assert.deepEqual([...ids(hits)], [id], expression);
      }
    });
  });

  describe('the search expression object', () => {
    it('refuses a searchExpression with neither expression nor subExpressions, in the service\'s words', async () => {
      for (const se of [{}, { expression: null }, { expression: '', subExpressions: [] }]) {
        const answer = expectStatus(await search({ searchExpression: se }), 400);
        assert.equal(answer.json.exceptionMessage, 'A searchExpression must contain either an expression or subExpressions.');
        assert.match(String(answer.json.exceptionType), /InvalidSearchExpressionException$/);
      }
    });

    it('joins subExpressions to the expression by the default operator, each with its own parameters', async () => {
      const [a, b] = [`${tag} second`, `${tag} third`];
      const or = expectStatus(await search({ searchExpression: { expression: `Title = '${a}'`, subExpressions: [{ expression: 'Title = @t', namedParameters: { t: b } }] } }), 200);
      assert.deepEqual(ids(or), new Set([made.get(a), made.get(b)]));
      const and = await search({ searchExpression: { expression: `Title = '${tag}*'`, defaultLogicalOperator: 'AND', subExpressions: [`Title contains second`] } });
      assert.deepEqual(ids(expectStatus(and, 200)), new Set([made.get(a)]));
      const only = await search({ searchExpression: { subExpressions: [{ expression: `Title = '${b}'` }] } });
      assert.deepEqual(ids(expectStatus(only, 200)), new Set([made.get(b)]));
      const bad = expectStatus(await search({ searchExpression: { expression: '*', subExpressions: [{ expression: 'Title = (' }] } }), 400);
      assert.match(String(bad.json.exceptionMessage), /search expression/);
    });

    it('answers facets: contentType values that add up to the total, a cut facet named in truncatedFacets, a textField', async () => {
      const answer = expectStatus(
        await search({
          searchExpression: { expression: `Title = '${tag}*'` },
          facets: [
            { name: 'types', type: 'contentType', maximumFacetValues: 10 },
            { name: 'first', type: 'ContentType', maximumFacetValues: 1 },
            { name: 'by', type: 'createdBy' },
          ],
        }),
        200,
      );
      const facets = answer.json.facets as { name: string; type: string; values: { value: string; count: number }[] }[];
      const types = facets.find((f) => f.name === 'types')!;
      assert.equal(types.type, 'contentType');
      assert.equal(types.values.reduce((n, v) => n + v.count, 0), answer.json.totalCount);
      assert.deepEqual(types.values, [
        { value: 'document', count: 2 },
        { value: 'image', count: 1 },
        { value: 'video', count: 1 },
      ]);
      assert.deepEqual(answer.json.truncatedFacets, ['first']);
      assert.deepEqual(facets.find((f) => f.name === 'first')!.values, [{ value: 'document', count: 2 }]);
      assert.deepEqual(facets.find((f) => f.name === 'by')!.values, [{ value: '1', count: 4 }]);
      const mood = async (caseSensitive: boolean) => {
        const answer = await search({ searchExpression: { expression: `Title = '${tag}*'` }, facets: [{ name: 'mood', type: 'textField', fieldId, caseSensitive }] });
        return (expectStatus(answer, 200).json.facets as { values: unknown[] }[])[0].values;
      };
      assert.deepEqual(await mood(false), [{ value: 'bright', count: 2 }, { value: 'calm', count: 2 }]);
      assert.deepEqual(await mood(true), [{ value: 'bright', count: 2 }, { value: 'Calm', count: 1 }, { value: 'calm', count: 1 }]);
      expectStatus(await search({ searchExpression: { expression: '*' }, facets: [{ name: 'f', type: 'textField' }] }), 400);
      expectStatus(await search({ searchExpression: { expression: '*' }, facets: [{ name: 'f', type: 'colour' }] }), 400);
      // Without facets asked, the answer has none.
      assert.equal((await search({ searchExpression: { expression: '*' } })).json.facets, undefined);
    });

    it('reads logRequest as a boolean or the string "true"', async () => {
      expectStatus(await search({ searchExpression: { expression: '*' }, logRequest: 'true' }), 200);
      expectStatus(await search({ searchExpression: { expression: '*' }, logRequest: true }), 200);
    });

    it('pages by skip and take beside page and pageSize, and by page and pageSize as headers on the POST', async () => {
      const bySkip = expectStatus(await search({ searchExpression: { expression: '*' } }, {}, '?skip=2&take=2'), 200);
      const byPage = expectStatus(await search({ searchExpression: { expression: '*' } }, {}, '?page=2&pageSize=2'), 200);
      assert.equal(bySkip.json.items?.length, 2);
      assert.deepEqual(ids(bySkip), ids(byPage));
      const byHeaders = expectStatus(await search({ searchExpression: { expression: '*' } }, { page: '2', pageSize: '2' }), 200);
      assert.deepEqual(ids(byHeaders), ids(byPage));
      assert.equal(byHeaders.json.pageSize, 2);
      const first = expectStatus(await search({ searchExpression: { expression: '*' } }, { page: '1', pageSize: '2' }), 200);
      assert.equal([...ids(first)].some((id) => ids(byPage).has(id)), false);
    });
  });

  describe('dates and operators', () => {
    it('reads a date as .NET writes it in en-US, and an unquoted ISO instant', async () => {
      // The records were made now: a date after now finds none, one before finds them all.
      const now = new Date();
      const us = (d: Date) => {
        const h = d.getUTCHours() % 12 || 12;
        const two = (n: number) => String(n).padStart(2, '0');
        return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()} ${h}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} ${d.getUTCHours() < 12 ? 'AM' : 'PM'}`;
      };
      const mine = `Title = '${tag}*'`;
      assert.equal(await total(`${mine} AND CreatedOn >= '${us(new Date(now.getTime() - 3600_000))}'`), 4);
      assert.equal(await total(`${mine} AND CreatedOn >= '${us(new Date(now.getTime() + 3600_000))}'`), 0);
      assert.equal(await total(`${mine} AND CreatedOn < '${us(new Date(now.getTime() + 12 * 3600_000))}'`), 4);
      assert.equal(await total(`${mine} AND CreatedOn >= 1900-01-01T00:00:00.000Z`), 4);
      assert.equal(await total(`${mine} AND CreatedOn >= 2999-01-01T00:00:00.000Z`), 0);
      expectStatus(await search({ searchExpression: { expression: "CreatedOn >= '1/15/2026 13:16:51 PM'" } }), 400);
    });

    it('joins two criteria side by side by the default operator', async () => {
      assert.equal(await total('ContentType = Image ContentType = Video'), 2);
      assert.equal(await total('ContentType = Image ContentType = Video', { defaultLogicalOperator: 'AND' }), 0);
      assert.equal(await total(`Title = '${tag}*' ContentType = Video`, { defaultLogicalOperator: 'AND' }), 1);
    });
  });

  describe('small lists', () => {
    for (const path of ['users', 'usergroups', 'languages', 'fielddefinitions', 'settingdefinitions', 'contenttypes']) {
      it(`refuses an unknown sort on ${path} as records do, and sorts by a known one`, async () => {
        const refused = expectStatus(await send(env().url, 'GET', `/api/core/${path}?sort=NoSuchProperty`, dam()), 400);
        assert.match(String(refused.json.exceptionMessage), /NoSuchProperty/);
        assert.match(String(refused.json.exceptionType), /InvalidSearchExpressionException$/);
        expectStatus(await send(env().url, 'GET', `/api/core/${path}`, { ...dam(), sort: 'Id desc' }), 200);
      });
    }
    it('refuses the records search\'s unknown sort the same way', async () => {
      const refused = expectStatus(await search({ searchExpression: { expression: '*' } }, {}, '?sort=NoSuchProperty'), 400);
      assert.match(String(refused.json.exceptionMessage), /NoSuchProperty/);
    });
  });
});
