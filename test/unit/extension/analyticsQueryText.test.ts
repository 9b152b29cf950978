// The builder's edits to a `.dam-analytics.json` text: only changed attributes move, unknown ones and
// formatting stay, and the text parses back to exactly the object the builder sent.
import { strict as assert } from 'node:assert';
import { applyEdits } from 'jsonc-parser';
import { editsToQuery, parseQueryText } from '../../../src/extension/analytics/queryText';
import { readyQueries } from '../../../src/extension/analytics/readyQueries';
import { checkAnalyticsQuery } from '../../../src/core/analytics';

const apply = (text: string, next: Record<string, unknown>) => applyEdits(text, editsToQuery(text, next));

describe('analytics builder ⇄ query text', () => {
  const original = `{
    "measures": ["Views.count"],
    "x-note": { "owner": "marketing", "tags": [1, 2] },
    "filters": [ { "member": "Views.userId", "operator": "equals", "values": ["3"] } ],
    "timezone": "Europe/Paris"
}
`;

  it('round-trips: the new text parses to the object sent, unknown keys and filters included', () => {
    const parsed = parseQueryText(original);
    assert.ok(parsed.ok);
    const next = { ...parsed.value, dimensions: ['Users.loginId'], limit: 25 };
    const text = apply(original, next);
    const back = parseQueryText(text);
    assert.ok(back.ok);
    assert.deepEqual(back.value, next);
  });

  it('leaves the text of unchanged attributes as it was written', () => {
    const parsed = parseQueryText(original);
    assert.ok(parsed.ok);
    const text = apply(original, { ...parsed.value, limit: 10 });
    assert.ok(text.includes('"x-note": { "owner": "marketing", "tags": [1, 2] },'), text);
    assert.ok(text.includes('[ { "member": "Views.userId", "operator": "equals", "values": ["3"] } ]'), text);
  });

  it('removes an attribute the builder dropped and edits a filter in place', () => {
    const parsed = parseQueryText(original);
    assert.ok(parsed.ok);
    const next: Record<string, unknown> = { ...parsed.value, filters: [{ member: 'Views.viewDate', operator: 'inDateRange', values: ['2026-01-01', '2026-03-31'] }] };
    delete next.timezone;
    const back = parseQueryText(apply(original, next));
    assert.ok(back.ok);
    assert.deepEqual(back.value, next);
    assert.ok(!('timezone' in back.value));
  });

  it('makes no edit when nothing changed', () => {
    const parsed = parseQueryText(original);
    assert.ok(parsed.ok);
    assert.deepEqual(editsToQuery(original, parsed.value), []);
  });

  it('fills an empty file and reports text that is not one object', () => {
    assert.deepEqual(parseQueryText(apply('', { measures: ['Views.count'] })), { ok: true, value: { measures: ['Views.count'] } });
    assert.equal(parseQueryText('{ "measures": [ }').ok, false);
    assert.equal(parseQueryText('[1]').ok, false);
  });

  it('offers ready-made queries that pass the shared validator', () => {
    assert.equal(readyQueries.length, 4);
    for (const r of readyQueries) {
      const checked = checkAnalyticsQuery(r.query);
      assert.ok(checked.ok, `${r.id}: ${checked.ok ? '' : checked.problems.map((p) => p.message).join(' ')}`);
    }
  });
});
