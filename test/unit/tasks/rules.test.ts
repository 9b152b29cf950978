// The simple-task rules as tables: one row per rule of the spec and per message of its error table.
import assert from 'node:assert/strict';
import {
  TaskMessages,
  TASK_CREATE_DENIED,
  Right,
  readSimpleTaskRequest,
  simpleTaskCreateDenial,
  validateSimpleTask,
  type ProjectStatusName,
  type TaskRuleContext,
} from '../../../src/core/tasks/rules';

const calendars = [
  { id: 1, name: 'Standard', workDays: [1, 2, 3, 4, 5], dayStartMinute: 540 },
  { id: 2, name: 'Seven days', workDays: [0, 1, 2, 3, 4, 5, 6], dayStartMinute: 540 },
];
function context(status: ProjectStatusName = 'InProcess'): TaskRuleContext {
  return {
    project: { id: 101, status, startDate: '2026-03-02T09:00:00', calendars, defaultCalendarId: 1 },
    now: '2026-03-04T11:22:33', // a Wednesday
    callerId: 1,
    isUserOrGroup: (id) => [1, 2, 3, 10].includes(id),
    isRole: (id) => id === 20,
    isCaller: (id) => id === 1,
  };
}
const base = { ProjectId: 101, assignees: [{ userID: 2 }] };

describe('simple task rules: the error table', () => {
  const rows: [string, Record<string, unknown>, ProjectStatusName, string][] = [
    ['ProjectId missing', { assignees: [{ userID: 2 }] }, 'InProcess', TaskMessages.projectRequired],
    ['Projected on a Draft project', { ...base, workFlowTaskStatus: 2 }, 'Draft', 'Only Draft (1), Canceled (8), Removed (9) allowed'],
    ['Draft on an InProcess project', { ...base, workFlowTaskStatus: 1 }, 'InProcess', 'Only Projected (2), Assigned (4), Canceled (8), Removed (9) allowed'],
    ['Draft on a Paused project', { ...base, workFlowTaskStatus: 1 }, 'Paused', 'Only Projected (2), Assigned (4), Canceled (8), Removed (9) allowed'],
    ['InProcess status at creation', { ...base, workFlowTaskStatus: 5 }, 'InProcess', 'Only Projected (2), Assigned (4), Canceled (8), Removed (9) allowed'],
    ['Closed project', base, 'Closed', 'You cannot add Task to that project'],
    ['Cancelled project', base, 'Cancelled', 'You cannot add Task to that project'],
    ['Removed project', base, 'Removed', 'You cannot add Task to that project'],
    ['InitializeFailed project', base, 'InitializeFailed', 'You cannot add Task to that project'],
    ['Initializing project', base, 'Initializing', 'You cannot add Task to that project'],
    ['StartFailed project', base, 'StartFailed', 'You cannot add Task to that project'],
    ['Starting project', base, 'Starting', 'You cannot add Task to that project'],
    ['endDate before beginDate', { ...base, beginDate: '2026-03-03T09:00:00', endDate: '2026-03-02T09:00:00' }, 'InProcess', 'BeginDate should not be greater than EndDate'],
    ['date without time', { ...base, beginDate: '2026-03-03' }, 'InProcess', 'Please check the data sent'],
    ['date with zone', { ...base, endDate: '2026-03-03T09:00:00Z' }, 'InProcess', 'Please check the data sent'],
    ['impossible date', { ...base, beginDate: '2026-02-30T09:00:00' }, 'InProcess', 'Please check the data sent'],
    ['negative entered minutes', { ...base, enteredEstimatedDurationMinute: -5 }, 'InProcess', 'EnteredEstimatedDurationMinute contains an invalid value; only positive numbers allowed'],
    ['negative entered days', { ...base, enteredEstimatedDurationDay: -1 }, 'InProcess', 'EnteredEstimatedDurationDay contains an invalid value; only positive numbers allowed'],
    ['unknown calendar', { ...base, workScheduleId: 9 }, 'InProcess', 'The WorkScheduleID specified does not exist'],
    ['autoClose 2 (Milestone, unused)', { ...base, autoClose: 2 }, 'InProcess', 'AutoClose contains an invalid value (allowed No 0, Yes 1, Milestone 2)'],
    ['autoClose 7', { ...base, autoClose: 7 }, 'InProcess', 'AutoClose contains an invalid value (allowed No 0, Yes 1, Milestone 2)'],
    ['autoAccept 3', { ...base, autoAccept: 3 }, 'InProcess', 'AutoAccept contains an invalid value'],
    ['both taskRoles and assignees', { ...base, taskRoles: [{ roleID: 20 }] }, 'InProcess', 'Only one of Assignees and TaskRoles is allowed'],
    ['neither taskRoles nor assignees', { ProjectId: 101 }, 'InProcess', 'The Assignees or TaskRoles specified does not exist'],
    ['empty assignees', { ProjectId: 101, assignees: [] }, 'InProcess', 'The Assignees or TaskRoles specified does not exist'],
    ['unknown assignee', { ProjectId: 101, assignees: [{ userID: 999 }] }, 'InProcess', 'The Assignees or TaskRoles specified does not exist'],
    ['unknown role', { ProjectId: 101, taskRoles: [{ roleID: 999 }] }, 'InProcess', 'The Assignees or TaskRoles specified does not exist'],
    ['Pending with ASAP', { ...base, workFlowTaskStatus: 3, startType: 1 }, 'InProcess', TaskMessages.startTypeForStatus(3, 1)],
    ['Projected with FixedBegin', { ...base, startType: 2 }, 'InProcess', TaskMessages.startTypeForStatus(2, 2)],
    ['start type 5', { ...base, startType: 5 }, 'InProcess', TaskMessages.badStartType],
    ['workgroup action 4', { ...base, workGroupActionID: 4 }, 'InProcess', TaskMessages.badWorkGroupAction],
  ];
  for (const [name, body, status, message] of rows) {
    it(`${name}: ${message}`, () => {
      const { task, violations } = validateSimpleTask(body, context(status));
      assert.equal(task, undefined);
      assert.equal(violations[0]?.message, message);
    });
  }

  it('the start-type message names the allowed start types', () => {
    assert.equal(
      TaskMessages.startTypeForStatus(3, 1),
      'StartType ASAP (1) is not allowed for a task with status Pending (3); allowed: FixedBegin (2), FixedEnd (3)',
    );
  });
});

