// The emulator's SQL compiler: values travel only as parameters, joins appear only when a member needs them, and pages are totally ordered.
import * as assert from 'node:assert/strict';
import { checkAnalyticsQuery, type AnalyticsQuery, type NormalizedQuery } from '../../../src/core/analytics';
import { compileAnalyticsQuery } from '../../../src/emulator/analytics/compile';

function normalized(q: AnalyticsQuery): NormalizedQuery {
  const r = checkAnalyticsQuery(q);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.query;
}
const now = new Date('2026-11-18T12:00:00Z');

describe('analytics SQL compiler', () => {
  it('never splices a value into the SQL text', () => {
    const evil = "x'); DROP TABLE records; --";
    const c = compileAnalyticsQuery(
      normalized({
        measures: ['Views.count'],
        filters: [
          { member: 'Users.loginId', operator: 'equals', values: [evil] },
          { member: 'RecordMetadata.title', operator: 'contains', values: [evil] },
        ],
        timezone: 'Europe/Berlin',
        timeDimensions: [{ dimension: 'Views.viewDate', granularity: 'day', dateRange: ['2026-01-01', '2026-01-02'] }],
      }),
      now,
    );
    assert.ok(!c.sql.includes('DROP TABLE') && !c.sql.includes('Europe/Berlin') && !c.sql.includes('2026-01'));
    const arrays = c.params.filter((p): p is string[] => Array.isArray(p)) as string[][];
    assert.ok(arrays.some((p) => p.includes(evil)));
    assert.ok(arrays.some((p) => p.includes(`%${evil}%`)));
  });

  it('escapes LIKE wildcards in contains values', () => {
    const c = compileAnalyticsQuery(normalized({ measures: ['Views.count'], filters: [{ member: 'Users.loginId', operator: 'contains', values: ['50%_off\\'] }] }), now);
    assert.ok(c.params.some((p) => Array.isArray(p) && p[0] === '%50\\%\\_off\\\\%'));
  });

  it('joins only what the members need', () => {
    const plain = compileAnalyticsQuery(normalized({ measures: ['Downloads.count'], dimensions: ['Downloads.userId'] }), now).sql;
    assert.ok(!plain.includes('JOIN'));
    const groups = compileAnalyticsQuery(normalized({ measures: ['Downloads.count'], dimensions: ['Groups.name'] }), now).sql;
    assert.match(groups, /JOIN user_group_members gm[\s\S]*JOIN user_groups g/);
    const ce = compileAnalyticsQuery(normalized({ measures: ['ContentEngagement.viewsCount'], dimensions: ['Month.label'] }), now).sql;
    assert.match(ce, /dd\.date = f\.date/);
  });

  it('answers a time bucket under both of its names and orders every grouped column', () => {
    const c = compileAnalyticsQuery(
      normalized({ measures: ['Views.count'], dimensions: ['Users.loginId'], timeDimensions: [{ dimension: 'Views.viewDate', granularity: 'month' }], order: { 'Views.count': 'desc' }, limit: 10, offset: 20 }),
      now,
    );
    assert.deepEqual(c.keys, [['Users.loginId'], ['Views.viewDate.month', 'Views.viewDate'], ['Views.count']]);
    assert.match(c.sql, /ORDER BY 3 DESC NULLS LAST, 1 ASC NULLS LAST, 2 ASC NULLS LAST/);
    assert.match(c.sql, /LIMIT \$\d+\nOFFSET \$\d+/);
    const head = compileAnalyticsQuery(normalized({ measures: ['Views.count'], order: { 'Views.count': 'desc' }, limit: 5, offset: 5 }), now, { head: 50 });
    assert.ok(!head.sql.includes('OFFSET') && head.params.includes(50));
  });

  it('puts measure filters in HAVING', () => {
    const c = compileAnalyticsQuery(normalized({ measures: ['Views.count'], dimensions: ['Views.userId'], filters: [{ member: 'Views.count', operator: 'gte', values: ['5'] }] }), now);
    assert.match(c.sql, /HAVING count\(\*\) >= \$\d+::numeric/);
  });
});
