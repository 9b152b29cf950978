// The task form's logic against the shared task rules: the errors it shows are the rules' own messages, on
// the field the rule names; choices follow the project and task statuses; the third of begin/end/duration
// is computed on the project's calendar.
import * as assert from 'node:assert/strict';
import { readSimpleTaskRequest, TaskMessages } from '../../../src/core/tasks/rules';
import { checkTaskForm, emptyForm, formatDuration, formBody, userPrincipals, type FormPrincipal, type FormProject, type TaskFormValues } from '../../../src/extension/tasks/taskForm';

const weekdays: FormProject['calendars'][number] = { id: 1, name: 'Standard', workDays: [1, 2, 3, 4, 5], dayStartMinute: 540 };
const projects: FormProject[] = [
  { id: 101, name: 'Spring Campaign', status: 'InProcess', startDate: '2026-03-02T09:00:00', defaultCalendarId: 1, calendars: [weekdays, { id: 2, name: 'Weekend', workDays: [0, 6], dayStartMinute: 600 }] },
  { id: 102, name: 'Summer Launch', status: 'Draft', startDate: '2026-06-01T09:00:00', defaultCalendarId: 1, calendars: [weekdays] },
  { id: 103, name: 'Archive 2024', status: 'Closed', startDate: '2024-01-01T09:00:00', defaultCalendarId: 1, calendars: [weekdays] },
];
const principals: FormPrincipal[] = [
  { id: 1, label: 'Admin', kind: 'user' },
  { id: 10, label: 'Marketing', kind: 'group' },
];
const ctx = { projects, principals, now: new Date(2026, 10, 23, 10, 0, 0) };

function form(patch: Partial<TaskFormValues>): TaskFormValues {
  return { ...emptyForm(), projectId: '101', name: 'Brief', status: '4', startType: '2', beginDate: '2026-11-23T09:00', durationDays: '2', principals: ['1'], ...patch };
}

