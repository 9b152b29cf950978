// Maintenance jobs: POST /maintenancejobs queues a CreateRenditions job that runs in the background (Pending →
// Executing → Success | PartiallyFailed | Failed) and writes real additional files; jobs are read back one by one
// and as a list.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { EmulatorContext } from '../context';
import { core } from '../domain/model';
import { hasImage, materialised, newId, loadFiles, whyNoImage } from '../domain/files';
import { createRendition } from '../domain/renditions';
import { defineType, normaliseGuid, render, renderContext } from '../hal';
import { docSchema, parseBody } from '../validate';

const EXECUTE = '.RoleExecuteMaintenanceJobs';
const VIEW = '.RoleViewMaintenanceJobs';

export const MaintenanceJobBody = z
  .object({
    type: z.string().max(50).optional(),
    targets: z.array(z.object({ recordId: z.string().max(100) }).loose()).min(1).max(1000),
    actions: z
      .array(z.object({ action: z.string().min(1).max(100), parameters: z.object({ presets: z.array(z.string().max(200)).max(50).optional() }).loose().nullish() }).loose())
      .min(1)
      .max(20),
  })
  .loose();

const Preset = z
  .object({ name: z.string(), format: z.string(), size: z.number().int().positive().optional(), usages: z.array(z.string()).optional(), aiActions: z.array(z.string()).optional() })
  .loose();
type Preset = z.infer<typeof Preset>;