describe('simple task rules: what gets created', () => {
  const settle = (body: Record<string, unknown>, status: ProjectStatusName = 'InProcess') => {
    const { task, violations } = validateSimpleTask(body, context(status));
    assert.deepEqual(violations, []);
    return task!;
  };

  it('fills the defaults: New Task, Projected, ASAP, calendar 1, no auto close, AnyMayClose, one day', () => {
    const task = settle(base);
    assert.deepEqual(
      { ...task },
      {
        projectId: 101,
        name: 'New Task',
        description: null,
        beginDate: '2026-03-02T09:00:00', // Projected + ASAP: the project start
        endDate: '2026-03-02T17:00:00',
        estimatedDuration: 480,
        workFlowTaskStatus: 2,
        startType: 1,
        workScheduleId: 1,
        autoClose: 0,
        autoAccept: 0,
        workGroupActionId: 2,
        canDelegate: false,
        canSkip: 1,
        assignees: [{ userId: 2, estimatedWork: 0 }],
      },
    );
  });

  const dateRows: [string, Record<string, unknown>, string, string, number][] = [
    ['begin and end give the duration', { beginDate: '2026-03-05T09:00:00', endDate: '2026-03-06T13:00:00' }, '2026-03-05T09:00:00', '2026-03-06T13:00:00', 720],
    ['begin and duration give the end', { beginDate: '2026-03-05T09:00:00', EstimatedDuration: 960 }, '2026-03-05T09:00:00', '2026-03-06T17:00:00', 960],
    ['end and duration give the begin', { endDate: '2026-03-09T17:00:00', EstimatedDuration: 960 }, '2026-03-06T09:00:00', '2026-03-09T17:00:00', 960],
    ['the entered triple counts a day as 8 hours', { beginDate: '2026-03-05T09:00:00', enteredEstimatedDurationDay: 1, enteredEstimatedDurationHour: 2, enteredEstimatedDurationMinute: 30 }, '2026-03-05T09:00:00', '2026-03-06T11:30:00', 630],
    ['a lone begin spans one day', { beginDate: '2026-03-05T09:00:00' }, '2026-03-05T09:00:00', '2026-03-05T17:00:00', 480],
    ['a lone duration starts at 09:00 of the current date', { EstimatedDuration: 240 }, '2026-03-04T09:00:00', '2026-03-04T13:00:00', 240],
    ['the second calendar works weekends', { beginDate: '2026-03-06T09:00:00', endDate: '2026-03-09T17:00:00', workScheduleId: 2 }, '2026-03-06T09:00:00', '2026-03-09T17:00:00', 1920],
    ['all three consistent', { beginDate: '2026-03-05T09:00:00', endDate: '2026-03-05T17:00:00', EstimatedDuration: 480 }, '2026-03-05T09:00:00', '2026-03-05T17:00:00', 480],
  ];
  for (const [name, dates, begin, end, duration] of dateRows) {
    it(`date rule: ${name}`, () => {
      const task = settle({ ...base, startType: 4, ...dates });
      assert.deepEqual([task.beginDate, task.endDate, task.estimatedDuration, task.message], [begin, end, duration, undefined]);
    });
  }

  it('all three sent and inconsistent: a default task is created with the mismatch message', () => {
    const task = settle({ ...base, startType: 4, beginDate: '2026-03-05T09:00:00', endDate: '2026-03-05T17:00:00', EstimatedDuration: 60 });
    assert.equal(task.message, 'BeginDate, EndDate and EstimatedDuration do not match');
    assert.deepEqual([task.beginDate, task.endDate, task.estimatedDuration], ['2026-03-04T09:00:00', '2026-03-04T17:00:00', 480]);
  });

  const statusRows: [string, Record<string, unknown>, ProjectStatusName, string, string][] = [
    ['Assigned: begin and end are now', { workFlowTaskStatus: 4, startType: 2, beginDate: '2026-03-10T09:00:00' }, 'InProcess', '2026-03-04T11:22:33', '2026-03-04T11:22:33'],
    ['Cancelled: both are the project date', { workFlowTaskStatus: 8, beginDate: '2026-03-10T09:00:00' }, 'InProcess', '2026-03-02T09:00:00', '2026-03-02T09:00:00'],
    ['Removed: both are the project date', { workFlowTaskStatus: 9 }, 'Draft', '2026-03-02T09:00:00', '2026-03-02T09:00:00'],
    ['Projected ASAP: project start plus duration', { workFlowTaskStatus: 2, startType: 1, beginDate: '2026-03-10T09:00:00', EstimatedDuration: 960 }, 'InProcess', '2026-03-02T09:00:00', '2026-03-03T17:00:00'],
    ['Draft ASAP: project start plus duration', { workFlowTaskStatus: 1, EstimatedDuration: 240 }, 'Draft', '2026-03-02T09:00:00', '2026-03-02T13:00:00'],
    ['Projected StartNoLaterThan: the body dates', { startType: 6, beginDate: '2026-03-10T09:00:00' }, 'Paused', '2026-03-10T09:00:00', '2026-03-10T17:00:00'],
    ['Draft FixedEnd: the body dates', { workFlowTaskStatus: 1, startType: 3, endDate: '2026-03-10T17:00:00' }, 'Draft', '2026-03-10T09:00:00', '2026-03-10T17:00:00'],
    ['Pending FixedBegin: the body dates', { workFlowTaskStatus: 3, startType: 2, beginDate: '2026-03-10T09:00:00' }, 'InProcess', '2026-03-10T09:00:00', '2026-03-10T17:00:00'],
  ];
  for (const [name, body, project, begin, end] of statusRows) {
    it(`date behaviour: ${name}`, () => {
      const task = settle({ ...base, ...body }, project);
      assert.deepEqual([task.beginDate, task.endDate], [begin, end]);
    });
  }

  const delegateRows: [string, Record<string, unknown>, boolean][] = [
    ['true, caller assigned, Assigned', { assignees: [{ userID: 1 }], workFlowTaskStatus: 4, canDelegate: true }, true],
    ['true, caller assigned through taskRoles', { assignees: undefined, taskRoles: [{ userId: 1 }], workFlowTaskStatus: 4, canDelegate: true }, true],
    ['true, caller assigned, Projected', { assignees: [{ userID: 1 }], canDelegate: true }, false],
    ['true, caller not assigned, Assigned', { workFlowTaskStatus: 4, canDelegate: true }, false],
    ['false, caller assigned, Assigned', { assignees: [{ userID: 1 }], workFlowTaskStatus: 4, canDelegate: false }, false],
    ['an invalid value is ignored', { assignees: [{ userID: 1 }], workFlowTaskStatus: 4, canDelegate: 'yes' }, false],
  ];
  for (const [name, body, echoed] of delegateRows) {
    it(`canDelegate echo: ${name} → ${echoed}`, () => assert.equal(settle({ ...base, ...body }).canDelegate, echoed));
  }

  it('canSkip is always 1 and predTaskID is ignored', () => {
    const task = settle({ ...base, canSkip: 0, predTaskID: 5001 });
    assert.equal(task.canSkip, 1);
    assert.equal('predTaskID' in task, false);
  });

  it('autoClose 1 ignores workgroup action, auto accept, delegation and assignees', () => {
    const task = settle({ ProjectId: 101, autoClose: 1, workGroupActionID: 9, autoAccept: 5, canDelegate: true, assignees: [{ userID: 999 }], taskRoles: [{ roleID: 20 }] });
    assert.deepEqual([task.autoClose, task.workGroupActionId, task.autoAccept, task.canDelegate, task.assignees], [1, 2, 0, false, []]);
  });

  it('OneMustClose ignores autoAccept, even an invalid one', () => {
    const task = settle({ ...base, workGroupActionId: 1, autoAccept: 7 });
    assert.deepEqual([task.workGroupActionId, task.autoAccept], [1, 0]);
  });

  it('taskRoles take users, groups and roles; assignees take users and groups with estimated work', () => {
    assert.deepEqual(settle({ ProjectId: 101, taskRoles: [{ roleID: 20, estimatedWork: 60 }, { userId: 10 }] }).taskRoles, [
      { roleId: 20, estimatedWork: 60 },
      { userId: 10, estimatedWork: 0 },
    ]);
    assert.deepEqual(settle({ ProjectId: 101, assignees: [{ userID: 10, enteredEstWorkDay: 1, enteredEstWorkHour: 1 }] }).assignees, [
      { userId: 10, estimatedWork: 540 },
    ]);
  });

  it('field names bind without regard to case', () => {
    const task = settle({ projectid: 101, Assignees: [{ userid: 2 }], WORKFLOWTASKSTATUS: 8, Name: 'Cased' });
    assert.deepEqual([task.name, task.workFlowTaskStatus], ['Cased', 8]);
  });
});

