// Every rule of analytics-query validation as a table: query object, expected code, and a word the message must name.
import * as assert from 'node:assert/strict';
import { AnalyticsCodes as C, checkAnalyticsQuery, validateAnalyticsQuery, type AnalyticsCode } from '../../../src/core/analytics';

interface Case {
  name: string;
  query: unknown;
  code: AnalyticsCode;
  /** Text the message must contain (the member or rule at fault). */
  names: string;
  path?: (string | number)[];
  severity?: 'error' | 'warning';
}

const V = { measures: ['Views.count'] };

const cases: Case[] = [
  { name: 'not an object', query: [1], code: C.NotAnObject, names: 'JSON object' },
  { name: 'unknown attribute', query: { ...V, measurez: [] }, code: C.UnknownAttribute, names: "'measurez'", path: ['measurez'] },
  { name: 'measures not an array', query: { measures: 'Views.count' }, code: C.WrongAttributeType, names: "'measures'" },
  { name: 'member not a string', query: { measures: [1] }, code: C.WrongAttributeType, names: 'measures[0]' },
  { name: 'singular measure', query: { measure: 'Views.count' }, code: C.SingularMeasure, names: "'measures'", severity: 'warning' },
  { name: 'measure and measures', query: { measure: 'Views.count', measures: ['Views.count'] }, code: C.MeasureAndMeasures, names: "'measure'" },
  { name: 'malformed member', query: { measures: ['count'] }, code: C.MalformedMember, names: "'count'", path: ['measures', 0] },
  { name: 'unknown domain', query: { measures: ['Clicks.count'] }, code: C.UnknownDomain, names: "'Clicks'" },
  { name: 'unknown member', query: { measures: ['Views.clicks'] }, code: C.UnknownMember, names: "'Views.clicks'" },
  { name: 'dimension as measure', query: { measures: ['Views.userId'] }, code: C.NotAMeasure, names: "'Views.userId'" },
  { name: 'measure as dimension', query: { ...V, dimensions: ['Views.count'] }, code: C.NotADimension, names: "'Views.count'" },
  { name: 'zero domain joins Users', query: { measures: ['ZeroViewRecords.count'], dimensions: ['Users.loginId'] }, code: C.GroupNotJoinable, names: "'Users.loginId'" },
  { name: 'Downloads joins no Collections', query: { measures: ['Downloads.count'], dimensions: ['Collections.name'] }, code: C.GroupNotJoinable, names: 'Collections' },
  { name: 'Downloads joins no Spaces', query: { measures: ['Downloads.count'], dimensions: ['Spaces.name'] }, code: C.GroupNotJoinable, names: "'Spaces.name'" },
  { name: 'two domains', query: { measures: ['Views.count', 'Downloads.count'] }, code: C.SeveralDomains, names: "'Downloads.count'" },
  { name: 'group without domain', query: { dimensions: ['Users.loginId'] }, code: C.NoDomain, names: "'Users.loginId'" },
  { name: 'empty query', query: {}, code: C.EmptyQuery, names: 'no measure' },
  { name: 'time dimension without granularity only', query: { timeDimensions: [{ dimension: 'Views.viewDate', dateRange: 'last 7 days' }] }, code: C.EmptyQuery, names: 'granularity' },
  { name: 'duplicate member', query: { measures: ['Views.count', 'Views.count'] }, code: C.DuplicateMember, names: "'Views.count'", severity: 'warning' },
  { name: 'filter without member', query: { ...V, filters: [{ operator: 'set' }] }, code: C.FilterWithoutMember, names: "'member'" },
  { name: 'filter without operator', query: { ...V, filters: [{ member: 'Views.userId', values: ['1'] }] }, code: C.FilterWithoutOperator, names: "'operator'" },
  { name: 'unknown operator', query: { ...V, filters: [{ member: 'Views.userId', operator: 'between', values: ['1'] }] }, code: C.UnknownOperator, names: "'between'" },
  { name: 'contains on a number', query: { ...V, filters: [{ member: 'Views.userId', operator: 'contains', values: ['1'] }] }, code: C.OperatorNotForType, names: "'contains'" },
  { name: 'inDateRange on a string', query: { ...V, filters: [{ member: 'Views.recordId', operator: 'inDateRange', values: ['2025-01-01', '2025-02-01'] }] }, code: C.OperatorNotForType, names: "'Views.recordId'" },
  { name: 'values missing', query: { ...V, filters: [{ member: 'Views.userId', operator: 'equals' }] }, code: C.MissingValues, names: "needs 'values'", path: ['filters', 0, 'operator'] },
  { name: 'values empty', query: { ...V, filters: [{ member: 'Views.userId', operator: 'equals', values: [] }] }, code: C.EmptyValues, names: 'empty' },
  { name: 'values not strings', query: { ...V, filters: [{ member: 'Views.userId', operator: 'equals', values: [1] }] }, code: C.WrongAttributeType, names: 'string' },
  { name: 'values for set', query: { ...V, filters: [{ member: 'Views.spaceId', operator: 'set', values: ['x'] }] }, code: C.ValuesIgnored, names: "'set'", severity: 'warning' },
  { name: 'number value not numeric', query: { ...V, filters: [{ member: 'Views.userId', operator: 'gt', values: ['ten'] }] }, code: C.InvalidValue, names: "'ten'" },
  { name: 'gt with two values', query: { ...V, filters: [{ member: 'Views.userId', operator: 'gt', values: ['1', '2'] }] }, code: C.InvalidValue, names: 'exactly one' },
  { name: 'boolean value', query: { ...V, filters: [{ member: 'Views.hasNoContext', operator: 'equals', values: ['yes'] }] }, code: C.InvalidValue, names: "'yes'" },
  { name: 'inDateRange one date', query: { ...V, filters: [{ member: 'Views.viewDate', operator: 'inDateRange', values: ['2025-01-01'] }] }, code: C.InvalidValue, names: 'two dates' },
  { name: 'inDateRange bad date', query: { ...V, filters: [{ member: 'Views.viewDate', operator: 'inDateRange', values: ['2025-01-01', '2025-02-30'] }] }, code: C.InvalidValue, names: "'2025-02-30'" },
  { name: 'inDateRange reversed', query: { ...V, filters: [{ member: 'Views.viewDate', operator: 'inDateRange', values: ['2025-03-01', '2025-02-01'] }] }, code: C.InvalidValue, names: 'before it starts' },
  { name: 'filter unknown key', query: { ...V, filters: [{ member: 'Views.userId', operator: 'set', dimension: 'x' }] }, code: C.UnknownAttribute, names: "'dimension'" },
  { name: 'limit over 10000', query: { ...V, limit: 10001 }, code: C.LimitTooLarge, names: '10000', path: ['limit'] },
  { name: 'limit negative', query: { ...V, limit: -1 }, code: C.InvalidLimit, names: 'limit' },
  { name: 'limit fraction', query: { ...V, limit: 1.5 }, code: C.InvalidLimit, names: 'limit' },
  { name: 'offset negative', query: { ...V, offset: -5, order: { 'Views.count': 'desc' } }, code: C.InvalidOffset, names: 'offset' },
  { name: 'offset as string', query: { ...V, offset: '5', order: { 'Views.count': 'desc' } }, code: C.InvalidOffset, names: 'offset' },
  { name: 'offset without order', query: { ...V, offset: 5 }, code: C.OffsetWithoutOrder, names: "'order'", severity: 'warning' },
  { name: 'order member not in query', query: { ...V, order: { 'Views.userId': 'asc' } }, code: C.OrderMemberNotInQuery, names: "'Views.userId'" },
  { name: 'order unknown member', query: { ...V, order: { 'Views.nope': 'asc' } }, code: C.UnknownMember, names: "'Views.nope'" },
  { name: 'order direction', query: { ...V, order: { 'Views.count': 'descending' } }, code: C.InvalidOrderDirection, names: "'asc' or 'desc'" },
  { name: 'order not object', query: { ...V, order: 'Views.count' }, code: C.WrongAttributeType, names: "'order'" },
  { name: 'time dimension not time', query: { ...V, timeDimensions: [{ dimension: 'Views.userId', granularity: 'day' }] }, code: C.NotATimeDimension, names: "'Views.userId'" },
  { name: 'bad granularity', query: { ...V, timeDimensions: [{ dimension: 'Views.viewDate', granularity: 'fortnight' }] }, code: C.InvalidGranularity, names: "'fortnight'" },
  { name: 'bad relative range', query: { ...V, timeDimensions: [{ dimension: 'Views.viewDate', dateRange: 'since forever' }] }, code: C.InvalidDateRange, names: 'since forever' },
  { name: 'date range of one date', query: { ...V, timeDimensions: [{ dimension: 'Views.viewDate', dateRange: ['2025-01-01'] }] }, code: C.InvalidDateRange, names: "'Views.viewDate'" },
  { name: 'date range reversed', query: { ...V, timeDimensions: [{ dimension: 'Views.viewDate', dateRange: ['2025-02-01', '2025-01-01'] }] }, code: C.InvalidDateRange, names: 'before it starts' },
  { name: 'time dimension unknown key', query: { ...V, timeDimensions: [{ dimension: 'Views.viewDate', compareDateRange: [] }] }, code: C.UnknownAttribute, names: "'compareDateRange'" },
  { name: 'timezone', query: { ...V, timezone: 'Mars/Olympus' }, code: C.InvalidTimezone, names: 'Mars/Olympus' },
];

