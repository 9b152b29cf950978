// The simple-task rules of the work-management API, written once and used by the emulator (to answer)
// and by the client (to tell the user about a bad request before it is sent). Pure: no I/O, no clock.
import {
  MINUTES_PER_WORKDAY,
  addWorkingMinutes,
  atMinuteOfDay,
  formatNaive,
  parseNaive,
  subtractWorkingMinutes,
  workingMinutesBetween,
  type WorkCalendar,
} from './workTime';

/** The largest integer the service takes (a 32-bit int): minutes, days, ids. */
export const MAX_INTEGER = 2_147_483_647;
/** The span of dates the service stores, and that `YYYY-MM-DDThh:mm:ss` can write. */
export const EARLIEST = parseNaive('0100-01-01T00:00:00')!;
export const LATEST = parseNaive('9999-12-31T23:59:59')!;

/** Task statuses, numbers and names exactly as the spec's table. */
export const TaskStatus = {
  Draft: 1,
  Projected: 2,
  Pending: 3,
  Assigned: 4,
  InProcess: 5,
  Closed: 7,
  Cancelled: 8,
  Removed: 9,
} as const;
export type TaskStatusName = keyof typeof TaskStatus;

export const StartType = { ASAP: 1, FixedBegin: 2, FixedEnd: 3, StartNoEarlierThan: 4, StartNoLaterThan: 6 } as const;
export type StartTypeName = keyof typeof StartType;

/** Project statuses; the spec gives no number for Removed, Initializing, StartFailed and Starting. */
export const ProjectStatus = {
  Draft: 1,
  InProcess: 2,
  Paused: 3,
  Closed: 4,
  Cancelled: 5,
  InitializeFailed: 7,
  Removed: null,
  Initializing: null,
  StartFailed: null,
  Starting: null,
} as const;
export type ProjectStatusName = keyof typeof ProjectStatus;

export const AutoClose = { No: 0, Yes: 1, Milestone: 2 } as const;
export const WorkGroupAction = { OneMustClose: 1, AnyMayClose: 2, AllMustClose: 3 } as const;

export function taskStatusName(value: number): TaskStatusName | undefined {
  return (Object.keys(TaskStatus) as TaskStatusName[]).find((k) => TaskStatus[k] === value);
}

export function startTypeName(value: number): StartTypeName | undefined {
  return (Object.keys(StartType) as StartTypeName[]).find((k) => StartType[k] === value);
}

/** Task statuses a new task may have, by project status (an empty list: the project takes no tasks). */
export const ALLOWED_STATUSES_BY_PROJECT: Record<ProjectStatusName, readonly TaskStatusName[]> = {
  Draft: ['Draft', 'Cancelled', 'Removed'],
  InProcess: ['Projected', 'Assigned', 'Pending', 'Cancelled', 'Removed'],
  Paused: ['Projected', 'Assigned', 'Pending', 'Cancelled', 'Removed'],
  Closed: [],
  Cancelled: [],
  Removed: [],
  InitializeFailed: [],
  Initializing: [],
  StartFailed: [],
  Starting: [],
};

const ALL_START_TYPES: readonly StartTypeName[] = ['ASAP', 'FixedBegin', 'FixedEnd', 'StartNoEarlierThan', 'StartNoLaterThan'];

/**
 * Start types allowed at creation, by task status. The spec is silent on Draft; since its date rule lets a
 * Draft task take "another start type" with dates from the body, Draft allows them all.
 */
export const ALLOWED_START_TYPES_BY_STATUS: Partial<Record<TaskStatusName, readonly StartTypeName[]>> = {
  Draft: ALL_START_TYPES,
  Projected: ['ASAP', 'StartNoEarlierThan', 'StartNoLaterThan'],
  Assigned: ALL_START_TYPES,
  Cancelled: ALL_START_TYPES,
  Removed: ALL_START_TYPES,
  Pending: ['FixedBegin', 'FixedEnd'],
};

