// `dam tasks create|delegate|attach`: simple tasks checked by the shared rules before sending, delegation,
// and the task attachment flow around an uploaded file.
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Command } from '../command';
import { UsageError } from '../command';
import { CONNECTION_USAGE, connect, connectionOptions } from '../connection';
import { writeLine } from '../output';
import { MAX_INTEGER, MINUTES_PER_WORKDAY, StartType, TaskStatus, WorkGroupAction, taskStatusName, startTypeName } from '../../core/tasks';
import { TasksApi, TaskValidationError, type SimpleTaskBody, type Task } from '../../api/tasks';

function positiveInt(flag: string, value: unknown): number {
  const text = String(value);
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > MAX_INTEGER) throw new UsageError(`${flag} '${text}' is not a whole number from 1 to ${MAX_INTEGER}`);
  return Number(text);
}

/** A value of one of the spec's enumerations, by name (any case) or by number. */
function enumValue(flag: string, value: unknown, table: Record<string, number>): number {
  const text = String(value);
  if (/^\d+$/.test(text)) return positiveInt(flag, text);
  const hit = Object.entries(table).find(([name]) => name.toLowerCase() === text.toLowerCase());
  if (!hit) throw new UsageError(`${flag} '${text}' is not one of ${Object.entries(table).map(([n, v]) => `${n} (${v})`).join(', ')}`);
  return hit[1];
}

/** `480`, `1d`, `2h30m`, `1d4h`: minutes, where a day counts as 8 hours (left to the server as the entered triple). */
export function parseDuration(text: string): Pick<SimpleTaskBody, 'EstimatedDuration' | 'enteredEstimatedDurationDay' | 'enteredEstimatedDurationHour' | 'enteredEstimatedDurationMinute'> {
  const tooLong = () => new UsageError(`--duration '${text}' is too long: at most ${MAX_INTEGER} minutes (a day is 8 hours)`);
  if (/^\d+$/.test(text)) {
    if (Number(text) > MAX_INTEGER) throw tooLong();
    return { EstimatedDuration: Number(text) };
  }
  const m = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?$/i.exec(text.trim());
  if (!m || text.trim() === '') throw new UsageError(`--duration '${text}' is not minutes or a form like 1d4h30m (a day is 8 hours)`);
  // The service takes the total in a 32-bit integer; a bigger one would only come back as a 400.
  if (Number(m[1] ?? 0) * MINUTES_PER_WORKDAY + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0) > MAX_INTEGER) throw tooLong();
  return {
    enteredEstimatedDurationDay: Number(m[1] ?? 0),
    enteredEstimatedDurationHour: Number(m[2] ?? 0),
    enteredEstimatedDurationMinute: Number(m[3] ?? 0),
  };
}

export function summary(task: Task): string {
  const status = taskStatusName(task.workFlowTaskStatus) ?? String(task.workFlowTaskStatus);
  const start = task.startType === undefined ? '' : ` ${startTypeName(task.startType) ?? task.startType}`;
  const people = (task.assignees ?? []).map((a) => `user ${a.userID} (assignee ${a.taskAssigneeId})`).join(', ');
  return `task ${task.id} "${task.name}" ${status}${start} ${task.beginDate ?? '?'} → ${task.endDate ?? '?'} (${task.estimatedDuration ?? '?'} min)${people ? `; ${people}` : ''}${task.canDelegate ? '; can delegate' : ''}`;
}

async function print(io: { stdout: NodeJS.WritableStream }, json: boolean, task: Task): Promise<void> {
  await writeLine(io.stdout, json ? JSON.stringify(task, null, 2) : summary(task));
}

