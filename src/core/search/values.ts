// How values of a search expression are spelled, read the same way by the editor, `dam lint` and the emulator:
// numbers, booleans, GUIDs and the dates seen in the wild. By char codes where the checks run per value of a file.

/**
 * `/^-?\d{1,15}(\.\d{1,10})?$/` by char codes (per numeric value of a file): the numbers a search compares, which
 * a double holds exactly enough; the emulator refuses what this refuses.
 */
export function isSearchNumber(text: string): boolean {
  let i = text.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  const intStart = i;
  while (isDigit(text.charCodeAt(i))) i++;
  if (i === intStart || i - intStart > 15) return false;
  if (i === text.length) return true;
  if (text.charCodeAt(i) !== 46 /* . */) return false;
  const fracStart = ++i;
  while (isDigit(text.charCodeAt(i))) i++;
  return i > fracStart && i - fracStart <= 10 && i === text.length;
}

/** `/^(true|false|1|0)$/i`: a case-insensitive regular expression without the `u` flag folds ASCII only. */
export function isBoolean(text: string): boolean {
  switch (text.length) {
    case 1:
      return text === '1' || text === '0';
    case 4:
      return sameAscii(text, 'true');
    case 5:
      return sameAscii(text, 'false');
    default:
      return false;
  }
}

/** Whether `text` is `lower` (lower-case ASCII letters) in any ASCII case. */
export function sameAscii(text: string, lower: string): boolean {
  for (let i = 0; i < lower.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== lower.charCodeAt(i) && c + 32 !== lower.charCodeAt(i)) return false;
  }
  return true;
}

export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * `/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,7})?)?(Z|[+-]\d{2}:?\d{2})?)?$/` by char codes:
 * a date, optionally `T` time with minutes, seconds, up to seven fraction digits and a zone.
 */
export function isIsoDate(text: string): boolean {
  const n = text.length;
  if (n < 10 || !digitsAt(text, 0, 4) || text.charCodeAt(4) !== 45 || !digitsAt(text, 5, 2) || text.charCodeAt(7) !== 45 || !digitsAt(text, 8, 2)) return false;
  if (n === 10) return true;
  if (text.charCodeAt(10) !== 84 /* T */ || !digitsAt(text, 11, 2) || text.charCodeAt(13) !== 58 || !digitsAt(text, 14, 2)) return false;
  let i = 16;
  if (text.charCodeAt(i) === 58 /* : */) {
    if (!digitsAt(text, i + 1, 2)) return false;
    i += 3;
    if (text.charCodeAt(i) === 46 /* . */) {
      const from = ++i;
      while (i - from < 7 && isDigit(text.charCodeAt(i))) i++;
      if (i === from) return false;
    }
  }
  const z = text.charCodeAt(i);
  if (z === 90 /* Z */) i++;
  else if (z === 43 || z === 45 /* + - */) {
    if (!digitsAt(text, i + 1, 2)) return false;
    i += 3;
    if (text.charCodeAt(i) === 58) i++;
    if (!digitsAt(text, i, 2)) return false;
    i += 2;
  }
  return i === n;
}

/** Whether `text[at, at + count)` are ASCII digits. */
export function digitsAt(text: string, at: number, count: number): boolean {
  for (let i = at; i < at + count; i++) if (!isDigit(text.charCodeAt(i))) return false;
  return true;
}

/**
 * `M/D/YYYY`, optionally with a time as .NET writes a DateTime in en-US (`11/27/2026 6:16:51 AM`: 12-hour clock with
 * AM/PM, seconds optional) or on a 24-hour clock. Groups: month, day, year, hour, minute, second, AM/PM.
 */
export const LEGACY_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?(?: ?([AaPp][Mm]))?)?$/;

/** The time of a legacy date in milliseconds after midnight; undefined when it has none, NaN when it is not a time. */
export function legacyTime(legacy: RegExpExecArray): number | undefined {
  if (legacy[4] === undefined) return undefined;
  let h = Number(legacy[4]);
  const min = Number(legacy[5]);
  const sec = Number(legacy[6] ?? 0);
  const half = legacy[7]?.toUpperCase();
  if (half) {
    if (h < 1 || h > 12) return NaN;
    h = (h % 12) + (half === 'PM' ? 12 : 0);
  }
  if (h > 23 || min > 59 || sec > 59) return NaN;
  return ((h * 60 + min) * 60 + sec) * 1000;
}

