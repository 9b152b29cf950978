// Record writes as a tenant answers them: PUT /record/{id} with fields by id or name, localized values, list types,
// record links, clearing, classifications and status; bad values refused with the error object naming the field
// and nothing changed; modifiedOn moving on every write; the write headers; the limited client's rights; DELETE.
// Then the record-editing core's change set applied through the client: one PUT, read back as edited.
import { strict as assert } from 'node:assert';
import { describeEachBackend, failure } from './helpers';
import { ApiError } from '../../src/api/errors';
import { embeddedItems } from '../../src/api/hal';
import { RecordSchema } from '../../src/api/schemas';
import { EMULATOR_LIMITED_CLIENT } from '../../src/core/contract';
import { diffDocuments, parseDocument, printDocument, validateDocument } from '../../src/core/records';
import { buildRecordTenant, type RecordTenant } from './recordFixture';

const EN_US = 'c2bd4f9bbb954bcb80c31e924c9c26dc';
const DE_DE = '3b8ab1a3c5c84b4b9a3a1b2c3d4e5f60';
const NEUTRAL = '00000000000000000000000000000000';
const dashed = (id: string) => `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`;

interface FieldRead {
  id: string;
  fieldName: string;
  localizedValues: { languageId: string; value?: unknown; values?: unknown[]; children?: { recordId: string }[] }[];
}

