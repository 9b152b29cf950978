// Issue 35: classification paths got no completion in a record document. Where one is typed (an item of
// `classifications` or of a ClassificationList field) is found from the text and the cursor (`|`).
import assert from 'node:assert/strict';
import { classificationProblems, classificationSlotAt, namedClassifications, parentPathOf, parseDocument, validateDocument, type FieldDefinitionInfo } from '../../../src/core/records';

const definitions: FieldDefinitionInfo[] = [
  { id: '1', name: 'ProductLine', dataType: 'ClassificationList' },
  { id: '2', name: 'Keywords', dataType: 'TextList' },
];

function slotFor(marked: string) {
  const offset = marked.indexOf('|');
  const text = marked.slice(0, offset) + marked.slice(offset + 1);
  const slot = classificationSlotAt(text, offset, definitions);
  return slot && { typed: slot.typed, replaces: text.slice(slot.start, slot.end), quoted: slot.quoted };
}

describe('classification completion: where a path is typed', () => {
  const table: [string, string, ReturnType<typeof slotFor>][] = [
    ['inside a path in classifications', '{ "classifications": ["/Prod|ucts"] }', { typed: '/Prod', replaces: '/Products', quoted: true }],
    ['a second item', '{ "classifications": ["/A", "/Products/Sh|"] }', { typed: '/Products/Sh', replaces: '/Products/Sh', quoted: true }],
    ['an empty list, no quotes yet', '{ "classifications": [|] }', { typed: '', replaces: '', quoted: false }],
    ['a ClassificationList field', '{ "fields": { "ProductLine": ["/|"] } }', { typed: '/', replaces: '/', quoted: true }],
    ['a half-typed document', '{ "fields": { "ProductLine": ["/Products/|\n', { typed: '/Products/', replaces: '/Products/', quoted: true }],
    ['another list field: none', '{ "fields": { "Keywords": ["/|"] } }', undefined],
    ['a key: none', '{ "classi|fications": [] }', undefined],
    ['the status: none', '{ "status": "Dr|aft" }', undefined],
  ];
  for (const [title, text, expected] of table) it(title, () => assert.deepEqual(slotFor(text), expected));

  it('completes one level at a time', () => {
    assert.equal(parentPathOf(''), '');
    assert.equal(parentPathOf('/Pro'), '');
    assert.equal(parentPathOf('/Products/'), '/Products');
    assert.equal(parentPathOf('/Products/Sh'), '/Products');
  });
});

describe('classification paths the tenant does not have', () => {
  const known = [{ id: 'a'.repeat(32), namePath: '/Products/Shoes' }];

  it('are one problem each, placed on the path, in classifications and ClassificationList fields', () => {
    const text = '{\n  "id": "x",\n  "status": "Draft",\n  "classifications": ["/Products/Shoes", "/Products/Hatz", "no path"],\n  "fields": { "ProductLine": ["/Nowhere"], "Keywords": ["/not/a/classification"] }\n}\n';
    const doc = parseDocument(text).doc!;
    assert.deepEqual(namedClassifications(doc, definitions), ['/Products/Shoes', '/Products/Hatz', '/Nowhere']);
    const problems = classificationProblems(doc, definitions, known).map((p) => ({ message: p.message, at: text.slice(p.offset, p.offset! + p.length!) }));
    assert.deepEqual(problems, [
      { message: "There is no classification '/Products/Hatz'.", at: '"/Products/Hatz"' },
      { message: "There is no classification '/Nowhere'.", at: '"/Nowhere"' },
    ]);
    // "no path" is validateDocument's alone ("neither a name path nor a classification id"): not reported twice.
    const validated = validateDocument(doc, definitions).map((p) => p.message);
    assert.deepEqual(validated.filter((m) => /classification/.test(m)), ["'no path' is neither a name path (/A/B) nor a classification id."]);
  });
});
