// Pickers and prompts name a field's kind in words (the bulk update's field picker showed `SingleLineText`).
import { strict as assert } from 'node:assert';
import { dataTypeWords } from '../../../src/core/records';
import { FIELD_DATA_TYPES } from '../../../src/core/search';

describe('data types in words', () => {
  it('says every data type of the service in words, none as its identifier', () => {
    for (const type of FIELD_DATA_TYPES) {
      const words = dataTypeWords(type);
      assert.notEqual(words, type, `${type} has no words`);
      assert.doesNotMatch(words, /[a-z][A-Z]/, `${type} reads as an identifier: ${words}`);
    }
    assert.equal(dataTypeWords('SingleLineText'), 'single-line text');
    assert.equal(dataTypeWords('OptionList'), 'option list');
  });

  it('reads a type in another case, and shows an unknown type as the service names it', () => {
    assert.equal(dataTypeWords('optionlist'), 'option list');
    assert.equal(dataTypeWords('FancyNewType'), 'FancyNewType');
    assert.equal(dataTypeWords(undefined), 'no data type');
  });
});
