// The client's upload bodies: the one-part multipart/form-data body it builds itself (read back by busboy, the
// parser behind the emulator's @fastify/multipart) and the raw blob body, both streamed from a real file in a
// temporary folder, and once over a real socket, where read buffers are reused as the socket lets go of them; and
// the default size and number of segments in flight.
import { strict as assert } from 'node:assert';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import Busboy from '@fastify/busboy';
import { FileRange, defaultConcurrency, defaultSegmentSize, multipartFileBody } from '../../../src/api/uploads';

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

interface Part {
  field: string;
  filename: string;
  bytes: Buffer;
}

/** Parses a multipart body the way the emulator does (preservePath, as its upload routes ask). */
function parse(contentType: string, body: Buffer): Promise<Part[]> {
  return new Promise((resolve, reject) => {
    const parts: Part[] = [];
    const parser = new Busboy({ headers: { 'content-type': contentType }, preservePath: true });
    parser.on('file', (field, file, filename) => {
      const chunks: Buffer[] = [];
      file.on('data', (c: Buffer) => chunks.push(c));
      file.on('end', () => parts.push({ field, filename, bytes: Buffer.concat(chunks) }));
    });
    parser.on('finish', () => resolve(parts));
    parser.on('error', reject);
    parser.end(body);
  });
}

describe('upload bodies', () => {
  let dir: string;
  let path: string;
  let bytes: Buffer;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'dam-upload-body-'));
    path = join(dir, 'file.bin');
    // Over three read chunks, not a multiple of one, so chunk edges and the last short read are both crossed.
    bytes = randomBytes(3 * 2 ** 20 + 12_345);
    writeFileSync(path, bytes);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a file part streams from disk, its Content-Length exact, and parses back to the same bytes', async () => {
    const file = await FileRange.open(path);
    const { headers, body } = multipartFileBody('file1', 'report final.bin', file);
    const sent = await collect(body());
    assert.equal(Number(headers['Content-Length']), sent.length);
    const parts = await parse(headers['Content-Type'], sent);
    assert.equal(parts.length, 1);
    assert.equal(parts[0].field, 'file1');
    assert.equal(parts[0].filename, 'report final.bin');
    assert.ok(parts[0].bytes.equals(bytes));
  });

  it('a slice sends only its range; each attempt gets a body of its own', async () => {
    const part = (await FileRange.open(path)).slice(2 ** 20 - 7, 2 * 2 ** 20 + 99);
    const { headers, body } = multipartFileBody('segment1', 'file.bin.segment1', part);
    const first = await collect(body());
    const again = await collect(body());
    assert.ok(first.equals(again), 'a retry sends the same bytes');
    const [parsed] = await parse(headers['Content-Type'], first);
    assert.ok(parsed.bytes.equals(bytes.subarray(2 ** 20 - 7, 2 * 2 ** 20 + 99)));
  });

  it('bytes in memory and an empty file are sent as they are', async () => {
    const data = randomBytes(1000);
    const inMemory = multipartFileBody('file1', 'a.bin', data);
    assert.ok((await parse(inMemory.headers['Content-Type'], await collect(inMemory.body())))[0].bytes.equals(data));

    writeFileSync(join(dir, 'empty.bin'), '');
    const empty = multipartFileBody('file1', 'empty.bin', await FileRange.open(join(dir, 'empty.bin')));
    const sent = await collect(empty.body());
    assert.equal(Number(empty.headers['Content-Length']), sent.length);
    const [parsed] = await parse(empty.headers['Content-Type'], sent);
    assert.equal(parsed.bytes.length, 0);
  });

  it('names are escaped as browsers do, so a line break cannot start a header of its own', async () => {
    const { headers, body } = multipartFileBody('file1', 'two\r\nlines.bin', randomBytes(10));
    const sent = await collect(body());
    assert.doesNotMatch(sent.toString('latin1'), /two\r\nlines/);
    const [parsed] = await parse(headers['Content-Type'], sent);
    assert.equal(parsed.filename, 'two%0D%0Alines.bin');
  });

  it('a file changed after it was opened fails the upload instead of sending mixed bytes', async () => {
    const changing = join(dir, 'changing.bin');
    writeFileSync(changing, randomBytes(100));
    const file = await FileRange.open(changing);
    await new Promise((r) => setTimeout(r, 20));
    writeFileSync(changing, randomBytes(100));
    await assert.rejects(collect(multipartFileBody('file1', 'changing.bin', file).body()), /changed while it was being uploaded/);
  });

  it('sent through node-fetch over a real socket to a slow reader, a file reuses a few read buffers and arrives whole', async () => {
    const big = join(dir, 'big.bin');
    const content = randomBytes(8 * 2 ** 20 + 3);
    writeFileSync(big, content);
    // The server reads slowly, so written chunks wait in the socket while the next ones are read from disk.
    const server = createServer(async (req, res) => {
      const hash = createHash('sha256');
      let size = 0;
      for await (const chunk of req) {
        hash.update(chunk as Buffer);
        size += (chunk as Buffer).length;
        await new Promise((r) => setTimeout(r, 1));
      }
      res.end(JSON.stringify({ size, sha: hash.digest('hex') }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const file = await FileRange.open(big);
      const { headers, body } = multipartFileBody('file1', 'big.bin', file);
      const expected = await collect(body());
      const reading = file.buffers.allocated;
      const fetch = (await import('node-fetch')).default;
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { method: 'POST', headers, body: body() });
      assert.deepEqual(await res.json(), { size: expected.length, sha: createHash('sha256').update(expected).digest('hex') });
      // Nine 1 MiB reads; a buffer comes back once written, so only those in the socket at once were new.
      const allocated = file.buffers.allocated - reading;
      assert.ok(allocated >= 1 && allocated <= 4, `${allocated} buffers allocated for 9 reads`);
    } finally {
      server.close();
    }
  });

  it('two segments of 64 MiB in flight to a service on this machine, four of 16 MiB across a network', () => {
    for (const url of ['http://127.0.0.1:7070', 'http://localhost:7070/', 'http://[::1]:7070']) {
      assert.equal(defaultConcurrency(url), 2, url);
      assert.equal(defaultSegmentSize(url), 64 * 2 ** 20, url);
    }
    assert.equal(defaultConcurrency('https://tenant.dam.example.com'), 4);
    assert.equal(defaultSegmentSize('https://tenant.dam.example.com'), 16 * 2 ** 20);
  });
});
