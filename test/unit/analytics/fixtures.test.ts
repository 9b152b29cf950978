// The `.dam-analytics.json` fixtures: valid ones lint clean, each broken one yields the error its name promises.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnalyticsCodes as C, lintAnalyticsText, type AnalyticsCode } from '../../../src/core/analytics';

const dir = join(__dirname, '..', '..', 'fixtures', 'analytics');
const expected: Record<string, AnalyticsCode[]> = {
  'broken-limit.dam-analytics.json': [C.LimitTooLarge],
  'broken-missing-values.dam-analytics.json': [C.MissingValues],
  'broken-unknown-member.dam-analytics.json': [C.UnknownMember],
  'broken-zero-domain-join.dam-analytics.json': [C.GroupNotJoinable],
  'broken-json.dam-analytics.json': [C.JsonComment, C.InvalidJson],
};

describe('analytics fixtures', () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.dam-analytics.json'));
  it('has valid and broken fixtures', () => {
    assert.ok(files.some((f) => f.startsWith('broken-')) && files.some((f) => !f.startsWith('broken-')));
  });
  for (const file of files) {
    it(file, () => {
      const errors = lintAnalyticsText(readFileSync(join(dir, file), 'utf8')).filter((d) => d.severity === 'error');
      assert.deepEqual(errors.map((d) => d.code).sort(), (expected[file] ?? []).slice().sort());
    });
  }
});
