// Configuration resources as a tenant answers them to exporters and typed SDKs (fourth interop round): every member of
// a field definition has a value (kept properties override the defaults), `rootId` and `memberships` are the tenant's
// names for the root and the group and are accepted on writes, and the configuration collections the emulator keeps
// nothing for (permissions, watermarks, rules, translations, a classification's permission sets) answer their shape.
import { strict as assert } from 'node:assert';
import { describeEachBackend } from './helpers';
import { clientCredentialsToken, expectStatus, send } from '../interop/replay';

const EMPTY = '00000000000000000000000000000000';
const EN = 'c2bd4f9bbb954bcb80c31e924c9c26dc';
const DE = '691a7c8657dc4330a512c616db954d6a';

describeEachBackend('configuration shapes for exporters and typed clients', { seed: 'empty' }, (env) => {
  let token = '';
  const json = () => ({ Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/json', 'Content-Type': 'application/json' });
  const post = async (path: string, body: unknown) => String(expectStatus(await send(env().url, 'POST', `/api/core/${path}`, json(), JSON.stringify(body)), 201).json.id);
  const read = async (path: string) => expectStatus(await send(env().url, 'GET', `/api/core/${path}`, json()), 200).json;

  before(async () => {
    token = await clientCredentialsToken(env().url);
  });

  it('a definition written with rootId (dashed, as an SDK sends it) reads back with rootId and rootClassificationId; the empty GUID clears it', async () => {
    const root = await post('classifications', { name: 'Shapes root' });
    const dashed = root.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
    const id = await post('fielddefinitions', { name: 'ShapesList', dataType: 'ClassificationList', rootId: dashed });
    let def = await read(`fielddefinition/${id}`);
    assert.equal(def.rootId, root);
    assert.equal(def.rootClassificationId, root);
    expectStatus(await send(env().url, 'PUT', `/api/core/fielddefinition/${id}`, json(), JSON.stringify({ rootId: EMPTY })), 204);
    def = await read(`fielddefinition/${id}`);
    assert.equal(def.rootId, EMPTY, 'no root reads as the empty GUID, not null');
    assert.equal(def.rootClassificationId, null);
  });

  it('memberships follow the field group; a sent property (indexed false, a validation) overrides the default and stays', async () => {
    const group = await post('fieldgroups', { name: 'ShapesGroup' });
    const id = await post('fielddefinitions', { name: 'ShapesText', dataType: 'SingleLineText', fieldGroupId: group, indexed: false, validation: '^[A-Z]+$' });
    const def = await read(`fielddefinition/${id}`);
    assert.deepEqual(def.memberships, [group]);
    assert.equal(def.indexed, false);
    assert.equal(def.validation, '^[A-Z]+$');
    assert.equal(def.isUniqueIdentifier, false);
    assert.deepEqual(def.resetToDefaultTriggers, []);
    const ungrouped = await read(`fielddefinition/${await post('fielddefinitions', { name: 'ShapesLoose', dataType: 'Numeric' })}`);
    assert.deepEqual(ungrouped.memberships, []);
    assert.equal(ungrouped.indexed, true);
  });

  it('writes take memberships as an array or as sections, a default as text, and apply sections to a kept list', async () => {
    const a = await post('fieldgroups', { name: 'ShapesA' });
    const b = await post('fieldgroups', { name: 'ShapesB' });
    const id = await post('fielddefinitions', { name: 'ShapesTags', dataType: 'TextList', memberships: [a], defaultValue: 'red, green', enabledLanguages: { addOrUpdate: [EN, DE] } });
    let def = await read(`fielddefinition/${id}`);
    assert.deepEqual(def.memberships, [a]);
    assert.deepEqual(def.defaultValue, { values: ['red', 'green'] }, 'a list field reads a text default as comma-separated values');
    assert.deepEqual(def.enabledLanguages, [EN, DE]);
    const put = (body: unknown) => send(env().url, 'PUT', `/api/core/fielddefinition/${id}`, json(), JSON.stringify(body));
    expectStatus(await put({ memberships: { remove: [b] }, enabledLanguages: { remove: [DE] }, defaultValue: '' }), 204);
    def = await read(`fielddefinition/${id}`);
    assert.deepEqual(def.memberships, [a], 'removing a group it is not in changes nothing');
    assert.deepEqual(def.enabledLanguages, [EN]);
    assert.equal(def.defaultValue, null, 'an empty text default is none');
    expectStatus(await put({ memberships: { addOrUpdate: [], remove: [a] } }), 204);
    assert.deepEqual((await read(`fielddefinition/${id}`)).memberships, []);
  });

  it('classifications, content types and setting definitions carry the members exporters read, none of them missing', async () => {
    const c = await read(`classification/${await post('classifications', { name: 'Shapes members' })}`);
    for (const m of ['registeredFieldGroups', 'registeredFields']) assert.deepEqual(c[m], [], m);
    const types = await read('contenttypes');
    for (const t of types.items!) {
      for (const m of ['purpose', 'parentId', 'registeredFields', 'defaultFileExtensions', 'titleConfiguration', 'inheritanceConfiguration', 'inheritanceFieldId', 'inheritableFields']) assert.ok(m in t, m);
    }
    const defs = await read('settingdefinitions');
    for (const d of defs.items!) {
      assert.equal(typeof d.userGroupSettingMode, 'string');
      assert.equal(typeof (d.labels as { value: string }[])[0].value, 'string');
    }
  });

  it('the configuration collections answer paged shapes; a permission set of an unknown group or classification is a 404 with the error object', async () => {
    for (const path of ['watermarks', 'rules', 'translations', 'permissions']) {
      const page = await read(path);
      assert.ok(Array.isArray(page.items), path);
      assert.equal(typeof page.totalCount, 'number', path);
    }
    const permissions = await read('permissions?filter=' + encodeURIComponent("name = '.RoleExecuteMaintenanceJobs'"));
    assert.deepEqual(permissions.items!.map((p) => p.name), ['.RoleExecuteMaintenanceJobs']);
    expectStatus(await send(env().url, 'GET', '/api/core/usergroup/999999/permissions', json()), 404);
    expectStatus(await send(env().url, 'GET', `/api/core/classification/${'f'.repeat(32)}/RecordPermissions`, json()), 404);
  });
});
