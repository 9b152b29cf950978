// Pickers and prompts name a field's kind in words (the bulk update's field picker showed `SingleLineText`, then
// "single-line text" and "option list" without its options), and a field's name only where its label does not say it.
import { strict as assert } from 'node:assert';
import { dataTypeWords, fieldKindWords, fieldTitle, nameHelps } from '../../../src/core/records';
import { FIELD_DATA_TYPES } from '../../../src/core/search';

describe('data types in words', () => {
  it('says every data type of the service in words, none as its identifier', () => {
    for (const type of FIELD_DATA_TYPES) {
      const words = dataTypeWords(type);
      assert.notEqual(words, type, `${type} has no words`);
      assert.doesNotMatch(words, /[a-z][A-Z]|-/, `${type} reads as an identifier: ${words}`);
    }
    assert.equal(dataTypeWords('SingleLineText'), 'single line of text');
    assert.equal(dataTypeWords('OptionList'), 'list of options');
    assert.equal(dataTypeWords('Date'), 'date');
  });

  it('reads a type in another case, and shows an unknown type as the service names it', () => {
    assert.equal(dataTypeWords('optionlist'), 'list of options');
    assert.equal(dataTypeWords('FancyNewType'), 'FancyNewType');
    assert.equal(dataTypeWords(undefined), 'no data type');
  });

  it('names an option list by its first options, by label, and a classification list by its root path', () => {
    const options = ['Draft', 'Approved', 'Rejected', 'Archived'].map((label, i) => ({ id: `0${i}`, name: label.toUpperCase(), label }));
    assert.equal(fieldKindWords({ dataType: 'OptionList', options }), 'list of options: Draft, Approved, Rejected, …');
    assert.equal(fieldKindWords({ dataType: 'OptionList', options: options.slice(0, 2) }), 'list of options: Draft, Approved');
    assert.equal(fieldKindWords({ dataType: 'OptionList', options: [{ id: '1', name: 'InternalOnly' }] }), 'list of options: InternalOnly');
    assert.equal(fieldKindWords({ dataType: 'OptionList', options: [] }), 'list of options');
    assert.equal(fieldKindWords({ dataType: 'ClassificationList' }, '/Products'), 'list of classifications under /Products');
    assert.equal(fieldKindWords({ dataType: 'ClassificationList' }), 'list of classifications');
    assert.equal(fieldKindWords({ dataType: 'SingleLineText' }, '/ignored'), 'single line of text');
  });

  it('shows a field by its label, and its name only where the label does not say it', () => {
    assert.equal(fieldTitle({ name: 'UsageRights', label: 'Usage rights' }), 'Usage rights');
    assert.equal(fieldTitle({ name: 'Keywords', label: '  ' }), 'Keywords');
    assert.equal(nameHelps({ name: 'UsageRights', label: 'Usage rights' }), false);
    assert.equal(nameHelps({ name: 'Keywords' }), false);
    assert.equal(nameHelps({ name: 'Photographer', label: 'Photographer, credit' }), true);
    assert.equal(nameHelps({ name: 'ContentType', label: 'Kind of asset' }), true);
    // Two fields with one label: each needs its name.
    const both = [{ name: 'Credit', label: 'Credit' }, { name: 'PhotoCredit', label: 'Credit' }];
    assert.equal(nameHelps(both[0], both), true);
  });
});