describeEachBackend('record writes', { seed: 'empty' }, (env) => {
  const client = () => env().client();
  const limited = () =>
    env().client({ profile: { ...env().profile, clientId: EMULATOR_LIMITED_CLIENT.clientId }, secrets: { clientSecret: EMULATOR_LIMITED_CLIENT.clientSecret } });
  const put = (id: string, json: unknown, headers: Record<string, string> = {}, who = client()) =>
    who.http.request({ method: 'PUT', path: `/record/${id}`, json, headers, responseType: 'none' });
  const create = async (who = client(), title = 'Write target') =>
    (await who.http.request({ method: 'POST', path: '/record', json: { title, status: 'Draft', contentType: 'Image' }, schema: RecordSchema })).data.id;
  const fields = async (id: string): Promise<Record<string, FieldRead>> => {
    const record = await client().records.get(id, { select: { resources: { record: ['fields'] }, languages: '*', resolveDefaultValues: false } });
    return Object.fromEntries((embeddedItems(record, 'fields') as FieldRead[]).map((f) => [f.fieldName, f]));
  };
  const read = (id: string) => client().records.get(id, { plain: true });

  let record = '';
  let other = '';
  let classification = '';
  let secondClassification = '';
  let tenant: RecordTenant;
  before(async () => {
    tenant = await buildRecordTenant(client());
    record = await create();
    other = await create(client(), 'Link target');
    classification = tenant.classifications['/Products/Shoes'];
    secondClassification = tenant.classifications['/Products/Hats'];
  });

  it('fields by id and by name; localized values with dashed language ids', async () => {
    const description = tenant.fields.Description;
    await put(record, {
      fields: {
        addOrUpdate: [
          { id: description, localizedValues: [{ languageId: dashed(EN_US).toUpperCase(), value: 'A quiet harbour' }] },
          { name: 'Description', localizedValues: [{ languageId: DE_DE, value: 'Ein stiller Hafen' }] },
          { name: 'Photographer', localizedValues: [{ languageId: NEUTRAL, value: 'Ana Lima' }] },
          { name: 'Pages', localizedValues: [{ value: 12 }] },
          { name: 'PublicationDate', localizedValues: [{ value: '2025-03-01' }] },
          { name: 'ShotAt', localizedValues: [{ value: '2025-03-01T10:30:00Z' }] },
          { name: 'StartsAt', localizedValues: [{ value: '09:30' }] },
        ],
      },
    });
    const f = await fields(record);
    assert.deepEqual(
      f.Description.localizedValues.map((v) => [v.languageId, v.value]).sort(),
      [
        [DE_DE, 'Ein stiller Hafen'],
        [EN_US, 'A quiet harbour'],
      ].sort(),
    );
    assert.equal(f.Photographer.localizedValues[0].value, 'Ana Lima');
    assert.equal(f.Pages.localizedValues[0].value, 12);
    assert.equal(f.PublicationDate.localizedValues[0].value, '2025-03-01');
    assert.equal(f.ShotAt.localizedValues[0].value, '2025-03-01T10:30:00.000Z');
    assert.equal(f.StartsAt.localizedValues[0].value, '09:30');
  });

  it('list types with values: options by name, text, classifications, languages, records', async () => {
    await put(record, {
      fields: {
        addOrUpdate: [
          { name: 'UsageRights', localizedValues: [{ languageId: NEUTRAL, values: ['Licensed'] }] },
          { name: 'Keywords', localizedValues: [{ languageId: NEUTRAL, values: ['sea', 'boat'] }] },
          { name: 'ProductLine', localizedValues: [{ languageId: NEUTRAL, values: [dashed(classification)] }] },
          { name: 'Spoken', localizedValues: [{ languageId: NEUTRAL, values: [EN_US, dashed(DE_DE)] }] },
          { name: 'Related', localizedValues: [{ languageId: NEUTRAL, values: [other] }] },
        ],
      },
    });
    const f = await fields(record);
    assert.deepEqual(f.UsageRights.localizedValues[0].values, [tenant.options.Licensed]);
    assert.deepEqual(f.Keywords.localizedValues[0].values, ['sea', 'boat']);
    assert.deepEqual(f.ProductLine.localizedValues[0].values, [classification]);
    assert.deepEqual(f.Spoken.localizedValues[0].values, [EN_US, DE_DE]);
    assert.deepEqual(f.Related.localizedValues[0].values, [other]);
  });

  it('a record link takes children and answers them', async () => {
    await put(record, { fields: { addOrUpdate: [{ name: 'Parts', localizedValues: [{ languageId: NEUTRAL, children: [{ recordId: dashed(other) }] }] }] } });
    assert.deepEqual((await fields(record)).Parts.localizedValues[0].children, [{ recordId: other }]);
  });

  it('value "" with values [] clears a value of any type', async () => {
    const clear = { languageId: NEUTRAL, value: '', values: [] };
    await put(record, {
      fields: {
        addOrUpdate: [
          { name: 'Keywords', localizedValues: [clear] },
          { name: 'Pages', localizedValues: [clear] },
          { name: 'Parts', localizedValues: [{ languageId: NEUTRAL, children: [] }] },
          { name: 'Description', localizedValues: [{ ...clear, languageId: DE_DE }] },
        ],
      },
    });
    const f = await fields(record);
    assert.equal(f.Keywords, undefined);
    assert.equal(f.Pages, undefined);
    assert.equal(f.Parts, undefined);
    assert.deepEqual(f.Description.localizedValues.map((v) => v.languageId), [EN_US]);
  });

  it('classifications are added and removed; status changes', async () => {
    await put(record, { status: 'released', classifications: { addOrUpdate: [{ id: classification }, { id: secondClassification }] } });
    await put(record, { classifications: { remove: [{ id: dashed(classification) }] } });
    const after = await client().records.get(record, { select: { resources: { record: ['classifications'] } } });
    assert.deepEqual((embeddedItems(after, 'classifications') as { id: string }[]).map((c) => c.id), [secondClassification]);
    assert.equal(after.status, 'Released');
  });

  const refusals: [string, unknown, number, RegExp][] = [
    ['a number field given text', { name: 'Pages', localizedValues: [{ value: 'ten' }] }, 400, /'Pages' needs a number/],
    ['an unknown field', { name: 'Colour', localizedValues: [{ value: 'red' }] }, 404, /Colour/],
    ['a read-only field', { name: 'Checksum', localizedValues: [{ value: 'x' }] }, 400, /'Checksum' is read-only/],
    ['an option not in the list', { name: 'UsageRights', localizedValues: [{ values: ['Secret'] }] }, 400, /'Secret' is not an option of the field 'UsageRights'/],
    ['an unknown language', { name: 'Description', localizedValues: [{ languageId: '0123456789abcdef0123456789abcdef', value: 'x' }] }, 400, /'Description'.*language/],
    ['a language id that is none', { name: 'Description', localizedValues: [{ languageId: 'english', value: 'x' }] }, 400, /'Description'.*language 'english'/],
    ['a text field given an object', { name: 'Photographer', localizedValues: [{ value: { a: 1 } }] }, 400, /'Photographer'/],
    ['a date that is none', { name: 'PublicationDate', localizedValues: [{ value: 'soon' }] }, 400, /'PublicationDate' needs an ISO 8601 date/],
    ['a time that is none', { name: 'StartsAt', localizedValues: [{ value: '25:00' }] }, 400, /'StartsAt' needs a time/],
    ['a record link to no record', { name: 'Parts', localizedValues: [{ children: [{ recordId: '0123456789abcdef0123456789abcdef' }] }] }, 400, /'Parts' names record/],
    ['a classification that does not exist', { name: 'ProductLine', localizedValues: [{ values: ['0123456789abcdef0123456789abcdef'] }] }, 400, /'ProductLine' names classification/],
  ];
  for (const [title, field, status, message] of refusals) {
    it(`refuses ${title} with the error object naming the field, and changes nothing`, async () => {
      const before = await read(record);
      const err = await failure<ApiError>(() => put(record, { title: 'Must not stick', fields: { addOrUpdate: [field] } }));
      assert.ok(err instanceof ApiError, String(err));
      assert.equal(err.status, status);
      assert.match(err.exceptionMessage ?? '', message);
      assert.match(err.exceptionType ?? '', /\.(ValidationException|NoDataFoundException)$/);
      const after = await read(record);
      assert.equal(after.title, before.title);
      assert.equal(after.modifiedOn, before.modifiedOn);
    });
  }

  it('modifiedOn moves forward on every write, even two in a row', async () => {
    const seen = [(await read(record)).modifiedOn!];
    for (let i = 0; i < 3; i++) {
      await put(record, { title: `Write ${i}` });
      seen.push((await read(record)).modifiedOn!);
    }
    for (let i = 1; i < seen.length; i++) assert.ok(Date.parse(seen[i]) > Date.parse(seen[i - 1]), `${seen[i]} after ${seen[i - 1]}`);
  });

  it('a required field cannot be cleared, unless disable-validations is sent; disable-rules and client-id are accepted', async () => {
    await put(record, { fields: { addOrUpdate: [{ name: 'Owner', localizedValues: [{ value: 'Ana' }] }] } });
    const err = await failure<ApiError>(() => put(record, { fields: { addOrUpdate: [{ name: 'Owner', localizedValues: [{ value: '', values: [] }] }] } }));
    assert.equal(err.status, 400);
    assert.match(err.exceptionMessage ?? '', /'Owner' is required/);
    assert.equal((await fields(record)).Owner.localizedValues[0].value, 'Ana');
    await put(record, { fields: { addOrUpdate: [{ name: 'Owner', localizedValues: [{ value: '' }] }] } }, { 'disable-validations': 'true', 'disable-rules': 'true', 'client-id': 'migration-7' });
    assert.equal((await fields(record)).Owner, undefined);
  });

  it('the limited client edits and deletes its own records only', async () => {
    const own = await create(limited(), 'Editor record');
    await put(own, { title: 'Editor renamed', fields: { addOrUpdate: [{ name: 'Keywords', localizedValues: [{ values: ['mine'] }] }] } }, {}, limited());
    assert.equal((await read(own)).title, 'Editor renamed');
    const before = await read(record);
    const err = await failure<ApiError>(() => put(record, { title: 'Not yours' }, {}, limited()));
    assert.equal(err.status, 403);
    assert.match(err.exceptionType ?? '', /AccessDenied/);
    assert.equal((await read(record)).modifiedOn, before.modifiedOn);
    const denied = await failure<ApiError>(() => limited().recordEdits.delete(record));
    assert.equal(denied.status, 403);
    await limited().recordEdits.delete(own);
    assert.equal((await failure<ApiError>(() => read(own))).status, 404);
  });

  it('DELETE removes a record; a second DELETE is 404 with the error object', async () => {
    const doomed = await create();
    await client().recordEdits.delete(doomed);
    const err = await failure<ApiError>(() => client().recordEdits.delete(doomed));
    assert.equal(err.status, 404);
    assert.match(err.exceptionType ?? '', /NoDataFoundException$/);
  });

  describe('the record-editing core through the client', () => {
    it('opens a record as a document that shows its fields by name and its classifications by path', async () => {
      const opened = await client().recordEdits.open(record);
      assert.equal(opened.document.id, record);
      assert.deepEqual(opened.document.fields.UsageRights, ['Licensed']);
      assert.deepEqual(opened.document.fields.Description, { 'en-US': 'A quiet harbour' });
      assert.match(String(opened.document.classifications[0]), /^\//);
      assert.match(String((opened.document.fields.ProductLine as string[])[0]), /^\//);
      assert.ok('Checksum' in (opened.document.readOnly.fields ?? {}));
      assert.equal(opened.modifiedOn, (await read(record)).modifiedOn);
    });

    it('a saved edit is one PUT with only what changed, and reads back as edited', async () => {
      const edits = client();
      const opened = await edits.recordEdits.open(record);
      const edited = structuredClone(opened.document);
      edited.fields.UsageRights = ['Unrestricted'];
      edited.fields.Description = { 'en-US': 'A quiet harbour', 'fr-FR': 'Un port calme' };
      edited.fields.Pages = 40;
      const { definitions, languages } = await edits.recordEdits.tenantModel();
      const parsed = parseDocument(printDocument(edited));
      assert.deepEqual(validateDocument(parsed.doc!, definitions, { languages, before: opened.document }).filter((p) => p.severity === 'error'), []);
      const changes = diffDocuments(opened.document, parsed.doc!, definitions);
      assert.equal(changes.fields.length, 3);
      const count = env().events.length;
      await edits.recordEdits.apply(changes);
      const writes = env().events.slice(count).filter((e) => e.method !== 'GET');
      assert.deepEqual(writes.map((e) => e.method), ['PUT']);
      const again = await edits.recordEdits.open(record);
      assert.deepEqual(again.document.fields.UsageRights, ['Unrestricted']);
      assert.deepEqual(again.document.fields.Description, { 'en-US': 'A quiet harbour', 'fr-FR': 'Un port calme' });
      assert.equal(again.document.fields.Pages, 40);
      assert.notEqual(again.modifiedOn, opened.modifiedOn);
    });
  });
});
