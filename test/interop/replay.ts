// Raw HTTP as public clients send it: no use of our own client, each request written out with the headers and body
// the client's source sets (cited beside each test). One emulator per backend, as the conformance suite does.
import { strict as assert } from 'node:assert';
import { EMULATOR_CLIENT } from '../../src/core/contract';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body as JSON, when it is JSON. */
  json: Record<string, unknown> & { items?: Record<string, unknown>[] };
}

/** Sends one request exactly as given: method, absolute URL or path on `origin`, headers, body (string, bytes or FormData). */
export async function send(origin: string, method: string, path: string, headers: Record<string, string> = {}, body?: BodyInit): Promise<Answer> {
  const res = await fetch(path.startsWith('http') ? path : `${origin}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let json: Answer['json'];
  try {
    json = text ? (JSON.parse(text) as Answer['json']) : {};
  } catch {
    json = {};
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** `grant_type=client_credentials&…` as a form, the way every client in the catalogue asks for its token. */
export async function clientCredentialsToken(origin: string, extra: Record<string, string> = { scope: 'api' }): Promise<string> {
  const answer = await send(
    origin,
    'POST',
    '/login/connect/token',
    { 'Content-Type': 'application/x-www-form-urlencoded' },
    `grant_type=client_credentials&client_id=${EMULATOR_CLIENT.clientId}&client_secret=${EMULATOR_CLIENT.clientSecret}${Object.entries(extra)
      .map(([k, v]) => `&${k}=${v}`)
      .join('')}`,
  );
  assert.equal(answer.status, 200, answer.text);
  return String(answer.json.access_token);
}

/** Asserts a status and, for a refusal, the spec's error object; returns the answer for further checks. */
export function expectStatus(answer: Answer, status: number): Answer {
  assert.equal(answer.status, status, `expected ${status}, got ${answer.status}: ${answer.text.slice(0, 400)}`);
  if (status >= 400) assert.equal(typeof answer.json.exceptionMessage, 'string');
  return answer;
}

/** A multipart body as clients build it: one file part with its name and file name. */
export function onePart(part: string, filename: string, bytes: Uint8Array, type = 'application/octet-stream'): FormData {
  const form = new FormData();
  form.append(part, new Blob([new Uint8Array(bytes)], { type }), filename);
  return form;
}
