// Classifications: the repository of the tree (paths kept in step with names and parents, no node below itself).
import { errors } from '../errors';
import { normaliseGuid } from '../hal';
import type { Queryable } from '../storage/store';
import { NEUTRAL_LANGUAGE } from './languages';
import { ancestors, load, type ClassificationRow } from './model';
import { newGuid } from './records';

export interface ClassificationFields {
  name?: string | null;
  identifier?: string | null;
  parentId?: string | null;
  sortIndex?: number | null;
  sortOrder?: 'Label' | 'Name' | 'SortIndex' | null;
  labels?: { languageId: string; value: string }[] | null;
}

const escapeName = (name: string) => name.replace(/\//g, '\\/');

/** Rewrites namePath/labelPath of a node and all its descendants from its parent's paths. */
async function refreshPaths(db: Queryable, id: string) {
  await db.query(
    `WITH RECURSIVE tree(id, name_path, label_path, depth) AS (
       SELECT c.id,
              coalesce(p.name_path, '') || '/' || replace(c.name, '/', '\\/'),
              coalesce(p.label_path, '') || '/' || replace(coalesce(c.labels->0->>'value', c.name), '/', '\\/'),
              0
         FROM classifications c LEFT JOIN classifications p ON p.id = c.parent_id WHERE c.id = $1
       UNION ALL
       SELECT c.id, t.name_path || '/' || replace(c.name, '/', '\\/'),
              t.label_path || '/' || replace(coalesce(c.labels->0->>'value', c.name), '/', '\\/'), t.depth + 1
         FROM classifications c JOIN tree t ON c.parent_id = t.id WHERE t.depth < 100)
     UPDATE classifications c SET name_path = tree.name_path, label_path = tree.label_path FROM tree WHERE c.id = tree.id`,
    [id],
  );
}

async function checkParent(db: Queryable, parentId: string | null | undefined, selfId?: string): Promise<string | null> {
  if (!parentId) return null;
  const guid = normaliseGuid(parentId);
  if (!guid || !(await db.query('SELECT 1 FROM classifications WHERE id = $1', [guid])).length) throw errors.noDataFound('classification', parentId);
  if (selfId) {
    const up = await ancestors(db, guid);
    if (guid === selfId || up.some((a) => a.id === selfId)) throw errors.validation('A classification cannot be moved below itself.');
  }
  return guid;
}

export const classifications = {
  async find(db: Queryable, id: string): Promise<ClassificationRow> {
    const guid = normaliseGuid(id);
    const row = guid ? (await load.classifications(db, [guid]))[0] : undefined;
    if (!row) throw errors.noDataFound('classification', id.slice(0, 100));
    return row;
  },

  /** The node at a name path (`/Products/Outdoor`; case-insensitive, a trailing slash ignored); 404 when none. */
  async atNamePath(db: Queryable, namePath: string): Promise<ClassificationRow> {
    const path = `/${namePath.trim().replace(/^\/+/, '').replace(/\/+$/, '')}`;
    const row = (await load.classificationsWhere(db, 'lower(c.name_path) = lower($1)', [path]))[0];
    if (!row) throw errors.noDataMatches(`No classification has the name path '${namePath.slice(0, 200)}'.`);
    return row;
  },

  children: (db: Queryable, id: string) => load.classificationsWhere(db, 'c.parent_id = $1', [id]),

  ofRecord: (db: Queryable, recordId: string) =>
    load.classificationsWhere(db, 'c.uid IN (SELECT classification_id FROM record_classifications WHERE record_id = dam_uid($1))', [recordId], 'c.name_path'),

  /** Creates a node below `parentId` (or a root); call in a transaction. Returns its id. */
  async create(tx: Queryable, fields: ClassificationFields & { name: string }, userId: number, now: Date): Promise<string> {
    const id = newGuid();
    const parent = await checkParent(tx, fields.parentId);
    const labels = fields.labels?.length ? fields.labels : [{ languageId: NEUTRAL_LANGUAGE, value: fields.name }];
    await tx.query(
      `INSERT INTO classifications (id, identifier, name, parent_id, sort_index, sort_order, labels, name_path, label_path, created_on, modified_on, created_by, modified_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $9, $10, $10)`,
      [
        id,
        fields.identifier ?? fields.name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
        fields.name,
        parent,
        fields.sortIndex ?? 0,
        fields.sortOrder ?? 'SortIndex',
        JSON.stringify(labels),
        `/${escapeName(fields.name)}`,
        now.toISOString(),
        userId,
      ],
    );
    await refreshPaths(tx, id);
    return id;
  },

  /** Changes the sent properties (moving below another parent re-paths the subtree); call in a transaction. */
  async update(tx: Queryable, row: ClassificationRow, fields: ClassificationFields, userId: number, now: Date): Promise<void> {
    const sets: string[] = [];
    const params: unknown[] = [];
    const set = (column: string, value: unknown) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    if (fields.name !== undefined) {
      if (fields.name === null) throw errors.validation('name cannot be reset.');
      set('name', fields.name);
    }
    if (fields.identifier !== undefined) set('identifier', fields.identifier ?? (fields.name ?? row.name).toLowerCase());
    if (fields.parentId !== undefined) set('parent_id', await checkParent(tx, fields.parentId, row.id));
    if (fields.sortIndex !== undefined) set('sort_index', fields.sortIndex ?? 0);
    if (fields.sortOrder !== undefined) set('sort_order', fields.sortOrder ?? 'SortIndex');
    if (fields.labels !== undefined) set('labels', JSON.stringify(fields.labels ?? []));
    set('modified_on', now.toISOString());
    set('modified_by', userId);
    params.push(row.id);
    await tx.query(`UPDATE classifications SET ${sets.join(', ')} WHERE id = $${params.length}`, params as never[]);
    await refreshPaths(tx, row.id);
  },

  remove: (db: Queryable, id: string) => db.query('DELETE FROM classifications WHERE id = $1', [id]),
};