/** `today` in any case: what `toLowerCase() === 'today'` accepts (no non-ASCII character lower-cases to these letters). */
export function isToday(text: string): boolean {
  return text.length === 5 && sameAscii(text, 'today');
}

/** The number written by the ASCII digits `text[start, end)` (the caller has matched them). */
export function digits(text: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) n = n * 10 + (text.charCodeAt(i) - 48);
  return n;
}

/** A date value as a search compares it: a day (`start` inclusive, `end` exclusive) or an instant (`start` = `end`). */
export interface SearchDate {
  start: Date;
  end: Date;
  dateOnly: boolean;
}

const DAY_MS = 86_400_000;

/**
 * Reads the date spellings seen in the wild (real-service-notes): `today`, ISO 8601 dates, ISO 8601 times with or
 * without a zone (none means UTC), and old clients' `M/D/YYYY`. Undefined for anything else, or a date that does not
 * exist; `checkDate` below reports exactly these as errors, so the emulator and `dam lint` agree.
 */
export function parseSearchDate(text: string, now: Date): SearchDate | undefined {
  const t = text.trim();
  if (isToday(t)) {
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    return { start, end: new Date(start.getTime() + DAY_MS), dateOnly: true };
  }
  let y: number;
  let m: number;
  let d: number;
  if (isIsoDate(t)) {
    y = digits(t, 0, 4);
    m = digits(t, 5, 7);
    d = digits(t, 8, 10);
    if (t.length > 10) {
      if (m < 1 || m > 12 || d < 1 || d > daysIn(y, m)) return undefined;
      const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(t) ? t : `${t}Z`;
      const instant = new Date(zoned.replace(/(\.\d{3})\d+/, '$1'));
      return Number.isNaN(instant.getTime()) ? undefined : { start: instant, end: instant, dateOnly: false };
    }
  } else {
    const legacy = LEGACY_DATE.exec(t);
    if (!legacy) return undefined;
    y = Number(legacy[3]);
    m = Number(legacy[1]);
    d = Number(legacy[2]);
    const time = legacyTime(legacy);
    if (time !== undefined) {
      // No zone is written: read as UTC, as an ISO time without a zone is.
      if (Number.isNaN(time) || m < 1 || m > 12 || d < 1 || d > daysIn(y, m)) return undefined;
      const instant = new Date(Date.UTC(y, m - 1, d) + time);
      return { start: instant, end: instant, dateOnly: false };
    }
  }
  if (m < 1 || m > 12 || d < 1 || d > daysIn(y, m)) return undefined;
  const start = new Date(Date.UTC(y, m - 1, d));
  return { start, end: new Date(start.getTime() + DAY_MS), dateOnly: true };
}

/**
 * 32 hex digits in groups of 8-4-4-4-12, each dash optional, optionally in braces (either brace
 * alone too). By char codes: the check runs for every GUID value of a file.
 */
export function isGuid(text: string): boolean {
  let i = 0;
  let n = text.length;
  if (n > 0 && text.charCodeAt(0) === 123 /* { */) i++;
  if (n > i && text.charCodeAt(n - 1) === 125 /* } */) n--;
  for (let g = 0; g < GUID_GROUPS.length; g++) {
    if (g > 0 && i < n && text.charCodeAt(i) === 45 /* - */) i++;
    for (let k = 0; k < GUID_GROUPS[g]; k++, i++) if (i >= n || !isHex(text.charCodeAt(i))) return false;
  }
  return i === n;
}

const GUID_GROUPS = [8, 4, 4, 4, 12];

/** A GUID as the service stores it: 32 lower-case hex digits, braces and dashes dropped (dashed input is normalised). */
export function guidKey(text: string): string {
  return text.trim().replace(/[{}-]/g, '').toLowerCase();
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

export function daysIn(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}
