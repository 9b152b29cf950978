// Dates of analytics queries: accepted forms and relative ranges resolved to half-open bounds.
import * as assert from 'node:assert/strict';
import { parseQueryDate, resolveDateRange } from '../../../src/core/analytics';

describe('analytics dates', () => {
  const now = new Date('2026-11-18T15:30:00Z'); // a Wednesday
  const table: [string | string[], string, string][] = [
    [['2026-01-01', '2026-01-31'], '2026-01-01T00:00:00.000', '2026-02-01T00:00:00.000'],
    [['2026-01-01T10:00:00', '2026-01-01T11:00:00.5'], '2026-01-01T10:00:00.000', '2026-01-01T11:00:00.501'],
    ['today', '2026-11-18T00:00:00.000', '2026-11-19T00:00:00.000'],
    ['yesterday', '2026-11-17T00:00:00.000', '2026-11-18T00:00:00.000'],
    ['this week', '2026-11-16T00:00:00.000', '2026-11-23T00:00:00.000'],
    ['last month', '2026-10-01T00:00:00.000', '2026-11-01T00:00:00.000'],
    ['this quarter', '2026-10-01T00:00:00.000', '2027-01-01T00:00:00.000'],
    ['last year', '2025-01-01T00:00:00.000', '2026-01-01T00:00:00.000'],
    ['last 7 days', '2026-11-12T00:00:00.000', '2026-11-19T00:00:00.000'],
    ['Last 12 Months', '2025-11-19T00:00:00.000', '2026-11-19T00:00:00.000'],
  ];
  for (const [range, from, to] of table) {
    it(`${JSON.stringify(range)} → [${from}, ${to})`, () => {
      assert.deepEqual(resolveDateRange(range, now), { from, to });
    });
  }
  it('rejects impossible dates and other forms', () => {
    for (const bad of ['2025-02-30', '2025-13-01', '01/02/2025', '2025-01-01T25:00', '']) assert.equal(parseQueryDate(bad), undefined, bad);
    assert.equal(resolveDateRange('next week', now), undefined);
    assert.equal(resolveDateRange(['2025-02-01', '2025-01-01'], now), undefined);
  });
});