/** The messages of the spec's error table, verbatim, plus the few the spec leaves to us. */
export const TaskMessages = {
  projectRequired: 'ProjectId cannot be null',
  draftProjectStatus: 'Only Draft (1), Canceled (8), Removed (9) allowed',
  // The service's message leaves out Pending (3), although the status table allows it; kept verbatim.
  inProcessProjectStatus: 'Only Projected (2), Assigned (4), Canceled (8), Removed (9) allowed',
  projectClosed: 'You cannot add Task to that project',
  beginAfterEnd: 'BeginDate should not be greater than EndDate',
  badData: 'Please check the data sent',
  negative: (field: string) => `${field} contains an invalid value; only positive numbers allowed`,
  // Not in the spec's table: the service's integers are 32-bit, and its dates end with the year 9999.
  tooLarge: (field: string) => `${field} contains an invalid value; the largest allowed is ${MAX_INTEGER}`,
  outOfRange: `BeginDate and EndDate must fall between ${formatNaive(EARLIEST)} and ${formatNaive(LATEST)}`,
  unknownCalendar: 'The WorkScheduleID specified does not exist',
  badAutoClose: 'AutoClose contains an invalid value (allowed No 0, Yes 1, Milestone 2)',
  badAutoAccept: 'AutoAccept contains an invalid value',
  bothAssigneesAndRoles: 'Only one of Assignees and TaskRoles is allowed',
  noAssignees: 'The Assignees or TaskRoles specified does not exist',
  mismatch: 'BeginDate, EndDate and EstimatedDuration do not match',
  unknownProject: 'The ProjectId specified does not exist',
  badWorkGroupAction: 'WorkGroupActionID contains an invalid value (allowed OneMustClose 1, AnyMayClose 2, AllMustClose 3)',
  badStartType: 'StartType contains an invalid value (allowed ASAP 1, FixedBegin 2, FixedEnd 3, StartNoEarlierThan 4, StartNoLaterThan 6)',
  startTypeForStatus: (status: number, startType: number) => {
    const allowed = ALLOWED_START_TYPES_BY_STATUS[taskStatusName(status) ?? 'Draft'] ?? [];
    return `StartType ${startTypeName(startType)} (${startType}) is not allowed for a task with status ${taskStatusName(status)} (${status}); allowed: ${allowed.map((n) => `${n} (${StartType[n]})`).join(', ')}`;
  },
} as const;

export type TaskViolationCode =
  | 'projectRequired'
  | 'unknownProject'
  | 'statusForProject'
  | 'projectClosed'
  | 'beginAfterEnd'
  | 'badData'
  | 'negative'
  | 'tooLarge'
  | 'outOfRange'
  | 'unknownCalendar'
  | 'badAutoClose'
  | 'badAutoAccept'
  | 'bothAssigneesAndRoles'
  | 'noAssignees'
  | 'badWorkGroupAction'
  | 'badStartType'
  | 'startTypeForStatus';

export interface TaskViolation {
  code: TaskViolationCode;
  /** The request field at fault, as the spec spells it. */
  field: string;
  message: string;
  /** The HTTP status the service answers with. */
  status: 400 | 404;
}

export interface AssigneeRequest {
  userId: number;
  estimatedWork: number;
}
export type TaskRoleRequest = ({ userId: number; roleId?: undefined } | { roleId: number; userId?: undefined }) & { estimatedWork: number };

/** A simple-task request after its shape was read: names normalised, integers parsed, nothing defaulted from the project. */
export interface SimpleTaskRequest {
  projectId: number;
  name: string;
  description: string | null;
  beginDate?: number;
  endDate?: number;
  /** Total minutes, from `EstimatedDuration` or the entered day/hour/minute triple. */
  duration?: number;
  startType: number;
  workFlowTaskStatus: number;
  workScheduleId?: number;
  autoClose: 0 | 1;
  workGroupActionId: number;
  autoAccept: 0 | 1;
  canDelegate: boolean;
  assignees?: AssigneeRequest[];
  taskRoles?: TaskRoleRequest[];
}

