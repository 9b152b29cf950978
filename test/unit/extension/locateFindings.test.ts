// Findings located in a document's text: severities by outcome, every place of a repeated text, a
// case-insensitive match only when no exact one exists, blank findings skipped.
import * as assert from 'node:assert/strict';
import { locateFindings, MAX_MARKS_PER_FINDING, severityOf } from '../../../src/extension/findings/locate';

const doc = 'Spring launch copy.\nUse the word synergy sparingly.\nSynergy again: synergy.\nPrice: 10 EUR\n';

describe('locating findings in a document', () => {
  it('maps outcomes to severities', () => {
    assert.equal(severityOf('fail'), 'error');
    assert.equal(severityOf('warning'), 'warning');
    assert.equal(severityOf('pass'), 'information');
    assert.equal(severityOf('info'), 'information');
    assert.equal(severityOf(null), 'information');
  });

  it('marks each exact occurrence at its text with the finding’s severity and message', () => {
    const located = locateFindings(doc, [{ occurrence: 1, finding: 'synergy', outcome: 'warning', explanation: 'Jargon.', recommendation: 'Say what it does.' }], 'Style');
    assert.deepEqual(
      located.map((l) => doc.slice(l.start, l.end)),
      ['synergy', 'synergy'],
    );
    assert.deepEqual(located.map((l) => l.start), [doc.indexOf('synergy'), doc.lastIndexOf('synergy')]);
    assert.equal(located[0]!.severity, 'warning');
    assert.equal(located[0]!.message, 'synergy\nJargon.\nRecommendation: Say what it does.');
    assert.equal(located[0]!.source, 'Style');
  });

  it('falls back to a case-insensitive match only when there is no exact one', () => {
    const located = locateFindings(doc, [{ occurrence: 2, finding: 'PRICE: 10 eur', outcome: 'fail' }]);
    assert.equal(located.length, 1);
    assert.equal(doc.slice(located[0]!.start, located[0]!.end), 'Price: 10 EUR');
    assert.equal(located[0]!.severity, 'error');
  });

  it('skips findings that do not occur or are blank, and sorts by position', () => {
    const located = locateFindings(doc, [
      { occurrence: 3, finding: 'Price', outcome: 'pass' },
      { occurrence: 4, finding: 'not in the text', outcome: 'fail' },
      { occurrence: 5, finding: '   ', outcome: 'fail' },
      { occurrence: 6, finding: 'Spring', outcome: 'info' },
    ]);
    assert.deepEqual(located.map((l) => l.occurrence), [6, 3]);
    assert.ok(located.every((l) => l.severity === 'information'));
  });

  it('caps the marks of one finding', () => {
    const many = 'ab '.repeat(MAX_MARKS_PER_FINDING + 10);
    assert.equal(locateFindings(many, [{ occurrence: 1, finding: 'ab', outcome: 'fail' }]).length, MAX_MARKS_PER_FINDING);
  });
});
