// Requests as the live ASP.NET service reads them (real-service-notes), in one place: an empty body is no body,
// single-quoted and other JSON5 spellings are accepted, and what is not UTF-8 or not JSON is refused with the error
// object; keys that would reach an object's prototype are dropped; property names bind in any case and scalars
// convert as Newtonsoft converts them (`lenientKeys`); a repeated query parameter binds its first value.
import JSON5 from 'json5';
import secureJson from 'secure-json-parse';
import type { z } from 'zod';
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

/** Unwraps optional, nullable, default, catch, readonly and pipe (its input side) down to the schema that has a shape. */
function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (let i = 0; i < 20; i++) {
    const def = (s as unknown as { _zod: { def: { type: string; innerType?: z.ZodType; in?: z.ZodType; getter?: () => z.ZodType } } })._zod.def;
    if (def.innerType) s = def.innerType;
    else if (def.type === 'pipe' && def.in) s = def.in;
    else if (def.type === 'lazy' && def.getter) s = def.getter();
    else return s;
  }
  return s;
}

function defOf(schema: z.ZodType): Record<string, unknown> & { type: string } {
  return (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
}

/**
 * ASP.NET binds JSON property names case-insensitively (real-service-notes: `filename` / `FileName`): renames a key
 * to the schema's spelling when they differ only in case, at every depth the schema describes. `renamed` collects
 * what was renamed, for the request inspector. A key spelled exactly as in the schema always wins.
 */
export function lenientKeys(schema: z.ZodType, value: unknown, renamed: string[] = [], path = ''): unknown {
  const s = unwrap(schema);
  const def = defOf(s);
  if (def.type === 'array' && Array.isArray(value)) {
    return value.map((item, i) => lenientKeys(def.element as z.ZodType, item, renamed, `${path}[${i}]`));
  }
  if (def.type === 'union' && value !== null && typeof value === 'object') {
    const objects = (def.options as z.ZodType[]).filter((o) => defOf(unwrap(o)).type === 'object');
    return objects.length === 1 ? lenientKeys(objects[0], value, renamed, path) : value;
  }
  if (def.type === 'record' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = lenientKeys(def.valueType as z.ZodType, v, renamed, `${path}.${k}`);
    return out;
  }
  // Newtonsoft reads "true" as a boolean and "12" as a number where the model has one (`"logRequest":"true"`).
  if (def.type === 'boolean' && typeof value === 'string' && /^(true|false)$/i.test(value.trim())) {
    renamed.push(`${path || 'value'}: "${value}" read as a boolean`);
    return value.trim().toLowerCase() === 'true';
  }
  if (def.type === 'number' && typeof value === 'string' && /^-?\d{1,15}(\.\d+)?$/.test(value.trim())) {
    renamed.push(`${path || 'value'}: "${value}" read as a number`);
    return Number(value);
  }
  // … and a number or a boolean as text where the model has a string (`"title": 123`).
  if (def.type === 'string' && (typeof value === 'number' || typeof value === 'boolean')) {
    renamed.push(`${path || 'value'}: ${value} read as the text "${value}"`);
    return String(value);
  }
  if (def.type !== 'object' || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const shape = def.shape as Record<string, z.ZodType>;
  const byLower = new Map<string, string>();
  for (const key of Object.keys(shape)) byLower.set(key.toLowerCase(), key);
  const out: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  for (const [key, v] of Object.entries(source)) {
    const exact = Object.hasOwn(shape, key);
    const target = exact ? key : byLower.get(key.toLowerCase());
    if (target === undefined) {
      if (!Object.hasOwn(out, key)) out[key] = v;
      continue;
    }
    // The exact spelling wins over a case-variant of it sent in the same object.
    if (!exact && Object.hasOwn(source, target)) continue;
    if (!exact) renamed.push(`${path ? `${path}.` : ''}${key} → ${target}`);
    out[target] = lenientKeys(shape[target], v, renamed, path ? `${path}.${target}` : target);
  }
  return out;
}

/**
 * ASP.NET binds a scalar query parameter that came more than once (`?pageSize=1&pageSize=2`) to its first value;
 * a parameter the schema takes as a list keeps them all. Names are already in the schema's spelling here.
 */
export function firstOfRepeated(schema: z.ZodType, value: unknown, renamed: string[] = []): unknown {
  const def = defOf(unwrap(schema));
  if (def.type !== 'object' || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const shape = def.shape as Record<string, z.ZodType>;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [key, v] of Object.entries(out)) {
    if (!Array.isArray(v) || !Object.hasOwn(shape, key) || defOf(unwrap(shape[key])).type === 'array') continue;
    renamed.push(`${key}: sent ${v.length} times, the first value read`);
    out[key] = v[0];
  }
  return out;
}
