// Work management over HTTP: every simple-task rule and error message of the spec, task reads,
// delegation, the task attachment flow, privileges (with the limited client) and the `dam tasks` commands.
import { strict as assert } from 'node:assert';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEachBackend, failure, runDam } from './helpers';
import { ApiError } from '../../src/api/errors';
import type { DamClient } from '../../src/api/client';
import { TasksApi, TaskValidationError, type Task } from '../../src/api/tasks';
import { TaskMessages } from '../../src/core/tasks';

const LIMITED = { clientId: 'dam-emulator-limited', clientSecret: 'dam-emulator-limited-secret' };
const FILE_ID = '614c068cab7c4603bbddae8200d2722a';

/** The naive UTC now, to the second (the seeded projects run on UTC). */
const naiveNow = () => new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().slice(0, 19);

describeEachBackend('work management: tasks', { seed: 'empty' }, (env) => {
  let admin: DamClient;
  let limited: DamClient;
  let tasks: TasksApi;

  before(() => {
    admin = env().client();
    limited = env().client({ profile: { ...env().profile, clientId: LIMITED.clientId }, secrets: { clientSecret: LIMITED.clientSecret } });
    tasks = new TasksApi(admin.http);
  });

  /** Sends a body as is, bypassing the client's own checks, so the server's answer is what is tested. */
  const post = async (body: unknown, client = admin) =>
    (await client.http.request<Task & Record<string, unknown>>({ method: 'POST', endpoint: 'ops', path: '/api/simple-tasks', json: body })).data;
  const refused = async (body: unknown, status: number, message: string) => {
    const err = await failure<ApiError>(() => post(body));
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.status, status);
    assert.equal(err.exceptionMessage, message);
  };
  const me = { assignees: [{ userID: 1 }] };

  describe('the error table', () => {
    const rows: [string, Record<string, unknown>, string][] = [
      ['ProjectId missing', { ...me }, 'ProjectId cannot be null'],
      ['Projected on Draft project 102', { ProjectId: 102, ...me, workFlowTaskStatus: 2 }, 'Only Draft (1), Canceled (8), Removed (9) allowed'],
      ['Assigned on Draft project 102', { ProjectId: 102, ...me, workFlowTaskStatus: 4 }, 'Only Draft (1), Canceled (8), Removed (9) allowed'],
      ['Draft on InProcess project 101', { ProjectId: 101, ...me, workFlowTaskStatus: 1 }, 'Only Projected (2), Assigned (4), Canceled (8), Removed (9) allowed'],
      ['Draft on Paused project 104', { ProjectId: 104, ...me, workFlowTaskStatus: 1 }, 'Only Projected (2), Assigned (4), Canceled (8), Removed (9) allowed'],
      ['InProcess at creation', { ProjectId: 101, ...me, workFlowTaskStatus: 5 }, 'Only Projected (2), Assigned (4), Canceled (8), Removed (9) allowed'],
      ['Closed project 103', { ProjectId: 103, ...me }, 'You cannot add Task to that project'],
      ['Cancelled project 105', { ProjectId: 105, ...me }, 'You cannot add Task to that project'],
      ['endDate before beginDate', { ProjectId: 101, ...me, startType: 4, beginDate: '2026-03-05T09:00:00', endDate: '2026-03-04T09:00:00' }, 'BeginDate should not be greater than EndDate'],
      ['date without a time', { ProjectId: 101, ...me, beginDate: '2026-03-05' }, 'Please check the data sent'],
      ['date with a zone', { ProjectId: 101, ...me, endDate: '2026-03-05T09:00:00Z' }, 'Please check the data sent'],
      ['impossible date', { ProjectId: 101, ...me, beginDate: '2026-02-30T09:00:00' }, 'Please check the data sent'],
      ['negative entered minutes', { ProjectId: 101, ...me, enteredEstimatedDurationMinute: -30 }, 'EnteredEstimatedDurationMinute contains an invalid value; only positive numbers allowed'],
      // Issue 27: 99,999,999 days hung the working-time walk; numbers past the service's 32-bit integers and dates
      // past 9999 are refused, and the answer comes at once.
      ['99,999,999 entered days', { ProjectId: 101, ...me, enteredEstimatedDurationDay: 99_999_999 }, TaskMessages.tooLarge('EstimatedDuration')],
      ['4,000,000 days (past 9999-12-31)', { ProjectId: 101, ...me, enteredEstimatedDurationDay: 4_000_000 }, TaskMessages.outOfRange],
      ['calendar 2 is not project 102\'s', { ProjectId: 102, ...me, workFlowTaskStatus: 1, workScheduleId: 2 }, 'The WorkScheduleID specified does not exist'],
      ['unknown calendar', { ProjectId: 101, ...me, workScheduleId: 77 }, 'The WorkScheduleID specified does not exist'],
      ['autoClose 2 (Milestone, unused)', { ProjectId: 101, ...me, autoClose: 2 }, 'AutoClose contains an invalid value (allowed No 0, Yes 1, Milestone 2)'],
      ['autoAccept 2', { ProjectId: 101, ...me, autoAccept: 2 }, 'AutoAccept contains an invalid value'],
      ['both taskRoles and assignees', { ProjectId: 101, ...me, taskRoles: [{ roleID: 20 }] }, 'Only one of Assignees and TaskRoles is allowed'],
      ['neither taskRoles nor assignees', { ProjectId: 101 }, 'The Assignees or TaskRoles specified does not exist'],
      ['an assignee that does not exist', { ProjectId: 101, assignees: [{ userID: 4242 }] }, 'The Assignees or TaskRoles specified does not exist'],
      ['a role that does not exist', { ProjectId: 101, taskRoles: [{ roleID: 4242 }] }, 'The Assignees or TaskRoles specified does not exist'],
      ['Pending with ASAP', { ProjectId: 101, ...me, workFlowTaskStatus: 3 }, TaskMessages.startTypeForStatus(3, 1)],
      ['Projected with FixedEnd', { ProjectId: 101, ...me, startType: 3 }, TaskMessages.startTypeForStatus(2, 3)],
    ];
    for (const [name, body, message] of rows) {
      it(`${name}: 400 "${message}"`, () => refused(body, 400, message));
    }

    it('an unknown project: 404', () => refused({ ProjectId: 999, ...me }, 404, 'The ProjectId specified does not exist'));

    it('the error body carries exceptionType and exceptionMessage', async () => {
      const res = await fetch(`${env().url}/api/simple-tasks`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${await admin.tokens.getToken()}`,
          'API-Version': '1',
          Accept: 'application/json',
          'User-Agent': 'conformance',
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ ProjectId: 103, ...me }),
      });
      const body = (await res.json()) as Record<string, unknown>;
      assert.equal(res.status, 400);
      assert.equal(body.exceptionMessage, 'You cannot add Task to that project');
      assert.match(String(body.exceptionType), /\./);
    });

    it('inconsistent dates and duration: created anyway, with the mismatch message and default dates', async () => {
      const task = await post({ ProjectId: 101, ...me, startType: 4, beginDate: '2026-03-05T09:00:00', endDate: '2026-03-05T17:00:00', EstimatedDuration: 30 });
      assert.equal(task.message, 'BeginDate, EndDate and EstimatedDuration do not match');
      assert.equal(task.estimatedDuration, 480);
      assert.match(String(task.beginDate), /T09:00:00$/);
      assert.match(String(task.endDate), /T17:00:00$/);
    });
  });

  describe('what gets created', () => {
    it('defaults: New Task, Projected (2), ASAP (1), calendar 1, a day of 480 minutes from the project start', async () => {
      const task = await post({ ProjectId: 101, assignees: [{ userID: 2 }] });
      assert.equal(typeof task.id, 'number');
      assert.deepEqual(
        [task.name, task.description, task.workFlowTaskStatus, task.startType, task.workScheduleId, task.estimatedDuration, task.beginDate, task.endDate],
        ['New Task', null, 2, 1, 1, 480, '2026-03-02T09:00:00', '2026-03-02T17:00:00'],
      );
      assert.deepEqual([task.autoClose, task.autoAccept, task.workGroupActionId, task.canSkip, task.canDelegate], [0, 0, 2, 1, false]);
      assert.equal(task.assignees?.[0]?.userID, 2);
      assert.equal(typeof task.assignees?.[0]?.taskAssigneeId, 'number');
    });

    const dateRows: [string, Record<string, unknown>, string, string, number][] = [
      ['begin and end give the duration', { beginDate: '2026-03-05T09:00:00', endDate: '2026-03-06T13:00:00' }, '2026-03-05T09:00:00', '2026-03-06T13:00:00', 720],
      ['begin and duration give the end', { beginDate: '2026-03-05T09:00:00', EstimatedDuration: 960 }, '2026-03-05T09:00:00', '2026-03-06T17:00:00', 960],
      ['end and duration give the begin', { endDate: '2026-03-10T17:00:00', EstimatedDuration: 480 }, '2026-03-10T09:00:00', '2026-03-10T17:00:00', 480],
      ['the entered triple (a day is 8 hours)', { beginDate: '2026-03-05T09:00:00', enteredEstimatedDurationDay: 1, enteredEstimatedDurationHour: 1, enteredEstimatedDurationMinute: 15 }, '2026-03-05T09:00:00', '2026-03-06T10:15:00', 555],
      ['weekends are not working time on calendar 1', { beginDate: '2026-03-06T09:00:00', endDate: '2026-03-09T17:00:00' }, '2026-03-06T09:00:00', '2026-03-09T17:00:00', 960],
      ['calendar 2 of project 101 works weekends', { beginDate: '2026-03-06T09:00:00', endDate: '2026-03-09T17:00:00', workScheduleId: 2 }, '2026-03-06T09:00:00', '2026-03-09T17:00:00', 1920],
    ];
    for (const [name, dates, begin, end, duration] of dateRows) {
      it(`date rule: ${name}`, async () => {
        const task = await post({ ProjectId: 101, ...me, startType: 4, ...dates });
        assert.deepEqual([task.beginDate, task.endDate, task.estimatedDuration, task.message], [begin, end, duration, undefined]);
      });
    }

    it('date behaviour: Assigned takes the current date/time for both dates', async () => {
      const before = naiveNow();
      const task = await post({ ProjectId: 101, ...me, workFlowTaskStatus: 4, startType: 2, beginDate: '2026-04-01T09:00:00' });
      const after = naiveNow();
      assert.equal(task.beginDate, task.endDate);
      assert.ok(before <= String(task.beginDate) && String(task.beginDate) <= after, `${before} <= ${task.beginDate} <= ${after}`);
    });

    const behaviourRows: [string, Record<string, unknown>, string, string][] = [
      ['Cancelled: both dates are the project date', { ProjectId: 101, workFlowTaskStatus: 8, beginDate: '2026-04-01T09:00:00' }, '2026-03-02T09:00:00', '2026-03-02T09:00:00'],
      ['Removed on a Draft project: the project date', { ProjectId: 102, workFlowTaskStatus: 9 }, '2026-06-01T09:00:00', '2026-06-01T09:00:00'],
      ['Draft ASAP on a Draft project: project start plus duration', { ProjectId: 102, workFlowTaskStatus: 1, EstimatedDuration: 240 }, '2026-06-01T09:00:00', '2026-06-01T13:00:00'],
      ['Projected ASAP: project start plus duration, body dates ignored', { ProjectId: 101, beginDate: '2026-04-01T09:00:00', EstimatedDuration: 960 }, '2026-03-02T09:00:00', '2026-03-03T17:00:00'],
      ['Projected StartNoLaterThan on a Paused project: the body dates', { ProjectId: 104, startType: 6, beginDate: '2026-04-01T09:00:00' }, '2026-04-01T09:00:00', '2026-04-01T17:00:00'],
      ['Pending FixedBegin: the body dates', { ProjectId: 101, workFlowTaskStatus: 3, startType: 2, beginDate: '2026-04-01T09:00:00' }, '2026-04-01T09:00:00', '2026-04-01T17:00:00'],
      ['Draft FixedEnd: the body dates', { ProjectId: 102, workFlowTaskStatus: 1, startType: 3, endDate: '2026-06-03T17:00:00' }, '2026-06-03T09:00:00', '2026-06-03T17:00:00'],
    ];
    for (const [name, body, begin, end] of behaviourRows) {
      it(`date behaviour: ${name}`, async () => {
        const task = await post({ ...me, ...body });
        assert.deepEqual([task.beginDate, task.endDate], [begin, end]);
      });
    }

    const delegateRows: [string, Record<string, unknown>, boolean][] = [
      ['sent true, caller assigned, Assigned', { ...me, workFlowTaskStatus: 4, canDelegate: true }, true],
      ['sent true, only a group the caller is not in is assigned', { assignees: [{ userID: 10 }], workFlowTaskStatus: 4, canDelegate: true }, false],
      ['sent true, caller assigned, Projected', { ...me, canDelegate: true }, false],
      ['sent true, caller not assigned', { assignees: [{ userID: 2 }], workFlowTaskStatus: 4, canDelegate: true }, false],
      ['sent false', { ...me, workFlowTaskStatus: 4, canDelegate: false }, false],
      ['an invalid value is ignored', { ...me, workFlowTaskStatus: 4, canDelegate: 'yes' }, false],
    ];
    for (const [name, body, echoed] of delegateRows) {
      it(`canDelegate echo: ${name} → ${echoed}`, async () => {
        assert.equal((await post({ ProjectId: 101, ...body })).canDelegate, echoed);
      });
    }

    it('canSkip is always 1 and predTaskID is ignored', async () => {
      const task = await post({ ProjectId: 101, ...me, canSkip: 0, predTaskID: 5001 });
      assert.equal(task.canSkip, 1);
      assert.equal(task.predTaskID, undefined);
    });

    it('autoClose 1: workgroup action, auto accept, delegation and assignees are ignored', async () => {
      const task = await post({ ProjectId: 101, autoClose: 1, workGroupActionID: 9, autoAccept: 7, canDelegate: true, assignees: [{ userID: 4242 }] });
      assert.deepEqual([task.autoClose, task.workGroupActionId, task.autoAccept, task.canDelegate, task.assignees], [1, 2, 0, false, []]);
    });

    it('OneMustClose: autoAccept is not taken (the spec: it should not be sent)', async () => {
      const task = await post({ ProjectId: 101, ...me, workGroupActionId: 1, autoAccept: 1 });
      assert.deepEqual([task.workGroupActionId, task.autoAccept], [1, 0]);
    });

    it('workGroupActionID and workGroupActionId are both understood', async () => {
      assert.equal((await post({ ProjectId: 101, ...me, workGroupActionID: 3 })).workGroupActionId, 3);
      assert.equal((await post({ ProjectId: 101, ...me, workGroupActionId: 3, autoAccept: 1 })).autoAccept, 1);
    });

    it('taskRoles take users, groups and roles, with estimated work', async () => {
      const task = await post({ ProjectId: 101, taskRoles: [{ roleID: 20, estimatedWork: 120 }, { userId: 10, enteredEstWorkDay: 1 }] });
      assert.equal(task.assignees, undefined);
      const roles = task.taskRoles as Record<string, unknown>[];
      assert.deepEqual(
        roles.map((r) => [r.roleID, r.userId, r.estimatedWork]),
        [
          [20, undefined, 120],
          [undefined, 10, 480],
        ],
      );
    });

    it('the answer is 201 with a Location that reads back the same task', async () => {
      const res = await admin.http.request<Task>({ method: 'POST', endpoint: 'ops', path: '/api/simple-tasks', json: { ProjectId: 101, ...me, name: 'Read me back' } });
      assert.equal(res.status, 201);
      const location = res.headers.get('location');
      assert.ok(location?.endsWith(`/api/tasks/${res.data.id}`));
      const { _links: _a, ...created } = res.data as Record<string, unknown>;
      const { _links: _b, ...read } = (await tasks.get(res.data.id)) as Record<string, unknown>;
      assert.deepEqual(read, created);
    });
  });

  describe('the client checks before sending', () => {
    const clientRows: [string, Record<string, unknown>, string][] = [
      ['a bad date', { ProjectId: 101, ...me, beginDate: '05/03/2026' }, 'Please check the data sent'],
      ['end before begin', { ProjectId: 101, ...me, beginDate: '2026-03-05T09:00:00', endDate: '2026-03-04T09:00:00' }, 'BeginDate should not be greater than EndDate'],
      ['no project', { ...me }, 'ProjectId cannot be null'],
      ['both kinds of people', { ProjectId: 101, ...me, taskRoles: [{ roleID: 20 }] }, 'Only one of Assignees and TaskRoles is allowed'],
      ['a negative minute', { ProjectId: 101, ...me, enteredEstimatedDurationMinute: -1 }, 'EnteredEstimatedDurationMinute contains an invalid value; only positive numbers allowed'],
    ];
    for (const [name, body, message] of clientRows) {
      it(`${name}: refused with the server's words and nothing sent`, async () => {
        const sent = env().events.length;
        const err = await failure<TaskValidationError>(() => tasks.create(body as never));
        assert.ok(err instanceof TaskValidationError);
        assert.equal(err.violations[0]?.message, message);
        assert.equal(env().events.length, sent);
      });
    }

    it('a good task goes through', async () => {
      const task = await tasks.create({ ProjectId: 101, name: 'From the client', assignees: [{ userID: 1 }], workFlowTaskStatus: 4, canDelegate: true });
      assert.deepEqual([task.name, task.workFlowTaskStatus, task.canDelegate], ['From the client', 4, true]);
    });
  });

  describe('reads', () => {
    it('GET /api/tasks/5001: the fixed task with its assignee ids', async () => {
      const task = await tasks.get(5001);
      assert.deepEqual([task.id, task.workFlowTaskStatus, task.assignees?.map((a) => a.userID)], [5001, 5, [1]]);
      assert.equal(typeof task.assignees?.[0]?.taskAssigneeId, 'number');
      assert.equal(typeof task.timeZoneId, 'number');
    });

    it('GET /api/tasks/5002 is Assigned (4)', async () => assert.equal((await tasks.get(5002)).workFlowTaskStatus, 4));

    it('GET /api/projects (the task form\'s read): the fixed projects with status, start and calendars', async () => {
      const projects = await tasks.projects();
      const byId = new Map(projects.map((p) => [p.id, p]));
      assert.deepEqual(
        [101, 102, 103, 104, 105].map((id) => [byId.get(id)?.name, byId.get(id)?.status]),
        [['Spring Campaign', 'InProcess'], ['Summer Launch', 'Draft'], ['Archive 2024', 'Closed'], ['Paused Initiative', 'Paused'], ['Cancelled Idea', 'Cancelled']],
      );
      const spring = byId.get(101)!;
      assert.equal(spring.defaultCalendarId, 1);
      assert.deepEqual(spring.calendars.map((c) => c.id), [1, 2]);
      assert.deepEqual(spring.calendars[0]!.workDays, [1, 2, 3, 4, 5]);
      assert.match(spring.startDate, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    });

    it('GET /api/projects needs a token', async () => {
      const res = await fetch(`${admin.http.endpoints.ops.replace(/\/$/, '')}/api/projects`);
      assert.equal(res.status, 401);
    });

    it('an unknown task is a 404', async () => {
      const err = await failure<ApiError>(() => tasks.get(987654));
      assert.equal(err.status, 404);
    });

    it('GET /api/tasks pages by limit and offset as { _total, _embedded, _links }', async () => {
      const first = await tasks.list({ limit: 1 });
      assert.equal(first.items.length, 1);
      assert.ok(first.total >= 2);
      const second = await tasks.list({ limit: 1, offset: 1 });
      assert.notEqual(second.items[0]?.id, first.items[0]?.id);
      const raw = (await admin.http.request<Record<string, unknown>>({ endpoint: 'ops', path: '/api/tasks', query: { limit: 1 } })).data;
      assert.ok((raw._links as Record<string, unknown>).next);
    });
  });

  describe('delegation', () => {
    it('hands the caller\'s assignment to another user, keeping its taskAssigneeId', async () => {
      const created = await post({ ProjectId: 101, ...me, workFlowTaskStatus: 4, canDelegate: true });
      const assigneeId = created.assignees![0]!.taskAssigneeId;
      const after = await tasks.delegate(created.id, 3);
      assert.deepEqual(after.assignees?.map((a) => [a.taskAssigneeId, a.userID]), [[assigneeId, 3]]);
      // The caller is no longer an assignee, so canDelegate now reads false for it.
      assert.equal(after.canDelegate, false);
    });

    const delegateRefusals: [string, () => Promise<{ task: Task; body: Record<string, unknown> }>, number, string][] = [
      ['a task created without delegation', async () => {
        const task = await post({ ProjectId: 101, ...me, workFlowTaskStatus: 4 });
        return { task, body: { taskAssigneeId: task.assignees![0]!.taskAssigneeId, newUserId: 3 } };
      }, 400, 'Delegation is not allowed for this task'],
      ['a Projected task', async () => {
        const task = await post({ ProjectId: 101, ...me, canDelegate: true });
        return { task, body: { taskAssigneeId: task.assignees![0]!.taskAssigneeId, newUserId: 3 } };
      }, 400, 'Only a task that is Assigned (4) or InProcess (5) can be delegated'],
      ['an unknown assignee', async () => ({ task: await tasks.get(5002), body: { taskAssigneeId: 1, newUserId: 3 } }), 404, 'The TaskAssigneeId specified does not exist'],
      ['an unknown new user', async () => {
        const task = await tasks.get(5002);
        return { task, body: { taskAssigneeId: task.assignees![0]!.taskAssigneeId, newUserId: 4242 } };
      }, 400, 'The NewUserId specified does not exist'],
      ['no newUserId', async () => ({ task: await tasks.get(5002), body: { taskAssigneeId: 1 } }), 400, 'NewUserId cannot be null'],
      ['no taskAssigneeId', async () => ({ task: await tasks.get(5002), body: { newUserId: 3 } }), 400, 'TaskAssigneeId cannot be null'],
    ];
    for (const [name, setup, status, message] of delegateRefusals) {
      it(`refused: ${name} (${status})`, async () => {
        const { task, body } = await setup();
        const err = await failure<ApiError>(() => admin.http.request({ method: 'POST', endpoint: 'ops', path: `/api/tasks/${task.id}/delegate`, json: body }));
        assert.deepEqual([err.status, err.exceptionMessage], [status, message]);
      });
    }
  });

  describe('accept and close', () => {
    it('Assigned → accept → InProcess → close → Closed; a second accept is refused', async () => {
      const task = await post({ ProjectId: 101, ...me, workFlowTaskStatus: 4 });
      const path = (a: string) => `/api/tasks/${task.id}/${a}`;
      const accepted = await admin.http.request<Task>({ method: 'POST', endpoint: 'ops', path: path('accept') });
      assert.equal(accepted.data.workFlowTaskStatus, 5);
      const closed = await admin.http.request<Task>({ method: 'POST', endpoint: 'ops', path: path('close') });
      assert.equal(closed.data.workFlowTaskStatus, 7);
      const err = await failure<ApiError>(() => admin.http.request({ method: 'POST', endpoint: 'ops', path: path('accept') }));
      assert.deepEqual([err.status, err.exceptionMessage], [400, 'Only an Assigned (4) task can be accepted']);
    });
  });

  describe('attachments', () => {
    const slotPath = (task: number, doc: number) => `/api/tasks/${task}/document-uploads/${doc}`;
    const postTo = (path: string, json: unknown, client = admin) => client.http.request<Record<string, unknown>>({ method: 'POST', endpoint: 'ops', path, json });

    it('attachment metadata definitions give picklists as key plus resource id', async () => {
      const fields = await tasks.attachmentFields();
      const documentType = fields.find((f) => f.name === 'documentType');
      assert.ok(documentType?.options?.length);
      for (const o of documentType.options!) assert.match(o.resourceId, /^mo-encoded-titles-\d+$/);
    });

    it('task 5001 has one open upload slot with a documentId', async () => {
      const slots = await tasks.documentUploads(5001);
      assert.equal(slots.length, 1);
      assert.equal(slots[0]!.status, 'Open');
      assert.equal(typeof slots[0]!.documentId, 'number');
    });

    it('objectId and objectTypeId are refused on the task-scoped route', async () => {
      const [slot] = await tasks.documentUploads(5001);
      for (const extra of [{ objectId: 5001 }, { objectTypeId: 2 }]) {
        const err = await failure<ApiError>(() => postTo(`${slotPath(5001, slot!.documentId)}/attachments`, { title: 'x', ...extra }));
        assert.deepEqual([err.status, err.exceptionMessage], [400, 'objectId and objectTypeId must not be sent: the task-scoped route sets them']);
      }
    });

    it('a title is required', async () => {
      const [slot] = await tasks.documentUploads(5001);
      const err = await failure<ApiError>(() => postTo(`${slotPath(5001, slot!.documentId)}/attachments`, { description: 'no title' }));
      assert.deepEqual([err.status, err.exceptionMessage], [400, 'Title cannot be null']);
    });

    it('an unknown picklist key and an unknown attribute are refused', async () => {
      const [slot] = await tasks.documentUploads(5001);
      const path = `${slotPath(5001, slot!.documentId)}/attachments`;
      const bad = await failure<ApiError>(() => postTo(path, { title: 'x', documentType: 'poem' }));
      assert.equal(bad.exceptionMessage, 'documentType must be one of: brief, copy, proof, contract');
      const unknown = await failure<ApiError>(() => postTo(path, { title: 'x', colour: 'red' }));
      assert.match(unknown.exceptionMessage ?? '', /Unknown attachment attribute 'colour'/);
    });

    it('a version needs FileName and FileId', async () => {
      const [slot] = await tasks.documentUploads(5001);
      const attachment = (await postTo(`${slotPath(5001, slot!.documentId)}/attachments`, { title: 'draft' })).data;
      const versions = `${slotPath(5001, slot!.documentId)}/attachments/${attachment.id}/versions`;
      const noId = await failure<ApiError>(() => postTo(versions, { FileName: 'a.pdf' }));
      assert.deepEqual([noId.status, noId.exceptionMessage], [400, 'FileId cannot be null']);
      const noName = await failure<ApiError>(() => postTo(versions, { FileId: FILE_ID }));
      assert.deepEqual([noName.status, noName.exceptionMessage], [400, 'FileName cannot be null']);
    });

    it('a version refuses a FileId that no upload produced', async () => {
      const [slot] = await tasks.documentUploads(5001);
      const attachment = (await postTo(`${slotPath(5001, slot!.documentId)}/attachments`, { title: 'draft' })).data;
      const err = await failure<ApiError>(() => postTo(`${slotPath(5001, slot!.documentId)}/attachments/${attachment.id}/versions`, { FileId: FILE_ID, FileName: 'a.pdf' }));
      assert.equal(err.status, 404);
      assert.match(err.exceptionType ?? '', /NoDataFoundException$/);
      assert.match(err.exceptionMessage ?? '', new RegExp(FILE_ID));
    });

    it('the five steps fill the slot; the attachment keeps its picklist values as key plus resource id', async () => {
      // Step 2: the file goes through the upload service; its fileId is what the version takes, once.
      const uploaded = await admin.uploads.upload({ filename: 'copy.pdf', data: new TextEncoder().encode('%PDF-1.4 final copy') });
      const FILE_ID = uploaded.fileId!;
      const result = await tasks.attach(5001, { fileId: FILE_ID, fileName: 'copy.pdf' }, { title: 'Final copy', metadata: { documentType: 'copy', channels: ['web', 'print'] } });
      const [slot] = await tasks.documentUploads(5001);
      assert.deepEqual([slot!.status, slot!.versionId], ['Uploaded', result.versionId]);
      const attachment = (await admin.http.request<Record<string, unknown>>({ endpoint: 'ops', path: `${slotPath(5001, result.documentId)}/attachments/${result.attachmentId}` })).data;
      assert.deepEqual([attachment.objectId, attachment.title], [5001, 'Final copy']);
      assert.deepEqual(attachment.documentType, { key: 'copy', resourceId: 'mo-encoded-titles-2' });
      assert.deepEqual((attachment.versions as Record<string, unknown>[]).map((v) => [v.id, v.fileId, v.fileName, v.isDefaultVersion]), [
        [result.versionId, FILE_ID, 'copy.pdf', true],
      ]);
    });

    it('a filled slot takes no more attachments', async () => {
      const err = await failure<ApiError>(() => postTo(`${slotPath(5001, 801)}/attachments`, { title: 'late' }));
      assert.deepEqual([err.status, err.exceptionMessage], [400, 'This document upload has already been completed']);
      await assert.rejects(tasks.attach(5001, { fileId: FILE_ID, fileName: 'b.pdf' }, { title: 'late' }), /no open document upload slot/);
    });

    it('a task that is not In Process takes no attachments', async () => {
      const [slot] = await tasks.documentUploads(5002);
      const err = await failure<ApiError>(() => postTo(`${slotPath(5002, slot!.documentId)}/attachments`, { title: 'early' }));
      assert.deepEqual([err.status, err.exceptionMessage], [400, 'Documents can only be uploaded to a task that is InProcess (5)']);
    });

    it('the generic attachments route does not attach to tasks', async () => {
      const err = await failure<ApiError>(() => postTo('/api/attachments', { title: 'x', objectId: 5001, objectTypeId: 2 }));
      assert.equal(err.status, 400);
      assert.match(err.exceptionMessage ?? '', /document-uploads/);
    });
  });

  describe('privileges (the limited client acts as user 2 without rights)', () => {
    it('creating a simple task: 403 naming the rights', async () => {
      const err = await failure<ApiError>(() => post({ ProjectId: 101, assignees: [{ userID: 2 }] }, limited));
      assert.equal(err.status, 403);
      for (const right of ['Project Edit', 'Project Task Insert', 'Project View', 'Integration API Access', 'System Administration']) {
        assert.ok(err.exceptionMessage?.includes(right), `names ${right}: ${err.exceptionMessage}`);
      }
    });

    it('delegating someone else\'s assignment: 403', async () => {
      const task = await tasks.get(5002);
      const err = await failure<ApiError>(() =>
        limited.http.request({ method: 'POST', endpoint: 'ops', path: '/api/tasks/5002/delegate', json: { taskAssigneeId: task.assignees![0]!.taskAssigneeId, newUserId: 2 } }),
      );
      assert.equal(err.status, 403);
    });

    it('attaching to a task one is not assigned to: 403', async () => {
      const err = await failure<ApiError>(() =>
        limited.http.request({ method: 'POST', endpoint: 'ops', path: '/api/tasks/5002/document-uploads/802/attachments', json: { title: 'x' } }),
      );
      assert.equal(err.status, 403);
    });

    it('reading tasks needs no special right', async () => {
      assert.equal((await new TasksApi(limited.http).get(5001)).id, 5001);
    });
  });

  describe('dam tasks', () => {
    const run = (...argv: string[]) => runDam(argv);

    it('create prints the task; a bad date is reported before anything is sent', async () => {
      const ok = await run('tasks', 'create', '--url', env().url, '--project', '101', '--assignee', '1', '--status', 'Assigned', '--can-delegate', '--name', 'CLI task', '--json');
      assert.equal(ok.code, 0, ok.stderr);
      const task = JSON.parse(ok.stdout) as Task;
      assert.deepEqual([task.name, task.workFlowTaskStatus, task.canDelegate], ['CLI task', 4, true]);

      const bad = await run('tasks', 'create', '--url', 'http://127.0.0.1:9', '--project', '101', '--assignee', '1', '--begin', '2026-03-05');
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /beginDate: Please check the data sent/);
      assert.match(bad.stderr, /nothing was sent/);

      const delegated = await run('tasks', 'delegate', String(task.id), '--to', '2', '--url', env().url);
      assert.equal(delegated.code, 0, delegated.stderr);
      assert.match(delegated.stdout, new RegExp(`task ${task.id} "CLI task" Assigned .*user 2`));
    });

    it('create with a duration in days and hours', async () => {
      const res = await run('tasks', 'create', '--url', env().url, '--project', '101', '--assignee', '2', '--start-type', 'StartNoEarlierThan', '--begin', '2026-03-05T09:00:00', '--duration', '1d2h', '--json');
      assert.equal(res.code, 0, res.stderr);
      assert.deepEqual(((t: Task) => [t.estimatedDuration, t.endDate])(JSON.parse(res.stdout) as Task), [600, '2026-03-06T11:00:00']);
    });

    it('bounds every number it is given (issue 27): too long a duration or too big an id is a usage error, a date past 9999 the service\'s 400', async () => {
      const long = await run('tasks', 'create', '--url', env().url, '--project', '101', '--assignee', '1', '--duration', '99999999d');
      assert.equal(long.code, 2);
      assert.match(long.stderr, /--duration '99999999d' is too long: at most 2147483647 minutes/);
      const big = await run('tasks', 'create', '--url', env().url, '--project', '99999999999999999999', '--assignee', '1');
      assert.equal(big.code, 2);
      assert.match(big.stderr, /--project '99999999999999999999' is not a whole number from 1 to 2147483647/);
      const far = await run('tasks', 'create', '--url', env().url, '--project', '101', '--assignee', '1', '--duration', '4000000d');
      assert.notEqual(far.code, 0);
      assert.match(far.stderr, /9999-12-31/);
    });

    it('attach refuses a task without an open slot, and a --file-id that is not a GUID', async () => {
      // Task 5001's only slot was filled above; the successful run has its own emulator below.
      const dir = await mkdtemp(join(tmpdir(), 'dam-attach-'));
      const file = join(dir, 'notes.txt');
      await writeFile(file, 'hello');
      const res = await run('tasks', 'attach', '5001', file, '--file-id', FILE_ID, '--url', env().url);
      assert.equal(res.code, 1);
      assert.match(res.stderr, /no open document upload slot/);
      const badId = await run('tasks', 'attach', '5001', file, '--file-id', 'not-a-guid', '--url', env().url);
      assert.equal(badId.code, 2);
      assert.match(badId.stderr, /--file-id must be a GUID/);
    });
  });
});

