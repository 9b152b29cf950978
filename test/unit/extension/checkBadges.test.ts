// The spec's rollup rule for check-result badges, as a table, and how a version's results combine.
import { strict as assert } from 'node:assert';
import { rollup } from '../../../src/api/rollup';
import { badgeMeaning, badgeText, combineBadges, resultBadge } from '../../../src/extension/explorer/badges';
import type { FindingView, Outcome } from '../../../src/extension/explorer/nodes';

const findings = (...outcomes: Outcome[]): FindingView[] => outcomes.map((outcome, i) => ({ occurrence: i + 1, finding: `f${i}`, outcome }));

describe('check-result badges', () => {
  const table: [string, Outcome | null, Outcome[], string | undefined, number | undefined][] = [
    ['no findings: no badge', null, [], undefined, undefined],
    ['a fail: red, counting fail + warning', null, ['fail', 'warning', 'pass', 'warning'], 'red', 3],
    ['warnings, no fail: orange, counting warnings', null, ['warning', 'pass', 'warning', 'info'], 'orange', 2],
    ['passes only (and info): green, counting passes', null, ['pass', 'info', 'pass'], 'green', 2],
    ['only info: gray Info', null, ['info', 'info'], 'gray', undefined],
    ['explicit outcome overrides the rollup', 'pass', ['fail'], 'green', undefined],
    ['explicit fail without findings', 'fail', [], 'red', undefined],
    ['explicit info without findings', 'info', [], 'gray', undefined],
  ];
  for (const [title, outcome, list, color, count] of table) {
    it(title, () => {
      const badge = resultBadge({ outcome, findings: findings(...list) });
      assert.equal(badge?.color, color);
      assert.equal(badge?.count, count);
    });
  }

  it('labels an Info badge "Info" and shows "i" on the row', () => {
    const badge = resultBadge({ outcome: null, findings: findings('info') })!;
    assert.equal(badge.label, 'Info');
    assert.equal(badgeText(badge), 'i');
  });

  it('combines a version’s results: the most severe colour, counts of that colour summed', () => {
    const red1 = resultBadge({ outcome: null, findings: findings('fail', 'warning') });
    const red2 = resultBadge({ outcome: null, findings: findings('fail') });
    const green = resultBadge({ outcome: null, findings: findings('pass') });
    const combined = combineBadges([green, red1, undefined, red2]);
    assert.equal(combined?.color, 'red');
    assert.equal(combined?.count, 3);
    assert.equal(badgeText(combined!), '3');
    assert.equal(combineBadges([undefined, undefined]), undefined);
    assert.equal(combineBadges([green])?.color, 'green');
  });

  // Issue 35: the hover counted results without naming the checks.
  it('names the checks in a combined badge’s hover', () => {
    const named = (checkName: string, ...list: Outcome[]) => resultBadge({ outcome: null, findings: findings(...list), checkName });
    const both = combineBadges([named('Colour profile', 'fail', 'warning'), named('Resolution', 'fail'), named('Alt text', 'pass')])!;
    assert.equal(both.label, '2 checks: Colour profile: 1 failed, 1 warning; Resolution: 1 failed, 0 warnings');
    const one = combineBadges([named('Resolution', 'warning'), named('Alt text', 'pass')])!;
    assert.equal(one.label, 'Resolution: 1 warning');
  });

  it('gives the colour and count of the shared rollup() for every mix of up to three findings and each outcome', () => {
    const all: Outcome[] = ['pass', 'fail', 'warning', 'info'];
    const mixes: Outcome[][] = [[]];
    for (let n = 0; n < 3; n++) for (const mix of [...mixes]) if (mix.length === n) for (const o of all) mixes.push([...mix, o]);
    for (const outcome of [null, ...all]) {
      for (const mix of mixes) {
        const shared = rollup(outcome, findings(...mix));
        const badge = resultBadge({ outcome, findings: findings(...mix) });
        assert.deepEqual(badge && { color: badge.color, count: badge.count }, shared && { color: shared.color, count: shared.count }, `${outcome} ${mix.join(',')}`);
      }
    }
  });

  it('says what each badge means in words: its character, its colour and what it counts (the legend)', () => {
    const meaning = (outcome: Outcome | null, ...list: Outcome[]) => badgeMeaning(resultBadge({ outcome, findings: findings(...list) })!);
    assert.equal(meaning(null, 'fail', 'warning'), '2 in red: a check failed; the number counts failures and warnings');
    assert.equal(meaning(null, 'warning'), '1 in orange: warnings, nothing failed; the number counts warnings');
    assert.equal(meaning(null, 'pass', 'pass'), '2 in green: the checks passed; the number counts passes');
    assert.equal(meaning('fail'), '! in red: a check failed');
    assert.equal(meaning('pass'), '✓ in green: the checks passed');
    assert.equal(meaning(null, 'info'), 'i: information only, nothing passed or failed');
  });
});
