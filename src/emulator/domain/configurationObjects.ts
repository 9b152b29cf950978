// Collections, watermarks, rules, public links, content subscriptions, and the file types and setting categories created through the API:
// kept as objects of a kind with their members as sent (the catalogue supplies the members a client sends none of),
// and a static collection's records. Enough for their documented reads, writes and relations; the service's behaviour
// behind them (applying a watermark, running a rule, publishing to a CDN) is not emulated.
import { randomUUID } from 'node:crypto';
import { errors } from '../errors';
import type { Queryable } from '../storage/store';

export type ObjectKind = 'collection' | 'watermark' | 'rule' | 'publiclink' | 'filetype' | 'settingcategory' | 'contentsubscription';

export interface ObjectRow {
  kind: ObjectKind;
  id: string;
  body: Record<string, unknown>;
  created_on: Date;
  modified_on: Date;
  created_by: string | null;
  modified_by: string | null;
}

/** Members the server keeps, never taken from a body. */
const SERVER_MEMBERS = new Set(['id', 'createdon', 'modifiedon', '_links', '_embedded', 'records']);

function members(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([k]) => !SERVER_MEMBERS.has(k.toLowerCase())));
}

const WHAT: Record<ObjectKind, string> = { collection: 'collection', watermark: 'watermark', rule: 'rule', publiclink: 'public link', filetype: 'file type', settingcategory: 'setting category', contentsubscription: 'content subscription' };

/** Kinds whose objects are named (a public link is not: it is a URI for a target; a subscription is not: it names its object). */
const NAMED = (kind: ObjectKind) => kind !== 'publiclink' && kind !== 'contentsubscription';

/**
 * A content subscription as its documentation page gives it: `objectId` (a record or collection id),
 * `subscriptionType` (1 Follow, 2 Expiry; Follow when not sent) and `subscriptionObjectType` (0 Record, 1 Collection).
 * The members after a write (the kept ones with the sent ones over them) are checked; an unknown object is a 404.
 * Returns the members to keep (ids compact, the default type filled in).
 */
export async function checkedSubscription(db: Queryable, kept: Record<string, unknown>, sent: Record<string, unknown>): Promise<Record<string, unknown>> {
  const next = { ...kept, ...Object.fromEntries(Object.entries(sent).filter(([k]) => !SERVER_MEMBERS.has(k.toLowerCase()))) };
  if (next.subscriptionType === undefined || next.subscriptionType === null) next.subscriptionType = 1;
  if (next.subscriptionType !== 1 && next.subscriptionType !== 2) throw errors.validation('subscriptionType must be 1 (Follow) or 2 (Expiry).');
  if (next.subscriptionObjectType !== 0 && next.subscriptionObjectType !== 1) throw errors.validation('subscriptionObjectType must be 0 (Record) or 1 (Collection).');
  const id = typeof next.objectId === 'string' ? next.objectId.replace(/[{}-]/g, '').toLowerCase() : '';
  if (!/^[0-9a-f]{32}$/.test(id)) throw errors.validation('objectId must be the id of the record or collection subscribed to.');
  const found =
    next.subscriptionObjectType === 0
      ? (await db.query<{ id: string }>('SELECT id FROM records WHERE id = $1', [id])).length > 0
      : (await db.query<{ id: string }>("SELECT id FROM configuration_objects WHERE kind = 'collection' AND id = $1", [id])).length > 0;
  if (!found) throw errors.noDataFound(next.subscriptionObjectType === 0 ? 'record' : 'collection', id);
  return { ...next, objectId: id };
}

type Section = { addOrUpdate?: unknown[]; remove?: unknown[] };
const isSection = (v: unknown): v is Section =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length > 0 && Object.keys(v).every((k) => k === 'addOrUpdate' || k === 'remove') &&
  Object.values(v).every((x) => Array.isArray(x));
const keyOf = (v: unknown) => String(typeof v === 'object' && v !== null ? (v as { id?: unknown }).id : v).replace(/-/g, '').toLowerCase();

/**
 * A nested collection written as the spec's `addOrUpdate` / `remove` sections (a rule's conditions and actions) is kept
 * as the list it describes, each element with an id: an element naming an id it holds is updated, any other is added
 * (with a new id), `remove` takes ids. Reads embed the list (`select-rule: conditions`), as a tenant does.
 */
function applySection(kept: unknown, section: Section): Record<string, unknown>[] {
  const list = (Array.isArray(kept) ? kept : []).filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null).map((e) => ({ ...e }));
  const removed = new Set((section.remove ?? []).map(keyOf));
  const next = list.filter((e) => !removed.has(keyOf(e)));
  for (const item of section.addOrUpdate ?? []) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw errors.validation('Each element of an addOrUpdate section must be an object.');
    const at = 'id' in item ? next.findIndex((e) => keyOf(e) === keyOf(item)) : -1;
    if (at >= 0) next[at] = { ...next[at], ...(item as Record<string, unknown>), id: next[at].id };
    else next.push({ ...(item as Record<string, unknown>), id: randomUUID().replace(/-/g, '') });
  }
  return next;
}

