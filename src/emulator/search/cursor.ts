// Opaque, signed cursors bound to the sort, the filter and the tenant of the search that made them.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { errors } from '../errors';

interface CursorBody {
  v: 1;
  /** Hash of the canonical filter (expression, parameters, options). */
  f: string;
  /** Hash of the sort. */
  s: string;
  /** Offset of the next page. */
  o: number;
}

export const fingerprint = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 22);

export function encodeCursor(secret: string, filter: unknown, sort: unknown, offset: number): string {
  const body: CursorBody = { v: 1, f: fingerprint(filter), s: fingerprint(sort), o: offset };
  const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
  const mac = createHmac('sha256', secret).update(payload).digest('base64url');
  return `${payload}.${mac}`;
}

/** Returns the offset a cursor points at, or throws 400 when it is forged, from another tenant, or for another query. */
export function decodeCursor(secret: string, cursor: string, filter: unknown, sort: unknown): number {
  const [payload, mac, extra] = cursor.split('.');
  if (!payload || !mac || extra !== undefined || cursor.length > 500) throw errors.invalidCursor('The cursor is malformed.');
  const expected = createHmac('sha256', secret).update(payload).digest();
  const given = Buffer.from(mac, 'base64url');
  // A cursor signed with another tenant's secret fails here.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw errors.invalidCursor('The cursor is not valid for this tenant.');
  let body: CursorBody;
  try {
    body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as CursorBody;
  } catch {
    throw errors.invalidCursor('The cursor is malformed.');
  }
  if (body.f !== fingerprint(filter)) throw errors.invalidCursor('The cursor was created for a different filter.');
  if (body.s !== fingerprint(sort)) throw errors.invalidCursor('The cursor was created for a different sort.');
  if (!Number.isInteger(body.o) || body.o < 0) throw errors.invalidCursor('The cursor is malformed.');
  return body.o;
}
