// Differences from a tenant that public clients met (issue 36, part 3), over raw HTTP as they send it: an order's
// `executionTime` is a date-time, a clear (`value: ""`, `values: []`) in a client's language empties a field that is
// not localizable, and the record trail keeps every change made through the API (`filter=change`, entries read under
// the record); users and groups are named by GUID in the content API and by integer in the work-management API.
import { strict as assert } from 'node:assert';
import { CONTENT_API_IDS } from '../../src/core/contract';
import { describeEachBackend } from './helpers';
import { clientCredentialsToken, expectStatus, send } from '../interop/replay';

const EN_US = 'c2bd4f9bbb954bcb80c31e924c9c26dc';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describeEachBackend('known differences from a tenant', { seed: undefined }, (env) => {
  let token = '';
  const json = () => ({ Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/json', 'Content-Type': 'application/json' });
  const hal = () => ({ ...json(), Accept: 'application/hal+json' });
  const newRecord = async (title: string) => String(expectStatus(await send(env().url, 'POST', '/api/core/records', json(), JSON.stringify({ title })), 201).json.id);
  const field = async (name: string) => {
    const items = expectStatus(await send(env().url, 'GET', '/api/core/fielddefinitions?pageSize=200', json()), 200).json.items as { id: string; name: string; dataType: string; isLocalizable: boolean }[];
    return items.find((f) => f.name === name)!;
  };
  const valuesOf = async (recordId: string, fieldId: string) => {
    // The stored values, not the definition's default a read shows in their place.
    const items = expectStatus(await send(env().url, 'GET', `/api/core/record/${recordId}/fields`, { ...json(), 'select-resolve-default-values': 'false' }), 200).json.items as { id: string; localizedValues: unknown[] }[];
    return items.find((f) => f.id === fieldId)?.localizedValues ?? [];
  };
  const setField = async (recordId: string, fieldId: string, localized: Record<string, unknown>) =>
    expectStatus(await send(env().url, 'PUT', `/api/core/record/${recordId}`, json(), JSON.stringify({ fields: { addOrUpdate: [{ id: fieldId, localizedValues: [localized] }] } })), 204);

  before(async () => {
    token = await clientCredentialsToken(env().url);
  });

  it('an order answers executionTime as a date-time, in the POST answer and on a read', async () => {
    const recordId = await newRecord('order target');
    const body = { type: 'download', targets: [{ recordId, targetTypes: ['Document'], assetType: 'LatestVersionOfMasterFile' }], disableNotification: true };
    const order = expectStatus(await send(env().url, 'POST', '/api/core/orders', hal(), JSON.stringify(body)), 201).json;
    assert.match(String(order.executionTime), ISO);
    const again = expectStatus(await send(env().url, 'GET', `/api/core/order/${String(order.id)}`, json()), 200).json;
    assert.match(String(again.executionTime), ISO);
    assert.ok(Date.parse(String(again.executionTime)) >= Date.parse(String(again.createdOn)));
  });

  for (const name of ['Photographer', 'UsageRights', 'PublicationDate', 'Keywords']) {
    it(`a clear with value "" and values [] in en-US empties ${name} (not localizable), whatever language holds it`, async () => {
      const def = await field(name);
      assert.equal(def.isLocalizable, false);
      const recordId = await newRecord(`clear ${name}`);
      const value = { SingleLineText: { value: 'Ada' }, OptionList: { values: [] as string[] }, Date: { value: '2024-05-01' }, TextList: { values: ['a', 'b'] } }[def.dataType]!;
      if (def.dataType === 'OptionList') {
        const options = expectStatus(await send(env().url, 'GET', `/api/core/fielddefinition/${def.id}`, json()), 200).json.items as { id: string }[];
        value.values = [options[0].id];
      }
      // Written once in the neutral language (as a default or an import does), once in en-US (as most clients do).
      await setField(recordId, def.id, { languageId: '00000000000000000000000000000000', ...value });
      assert.equal((await valuesOf(recordId, def.id)).length, 1);
      await setField(recordId, def.id, { value: '', values: [], languageId: EN_US });
      assert.deepEqual(await valuesOf(recordId, def.id), []);
      await setField(recordId, def.id, { languageId: EN_US, ...value });
      assert.equal((await valuesOf(recordId, def.id)).length, 1, 'one value, whatever language wrote it');
      await setField(recordId, def.id, { value: '', values: [], languageId: EN_US });
      assert.deepEqual(await valuesOf(recordId, def.id), []);
    });
  }

  it('the trail keeps every change made through the API: filter=change lists them, each entry is read under its record', async () => {
    const recordId = await newRecord('trail of changes');
    const def = await field('Photographer');
    await setField(recordId, def.id, { languageId: EN_US, value: 'Grace' });
    const job = { type: 'record', targets: [{ recordId }], actions: [{ action: 'ChangeRecordStatus', parameters: { status: 'released' } }] };
    const created = expectStatus(await send(env().url, 'POST', '/api/core/maintenancejobs', json(), JSON.stringify(job)), 201).json;
    for (let i = 0; i < 200; i++) {
      const read = expectStatus(await send(env().url, 'GET', `/api/core/maintenancejob/${String(created.id)}`, json()), 200).json;
      if (read.status === 'Success') break;
      assert.ok(!['Failed', 'PartiallyFailed'].includes(String(read.status)), String(read.message));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // As a public client asks (issue 36: a record's recent changes, matched to its modifiedOn and modifiedBy).
    const list = expectStatus(await send(env().url, 'GET', `/api/core/record/${recordId}/trail?filter=change&skip=0&take=10`, json()), 200).json;
    const entries = list.entries as { id: string; createdOn: string; userId: unknown; action: string }[];
    assert.deepEqual(entries.map((e) => e.action), ['Updated', 'Updated', 'Created']);
    const record = expectStatus(await send(env().url, 'GET', `/api/core/record/${recordId}`, hal()), 200).json as { modifiedOn: string; _links: { modifiedby: { href: string } } };
    assert.ok(Math.abs(Date.parse(entries[0].createdOn) - Date.parse(record.modifiedOn)) <= 1000, 'the newest entry is the record\'s last change');
    assert.equal(String(entries[0].userId), record._links.modifiedby.href.split('/').pop(), 'the entry names the user the record names');
    const changes = (n: number) => send(env().url, 'GET', `/api/core/record/${recordId}/trail/entry/${entries[n].id}`, json());
    assert.deepEqual((expectStatus(await changes(0), 200).json.changes as { name: string; newValue: string }[]).map((c) => [c.name, c.newValue]), [['Status', 'Released']]);
    assert.deepEqual((expectStatus(await changes(1), 200).json.changes as { name: string; newValue: string }[]).map((c) => [c.name, c.newValue]), [['Photographer', '{"value":"Grace"}']]);
    const other = await newRecord('another');
    expectStatus(await send(env().url, 'GET', `/api/core/record/${other}/trail/entry/${entries[0].id}`, json()), 404);
  });

  describe('users and groups: GUIDs in the content API, integers in the work-management API (contract "Fixed ids")', () => {
    const { users, groups } = CONTENT_API_IDS;

    it('lists and reads users and groups by GUID (dashed too), with their members and groups', async () => {
      const list = expectStatus(await send(env().url, 'GET', '/api/core/users', json()), 200).json.items as { id: string; login: string }[];
      assert.deepEqual(Object.fromEntries(list.filter((u) => u.login in users).map((u) => [u.login, u.id])), users);
      const admin = expectStatus(await send(env().url, 'GET', `/api/core/user/${users.admin}`, hal()), 200).json as { id: string; login: string; _links: Record<string, { href: string }> };
      assert.equal(admin.login, 'admin');
      assert.match(admin._links.self.href, new RegExp(`/api/core/user/${users.admin}$`));
      const dashed = users.editor.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
      assert.equal(expectStatus(await send(env().url, 'GET', `/api/core/user/${dashed}`, json()), 200).json.login, 'editor');
      const group = expectStatus(await send(env().url, 'GET', `/api/core/usergroup/${groups.Marketing}`, json()), 200).json;
      assert.deepEqual([group.id, group.name], [groups.Marketing, 'Marketing']);
      const members = expectStatus(await send(env().url, 'GET', `/api/core/usergroup/${groups.Marketing}/members`, json()), 200).json.items as { id: string }[];
      assert.deepEqual(members.map((m) => m.id), [users.editor, users.reviewer]);
      const ofEditor = expectStatus(await send(env().url, 'GET', `/api/core/user/${users.editor}/usergroups`, json()), 200).json.items as { id: string }[];
      assert.ok(ofEditor.some((g) => g.id === groups.Marketing));
      expectStatus(await send(env().url, 'GET', '/api/core/user/0123456789abcdef0123456789abcdef', json()), 404);
    });

    it('searches users by GUID, and edits group members given as GUIDs', async () => {
      const found = expectStatus(await send(env().url, 'GET', '/api/core/users', { ...json(), filter: `id = '${users.reviewer}'` }), 200).json.items as { login: string }[];
      assert.deepEqual(found.map((u) => u.login), ['reviewer']);
      const created = expectStatus(await send(env().url, 'POST', '/api/core/usergroups', json(), JSON.stringify({ name: 'Reviewers', members: { addOrUpdate: [users.reviewer] } })), 201).json;
      assert.match(String(created.id), /^[0-9a-f]{32}$/);
      const members = expectStatus(await send(env().url, 'GET', `/api/core/usergroup/${String(created.id)}/members`, json()), 200).json.items as { id: string }[];
      assert.deepEqual(members.map((m) => m.id), [users.reviewer]);
    });

    it('names a record\'s creator and modifier by GUID, embedded under select-record: createdby', async () => {
      const recordId = await newRecord('whose record');
      const read = expectStatus(await send(env().url, 'GET', `/api/core/record/${recordId}`, { ...hal(), 'select-record': 'createdby, modifiedby' }), 200).json as {
        _links: Record<string, { href: string }>;
        _embedded: { createdby: { id: string; login: string }; modifiedby: { id: string } };
      };
      assert.match(read._links.createdby.href, new RegExp(`/user/${users.admin}$`));
      assert.equal(read._embedded.createdby.id, users.admin);
      assert.equal(read._embedded.modifiedby.id, users.admin);
    });

    it('keeps integer ids in the work-management API', async () => {
      const me = expectStatus(await send(env().url, 'GET', '/api/users/me', { Authorization: `Bearer ${token}`, Accept: 'application/json' }), 200).json;
      assert.equal(me.userId, 1);
    });
  });
});