/** Case-insensitive field access, since the service binds JSON names without regard to case (`workGroupActionId`). */
class Fields {
  private readonly map = new Map<string, unknown>();
  constructor(obj: Record<string, unknown>) {
    for (const [k, v] of Object.entries(obj)) this.map.set(k.toLowerCase(), v);
  }
  get(...names: string[]): unknown {
    for (const n of names) {
      const v = this.map.get(n.toLowerCase());
      if (v !== undefined && v !== null) return v;
    }
    return undefined;
  }
  has(name: string): boolean {
    return this.get(name) !== undefined;
  }
}

/** An integer as JSON number or digit string; NaN marks a value that is present but not an integer. */
function integer(v: unknown): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v.trim());
  return Number.NaN;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const bad = (field: string, message: string = TaskMessages.badData): TaskViolation => ({ code: 'badData', field, message, status: 400 });

/** Minutes from a total or from a day/hour/minute triple (a day counts as 8 hours). */
function readMinutes(
  f: Fields,
  total: string,
  triple: [string, string, string],
  violations: TaskViolation[],
): number | undefined {
  const t = integer(f.get(total));
  if (t !== undefined) {
    if (Number.isNaN(t)) violations.push(bad(total));
    else if (t < 0) violations.push({ code: 'negative', field: total, message: TaskMessages.negative(total), status: 400 });
    else if (t > MAX_INTEGER) violations.push({ code: 'tooLarge', field: total, message: TaskMessages.tooLarge(total), status: 400 });
    else return t;
    return undefined;
  }
  if (!triple.some((n) => f.has(n))) return undefined;
  const factors = [MINUTES_PER_WORKDAY, 60, 1];
  let sum = 0;
  let ok = true;
  triple.forEach((name, i) => {
    const v = integer(f.get(name)) ?? 0;
    const spelled = name[0]!.toUpperCase() + name.slice(1);
    if (Number.isNaN(v)) {
      violations.push(bad(spelled));
      ok = false;
    } else if (v < 0) {
      violations.push({ code: 'negative', field: spelled, message: TaskMessages.negative(spelled), status: 400 });
      ok = false;
    } else if (v > MAX_INTEGER) {
      violations.push({ code: 'tooLarge', field: spelled, message: TaskMessages.tooLarge(spelled), status: 400 });
      ok = false;
    } else sum += v * factors[i]!;
  });
  if (ok && sum > MAX_INTEGER) {
    violations.push({ code: 'tooLarge', field: total, message: TaskMessages.tooLarge(total), status: 400 });
    return undefined;
  }
  return ok ? sum : undefined;
}

function readWork(item: Fields, violations: TaskViolation[]): number {
  return readMinutes(item, 'estimatedWork', ['enteredEstWorkDay', 'enteredEstWorkHour', 'enteredEstWorkMin'], violations) ?? 0;
}

/**
 * Reads a request body into a SimpleTaskRequest, checking every rule that needs no knowledge of the
 * project (formats, enumerations, dates against each other, assignees xor roles). The client runs this
 * before sending; the emulator runs it first.
 */
