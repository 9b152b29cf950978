// The upload prompts' field rules: which data types get a prompt, how typed text is checked (numbers,
// calendar dates, ISO date-times), and the `fields` entry it becomes.
import * as assert from 'node:assert/strict';
import { defaultOf, optionsOf, toFieldInput, validateFieldText, widgetOf } from '../../../src/extension/files/fieldValues';
import type { FieldDefinition } from '../../../src/api/schemas';

const def = (dataType: string, extra: Record<string, unknown> = {}): FieldDefinition => ({ id: `f-${dataType}`, name: dataType, dataType, ...extra }) as FieldDefinition;
const usage = def('OptionList', {
  items: [
    { id: 'o1', name: 'Internal', label: 'Internal use', sortIndex: 0 },
    { id: 'o2', name: 'Web', label: 'Web', sortIndex: 1 },
  ],
  defaultValue: { values: ['o2'] },
});

describe('upload field values', () => {
  it('offers prompts for the types a prompt can fill, and none for references or structured types', () => {
    assert.equal(widgetOf(def('SingleLineText')), 'text');
    assert.equal(widgetOf(def('multilinetext')), 'text');
    assert.equal(widgetOf(def('Numeric')), 'number');
    assert.equal(widgetOf(def('Date')), 'date');
    assert.equal(widgetOf(def('DateTime')), 'datetime');
    assert.equal(widgetOf(def('OptionList')), 'options');
    assert.equal(widgetOf(def('TextList')), 'list');
    for (const t of ['ClassificationList', 'RecordList', 'UserList', 'Json', 'RecordLink', 'HyperlinkList']) assert.equal(widgetOf(def(t)), undefined, t);
    assert.equal(widgetOf({ dataType: null }), undefined);
  });

  it('checks numbers', () => {
    for (const ok of ['42', '-3.5', '.5', '1e3', ' 7 ', '']) assert.equal(validateFieldText('number', ok), undefined, ok);
    for (const bad of ['4 2', 'abc', '1,5', '0x10', 'Infinity', '1e999']) assert.ok(validateFieldText('number', bad), bad);
  });

  it('checks ISO dates against the calendar', () => {
    for (const ok of ['2025-03-01', '2024-02-29', '']) assert.equal(validateFieldText('date', ok), undefined, ok);
    for (const bad of ['2025-02-29', '2025-13-01', '2025-04-31', '01.03.2025', '2025-3-1', '2025-03-01T10:00:00Z']) assert.ok(validateFieldText('date', bad), bad);
  });

  it('checks ISO date-times', () => {
    for (const ok of ['2025-03-01T10:00Z', '2025-03-01T10:00:30.5+02:00', '2025-03-01T10:00:30']) assert.equal(validateFieldText('datetime', ok), undefined, ok);
    for (const bad of ['2025-03-01', '2025-03-01 10:00', '2025-03-01T25:00Z']) assert.ok(validateFieldText('datetime', bad), bad);
  });

  it('turns answers into the record body’s field entries', () => {
    assert.deepEqual(toFieldInput(def('Numeric'), ' 12.5 '), { id: 'f-Numeric', value: 12.5 });
    assert.deepEqual(toFieldInput(def('Date'), '2025-03-01'), { id: 'f-Date', value: '2025-03-01' });
    assert.deepEqual(toFieldInput(def('SingleLineText'), 'Ansel'), { id: 'f-SingleLineText', value: 'Ansel' });
    assert.deepEqual(toFieldInput(def('TextList'), 'a, b,,c'), { id: 'f-TextList', values: ['a', 'b', 'c'] });
    assert.deepEqual(toFieldInput(usage, ['o1', 'o2']), { id: 'f-OptionList', values: ['o1', 'o2'] });
    assert.deepEqual(toFieldInput(usage, 'web'), { id: 'f-OptionList', values: ['web'] }, 'an option name is accepted as the service accepts it');
    assert.equal(toFieldInput(def('SingleLineText'), '  '), undefined, 'empty sends nothing');
    assert.equal(toFieldInput(usage, []), undefined);
    assert.throws(() => toFieldInput(def('Date'), '2025-02-30'), /not a date/);
    assert.throws(() => toFieldInput(usage, ['nope']), /not an option/);
    assert.throws(() => toFieldInput(def('UserList'), 'x'), /cannot be set/);
  });

  it('reads options and defaults from the definition, ignoring what does not parse', () => {
    assert.deepEqual(optionsOf(usage), [
      { id: 'o1', name: 'Internal', label: 'Internal use' },
      { id: 'o2', name: 'Web', label: 'Web' },
    ]);
    assert.deepEqual(optionsOf(def('OptionList', { items: 'garbage' })), []);
    assert.deepEqual(defaultOf(usage).optionIds, ['o2']);
    assert.equal(defaultOf(def('SingleLineText', { defaultValue: { value: 'Unknown' } })).text, 'Unknown');
    assert.equal(defaultOf(def('TextList', { defaultValue: { values: ['a', 'b'] } })).text, 'a, b');
    assert.equal(defaultOf(def('Date', { defaultValue: 5 })).text, '');
  });
});
