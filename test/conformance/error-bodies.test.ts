// Every refusal carries the spec's error object, also the ones a web framework answers on its own: a body too large
// (413), a URI too long (414), a body of the wrong type (415, naming it), headers too large (431), a URL that does not
// decode, and a body that is not UTF-8 or not JSON (400).
import { strict as assert } from 'node:assert';
import { connect } from 'node:net';
import { EMULATOR_CLIENT } from '../../src/core/contract';
import { USER_AGENT, describeEachBackend } from './helpers';

interface Raw {
  status: number;
  body: Record<string, unknown>;
}

/** Writes one raw HTTP/1.1 request on a socket and reads the answer to its end: what any client could send. */
function rawHttp(url: string, head: string, body: Buffer = Buffer.alloc(0)): Promise<Raw> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
      const json = text.slice(text.indexOf('\r\n\r\n') + 4);
      try {
        resolve({ status, body: JSON.parse(json) as Record<string, unknown> });
      } catch {
        reject(new Error(`not JSON after ${status}: ${json.slice(0, 200)}`));
      }
    });
    // The client keeps its side open until the answer (a client that half-closes at once gets none from Node's HTTP
    // server when the answer takes a database round trip); `Connection: close` makes the server end the exchange.
    socket.write(`${head.replace(/\n/g, '\r\n')}\r\nConnection: close\r\n\r\n`);
    socket.write(body);
  });
}

function assertErrorObject(res: Raw, status: number, message?: RegExp) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(typeof res.body.exceptionMessage, 'string');
  assert.match(String(res.body.exceptionType), /^Dam\./);
  assert.equal(res.body.stackTrace, null);
  assert.equal(res.body.innerException, null);
  if (message) assert.match(String(res.body.exceptionMessage), message);
}

describeEachBackend('error bodies of refusals', {}, (env) => {
  let token = '';
  const api = (extra = '') => `Host: x\nAuthorization: Bearer ${token}\nAPI-Version: 1\nAccept: application/json\nUser-Agent: ${USER_AGENT}${extra}`;
  const records = async () =>
    (
      (await (
        await fetch(`${env().url}/api/core/search/records`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'API-Version': '1', Accept: 'application/json', 'User-Agent': USER_AGENT, 'Content-Type': 'application/json' },
          body: JSON.stringify({ searchExpression: { expression: '*' } }),
        })
      ).json()) as { totalCount: number }
    ).totalCount;

  before(async () => {
    const res = await fetch(`${env().url}/login/connect/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'api', client_id: EMULATOR_CLIENT.clientId, client_secret: EMULATOR_CLIENT.clientSecret }),
    });
    token = ((await res.json()) as { access_token: string }).access_token;
  });

  it('413 for a JSON body over the limit', async () => {
    const body = Buffer.from(JSON.stringify({ title: 'x'.repeat(17 * 1024 * 1024) }));
    assertErrorObject(await rawHttp(env().url, `POST /api/core/records HTTP/1.1\n${api()}\nContent-Type: application/json\nContent-Length: ${body.length}`, body), 413, /larger than/);
  });

  it('414 for a URI too long, below and above the header limit', async () => {
    assertErrorObject(await rawHttp(env().url, `GET /api/core/records?filter=${'a'.repeat(9_000)} HTTP/1.1\n${api()}`), 414, /URI/);
    assertErrorObject(await rawHttp(env().url, `GET /api/core/records?filter=${'a'.repeat(40_000)} HTTP/1.1\n${api()}`), 414, /URI/);
  });

  it('431 for headers too large', async () => {
    assertErrorObject(await rawHttp(env().url, `GET /api/core/records HTTP/1.1\n${api()}\nX-Padding: ${'p'.repeat(40_000)}`), 431);
  });

  it('400 for a URL that does not decode', async () => {
    assertErrorObject(await rawHttp(env().url, `GET /% HTTP/1.1\n${api()}`), 400, /percent-encoded/);
    assertErrorObject(await rawHttp(env().url, `GET /api/core/record/%E0%A4%A HTTP/1.1\n${api()}`), 400);
  });

  it('415 naming the type sent, and a form-encoded body to a JSON route creates nothing', async () => {
    const before = await records();
    const text = Buffer.from('title=Sneaky');
    assertErrorObject(await rawHttp(env().url, `POST /api/core/records HTTP/1.1\n${api()}\nContent-Type: text/plain\nContent-Length: ${text.length}`, text), 415, /'text\/plain'.*application\/json/);
    assertErrorObject(
      await rawHttp(env().url, `POST /api/core/records HTTP/1.1\n${api()}\nContent-Type: application/x-www-form-urlencoded\nContent-Length: ${text.length}`, text),
      415,
      /x-www-form-urlencoded/,
    );
    assert.equal(await records(), before);
  });

  it('400 for a body that is not UTF-8, or not JSON', async () => {
    const latin1 = Buffer.concat([Buffer.from('{"title":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    assertErrorObject(await rawHttp(env().url, `POST /api/core/records HTTP/1.1\n${api()}\nContent-Type: application/json\nContent-Length: ${latin1.length}`, latin1), 400, /UTF-8/);
    const broken = Buffer.from('{"title": ');
    assertErrorObject(await rawHttp(env().url, `POST /api/core/records HTTP/1.1\n${api()}\nContent-Type: application/json\nContent-Length: ${broken.length}`, broken), 400, /not valid JSON/);
  });

  it('400 naming the NUL character in a text value (the database\'s own message named an encoding), and nothing created', async () => {
    const before = await records();
    const nul = Buffer.from('{"title":"a\\u0000b","status":"Draft"}');
    assertErrorObject(await rawHttp(env().url, `POST /api/core/records HTTP/1.1\n${api()}\nContent-Type: application/json\nContent-Length: ${nul.length}`, nul), 400, /NUL character \(\\u0000\)/);
    assert.equal(await records(), before);
  });
});
