// The emulator contract's rights ("Credentials"): the limited client (user 2, no administrative privilege, no
// .RoleExecuteMaintenanceJobs) reads and searches everything, creates records, changes and deletes its own, and
// publishes check results; everything else is 403 with the error object, and nothing changes.
import { strict as assert } from 'node:assert';
import { CHECK_ACTION_TYPE_ID, EMULATOR_CLIENT, EMULATOR_LIMITED_CLIENT } from '../../src/core/contract';
import { DamClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors';
import { emulatorProfile } from '../../src/api/endpoints';
import { USER_AGENT, describeEachBackend, failure } from './helpers';

describeEachBackend('rights of the limited client', {}, (env) => {
  const tokens: Record<string, string> = {};
  const token = async (clientId: string, secret: string) => {
    const res = await fetch(`${env().url}/login/connect/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'api', client_id: clientId, client_secret: secret }),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  };
  const call = async (who: 'admin' | 'limited', method: string, path: string, body?: unknown) => {
    const res = await fetch(`${env().url}/api/core${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${tokens[who]}`,
        'API-Version': '1',
        Accept: 'application/json',
        'User-Agent': USER_AGENT,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
  };
  const refused = async (method: string, path: string, body?: unknown) => {
    const res = await call('limited', method, path, body);
    assert.equal(res.status, 403, `${method} ${path}: ${JSON.stringify(res.body)}`);
    assert.match(String(res.body?.exceptionType), /AccessDenied/);
    assert.match(String(res.body?.exceptionMessage), /^You lack the right to /);
    assert.equal(res.body?.stackTrace, null);
  };

  let adminRecord = '';
  before(async () => {
    tokens.admin = await token(EMULATOR_CLIENT.clientId, EMULATOR_CLIENT.clientSecret);
    tokens.limited = await token(EMULATOR_LIMITED_CLIENT.clientId, EMULATOR_LIMITED_CLIENT.clientSecret);
    adminRecord = String((await call('admin', 'POST', '/records', { title: 'The admin\'s own' })).body?.id);
  });

  it('cannot change settings: hooks (which would hand it the admin\'s token) and rendition presets', async () => {
    const hooksBefore = (await call('admin', 'GET', '/setting/.fileVersionCreatedHooks')).body?.value;
    await refused('PUT', '/setting/.fileVersionCreatedHooks', { value: [{ url: 'http://127.0.0.1:9/steal', mode: 'page-hook' }] });
    await refused('PUT', '/setting/.renditionPreset', { value: [] });
    assert.deepEqual((await call('admin', 'GET', '/setting/.fileVersionCreatedHooks')).body?.value, hooksBefore);
    assert.ok(((await call('admin', 'GET', '/setting/.renditionPreset')).body?.value as unknown[]).length >= 3);
  });

  it('cannot create users, rename the admin, or create groups', async () => {
    await refused('POST', '/users', { login: 'intruder', password: 'x' });
    await refused('PUT', '/user/1', { firstName: 'Owned' });
    await refused('DELETE', '/user/3');
    await refused('POST', '/usergroups', { name: 'Intruders' });
    await refused('PUT', '/usergroup/10', { members: { addOrUpdate: [2] } });
    assert.equal((await call('admin', 'GET', '/user/1')).body?.firstName, 'Ada');
    assert.equal(((await call('admin', 'GET', '/users?filter=Login%3Dintruder')).body?.items as unknown[]).length, 0);
  });

  it('cannot create or change classifications, field definitions or check definitions', async () => {
    const root = ((await call('limited', 'GET', '/classifications?pageSize=1')).body?.items as { id: string }[])[0];
    await refused('POST', '/classifications', { name: 'Sneaky' });
    await refused('PUT', `/classification/${root.id}`, { name: 'Renamed' });
    await refused('DELETE', `/classification/${root.id}`);
    await refused('POST', '/fielddefinitions', { name: 'Sneaky', dataType: 'SingleLineText' });
    const categories = (await call('limited', 'GET', '/checkcategories')).body?.items as { id: string }[];
    await refused('POST', '/checks', { name: 'Sneaky check', actionTypeId: CHECK_ACTION_TYPE_ID, checkCategoryId: categories[0].id });
    assert.equal((await call('admin', 'GET', `/classification/${root.id}`)).status, 200);
  });

  it('cannot run maintenance jobs or rebuild the search index', async () => {
    await refused('POST', '/maintenancejobs', { type: 'record', targets: [{ recordId: adminRecord }], actions: [{ action: 'ChangeRecordStatus', parameters: { status: 'archived' } }] });
    await refused('GET', '/maintenancejobs');
    await refused('PUT', '/searchindex', { rebuildScheduled: true });
  });

  it('cannot change or delete a record it did not create', async () => {
    await refused('PUT', `/record/${adminRecord}`, { title: 'Defaced' });
    await refused('DELETE', `/record/${adminRecord}`);
    assert.equal((await call('admin', 'GET', `/record/${adminRecord}`)).body?.title, 'The admin\'s own');
  });

  it('reads and searches everything, creates records, changes and deletes its own', async () => {
    assert.equal((await call('limited', 'GET', `/record/${adminRecord}`)).status, 200);
    assert.equal((await call('limited', 'POST', '/search/records', { searchExpression: { expression: '*' } })).status, 200);
    const own = await call('limited', 'POST', '/records', { title: 'Editor draft' });
    assert.equal(own.status, 201);
    assert.equal((await call('limited', 'PUT', `/record/${own.body?.id}`, { title: 'Editor final' })).status, 204);
    assert.equal((await call('limited', 'GET', `/record/${own.body?.id}`)).body?.title, 'Editor final');
    assert.equal((await call('limited', 'DELETE', `/record/${own.body?.id}`)).status, 204);
    // The administrator may still change anyone's.
    assert.equal((await call('admin', 'PUT', `/record/${adminRecord}`, { title: 'The admin\'s own' })).status, 204);
  });

  it('publishes check results on any version it may read', async () => {
    const versions = await call('limited', 'POST', '/search/records', { searchExpression: { expression: 'FileCount > 0' } });
    const recordId = (versions.body?.items as { id: string }[])[0].id;
    const res = await fetch(`${env().url}/api/core/record/${recordId}`, {
      headers: { Authorization: `Bearer ${tokens.limited}`, 'API-Version': '1', Accept: 'application/hal+json', 'User-Agent': USER_AGENT, 'select-record': 'masterfilelatestversion' },
    });
    const versionId = ((await res.json()) as { _embedded: { masterfilelatestversion: { id: string } } })._embedded.masterfilelatestversion.id;
    const check = ((await call('admin', 'GET', '/checks')).body?.items as { id: string }[])[0];
    const result = await call('limited', 'POST', `/fileversion/${versionId}/CheckResults`, { checkId: check.id, outcome: 'pass', description: 'Looks fine.' });
    assert.equal(result.status, 201);
  });

  it('our client says in words what right is missing', async () => {
    const profile = { ...emulatorProfile(env().url), clientId: EMULATOR_LIMITED_CLIENT.clientId };
    const limited = new DamClient({ profile, secrets: { clientSecret: EMULATOR_LIMITED_CLIENT.clientSecret }, userAgent: USER_AGENT });
    const err = await failure<ApiError>(() => limited.classifications.create({ name: 'Nope' }));
    assert.equal(err.status, 403);
    assert.match(err.message, /^You lack the right to create classifications/);
  });
});
