// The task form's logic: what the user typed → the request body, the errors by field, and the choices the
// form offers. Every rule comes from src/core/tasks (the same ones the client and the emulator apply);
// this module only maps fields and messages. Free of `vscode` so unit tests and the panel share it.
import {
  ALLOWED_START_TYPES_BY_STATUS,
  ALLOWED_STATUSES_BY_PROJECT,
  StartType,
  TaskMessages,
  TaskStatus,
  WorkGroupAction,
  readSimpleTaskRequest,
  resolveDates,
  settleSimpleTask,
  type StartTypeName,
  type TaskStatusName,
  type TaskViolation,
  MINUTES_PER_WORKDAY,
  MAX_INTEGER,
  EARLIEST,
  LATEST,
  formatNaive,
  parseNaive,
  type WorkCalendar,
} from '../../core/tasks';
import type { SimpleTaskBody } from '../../api/tasks';

/** A project as the form needs it (the client's `Project`). */
export interface FormProject {
  id: number;
  name: string;
  status: keyof typeof ALLOWED_STATUSES_BY_PROJECT;
  startDate: string;
  defaultCalendarId: number;
  calendars: WorkCalendar[];
}

/** Users and groups (assignees may be either); the ids are the service's integer ids. */
export interface FormPrincipal {
  id: number;
  label: string;
  kind: 'user' | 'group';
}

/** A user as the tenant lists them (the fields the form reads). */
export interface PrincipalUser {
  id: number;
  firstName?: string | null;
  lastName?: string | null;
  name?: string | null;
  email?: string | null;
}

/**
 * The users the form lists, by name. Two people of the same name get what tells them apart, their login and email
 * (the form listed them twice with nothing to choose by).
 */
export function userPrincipals(users: readonly PrincipalUser[]): FormPrincipal[] {
  const nameOf = (u: PrincipalUser) => [u.firstName, u.lastName].filter(Boolean).join(' ') || u.name || u.email || String(u.id);
  const count = new Map<string, number>();
  for (const u of users) count.set(nameOf(u).toLowerCase(), (count.get(nameOf(u).toLowerCase()) ?? 0) + 1);
  return users.map((u) => {
    const name = nameOf(u);
    if ((count.get(name.toLowerCase()) ?? 0) < 2) return { id: u.id, label: name, kind: 'user' };
    const apart = [...new Set([u.name, u.email].filter((x): x is string => !!x && x !== name))];
    return { id: u.id, label: `${name} (${apart.length ? apart.join(', ') : `user ${u.id}`})`, kind: 'user' };
  });
}

/** What the form holds, as typed: strings from inputs, booleans from checkboxes. */
export interface TaskFormValues {
  projectId: string;
  name: string;
  description: string;
  status: string;
  startType: string;
  calendarId: string;
  beginDate: string;
  endDate: string;
  durationDays: string;
  durationHours: string;
  durationMinutes: string;
  autoClose: boolean;
  workGroupAction: string;
  autoAccept: boolean;
  canDelegate: boolean;
  peopleKind: 'assignees' | 'taskRoles';
  /** Selected user/group ids (assignees, or task roles by user). */
  principals: string[];
  /** Task roles by role id, comma separated. */
  roleIds: string;
}

export type FormField =
  | 'projectId'
  | 'name'
  | 'description'
  | 'status'
  | 'startType'
  | 'calendarId'
  | 'beginDate'
  | 'endDate'
  | 'duration'
  | 'autoClose'
  | 'workGroupAction'
  | 'autoAccept'
  | 'people'
  | 'form';

export interface Choice {
  value: string;
  label: string;
}

export interface FormCheck {
  /** The first error of each field, worded as the service words it. */
  errors: Partial<Record<FormField, string>>;
  /** Not blocking: the service accepts the request but answers with a message. */
  warnings: Partial<Record<FormField, string>>;
  /** The value of whichever of begin, end and duration the user left empty, computed on the project's calendar. */
  computed?: { field: 'beginDate' | 'endDate' | 'duration'; text: string };
  /** When the service will set the dates itself (start as soon as possible, Assigned, Cancelled…): what they will be, and why. */
  derived?: string;
  statuses: Choice[];
  startTypes: Choice[];
  calendars: Choice[];
  /** Fields the rules ignore in the current state (autoClose on, OneMustClose): shown disabled, not sent. */
  disabled: FormField[];
  /** The body to send; present only when `errors` is empty. */
  body?: SimpleTaskBody;
}

