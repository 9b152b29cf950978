// Work-management activities over HTTP (issue 36): the list, a read, the PmSearchRequest search with the same rules
// as tasks and projects, create / update / delete with their rules, an activity's projects and the project's
// activityId; and the other reads by id and searches the SDK lists beside them (projects, users, groups).
import { strict as assert } from 'node:assert';
import { describeEachBackend } from './helpers';
import { clientCredentialsToken, expectStatus, send, type Answer } from '../interop/replay';

type Activity = { activityId: number; id: number; name: string; description: string | null; beginDate: string; endDate: string; ownerId: number; administratorId: number; modifiedUser: number; activityTypeId: number };
const embedded = <T>(a: Answer, type: string) => (a.json._embedded as Record<string, T[]>)[type];
/** The demo seed's activities (201-205); tests that create their own make ids from 1000 on. */
const SEEDED = [201, 202, 203, 204, 205];

describeEachBackend('work management: activities', {}, (env) => {
  let token = '';
  const h = () => ({ Authorization: `Bearer ${token}`, Accept: 'application/json', 'Content-Type': 'application/json' });
  const get = (path: string) => send(env().url, 'GET', path, h());
  const search = (body: unknown, query = '') => send(env().url, 'POST', `/api/activities/search${query}`, h(), typeof body === 'string' ? body : JSON.stringify(body));
  const found = async (body: unknown) => embedded<Activity>(expectStatus(await search(body), 200), 'Activity').map((a) => a.activityId).filter((id) => SEEDED.includes(id));
  const valid = { name: 'Holiday Campaign', activityTypeId: 1, activityStateId: 1, ownerId: 2, administratorId: 1, beginDate: '2026-11-02T09:00:00', endDate: '2026-12-23T17:00:00', currencyCode: 1, timeZoneId: 4 };

  before(async () => {
    token = await clientCredentialsToken(env().url);
  });

  it('lists the activities a page at a time under _embedded.Activity, with _total and a next link', async () => {
    const first = expectStatus(await get('/api/activities?limit=2&offset=0'), 200);
    assert.equal(first.json._total, 5);
    assert.deepEqual(embedded<Activity>(first, 'Activity').map((a) => a.activityId), [201, 202]);
    assert.match(String((first.json._links as { next: { href: string } }).next.href), /offset=2/);
    // aprimo-js activities.get writes the path with a trailing slash before the query.
    const last = expectStatus(await get('/api/activities/?limit=2&offset=4'), 200);
    assert.deepEqual(embedded<Activity>(last, 'Activity').map((a) => a.activityId), [205]);
  });

  it('reads an activity with the members of the SDK\'s Activity model; an unknown or non-integer id is a 404 with the error object', async () => {
    const a = expectStatus(await get('/api/activities/201'), 200).json as unknown as Activity & Record<string, unknown>;
    assert.equal(a.activityId, 201);
    assert.equal(a.name, 'Spring 2026 Brand Campaign');
    for (const key of ['activityTypeId', 'activityStateId', 'ownerId', 'administratorId', 'currencyCode', 'timeZoneId', 'modifiedUser']) assert.ok(Number.isInteger(a[key]), key);
    assert.match(a.beginDate, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    assert.ok(Array.isArray(a.extendedAttributes));
    expectStatus(await get('/api/activities/999999'), 404);
    expectStatus(await get('/api/activities/spring'), 404);
  });

  describe('search (PmSearchRequest, as on tasks and projects)', () => {
    it('an or of equals on activityId, as a task inbox builds it (a comma before "]"), finds exactly those', async () => {
      assert.deepEqual(await found('{ "or": [ { "equals": { "fieldName": "activityId", "fieldValue": 201 } }, { "equals": { "fieldName": "activityId", "fieldValue": 203 } }, ] }'), [201, 203]);
    });

    it('contains is case-insensitive; field names bind in any case', async () => {
      assert.deepEqual(await found({ contains: { fieldName: 'NAME', fieldValue: 'campaign' } }), [201]);
    });

    it('dates compare as instants, numbers as numbers (a number sent as text too)', async () => {
      assert.deepEqual(await found({ greaterthanorequalto: { fieldName: 'beginDate', fieldValue: '2026-01-01' } }), [201, 202, 205]);
      assert.deepEqual(await found({ lessthan: { fieldName: 'endDate', fieldValue: '2025-01-01T00:00:00' } }), [203]);
      assert.deepEqual(await found({ equals: { fieldName: 'ownerId', fieldValue: '2' } }), [202, 205]);
    });

    it('and, or and not combine; isNull and isNotNull test a member that may be null', async () => {
      assert.deepEqual(await found({ and: [{ equals: { fieldName: 'activityTypeId', fieldValue: 1 } }, { not: { equals: { fieldName: 'activityStateId', fieldValue: 4 } } }] }), [201]);
      assert.deepEqual(await found({ isNull: { fieldName: 'description' } }), [203]);
      assert.deepEqual(await found({ isNotNull: { fieldName: 'description' } }), [201, 202, 204, 205]);
    });

    it('pages the matches by limit and offset, _total counting them all; no body or {} finds every activity', async () => {
      const page = expectStatus(await search({ greaterthan: { fieldName: 'activityId', fieldValue: 201 } }, '?limit=2&offset=1'), 200);
      assert.equal(page.json._total, 4);
      assert.deepEqual(embedded<Activity>(page, 'Activity').map((a) => a.activityId), [203, 204]);
      const all = expectStatus(await send(env().url, 'POST', '/api/activities/search', { Authorization: `Bearer ${token}` }), 200);
      assert.ok((all.json._total as number) >= 5);
    });

    it('a field the activity lacks is a 400 naming the fields it has; an operand without fieldName is a 400', async () => {
      const unknown = expectStatus(await search({ equals: { fieldName: 'colour', fieldValue: 'red' } }), 400);
      assert.match(String(unknown.json.exceptionMessage), /Unknown fieldName 'colour'.*activityId/);
      expectStatus(await search({ equals: { fieldValue: 1 } }), 400);
      expectStatus(await search('[1, 2]'), 400);
    });
  });

  describe('writes', () => {
    it('creates an activity: 201, Location, the activity with a new integer activityId, found by search', async () => {
      // At the SDK's path (activities.create posts to "/api/activities/").
      const made = expectStatus(await send(env().url, 'POST', '/api/activities/', h(), JSON.stringify(valid)), 201);
      const a = made.json as unknown as Activity;
      assert.ok(Number.isInteger(a.activityId) && a.activityId >= 1000);
      assert.equal(made.headers.get('location'), `${env().url}/api/activities/${a.activityId}`);
      assert.equal(a.modifiedUser, 1);
      const byName = expectStatus(await search({ equals: { fieldName: 'name', fieldValue: 'holiday campaign' } }), 200);
      assert.deepEqual(embedded<Activity>(byName, 'Activity').map((x) => x.activityId), [a.activityId]);
    });

    it('refuses a create without a required member, with an owner who is not a user, or ending before it begins', async () => {
      const { activityTypeId: _, ...noType } = valid;
      assert.match(String(expectStatus(await send(env().url, 'POST', '/api/activities', h(), JSON.stringify(noType)), 400).json.exceptionMessage), /activityTypeId is required/);
      assert.match(String(expectStatus(await send(env().url, 'POST', '/api/activities', h(), JSON.stringify({ ...valid, ownerId: 424242 })), 400).json.exceptionMessage), /ownerId/);
      assert.match(String(expectStatus(await send(env().url, 'POST', '/api/activities', h(), JSON.stringify({ ...valid, endDate: '2026-01-01T00:00:00' })), 400).json.exceptionMessage), /endDate/);
      assert.match(String(expectStatus(await send(env().url, 'POST', '/api/activities', h(), JSON.stringify({ ...valid, beginDate: '2026-02-30T00:00:00' })), 400).json.exceptionMessage), /beginDate/);
    });

    it('updates only the members sent, and checks the rules on the result', async () => {
      const made = (expectStatus(await send(env().url, 'POST', '/api/activities', h(), JSON.stringify({ ...valid, name: 'To rename' })), 201).json as unknown as Activity).activityId;
      const changed = expectStatus(await send(env().url, 'PUT', `/api/activities/${made}`, h(), JSON.stringify({ name: 'Renamed', description: 'now described' })), 200).json as unknown as Activity;
      assert.equal(changed.name, 'Renamed');
      assert.equal(changed.description, 'now described');
      assert.equal(changed.beginDate, valid.beginDate);
      assert.equal(changed.ownerId, valid.ownerId);
      assert.equal((expectStatus(await get(`/api/activities/${made}`), 200).json as unknown as Activity).name, 'Renamed');
      expectStatus(await send(env().url, 'PUT', `/api/activities/${made}`, h(), JSON.stringify({ beginDate: '2027-06-01T00:00:00' })), 400);
      expectStatus(await send(env().url, 'PUT', '/api/activities/999999', h(), JSON.stringify({ name: 'x' })), 404);
    });

    it('deletes an activity no project belongs to (204, then 404); refuses one with projects, naming them', async () => {
      const made = (expectStatus(await send(env().url, 'POST', '/api/activities', h(), JSON.stringify({ ...valid, name: 'Short-lived' })), 201).json as unknown as Activity).activityId;
      assert.equal((await send(env().url, 'DELETE', `/api/activities/${made}`, h())).status, 204);
      expectStatus(await get(`/api/activities/${made}`), 404);
      const refused = expectStatus(await send(env().url, 'DELETE', '/api/activities/201', h()), 400);
      assert.match(String(refused.json.exceptionMessage), /101, 104/);
      expectStatus(await get('/api/activities/201'), 200);
    });
  });

  describe('relations and the other reads by id', () => {
    it("an activity's projects are those whose activityId names it; a project reads with its activityId", async () => {
      const projects = expectStatus(await get('/api/activities/201/projects'), 200);
      assert.deepEqual(embedded<{ projectId: number; activityId: number }>(projects, 'Project').map((p) => [p.projectId, p.activityId]), [[101, 201], [104, 201]]);
      assert.equal(expectStatus(await get('/api/activities/205/projects'), 200).json._total, 0);
      expectStatus(await get('/api/activities/999999/projects'), 404);
      const project = expectStatus(await get('/api/projects/102'), 200).json;
      assert.equal(project.activityId, 202);
      assert.equal(project.title, 'Summer Launch');
      expectStatus(await get('/api/projects/999999'), 404);
      const byActivity = expectStatus(await send(env().url, 'POST', '/api/projects/search', h(), JSON.stringify({ equals: { fieldName: 'activityId', fieldValue: 203 } })), 200);
      assert.deepEqual(embedded<{ projectId: number }>(byActivity, 'Project').map((p) => p.projectId), [103]);
    });

    it("an attachment's activity is its task's project's activity (the route list's api/attachments/{id}/activity)", async () => {
      const made = expectStatus(await send(env().url, 'POST', '/api/tasks/5001/document-uploads/801/attachments', h(), JSON.stringify({ title: 'Brief for the activity' })), 201);
      const activity = expectStatus(await get(`/api/attachments/${made.json.id}/activity`), 200).json;
      assert.equal(activity.activityId, 201, 'task 5001 is on project 101, which belongs to activity 201');
      expectStatus(await get('/api/attachments/999999/activity'), 404);
    });

    it('a user and a group by integer id; groups and users searched with a PmSearchRequest', async () => {
      assert.equal(expectStatus(await get('/api/users/2'), 200).json.loginId, 'editor');
      expectStatus(await get('/api/users/999999'), 404);
      const group = expectStatus(await get('/api/groups/10'), 200).json;
      assert.equal(group.name, 'Marketing');
      assert.deepEqual(group.users, [{ userId: 2 }, { userId: 3 }]);
      const groups = expectStatus(await send(env().url, 'POST', '/api/groups/search', h(), JSON.stringify({ contains: { fieldName: 'name', fieldValue: 'market' } })), 200);
      assert.ok(embedded<{ groupId: number }>(groups, 'group').some((g) => g.groupId === 10));
      const users = expectStatus(await send(env().url, 'POST', '/api/users/search', h(), JSON.stringify({ or: [{ equals: { fieldName: 'loginId', fieldValue: 'editor' } }, { equals: { fieldName: 'userId', fieldValue: 3 } }] })), 200);
      assert.deepEqual(embedded<{ userId: number }>(users, 'user').map((u) => u.userId), [2, 3]);
      // The notes' flat body still answers as before.
      const flat = expectStatus(await send(env().url, 'POST', '/api/users/search', h(), JSON.stringify({ loginId: 'reviewer' })), 200);
      assert.deepEqual(embedded<{ userId: number }>(flat, 'user').map((u) => u.userId), [3]);
    });

    it("a project's lifecycle: start, pause, close move its status as allowed (204), other moves are a 400, and task creation follows the status", async () => {
      const status = async () => (expectStatus(await get('/api/projects/102'), 200).json.status as string);
      const move = (action: string) => send(env().url, 'POST', `/api/projects/102/${action}`, h(), '{}');
      assert.equal(await status(), 'Draft');
      assert.equal((await move('start')).status, 204);
      assert.equal(await status(), 'InProcess');
      assert.match(String(expectStatus(await move('start'), 400).json.exceptionMessage), /InProcess cannot start/);
      assert.equal((await move('pause')).status, 204);
      assert.equal(await status(), 'Paused');
      assert.equal((await move('close')).status, 204);
      assert.equal(await status(), 'Closed');
      expectStatus(await move('cancel'), 400);
      expectStatus(await send(env().url, 'POST', '/api/projects/999999/start', h(), '{}'), 404);
      // A closed project takes no new task (the spec's rule by project status).
      const task = { Name: 'After close', ProjectId: 102, BeginDate: '2026-06-01T09:00:00', EndDate: '2026-06-01T17:00:00', Assignees: [{ UserID: 1 }] };
      assert.equal(expectStatus(await send(env().url, 'POST', '/api/simple-tasks', h(), JSON.stringify(task)), 400).json.exceptionMessage, 'You cannot add Task to that project');
      // The project's lists the emulator keeps nothing for: an empty page, for a project that exists.
      assert.equal(expectStatus(await get('/api/projects/102/attachments'), 200).json._total, 0);
      assert.deepEqual((expectStatus(await get('/api/projects/102/digital-assets'), 200).json._embedded as Record<string, unknown[]>)['digital-asset'], []);
      expectStatus(await get('/api/projects/999999/attachments'), 404);
    });
  });
});
