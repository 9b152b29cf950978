// redact() and ApiError messages: secrets never reach a log line or an error text.
import { strict as assert } from 'node:assert';
import { ApiError, excerpt, redact } from '../../../src/api/errors';

describe('redact', () => {
  const cases: Array<[string, string]> = [
    ['Authorization: Bearer abc.DEF-123_=', 'Authorization: Bearer ***'],
    ['grant_type=password&username=admin&password=s3cret&client_secret=xyz', 'grant_type=password&username=admin&password=***&client_secret=***'],
    ['{"access_token":"tok","expires_in":3600}', '{"access_token":"***","expires_in":3600}'],
    ['http://h/cb?code=abc&state=s1', 'http://h/cb?code=***&state=s1'],
    ['code_verifier=vvv&redirect_uri=x', 'code_verifier=***&redirect_uri=x'],
    ['https://h/download?token=t0k3n&name=a.png', 'https://h/download?token=***&name=a.png'],
    ['access-token=abc', 'access-token=***'],
    ['https://h/api/core/records?filter=Title%3Da&pageSize=5', 'https://h/api/core/records?filter=Title%3Da&pageSize=5'],
  ];
  for (const [input, expected] of cases) {
    it(`redacts ${input.slice(0, 40)}`, () => assert.equal(redact(input), expected));
  }
});

describe('ApiError', () => {
  it('names method, URL, status, message and type', () => {
    const err = new ApiError({ method: 'GET', url: 'http://h/api/core/record/1', status: 404, exceptionType: 'X.Common.NoDataFoundException', exceptionMessage: 'Record 1 not found' });
    assert.equal(err.message, 'GET http://h/api/core/record/1 answered 404: Record 1 not found (X.Common.NoDataFoundException)');
  });

  it('explains a status without a body and mentions Retry-After', () => {
    const err = new ApiError({ method: 'POST', url: 'http://h/x', status: 429, retryAfterMs: 2000 });
    assert.match(err.message, /429: the service is rate limiting; retry later; Retry-After 2 s/);
  });

  it('redacts secrets in the URL it keeps', () => {
    const err = new ApiError({ method: 'GET', url: 'http://h/download?token=abc', status: 410 });
    assert.equal(err.url, 'http://h/download?token=***');
    assert.doesNotMatch(err.message, /abc/);
  });

  it('excerpts HTML as text', () => {
    assert.equal(excerpt('<html><head><style>p{}</style></head><body><h1>429</h1> Too   many</body></html>'), '429 Too many');
  });
});
