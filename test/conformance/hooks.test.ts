// Where `.fileVersionCreatedHooks` may send the access token it carries: http(s) only, never link-local or cloud-metadata
// addresses, at most 20 hooks of bounded length, never through a redirect; a failed hook is one line in the log.
// Real local HTTP servers receive (or redirect) the hooks; no test here ever makes the emulator send anything beyond
// loopback (the refused addresses are refused before any connection, and the one stored past the checks is a file: URL).
import { strict as assert } from 'node:assert';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DamClient } from '../../src/api/client';
import { EMULATOR_CLIENT, emulatorProfile } from '../../src/api/endpoints';
import type { ApiError } from '../../src/api/errors';
import { forbiddenUrl, refusingLookup } from '../../src/emulator/domain/fileVersionHooks';
import { startEmulator } from '../../src/emulator/server';
import { openStore } from '../../src/emulator/storage/open';
import { discPicture, uploadBytes } from './fileFixtures';
import { describeEachBackend, failure, USER_AGENT } from './helpers';

interface Received {
  path: string;
  body: string;
}

/** A loopback server that records what it receives and answers with `answer`. */
async function hookServer(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body });
      answer(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

const close = (server: Server) => new Promise<void>((r) => server.close(() => r()));

/** Resolves once a log line matching `pattern` was written (at once if one was). */
function logged(lines: string[], pattern: RegExp, waiters: (() => void)[]): Promise<string> {
  return new Promise((resolve) => {
    const check = () => {
      const line = lines.find((l) => pattern.test(l));
      if (line) resolve(line);
      else waiters.push(check);
    };
    check();
  });
}

const lines: string[] = [];
const waiters: (() => void)[] = [];
function log(line: string) {
  lines.push(line);
  for (const w of waiters.splice(0)) w();
}

describeEachBackend('hooks: where .fileVersionCreatedHooks may send a token', { seed: 'empty', log }, (env) => {
  const put = (value: unknown) => env().client().http.request({ method: 'PUT', path: '/setting/.fileVersionCreatedHooks', json: { value } });
  const current = async () => ((await env().client().get('setting/.fileVersionCreatedHooks')) as { value: unknown }).value;
  async function refused(value: unknown, message: RegExp) {
    const err = await failure<ApiError>(() => put(value));
    assert.equal(err.status, 400, String(err));
    assert.equal(err.exceptionType, 'Dam.Core.Common.ValidationException');
    assert.match(err.exceptionMessage ?? '', message);
  }
  async function newVersion(name: string): Promise<string> {
    const client = env().client();
    const record = await client.files.createRecordFromUpload({ token: await uploadBytes(client, name, await discPicture(32, 32)), title: name });
    return (await client.files.latestVersion(record.id))!.id;
  }

  it('refuses URLs that are not http(s), naming the scheme, and keeps the setting as it was', async () => {
    await put([]);
    await refused(['file:///etc/passwd'], /hook 1.*'file:\/\/\/etc\/passwd' is a file: URL; only http and https are allowed/);
    await refused([{ url: 'http://127.0.0.1:9/ok' }, { url: 'gopher://127.0.0.1:70/_x', mode: 'json' }], /hook 2.*gopher: URL/);
    await refused(['javascript:alert(1)'], /javascript: URL/);
    await refused(['not a url'], /'not a url' is not a URL/);
    assert.deepEqual(await current(), []);
  });

  it('refuses link-local and cloud-metadata targets, however they are written', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://169.254.0.1:8080/', 'http://[fe80::1]/', 'http://[::ffff:169.254.169.254]/', 'http://[fd00:ec2::254]/', 'http://100.100.100.200/']) {
      await refused([url], /\(hook 1\): .* is a link-local or cloud-metadata address\.$/);
    }
    for (const url of ['http://metadata.google.internal/computeMetadata/v1/', 'https://METADATA.GOOGLE.INTERNAL./', 'http://metadata/']) {
      await refused([{ url, mode: 'page-hook' }], /cloud-metadata host/);
    }
    assert.deepEqual(await current(), []);
  });

  it('takes at most 20 hooks, each URL at most 2,000 characters', async () => {
    const hook = (i: number) => ({ url: `http://127.0.0.1:9/hook/${i}`, mode: 'json' });
    await refused(Array.from({ length: 5000 }, (_, i) => hook(i)), /at most 20 hooks are allowed/);
    await refused([`http://127.0.0.1:9/${'a'.repeat(2000)}`], /hook 1.*the URL is 2,019 characters long; at most 2,000 are allowed/);
    await put(Array.from({ length: 20 }, (_, i) => hook(i)));
    assert.equal((await current() as unknown[]).length, 20);
    await put([]);
  });

  it('never follows a redirect with the token: a 3xx is a failed delivery, logged in one line', async () => {
    const thief = await hookServer((_req, res) => res.writeHead(204).end());
    const redirector = await hookServer((_req, res) => res.writeHead(307, { location: `${thief.url}/steal` }).end());
    try {
      await put([{ url: `${redirector.url}/check`, mode: 'page-hook' }, { url: `${redirector.url}/json`, mode: 'json' }]);
      const version = await newVersion('redirected.png');
      const pageHook = await logged(lines, new RegExp(`page-hook hook .* failed for version ${version}`), waiters);
      await logged(lines, new RegExp(`json hook .* failed for version ${version}`), waiters);
      assert.match(pageHook, /answered 307, a redirect, which is not followed/);
      assert.equal(redirector.received.length, 2);
      assert.match(redirector.received.find((r) => r.path === '/check')!.body, /access-token=/);
      assert.deepEqual(thief.received, [], 'the redirect target received nothing');
    } finally {
      await put([]);
      await close(redirector.server);
      await close(thief.server);
    }
  });

  it('a hook that cannot be reached is one line in the log, with no stack trace', async () => {
    const gone = await hookServer((_req, res) => res.end());
    const url = gone.url;
    await close(gone.server);
    await put([url]);
    try {
      const version = await newVersion('unreachable.png');
      const line = await logged(lines, new RegExp(`hook .* failed for version ${version}`), waiters);
      assert.match(line, /^rules: json hook 127\.0\.0\.1:\d+ failed for version [0-9a-f]{32}: .*ECONNREFUSED/);
      assert.ok(!line.includes('\n'), line);
      assert.ok(!lines.some((l) => /background task failed|\n\s+at /.test(l)), 'no stack trace in the log');
    } finally {
      await put([]);
    }
  });

  it('still delivers to an allowed hook, and the receiver can use the page-hook token', async () => {
    const receiver = await hookServer((_req, res) => res.writeHead(204).end());
    try {
      await put([{ url: `${receiver.url}/check`, mode: 'page-hook' }]);
      const version = await newVersion('delivered.png');
      await logged(lines, new RegExp(`page-hook hook .* answered 204 for version ${version}`), waiters);
      const token = new URLSearchParams(receiver.received[0].body).get('access-token');
      const res = await fetch(`${env().url}/api/core/fileversion/${version}`, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'api-version': '1', 'user-agent': USER_AGENT },
      });
      assert.equal(res.status, 200);
    } finally {
      await put([]);
      await close(receiver.server);
    }
  });
});

