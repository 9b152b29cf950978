// Work-management activities: SQL, the body rules of create and update, and the rendering the SDK's Activity model
// names (timw255/aprimo-js src/model/productivity/Activity.ts). An activity is the parent of projects (their activityId).
import { formatNaive, parseNaive } from '../../../core/tasks';
import type { Json } from '../../hal';
import type { Queryable } from '../../storage/store';

export interface ActivityRow {
  id: number;
  name: string;
  description: string | null;
  activity_type_id: number;
  activity_state_id: number;
  owner_id: number;
  administrator_id: number;
  begin_date: string;
  end_date: string;
  visual_end_date: string | null;
  currency_code: number;
  scs_id: number | null;
  time_zone_id: number;
  modified_user: number;
  modified_date: string;
}

/** The writable members, by the SDK's CreateActivityRequest names, with their column. */
const WRITABLE = {
  name: 'name',
  description: 'description',
  activityTypeId: 'activity_type_id',
  activityStateId: 'activity_state_id',
  ownerId: 'owner_id',
  administratorId: 'administrator_id',
  beginDate: 'begin_date',
  endDate: 'end_date',
  visualEndDate: 'visual_end_date',
  currencyCode: 'currency_code',
  scsId: 'scs_id',
  timeZoneId: 'time_zone_id',
} as const satisfies Record<string, keyof ActivityRow>;
type Writable = keyof typeof WRITABLE;

/** What CreateActivityRequest requires (every member but description, visualEndDate, scsId and the extended attributes). */
const REQUIRED: readonly Writable[] = ['name', 'activityTypeId', 'activityStateId', 'ownerId', 'administratorId', 'beginDate', 'endDate', 'currencyCode', 'timeZoneId'];
const INTEGERS: readonly Writable[] = ['activityTypeId', 'activityStateId', 'ownerId', 'administratorId', 'currencyCode', 'scsId', 'timeZoneId'];
const DATES: readonly Writable[] = ['beginDate', 'endDate', 'visualEndDate'];
const NULLABLE: readonly Writable[] = ['description', 'visualEndDate', 'scsId'];

/** Why a body cannot be written; the route answers 400 with the error object. */
export class ActivityRuleError extends Error {}

export type ActivityChanges = Partial<Record<keyof ActivityRow, string | number | null>>;

/**
 * The columns a create (`partial` false: every required member) or an update (`partial` true: the members sent)
 * writes. Names bind without regard to case, as the service's JSON binding does; unknown members are ignored, as
 * are the extended attributes (the emulator keeps none).
 */
export function readActivityBody(body: Record<string, unknown>, partial: boolean): ActivityChanges {
  const out: ActivityChanges = {};
  for (const name of Object.keys(WRITABLE) as Writable[]) {
    const key = Object.keys(body).find((k) => k.toLowerCase() === name.toLowerCase());
    const value = key === undefined ? undefined : body[key];
    if (value === undefined || (value === null && !NULLABLE.includes(name))) {
      if (!partial && REQUIRED.includes(name)) throw new ActivityRuleError(`${name} is required`);
      if (value === null) throw new ActivityRuleError(`${name} cannot be null`);
      continue;
    }
    const column = WRITABLE[name];
    if (value === null) out[column] = null;
    else if (INTEGERS.includes(name)) {
      const n = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 2_147_483_647) throw new ActivityRuleError(`${name} must be an integer`);
      out[column] = n;
    } else if (DATES.includes(name)) {
      const ms = parseNaive(typeof value === 'string' ? value.replace(/(\.\d+)?Z?$/, '').replace(/^(\d{4}-\d{2}-\d{2})$/, '$1T00:00:00') : value);
      if (ms === undefined) throw new ActivityRuleError(`${name} must be a date (YYYY-MM-DDThh:mm:ss)`);
      out[column] = formatNaive(ms);
    } else {
      if (typeof value !== 'string' || (name === 'name' && !value.trim())) throw new ActivityRuleError(name === 'name' ? 'name must be a non-empty string' : `${name} must be a string`);
      if (value.length > 4000) throw new ActivityRuleError(`${name} is longer than 4000 characters`);
      out[column] = value;
    }
  }
  return out;
}

