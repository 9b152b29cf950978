// Work-management, string-resource and analytics requests of public clients, replayed as raw HTTP (sources cited per
// test). None of them sends API-Version: the header belongs to the content API only.
import { strict as assert } from 'node:assert';
import { describeEachBackend } from '../conformance/helpers';
import { clientCredentialsToken, expectStatus, send } from './replay';

describeEachBackend('interop: work management and analytics clients', {}, (env) => {
  let token = '';
  before(async () => {
    token = await clientCredentialsToken(env().url);
  });

  // timw255/aprimo-js, src/modules/productivity/tasks/index.ts (pmHttp: Accept and Content-Type application/json, no API-VERSION).
  describe('aprimo-js work management', () => {
    const pm = () => ({ Accept: 'application/json', 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'User-Agent': 'axios/1.7.2' });

    it('lists tasks by limit and offset, the caller\'s tasks by status, and a task\'s assignees', async () => {
      const all = expectStatus(await send(env().url, 'GET', '/api/tasks?limit=10&offset=0', pm()), 200);
      assert.ok((all.json._total as number) >= 2);
      const mine = expectStatus(await send(env().url, 'GET', '/api/tasks/mine?status=5&limit=10', pm()), 200);
      const inProcess = (mine.json._embedded as { Task: { id: number; workFlowTaskStatus: number }[] }).Task;
      assert.ok(inProcess.some((t) => t.id === 5001));
      assert.ok(inProcess.every((t) => t.workFlowTaskStatus === 5));
      const assignees = expectStatus(await send(env().url, 'GET', '/api/tasks/5001/assignees', pm()), 200);
      assert.equal((assignees.json._embedded as { Assignee: { userID: number }[] }).Assignee[0].userID, 1);
    });

    it('creates a simple task at /api/tasks/simple-tasks with assignedTo', async () => {
      const body = { name: 'From the SDK', description: 'via simple-tasks', beginDate: '2026-03-02T09:00:00', endDate: '2026-03-03T17:00:00', assignedTo: 2, projectId: 101 };
      const created = expectStatus(await send(env().url, 'POST', '/api/tasks/simple-tasks', pm(), JSON.stringify(body)), 201);
      assert.equal(created.json.name, 'From the SDK');
      assert.equal((created.json.assignees as { userID: number }[])[0].userID, 2);
      const read = expectStatus(await send(env().url, 'GET', `/api/tasks/${created.json.id}`, pm()), 200);
      assert.equal(read.json.id, created.json.id);
    });

    it('accepts a task with an empty JSON object as the body', async () => {
      const accepted = expectStatus(await send(env().url, 'POST', '/api/tasks/5002/accept', pm(), '{}'), 200);
      assert.equal(accepted.json.workFlowTaskStatus, 5);
    });

    it('resolves string resources, static and dynamic mixed', async () => {
      const answer = expectStatus(await send(env().url, 'POST', '/api/resources/query', pm(), JSON.stringify({ query: 'mo-replacement-strings-1,mo-encoded-titles-2' })), 200);
      assert.equal((answer.json.resources as unknown[]).length, 2);
    });
  });

  // Aprimo-Connect/DAM-Configuration-Moving-Tools, DAM Security Importer GetCurrentUser: the token as X-Access-Token.
  it('a .NET tool asks who it is with X-Access-Token instead of Authorization', async () => {
    const me = expectStatus(await send(env().url, 'GET', '/api/users/me', { 'X-Access-Token': token, Accept: 'application/json', 'User-Agent': 'RestSharp/110.2.0.0' }), 200);
    assert.equal(me.json.userId, 1);
  });

  // Aprimo-Connect/aprimo-editor-tools, app/api/aprimo/analytics/route.ts and app/asset-usage/page.tsx fetchAnalytics:
  // only Authorization (a server-side proxy; Node's fetch adds its own User-Agent), filter values as dashed GUIDs.
  it('editor tools: analytics with only a bearer token, a dashed record id in the filter, totals without granularity', async () => {
    const records = await send(env().url, 'GET', '/analytics/?query=' + encodeURIComponent(JSON.stringify({ measures: ['Views.count'], dimensions: ['Views.recordId'], order: { 'Views.count': 'desc' }, limit: 1 })), {
      Authorization: `Bearer ${token}`,
      'User-Agent': 'node',
    });
    expectStatus(records, 200);
    const top = (records.json.data as Record<string, string>[])[0];
    const undashed = top['Views.recordId'];
    const dashed = `${undashed.slice(0, 8)}-${undashed.slice(8, 12)}-${undashed.slice(12, 16)}-${undashed.slice(16, 20)}-${undashed.slice(20)}`;
    const query = { measures: ['Views.count'], filters: [{ member: 'Views.recordId', operator: 'equals', values: [dashed] }], timeDimensions: [{ dimension: 'DateDimension.date', dateRange: ['2000-01-01', '2100-12-31'] }] };
    const total = expectStatus(await send(env().url, 'GET', '/analytics/?query=' + encodeURIComponent(JSON.stringify(query)), { Authorization: `Bearer ${token}`, 'User-Agent': 'node' }), 200);
    assert.equal((total.json.data as Record<string, string>[])[0]['Views.count'], top['Views.count']);
  });
});