export function readSimpleTaskRequest(body: unknown): { request?: SimpleTaskRequest; violations: TaskViolation[] } {
  const violations: TaskViolation[] = [];
  if (!isRecord(body)) return { violations: [bad('body')] };
  const f = new Fields(body);

  const projectId = integer(f.get('ProjectId'));
  if (projectId === undefined) violations.push({ code: 'projectRequired', field: 'ProjectId', message: TaskMessages.projectRequired, status: 400 });
  else if (Number.isNaN(projectId)) violations.push(bad('ProjectId'));

  const nameRaw = f.get('name');
  if (nameRaw !== undefined && typeof nameRaw !== 'string') violations.push(bad('name'));
  const name = typeof nameRaw === 'string' && nameRaw.trim() !== '' ? nameRaw : 'New Task';
  const descRaw = f.get('description');
  if (descRaw !== undefined && typeof descRaw !== 'string') violations.push(bad('description'));
  const description = typeof descRaw === 'string' ? descRaw : null;

  const dates: Partial<Record<'beginDate' | 'endDate', number>> = {};
  for (const field of ['beginDate', 'endDate'] as const) {
    const raw = f.get(field);
    if (raw === undefined) continue;
    const ms = parseNaive(raw);
    if (ms === undefined) violations.push(bad(field));
    else dates[field] = ms;
  }
  const duration = readMinutes(
    f,
    'EstimatedDuration',
    ['enteredEstimatedDurationDay', 'enteredEstimatedDurationHour', 'enteredEstimatedDurationMinute'],
    violations,
  );
  if (dates.beginDate !== undefined && dates.endDate !== undefined && dates.endDate < dates.beginDate) {
    violations.push({ code: 'beginAfterEnd', field: 'endDate', message: TaskMessages.beginAfterEnd, status: 400 });
  }

  const enumField = (names: string[], fallback: number, allowed: readonly number[], onBad: () => TaskViolation): number => {
    const v = integer(f.get(...names));
    if (v === undefined) return fallback;
    if (Number.isNaN(v) || !allowed.includes(v)) {
      violations.push(onBad());
      return fallback;
    }
    return v;
  };

  const autoClose = enumField(['autoClose'], 0, [0, 1], () => ({
    code: 'badAutoClose',
    field: 'autoClose',
    message: TaskMessages.badAutoClose,
    status: 400,
  })) as 0 | 1;
  const closesItself = autoClose === AutoClose.Yes;

  // With autoClose on, workgroup action, auto accept, delegation and assignees are ignored, so they are not checked either.
  const workGroupActionId = closesItself
    ? WorkGroupAction.AnyMayClose
    : enumField(['workGroupActionID', 'workGroupActionId'], WorkGroupAction.AnyMayClose, [1, 2, 3], () => ({
        code: 'badWorkGroupAction',
        field: 'workGroupActionID',
        message: TaskMessages.badWorkGroupAction,
        status: 400,
      }));
  // OneMustClose leaves no room for auto accept: the value should not be sent, and is ignored if it is.
  const autoAccept =
    closesItself || workGroupActionId === WorkGroupAction.OneMustClose
      ? 0
      : (enumField(['autoAccept'], 0, [0, 1], () => ({
          code: 'badAutoAccept',
          field: 'autoAccept',
          message: TaskMessages.badAutoAccept,
          status: 400,
        })) as 0 | 1);
  // "Invalid values are ignored": only a JSON true asks for delegation.
  const canDelegate = !closesItself && f.get('canDelegate') === true;

  const startType = enumField(['startType'], StartType.ASAP, Object.values(StartType), () => ({
    code: 'badStartType',
    field: 'startType',
    message: TaskMessages.badStartType,
    status: 400,
  }));
  const statusRaw = integer(f.get('workFlowTaskStatus'));
  let workFlowTaskStatus: number = TaskStatus.Projected;
  if (statusRaw !== undefined) {
    if (Number.isNaN(statusRaw)) violations.push(bad('workFlowTaskStatus'));
    else workFlowTaskStatus = statusRaw;
  }
  const statusName = taskStatusName(workFlowTaskStatus);
  const allowedStarts = statusName ? ALLOWED_START_TYPES_BY_STATUS[statusName] : undefined;
  const startName = startTypeName(startType);
  if (allowedStarts && startName && !allowedStarts.includes(startName)) {
    violations.push({
      code: 'startTypeForStatus',
      field: 'startType',
      message: TaskMessages.startTypeForStatus(workFlowTaskStatus, startType),
      status: 400,
    });
  }

  const scheduleRaw = integer(f.get('workScheduleId', 'workScheduleID'));
  let workScheduleId: number | undefined;
  if (scheduleRaw !== undefined) {
    if (Number.isNaN(scheduleRaw)) violations.push(bad('workScheduleId'));
    else workScheduleId = scheduleRaw;
  }

  const people = closesItself ? {} : readPeople(f, violations);

  // predTaskID is ignored (the predecessor is always the start) and canSkip is read-only: neither is read.
  const request: SimpleTaskRequest = {
    projectId: Number.isInteger(projectId) ? (projectId as number) : 0,
    name,
    description,
    beginDate: dates.beginDate,
    endDate: dates.endDate,
    duration,
    startType,
    workFlowTaskStatus,
    workScheduleId,
    autoClose,
    workGroupActionId,
    autoAccept,
    canDelegate,
    ...people,
  };
  return violations.length ? { violations } : { request, violations };
}

