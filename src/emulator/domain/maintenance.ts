// Maintenance jobs: the repository, the plan a request makes (actions matched case-insensitively, presets checked
// against `.renditionPreset`), and the engine that runs a job in the background (Pending → Executing → Success |
// PartiallyFailed | Failed): CreateRenditions writes real additional files, ChangeRecordStatus sets records' status.
import { z } from 'zod';
import type { EmulatorContext } from '../context';
import { errors } from '../errors';
import { normaliseGuid } from '../hal';
import type { Queryable } from '../storage/store';
import { hasImage, loadFiles, materialised, newId, whyNoImage, type FileVersionRow } from './files';
import { createRendition } from './renditions';
import { addTrailEntry, trailState } from './trail';

export const Preset = z
  .object({ name: z.string(), format: z.string(), size: z.number().int().positive().optional(), usages: z.array(z.string()).optional(), aiActions: z.array(z.string()).optional() })
  .loose();
export type Preset = z.infer<typeof Preset>;

export interface JobAction {
  action: 'CreateRenditions' | 'ChangeRecordStatus';
  parameters: { presets?: string[]; status?: string };
}

export interface JobRow {
  id: string;
  type: string;
  status: string;
  priority: string;
  actions: JobAction[];
  targets: { recordId: string }[];
  targets_count: number;
  failed_targets_count: number;
  errors: { recordId: string; message: string }[];
  message: string | null;
  created_on: Date;
  started_on: Date | null;
  finished_on: Date | null;
  created_by: number;
}

/** What a job request asks for, as the route read it. */
export interface JobRequest {
  type?: string;
  priority?: string | null;
  targets: { recordId: string }[];
  actions: { action: string; parameters?: { presets?: string[]; status?: string } | null }[];
}

/** A checked job: its actions in canonical spelling and the presets CreateRenditions will render. */
export interface JobPlan {
  actions: JobAction[];
  presets: Preset[];
  status?: 'Draft' | 'Released' | 'Archived';
}

const ACTIONS = ['CreateRenditions', 'ChangeRecordStatus'] as const;
const STATUSES = ['Draft', 'Released', 'Archived'] as const;
const PRIORITIES = ['Low', 'Medium', 'High'] as const;

const oneOf = <T extends string>(values: readonly T[], text: string): T | undefined => values.find((v) => v.toLowerCase() === text.trim().toLowerCase());

export async function renditionPresets(db: Queryable): Promise<Preset[]> {
  const row = (
    await db.query<{ value: unknown }>(
      `SELECT coalesce(s.value, d.default_value) AS value FROM setting_definitions d LEFT JOIN settings s ON s.name = d.name WHERE d.name = '.renditionPreset'`,
    )
  )[0];
  const parsed = z.array(Preset).safeParse(typeof row?.value === 'string' ? JSON.parse(row.value) : (row?.value ?? []));
  return parsed.success ? parsed.data : [];
}

/** Checks a job request against the spec and the notes; every refusal names what is wrong and what is supported. */
export async function planJob(db: Queryable, request: JobRequest): Promise<JobPlan> {
  const type = request.type ?? 'record';
  if (type.toLowerCase() !== 'record') throw errors.validation(`Maintenance job type '${type.slice(0, 50)}' is not supported; use 'record'.`);
  if (request.priority && !oneOf(PRIORITIES, request.priority)) throw errors.validation(`priority must be one of ${PRIORITIES.join(', ')}; got '${request.priority.slice(0, 20)}'.`);
  const known = await renditionPresets(db);
  const plan: JobPlan = { actions: [], presets: [] };
  for (const a of request.actions) {
    const action = oneOf(ACTIONS, a.action);
    if (!action) throw errors.validation(`Unknown maintenance action '${a.action.slice(0, 100)}'; supported: ${ACTIONS.join(', ')}.`);
    if (action === 'ChangeRecordStatus') {
      const status = oneOf(STATUSES, a.parameters?.status ?? '');
      if (!status) throw errors.validation(`ChangeRecordStatus needs parameters.status: one of draft, released, archived (got '${String(a.parameters?.status ?? '').slice(0, 40)}').`);
      plan.status = status;
      plan.actions.push({ action, parameters: { status: status.toLowerCase() } });
      continue;
    }
    const names = a.parameters?.presets ?? [];
    if (!names.length) throw errors.validation('CreateRenditions needs parameters.presets with at least one preset name.');
    const unknown = names.filter((n) => !known.some((p) => p.name.toLowerCase() === n.toLowerCase()));
    if (unknown.length) {
      throw errors.validation(
        `Unknown rendition preset${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `'${n.slice(0, 100)}'`).join(', ')}; the setting .renditionPreset has: ${known.map((p) => p.name).join(', ')}.`,
      );
    }
    for (const n of names) {
      const preset = known.find((p) => p.name.toLowerCase() === n.toLowerCase())!;
      if (!plan.presets.includes(preset)) plan.presets.push(preset);
    }
    plan.actions.push({ action, parameters: { presets: names } });
  }
  return plan;
}