export const tasksCreateCommand: Command = {
  name: ['tasks', 'create'],
  summary: 'Create a simple task on a project; the spec\'s rules are checked before anything is sent',
  usage:
    'dam tasks create --project ID (--assignee USER… | --role ROLE… | --task-user USER…) [--name T] [--description T] ' +
    '[--begin YYYY-MM-DDThh:mm:ss] [--end YYYY-MM-DDThh:mm:ss] [--duration MIN|1d4h30m] [--status NAME|N] [--start-type NAME|N] ' +
    `[--calendar ID] [--auto-close] [--workgroup-action NAME|N] [--auto-accept] [--can-delegate] [--json] ${CONNECTION_USAGE}`,
  options: {
    ...connectionOptions,
    project: { type: 'string' },
    assignee: { type: 'string', multiple: true },
    role: { type: 'string', multiple: true },
    'task-user': { type: 'string', multiple: true },
    name: { type: 'string' },
    description: { type: 'string' },
    begin: { type: 'string' },
    end: { type: 'string' },
    duration: { type: 'string' },
    status: { type: 'string' },
    'start-type': { type: 'string' },
    calendar: { type: 'string' },
    'auto-close': { type: 'boolean' },
    'workgroup-action': { type: 'string' },
    'auto-accept': { type: 'boolean' },
    'can-delegate': { type: 'boolean' },
    json: { type: 'boolean' },
  },
  async run({ values, positionals }, io) {
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'\nusage: ${this.usage}`);
    const list = (flag: string) => ((values[flag] as string[] | undefined) ?? []).map((v) => positiveInt(`--${flag}`, v));
    const roles = [...list('role').map((roleID) => ({ roleID })), ...list('task-user').map((userId) => ({ userId }))];
    const body: Record<string, unknown> = {
      ...(values.project !== undefined ? { ProjectId: positiveInt('--project', values.project) } : {}),
      ...(values.name !== undefined ? { name: values.name } : {}),
      ...(values.description !== undefined ? { description: values.description } : {}),
      ...(values.begin !== undefined ? { beginDate: values.begin } : {}),
      ...(values.end !== undefined ? { endDate: values.end } : {}),
      ...(typeof values.duration === 'string' ? parseDuration(values.duration) : {}),
      ...(values.status !== undefined ? { workFlowTaskStatus: enumValue('--status', values.status, TaskStatus) } : {}),
      ...(values['start-type'] !== undefined ? { startType: enumValue('--start-type', values['start-type'], StartType) } : {}),
      ...(values.calendar !== undefined ? { workScheduleId: positiveInt('--calendar', values.calendar) } : {}),
      ...(values['auto-close'] ? { autoClose: 1 } : {}),
      ...(values['workgroup-action'] !== undefined ? { workGroupActionID: enumValue('--workgroup-action', values['workgroup-action'], WorkGroupAction) } : {}),
      ...(values['auto-accept'] ? { autoAccept: 1 } : {}),
      ...(values['can-delegate'] ? { canDelegate: true } : {}),
      ...(list('assignee').length ? { assignees: list('assignee').map((userID) => ({ userID })) } : {}),
      ...(roles.length ? { taskRoles: roles } : {}),
    };
    const client = connect(values, io);
    const tasks = new TasksApi(client.http);
    try {
      const task = await tasks.create(body as unknown as SimpleTaskBody, { signal: io.signal });
      await print(io, values.json === true, task);
      if (task.message) io.stderr.write(`dam: warning: ${task.message}; the task was created with default dates\n`);
      return 0;
    } catch (err) {
      if (!(err instanceof TaskValidationError)) throw err;
      for (const v of err.violations) io.stderr.write(`dam: ${v.field}: ${v.message}\n`);
      io.stderr.write('dam: nothing was sent\n');
      return 2;
    }
  },
};

