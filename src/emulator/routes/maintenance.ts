// Maintenance jobs (CreateRenditions, ChangeRecordStatus), download orders and the search index: work the service
// does in the background after the request answered. Jobs need the spec's maintenance rights.
import { userGuid } from '../../core/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { Rights } from '../caller';
import type { EmulatorContext } from '../context';
import { downloadUri } from '../domain/files';
import { jobs, planJob, runJob, type JobRow } from '../domain/maintenance';
import { core, load } from '../domain/model';
import { orders, processOrder, type DeliveredFile, type OrderRow } from '../domain/orders';
import { defineType, render, renderContext } from '../hal';
import { Segment, created, noContent, route } from '../routeTable';
import { MaintenanceJobSchema, OrderSchema, list } from '../schemas';

export const MaintenanceJobBody = z
  .object({
    type: z.string().max(50).optional(),
    priority: z.string().max(20).nullish(),
    targets: z.array(z.object({ recordId: z.string().max(100) }).loose()).min(1).max(1000),
    actions: z
      .array(
        z
          .object({
            action: z.string().min(1).max(100),
            parameters: z.object({ presets: z.array(z.string().max(200)).max(50).optional(), status: z.string().max(40).optional() }).loose().nullish(),
          })
          .loose(),
      )
      .min(1)
      .max(20),
  })
  .loose();

export const OrderBody = z
  .object({
    type: z.string().max(50),
    targets: z
      .array(
        z
          .object({
            recordId: z.string().max(100),
            targetTypes: z.array(z.string().max(100)).max(20).optional(),
            assetType: z.string().max(100).optional(),
            assetTypes: z.array(z.string().max(100)).max(20).optional(),
          })
          .loose(),
      )
      .min(1)
      .max(1000),
    disableNotification: z.boolean().optional(),
    // A number on the wire (real-service-notes); the names jobs use are read too.
    priority: z.union([z.number().int().min(0).max(100), z.enum(['Low', 'Medium', 'High', 'low', 'medium', 'high'])]).optional(),
  })
  .loose();

const PRIORITY_NUMBERS: Record<string, number> = { low: 0, medium: 1, high: 2 };

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
    // Sent as a name (Low | Medium | High), answered as the number the service's model types (catalogue).
    priority: PRIORITY_NUMBERS[String(j.priority).toLowerCase()] ?? 1,
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

/**
 * An order as clients read it (real-service-notes, second round): every member they load into typed models has a
 * value (no null dates or numbers). `deliveredFiles` are minted per read, each link with a fresh expiry and its
 * signature: URL strings for a download order, objects with their `deliveredPath` for a PublicCDN one.
 */
export const orderType = defineType<OrderRow & { creator_email?: string }>({
  name: 'order',
  self: (o, rc) => `${core(rc)}/order/${o.id}`,
  attributes: (o, rc) => {
    const started = o.started_on ?? o.created_on;
    const link = (d: DeliveredFile) => (d.additionalFileId ? downloadUri(rc, 'additionalfile', d.additionalFileId) : downloadUri(rc, 'fileversion', d.fileVersionId));
    return {
      id: o.id,
      type: o.type,
      orderType: o.type,
      status: o.status,
      priority: o.priority ?? 0,
      creatorEmail: o.creator_email ?? '',
      disableNotification: o.disable_notification,
      targets: o.targets,
      deliveredFiles:
        o.type === 'PublicCDN'
          ? o.delivered.map((d) => ({ recordId: d.recordId, assetType: d.assetType, fileName: d.fileName, deliveredPath: link(d) }))
          : o.delivered.map(link),
      errors: o.errors,
      message: o.message ?? '',
      createdOn: iso(o.created_on),
      earliestStartDate: iso(o.created_on),
      startedOn: iso(started),
      // The typed order models (aprimo-js `Order`, the .NET SDK) read it as a date-time: when the order ran.
      executionTime: iso(o.finished_on ?? started),
      ...(o.finished_on ? { finishedOn: iso(o.finished_on) } : {}),
    };
  },
  relations: [
    { key: 'targets', type: 'ordertarget', many: true, href: (o, rc) => `${core(rc)}/order/${o.id}/targets`, load: async (o) => o.targets },
    { key: 'createdby', type: 'user', many: false, href: (o, rc) => `${core(rc)}/user/${userGuid(o.created_by)}`, load: async (o, rc) => (await load.users(rc.ctx.store, [o.created_by]))[0] ?? null },
  ],
});

/** An order with its creator's email, as the answer carries it. */
async function readOrder(ctx: EmulatorContext, id: string) {
  const order = await orders.find(ctx.store, id);
  const email = (await ctx.store.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [order.created_by]))[0]?.email ?? '';
  return { ...order, creator_email: email };
}

const IdParams = z.object({ id: Segment });