export const jobs = {
  async find(db: Queryable, id: string): Promise<JobRow> {
    const guid = normaliseGuid(id);
    const row = guid ? (await db.query<JobRow>('SELECT * FROM maintenance_jobs WHERE id = $1', [guid]))[0] : undefined;
    if (!row) throw errors.noDataFound('maintenance job', id.slice(0, 100));
    return row;
  },

  latest: (db: Queryable) => db.query<JobRow>('SELECT * FROM maintenance_jobs ORDER BY created_on DESC, id LIMIT 200'),

  async create(db: Queryable, request: JobRequest, plan: JobPlan, userId: number, now: Date): Promise<JobRow> {
    const id = newId();
    const targets = request.targets.map((t) => ({ recordId: normaliseGuid(t.recordId) ?? t.recordId }));
    const priority = request.priority ? oneOf(PRIORITIES, request.priority)! : 'Medium';
    await db.query(
      `INSERT INTO maintenance_jobs (id, type, status, priority, actions, targets, targets_count, created_on, created_by) VALUES ($1, 'record', 'Pending', $2, $3, $4, $5, $6, $7)`,
      [id, priority, JSON.stringify(plan.actions), JSON.stringify(targets), targets.length, now.toISOString(), userId],
    );
    return jobs.find(db, id);
  },

  /** A job that was running when the emulator was killed will never finish: say so instead of leaving it Executing. */
  failInterrupted: (db: Queryable) =>
    db.query(
      `UPDATE maintenance_jobs SET status = 'Failed', message = 'The emulator stopped while the job was running; submit it again.', finished_on = now()
       WHERE status IN ('Pending', 'Queued', 'Executing')`,
    ),
};

/** The newest version of a record's master file, with its bytes made; throws when the record has none. */
async function masterVersion(ctx: EmulatorContext, recordId: string): Promise<FileVersionRow> {
  const master = (await ctx.store.query<{ id: string }>('SELECT id FROM files WHERE record_id = $1 AND is_master ORDER BY created_on LIMIT 1', [recordId]))[0];
  const latest = master ? await loadFiles.latestOfFile(ctx.store, master.id) : undefined;
  if (!latest) throw new Error(`record '${recordId}' has no file`);
  return materialised(ctx, latest);
}

/** Runs a job's actions over each target; a target that fails is named in `errors`, the others go on. */
export async function runJob(ctx: EmulatorContext, job: JobRow, plan: JobPlan): Promise<void> {
  const started = ctx.clock.now();
  await ctx.store.query(`UPDATE maintenance_jobs SET status = 'Executing', started_on = $2 WHERE id = $1`, [job.id, started.toISOString()]);
  const failures: { recordId: string; message: string }[] = [];
  for (const target of job.targets) {
    try {
      const recordId = normaliseGuid(target.recordId);
      const record = recordId ? (await ctx.store.query('SELECT 1 FROM records WHERE id = $1', [recordId]))[0] : undefined;
      if (!record || !recordId) throw new Error(`no record with id '${target.recordId}'`);
      const status = plan.status;
      if (status) {
        // A status a job sets is a change made through the API like any other: the record's trail keeps it.
        const now = ctx.clock.now();
        await ctx.store.transaction(async (tx) => {
          const before = await trailState(tx, recordId);
          await tx.query('UPDATE records SET status = $2, modified_on = $3, modified_by = $4 WHERE id = $1', [recordId, status, now.toISOString(), job.created_by]);
          await addTrailEntry(tx, recordId, before, await trailState(tx, recordId), job.created_by, now);
        });
      }
      if (plan.presets.length) {
        const version = await masterVersion(ctx, recordId);
        if (!hasImage(version)) throw new Error(`record '${recordId}' has no image file: ${await whyNoImage(ctx, version)}`);
        for (const preset of plan.presets) await createRendition(ctx, version, preset, job.id);
      }
    } catch (err) {
      failures.push({ recordId: target.recordId, message: err instanceof Error ? err.message : String(err) });
    }
  }
  const total = job.targets.length;
  const status = failures.length === 0 ? 'Success' : failures.length === total ? 'Failed' : 'PartiallyFailed';
  const what = [plan.presets.length ? `created ${plan.presets.map((p) => p.name).join(', ')}` : '', plan.status ? `set the status to ${plan.status}` : ''].filter(Boolean).join(' and ');
  const message =
    status === 'Success'
      ? `${what.charAt(0).toUpperCase()}${what.slice(1)} for ${total} record(s).`
      : `${failures.length} of ${total} target(s) failed: ${failures.map((f) => f.message).join('; ').slice(0, 1000)}`;
  await ctx.store.query(`UPDATE maintenance_jobs SET status = $2, failed_targets_count = $3, errors = $4, message = $5, finished_on = $6 WHERE id = $1`, [
    job.id,
    status,
    failures.length,
    JSON.stringify(failures),
    message,
    ctx.clock.now().toISOString(),
  ]);
}