function readPeople(f: Fields, violations: TaskViolation[]): Pick<SimpleTaskRequest, 'assignees' | 'taskRoles'> {
  const rawAssignees = f.get('assignees');
  const rawRoles = f.get('taskRoles');
  const present = (v: unknown) => v !== undefined && !(Array.isArray(v) && v.length === 0);
  const noneExist = (): TaskViolation => ({ code: 'noAssignees', field: 'assignees', message: TaskMessages.noAssignees, status: 400 });
  if (present(rawAssignees) && present(rawRoles)) {
    violations.push({ code: 'bothAssigneesAndRoles', field: 'assignees', message: TaskMessages.bothAssigneesAndRoles, status: 400 });
    return {};
  }
  if (!present(rawAssignees) && !present(rawRoles)) {
    violations.push(noneExist());
    return {};
  }
  const list = present(rawAssignees) ? rawAssignees : rawRoles;
  if (!Array.isArray(list) || !list.every(isRecord)) {
    violations.push(noneExist());
    return {};
  }
  if (present(rawAssignees)) {
    const assignees: AssigneeRequest[] = [];
    for (const raw of list) {
      const item = new Fields(raw);
      const userId = integer(item.get('userID'));
      if (userId === undefined || Number.isNaN(userId)) {
        violations.push(noneExist());
        return {};
      }
      assignees.push({ userId, estimatedWork: readWork(item, violations) });
    }
    return { assignees };
  }
  const taskRoles: TaskRoleRequest[] = [];
  for (const raw of list) {
    const item = new Fields(raw);
    const userId = integer(item.get('userID'));
    const roleId = integer(item.get('roleID'));
    const estimatedWork = readWork(item, violations);
    if (userId !== undefined && !Number.isNaN(userId) && roleId === undefined) taskRoles.push({ userId, estimatedWork });
    else if (roleId !== undefined && !Number.isNaN(roleId) && userId === undefined) taskRoles.push({ roleId, estimatedWork });
    else {
      violations.push(noneExist());
      return {};
    }
  }
  return { taskRoles };
}

/** What the rules need to know about the target project and the caller. */
export interface TaskRuleContext {
  project: {
    id: number;
    status: ProjectStatusName;
    /** Project start, naive in the project's time zone. */
    startDate: string;
    calendars: readonly WorkCalendar[];
    defaultCalendarId: number;
  };
  /** The current time, naive in the project's time zone. */
  now: string;
  callerId: number;
  /** True when the user or group id exists. */
  isUserOrGroup(id: number): boolean;
  isRole(id: number): boolean;
  /** True when `principalId` is the caller or a group the caller belongs to. */
  isCaller(principalId: number): boolean;
}

