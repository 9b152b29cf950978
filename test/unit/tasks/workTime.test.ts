// Working-time arithmetic: a day is 8 hours, weekends and evenings do not count.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  addWorkingMinutes,
  formatNaive,
  parseNaive,
  subtractWorkingMinutes,
  workingMinutesBetween,
  type WorkCalendar,
} from '../../../src/core/tasks/workTime';

const weekdays: WorkCalendar = { id: 1, name: 'Standard', workDays: [1, 2, 3, 4, 5], dayStartMinute: 540 };
const everyDay: WorkCalendar = { id: 2, name: 'Seven days', workDays: [0, 1, 2, 3, 4, 5, 6], dayStartMinute: 540 };
const t = (s: string) => parseNaive(s)!;

describe('work time', () => {
  it('parses only YYYY-MM-DDThh:mm:ss and real dates', () => {
    for (const ok of ['2026-03-02T09:00:00', '2024-02-29T23:59:59']) assert.equal(formatNaive(t(ok)), ok);
    for (const bad of ['2026-03-02', '2026-03-02T09:00', '2026-03-02T09:00:00Z', '2026-02-30T09:00:00', '2026-03-02T24:00:00', 42, null]) {
      assert.equal(parseNaive(bad), undefined, String(bad));
    }
  });

  const rows: [string, string, WorkCalendar, number][] = [
    ['2026-03-02T09:00:00', '2026-03-02T17:00:00', weekdays, 480], // Monday, one day
    ['2026-03-02T09:00:00', '2026-03-03T17:00:00', weekdays, 960],
    ['2026-03-06T09:00:00', '2026-03-09T17:00:00', weekdays, 960], // Friday to Monday skips the weekend
    ['2026-03-06T09:00:00', '2026-03-09T17:00:00', everyDay, 1920],
    ['2026-03-02T08:00:00', '2026-03-02T20:00:00', weekdays, 480], // evenings do not count
    ['2026-03-02T10:30:00', '2026-03-02T11:00:00', weekdays, 30],
    ['2026-03-02T09:00:00', '2026-03-30T17:00:00', weekdays, 21 * 480], // whole weeks at once
  ];
  for (const [from, to, cal, minutes] of rows) {
    it(`${from} → ${to} on ${cal.name} is ${minutes} working minutes`, () => {
      assert.equal(workingMinutesBetween(t(from), t(to), cal), minutes);
    });
  }

  it('adds work from a start: a day of work from 09:00 ends at 17:00 the same day', () => {
    assert.equal(formatNaive(addWorkingMinutes(t('2026-03-02T09:00:00'), 480, weekdays)), '2026-03-02T17:00:00');
    assert.equal(formatNaive(addWorkingMinutes(t('2026-03-06T13:00:00'), 480, weekdays)), '2026-03-09T13:00:00');
    assert.equal(formatNaive(addWorkingMinutes(t('2026-03-02T18:00:00'), 60, weekdays)), '2026-03-03T10:00:00');
    assert.equal(formatNaive(subtractWorkingMinutes(t('2026-03-09T17:00:00'), 960, weekdays)), '2026-03-06T09:00:00');
  });

  it('adding then measuring gives the minutes back, and subtracting undoes adding', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 0, max: 480 * 400 }),
        fc.constantFrom(weekdays, everyDay),
        (hourOffset, minutes, cal) => {
          const start = addWorkingMinutes(t('2026-01-05T09:00:00') + hourOffset * 3_600_000, 0, cal);
          const working = workingMinutesBetween(start, addWorkingMinutes(start, minutes, cal), cal);
          assert.equal(working, minutes);
          const end = addWorkingMinutes(start, minutes, cal);
          assert.equal(workingMinutesBetween(subtractWorkingMinutes(end, minutes, cal), end, cal), minutes);
        },
      ),
    );
  });

  // Issue 27: 99,999,999 days carried the walk past Date's range, where no day was a working day, and
  // addWorkingMinutes looped for ever (the extension host at 100% CPU). Before the fix this test never returns.
  it('returns for any duration: past the range of dates the answer is NaN, not an endless walk', () => {
    const start = t('2026-03-02T09:00:00');
    for (const cal of [weekdays, everyDay, { ...weekdays, workDays: [3] }]) {
      assert.ok(Number.isNaN(addWorkingMinutes(start, 99_999_999 * 480, cal)), cal.name);
      // Backwards, seven working days a week stay (just) inside the range: an answer, either way.
      const back = subtractWorkingMinutes(start, 99_999_999 * 480, cal);
      assert.ok(Number.isNaN(back) || Math.abs(back) <= 8.64e15, cal.name);
      assert.ok(Number.isNaN(addWorkingMinutes(start, 1e300, cal)), cal.name);
      assert.ok(Number.isNaN(workingMinutesBetween(start, Number.POSITIVE_INFINITY, cal)), cal.name);
    }
    // The largest duration the service takes (2^31 - 1 minutes) still has an answer, and a far one is exact.
    assert.equal(formatNaive(addWorkingMinutes(start, 2_147_483_647, weekdays)).length > 0, true);
    assert.equal(workingMinutesBetween(start, addWorkingMinutes(start, 9999 * 480, weekdays), weekdays), 9999 * 480);
  });
});