export const STATUS_LABELS: Record<TaskStatusName, string> = {
  Draft: 'Draft',
  Projected: 'Projected',
  Pending: 'Pending',
  Assigned: 'Assigned',
  InProcess: 'In Process',
  Closed: 'Closed',
  Cancelled: 'Cancelled',
  Removed: 'Removed',
};

export const START_TYPE_LABELS: Record<StartTypeName, string> = {
  ASAP: 'As soon as possible',
  FixedBegin: 'Fixed begin',
  FixedEnd: 'Fixed end',
  StartNoEarlierThan: 'Start no earlier than',
  StartNoLaterThan: 'Start no later than',
};

export function emptyForm(): TaskFormValues {
  return {
    projectId: '',
    name: '',
    description: '',
    status: String(TaskStatus.Projected),
    startType: String(StartType.ASAP),
    calendarId: '',
    beginDate: '',
    endDate: '',
    durationDays: '',
    durationHours: '',
    durationMinutes: '',
    autoClose: false,
    workGroupAction: String(WorkGroupAction.AnyMayClose),
    autoAccept: false,
    canDelegate: false,
    peopleKind: 'assignees',
    principals: [],
    roleIds: '',
  };
}

/** `datetime-local` gives minutes only unless seconds are typed; the service wants `YYYY-MM-DDThh:mm:ss`. */
export function normaliseDate(text: string): string {
  const t = text.trim();
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(t) ? `${t}:00` : t;
}

/** A duration in minutes as the form shows it: `1 d 2 h 30 min`, a day being 8 hours. */
export function formatDuration(minutes: number): string {
  const d = Math.floor(minutes / MINUTES_PER_WORKDAY);
  const h = Math.floor((minutes % MINUTES_PER_WORKDAY) / 60);
  const m = minutes % 60;
  const parts = [d ? `${d} d` : '', h ? `${h} h` : '', m ? `${m} min` : ''].filter(Boolean);
  return parts.length ? parts.join(' ') : '0 min';
}

const FIELD_OF: Record<string, FormField> = {
  projectid: 'projectId',
  name: 'name',
  description: 'description',
  begindate: 'beginDate',
  enddate: 'endDate',
  estimatedduration: 'duration',
  enteredestimateddurationday: 'duration',
  enteredestimateddurationhour: 'duration',
  enteredestimateddurationminute: 'duration',
  starttype: 'startType',
  workflowtaskstatus: 'status',
  workscheduleid: 'calendarId',
  autoclose: 'autoClose',
  workgroupactionid: 'workGroupAction',
  autoaccept: 'autoAccept',
  assignees: 'people',
  estimatedwork: 'people',
  body: 'form',
};

/**
 * A rule's message as the form says it: the service's own wording, except where that wording names the API rather
 * than what the person should do (the service's message stays in the rules and the emulator's answers).
 */
function inFormWords(v: TaskViolation): string {
  switch (v.code) {
    case 'noAssignees':
      return 'Choose at least one person or group to assign the task to (or, for task roles, a known user and role).';
    case 'projectRequired':
      return 'Choose the project the task belongs to.';
    case 'outOfRange':
      return `The task would end after ${readableDate(formatNaive(LATEST))} (or begin before ${readableDate(formatNaive(EARLIEST)).slice(0, 10)}): enter a shorter duration or other dates`;
    case 'negative':
    case 'tooLarge':
      // The API's field names (EnteredEstimatedDurationHour…) mean nothing in the form: its own checks say it.
      return /begin|end/i.test(v.field) ? v.message : `The duration must be at most ${FORM_LIMITS.days} days`;
    case 'badData':
      if (/^(begin|end)date$/i.test(v.field)) return `Enter a real date and time (a four-digit year), such as ${readableDate(formatNaive(Date.UTC(2026, 2, 2, 9)))}`;
      return v.message;
    default:
      return v.message;
  }
}

/** What each number box of the form takes: whole numbers, none negative, none so large that the dates leave the calendar. */
export const FORM_LIMITS = { days: 9999, hours: 99_999, minutes: 999_999 } as const;

