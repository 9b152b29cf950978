// One validation, one verdict (issue 21, item 5): every analytics query the extension ships (the ready-made
// templates of "New Analytics Query…") and every example fixture is checked by the JSON schema the editor
// validates with (schemas/dam-analytics.schema.json, through ajv as a JSON language service would) and by the
// analytics core the builder, `dam lint` and the emulator use; both must give the same verdict.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { lintAnalyticsText } from '../../../src/core/analytics';
import { readyQueries } from '../../../src/extension/analytics/readyQueries';

const schema = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'schemas', 'dam-analytics.schema.json'), 'utf8')) as object;
// The tuple form of `order` (`items: [member, direction]`) is draft-07; strict mode would reject it.
const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);

/** The schema's complaints, as Problems would list them. */
function schemaErrors(query: unknown): string[] {
  return validate(query) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}${'propertyName' in e.params ? ` (${String(e.params.propertyName)})` : ''}`);
}

function coreErrors(text: string): string[] {
  return lintAnalyticsText(text)
    .filter((d) => d.severity === 'error')
    .map((d) => `${d.code} ${d.message}`);
}

const fixtures = join(__dirname, '..', '..', 'fixtures', 'analytics');

describe('analytics queries the extension ships: one verdict from the schema and the core', () => {
  for (const ready of readyQueries) {
    it(`ready-made "${ready.label}" passes both`, () => {
      // As "New Analytics Query…" writes it into the new file.
      const text = JSON.stringify(ready.query, null, 2) + '\n';
      assert.deepEqual(schemaErrors(JSON.parse(text)), [], 'the JSON schema rejects it (Problems would show an error)');
      assert.deepEqual(coreErrors(text), [], 'the analytics core rejects it (the builder would say it is invalid)');
    });
  }

  // Issue 35: "Downloads by month" showed a partial first month without saying so.
  it('a ready-made query by month over "last N months" says that its first month is partial', () => {
    const byMonth = readyQueries.filter((r) => r.query.timeDimensions?.some((t) => t.granularity === 'month' && typeof t.dateRange === 'string' && /^last \d+ months$/.test(t.dateRange)));
    assert.ok(byMonth.length > 0);
    for (const r of byMonth) assert.match(r.detail, /first month is partial/, r.label);
  });

  it('the empty query passes the schema (the builder starts from it)', () => {
    assert.deepEqual(schemaErrors({}), []);
  });

  for (const file of readdirSync(fixtures).filter((f) => f.endsWith('.dam-analytics.json') && !f.startsWith('broken-json'))) {
    it(`example ${file}: both agree`, () => {
      const text = readFileSync(join(fixtures, file), 'utf8');
      const core = coreErrors(text);
      const bySchema = schemaErrors(JSON.parse(text));
      if (file.startsWith('broken-')) assert.ok(core.length > 0, `${file} should be refused by the core`);
      // The schema checks shape and names only, so it may miss what the core knows (joins, value counts); it may never refuse what the core accepts.
      if (core.length === 0) assert.deepEqual(bySchema, [], `the schema refuses what the core accepts: ${bySchema.join('; ')}`);
    });
  }

  it('accepts a time dimension with its granularity as an order key, as the core does', () => {
    const query = { measures: ['Views.count'], timeDimensions: [{ dimension: 'Views.viewDate', granularity: 'week' }], order: { 'Views.viewDate.week': 'asc' } };
    assert.deepEqual(coreErrors(JSON.stringify(query)), []);
    assert.deepEqual(schemaErrors(query), []);
    assert.ok(schemaErrors({ ...query, order: { 'Views.viewDate.fortnight': 'asc' } }).length > 0, 'an unknown granularity is still refused');
  });
});
