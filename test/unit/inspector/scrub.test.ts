// What the request journal keeps: each secret shape, in whole and in text cut short; names judged decoded; headers
// and form fields by allowlist.
import { strict as assert } from 'node:assert';
import { parseLenientJson } from '../../../src/emulator/lenientJson';
import { scrubBody, scrubHeader, scrubQuery } from '../../../src/emulator/inspector/scrub';

const parse = (text: string) => parseLenientJson(Buffer.from(text));
const body = (text: string, type: string | null = null) => scrubBody(text, type, parse);
const FORM = 'application/x-www-form-urlencoded';

describe('inspector scrubbing', () => {
  const text: Array<[string, string | null, string]> = [
    ['{"access_token":"tok.123","expires_in":3600}', 'application/json', '{"access_token":"[scrubbed]","expires_in":3600}'],
    ['{ "Client_Secret" : "s3cret", "client_id": "a" }', 'application/json', '{"Client_Secret":"[scrubbed]","client_id":"a"}'],
    ["{ 'password': 'hunter2' }", 'application/json', '{"password":"[scrubbed]"}'],
    ['{"client\\u005fsecret":"s3cret"}', 'application/json', '{"client_secret":"[scrubbed]"}'],
    ['{"refreshToken":"r","nested":{"X-Access-Token":"t"}}', 'application/json', '{"refreshToken":"[scrubbed]","nested":{"X-Access-Token":"[scrubbed]"}}'],
    ['grant_type=password&username=admin&password=s3cret&client_secret=xyz', FORM, 'grant_type=password&username=admin&password=[scrubbed]&client_secret=[scrubbed]'],
    ['grant_type=client_credentials&client%5Fsecret=xyz&pass%77ord=p&client_id=a', FORM, 'grant_type=client_credentials&client%5Fsecret=[scrubbed]&pass%77ord=[scrubbed]&client_id=a'],
    ['access-token=abc&recordId=1', FORM, 'access-token=[scrubbed]&recordId=1'],
    ['code=abc&code_verifier=vvv&redirect_uri=x', FORM, 'code=[scrubbed]&code_verifier=[scrubbed]&redirect_uri=x'],
    ['unknown_field=kept-out&scope=api', FORM, 'unknown_field=[scrubbed]&scope=api'],
    ['{"sasUrl":"http://h/uploads/blobs/f?sv=1&sp=w&se=9&sig=SIGNATURE"}', 'application/json', '{"sasUrl":"http://h/uploads/blobs/f?sv=1&sp=w&se=9&sig=[scrubbed]"}'],
    ['{"href":"http://h/download?kind=v&id=1&expires=2&token=abcdef"}', 'application/json', '{"href":"http://h/download?kind=v&id=1&expires=2&token=[scrubbed]"}'],
    ['Location: http://cb/?code=AUTHCODE&state=s', 'text/plain', 'Location: http://cb/?code=[scrubbed]&state=s'],
    ['echo Bearer eyJhbGci.x-y_z=', 'text/plain', 'echo Bearer [scrubbed]'],
    ['{"token":"upload-token-1","fileId":"f"}', 'application/json', '{"token":"upload-token-1","fileId":"f"}'],
    ['{"title":"password reset guide"}', 'application/json', '{"title":"password reset guide"}'],
  ];
  for (const [input, type, expected] of text) {
    it(`keeps ${input.slice(0, 60)}`, () => {
      const out = body(input, type);
      assert.equal(out.text, expected);
      assert.equal(out.scrubbed, input !== expected);
    });
  }

  it('removes a secret cut short at the end of kept text', () => {
    assert.equal(body('{"a":1,"client_secret":"dam-emul', 'application/json').text, '{"a":1,"client_secret":"[scrubbed]"');
    assert.equal(body('{"password":"ab\\"c').text, '{"password":"[scrubbed]"');
    assert.equal(body('{"a":1,"client\\u005fsecret":"dam-emul').text, '{"a":1,"client_secret":"[scrubbed]"');
    assert.equal(body('grant_type=x&client_sec', FORM).text, 'grant_type=x&client_sec');
    assert.equal(body('grant_type=x&client_secret=dam-em', FORM).text, 'grant_type=x&client_secret=[scrubbed]');
  });

  it('keeps escaped quotes inside a secret from leaking its tail', () => {
    assert.equal(body('{"password":"a\\"b","x":1}', 'application/json').text, '{"password":"[scrubbed]","x":1}');
  });

  it('scrubs secret query parameters by their decoded names, keeping the rest as sent', () => {
    assert.equal(scrubQuery('client_id=a&client_secret=b&pageSize=5'), 'client_id=a&client_secret=[scrubbed]&pageSize=5');
    assert.equal(scrubQuery('kind=v&token=t&expires=1'), 'kind=v&token=[scrubbed]&expires=1');
    assert.equal(scrubQuery('filter=Title%20%3D%20a&access%5Ftoken=x'), 'filter=Title%20%3D%20a&access%5Ftoken=[scrubbed]');
    assert.equal(scrubQuery('pass%77ord=x&ACCESS_TOKEN=y&Api-Key=z'), 'pass%77ord=[scrubbed]&ACCESS_TOKEN=[scrubbed]&Api-Key=[scrubbed]');
    assert.equal(scrubQuery(''), '');
  });

  it('keeps allowlisted headers, the Authorization scheme, and no other value', () => {
    assert.equal(scrubHeader('Authorization', 'Bearer abc.def'), 'Bearer [scrubbed]');
    assert.equal(scrubHeader('authorization', 'Basic dXNlcjpwYXNz'), 'Basic [scrubbed]');
    assert.equal(scrubHeader('authorization', 'rawtoken'), '[scrubbed]');
    assert.equal(scrubHeader('X-Access-Token', 'eyJhbGci.abc'), '[scrubbed]');
    assert.equal(scrubHeader('Cookie', 'a=b'), '[scrubbed]');
    assert.equal(scrubHeader('X-Custom-Auth-Token', 'abc'), '[scrubbed]');
    assert.equal(scrubHeader('X-Anything-New', 'abc'), '[scrubbed]');
    assert.equal(scrubHeader('location', 'vscode://x/cb?code=c0de&state=1'), 'vscode://x/cb?code=[scrubbed]&state=1');
    assert.equal(scrubHeader('User-Agent', 'curl/8'), 'curl/8');
    assert.equal(scrubHeader('select-record', 'fields, files'), 'fields, files');
    assert.equal(scrubHeader('API-Version', '1'), '1');
  });
});