/** The form's own check of a typed number, in the form's words; undefined when it is good (or empty). */
export function numberProblem(text: string, noun: string, max: number): string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  if (!/^-?\d+$/.test(t)) return `${noun} must be a whole number`;
  const n = Number(t);
  if (n < 0) return `${noun} must be 0 or more`;
  if (n > max) return `${noun} must be at most ${max}`;
  return undefined;
}

function fieldOf(v: TaskViolation): FormField {
  return FIELD_OF[v.field.toLowerCase()] ?? 'form';
}

/** A form number: '' is absent, anything but digits stays as typed so the shared rules reject it. */
function numberOrText(text: string): number | string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  return /^-?\d+$/.test(t) ? Number(t) : t;
}

/** The request body the form's values stand for, with the fields the rules ignore left out. */
export function formBody(form: TaskFormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const set = (key: string, value: unknown) => {
    if (value !== undefined && value !== '') body[key] = value;
  };
  set('ProjectId', numberOrText(form.projectId));
  set('name', form.name.trim());
  set('description', form.description.trim());
  set('workFlowTaskStatus', numberOrText(form.status));
  set('startType', numberOrText(form.startType));
  set('workScheduleId', numberOrText(form.calendarId));
  set('beginDate', form.beginDate.trim() ? normaliseDate(form.beginDate) : undefined);
  set('endDate', form.endDate.trim() ? normaliseDate(form.endDate) : undefined);
  set('enteredEstimatedDurationDay', numberOrText(form.durationDays));
  set('enteredEstimatedDurationHour', numberOrText(form.durationHours));
  set('enteredEstimatedDurationMinute', numberOrText(form.durationMinutes));
  body.autoClose = form.autoClose ? 1 : 0;
  // Spec rule 4: with autoClose on, the workgroup action, auto accept, delegation and people are ignored.
  if (!form.autoClose) {
    const action = numberOrText(form.workGroupAction);
    set('workGroupActionID', action);
    // Spec rule 5: with OneMustClose, autoAccept should not be sent.
    if (action !== WorkGroupAction.OneMustClose) body.autoAccept = form.autoAccept ? 1 : 0;
    body.canDelegate = form.canDelegate;
    const ids = form.principals.map((p) => numberOrText(p));
    if (form.peopleKind === 'assignees') {
      if (ids.length) body.assignees = ids.map((userID) => ({ userID }));
    } else {
      const roles = form.roleIds
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean)
        .map((r) => ({ roleID: numberOrText(r) }));
      const items = [...ids.map((userId) => ({ userId })), ...roles];
      if (items.length) body.taskRoles = items;
    }
  }
  return body;
}

function naiveNow(now: Date): string {
  // The project's zone is not known to the form; the local wall clock stands in for it.
  return formatNaive(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate(), now.getHours(), now.getMinutes(), now.getSeconds()));
}

/**
 * Checks the form with the shared rules: first everything that needs no project (as the client does before
 * sending), then, with the chosen project, its status, calendars and the people known to the tenant.
 */