describe('simple task rules: before sending', () => {
  it('reports every project-independent problem at once', () => {
    const { violations } = readSimpleTaskRequest({ beginDate: 'tomorrow', autoClose: 3 });
    assert.deepEqual(
      violations.map((v) => v.message),
      [TaskMessages.projectRequired, TaskMessages.badData, TaskMessages.badAutoClose, TaskMessages.noAssignees],
    );
  });
  it('bounds every number: nothing above the service\'s 32-bit integers, no date past 9999 (issue 27)', () => {
    const codes = (body: Record<string, unknown>) => readSimpleTaskRequest({ ...base, ...body }).violations.map((v) => `${v.code} ${v.field}`);
    assert.deepEqual(codes({ EstimatedDuration: 2_147_483_648 }), ['tooLarge EstimatedDuration']);
    assert.deepEqual(codes({ enteredEstimatedDurationDay: 99_999_999 }), ['tooLarge EstimatedDuration']);
    assert.deepEqual(codes({ enteredEstimatedDurationHour: '99999999999999999999' }), ['tooLarge EnteredEstimatedDurationHour']);
    // Within the integers but past the calendar: settled, not walked for ever.
    const far = validateSimpleTask({ ...base, enteredEstimatedDurationDay: 4_000_000 }, context());
    assert.deepEqual(far.violations.map((v) => v.message), [TaskMessages.outOfRange]);
    const early = validateSimpleTask({ ...base, startType: 4, endDate: '0101-01-01T17:00:00', EstimatedDuration: 480 * 1000 }, context());
    assert.deepEqual(early.violations.map((v) => v.code), ['outOfRange']);
  });

  it('a request that only the project can refuse passes the shape check', () => {
    assert.deepEqual(readSimpleTaskRequest({ ...base, workFlowTaskStatus: 1, workScheduleId: 77 }).violations, []);
  });
});

describe('simple task privileges', () => {
  const rows: [string, string[], boolean, boolean][] = [
    ['system administration', [Right.SystemAdministration], false, true],
    ['project rights and the activity edit list', [Right.ProjectEdit, Right.ProjectTaskInsert, Right.ProjectView], true, true],
    ['project rights and Integration API Access', [Right.ProjectEdit, Right.ProjectTaskInsert, Right.ProjectView, Right.IntegrationApiAccess], false, true],
    ['project rights alone', [Right.ProjectEdit, Right.ProjectTaskInsert, Right.ProjectView], false, false],
    ['two of the project rights with API access', [Right.ProjectEdit, Right.ProjectView, Right.IntegrationApiAccess], true, false],
    ['nothing', [], false, false],
  ];
  for (const [name, rights, onList, allowed] of rows) {
    it(`${name}: ${allowed ? 'allowed' : 'denied'}`, () => {
      assert.equal(simpleTaskCreateDenial(rights, onList), allowed ? undefined : TASK_CREATE_DENIED);
    });
  }
});
