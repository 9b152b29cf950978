// The client's upload bodies: the one-part multipart/form-data body it builds itself (read back by busboy, the
// parser behind the emulator's @fastify/multipart) and the raw blob body, both streamed from a real file in a
// temporary folder; and the default number of segments in flight.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import Busboy from '@fastify/busboy';
import { FileRange, defaultConcurrency, multipartFileBody } from '../../../src/api/uploads';

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

  it('two segments in flight to a service on this machine, four across a network', () => {
    assert.equal(defaultConcurrency('http://127.0.0.1:7070'), 2);
    assert.equal(defaultConcurrency('http://localhost:7070/'), 2);
    assert.equal(defaultConcurrency('http://[::1]:7070'), 2);
    assert.equal(defaultConcurrency('https://tenant.dam.example.com'), 4);
  });
});
