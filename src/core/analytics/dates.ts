// Dates of analytics queries: the accepted absolute forms, Cube's relative ranges, and their resolution to half-open bounds.

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/;

/** Parses `YYYY-MM-DD` or `YYYY-MM-DDTHH:mm[:ss[.SSS]]` (wall time, no zone); undefined when invalid. */
export function parseQueryDate(text: string): { date: Date; dateOnly: boolean } | undefined {
  const m = DATE_RE.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map((v) => (v === undefined ? 0 : Number(v)));
  // `.5` is half a second: pad the fraction to milliseconds.
  const ms = m[7] === undefined ? 0 : Number(m[7].padEnd(3, '0'));
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s, ms));
  // Date.UTC rolls 2025-02-30 over to March; a real date survives the round trip.
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return undefined;
  return { date, dateOnly: m[4] === undefined };
}

const RELATIVE_RE = /^(?:(today|yesterday)|(this|last) (week|month|quarter|year)|last (\d+) (day|week|month|quarter|year)s?)$/i;

export function isRelativeDateRange(text: string): boolean {
  return RELATIVE_RE.test(text.trim());
}

/** Half-open bounds `[from, to)` as wall-time ISO strings without a zone (`2025-01-01T00:00:00.000`). */
export interface DateBounds {
  from: string;
  to: string;
}

const DAY = 86400000;

function iso(d: Date): string {
  return d.toISOString().slice(0, 23);
}

function startOf(unit: string, d: Date): Date {
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (unit) {
    case 'week': {
      // Cube's weeks start on Monday (ISO).
      const day = Date.UTC(y, m, d.getUTCDate());
      const dow = (new Date(day).getUTCDay() + 6) % 7;
      return new Date(day - dow * DAY);
    }
    case 'month':
      return new Date(Date.UTC(y, m, 1));
    case 'quarter':
      return new Date(Date.UTC(y, m - (m % 3), 1));
    case 'year':
      return new Date(Date.UTC(y, 0, 1));
    default:
      return new Date(Date.UTC(y, m, d.getUTCDate()));
  }
}

function add(unit: string, d: Date, n: number): Date {
  switch (unit) {
    case 'week':
      return new Date(d.getTime() + 7 * n * DAY);
    case 'month':
      return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, d.getUTCDate()));
    case 'quarter':
      return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 3 * n, d.getUTCDate()));
    case 'year':
      return new Date(Date.UTC(d.getUTCFullYear() + n, d.getUTCMonth(), d.getUTCDate()));
    default:
      return new Date(d.getTime() + n * DAY);
  }
}

/** Bounds of one date value used as an inclusive end: a whole day for a date, one millisecond for a date-time. */
function inclusiveEnd(text: string): string | undefined {
  const p = parseQueryDate(text);
  if (!p) return undefined;
  return iso(new Date(p.date.getTime() + (p.dateOnly ? DAY : 1)));
}

export function dateStart(text: string): string | undefined {
  const p = parseQueryDate(text);
  return p ? iso(p.date) : undefined;
}

export function dateEndExclusive(text: string): string | undefined {
  return inclusiveEnd(text);
}

/**
 * Resolves a `dateRange` (two dates, inclusive as in Cube, or a relative phrase evaluated at `now`)
 * to half-open bounds; undefined when it is not one.
 */
export function resolveDateRange(range: string | readonly string[], now: Date): DateBounds | undefined {
  if (Array.isArray(range)) {
    if (range.length !== 2) return undefined;
    const from = dateStart(range[0]);
    const to = inclusiveEnd(range[1]);
    if (!from || !to || from >= to) return undefined;
    return { from, to };
  }
  const m = RELATIVE_RE.exec(String(range).trim());
  if (!m) return undefined;
  const today = startOf('day', now);
  if (m[1]) {
    const start = m[1].toLowerCase() === 'today' ? today : add('day', today, -1);
    return { from: iso(start), to: iso(add('day', start, 1)) };
  }
  if (m[2]) {
    const unit = m[3].toLowerCase();
    const current = startOf(unit, now);
    const start = m[2].toLowerCase() === 'this' ? current : add(unit, current, -1);
    return { from: iso(start), to: iso(add(unit, start, 1)) };
  }
  // `last N days` ends with today, as in Cube.
  const n = Number(m[4]);
  const unit = m[5].toLowerCase();
  const end = add('day', today, 1);
  return { from: iso(add(unit, end, -n)), to: iso(end) };
}