export function checkTaskForm(
  form: TaskFormValues,
  context: { projects: readonly FormProject[]; principals: readonly FormPrincipal[]; now?: Date },
): FormCheck {
  const errors: FormCheck['errors'] = {};
  const warnings: FormCheck['warnings'] = {};
  const add = (field: FormField, message: string) => {
    errors[field] ??= message;
  };
  const project = context.projects.find((p) => String(p.id) === form.projectId.trim());
  const statusNames = project ? ALLOWED_STATUSES_BY_PROJECT[project.status] : [];
  const statuses = statusNames.map((n) => ({ value: String(TaskStatus[n]), label: STATUS_LABELS[n] }));
  const statusName = (Object.keys(TaskStatus) as TaskStatusName[]).find((k) => String(TaskStatus[k]) === form.status.trim());
  const startNames = (statusName && ALLOWED_START_TYPES_BY_STATUS[statusName]) ?? [];
  const startTypes = startNames.map((n) => ({ value: String(StartType[n]), label: START_TYPE_LABELS[n] }));
  const calendars = (project?.calendars ?? []).map((c) => ({
    value: String(c.id),
    label: `${c.name || `Calendar ${c.id}`}${c.id === project?.defaultCalendarId ? ' (the project’s default)' : ''}`,
  }));
  const disabled: FormField[] = form.autoClose
    ? ['workGroupAction', 'autoAccept', 'people']
    : form.workGroupAction.trim() === String(WorkGroupAction.OneMustClose)
      ? ['autoAccept']
      : [];

  // The form's own numbers first, in its words: the rules would name the API's fields (EnteredEstimatedDurationHour).
  const durationProblem =
    numberProblem(form.durationDays, 'Days', FORM_LIMITS.days) ??
    numberProblem(form.durationHours, 'Hours', FORM_LIMITS.hours) ??
    numberProblem(form.durationMinutes, 'Minutes', FORM_LIMITS.minutes);
  if (durationProblem) add('duration', durationProblem);
  if (!form.autoClose && form.peopleKind === 'taskRoles') {
    const bad = form.roleIds.split(',').map((r) => r.trim()).filter(Boolean).find((r) => !/^\d+$/.test(r) || Number(r) < 1 || Number(r) > MAX_INTEGER);
    if (bad !== undefined) add('people', `Role ids are whole numbers from 1 to ${MAX_INTEGER}, separated by commas (not “${bad}”)`);
  }

  const body = formBody(form);
  // Spec rule 2: at least two of begin, end and duration are sent. Where the service sets the begin itself (the
  // note beside the dates says so), the form does not ask for it: it sends the begin the service will use.
  const hasDuration = [form.durationDays, form.durationHours, form.durationMinutes].some((t) => t.trim() !== '');
  const given = [form.beginDate.trim() !== '', form.endDate.trim() !== '', hasDuration].filter(Boolean).length;
  const fixedBegin = project && serviceBegin(form, project, naiveNow(context.now ?? new Date()));
  // As soon as possible the begin is the project's start: its box is shown disabled beside the note saying so (the
  // second walk of issue 27 found it open for typing while the note said it is not used).
  if (form.startType.trim() === String(StartType.ASAP) && Number(form.status.trim()) !== TaskStatus.Assigned) disabled.push('beginDate');
  if (given < 2) {
    if (fixedBegin && !form.beginDate.trim() && given === 1) body.beginDate = fixedBegin.begin;
    else if (fixedBegin) add('duration', `Enter the duration; ${fixedBegin.why}`);
    // Without a project the begin is not known yet, but as soon as possible it is not the user's to give either.
    else if (form.startType.trim() === String(StartType.ASAP)) add('duration', 'Enter the duration; as soon as possible, the task begins at the project’s start');
    else add(given === 0 ? 'beginDate' : !form.beginDate.trim() ? 'beginDate' : 'endDate', 'Enter two of begin, end and duration; the third is computed');
  }
  const read = readSimpleTaskRequest(body);
  for (const v of read.violations) add(fieldOf(v), inFormWords(v));

  if (form.projectId.trim() && !project && !errors.projectId) add('projectId', TaskMessages.unknownProject);

  let computed: FormCheck['computed'];
  if (project && read.request) {
    const known = new Set(context.principals.map((p) => p.id));
    const settled = settleSimpleTask(read.request, {
      project: { ...project, calendars: project.calendars },
      now: naiveNow(context.now ?? new Date()),
      // The form cannot know who the caller is; only canDelegate's echo depends on it, and the form does not predict that.
      callerId: 0,
      isUserOrGroup: (id) => known.has(id),
      // Roles have no read in the spec: the service decides whether a role id exists.
      isRole: () => true,
      isCaller: () => false,
    });
    for (const v of settled.violations) add(fieldOf(v), inFormWords(v));
  }
  // Whether the service will set the dates itself depends on the status, the start type and the dates, not on
  // the people: read with a stand-in assignee, the note shows before anyone is chosen.
  let derived: string | undefined;
  if (project) {
    const timing = readSimpleTaskRequest({
      ...Object.fromEntries(Object.entries(body).filter(([k]) => /date|duration|workscheduleid|projectid|workflowtaskstatus|starttype/i.test(k))),
      assignees: [{ userID: 1 }],
    }).request;
    const settled = timing && settleSimpleTask(timing, { project: { ...project, calendars: project.calendars }, now: naiveNow(context.now ?? new Date()), callerId: 0, isUserOrGroup: () => true, isRole: () => true, isCaller: () => false });
    // Not beside a duration the form refuses: "ends 2409-06-18" next to "Days must be at most 9999" says two things.
    if (settled?.task && !durationProblem) derived = derivedDates(settled.task, project);
  }
  // The computed date or duration shows while other fields still have errors: only the dates, the duration
  // and the calendar are read here (with a stand-in assignee, since people do not move dates).
  const dated = readSimpleTaskRequest({
    ProjectId: 0,
    ...Object.fromEntries(Object.entries(body).filter(([k]) => /date|duration|workscheduleid/i.test(k))),
    assignees: [{ userID: 1 }],
  }).request;
  const calendar = project && dated && project.calendars.find((c) => c.id === (dated.workScheduleId ?? project.defaultCalendarId));
  const inCalendar = (...ms: number[]) => ms.every((t) => t >= EARLIEST && t <= LATEST);
  if (dated && calendar && given === 2) {
    const dates = resolveDates(dated, calendar, parseNaive(naiveNow(context.now ?? new Date()))!);
    if (!inCalendar(dates.begin, dates.end)) add('duration', inFormWords({ code: 'outOfRange', field: 'EstimatedDuration', message: '', status: 400 }));
    else if (!form.beginDate.trim()) computed = { field: 'beginDate', text: readableDate(formatNaive(dates.begin)) };
    else if (!form.endDate.trim()) computed = { field: 'endDate', text: readableDate(formatNaive(dates.end)) };
    else computed = { field: 'duration', text: formatDuration(dates.duration) };
  }
  if (dated && calendar && given === 3 && resolveDates(dated, calendar, 0).mismatch) {
    warnings.duration = `${TaskMessages.mismatch}: the service will create the task with default dates`;
  }
  // A begin or end the service sets itself is not computed from what was typed: the note says what it will be.
  if (derived && computed && computed.field !== 'duration') computed = undefined;
  const ok = Object.keys(errors).length === 0;
  return { errors, warnings, computed, ...(derived ? { derived } : {}), statuses, startTypes, calendars, disabled, ...(ok ? { body: body as unknown as SimpleTaskBody } : {}) };
}