/** A task as the rules settle it, before the store gives it ids. */
export interface SettledTask {
  projectId: number;
  name: string;
  description: string | null;
  beginDate: string;
  endDate: string;
  estimatedDuration: number;
  workFlowTaskStatus: number;
  startType: number;
  workScheduleId: number;
  autoClose: 0 | 1;
  autoAccept: 0 | 1;
  workGroupActionId: number;
  canDelegate: boolean;
  canSkip: 1;
  assignees?: AssigneeRequest[];
  taskRoles?: TaskRoleRequest[];
  /** Set when the dates and duration sent did not agree and defaults were used instead. */
  message?: string;
}

/** Applies the rules that need the project: statuses, calendars, principals, the date rule and date behaviour. */
export function settleSimpleTask(request: SimpleTaskRequest, ctx: TaskRuleContext): { task?: SettledTask; violations: TaskViolation[] } {
  const { project } = ctx;
  const allowed = ALLOWED_STATUSES_BY_PROJECT[project.status];
  if (allowed.length === 0) {
    return { violations: [{ code: 'projectClosed', field: 'ProjectId', message: TaskMessages.projectClosed, status: 400 }] };
  }
  const violations: TaskViolation[] = [];
  const statusName = taskStatusName(request.workFlowTaskStatus);
  if (!statusName || !allowed.includes(statusName)) {
    violations.push({
      code: 'statusForProject',
      field: 'workFlowTaskStatus',
      message: project.status === 'Draft' ? TaskMessages.draftProjectStatus : TaskMessages.inProcessProjectStatus,
      status: 400,
    });
  }
  const calendarId = request.workScheduleId ?? project.defaultCalendarId;
  const calendar = project.calendars.find((c) => c.id === calendarId);
  if (!calendar) violations.push({ code: 'unknownCalendar', field: 'workScheduleId', message: TaskMessages.unknownCalendar, status: 400 });
  const known =
    (request.assignees ?? []).every((a) => ctx.isUserOrGroup(a.userId)) &&
    (request.taskRoles ?? []).every((r) => (r.userId !== undefined ? ctx.isUserOrGroup(r.userId) : ctx.isRole(r.roleId)));
  if (!known) violations.push({ code: 'noAssignees', field: 'assignees', message: TaskMessages.noAssignees, status: 400 });
  if (violations.length || !calendar) return { violations };

  const now = parseNaive(ctx.now);
  const projectStart = parseNaive(project.startDate);
  if (now === undefined || projectStart === undefined) throw new Error('TaskRuleContext dates must be YYYY-MM-DDThh:mm:ss');
  const dates = resolveDates(request, calendar, now);
  const { duration, mismatch } = dates;
  let { begin, end } = dates;

  switch (request.workFlowTaskStatus) {
    case TaskStatus.Assigned:
      begin = end = now;
      break;
    case TaskStatus.Cancelled:
    case TaskStatus.Removed:
      begin = end = projectStart;
      break;
    default:
      if (request.startType === StartType.ASAP) {
        begin = projectStart;
        end = addWorkingMinutes(begin, duration, calendar);
      }
  }
  // A duration that carries a date past the year 9999 (or before 100) cannot be stored or written.
  if (![begin, end].every((t) => t >= EARLIEST && t <= LATEST)) {
    return { violations: [{ code: 'outOfRange', field: 'EstimatedDuration', message: TaskMessages.outOfRange, status: 400 }] };
  }

  // canDelegate is echoed true only for the caller's own task while it can still be worked on.
  const callerAssigned =
    (request.assignees ?? []).some((a) => ctx.isCaller(a.userId)) ||
    (request.taskRoles ?? []).some((r) => r.userId !== undefined && ctx.isCaller(r.userId));

  const task: SettledTask = {
    projectId: request.projectId,
    name: request.name,
    description: request.description,
    beginDate: formatNaive(begin),
    endDate: formatNaive(end),
    estimatedDuration: duration,
    workFlowTaskStatus: request.workFlowTaskStatus,
    startType: request.startType,
    workScheduleId: calendar.id,
    autoClose: request.autoClose,
    autoAccept: request.autoAccept,
    workGroupActionId: request.workGroupActionId,
    canDelegate: echoCanDelegate(request.canDelegate, request.workFlowTaskStatus, callerAssigned),
    canSkip: 1,
    ...(request.taskRoles ? { taskRoles: request.taskRoles } : { assignees: request.assignees ?? [] }),
    ...(mismatch ? { message: TaskMessages.mismatch } : {}),
  };
  return { task, violations: [] };
}