function withSections(kept: Record<string, unknown>, sent: Record<string, unknown>): Record<string, unknown> {
  const next: Record<string, unknown> = { ...kept };
  for (const [k, v] of Object.entries(sent)) {
    if (v === null) delete next[k];
    else next[k] = isSection(v) ? applySection(kept[k], v) : v;
  }
  return next;
}

export const configurationObjects = {
  async list(db: Queryable, kind: ObjectKind): Promise<ObjectRow[]> {
    return db.query<ObjectRow>('SELECT * FROM configuration_objects WHERE kind = $1 ORDER BY created_on, id', [kind]);
  },

  async find(db: Queryable, kind: ObjectKind, id: string): Promise<ObjectRow> {
    const row = await configurationObjects.get(db, kind, id);
    if (!row) throw errors.noDataFound(WHAT[kind], id);
    return row;
  },

  async get(db: Queryable, kind: ObjectKind, id: string): Promise<ObjectRow | undefined> {
    const key = id.replace(/[{}-]/g, '').toLowerCase();
    return (await db.query<ObjectRow>('SELECT * FROM configuration_objects WHERE kind = $1 AND id = $2', [kind, key]))[0];
  },

  /** `id`: the id of an object the emulator derives (a file type, a setting category) that a write now keeps. */
  async create(db: Queryable, kind: ObjectKind, body: Record<string, unknown>, userId: string, id = randomUUID().replace(/-/g, '')): Promise<string> {
    if (NAMED(kind) && (typeof body.name !== 'string' || !body.name.trim())) throw errors.validation(`A ${WHAT[kind]} needs a name.`);
    await db.query('INSERT INTO configuration_objects (kind, id, body, created_by, modified_by) VALUES ($1, $2, $3, $4, $4)', [kind, id, withSections({}, members(body)), userId]);
    return id;
  },

  /** Sent members replace the kept ones; a member sent as null is reset (spec, Editing). */
  async update(db: Queryable, row: ObjectRow, body: Record<string, unknown>, userId: string): Promise<void> {
    const next = withSections(row.body, members(body));
    if (NAMED(row.kind) && 'name' in next && (typeof next.name !== 'string' || !next.name.trim())) throw errors.validation(`A ${WHAT[row.kind]} needs a name.`);
    await db.query('UPDATE configuration_objects SET body = $3, modified_on = now(), modified_by = $4 WHERE kind = $1 AND id = $2', [row.kind, row.id, next, userId]);
  },

  async remove(db: Queryable, row: ObjectRow): Promise<void> {
    if (row.kind === 'collection') {
      await db.query('DELETE FROM collection_records WHERE collection_id = $1', [row.id]);
      await db.query("DELETE FROM configuration_objects WHERE kind = 'contentsubscription' AND body->>'subscriptionObjectType' = '1' AND body->>'objectId' = $1", [row.id]);
    }
    await db.query('DELETE FROM configuration_objects WHERE kind = $1 AND id = $2', [row.kind, row.id]);
  },
};

export const collectionRecords = {
  async recordIds(db: Queryable, collectionId: string): Promise<string[]> {
    const rows = await db.query<{ record_id: string }>('SELECT record_id FROM collection_records WHERE collection_id = $1 ORDER BY added_on, record_id', [collectionId]);
    return rows.map((r) => r.record_id);
  },

  async ofRecord(db: Queryable, recordId: string): Promise<ObjectRow[]> {
    return db.query<ObjectRow>(
      `SELECT o.* FROM configuration_objects o JOIN collection_records m ON m.collection_id = o.id
        WHERE o.kind = 'collection' AND m.record_id = $1 ORDER BY o.created_on, o.id`,
      [recordId],
    );
  },

  /**
   * The spec's nested-collection edit on a static collection's records: `addOrUpdate` and `remove` of record ids
   * (plain ids or `{ id }`). An unknown record is a 404 naming it, and nothing is changed.
   */
  async edit(db: Queryable, collection: ObjectRow, section: { addOrUpdate?: unknown[]; remove?: unknown[] }): Promise<void> {
    if (String(collection.body.type ?? 'Static').toLowerCase() === 'dynamic') throw errors.validation('The records of a dynamic collection follow its search expression; they cannot be edited.');
    const idOf = (v: unknown) => String(typeof v === 'object' && v !== null ? (v as { id?: unknown }).id : v).replace(/-/g, '').toLowerCase();
    const add = (section.addOrUpdate ?? []).map(idOf);
    const remove = (section.remove ?? []).map(idOf);
    if (add.length) {
      const known = await db.query<{ id: string }>('SELECT id FROM records WHERE id = ANY($1::text[])', [add]);
      const missing = add.find((id) => !known.some((k) => k.id === id));
      if (missing) throw errors.noDataFound('record', missing);
      await db.query('INSERT INTO collection_records (collection_id, record_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [collection.id, add]);
    }
    if (remove.length) await db.query('DELETE FROM collection_records WHERE collection_id = $1 AND record_id = ANY($2::text[])', [collection.id, remove]);
    await db.query("UPDATE configuration_objects SET modified_on = now() WHERE kind = 'collection' AND id = $1", [collection.id]);
  },
};