describeEachBackend('work management: dam tasks attach', { seed: 'empty' }, (env) => {
  it('runs the attachment flow on task 5001 and fills its slot', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dam-attach-'));
    const file = join(dir, 'launch-copy.pdf');
    await writeFile(file, '%PDF-1.4');
    const { code, stdout, stderr } = await runDam(['tasks', 'attach', '5001', file, '--meta', 'documentType=copy', '--meta', 'channels=web,social', '--json', '--url', env().url]);
    assert.equal(code, 0, stderr);
    const result = JSON.parse(stdout) as { documentId: number; attachmentId: number; versionId: number };
    const tasks = new TasksApi(env().client().http);
    const [slot] = await tasks.documentUploads(5001);
    assert.deepEqual([slot!.documentId, slot!.status, slot!.versionId], [result.documentId, 'Uploaded', result.versionId]);
    const attachment = (
      await env().client().http.request<Record<string, unknown>>({ endpoint: 'ops', path: `/api/tasks/5001/document-uploads/${result.documentId}/attachments/${result.attachmentId}` })
    ).data;
    assert.equal(attachment.title, 'launch-copy.pdf');
    // The version took the fileId of a real upload (the emulator refuses any other).
    const versions = attachment.versions as { fileId: string; fileName: string }[];
    assert.deepEqual(versions.map((v) => v.fileName), ['launch-copy.pdf']);
    assert.match(versions[0]!.fileId, /^[0-9a-f]{32}$/);
    assert.deepEqual(attachment.channels, [
      { key: 'web', resourceId: 'mo-encoded-titles-8' },
      { key: 'social', resourceId: 'mo-encoded-titles-12' },
    ]);
  });
});