interface JobRow {
  id: string;
  type: string;
  status: string;
  actions: { action: string; parameters: { presets?: string[] } }[];
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

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** .NET TimeSpan text (`hh:mm:ss.fff`), as the live service writes durations. */
function timeSpan(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${s.toFixed(3).padStart(6, '0')}`;
}

export const maintenanceJobType = defineType<JobRow>({
  name: 'maintenancejob',
  self: (j, rc) => `${core(rc)}/maintenancejob/${j.id}`,
  attributes: (j) => ({
    id: j.id,
    type: j.type,
    status: j.status,
    actions: j.actions,
    targets: j.targets,
    targetsCount: j.targets_count,
    failedTargetsCount: j.failed_targets_count,
    errors: j.errors,
    message: j.message,
    createdOn: iso(j.created_on),
    startedOn: iso(j.started_on),
    executionTime: j.started_on && j.finished_on ? timeSpan(new Date(j.finished_on).getTime() - new Date(j.started_on).getTime()) : null,
  }),
  relations: [],
});

export async function register(app: FastifyInstance, ctx: EmulatorContext) {
  const base = '/api/core';
  const { errors } = ctx;

  // A job that was running when the emulator was killed will never finish: say so instead of leaving it Executing.
  await ctx.store.query(
    `UPDATE maintenance_jobs SET status = 'Failed', message = 'The emulator stopped while the job was running; submit it again.', finished_on = now()
     WHERE status IN ('Pending', 'Queued', 'Executing')`,
  );

  async function presets(): Promise<Preset[]> {
    const row = (await ctx.store.query<{ value: unknown }>(`SELECT coalesce(s.value, d.default_value) AS value FROM setting_definitions d LEFT JOIN settings s ON s.name = d.name WHERE d.name = '.renditionPreset'`))[0];
    const parsed = z.array(Preset).safeParse(typeof row?.value === 'string' ? JSON.parse(row.value) : (row?.value ?? []));
    return parsed.success ? parsed.data : [];
  }

  async function find(id: string): Promise<JobRow> {
    const guid = normaliseGuid(id);
    const row = guid ? (await ctx.store.query<JobRow>('SELECT * FROM maintenance_jobs WHERE id = $1', [guid]))[0] : undefined;
    if (!row) throw errors.noDataFound('maintenance job', id.slice(0, 100));
    return row;
  }

  async function run(job: JobRow, wanted: Preset[]) {
    const started = ctx.clock.now();
    await ctx.store.query(`UPDATE maintenance_jobs SET status = 'Executing', started_on = $2 WHERE id = $1`, [job.id, started.toISOString()]);
    const failures: { recordId: string; message: string }[] = [];
    for (const target of job.targets) {
      try {
        const recordId = normaliseGuid(target.recordId);
        const record = recordId ? (await ctx.store.query('SELECT 1 FROM records WHERE id = $1', [recordId]))[0] : undefined;
        if (!record || !recordId) throw new Error(`no record with id '${target.recordId}'`);
        const master = (await ctx.store.query<{ id: string }>('SELECT id FROM files WHERE record_id = $1 AND is_master ORDER BY created_on LIMIT 1', [recordId]))[0];
        const latest = master ? await loadFiles.latestOfFile(ctx.store, master.id) : undefined;
        if (!latest) throw new Error(`record '${recordId}' has no file`);
        const version = await materialised(ctx, latest);
        if (!hasImage(version)) throw new Error(`record '${recordId}' has no image file: ${await whyNoImage(ctx, version)}`);
        for (const preset of wanted) await createRendition(ctx, version, preset, job.id);
      } catch (err) {
        failures.push({ recordId: target.recordId, message: err instanceof Error ? err.message : String(err) });
      }
    }
    const total = job.targets.length;
    const status = failures.length === 0 ? 'Success' : failures.length === total ? 'Failed' : 'PartiallyFailed';
    const message =
      status === 'Success'
        ? `Created ${wanted.map((p) => p.name).join(', ')} for ${total} record(s).`
        : `${failures.length} of ${total} target(s) failed: ${failures.map((f) => f.message).join('; ').slice(0, 1000)}`;
    await ctx.store.query(
      `UPDATE maintenance_jobs SET status = $2, failed_targets_count = $3, errors = $4, message = $5, finished_on = $6 WHERE id = $1`,
      [job.id, status, failures.length, JSON.stringify(failures), message, ctx.clock.now().toISOString()],
    );
  }

  app.post(
    `${base}/maintenancejobs`,
    { schema: { summary: 'Submit a maintenance job (CreateRenditions)' }, config: { bodySchema: docSchema(MaintenanceJobBody) } },
    async (request, reply) => {
      const caller = ctx.auth.require(request, EXECUTE);
      ctx.auth.require(request, VIEW);
      const body = parseBody(MaintenanceJobBody, request.body);
      const type = body.type ?? 'record';
      if (type.toLowerCase() !== 'record') throw errors.validation(`Maintenance job type '${type.slice(0, 50)}' is not supported; use 'record'.`);
      const known = await presets();
      const wanted: Preset[] = [];
      const actions = body.actions.map((a) => {
        if (a.action.toLowerCase() !== 'createrenditions') throw errors.validation(`Unknown maintenance action '${a.action.slice(0, 100)}'; supported: CreateRenditions.`);
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
          if (!wanted.includes(preset)) wanted.push(preset);
        }
        return { action: 'CreateRenditions', parameters: { presets: names } };
      });
      const id = newId();
      const targets = body.targets.map((t) => ({ recordId: normaliseGuid(t.recordId) ?? t.recordId }));
      await ctx.store.query(
        `INSERT INTO maintenance_jobs (id, type, status, actions, targets, targets_count, created_on, created_by) VALUES ($1, 'record', 'Pending', $2, $3, $4, $5, $6)`,
        [id, JSON.stringify(actions), JSON.stringify(targets), targets.length, ctx.clock.now().toISOString(), caller.userId],
      );
      const job = await find(id);
      ctx.background(() => run(job, wanted));
      const rc = renderContext(ctx, request);
      reply.code(201).header('Location', `${core(rc)}/maintenancejob/${id}`);
      return render(maintenanceJobType, job, rc);
    },
  );

  app.get(`${base}/maintenancejobs`, { schema: { summary: 'Maintenance jobs, newest first' } }, async (request) => {
    ctx.auth.require(request, VIEW);
    const rc = renderContext(ctx, request);
    const rows = await ctx.store.query<JobRow>('SELECT * FROM maintenance_jobs ORDER BY created_on DESC, id LIMIT 200');
    const items = await Promise.all(rows.map((r) => render(maintenanceJobType, r, rc)));
    return { items, totalCount: items.length, _links: { self: { href: `${core(rc)}/maintenancejobs` } } };
  });

  app.get(`${base}/maintenancejob/:id`, { schema: { summary: 'Read a maintenance job and its status' } }, async (request: FastifyRequest<{ Params: { id: string } }>) => {
    ctx.auth.require(request, VIEW);
    return render(maintenanceJobType, await find(request.params.id), renderContext(ctx, request));
  });
}
