// The reason of an error answer, what to send instead, and the near miss of an unknown route.
import { strict as assert } from 'node:assert';
import { explainError, methodsFor, nearestRoutes, type ErrorFacts, type KnownRoute } from '../../../src/emulator/inspector/explain';

const routes: KnownRoute[] = [
  { method: 'GET', url: '/api/core/records' },
  { method: 'GET', url: '/api/core/record/:id' },
  { method: 'PUT', url: '/api/core/record/:id' },
  { method: 'DELETE', url: '/api/core/record/:id' },
  { method: 'POST', url: '/api/core/search/records' },
  { method: 'POST', url: '/api/core/search/classifications' },
  { method: 'GET', url: '/api/core/classifications' },
  { method: 'HEAD', url: '/api/core/records' },
];

const facts = (over: Partial<ErrorFacts>): ErrorFacts => ({ status: 400, method: 'GET', path: '/api/core/records', caller: null, hadAuthorization: true, ...over });

describe('inspector explanations', () => {
  it('suggests the nearest route for a misspelt path', () => {
    assert.deepEqual(nearestRoutes(routes, 'GET', '/api/core/recrods').map((r) => `${r.method} ${r.url}`)[0], 'GET /api/core/records');
    const f = explainError(facts({ status: 404, path: '/api/core/serach/records', method: 'POST', exceptionType: 'Dam.Core.Common.NotFoundException', exceptionMessage: 'No route matches POST /api/core/serach/records.' }), routes);
    assert.equal(f?.code, 'DE4041');
    assert.match(f!.advice!, /^Did you mean POST \/api\/core\/search\/records/);
  });

  it('names the methods a path takes when only the method is wrong', () => {
    assert.deepEqual(methodsFor(routes, '/api/core/record/abc'), ['DELETE', 'GET', 'PUT']);
    const f = explainError(facts({ status: 404, method: 'POST', path: '/api/core/record/abc', exceptionType: 'Dam.Core.Common.NotFoundException', exceptionMessage: 'No route matches POST /api/core/record/abc.' }), routes);
    assert.match(f!.message, /this path takes DELETE, GET, PUT/);
  });

  it('offers nothing when no route is near', () => {
    assert.deepEqual(nearestRoutes(routes, 'GET', '/completely/elsewhere/entirely'), []);
  });

  const table: Array<[string, Partial<ErrorFacts>, string]> = [
    ['a missing API-Version', { exceptionType: 'Dam.Core.Common.MissingHeaderException', exceptionMessage: "The request header 'API-Version' is required." }, 'DE1003'],
    ['a missing token', { status: 401, exceptionType: 'Dam.Core.Security.UnauthorizedException', hadAuthorization: false }, 'DE1006'],
    ['an expired token', { status: 401, exceptionType: 'Dam.Core.Security.UnauthorizedException', exceptionMessage: 'expired' }, 'DE4010'],
    ['a forbidden call', { status: 403, exceptionType: 'Dam.Core.Security.AccessDeniedException', caller: { clientId: 'dam-emulator-limited', userId: 2 } }, 'DE4030'],
    ['a missing record', { status: 404, exceptionType: 'Dam.Core.Common.NoDataFoundException', exceptionMessage: "No record with id 'x' was found." }, 'DE4040'],
    ['a bad cursor', { exceptionType: 'Dam.Core.Search.InvalidCursorException' }, 'DE4002'],
    ['a task rule', { exceptionType: 'Dam.Core.WorkManagement.TaskValidationException', exceptionMessage: 'BeginDate should not be greater than EndDate' }, 'DE4200'],
    ['a throttled call', { status: 429 }, 'DE4290'],
    ['a gateway timeout', { status: 504 }, 'DE5040'],
    ['an unknown 4xx', { status: 418 }, 'DE4999'],
  ];
  for (const [title, over, code] of table) {
    it(`explains ${title}`, () => {
      const f = explainError(facts(over), routes);
      assert.equal(f?.code, code);
      assert.equal(f?.severity, 'refuse');
      assert.ok(f?.advice, 'says what to send instead');
    });
  }

  it('explains a task rule with the matching advice', () => {
    const f = explainError(facts({ exceptionType: 'X.TaskValidationException', exceptionMessage: 'BeginDate should not be greater than EndDate' }), routes);
    assert.equal(f?.advice, 'Send an endDate on or after beginDate.');
  });

  it('names the caller that lacks a right', () => {
    const f = explainError(facts({ status: 403, exceptionType: 'X.AccessDeniedException', caller: { clientId: 'dam-emulator-limited', userId: 2 } }), routes);
    assert.match(f!.message, /client 'dam-emulator-limited' \(user 2\)/);
  });

  it('has nothing to say about a success', () => {
    assert.equal(explainError(facts({ status: 200 }), routes), undefined);
  });
});
