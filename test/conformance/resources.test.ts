// The other core resources through the client: field definitions and groups, users and groups,
// languages, settings (with `.renditionPreset`), setting definitions and content types.
import { strict as assert } from 'node:assert';
import { describeEachBackend, failure } from './helpers';
import { ApiError } from '../../src/api/errors';
import { collect } from '../../src/api/paging';
import { embeddedItems, link } from '../../src/api/hal';
import type { DamClient } from '../../src/api/client';
import { NEUTRAL_LANGUAGE_ID } from '../../src/api/schemas';
import { CONTENT_API_IDS, userIdOfGuid } from '../../src/core/contract';

type Collection = 'fieldDefinitions' | 'fieldGroups' | 'users' | 'userGroups' | 'languages' | 'settings' | 'settingDefinitions' | 'contentTypes';

describeEachBackend('core resources', { seed: 'demo' }, (env) => {
  const client = () => env().client();

  const collections: Collection[] = ['fieldDefinitions', 'fieldGroups', 'users', 'userGroups', 'languages', 'settings', 'settingDefinitions', 'contentTypes'];
  for (const name of collections) {
    it(`${name}: the collection pages and each item reads back by its self link and by id`, async () => {
      const c = client()[name] as DamClient['users'];
      const page = await c.list({ pageSize: 5 });
      assert.ok(page.items.length > 0, `${name} is not empty`);
      assert.ok(page.items.length <= 5);
      const first = page.items[0];
      const self = link(first, 'self');
      assert.ok(self, 'items carry a self link');
      const viaLink = await client().follow(self, c.definition.schema);
      assert.equal(String((viaLink as { id?: unknown }).id ?? ''), String(first.id ?? ''));
      if (first.id !== undefined) {
        const viaId = await c.get(String(first.id));
        assert.equal(String(viaId.id), String(first.id));
      }
    });
  }

  it('the contract users, group and ids are there', async () => {
    const users = await collect(client().users.items({ pageSize: 1000, plain: true }));
    // The content API names them by GUID (contract "Fixed ids").
    const logins = new Map(users.map((u) => [String(u.id), u]));
    for (const id of Object.values(CONTENT_API_IDS.users)) assert.ok(logins.has(id), `user ${id}`);
    const group = await client().userGroups.get(CONTENT_API_IDS.groups.Marketing);
    assert.equal(group.name, 'Marketing');
  });

  it('languages include the neutral language (32 zeros)', async () => {
    const languages = await collect(client().languages.items({ pageSize: 1000 }));
    assert.ok(languages.some((l) => l.id === NEUTRAL_LANGUAGE_ID));
  });

  it('content types include Image, Video and Document', async () => {
    const names = (await collect(client().contentTypes.items({ pageSize: 1000 }))).map((t) => t.name);
    for (const wanted of ['Image', 'Video', 'Document']) assert.ok(names.includes(wanted), wanted);
  });

  it('.renditionPreset holds the contract presets', async () => {
    const presets = await client().renditionPresets();
    const byName = new Map(presets.map((p) => [p.name, p]));
    assert.equal(byName.get('thumbnail')?.format, 'png');
    assert.equal(byName.get('web')?.format, 'jpg');
    assert.match(JSON.stringify(byName.get('cutout')?.aiActions ?? ''), /removeBackground/);
  });

  it('settings and setting definitions can be filtered by name', async () => {
    const found = await client().settings.list({ filter: "Name = '.renditionPreset'" });
    assert.ok(found.items.some((s) => s.name === '.renditionPreset'));
    const definitions = await client().settingDefinitions.list({ pageSize: 1000 });
    assert.ok(definitions.items.some((d) => d.name === '.renditionPreset'));
  });

  it('a setting is updated with a partial PUT and reset with null', async () => {
    const definitions = await collect(client().settingDefinitions.items({ pageSize: 1000, plain: true }));
    const timeSetting = definitions.find((d) => d.name === '.minimumAvailableTimeForPreviews') ?? definitions.find((d) => d.name !== '.renditionPreset');
    assert.ok(timeSetting?.name);
    const before = await client().settings.get(timeSetting.name);
    await client().settings.update(timeSetting.name, { value: '48' });
    assert.equal(String((await client().settings.get(timeSetting.name)).value), '48');
    await client().settings.update(timeSetting.name, { value: null });
    assert.deepEqual((await client().settings.get(timeSetting.name)).value, before.value === '48' ? null : before.value);
  });

  describe('field definitions, percent-encoded names', () => {
    const awkward = `Size, in cm / ü ${Date.now().toString(36)}`;
    let fieldId = '';
    let recordId = '';

    it('create a field definition whose name has a comma, a slash and a non-ASCII letter', async () => {
      const created = await client().fieldDefinitions.create({ name: awkward, label: 'Size', dataType: 'SingleLineText' });
      assert.match(created.id, /^[0-9a-f]{32}$/);
      assert.equal(created.name, awkward);
      fieldId = created.id;
    });

    it('select-record-fields names it percent-encoded (%2C for the comma)', async () => {
      const record = await client().records.create({ title: 'Field holder', fields: { addOrUpdate: [{ id: fieldId, localizedValues: [{ languageId: NEUTRAL_LANGUAGE_ID, value: '12' }] }] } });
      recordId = record.id;
      const selected = await client().records.get(recordId, { select: { recordFields: [awkward] } });
      const fields = embeddedItems(selected, 'fields') as Array<{ fieldName: string; localizedValues: Array<{ value: unknown }> }>;
      assert.deepEqual(fields.map((f) => f.fieldName), [awkward]);
      assert.equal(fields[0].localizedValues[0].value, '12');
    });

    it('fields remove drops the value', async () => {
      await client().records.update(recordId, { fields: { remove: [{ id: fieldId }] } });
      const selected = await client().records.get(recordId, { select: { recordFields: [fieldId], resolveDefaultValues: false } });
      const fields = embeddedItems(selected, 'fields') as Array<{ localizedValues?: Array<{ value: unknown }> }>;
      assert.ok(fields.every((f) => (f.localizedValues ?? []).every((v) => v.value === null || v.value === undefined)));
    });

    it('select-fieldgroup: fields embeds the group’s fields; select-record-fieldgroups limits a record to them', async () => {
      const groups = await collect(client().fieldGroups.items({ pageSize: 1000 }));
      let checked = false;
      for (const group of groups) {
        const selected = await client().fieldGroups.get(group.id, { select: { resources: { fieldgroup: ['fields'] } } });
        const members = new Set((embeddedItems(selected, 'fields') as Array<{ name?: string; fieldName?: string }>).map((f) => f.name ?? f.fieldName));
        if (members.size === 0) continue;
        for await (const record of client().records.items({ pageSize: 20 })) {
          const limited = await client().records.get(record.id, { select: { recordFieldGroups: [group.name ?? group.id] } });
          const names = (embeddedItems(limited, 'fields') as Array<{ fieldName: string }>).map((f) => f.fieldName);
          if (names.length === 0) continue;
          assert.ok(names.every((n) => members.has(n)), `${names.join(', ')} ⊆ ${[...members].join(', ')}`);
          assert.equal(limited._links, undefined);
          checked = true;
          break;
        }
        if (checked) break;
      }
      assert.ok(checked, 'the demo seed has a field group with values on a record');
    });

    it('select-resolve-default-values: a default shows when true or omitted, not when false', async () => {
      const name = `Fallback ${Date.now().toString(36)}`;
      const def = await client().fieldDefinitions.create({ name, dataType: 'SingleLineText', defaultValue: { value: 'fallback' } });
      const record = await client().records.create({ title: 'No value set' });
      const valueOf = async (resolveDefaultValues?: boolean) => {
        const read = await client().records.get(record.id, { select: { recordFields: [name], resolveDefaultValues } });
        const fields = embeddedItems(read, 'fields') as Array<{ localizedValues?: Array<{ value?: unknown }> }>;
        return fields.flatMap((f) => f.localizedValues ?? []).map((v) => v.value).filter((v) => v !== null && v !== undefined);
      };
      assert.deepEqual(await valueOf(), ['fallback']);
      assert.deepEqual(await valueOf(true), ['fallback']);
      assert.deepEqual(await valueOf(false), []);
      await client().records.delete(record.id);
      await client().fieldDefinitions.delete(def.id);
    });

    it('delete the field definition; reading it again is 404', async () => {
      await client().records.delete(recordId);
      await client().fieldDefinitions.delete(fieldId);
      const err = await failure<ApiError>(() => client().fieldDefinitions.get(fieldId));
      assert.equal(err.status, 404);
      assert.ok(err.exceptionType && err.exceptionMessage);
    });
  });

  it('user groups: create, rename, delete', async () => {
    const created = await client().userGroups.create({ name: 'Conformance group' });
    assert.equal(created.name, 'Conformance group');
    await client().userGroups.update(String(created.id), { name: 'Renamed group' });
    assert.equal((await client().userGroups.get(String(created.id))).name, 'Renamed group');
    await client().userGroups.delete(String(created.id));
    assert.equal((await failure<ApiError>(() => client().userGroups.get(String(created.id)))).status, 404);
  });

  it('users: POST creates (201, Location, id), a duplicate login is a 409, DELETE removes', async () => {
    const created = await client().users.create({ login: 'conformance.user', firstName: 'Con', lastName: 'Formance', email: 'c@example.com' });
    assert.ok(userIdOfGuid(String(created.id))! > 3, `new id ${created.id}`);
    assert.equal(created.firstName, 'Con');
    const read = await client().users.get(String(created.id), { plain: true });
    assert.equal(read.email, 'c@example.com');
    const duplicate = await failure<ApiError>(() => client().users.create({ login: 'CONFORMANCE.user' }));
    assert.equal(duplicate.status, 409);
    assert.ok(duplicate.exceptionMessage && duplicate.exceptionType);
    await client().users.delete(String(created.id));
    assert.equal((await failure<ApiError>(() => client().users.get(String(created.id)))).status, 404);
  });

  it('users: a user behind a registered client cannot be deleted (409 with the error object)', async () => {
    const err = await failure<ApiError>(() => client().users.delete('1'));
    assert.equal(err.status, 409);
    assert.match(err.exceptionMessage ?? '', /registered client/);
    assert.equal(String((await client().users.get('1')).id), CONTENT_API_IDS.users.admin, 'the integer id is still taken, the GUID answered');
  });

  it('users: a partial PUT changes the sent property only; null resets it', async () => {
    const before = await client().users.get('2', { plain: true });
    await client().users.update('2', { lastName: 'Changed' });
    const changed = await client().users.get('2', { plain: true });
    assert.equal(changed.lastName, 'Changed');
    assert.equal(changed.firstName, before.firstName);
    assert.equal(changed.email, before.email);
    await client().users.update('2', { lastName: before.lastName ?? null });
    assert.equal((await client().users.get('2')).lastName, before.lastName);
  });
});