export async function register(app: FastifyInstance, ctx: EmulatorContext) {
  const base = '/api/core';
  await jobs.failInterrupted(ctx.store);

  route(app, ctx, {
    method: 'POST',
    url: `${base}/maintenancejobs`,
    summary: 'Submit a maintenance job (CreateRenditions with presets, ChangeRecordStatus with a status)',
    tag: 'Maintenance jobs',
    rights: [Rights.ExecuteMaintenanceJobs, Rights.ViewMaintenanceJobs],
    action: 'run maintenance jobs',
    body: MaintenanceJobBody,
    responses: { 201: { description: 'The job, Pending; follow it at its Location', schema: MaintenanceJobSchema } },
    handler: async ({ body, request, reply, caller }) => {
      const plan = await planJob(ctx.store, body);
      const job = await jobs.create(ctx.store, body, plan, caller().userId, ctx.clock.now());
      ctx.background(() => runJob(ctx, job, plan));
      const rc = renderContext(ctx, request);
      return created(reply, `${core(rc)}/maintenancejob/${job.id}`, await render(maintenanceJobType, job, rc));
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/maintenancejobs`,
    summary: 'Maintenance jobs, newest first',
    tag: 'Maintenance jobs',
    rights: [Rights.ViewMaintenanceJobs],
    action: 'view maintenance jobs',
    responses: { 200: { description: 'The jobs', schema: list(MaintenanceJobSchema) } },
    handler: async ({ request }) => {
      const rc = renderContext(ctx, request);
      const items = await Promise.all((await jobs.latest(ctx.store)).map((r) => render(maintenanceJobType, r, rc)));
      return { items, totalCount: items.length, _links: { self: { href: `${core(rc)}/maintenancejobs` } } };
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/maintenancejob/:id`,
    summary: 'Read a maintenance job and its status',
    tag: 'Maintenance jobs',
    rights: [Rights.ViewMaintenanceJobs],
    action: 'view maintenance jobs',
    params: IdParams,
    responses: { 200: { description: 'The job', schema: MaintenanceJobSchema } },
    handler: async ({ params, request }) => render(maintenanceJobType, await jobs.find(ctx.store, params.id), renderContext(ctx, request)),
  });

  route(app, ctx, {
    method: 'POST',
    url: [`${base}/orders`, `${base}/order`],
    summary: 'Create a download order; its answer (and GET /order/{id}) lists deliveredFiles, the download links',
    tag: 'Orders',
    body: OrderBody,
    responses: { 201: { description: 'The order, processed, with its Location', schema: OrderSchema } },
    handler: async ({ body, request, reply, caller }) => {
      const priority = typeof body.priority === 'string' ? PRIORITY_NUMBERS[body.priority.toLowerCase()] : (body.priority ?? 0);
      const input = { type: body.type, targets: body.targets, disableNotification: body.disableNotification ?? false, priority };
      const order = await orders.create(ctx.store, input, caller().userId, ctx.clock.now());
      // Done before answering: public clients read deliveredFiles from the create's answer (and others poll).
      await processOrder(ctx, order);
      const rc = renderContext(ctx, request);
      return created(reply, `${core(rc)}/order/${order.id}`, await render(orderType, await readOrder(ctx, order.id), rc));
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/orders`,
    summary: 'Orders, newest first',
    tag: 'Orders',
    responses: { 200: { description: 'The orders', schema: list(OrderSchema) } },
    handler: async ({ request }) => {
      const rc = renderContext(ctx, request);
      const items = await Promise.all((await orders.latest(ctx.store)).map(async (o) => render(orderType, await readOrder(ctx, o.id), rc)));
      return { items, totalCount: items.length, _links: { self: { href: `${core(rc)}/orders` } } };
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/order/:id`,
    summary: 'Read an order, with its deliveredFiles once it is done',
    tag: 'Orders',
    params: IdParams,
    responses: { 200: { description: 'The order', schema: OrderSchema } },
    handler: async ({ params, request }) => render(orderType, await readOrder(ctx, params.id), renderContext(ctx, request)),
  });

  route(app, ctx, {
    method: 'PUT',
    url: `${base}/searchindex`,
    summary: 'Schedule a rebuild of the search index ({ "rebuildScheduled": true }); the emulator\'s index is always current',
    tag: 'Search',
    rights: [Rights.SystemAdministration],
    action: 'rebuild the search index',
    body: z.object({ rebuildScheduled: z.boolean() }).loose(),
    responses: { 204: { description: 'Scheduled' } },
    handler: async ({ body, reply }) => {
      if (body.rebuildScheduled) {
        await ctx.store.query(`INSERT INTO meta (key, value) VALUES ('searchIndexRebuiltOn', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [ctx.clock.now().toISOString()]);
      }
      return noContent(reply);
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/searchindex`,
    summary: 'State of the search index',
    tag: 'Search',
    responses: { 200: { description: 'Whether a rebuild is pending, and when the last one ran', schema: z.object({ rebuildScheduled: z.boolean(), lastRebuiltOn: z.string().nullable() }) } },
    handler: async () => {
      const row = (await ctx.store.query<{ value: string }>(`SELECT value FROM meta WHERE key = 'searchIndexRebuiltOn'`))[0];
      return { rebuildScheduled: false, lastRebuiltOn: row?.value ?? null };
    },
  });
}