/**
 * The begin the service sets whatever is typed (the rules' date behaviour), and why, for the message that asks
 * only for the duration: Assigned starts now, Cancelled and Removed take the project's start, and so does a task
 * that starts as soon as possible.
 */
function serviceBegin(form: TaskFormValues, project: FormProject, now: string): { begin: string; why: string } | undefined {
  const status = Number(form.status.trim());
  if (status === TaskStatus.Assigned) return { begin: now, why: 'an Assigned task starts now' };
  if (status === TaskStatus.Cancelled || status === TaskStatus.Removed) return { begin: project.startDate, why: 'the task takes the project’s start' };
  if (form.startType.trim() === String(StartType.ASAP)) return { begin: project.startDate, why: 'as soon as possible, the task begins at the project’s start' };
  return undefined;
}

/** `2026-03-02T09:00:00` as people read it: `2026-03-02 09:00`. */
export function readableDate(naive: string): string {
  return naive.replace('T', ' ').replace(/:00$/, '');
}

/**
 * The dates the service gives the task when they are not the ones typed (the rules' date behaviour): an
 * Assigned task starts and ends now, a Cancelled or Removed one at the project's start, one that starts as
 * soon as possible at the project's start with its duration after. Undefined when the typed dates stand.
 */
function derivedDates(task: { beginDate: string; endDate: string; workFlowTaskStatus: number; startType: number }, project: FormProject): string | undefined {
  const begin = readableDate(task.beginDate);
  const end = readableDate(task.endDate);
  switch (task.workFlowTaskStatus) {
    case TaskStatus.Assigned:
      return `An Assigned task starts now: the service sets both begin and end to ${begin}, whatever dates are entered here.`;
    case TaskStatus.Cancelled:
    case TaskStatus.Removed:
      return `A ${task.workFlowTaskStatus === TaskStatus.Cancelled ? 'Cancelled' : 'Removed'} task takes the project's start: the service sets both begin and end to ${begin}.`;
    default:
      if (task.startType === StartType.ASAP) {
        return `As soon as possible: the task begins at the project's start (${readableDate(project.startDate)}) and ends ${end}, after its duration; the begin entered here is not used.`;
      }
      return undefined;
  }
}