/**
 * The canDelegate echo rule: true only when it was asked for, the caller is an assignee and the task is
 * Assigned or In Process. Task reads apply it per caller too.
 */
export function echoCanDelegate(requested: boolean, status: number, callerAssigned: boolean): boolean {
  return requested && callerAssigned && (status === TaskStatus.Assigned || status === TaskStatus.InProcess);
}

/**
 * The date rule: two of begin, end and duration give the third. What is not sent takes its default
 * (begin 09:00 and end 17:00 of the project's current date, duration one day), the duration first, so a
 * lone date still spans a day. All three sent and disagreeing: the task gets the default dates.
 */
export function resolveDates(
  request: Pick<SimpleTaskRequest, 'beginDate' | 'endDate' | 'duration'>,
  calendar: WorkCalendar,
  now: number,
): { begin: number; end: number; duration: number; mismatch: boolean } {
  const defaultBegin = atMinuteOfDay(now, calendar.dayStartMinute);
  const { beginDate, endDate, duration } = request;
  if (beginDate !== undefined && endDate !== undefined) {
    const span = workingMinutesBetween(beginDate, endDate, calendar);
    if (duration !== undefined && duration !== span) {
      return { begin: defaultBegin, end: defaultBegin + MINUTES_PER_WORKDAY * 60_000, duration: MINUTES_PER_WORKDAY, mismatch: true };
    }
    return { begin: beginDate, end: endDate, duration: span, mismatch: false };
  }
  const d = duration ?? MINUTES_PER_WORKDAY;
  if (endDate !== undefined) return { begin: subtractWorkingMinutes(endDate, d, calendar), end: endDate, duration: d, mismatch: false };
  const begin = beginDate ?? defaultBegin;
  return { begin, end: addWorkingMinutes(begin, d, calendar), duration: d, mismatch: false };
}

/** Both halves at once: the emulator's whole check of a POST /api/simple-tasks body. */
export function validateSimpleTask(body: unknown, ctx: TaskRuleContext): { task?: SettledTask; violations: TaskViolation[] } {
  const read = readSimpleTaskRequest(body);
  if (!read.request) return { violations: read.violations };
  return settleSimpleTask(read.request, ctx);
}

/** Privilege names (as the emulator's clients hold them) of the rights the spec ties to creating simple tasks. */
export const Right = {
  ProjectEdit: 'ProjectEdit',
  ProjectTaskInsert: 'ProjectTaskInsert',
  ProjectView: 'ProjectView',
  IntegrationApiAccess: 'IntegrationApiAccess',
  SystemAdministration: 'SystemAdministration',
} as const;

export const TASK_CREATE_DENIED =
  'Creating simple tasks requires the rights Project Edit, Project Task Insert and Project View together with membership of the activity edit access list or the right Integration API Access, or System Administration access';

/**
 * Whether a caller may create simple tasks: the three project rights plus the activity edit access list
 * or Integration API Access, or system administration. Returns the denial message, or undefined.
 */
export function simpleTaskCreateDenial(rights: readonly string[], onActivityEditList: boolean): string | undefined {
  const has = (r: string) => rights.includes(r);
  if (has(Right.SystemAdministration)) return undefined;
  const project = has(Right.ProjectEdit) && has(Right.ProjectTaskInsert) && has(Right.ProjectView);
  if (project && (onActivityEditList || has(Right.IntegrationApiAccess))) return undefined;
  return TASK_CREATE_DENIED;
}
