// Work-management and analytics requests of public clients no earlier interop test named (issue 36), replayed as raw
// HTTP with the headers and bodies their sources set (cited per describe: repository, file, function), and the end of
// the Chrome task inbox's flow, which stopped at api/activities/search before activities were modelled.
import { strict as assert } from 'node:assert';
import { describeEachBackend } from '../conformance/helpers';
import { clientCredentialsToken, expectStatus, send, type Answer } from './replay';
import { EVENTS_END } from '../../src/emulator/seed/analyticsEvents';

type Row = Record<string, string | number | null>;
const rows = (a: Answer) => (a.json as { data: Row[] }).data;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

describeEachBackend('interop: a Report Labs dashboard and its assistant (analytics), the end of a Chrome task inbox (work management)', {}, (env) => {
  let token = '';
  before(async () => {
    token = await clientCredentialsToken(env().url);
  });

  /** lib/report-labs/analytics.ts queryAnalytics: GET {analytics}/?query=<encoded JSON>, only Authorization (fetch). */
  const analytics = (query: unknown) => send(env().url, 'GET', `/analytics/?query=${encodeURIComponent(JSON.stringify(query))}`, { Authorization: `Bearer ${token}` });
  /** getDateRange('90d'): [today - 90 days, today] as dates only, with "today" the last day of the demo's events. */
  const range = (days: number): [string, string] => {
    const now = new Date(Date.parse(EVENTS_END) - 86_400_000);
    return [isoDay(new Date(now.getTime() - days * 86_400_000)), isoDay(now)];
  };

  // ViraniAJ/aprimo-editor-tools (Report Labs, a reporting dashboard over the analytics API): lib/report-labs/analytics.ts
  // (queryAnalytics, fetchAnalyticsMeta, getAnalyticsMeta, extractDate, num) and app/report-labs/reports/user-adoption.tsx
  // (UserAdoption: four queries in parallel, then the schema for an optional breakdown).
  describe('Report Labs dashboard (browser fetch)', () => {
    it('user adoption: views and downloads by Users.loginId bucketed by day, read through extractDate and num', async () => {
      const dateRange = range(90);
      const [vt, dt] = await Promise.all([
        analytics({ measures: ['Views.count'], dimensions: ['Users.loginId'], timeDimensions: [{ dimension: 'DateDimension.date', granularity: 'week', dateRange }], limit: 10000 }),
        analytics({ measures: ['Downloads.count'], dimensions: ['Users.loginId'], timeDimensions: [{ dimension: 'Downloads.downloadDate', granularity: 'week', dateRange }], limit: 10000 }),
      ]);
      for (const [answer, dim, measure] of [
        [vt, 'DateDimension.date', 'Views.count'],
        [dt, 'Downloads.downloadDate', 'Downloads.count'],
      ] as const) {
        const data = rows(expectStatus(answer, 200));
        assert.ok(data.length > 0, `${measure}: the demo's last 90 days have events`);
        for (const r of data) {
          // extractDate reads `${dim}.week` (else .day, .month, the bare member) and keeps its first 10 characters.
          const bucket = String(r[`${dim}.week`] ?? '').slice(0, 10);
          assert.match(bucket, /^\d{4}-\d{2}-\d{2}$/, JSON.stringify(r));
          assert.ok(bucket >= isoDay(new Date(Date.parse(dateRange[0]) - 7 * 86_400_000)) && bucket <= dateRange[1], bucket);
          assert.equal(typeof r['Users.loginId'], 'string');
          // num(): a count as text parses to a number.
          assert.ok(Number.isFinite(parseFloat(String(r[measure]))) && parseFloat(String(r[measure])) > 0);
        }
      }
    });

    it('most active users: totals without granularity, ordered desc, limit 500; and granularity day buckets under .day', async () => {
      const [vu, du, daily] = await Promise.all([
        analytics({ measures: ['Views.count'], dimensions: ['Users.loginId'], timeDimensions: [{ dimension: 'DateDimension.date', dateRange: range(30) }], order: { 'Views.count': 'desc' }, limit: 500 }),
        analytics({ measures: ['Downloads.count'], dimensions: ['Users.loginId'], timeDimensions: [{ dimension: 'Downloads.downloadDate', dateRange: range(30) }], order: { 'Downloads.count': 'desc' }, limit: 500 }),
        analytics({ measures: ['Views.count'], dimensions: ['Users.loginId'], timeDimensions: [{ dimension: 'DateDimension.date', granularity: 'day', dateRange: range(7) }], limit: 10000 }),
      ]);
      const views = rows(expectStatus(vu, 200)).map((r) => parseFloat(String(r['Views.count'])));
      assert.ok(views.length > 0);
      assert.deepEqual(views, [...views].sort((a, b) => b - a), 'ordered by Views.count desc');
      assert.ok(rows(expectStatus(du, 200)).every((r) => !('Downloads.downloadDate.day' in r)), 'no bucket without granularity');
      const loginIds = new Set(rows(vu).map((r) => r['Users.loginId']));
      assert.equal(loginIds.size, rows(vu).length, 'one row per user');
      for (const r of rows(expectStatus(daily, 200))) assert.match(String(r['DateDimension.date.day']).slice(0, 10), /^\d{4}-\d{2}-\d{2}$/);
    });

    it('the schema: GET {analytics}/meta is not a route of the service, so the client falls back to its known members; the answer is a 4xx with the error object, never a 5xx', async () => {
      const meta = await send(env().url, 'GET', '/analytics/meta', { Authorization: `Bearer ${token}` });
      // getAnalyticsMeta catches any !ok answer and uses KNOWN_CUBES; the breakdown by department then looks for a
      // Users dimension the known list lacks, and is skipped.
      assert.ok(meta.status >= 400 && meta.status < 500, `${meta.status}`);
      assert.equal(typeof meta.json.exceptionMessage, 'string');
    });
  });

  // ViraniAJ/aprimo-editor-tools, app/api/report-labs/chat/route.ts (the Report Labs assistant: a server-side tool loop
  // with read-only tools): query_analytics sends the model's query with limit min(limit ?? 100, 2000), only Authorization;
  // get_record_titles reads a record by the dashed GUID made from a 32-character analytics id (toGuid).
  describe('Report Labs assistant (server-side tools)', () => {
    it('query_analytics: ContentEngagement by RecordMetadata.title per month, limit 100 by default; get_record_titles reads the dashed GUID', async () => {
      const answer = expectStatus(
        await analytics({
          measures: ['ContentEngagement.viewsCount', 'ContentEngagement.downloadsCount'],
          dimensions: ['ContentEngagement.recordId', 'RecordMetadata.title'],
          timeDimensions: [{ dimension: 'ContentEngagement.date', granularity: 'month', dateRange: range(180) }],
          order: { 'ContentEngagement.viewsCount': 'desc' },
          limit: 100,
        }),
        200,
      );
      const data = rows(answer);
      assert.ok(data.length > 0 && data.length <= 100);
      assert.match(String(data[0]['ContentEngagement.date.month']).slice(0, 10), /^\d{4}-\d{2}-01$/);
      const id = String(data[0]['ContentEngagement.recordId']).replace(/-/g, '');
      assert.match(id, /^[0-9a-f]{32}$/);
      const dashed = `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`;
      const record = expectStatus(await send(env().url, 'GET', `/api/core/record/${dashed}`, { Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/hal+json', 'User-Agent': 'aprimo-js' }), 200);
      assert.equal(typeof record.json.title, 'string');
    });

    it('query_analytics: views of one collection filtered by its dashed GUID, by week; a member outside the schema is a 400 naming it', async () => {
      const collections = await send(env().url, 'GET', '/api/core/collections?pageSize=1', { Authorization: `Bearer ${token}`, 'API-VERSION': '1', Accept: 'application/hal+json', 'User-Agent': 'aprimo-js' });
      const guid = String(((collections.json.items ?? []) as { id: string }[])[0]?.id ?? '00000000000000000000000000000000');
      const dashed = `${guid.slice(0, 8)}-${guid.slice(8, 12)}-${guid.slice(12, 16)}-${guid.slice(16, 20)}-${guid.slice(20)}`;
      const filtered = expectStatus(
        await analytics({ measures: ['Views.count'], timeDimensions: [{ dimension: 'DateDimension.date', granularity: 'week', dateRange: range(365) }], filters: [{ member: 'Views.collectionId', operator: 'equals', values: [dashed] }], limit: 100 }),
        200,
      );
      assert.ok(Array.isArray(rows(filtered)));
      // The assistant's prompt names Impressions and PreviewPlaybacks as verified on its tenants; the spec's domain table
      // has neither, so the emulator refuses as Cube does, and the tool hands the message back to the model.
      const unknown = expectStatus(await analytics({ measures: ['Impressions.count'], limit: 10 }), 400);
      assert.match(String(unknown.json.exceptionMessage), /Impressions/);
    });
  });

  // Aprimo-Connect/aprimo-chrome-extension, js/tasks.js: GetReviewTasks, then GetActivities and RenderTasks, the calls
  // after GetProjects (fifthRoundClients.test.ts replays the sign-in, GetTasks and GetProjects). XMLHttpRequest with
  // X-Access-Token and Content-Type only; the bodies are built by hand, a comma left before "]".
  describe('Chrome task inbox, the rest of its flow', () => {
    const xhr = () => ({ 'X-Access-Token': token, 'Content-Type': 'application/json' });
    const statusOr = '{ "or": [ { "equals": { "fieldName": "workFlowTaskStatus", "fieldValue": 4 } }, { "equals": { "fieldName": "workFlowTaskStatus", "fieldValue": 5 } } ] }';
    const orOf = (field: string, ids: unknown[]) => {
      let body = '\n    {\n        "or": [\n    ';
      for (const id of ids) body += `\n\n        { \n            "equals" :\n            {\n                "fieldName" : "${field}",\n                "fieldValue" : ${id}\n            }\n        },\n        `;
      return `${body.substring(0, body.length - 1)}]\n        }\n        `;
    };

    it('GetReviewTasks answers _embedded.ReviewTask and _total (none kept), so ConsolidateTasks can read both lists', async () => {
      const review = expectStatus(await send(env().url, 'POST', '/api/review-tasks/search', xhr(), statusOr), 200);
      assert.deepEqual((review.json._embedded as { ReviewTask: unknown[] }).ReviewTask, []);
      assert.equal(review.json._total, 0);
    });

    it('GetActivities finds the activity of every project, and RenderTasks finds a project and an activity name for every task', async () => {
      const tasks = (expectStatus(await send(env().url, 'POST', '/api/tasks/search', xhr(), statusOr), 200).json._embedded as { Task: { taskId: number; projectId: number }[] }).Task;
      const projectIds = [...new Set(tasks.map((t) => t.projectId))];
      const projects = (expectStatus(await send(env().url, 'POST', '/api/projects/search', xhr(), orOf('projectId', projectIds)), 200).json._embedded as { Project: { projectId: number; title: string; activityId: number }[] }).Project;
      const activityIds = [...new Set(projects.map((p) => p.activityId))];
      assert.ok(activityIds.every((id) => Number.isInteger(id)), JSON.stringify(activityIds));
      const activities = (expectStatus(await send(env().url, 'POST', '/api/activities/search', xhr(), orOf('activityId', activityIds)), 200).json._embedded as { Activity: { activityId: number; name: string }[] }).Activity;
      assert.deepEqual(activities.map((a) => a.activityId).sort(), [...activityIds].sort());
      for (const task of tasks) {
        const project = projects.find((p) => p.projectId == task.projectId);
        assert.ok(project, `task ${task.taskId}: its project`);
        const activity = activities.find((a) => a.activityId == project.activityId);
        assert.ok(activity && activity.name.length > 0, `task ${task.taskId}: its activity`);
      }
    });
  });
});