describe('analytics query validation', () => {
  for (const c of cases) {
    it(`${c.name} → ${c.code}`, () => {
      const problems = validateAnalyticsQuery(c.query);
      const hit = problems.find((p) => p.code === c.code);
      assert.ok(hit, `expected ${c.code}, got ${JSON.stringify(problems)}`);
      assert.ok(hit.message.includes(c.names), `message '${hit.message}' should name ${c.names}`);
      assert.equal(hit.severity, c.severity ?? 'error');
      if (c.path) assert.deepEqual(hit.path, c.path);
      const checked = checkAnalyticsQuery(c.query);
      assert.equal(checked.ok, (c.severity ?? 'error') === 'warning' && problems.every((p) => p.severity === 'warning'));
    });
  }

  const valid: [string, unknown][] = [
    ['the spec example: views by month and user', { measures: ['Views.count'], dimensions: ['Users.loginId'], timeDimensions: [{ dimension: 'Views.viewDate', granularity: 'month' }], order: { 'Views.viewDate.month': 'asc' }, limit: 100 }],
    ['all spec operators', {
      measures: ['Downloads.count'],
      dimensions: ['Users.department', 'DateDimension.fiscalYear'],
      filters: [
        { member: 'Users.loginId', operator: 'equals', values: ['admin'] },
        { member: 'RecordMetadata.title', operator: 'contains', values: ['tent'] },
        { member: 'Downloads.downloadDate', operator: 'inDateRange', values: ['2025-11-01', '2026-01-31'] },
        { member: 'Downloads.versionNumber', operator: 'gt', values: ['1'] },
        { member: 'Downloads.count', operator: 'gte', values: ['2'] },
        { member: 'Downloads.renditionId', operator: 'set' },
        { member: 'Downloads.cropType', operator: 'notSet' },
      ],
      order: [['Downloads.count', 'desc']],
      limit: 10000,
      offset: 0,
    }],
    ['Views joins Collections and Spaces', { measures: ['Views.count'], dimensions: ['Collections.name', 'Spaces.name', 'Views.hasCollectionContext'] }],
    ['zero domain with its two groups', { measures: ['ZeroDownloadRecords.count'], dimensions: ['Classifications.name', 'RecordMetadata.keywords', 'ZeroDownloadRecords.contentType'] }],
    ['ContentEngagement with labels', { measures: ['ContentEngagement.viewsCount', 'ContentEngagement.downloadsCount'], dimensions: ['Month.label', 'Groups.name'], timeDimensions: [{ dimension: 'ContentEngagement.date', dateRange: 'last 3 months' }] }],
    ['relative ranges', { ...V, timeDimensions: [{ dimension: 'Views.viewDate', granularity: 'week', dateRange: 'this year' }] }],
    ['order by the plain name of a bucket', { ...V, timeDimensions: [{ dimension: 'Views.viewDate', granularity: 'day' }], order: { 'Views.viewDate': 'desc' } }],
  ];
  for (const [name, query] of valid) {
    it(`accepts ${name}`, () => {
      const r = checkAnalyticsQuery(query);
      assert.ok(r.ok, JSON.stringify(r.ok ? [] : r.problems));
      assert.deepEqual(r.warnings, []);
    });
  }

  it('normalises measure into measures and order into pairs', () => {
    const r = checkAnalyticsQuery({ measure: ['Views.count'], order: { 'Views.count': 'desc' } });
    assert.ok(r.ok);
    assert.deepEqual(r.query.measures.map((m) => m.name), ['Views.count']);
    assert.deepEqual(r.query.order, [['Views.count', 'desc']]);
    assert.equal(r.query.domain, 'Views');
  });
});
