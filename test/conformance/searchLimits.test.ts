// The search language's limits and control characters through the emulator: 400 with the error object and the
// diagnostic code `dam lint` and the editor report, where deep nesting once answered 500 (a stack overflow in the
// parser, or the database refusing the SQL of thousands of nested NOT).
import { strict as assert } from 'node:assert';
import { LIMITS } from '../../src/core/search';
import { describeEachBackend, failure, USER_AGENT } from './helpers';
import type { ApiError } from '../../src/api/errors';

const nested = (depth: number, inner = "Title = 'x'") => `${'('.repeat(depth)}${inner}${')'.repeat(depth)}`;
const nots = (count: number) => `${'NOT '.repeat(count)}Title = 'x'`;

describeEachBackend('search limits: nesting, length and control characters answer 400', { seed: 'empty' }, (env) => {
  // The sort goes in the body (it may be that long there; in a query string the URL would be).
  const search = (expression: string, sort?: string) =>
    sort === undefined
      ? env().client().search.records({ expression }, { take: 1 })
      : env().client().http.request({ method: 'POST', path: '/search/records', json: { searchExpression: { expression }, sort } });

  async function refused(expression: string, code: string, sort?: string): Promise<ApiError> {
    const err = await failure<ApiError>(() => search(expression, sort));
    assert.equal(err.status, 400, String(err));
    assert.equal(err.exceptionType, 'Dam.Core.Search.InvalidSearchExpressionException');
    assert.match(err.exceptionMessage ?? '', new RegExp(`\\(${code}\\)$`));
    return err;
  }

  it('nesting up to the limit is searched, parentheses and NOT alike', async () => {
    for (const expression of [nested(LIMITS.maxNesting), nots(LIMITS.maxNesting), nested(100, nots(156))]) {
      const page = (await search(expression)) as { totalCount: number };
      assert.equal(page.totalCount, 0);
    }
  });

  it('deeper nesting is DQ2011, whether 257 levels, 3,000 parentheses or 4,000 NOTs', async () => {
    const err = await refused(nested(LIMITS.maxNesting + 1), 'DQ2011');
    assert.equal(err.exceptionMessage, 'Invalid search expression: Parentheses and NOT are nested more than 256 deep here; write the expression with less nesting. (DQ2011)');
    await refused(nested(3000), 'DQ2011');
    await refused(nots(4000), 'DQ2011');
  });

  it('an expression or sort longer than the limit is DQ2010', async () => {
    await refused("Title = 'x' OR ".repeat(1400), 'DQ2010');
    // With an expression: a searchExpression with neither expression nor subExpressions is refused for that first.
    const err = await refused('*', 'DQ2010', 'Title asc, '.repeat(2000));
    assert.match(err.exceptionMessage ?? '', /^Invalid sort expression: /);
  });

  it('a control character anywhere is DQ1005, in a search and in a filter query parameter', async () => {
    const err = await refused("Title = 'a\u0001b'", 'DQ1005');
    assert.match(err.exceptionMessage ?? '', /U\+0001/);
    await refused('Title = a\u007f', 'DQ1005');
    const client = env().client();
    const res = await fetch(`${env().url}/api/core/settings?filter=${encodeURIComponent('Name = a\u0002')}`, {
      headers: { authorization: `Bearer ${await client.tokens.getToken()}`, accept: 'application/json', 'api-version': '1', 'user-agent': USER_AGENT },
    });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { exceptionMessage: string; innerException: null };
    assert.match(body.exceptionMessage, /U\+0002.*\(DQ1005\)$/);
    assert.equal(body.innerException, null);
  });
});
