// Orders (real-service-notes: `POST /orders`). A `download` order delivers the newest version of each target's master
// file as download links; a `PublicCDN` order publishes the asset types each target names (`assetTypes`: the master
// file's newest version or one of its renditions by name) and delivers objects with their `deliveredPath`. Orders are
// processed before the create answers, since clients read `deliveredFiles` from that answer.
import type { EmulatorContext } from '../context';
import { errors } from '../errors';
import { normaliseGuid } from '../hal';
import type { Queryable } from '../storage/store';
import { loadFiles, materialised, newId } from './files';

export interface OrderTarget {
  recordId: string;
  targetTypes?: string[];
  assetType?: string;
  assetTypes?: string[];
}

export type OrderKind = 'download' | 'PublicCDN';

export interface DeliveredFile {
  recordId: string;
  /** The asset type as the target named it. */
  assetType: string;
  fileVersionId: string;
  /** Set when a rendition was delivered. */
  additionalFileId?: string;
  fileName: string;
}

export interface OrderRow {
  id: string;
  type: OrderKind;
  status: 'Pending' | 'Executing' | 'Success' | 'PartiallyFailed' | 'Failed';
  targets: OrderTarget[];
  /** What was delivered, by id; links are minted per read (they expire). */
  delivered: DeliveredFile[];
  errors: { recordId: string; message: string }[];
  disable_notification: boolean;
  priority: number;
  message: string;
  created_on: Date;
  started_on: Date | null;
  finished_on: Date | null;
  created_by: number;
}

/** The master file's newest version: what a download order delivers, and a PublicCDN asset type. */
const MASTER = 'LatestVersionOfMasterFile';

function kindOf(type: string): OrderKind {
  const lower = type.toLowerCase();
  if (lower === 'download') return 'download';
  if (lower === 'publiccdn') return 'PublicCDN';
  throw errors.validation(`Order type '${type.slice(0, 50)}' is not supported; use 'download' or 'PublicCDN'.`);
}

/** The asset types a target asks for: `assetTypes` (PublicCDN) or the single `assetType` (download). */
function assetTypesOf(t: OrderTarget): string[] {
  const named = [...(t.assetTypes ?? []), ...(t.assetType ? [t.assetType] : [])];
  return named.length ? named : [MASTER];
}

export const orders = {
  async create(
    db: Queryable,
    input: { type: string; targets: OrderTarget[]; disableNotification: boolean; priority: number },
    userId: number,
    now: Date,
  ): Promise<OrderRow> {
    const kind = kindOf(input.type);
    if (!input.targets.length) throw errors.validation('An order needs at least one target.');
    for (const t of input.targets) {
      // A download order delivers the master file only; a PublicCDN order may name renditions too.
      const other = assetTypesOf(t).find((a) => a.toLowerCase() !== MASTER.toLowerCase());
      if (other && kind === 'download') throw errors.validation(`assetType '${other.slice(0, 60)}' is not supported; use ${MASTER}.`);
    }
    const id = newId();
    const normalised = input.targets.map((t) => ({ ...t, recordId: normaliseGuid(t.recordId) ?? t.recordId }));
    await db.query(
      `INSERT INTO orders (id, type, status, targets, disable_notification, priority, created_on, created_by) VALUES ($1, $2, 'Pending', $3, $4, $5, $6, $7)`,
      [id, kind, JSON.stringify(normalised), input.disableNotification, input.priority, now.toISOString(), userId],
    );
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

/** Finds each target's assets; a target missing one is named in `errors`, the others are delivered. */
export async function processOrder(ctx: EmulatorContext, order: OrderRow): Promise<void> {
  await ctx.store.query(`UPDATE orders SET status = 'Executing', started_on = $2 WHERE id = $1`, [order.id, ctx.clock.now().toISOString()]);
  const delivered: DeliveredFile[] = [];
  const failures: OrderRow['errors'] = [];
  for (const target of order.targets) {
    try {
      if (!(await ctx.store.query('SELECT 1 FROM records WHERE id = $1', [target.recordId])).length) throw new Error(`no record with id '${target.recordId}'`);
      const master = (await ctx.store.query<{ id: string }>('SELECT id FROM files WHERE record_id = $1 AND is_master ORDER BY created_on LIMIT 1', [target.recordId]))[0];
      const latest = master ? await loadFiles.latestOfFile(ctx.store, master.id) : undefined;
      if (!latest) throw new Error(`record '${target.recordId}' has no master file`);
      for (const assetType of assetTypesOf(target)) {
        if (assetType.toLowerCase() === MASTER.toLowerCase()) {
          // A seeded version gets its bytes now, so the link delivers a whole file.
          await materialised(ctx, latest);
          delivered.push({ recordId: target.recordId, assetType, fileVersionId: latest.id, fileName: latest.filename });
          continue;
        }
        const rendition = (await loadFiles.additionalOfVersion(ctx.store, latest.id)).find((a) => a.name.toLowerCase() === assetType.toLowerCase());
        if (!rendition) throw new Error(`record '${target.recordId}' has no '${assetType.slice(0, 60)}' rendition of its master file`);
        delivered.push({ recordId: target.recordId, assetType, fileVersionId: latest.id, additionalFileId: rendition.id, fileName: `${latest.filename.replace(/\.[^.]*$/, '')}_${rendition.name}.${rendition.format}` });
      }
    } catch (err) {
      failures.push({ recordId: target.recordId, message: err instanceof Error ? err.message : String(err) });
    }
  }
  const status = failures.length === 0 ? 'Success' : delivered.length === 0 ? 'Failed' : 'PartiallyFailed';
  const message = failures.length ? `${failures.length} of ${order.targets.length} targets failed.` : '';
  await ctx.store.query('UPDATE orders SET status = $2, delivered = $3, errors = $4, finished_on = $5, message = $6 WHERE id = $1', [
    order.id,
    status,
    JSON.stringify(delivered),
    JSON.stringify(failures),
    ctx.clock.now().toISOString(),
    message,
  ]);
}
