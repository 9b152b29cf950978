// Shared by the files and renditions suites: real images made with the image library, and a single upload
// sent as a browser or curl would (`file1` multipart part), so the suites do not depend on the upload client.
import { strict as assert } from 'node:assert';
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
