// What the request journal never keeps: each secret shape, in whole and in text cut short.
import { strict as assert } from 'node:assert';
import { scrubHeader, scrubQuery, scrubText } from '../../../src/emulator/inspector/scrub';

describe('inspector scrubbing', () => {
  const text: Array<[string, string]> = [
    ['{"access_token":"tok.123","expires_in":3600}', '{"access_token":"[scrubbed]","expires_in":3600}'],
    ['{ "Client_Secret" : "s3cret", "client_id": "a" }', '{ "Client_Secret" : "[scrubbed]", "client_id": "a" }'],
    ["{ 'password': 'hunter2' }", "{ 'password': '[scrubbed]' }"],
    ['grant_type=password&username=admin&password=s3cret&client_secret=xyz', 'grant_type=password&username=admin&password=[scrubbed]&client_secret=[scrubbed]'],
    ['access-token=abc&recordId=1', 'access-token=[scrubbed]&recordId=1'],
    ['code=abc&code_verifier=vvv&redirect_uri=x', 'code=[scrubbed]&code_verifier=[scrubbed]&redirect_uri=x'],
    ['{"sasUrl":"http://h/uploads/blobs/f?sv=1&sp=w&se=9&sig=SIGNATURE"}', '{"sasUrl":"http://h/uploads/blobs/f?sv=1&sp=w&se=9&sig=[scrubbed]"}'],
    ['{"href":"http://h/download?kind=v&id=1&expires=2&token=abcdef"}', '{"href":"http://h/download?kind=v&id=1&expires=2&token=[scrubbed]"}'],
    ['Location: http://cb/?code=AUTHCODE&state=s', 'Location: http://cb/?code=[scrubbed]&state=s'],
    ['echo Bearer eyJhbGci.x-y_z=', 'echo Bearer [scrubbed]'],
    ['{"token":"upload-token-1","fileId":"f"}', '{"token":"upload-token-1","fileId":"f"}'],
    ['{"title":"password reset guide"}', '{"title":"password reset guide"}'],
  ];
  for (const [input, expected] of text) {
    it(`scrubs ${input.slice(0, 50)}`, () => {
      const out = scrubText(input);
      assert.equal(out.text, expected);
      assert.equal(out.scrubbed, input !== expected);
    });
  }

  it('removes a secret cut short at the end of kept text', () => {
    assert.equal(scrubText('{"a":1,"client_secret":"dam-emul').text, '{"a":1,"client_secret":"[scrubbed]"');
    assert.equal(scrubText('{"password":"ab\\"c').text, '{"password":"[scrubbed]"');
  });

  it('keeps escaped quotes inside a secret from leaking its tail', () => {
    assert.equal(scrubText('{"password":"a\\"b","x":1}').text, '{"password":"[scrubbed]","x":1}');
  });

  it('scrubs secret query parameters by name, keeping the rest as sent', () => {
    assert.equal(scrubQuery('client_id=a&client_secret=b&pageSize=5'), 'client_id=a&client_secret=[scrubbed]&pageSize=5');
    assert.equal(scrubQuery('kind=v&token=t&expires=1'), 'kind=v&token=[scrubbed]&expires=1');
    assert.equal(scrubQuery('filter=Title%20%3D%20a&access%5Ftoken=x'), 'filter=Title%20%3D%20a&access%5Ftoken=[scrubbed]');
    assert.equal(scrubQuery(''), '');
  });

  it('keeps the Authorization scheme, hides cookies, scrubs URLs in Location', () => {
    assert.equal(scrubHeader('Authorization', 'Bearer abc.def'), 'Bearer [scrubbed]');
    assert.equal(scrubHeader('authorization', 'Basic dXNlcjpwYXNz'), 'Basic [scrubbed]');
    assert.equal(scrubHeader('authorization', 'rawtoken'), '[scrubbed]');
    assert.equal(scrubHeader('Cookie', 'a=b'), '[scrubbed]');
    assert.equal(scrubHeader('location', 'vscode://x/cb?code=c0de&state=1'), 'vscode://x/cb?code=[scrubbed]&state=1');
    assert.equal(scrubHeader('User-Agent', 'curl/8'), 'curl/8');
  });
});
