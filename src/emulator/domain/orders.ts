// Download orders (real-service-notes: `POST /orders` with `type: "download"`): the order is processed in the
// background and, once done, delivers the newest version of each target's master file as download links.
import type { EmulatorContext } from '../context';
import { errors } from '../errors';
import { normaliseGuid } from '../hal';
import type { Queryable } from '../storage/store';
import { loadFiles, materialised, newId } from './files';

export interface OrderTarget {
  recordId: string;
  targetTypes?: string[];
  assetType?: string;
}

export interface OrderRow {
  id: string;
  type: string;
  status: 'Pending' | 'Executing' | 'Success' | 'PartiallyFailed' | 'Failed';
  targets: OrderTarget[];
  /** File versions delivered, by id. */
  delivered: { recordId: string; fileVersionId: string }[];
  errors: { recordId: string; message: string }[];
  disable_notification: boolean;
  created_on: Date;
  finished_on: Date | null;
  created_by: number;
}

/** What a download order may deliver; the notes show the newest version of the master file. */
const ASSET_TYPES = ['LatestVersionOfMasterFile'];

export const orders = {
  async create(db: Queryable, type: string, targets: OrderTarget[], disableNotification: boolean, userId: number, now: Date): Promise<OrderRow> {
    if (type.toLowerCase() !== 'download') throw errors.validation(`Order type '${type.slice(0, 50)}' is not supported; use 'download'.`);
    if (!targets.length) throw errors.validation('An order needs at least one target.');
    for (const t of targets) {
      if (t.assetType && !ASSET_TYPES.some((a) => a.toLowerCase() === t.assetType!.toLowerCase())) {
        throw errors.validation(`assetType '${t.assetType.slice(0, 60)}' is not supported; use ${ASSET_TYPES.join(', ')}.`);
      }
    }
    const id = newId();
    const normalised = targets.map((t) => ({ ...t, recordId: normaliseGuid(t.recordId) ?? t.recordId }));
    await db.query(`INSERT INTO orders (id, type, status, targets, disable_notification, created_on, created_by) VALUES ($1, 'download', 'Pending', $2, $3, $4, $5)`, [
      id,
      JSON.stringify(normalised),
      disableNotification,
      now.toISOString(),
      userId,
    ]);
    return orders.find(db, id);
  },

  async find(db: Queryable, id: string): Promise<OrderRow> {
    const guid = normaliseGuid(id);
    const row = guid ? (await db.query<OrderRow>('SELECT * FROM orders WHERE id = $1', [guid]))[0] : undefined;
    if (!row) throw errors.noDataFound('order', id.slice(0, 100));
    return row;
  },

  latest: (db: Queryable) => db.query<OrderRow>('SELECT * FROM orders ORDER BY created_on DESC, id LIMIT 200'),
};

/** Finds each target's file; a target without one is named in `errors`, the others are delivered. */
export async function processOrder(ctx: EmulatorContext, order: OrderRow): Promise<void> {
  await ctx.store.query(`UPDATE orders SET status = 'Executing' WHERE id = $1`, [order.id]);
  const delivered: OrderRow['delivered'] = [];
  const failures: OrderRow['errors'] = [];
  for (const target of order.targets) {
    try {
      const master = (await ctx.store.query<{ id: string }>('SELECT id FROM files WHERE record_id = $1 AND is_master ORDER BY created_on LIMIT 1', [target.recordId]))[0];
      if (!(await ctx.store.query('SELECT 1 FROM records WHERE id = $1', [target.recordId])).length) throw new Error(`no record with id '${target.recordId}'`);
      const latest = master ? await loadFiles.latestOfFile(ctx.store, master.id) : undefined;
      if (!latest) throw new Error(`record '${target.recordId}' has no master file`);
      // A seeded version gets its bytes now, so the link delivers a whole file.
      await materialised(ctx, latest);
      delivered.push({ recordId: target.recordId, fileVersionId: latest.id });
    } catch (err) {
      failures.push({ recordId: target.recordId, message: err instanceof Error ? err.message : String(err) });
    }
  }
  const status = failures.length === 0 ? 'Success' : delivered.length === 0 ? 'Failed' : 'PartiallyFailed';
  await ctx.store.query('UPDATE orders SET status = $2, delivered = $3, errors = $4, finished_on = $5 WHERE id = $1', [
    order.id,
    status,
    JSON.stringify(delivered),
    JSON.stringify(failures),
    ctx.clock.now().toISOString(),
  ]);
}