export const tasksDelegateCommand: Command = {
  name: ['tasks', 'delegate'],
  summary: 'Delegate a task assignment to another user (your own assignment unless --assignee or --from says which)',
  usage: `dam tasks delegate TASK --to USER [--assignee TASK_ASSIGNEE_ID | --from USER] [--json] ${CONNECTION_USAGE}`,
  options: { ...connectionOptions, to: { type: 'string' }, assignee: { type: 'string' }, from: { type: 'string' }, json: { type: 'boolean' } },
  async run({ values, positionals }, io) {
    if (positionals.length !== 1) throw new UsageError(`give exactly one task id\nusage: ${this.usage}`);
    if (values.to === undefined) throw new UsageError(`--to USER is required\nusage: ${this.usage}`);
    const taskId = positiveInt('TASK', positionals[0]);
    const client = connect(values, io);
    const task = await new TasksApi(client.http).delegate(taskId, positiveInt('--to', values.to), {
      taskAssigneeId: values.assignee === undefined ? undefined : positiveInt('--assignee', values.assignee),
      fromUserId: values.from === undefined ? undefined : positiveInt('--from', values.from),
      signal: io.signal,
    });
    await print(io, values.json === true, task);
    return 0;
  },
};

const GUID = /^(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

export const tasksAttachCommand: Command = {
  name: ['tasks', 'attach'],
  summary: 'Attach an uploaded file to a task through its document-upload slot (task must be In Process)',
  usage:
    'dam tasks attach TASK FILE [--file-id GUID] [--title T] [--description T] [--document ID] [--meta name=value…] [--json] ' +
    `${CONNECTION_USAGE}\n  FILE is uploaded first (step 2 of the five); --file-id instead names a file already uploaded and not yet used`,
  options: {
    ...connectionOptions,
    'file-id': { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    document: { type: 'string' },
    meta: { type: 'string', multiple: true },
    json: { type: 'boolean' },
  },
  async run({ values, positionals }, io) {
    if (positionals.length !== 2) throw new UsageError(`give a task id and a file\nusage: ${this.usage}`);
    const taskId = positiveInt('TASK', positionals[0]);
    const file = positionals[1]!;
    const givenFileId = values['file-id'];
    if (givenFileId !== undefined && (typeof givenFileId !== 'string' || !GUID.test(givenFileId))) throw new UsageError(`--file-id must be a GUID (the upload's fileId)\nusage: ${this.usage}`);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) throw new UsageError(`'${file}' is not a readable file`);
    const metadata = parseMetadata((values.meta as string[] | undefined) ?? []);
    const client = connect(values, io);
    // Step 2 of the attachment flow: upload the file to completion and keep its fileId.
    const fileId = typeof givenFileId === 'string' ? givenFileId : (await client.uploads.upload({ path: file }, { signal: io.signal })).fileId;
    if (!fileId) throw new Error('the upload service answered without a fileId');
    const result = await new TasksApi(client.http).attach(
      taskId,
      { fileId, fileName: basename(file) },
      {
        title: typeof values.title === 'string' ? values.title : basename(file),
        description: typeof values.description === 'string' ? values.description : undefined,
        documentId: values.document === undefined ? undefined : positiveInt('--document', values.document),
        metadata,
        signal: io.signal,
      },
    );
    await writeLine(
      io.stdout,
      values.json === true
        ? JSON.stringify(result, null, 2)
        : `attached ${basename(file)} to task ${taskId}: document ${result.documentId}, attachment ${result.attachmentId}, version ${result.versionId}`,
    );
    return 0;
  },
};

/**
 * `--meta name=value` options as the attachment's metadata: a repeated name, or commas, make a multiselect list. Names
 * are the user's, so they are gathered in a Map (`--meta constructor=x` is a field like any other).
 */
export function parseMetadata(entries: string[]): Record<string, string | string[]> {
  const metadata = new Map<string, string | string[]>();
  for (const entry of entries) {
    const eq = entry.indexOf('=');
    if (eq <= 0) throw new UsageError(`--meta '${entry}' is not name=value`);
    const name = entry.slice(0, eq);
    const value = entry.slice(eq + 1);
    const prior = metadata.get(name);
    const parts = value.includes(',') ? value.split(',') : [value];
    metadata.set(name, prior === undefined ? (parts.length > 1 ? parts : value) : [...(Array.isArray(prior) ? prior : [prior]), ...parts]);
  }
  return Object.fromEntries(metadata);
}
