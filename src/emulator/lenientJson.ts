// Request bodies as the live ASP.NET service reads them (real-service-notes): an empty body is no body, single-quoted
// and other JSON5 spellings are accepted, and what is not UTF-8 or not JSON is refused with the error object. Keys
// that would reach an object's prototype are dropped.
import JSON5 from 'json5';
import secureJson from 'secure-json-parse';
import { errors } from './errors';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** `undefined` for an empty body; `lenient` hears what needed leniency beyond strict JSON. */
export function parseLenientJson(bytes: Buffer, lenient: (what: string) => void = () => undefined): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw errors.malformedJson(`it is not valid UTF-8 (byte ${firstInvalidUtf8(bytes)} of ${bytes.length}).`);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') return undefined;
  try {
    return secureJson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' });
  } catch (strictError) {
    let relaxed: unknown;
    try {
      relaxed = JSON5.parse(text);
    } catch {
      throw errors.malformedJson((strictError as Error).message.slice(0, 200));
    }
    lenient('JSON read leniently (single quotes or other JSON5 syntax), as the service does');
    return withoutPrototypeKeys(relaxed, 0);
  }
}

/** A copy with only own, ordinary keys: `__proto__` and `constructor.prototype` never reach an object. */
function withoutPrototypeKeys(value: unknown, depth: number): unknown {
  if (depth > 1000) throw errors.malformedJson('it is nested too deeply.');
  if (Array.isArray(value)) return value.map((v) => withoutPrototypeKeys(v, depth + 1));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === '__proto__' || key === 'prototype' || key === 'constructor') continue;
    out[key] = withoutPrototypeKeys((value as Record<string, unknown>)[key], depth + 1);
  }
  return out;
}

/** Offset of the first byte that breaks UTF-8 (for the message): a prefix that fails keeps failing when longer. */
function firstInvalidUtf8(bytes: Buffer): number {
  const decodes = (end: number) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, end), { stream: true });
      return true;
    } catch {
      return false;
    }
  };
  let ok = 0;
  let bad = bytes.length;
  while (bad - ok > 1) {
    const mid = (ok + bad) >> 1;
    if (decodes(mid)) ok = mid;
    else bad = mid;
  }
  return ok;
}
