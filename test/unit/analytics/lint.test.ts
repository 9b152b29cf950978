// `.dam-analytics.json` lint: each diagnostic lands on the member or value at fault; ‹…› in the text marks the expected range.
import * as assert from 'node:assert/strict';
import { AnalyticsCodes as C, lintAnalyticsText, type AnalyticsCode } from '../../../src/core/analytics';

/** Strips the ‹ › markers and returns the text with the marked range. */
function marked(source: string): { text: string; start: number; end: number } {
  const start = source.indexOf('‹');
  const end = source.indexOf('›') - 1;
  return { text: source.replace('‹', '').replace('›', ''), start, end };
}

const cases: [string, string, AnalyticsCode, 'lexical' | 'syntax' | 'semantic'][] = [
  ['unknown member', '{ "measures": [‹"Views.clicks"›] }', C.UnknownMember, 'semantic'],
  ['unknown domain in a filter', '{ "measures": ["Views.count"], "filters": [{ "member": ‹"Foo.bar"›, "operator": "set" }] }', C.UnknownDomain, 'semantic'],
  ['limit', '{ "measures": ["Views.count"], "limit": ‹20000› }', C.LimitTooLarge, 'semantic'],
  ['missing values points at the operator', '{ "measures": ["Views.count"], "filters": [{ "member": "Views.userId", "operator": ‹"equals"› }] }', C.MissingValues, 'semantic'],
  ['unknown attribute points at the key', '{ "measures": ["Views.count"], ‹"sort"›: {} }', C.UnknownAttribute, 'syntax'],
  ['group the domain may not join', '{ "measures": ["ZeroViewRecords.count"], "dimensions": [‹"Groups.name"›] }', C.GroupNotJoinable, 'semantic'],
  ['order member not in query', '{ "measures": ["Views.count"], "order": { ‹"Views.userId"›: "asc" } }', C.OrderMemberNotInQuery, 'semantic'],
  ['granularity', '{ "measures": ["Views.count"], "timeDimensions": [{ "dimension": "Views.viewDate", "granularity": ‹"fortnight"› }] }', C.InvalidGranularity, 'semantic'],
  ["trailing comma", '{ "measures": ["Views.count",‹]› }', C.InvalidJson, 'syntax'],
  ['comment', '{ "measures": ["Views.count"] } ‹// views›', C.JsonComment, 'lexical'],
  ['unterminated string', '{ "measures": [‹"Views.count]}›', C.UnterminatedJsonString, 'lexical'],
  ['not an object', '‹[1, 2]›', C.NotAnObject, 'syntax'],
  ['nested past 64 levels', `{ "measures": ["Views.count"], "x": ${'['.repeat(63)}‹[›${']'.repeat(64)} }`, C.NestedTooDeep, 'syntax'],
];

describe('lintAnalyticsText', () => {
  for (const [name, source, code, phase] of cases) {
    it(`${name} → ${code} on the marked range`, () => {
      const { text, start, end } = marked(source);
      const diagnostics = lintAnalyticsText(text);
      const d = diagnostics.find((x) => x.code === code);
      assert.ok(d, `expected ${code} in ${JSON.stringify(diagnostics)}`);
      assert.equal(d.source, 'dam-analytics');
      assert.equal(d.phase, phase);
      assert.deepEqual([d.range.start, d.range.end], [start, end], `got '${text.slice(d.range.start, d.range.end)}'`);
    });
  }

  it('a valid file has no diagnostics', () => {
    const text = JSON.stringify({ measures: ['Views.count'], dimensions: ['Users.loginId'], order: { 'Views.count': 'desc' }, limit: 100, offset: 100 }, null, 2);
    assert.deepEqual(lintAnalyticsText(text), []);
  });

  it('a slash inside a string is not a comment', () => {
    assert.deepEqual(lintAnalyticsText('{ "measures": ["Views.count"], "filters": [{ "member": "RecordMetadata.title", "operator": "contains", "values": ["a//b"] }] }'), []);
  });

  it('an empty file is one error', () => {
    const d = lintAnalyticsText('  ');
    assert.equal(d.length, 1);
    assert.equal(d[0].code, C.NotAnObject);
  });

  it('JSON errors suppress semantic checks of the recovered tree', () => {
    const d = lintAnalyticsText('{ "measures": ["Nope.count"] "limit": 5 }');
    assert.deepEqual(d.map((x) => x.code), [C.InvalidJson]);
  });
});