describe('hooks: checked again when they fire', function () {
  this.timeout(120_000);

  it('a hook stored before the checks existed (an old data folder) is not sent, and says why', async () => {
    const data = mkdtempSync(join(tmpdir(), 'dam-hooks-'));
    const seen: string[] = [];
    try {
      const first = await startEmulator({ port: 0, data, seed: 'empty' });
      await first.close();
      const store = await openStore({ data });
      await store.query(`INSERT INTO settings (name, value, modified_on) VALUES ('.fileVersionCreatedHooks', $1, now())`, [JSON.stringify([{ url: 'file:///etc/passwd', mode: 'page-hook' }])]);
      await store.close();
      const emulator = await startEmulator({ port: 0, data, seed: 'empty', log: (l) => seen.push(l) });
      try {
        const client = new DamClient({ profile: emulatorProfile(emulator.url), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, userAgent: USER_AGENT });
        await client.files.createRecordFromUpload({ token: await uploadBytes(client, 'old.png', await discPicture(16, 16)), title: 'old' });
      } finally {
        await emulator.close();
      }
      const line = seen.find((l) => l.startsWith('rules: page-hook hook'));
      assert.match(line ?? '', /failed for version [0-9a-f]{32}: 'file:\/\/\/etc\/passwd' is a file: URL; only http and https are allowed; not sent/);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });

  it('a name that resolves to a link-local address is refused where the connection is made', async () => {
    const resolveTo = (address: string, family: number) => refusingLookup((_host, _options, callback) => callback(null, [{ address, family }]));
    const outcome = (lookup: ReturnType<typeof refusingLookup>) =>
      new Promise<string>((resolve) => lookup('hooks.example', {}, (err, address) => resolve(err ? `${(err as NodeJS.ErrnoException).code}: ${err.message}` : String(address))));
    assert.equal(await outcome(resolveTo('169.254.169.254', 4)), 'EHOOKFORBIDDEN: hooks.example resolves to 169.254.169.254, a link-local or cloud-metadata address');
    assert.equal(await outcome(resolveTo('fe80::1', 6)), 'EHOOKFORBIDDEN: hooks.example resolves to fe80::1, a link-local or cloud-metadata address');
    assert.equal(await outcome(resolveTo('127.0.0.1', 4)), '127.0.0.1');
    assert.equal(forbiddenUrl('https://checks.example.com/hook'), undefined);
  });
});
