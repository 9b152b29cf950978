// Shared by the files and renditions suites: real images made with the image library, and a single upload
// sent as a browser or curl would (`file1` multipart part), so the suites do not depend on the upload client.
import { strict as assert } from 'node:assert';
import { deflateSync } from 'node:zlib';
import { Jimp } from 'jimp';
import type { DamClient } from '../../src/api/client';
import { USER_AGENT } from './helpers';

/** A white picture with a red disc in the middle: a subject on a plain background. */
export async function discPicture(width: number, height: number, format: 'image/png' | 'image/jpeg' = 'image/png'): Promise<Buffer> {
  const image = new Jimp({ width, height, color: 0xffffffff });
  const r = Math.min(width, height) / 4;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if ((x - width / 2) ** 2 + (y - height / 2) ** 2 < r * r) image.setPixelColor(0xd02020ff, x, y);
    }
  }
  return format === 'image/png' ? image.getBuffer('image/png') : image.getBuffer('image/jpeg', { quality: 90 });
}

/** POST {upload_url}/uploads with one `file1` part; answers the upload token. */
export async function uploadBytes(client: DamClient, filename: string, bytes: Uint8Array): Promise<string> {
  const form = new FormData();
  form.append('file1', new Blob([new Uint8Array(bytes)]), filename);
  const res = await fetch(`${client.profile.endpoints.upload.replace(/\/+$/, '')}/uploads`, {
    method: 'POST',
    body: form,
    headers: { Authorization: `Bearer ${await client.tokens.getToken()}`, 'API-Version': '1', Accept: 'application/json', 'User-Agent': USER_AGENT },
  });
  const body = (await res.json()) as { token?: string };
  assert.equal(res.status, 200, `upload answered ${res.status}: ${JSON.stringify(body)}`);
  assert.ok(body.token);
  return body.token;
}

export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}

function crc32(bytes: Buffer): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/**
 * A PNG (8-bit RGB) whose header declares width × height; `idat` is the compressed pixel data, by default all rows of
 * a flat grey (highly compressible: a 24-megapixel picture is a few hundred KB, and decoding it is still all the work).
 */
export function pngDeclaring(width: number, height: number, idat?: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  let data = idat;
  if (!data) {
    const row = Buffer.alloc(1 + width * 3, 0x80);
    row[0] = 0;
    data = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)), { level: 9 });
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', data), chunk('IEND', Buffer.alloc(0))]);
}

/** The decompression bomb: 69 bytes whose header declares 30000×30000 pixels (3.6 GB decoded as RGBA). */
export function bombPng(): Buffer {
  return pngDeclaring(30000, 30000, Buffer.concat([deflateSync(Buffer.alloc(1)), Buffer.alloc(3)]));
}
