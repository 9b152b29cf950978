// The Compare report a user opens: the summary (counts, which routes differ) before any detail, differences grouped
// by route, and the routes not compared at the end, one line per reason, a route and its select variant as one.
import { strict as assert } from 'node:assert';
import { comparisonReport, type Comparison } from '../../../src/core/probe';

const labels = { first: 'tenant', second: 'emulator' };

describe('Compare report', () => {
  const comparison: Comparison = {
    compared: 40,
    differences: [
      { route: 'GET /api/core/languages', kind: 'only-first', member: 'items[].x', words: "GET /api/core/languages: the tenant's items have `x` (boolean), the emulator's do not" },
      { route: 'GET /api/core/languages', kind: 'type', member: 'items[].y', words: "GET /api/core/languages: the tenant's items have `y` as string, the emulator's as boolean" },
      { route: 'GET /api/core/widgets', kind: 'status', words: 'GET /api/core/widgets: the tenant answers 200, the emulator 404' },
    ],
    notCompared: [
      { route: 'GET /api/core/rule/{id}', why: 'not asked of the tenant: GET /api/core/rules listed no item to read' },
      { route: 'GET /api/core/rule/{id} (select-rule: actions,createdby)', why: 'not asked of the tenant: GET /api/core/rules listed no item to read' },
      { route: 'GET /api/core/download', why: 'both answer 403' },
    ],
  };

  it('starts with the counts and the routes that differ, before the details', () => {
    const text = comparisonReport(comparison, labels);
    const lines = text.split('\n');
    assert.equal(lines[0], '# Where the emulator differs from the tenant');
    const summary = lines.indexOf('3 differences in 41 routes compared.');
    const details = lines.indexOf('## Differences');
    assert.ok(summary > 0 && summary < details, text);
    assert.ok(lines.indexOf('3 routes were not compared (listed at the end, each with the reason).') < details);
    assert.ok(lines.indexOf('- `GET /api/core/languages`: 2 differences') < details, text);
    assert.ok(lines.indexOf('### `GET /api/core/languages`') > details);
    assert.ok(lines.includes("- the tenant's items have `y` as string, the emulator's as boolean"), 'a difference under its route, without repeating it');
  });

  it('lists what was not compared last, one line per reason, a route and its select variant as one', () => {
    const text = comparisonReport(comparison, labels);
    const tail = text.slice(text.indexOf('## Not compared (3)'));
    assert.ok(text.indexOf('## Not compared') > text.indexOf('## Differences'));
    assert.deepEqual(tail.trim().split('\n').slice(2), [
      '- not asked of the tenant: GET /api/core/rules listed no item to read: `GET /api/core/rule/{id}` (also with its select header)',
      '- both answer 403: `GET /api/core/download`',
    ]);
  });

  it('keeps each kind of reason together: the routes not asked, then those both answered with an error', () => {
    const text = comparisonReport(
      {
        compared: 3,
        differences: [],
        notCompared: [
          { route: 'GET /api/core/image/preview', why: 'both answer 400' },
          { route: 'GET /api/core/image/thumbnail', why: 'both answer 400' },
          { route: 'GET /api/core/additionalfile', why: 'both answer 400' },
          { route: 'GET /api/core/rule/{id}', why: 'not asked of the tenant: GET /api/core/rules listed no item to read' },
          { route: 'GET /api/core/order/{id}', why: 'not asked of the tenant: GET /api/core/orders listed no item to read' },
          { route: 'GET /api/core/order/{id}/items', why: 'not asked of the tenant: GET /api/core/orders listed no item to read' },
          { route: 'GET /api/core/download', why: 'both answer 403' },
        ],
      },
      labels,
    );
    const reasons = text.slice(text.indexOf('## Not compared')).trim().split('\n').slice(2).map((l) => l.slice(2, l.indexOf(': `')));
    assert.deepEqual(reasons, [
      'not asked of the tenant: GET /api/core/orders listed no item to read',
      'not asked of the tenant: GET /api/core/rules listed no item to read',
      'both answer 400',
      'both answer 403',
    ]);
  });

  it('says plainly when nothing differs', () => {
    const text = comparisonReport({ compared: 5, differences: [], notCompared: [] }, labels);
    assert.match(text, /^0 differences in 5 routes compared\.$/m);
    assert.match(text, /^No differences\.$/m);
    assert.doesNotMatch(text, /## Not compared|## Differences/);
  });
});
