// The bulk update's texts in the extension name fields as its field picker does (label, and the name after it only
// where the label hides it); the CLI's texts keep the names its users type.
import assert from 'node:assert/strict';
import { describeChanges, describePlan, fieldLabels, invertChangeSet, planBulkUpdate, type FieldDefinitionInfo, type RecordDocument } from '../../../src/core/records';

const id = (n: number) => n.toString(16).padStart(32, '0');
const definitions: FieldDefinitionInfo[] = [
  { id: id(1), name: 'Photographer', label: 'Photographer, credit', dataType: 'SingleLineText' },
  { id: id(2), name: 'UsageRights', label: 'Usage rights', dataType: 'OptionList', options: [{ id: id(21), name: 'Internal' }, { id: id(22), name: 'Public' }] },
  { id: id(3), name: 'Caption', label: 'Caption', dataType: 'MultiLineText', isLocalizable: true },
  { id: id(4), name: 'Notes', label: 'Notes', dataType: 'SingleLineText' },
  { id: id(5), name: 'InternalNotes', label: 'Notes', dataType: 'SingleLineText' },
  { id: id(6), name: 'Pages', dataType: 'Numeric' },
];
const languages = [{ id: id(90), culture: 'en-US' }];
const doc = (n: number, fields: RecordDocument['fields']): RecordDocument => ({
  id: id(500 + n),
  title: `Photo ${n}`,
  status: 'Draft',
  contentType: 'Image',
  classifications: [],
  fields,
  readOnly: {},
});
const docs = [doc(0, { Photographer: 'Lena Berg', UsageRights: ['Internal'] }), doc(1, { Photographer: null, UsageRights: ['Public'] })];
const label = fieldLabels(definitions);

describe('bulk update texts by label', () => {
  it('a field reads as its label, with the name only where the picker shows it', () => {
    assert.equal(label('Photographer'), 'Photographer, credit (Photographer)');
    assert.equal(label('UsageRights'), 'Usage rights');
    assert.equal(label('Caption'), 'Caption');
    assert.equal(label('Pages'), 'Pages');
    // Two fields with one label: each keeps its name, as in the picker.
    assert.equal(label('Notes'), 'Notes (Notes)');
    assert.equal(label('InternalNotes'), 'Notes (InternalNotes)');
    assert.equal(label('NoSuchField'), 'NoSuchField');
  });

  it('the dry run counts fields by label; status and classifications as they were; without labels, by name', () => {
    const plan = planBulkUpdate(docs, { set: { Photographer: 'Bulk', UsageRights: 'Public' }, status: 'Released' }, definitions, { languages });
    assert.deepEqual(plan.problems, []);
    assert.deepEqual(describePlan(plan, label).slice(1), ['  status → Released: 2 records', '  Photographer, credit (Photographer): 2 records', '  Usage rights: 1 record']);
    assert.deepEqual(describePlan(plan).slice(1), ['  status → Released: 2 records', '  Photographer: 2 records', '  UsageRights: 1 record']);
  });

  it("each record's old → new names the field by label, a localized one with its language", () => {
    const plan = planBulkUpdate(docs, { set: { Photographer: 'Bulk', Caption: 'Sea' }, language: 'en-US' }, definitions, { languages });
    assert.deepEqual(plan.problems, []);
    assert.deepEqual(describeChanges(plan.items[0].changes, label), ['Photographer, credit (Photographer): "Lena Berg" → "Bulk"', 'Caption [en-US]: (empty) → "Sea"']);
    assert.deepEqual(describeChanges(plan.items[0].changes), ['Photographer: "Lena Berg" → "Bulk"', 'Caption [en-US]: (empty) → "Sea"']);
  });

  it('the undo of an update names the fields it puts back by label', () => {
    const plan = planBulkUpdate(docs, { clear: ['Photographer'] }, definitions, { languages });
    assert.deepEqual(describeChanges(invertChangeSet(plan.items[0].changes), label), ['Photographer, credit (Photographer): (empty) → "Lena Berg"']);
  });
});
