// Naive project-local date-times (`YYYY-MM-DDThh:mm:ss`) and working-time arithmetic on a work calendar,
// where one working day counts as 8 hours (the spec's duration rule).

export const MINUTES_PER_WORKDAY = 480;
const MINUTE = 60_000;
const DAY = 86_400_000;

/** A project's work schedule. Days are 0 = Sunday … 6 = Saturday; every working day is 8 hours long. */
export interface WorkCalendar {
  id: number;
  name: string;
  workDays: readonly number[];
  /** Minutes after midnight at which the working day starts (540 = 09:00). */
  dayStartMinute: number;
}

const NAIVE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

/**
 * Parses the spec's date format into milliseconds on a zone-less time line (UTC arithmetic stands in for
 * the project's own zone, which has no daylight jumps inside a naive value). Rejects impossible dates
 * such as Feb 30, which `Date` would silently roll over.
 */
export function parseNaive(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const m = NAIVE.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  if (h > 23 || mi > 59 || s > 59) return undefined;
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return undefined;
  return ms;
}

export function formatNaive(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/** The calendar day of `ms` at `minute` minutes after midnight. */
export function atMinuteOfDay(ms: number, minute: number): number {
  return floorDay(ms) + minute * MINUTE;
}

function floorDay(ms: number): number {
  return Math.floor(ms / DAY) * DAY;
}

/**
 * The weekday by arithmetic (1970-01-01 was a Thursday), not by `Date`: past `Date`'s range (±8.64e15 ms)
 * `getUTCDay()` is NaN, no day is a working day, and the walks below would never end (issue 27: a
 * 99,999,999-day duration hung the extension host).
 */
function isWorkDay(cal: WorkCalendar, day: number): boolean {
  const weekday = (((Math.floor(day / DAY) + 4) % 7) + 7) % 7;
  return cal.workDays.includes(weekday);
}

/**
 * Instants this arithmetic accepts: `Date`'s own range. Within it every step of a day is exact, so each walk
 * below ends after a whole-week jump and at most two weeks of days; outside it (or for a NaN) the answer is NaN.
 */
const LIMIT = 8.64e15;
function inRange(...values: number[]): boolean {
  return values.every((v) => Number.isFinite(v) && Math.abs(v) <= LIMIT);
}
function within(ms: number): number {
  return inRange(ms) ? ms : Number.NaN;
}

function weekCapacity(cal: WorkCalendar): number {
  return cal.workDays.length * MINUTES_PER_WORKDAY * MINUTE;
}

/** Working minutes between two instants (0 when `to` is not after `from`). */
export function workingMinutesBetween(from: number, to: number, cal: WorkCalendar): number {
  if (!inRange(from, to)) return Number.NaN;
  let total = 0;
  let day = floorDay(from);
  while (day < to) {
    // Whole weeks strictly inside the span are counted at once, so far-apart dates stay cheap.
    if (day >= from) {
      const weeks = Math.floor((to - day) / (7 * DAY));
      if (weeks > 0) {
        total += weeks * weekCapacity(cal);
        day += weeks * 7 * DAY;
        continue;
      }
    }
    if (isWorkDay(cal, day)) {
      const start = day + cal.dayStartMinute * MINUTE;
      const end = start + MINUTES_PER_WORKDAY * MINUTE;
      const overlap = Math.min(end, to) - Math.max(start, from);
      if (overlap > 0) total += overlap;
    }
    day += DAY;
  }
  return Math.floor(total / MINUTE);
}

/**
 * The instant at which `minutes` of work started at `from` are done. Work ending exactly at the close of a
 * day ends there (17:00), not at the next morning.
 */
export function addWorkingMinutes(from: number, minutes: number, cal: WorkCalendar): number {
  if (!inRange(from, minutes * MINUTE)) return Number.NaN;
  if (minutes <= 0 || cal.workDays.length === 0) return from;
  let remaining = minutes * MINUTE;
  let day = floorDay(from);
  let lower = from;
  for (;;) {
    if (lower === day) {
      // Keep at least one minute for the day-by-day walk so the end lands on a real working instant.
      const weeks = Math.floor((remaining - 1) / weekCapacity(cal));
      if (weeks > 0) {
        remaining -= weeks * weekCapacity(cal);
        day += weeks * 7 * DAY;
        lower = day;
      }
    }
    if (isWorkDay(cal, day)) {
      const start = day + cal.dayStartMinute * MINUTE;
      const end = start + MINUTES_PER_WORKDAY * MINUTE;
      const begin = Math.max(lower, start);
      if (begin < end) {
        if (remaining <= end - begin) return within(begin + remaining);
        remaining -= end - begin;
      }
    }
    day += DAY;
    lower = day;
  }
}

/** The instant at which work of `minutes` must start to be done at `to` (the mirror of addWorkingMinutes). */
export function subtractWorkingMinutes(to: number, minutes: number, cal: WorkCalendar): number {
  if (!inRange(to, minutes * MINUTE)) return Number.NaN;
  if (minutes <= 0 || cal.workDays.length === 0) return to;
  let remaining = minutes * MINUTE;
  let day = floorDay(to);
  let upper = to;
  for (;;) {
    if (upper === day + DAY) {
      const weeks = Math.floor((remaining - 1) / weekCapacity(cal));
      if (weeks > 0) {
        remaining -= weeks * weekCapacity(cal);
        day -= weeks * 7 * DAY;
        upper = day + DAY;
      }
    }
    if (isWorkDay(cal, day)) {
      const start = day + cal.dayStartMinute * MINUTE;
      const end = start + MINUTES_PER_WORKDAY * MINUTE;
      const finish = Math.min(upper, end);
      if (finish > start) {
        if (remaining <= finish - start) return within(finish - remaining);
        remaining -= finish - start;
      }
    }
    day -= DAY;
    upper = day + DAY;
  }
}
