// The upload service through the real client and raw HTTP against the emulator: single and segmented uploads
// through the state table, the signed sasUrl, single-use tokens, 401 in the middle of an upload, cancel.
import { strict as assert } from 'node:assert';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '../../src/api/errors';
import type { FetchInitLike, FetchLike } from '../../src/api/http';
import { InvalidFilenameError, SEGMENT_THRESHOLD } from '../../src/api/uploads';
import type { DamClient } from '../../src/api/client';
import { USER_AGENT, describeEachBackend, failure, runDam, type Env } from './helpers';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function bearer(env: Env): Promise<string> {
  return env.client().tokens.getToken();
}

async function raw(env: Env, method: string, path: string, init: { token?: string; body?: BodyInit; headers?: Record<string, string> } = {}) {
  const token = init.token ?? (await bearer(env));
  const res = await fetch(`${env.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'API-Version': '1', Accept: 'application/json', 'User-Agent': USER_AGENT, ...init.headers },
    body: init.body,
  });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type'), text, json: text && /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined };
}

function form(part: string, bytes: Uint8Array, filename: string): FormData {
  const f = new FormData();
  f.append(part, new Blob([Buffer.from(bytes)]), filename);
  return f;
}

function assertErrorObject(json: unknown, typeSuffix?: string): void {
  const body = json as Record<string, unknown>;
  assert.equal(typeof body.exceptionMessage, 'string');
  assert.equal(typeof body.exceptionType, 'string');
  assert.equal(body.stackTrace, null);
  assert.equal(body.innerException, null);
  if (typeSuffix) assert.ok(String(body.exceptionType).endsWith(typeSuffix), String(body.exceptionType));
}

/** Creates a record from the token and reads the master file's newest version back through its download URI. */
async function bytesThroughRecord(client: DamClient, token: string, filename: string): Promise<{ recordId: string; sha: string; size: number; checksum: unknown }> {
  const record = await client.files.createRecordFromUpload({ token, filename, title: `upload test ${filename}` });
  const version = await client.files.latestVersion(String(record.id));
  assert.ok(version, 'the record has a file version');
  const download = await client.files.download(version);
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of download.body) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { recordId: String(record.id), sha: hash.digest('hex'), size, checksum: version.checksum };
}

/** A fetch that holds segment requests back a little, so a test can act while an upload is under way. */
function slowSegments(delayMs: number): FetchLike {
  return async (url: string, init: FetchInitLike) => {
    if (/\/uploads\/segments\/[^/?]+\?index=/.test(url)) await new Promise((r) => setTimeout(r, delayMs));
    const nodeFetch = (await import('node-fetch')).default as unknown as FetchLike;
    return nodeFetch(url, init);
  };
}

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'dam-uploads-test-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function tempFile(name: string, size: number): { path: string; sha: string } {
  const bytes = randomBytes(size);
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return { path, sha: sha256(bytes) };
}

describeEachBackend('uploads', {}, (env) => {
  it('uploads a small file in one request: token, sasUrl and a GUID fileId', async () => {
    const client = env().client();
    const data = randomBytes(5000);
    const result = await client.uploads.upload({ filename: 'small.bin', data });
    assert.equal(result.segmented, false);
    assert.match(result.token, /^[A-Za-z0-9_-]{20,}$/);
    assert.match(result.fileId ?? '', /^[0-9a-f]{32}$/);
    assert.match(result.sasUrl ?? '', /\/uploads\/blobs\/[0-9a-f]{32}\?.*sig=/);
    const back = await bytesThroughRecord(client, result.token, 'small.bin');
    assert.equal(back.sha, sha256(data));
  });

  it('refuses raw binary bodies on /uploads (415), JSON without a file name, no file part and two file parts (400), each with the error object', async () => {
    const octet = await raw(env(), 'POST', '/uploads', { body: new Uint8Array(100), headers: { 'Content-Type': 'application/octet-stream' } });
    assert.equal(octet.status, 415);
    assertErrorObject(octet.json, 'UnsupportedMediaTypeException');
    assert.match(octet.json.exceptionMessage, /application\/octet-stream/);
    // JSON asks for a writable blob location, which needs the file's name.
    const json = await raw(env(), 'POST', '/uploads', { body: '{"a":1}', headers: { 'Content-Type': 'application/json' } });
    assert.equal(json.status, 400);
    assertErrorObject(json.json, 'UploadValidationException');
    assert.match(json.json.exceptionMessage, /file name/);
    const empty = new FormData();
    empty.append('note', 'no file here');
    const none = await raw(env(), 'POST', '/uploads', { body: empty });
    assert.equal(none.status, 400);
    assertErrorObject(none.json, 'UploadValidationException');
    const two = form('file1', randomBytes(10), 'a.bin');
    two.append('file2', new Blob([Buffer.from('x')]), 'b.bin');
    const twice = await raw(env(), 'POST', '/uploads', { body: two });
    assert.equal(twice.status, 400);
    assert.match(twice.json.exceptionMessage, /exactly one file part/);
  });

  it('refuses every forbidden file-name character with a 400 naming it, and the client refuses before sending', async () => {
    for (const c of ['<', '>', ':', '"', '/', '\\', '|', '?', '*']) {
      const res = await raw(env(), 'POST', '/uploads/segments', { body: JSON.stringify({ filename: `bad${c}name.bin` }), headers: { 'Content-Type': 'application/json' } });
      assert.equal(res.status, 400, c);
      assertErrorObject(res.json, 'UploadValidationException');
      assert.ok(res.json.exceptionMessage.includes(`(${c})`), res.json.exceptionMessage);
    }
    for (const c of ['<', ':', '|', '?', '*', '/', '\\']) {
      const res = await raw(env(), 'POST', '/uploads', { body: form('file1', randomBytes(10), `x${c}y.bin`) });
      assert.equal(res.status, 400, `multipart ${c}`);
      assertErrorObject(res.json, 'UploadValidationException');
    }
    const err = await failure(() => env().client().uploads.upload({ filename: 'a|b.txt', data: new Uint8Array(3) }));
    assert.ok(err instanceof InvalidFilenameError);
  });

  it('walks a segmented session through the state table: setup, parallel segments, commit naming missing and extra indexes, commit', async () => {
    const setup = await raw(env(), 'POST', '/uploads/segments', { body: JSON.stringify({ FileName: 'parts.bin' }), headers: { 'Content-Type': 'application/json' } });
    assert.equal(setup.status, 200);
    const { token, uri: absolute } = setup.json as { token: string; uri: string };
    // Absolute, as the live service answers (real-service-notes): clients pass it to `new URL(uri)`.
    assert.equal(absolute, `${env().url}/uploads/segments/${encodeURIComponent(token)}`);
    const uri = new URL(absolute).pathname;
    const segments = [0, 1, 2, 3].map(() => randomBytes(70_000));
    // Out of order and in parallel; index 3 is held back.
    const sent = await Promise.all([2, 0, 1].map((i) => raw(env(), 'POST', `${uri}?index=${i}`, { body: form(`segment${i}`, segments[i], `parts.bin.segment${i}`) })));
    assert.deepEqual(sent.map((r) => r.status), [202, 202, 202]);
    const commit = (count: number) => raw(env(), 'POST', `${uri}/commit`, { body: JSON.stringify({ filename: 'parts.bin', segmentcount: count }), headers: { 'Content-Type': 'application/json' } });
    const missing = await commit(4);
    assert.equal(missing.status, 400);
    assertErrorObject(missing.json, 'UploadValidationException');
    assert.match(missing.json.exceptionMessage, /index\(es\) 3 missing/);
    const extra = await commit(2);
    assert.equal(extra.status, 400);
    assert.match(extra.json.exceptionMessage, /index\(es\) 2 beyond segmentcount 2/);
    const last = await raw(env(), 'POST', `${uri}?index=3`, { body: form('segment3', segments[3], 'parts.bin.segment3') });
    assert.equal(last.status, 202);
    // A segment sent again (a client's retry) replaces the first copy, even after it was appended somewhere.
    segments[0] = randomBytes(50_000);
    const resent = await raw(env(), 'POST', `${uri}?index=0`, { body: form('segment0', segments[0], 'parts.bin.segment0') });
    assert.equal(resent.status, 202);
    const done = await commit(4);
    assert.equal(done.status, 200);
    assert.match(done.json.fileId, /^[0-9a-f]{32}$/);
    assert.ok(done.json.token && done.json.sasUrl);
    // A repeated commit (the answer was lost) answers the same token; the session takes no more segments.
    const again = await commit(4);
    assert.equal(again.json.token, done.json.token);
    const late = await raw(env(), 'POST', `${uri}?index=4`, { body: form('segment4', segments[0], 'parts.bin.segment4') });
    assert.equal(late.status, 409);
    assertErrorObject(late.json);
    const back = await bytesThroughRecord(env().client(), done.json.token, 'parts.bin');
    assert.equal(back.sha, sha256(Buffer.concat(segments)));
    // The checksum is taken while segments arrive; the resent segment 0 must not leave the first copy in it.
    assert.equal(back.checksum, back.sha);
  });

  it('cancels a segmented session with 204; the session is gone afterwards', async () => {
    const client = env().client();
    const session = await client.uploads.openSession('cancel-me.bin');
    await client.uploads.uploadSegment(session.token, 0, randomBytes(1000), 'cancel-me.bin.segment0');
    await client.uploads.cancelSession(session.token);
    const again = await failure<ApiError>(() => client.uploads.cancelSession(session.token));
    assert.equal(again.status, 404);
    const segment = await failure<ApiError>(() => client.uploads.uploadSegment(session.token, 1, randomBytes(10), 'x.segment1'));
    assert.equal(segment.status, 404);
    const commit = await failure<ApiError>(() => client.uploads.commit(session.token, 'cancel-me.bin', 1));
    assert.equal(commit.status, 404);
    assert.ok(commit.exceptionType?.endsWith('NoDataFoundException'));
  });

  it('uses a token once: a second record from it is a 404 NoDataFoundException naming it; an unused one is discarded once', async () => {
    const client = env().client();
    const first = await client.uploads.upload({ filename: 'once.txt', data: Buffer.from('hello once') });
    await client.files.createRecordFromUpload({ token: first.token, title: 'token once' });
    const reuse = await failure<ApiError>(() => client.files.createRecordFromUpload({ token: first.token, title: 'token twice' }));
    assert.equal(reuse.status, 404);
    assert.ok(reuse.exceptionType?.endsWith('NoDataFoundException'));
    assert.ok(reuse.exceptionMessage?.includes(first.token));
    const discardUsed = await failure<ApiError>(() => client.uploads.discard(first.token));
    assert.equal(discardUsed.status, 404);

    const unused = await client.uploads.upload({ filename: 'unused.txt', data: Buffer.from('never used') });
    await client.uploads.discard(unused.token);
    const twice = await failure<ApiError>(() => client.uploads.discard(unused.token));
    assert.equal(twice.status, 404);
    const afterDiscard = await failure<ApiError>(() => client.files.createRecordFromUpload({ token: unused.token }));
    assert.equal(afterDiscard.status, 404);
  });

  it('takes the file body by PUT on the signed sasUrl; a tampered signature is a 403 error object', async () => {
    const client = env().client();
    const placeholder = await client.uploads.upload({ filename: 'sas.bin', data: Buffer.from('placeholder') });
    const body = randomBytes(300_000);
    await client.uploads.writeToSasUrl(placeholder.sasUrl!, { filename: 'sas.bin', data: body });
    const tampered = placeholder.sasUrl!.replace(/sig=./, (m) => (m.endsWith('A') ? 'sig=B' : 'sig=A'));
    const bad = await fetch(tampered, { method: 'PUT', body: new Uint8Array(10), headers: { 'User-Agent': USER_AGENT } });
    assert.equal(bad.status, 403);
    assertErrorObject(await bad.json(), 'AuthenticationFailedException');
    const otherFile = placeholder.sasUrl!.replace(/blobs\/[0-9a-f]{32}/, `blobs/${'0'.repeat(32)}`);
    assert.equal((await fetch(otherFile, { method: 'PUT', body: new Uint8Array(10) })).status, 403);
    const back = await bytesThroughRecord(client, placeholder.token, 'sas.bin');
    assert.equal(back.sha, sha256(body));
  });

  it(`uploads a file above ${SEGMENT_THRESHOLD / 2 ** 20} MiB from disk in parallel segments and its bytes come back identical`, async () => {
    const client = env().client();
    const file = tempFile('big.bin', SEGMENT_THRESHOLD + 5 * 2 ** 20 + 123);
    const progress: number[] = [];
    const result = await client.uploads.uploadFile(file.path, { segmentSize: 4 * 2 ** 20, concurrency: 3, onProgress: (p) => progress.push(p.sent) });
    assert.equal(result.segmented, true);
    assert.equal(result.segments, 7);
    assert.equal(progress.at(-1), result.size);
    assert.ok(progress.every((v, i) => i === 0 || v >= progress[i - 1]), 'progress only grows');
    // Reported as the bytes go out, not only when a segment is answered.
    assert.ok(progress.some((v) => v % (4 * 2 ** 20) !== 0 && v !== result.size), `progress within segments: ${progress.join(' ')}`);
    const back = await bytesThroughRecord(client, result.token, 'big.bin');
    assert.equal(back.size, result.size);
    assert.equal(back.sha, file.sha);
    assert.equal(back.checksum, file.sha);
  });

  it('segments broken off halfway, one while it was being read for the checksum and one before its turn, leave no trace once sent again', async () => {
    const setup = await raw(env(), 'POST', '/uploads/segments', { body: JSON.stringify({ filename: 'broken.bin' }), headers: { 'Content-Type': 'application/json' } });
    const uri = new URL(setup.json.uri).pathname;
    // Over the checksum's 1 MiB reads, so the reading has begun when a body breaks off.
    const segments = [0, 1, 2].map(() => randomBytes(3 * 2 ** 20 + 11));
    const token = await bearer(env());
    /** Sends the head and half the bytes of a segment, waits for the emulator to take them, and hangs up. */
    const breakOff = async (index: number) => {
      const boundary = `----broken${index}`;
      const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="segment${index}"; filename="broken.bin.segment${index}"\r\n\r\n`);
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const req = request(`${env().url}${uri}?index=${index}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          'API-Version': '1',
          'User-Agent': USER_AGENT,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': String(head.length + segments[index].length + tail.length),
        },
      });
      req.on('error', () => undefined);
      req.write(head);
      req.write(segments[index].subarray(0, segments[index].length / 2));
      await new Promise((resolve) => setTimeout(resolve, 300));
      req.destroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
    };
    await breakOff(0);
    await breakOff(2);
    const sent = await Promise.all([2, 1, 0].map((i) => raw(env(), 'POST', `${uri}?index=${i}`, { body: form(`segment${i}`, segments[i], `broken.bin.segment${i}`) })));
    assert.deepEqual(sent.map((r) => r.status), [202, 202, 202]);
    const done = await raw(env(), 'POST', `${uri}/commit`, { body: JSON.stringify({ filename: 'broken.bin', segmentcount: 3 }), headers: { 'Content-Type': 'application/json' } });
    assert.equal(done.status, 200);
    const back = await bytesThroughRecord(env().client(), done.json.token, 'broken.bin');
    assert.equal(back.sha, sha256(Buffer.concat(segments)));
    assert.equal(back.checksum, back.sha);
  });

  it('cancelled mid-upload: the client deletes its session, which then takes nothing more', async () => {
    const file = tempFile('cancel.bin', 6 * 2 ** 20);
    const client = env().client({ fetch: slowSegments(150) });
    const before = env().events.length;
    const controller = new AbortController();
    const err = await failure(() =>
      client.uploads.uploadFile(file.path, { segmentSize: 2 ** 20, concurrency: 1, segmented: true, signal: controller.signal, onProgress: (p) => p.sent > 0 && controller.abort(new Error('user cancelled')) }),
    );
    assert.match(String((err as Error).message), /user cancelled/);
    const events = env().events.slice(before);
    const del = events.find((e) => e.method === 'DELETE' && /\/uploads\/segments\//.test(e.url));
    assert.ok(del, 'the session was deleted');
    assert.equal(del.status, 204);
    const token = decodeURIComponent(/\/uploads\/segments\/([^/?]+)/.exec(del.url)![1]);
    const late = await failure<ApiError>(() => client.uploads.uploadSegment(token, 5, randomBytes(10), 'cancel.bin.segment5'));
    assert.equal(late.status, 404);
  });

  it('dam upload makes a record per file in a classification, and --record adds a new version', async () => {
    const client = env().client();
    const [classification] = (await client.classifications.list({ pageSize: 1 })).items;
    const a = tempFile('cli-a.bin', 40_000);
    const b = tempFile('cli-b.bin', 50_000);
    const made = await runDam(['upload', a.path, '--classification', String(classification.id), '--json', '--url', env().url]);
    assert.equal(made.code, 0, made.stderr);
    const [row] = JSON.parse(made.stdout) as { recordId: string; versionId: string; size: number }[];
    assert.equal(row.size, 40_000);
    assert.match(made.stderr, /100% \(39 KB of 39 KB, 1\/1 files\)/);
    const added = await runDam(['upload', b.path, '--record', row.recordId, '--url', env().url]);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, new RegExp(`record ${row.recordId}\tversion \\S+`));
    const latest = await client.files.latestVersion(row.recordId);
    assert.notEqual(String(latest!.id), row.versionId);
    const download = await client.files.download(latest!);
    const hash = createHash('sha256');
    for await (const chunk of download.body) hash.update(chunk as Buffer);
    assert.equal(hash.digest('hex'), b.sha);
    const bad = await runDam(['upload', join(dir, 'missing.bin'), '--url', env().url]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /not a readable file/);
  });
});

describeEachBackend('uploads with 2-second access tokens', { tokenTtl: 2 }, (env) => {
  it('answers 401 with the error object to a segment sent with an expired token', async () => {
    const token = await bearer(env());
    const setup = await raw(env(), 'POST', '/uploads/segments', { token, body: JSON.stringify({ filename: 'ttl.bin' }), headers: { 'Content-Type': 'application/json' } });
    assert.equal(setup.status, 200);
    await new Promise((r) => setTimeout(r, 2300));
    const res = await raw(env(), 'POST', `${new URL(setup.json.uri).pathname}?index=0`, { token, body: form('segment0', randomBytes(100), 'ttl.bin.segment0') });
    assert.equal(res.status, 401);
    assertErrorObject(res.json, 'UnauthorizedException');
  });

  it('continues an upload after a 401 with a fresh token', async () => {
    // The third segment is held 2.3 s after the client put its token in the header, longer than the token lives, so it
    // meets a 401 mid-upload whatever the clock and the machine's load (a clock running behind did not: the cache
    // counts expiry on its own clock, and renewed in time whenever the server's second-rounded expiry fell late).
    let held = false;
    const holdThirdSegment: FetchLike = async (url, init) => {
      if (!held && /\/uploads\/segments\/[^/?]+\?index=2\b/.test(url)) {
        held = true;
        await new Promise((r) => setTimeout(r, 2300));
      }
      const nodeFetch = (await import('node-fetch')).default as unknown as FetchLike;
      return nodeFetch(url, init);
    };
    const client = env().client({ fetch: holdThirdSegment });
    const file = tempFile('ttl-big.bin', 3 * 2 ** 20 + 7);
    const before = env().events.length;
    const result = await client.uploads.uploadFile(file.path, { segmentSize: 2 ** 19, concurrency: 1, segmented: true });
    const events = env().events.slice(before);
    assert.ok(events.some((e) => e.status === 401 && /\/uploads\/segments\//.test(e.url)), 'a segment met a 401');
    assert.equal(result.segments, 7);
    const back = await bytesThroughRecord(env().client(), result.token, 'ttl-big.bin');
    assert.equal(back.sha, file.sha);
  });

  it('refuses a sasUrl after it expired with a 403 error object', async () => {
    const client = env().client();
    const upload = await client.uploads.upload({ filename: 'expiring.bin', data: Buffer.from('x') });
    await new Promise((r) => setTimeout(r, 2300));
    const res = await fetch(upload.sasUrl!, { method: 'PUT', body: new Uint8Array(10), headers: { 'User-Agent': USER_AGENT } });
    assert.equal(res.status, 403);
    const body = await res.json();
    assertErrorObject(body, 'AuthenticationFailedException');
    assert.match(body.exceptionMessage, /expired/);
  });
});

describeEachBackend('uploads while the service throttles', { faults: { rate: 0.4, kinds: ['429'] } }, (env) => {
  it('retries throttled segment, commit and single requests with a fresh body each time; the bytes come back identical', async () => {
    // Sixteen upload requests at a 40 % fault rate: some are throttled, and ten retries each see them through.
    const client = env().client({ retry: { retries: 10 } });
    const file = tempFile('throttled.bin', 3 * 2 ** 20 + 5);
    const before = env().events.length;
    const result = await client.uploads.uploadFile(file.path, { segmentSize: 2 ** 18, segmented: true });
    const small = await client.uploads.upload({ filename: 'throttled-small.bin', data: randomBytes(2000) });
    assert.ok(small.token);
    const events = env().events.slice(before);
    assert.ok(events.some((e) => e.status === 429 && /\/uploads/.test(e.url)), 'some upload request was throttled');
    const back = await bytesThroughRecord(client, result.token, 'throttled.bin');
    assert.equal(back.sha, file.sha);
  });
});
