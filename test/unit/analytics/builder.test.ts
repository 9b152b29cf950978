// The typed query builder: builds the documented object and refuses what validation refuses.
import * as assert from 'node:assert/strict';
import { analyticsQuery, AnalyticsQueryError, AnalyticsCodes as C } from '../../../src/core/analytics';
import { csvCell } from '../../../src/cli/commands/analytics';

describe('analyticsQuery builder', () => {
  it('builds a month-by-user query', () => {
    const q = analyticsQuery('Views')
      .measures('Views.count')
      .dimensions('Users.loginId')
      .timeDimension('Views.viewDate', 'month', ['2025-11-01', '2026-10-31'])
      .filter('Views.hasSpaceContext', 'equals', ['true'])
      .filter('Views.collectionId', 'notSet')
      .order('Views.viewDate.month')
      .order('Views.count', 'desc')
      .limit(500)
      .offset(500)
      .build();
    assert.deepEqual(q, {
      measures: ['Views.count'],
      dimensions: ['Users.loginId'],
      timeDimensions: [{ dimension: 'Views.viewDate', granularity: 'month', dateRange: ['2025-11-01', '2026-10-31'] }],
      filters: [
        { member: 'Views.hasSpaceContext', operator: 'equals', values: ['true'] },
        { member: 'Views.collectionId', operator: 'notSet' },
      ],
      order: { 'Views.viewDate.month': 'asc', 'Views.count': 'desc' },
      limit: 500,
      offset: 500,
    });
  });

  it('throws with every problem when a rule is broken at run time', () => {
    const b = analyticsQuery('Downloads').measures('Downloads.count').limit(20000);
    assert.throws(
      () => b.build(),
      (err: unknown) => err instanceof AnalyticsQueryError && err.problems[0].code === C.LimitTooLarge && /10000/.test(err.message),
    );
  });
});

describe('csvCell', () => {
  const table: [string | null, string][] = [
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    [null, ''],
  ];
  for (const [input, out] of table) it(`${JSON.stringify(input)} → ${JSON.stringify(out)}`, () => assert.equal(csvCell(input), out));
});
