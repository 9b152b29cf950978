// Errors as notifications and panels show them: the service's own explanation, without the HTTP exchange.
import { strict as assert } from 'node:assert';
import { ApiError, NetworkError } from '../../../src/api/errors';
import { inWords } from '../../../src/extension/errorWords';

describe('inWords', () => {
  it('says what the service said of a refused request, not the method, address, status and exception type', () => {
    const err = new ApiError({
      method: 'POST',
      url: 'http://127.0.0.1:7070/api/core/search/records?pageSize=100',
      status: 400,
      exceptionType: 'Dam.Core.Search.InvalidSearchExpressionException',
      exceptionMessage: 'Invalid search expression: The string starting here has no closing ". (DQ1001)',
    });
    assert.match(err.message, /answered 400/, 'the message for the log keeps the exchange');
    assert.equal(inWords(err), 'Invalid search expression: The string starting here has no closing ". (DQ1001)');
  });

  it('names the missing right of a 403, and keeps the message of what it cannot explain', () => {
    const denied = new ApiError({ method: 'PUT', url: 'http://h/api/core/setting/x', status: 403, exceptionType: 'X.Security.AccessDeniedException', exceptionMessage: 'You lack the right to change settings.' });
    assert.equal(inWords(denied), 'You lack the right to change settings.');
    const failed = new ApiError({ method: 'GET', url: 'http://h/api/core/records', status: 500 });
    assert.equal(inWords(failed), failed.message);
    const network = new NetworkError('GET', 'http://127.0.0.1:9/api/core/records', false, new Error('connect ECONNREFUSED'));
    assert.equal(inWords(network), network.message);
    assert.equal(inWords('plain'), 'plain');
  });
});