/** The rules across members, checked on the activity as it would be after the write. */
export async function activityViolation(q: Queryable, a: Pick<ActivityRow, 'owner_id' | 'administrator_id' | 'begin_date' | 'end_date'>): Promise<string | undefined> {
  if (a.end_date < a.begin_date) return 'endDate must not be before beginDate';
  const users = await q.query<{ id: number }>('SELECT id FROM users WHERE id = ANY($1::integer[])', [[a.owner_id, a.administrator_id]]);
  if (!users.some((u) => u.id === a.owner_id)) return `The ownerId specified (${a.owner_id}) is not a user`;
  if (!users.some((u) => u.id === a.administrator_id)) return `The administratorId specified (${a.administrator_id}) is not a user`;
  return undefined;
}

export async function listActivities(q: Queryable): Promise<ActivityRow[]> {
  return q.query<ActivityRow>('SELECT * FROM wm_activities ORDER BY id');
}

export async function loadActivity(q: Queryable, id: number): Promise<ActivityRow | undefined> {
  return (await q.query<ActivityRow>('SELECT * FROM wm_activities WHERE id = $1', [id]))[0];
}

export async function insertActivity(q: Queryable, values: ActivityChanges, by: number, now: string): Promise<number> {
  const row = { ...values, modified_user: by, modified_date: now };
  const columns = Object.keys(row);
  const [made] = await q.query<{ id: number }>(
    `INSERT INTO wm_activities (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
    Object.values(row),
  );
  return made!.id;
}

export async function updateActivity(q: Queryable, id: number, changes: ActivityChanges, by: number, now: string): Promise<void> {
  const row = { ...changes, modified_user: by, modified_date: now };
  const columns = Object.keys(row);
  await q.query(`UPDATE wm_activities SET ${columns.map((c, i) => `${c} = $${i + 2}`).join(', ')} WHERE id = $1`, [id, ...Object.values(row)]);
}

/** The ids of the projects an activity is the parent of. */
export async function projectIdsOf(q: Queryable, activityId: number): Promise<number[]> {
  return (await q.query<{ id: number }>('SELECT id FROM wm_projects WHERE activity_id = $1 ORDER BY id', [activityId])).map((r) => r.id);
}

/** The activity a task attachment belongs to, through its task's project; null when that project has none. */
export async function activityOfAttachment(q: Queryable, attachmentId: number): Promise<{ attachment: boolean; activity: ActivityRow | null }> {
  const rows = await q.query<ActivityRow & { attachment_id: number; activity_found: number | null }>(
    `SELECT x.id AS attachment_id, a.*, a.id AS activity_found FROM wm_attachments x JOIN wm_tasks t ON t.id = x.task_id
       JOIN wm_projects p ON p.id = t.project_id LEFT JOIN wm_activities a ON a.id = p.activity_id WHERE x.id = $1`,
    [attachmentId],
  );
  const row = rows[0];
  if (!row) return { attachment: false, activity: null };
  return { attachment: true, activity: row.activity_found === null ? null : row };
}

export async function deleteActivity(q: Queryable, id: number): Promise<void> {
  await q.query('DELETE FROM wm_activities WHERE id = $1', [id]);
}

export const activityHref = (origin: string, id: number) => `${origin}/api/activities/${id}`;

/** An activity as the SDK's Activity model names it; `id` beside `activityId`, as tasks carry both. */
export function renderActivity(a: ActivityRow, origin: string): Json {
  const self = activityHref(origin, a.id);
  return {
    activityId: a.id,
    id: a.id,
    name: a.name,
    description: a.description,
    activityTypeId: a.activity_type_id,
    activityStateId: a.activity_state_id,
    ownerId: a.owner_id,
    administratorId: a.administrator_id,
    beginDate: a.begin_date,
    endDate: a.end_date,
    visualEndDate: a.visual_end_date,
    currencyCode: a.currency_code,
    scsId: a.scs_id,
    timeZoneId: a.time_zone_id,
    modifiedUser: a.modified_user,
    modifiedDate: a.modified_date,
    extendedAttributes: [],
    multipleValueExtendedAttributes: [],
    _links: { self: { href: self }, projects: { href: `${self}/projects` } },
  };
}