describe('task form', () => {
  it('accepts a good form and its body passes the client rules unchanged', () => {
    const check = checkTaskForm(form({}), ctx);
    assert.deepEqual(check.errors, {});
    assert.ok(check.body);
    assert.deepEqual(readSimpleTaskRequest(check.body).violations, []);
    assert.equal(check.body.beginDate, '2026-11-23T09:00:00');
    assert.deepEqual(check.body.assignees, [{ userID: 1 }]);
  });

  it('shows end before begin on the end field with the rules’ message, and sends nothing', () => {
    const check = checkTaskForm(form({ beginDate: '2026-11-25T09:00', endDate: '2026-11-24T17:00', durationDays: '' }), ctx);
    assert.equal(check.errors.endDate, TaskMessages.beginAfterEnd);
    assert.equal(check.body, undefined);
  });

  it('rejects an impossible date on its field', () => {
    const check = checkTaskForm(form({ beginDate: '2026-02-30T09:00' }), ctx);
    assert.match(check.errors.beginDate ?? '', /^Enter a real date and time/);
  });

  it('offers the statuses the project allows and flags one it does not', () => {
    assert.deepEqual(checkTaskForm(form({ projectId: '102', status: '1', startType: '1' }), ctx).statuses.map((s) => s.value), ['1', '8', '9']);
    const check = checkTaskForm(form({ projectId: '102', status: '4', startType: '1' }), ctx);
    assert.equal(check.errors.status, TaskMessages.draftProjectStatus);
    assert.equal(checkTaskForm(form({ projectId: '103' }), ctx).errors.projectId, TaskMessages.projectClosed);
  });

  it('offers the start types the status allows and flags one it does not', () => {
    const check = checkTaskForm(form({ status: '2', startType: '2' }), ctx);
    assert.deepEqual(check.startTypes.map((s) => s.value), ['1', '4', '6']);
    assert.equal(check.errors.startType, TaskMessages.startTypeForStatus(2, 2));
  });

  it('computes the third of begin, end and duration on the chosen calendar (a day is 8 hours)', () => {
    // A Projected task starting no earlier than its begin: the dates typed stand (nothing is derived).
    const typed = { status: '2', startType: '4' };
    assert.deepEqual(checkTaskForm(form(typed), ctx).computed, { field: 'endDate', text: '2026-11-24 17:00' });
    const back = checkTaskForm(form({ ...typed, beginDate: '', endDate: '2026-11-24T17:00', durationDays: '1', durationHours: '4' }), ctx);
    assert.deepEqual(back.computed, { field: 'beginDate', text: '2026-11-23 13:00' });
    const span = checkTaskForm(form({ ...typed, endDate: '2026-11-30T13:00', durationDays: '' }), ctx);
    assert.deepEqual(span.computed, { field: 'duration', text: formatDuration(5 * 480 + 240) });
    assert.equal(formatDuration(5 * 480 + 240), '5 d 4 h');
  });

  it('shows the computed value while other fields still have errors', () => {
    const check = checkTaskForm(form({ principals: [], endDate: '2026-11-25T13:00', durationDays: '' }), ctx);
    assert.match(check.errors.people ?? '', /Choose at least one person/);
    assert.deepEqual(check.computed, { field: 'duration', text: '2 d 4 h' });
    assert.equal(checkTaskForm(form({ beginDate: 'soon' }), ctx).computed, undefined);
  });

  it('asks for two of begin, end and duration, and warns when all three disagree', () => {
    assert.match(checkTaskForm(form({ status: '2', startType: '4', durationDays: '' }), ctx).errors.endDate ?? '', /two of begin, end and duration/);
    // As soon as possible the begin is not used: the error is not put on it, but on the duration (or the end).
    const asap = checkTaskForm(form({ status: '2', startType: '1', durationDays: '' }), ctx);
    assert.equal(asap.errors.beginDate, undefined);
    assert.match(asap.errors.duration ?? '', /as soon as possible, the task begins at the project’s start/);
    const three = checkTaskForm(form({ endDate: '2026-11-23T17:00', durationDays: '3' }), ctx);
    assert.deepEqual(three.errors, {});
    assert.match(three.warnings.duration ?? '', /do not match/);
  });

  it('needs people of one kind that the tenant knows', () => {
    // In words the person can act on, not the service's 'The Assignees or TaskRoles specified does not exist'.
    assert.match(checkTaskForm(form({ principals: [] }), ctx).errors.people ?? '', /^Choose at least one person or group/);
    assert.match(checkTaskForm(form({ principals: ['999'] }), ctx).errors.people ?? '', /^Choose at least one person or group/);
    const roles = checkTaskForm(form({ peopleKind: 'taskRoles', principals: ['10'], roleIds: '20' }), ctx);
    assert.deepEqual(roles.body?.taskRoles, [{ userId: 10 }, { roleID: 20 }]);
    assert.equal(roles.body?.assignees, undefined);
  });

  it('leaves out what autoClose and OneMustClose make the service ignore', () => {
    const closing = formBody(form({ autoClose: true, autoAccept: true, canDelegate: true }));
    assert.equal(closing.autoClose, 1);
    for (const k of ['workGroupActionID', 'autoAccept', 'canDelegate', 'assignees']) assert.equal(k in closing, false, k);
    assert.deepEqual(checkTaskForm(form({ autoClose: true, status: '2', startType: '4' }), ctx).disabled, ['workGroupAction', 'autoAccept', 'people']);
    const one = formBody(form({ workGroupAction: '1', autoAccept: true }));
    assert.equal('autoAccept' in one, false);
    assert.equal(checkTaskForm(form({ workGroupAction: '4' }), ctx).errors.workGroupAction, TaskMessages.badWorkGroupAction);
  });

  it('names an unknown project and a calendar the project lacks', () => {
    assert.equal(checkTaskForm(form({ projectId: '999' }), ctx).errors.projectId, TaskMessages.unknownProject);
    assert.equal(checkTaskForm(form({ projectId: '102', status: '1', startType: '2', calendarId: '2' }), ctx).errors.calendarId, TaskMessages.unknownCalendar);
    assert.deepEqual(checkTaskForm(form({}), ctx).calendars.map((c) => c.label), ['Standard (the project’s default)', 'Weekend']);
  });

  it('names statuses, start types and calendars without their numbers', () => {
    const check = checkTaskForm(form({ status: '2', startType: '1' }), ctx);
    assert.deepEqual(check.statuses.map((c) => c.label), ['Projected', 'Assigned', 'Pending', 'Cancelled', 'Removed']);
    assert.deepEqual(check.startTypes.map((c) => c.label), ['As soon as possible', 'Start no earlier than', 'Start no later than']);
    for (const c of [...check.statuses, ...check.startTypes, ...check.calendars]) assert.doesNotMatch(c.label, /\(\d+\)/);
  });

  it('says when the service sets the dates itself, and to what', () => {
    const asap = checkTaskForm(form({ status: '2', startType: '1', beginDate: '2026-12-01T09:00', durationDays: '1' }), ctx);
    assert.match(asap.derived ?? '', /^As soon as possible: the task begins at the project's start \(2026-03-02 09:00\) and ends 2026-03-02 17:00/);
    const assigned = checkTaskForm(form({}), ctx);
    assert.match(assigned.derived ?? '', /^An Assigned task starts now: the service sets both begin and end to 2026-11-23 10:00/);
    const cancelled = checkTaskForm(form({ status: '8', startType: '1' }), ctx);
    assert.match(cancelled.derived ?? '', /Cancelled task takes the project's start.*2026-03-02 09:00/);
    assert.equal(checkTaskForm(form({ status: '2', startType: '4', beginDate: '2026-12-01T09:00' }), ctx).derived, undefined);
    // The begin and end the service sets are not "computed" from what was typed.
    assert.equal(checkTaskForm(form({}), ctx).computed, undefined);
  });

  // Issue 27, item 1: 99999999 days hung the extension host (the working-time walk never ended). Before the fix
  // this test never returns; now every number box is bounded in the form's words, and the check returns.
  it('bounds every number a person can type, in the form’s words', () => {
    const huge = checkTaskForm(form({ status: '2', startType: '1', beginDate: '', durationDays: '99999999' }), ctx);
    assert.equal(huge.errors.duration, 'Days must be at most 9999');
    assert.equal(huge.body, undefined);
    assert.equal(huge.derived, undefined);
    for (const [patch, message] of [
      [{ durationHours: '-3' }, 'Hours must be 0 or more'],
      [{ durationMinutes: '1.5' }, 'Minutes must be a whole number'],
      [{ durationHours: '100000' }, 'Hours must be at most 99999'],
    ] as const) {
      const check = checkTaskForm(form(patch), ctx);
      assert.equal(check.errors.duration, message, JSON.stringify(patch));
      assert.doesNotMatch(JSON.stringify(check.errors), /Entered|EstimatedDuration/);
    }
    // The largest days the form takes, from a begin late in 9999, would end past the calendar: said, not computed.
    const late = checkTaskForm(form({ status: '2', startType: '4', beginDate: '9999-06-01T09:00', durationDays: '9999' }), ctx);
    assert.match(late.errors.duration ?? '', /^The task would end after 9999-12-31/);
    assert.equal(late.computed, undefined);
    assert.match(checkTaskForm(form({ peopleKind: 'taskRoles', roleIds: '20, 99999999999' }), ctx).errors.people ?? '', /^Role ids are whole numbers/);
  });

  // Item 2: as soon as possible the begin is not used (the form's note says so), so Create does not ask for it.
  it('as soon as possible (or when the service sets the begin), the duration alone is enough', () => {
    const asap = checkTaskForm(form({ status: '2', startType: '1', beginDate: '', durationDays: '2' }), ctx);
    assert.deepEqual(asap.errors, {});
    // Rule 2 wants two of begin, end and duration sent: the begin sent is the one the service uses.
    assert.equal(asap.body?.beginDate, '2026-03-02T09:00:00');
    assert.match(asap.derived ?? '', /ends 2026-03-03 17:00/);
    const assigned = checkTaskForm(form({ status: '4', startType: '1', beginDate: '', durationDays: '1' }), ctx);
    assert.deepEqual(assigned.errors, {});
    assert.equal(assigned.body?.beginDate, '2026-11-23T10:00:00');
    assert.equal(checkTaskForm(form({ status: '2', startType: '1', beginDate: '', durationDays: '' }), ctx).errors.duration, 'Enter the duration; as soon as possible, the task begins at the project’s start');
    // As soon as possible the begin is shown disabled; a start type that uses the begin leaves it open.
    assert.ok(asap.disabled.includes('beginDate'));
    assert.ok(!checkTaskForm(form({ status: '2', startType: '4', beginDate: '', durationDays: '2' }), ctx).disabled.includes('beginDate'));
    // A start type that uses the begin still needs it.
    assert.match(checkTaskForm(form({ status: '2', startType: '4', beginDate: '', durationDays: '2' }), ctx).errors.beginDate ?? '', /two of begin, end and duration/);
  });
});

// Issue 35: two people of the same name were listed twice with nothing to tell them apart.
describe('the people the task form lists', () => {
  it('tells people of the same name apart by login and email, and leaves other names as they are', () => {
    const listed = userPrincipals([
      { id: 1, firstName: 'Ana', lastName: 'Lima', name: 'ana.lima', email: 'ana.lima@example.com' },
      { id: 2, firstName: 'Ana', lastName: 'Lima', name: 'alima2', email: 'ana@elsewhere.example' },
      { id: 3, firstName: 'Bo', lastName: 'Chen', name: 'bchen', email: 'bo@example.com' },
      { id: 4, name: 'Ana Lima' },
    ]);
    assert.deepEqual(listed.map((p) => p.label), ['Ana Lima (ana.lima, ana.lima@example.com)', 'Ana Lima (alima2, ana@elsewhere.example)', 'Bo Chen', 'Ana Lima (user 4)']);
    assert.equal(new Set(listed.map((p) => p.label)).size, listed.length);
  });
});

