// The record trail: what a write through the API changed, read as a before and after of the record's state in the
// write's own transaction, so an entry lists exactly what changed (and a write that changed nothing adds none).
import type { Queryable } from '../storage/store';
import { newId } from './files';

/** One changed item: a property, a field value in one language, the classifications or the master file. */
export interface TrailChange {
  kind: 'Property' | 'Field' | 'Classifications' | 'File';
  name: string;
  languageId?: string;
  oldValue: string | null;
  newValue: string | null;
}

export interface TrailEntryRow {
  id: string;
  record_id: string;
  user_id: number;
  action: 'Created' | 'Updated';
  created_on: Date;
  changes: TrailChange[];
}

type State = Map<string, Omit<TrailChange, 'oldValue' | 'newValue'> & { value: string | null }>;

/** The record's state as the trail compares it; empty for a record that does not exist (yet). */
export async function trailState(db: Queryable, recordId: string): Promise<State> {
  const state: State = new Map();
  const record = (await db.query<{ title: string; status: string; content_type: string; tag: string | null }>('SELECT title, status, content_type, tag FROM records WHERE id = $1', [recordId]))[0];
  if (!record) return state;
  const property = (name: string, value: string | null) => state.set(`p:${name}`, { kind: 'Property', name, value });
  property('Title', record.title);
  property('Status', record.status);
  property('ContentType', record.content_type);
  property('Tag', record.tag);
  const fields = await db.query<{ name: string; language_id: string; value: unknown }>(
    `SELECT d.name, replace(v.language_id::text, '-', '') AS language_id, v.value FROM field_values v JOIN field_definitions d ON d.uid = v.field_id WHERE v.record_id = dam_uid($1)`,
    [recordId],
  );
  for (const f of fields) state.set(`f:${f.name}:${f.language_id}`, { kind: 'Field', name: f.name, languageId: f.language_id, value: JSON.stringify(f.value) });
  const classes = await db.query<{ name_path: string }>(
    'SELECT c.name_path FROM record_classifications rc JOIN classifications c ON c.uid = rc.classification_id WHERE rc.record_id = dam_uid($1) ORDER BY c.name_path',
    [recordId],
  );
  state.set('c', { kind: 'Classifications', name: 'Classifications', value: classes.length ? classes.map((c) => c.name_path).join('; ') : null });
  const master = (
    await db.query<{ filename: string; version_number: number }>(
      `SELECT v.filename, v.version_number FROM files f JOIN file_versions v ON v.file_id = f.id WHERE f.record_id = $1 AND f.is_master ORDER BY v.version_number DESC LIMIT 1`,
      [recordId],
    )
  )[0];
  state.set('m', { kind: 'File', name: 'MasterFile', value: master ? `${master.filename} (version ${master.version_number})` : null });
  return state;
}

/** Adds an entry for what changed between two states; nothing when nothing did. */
export async function addTrailEntry(db: Queryable, recordId: string, before: State, after: State, userId: number, now: Date): Promise<void> {
  const changes: TrailChange[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(key);
    const is = after.get(key);
    const oldValue = was?.value ?? null;
    const newValue = is?.value ?? null;
    if (oldValue === newValue) continue;
    const { value: _value, ...what } = (is ?? was)!;
    changes.push({ ...what, oldValue, newValue });
  }
  if (!changes.length) return;
  await db.query('INSERT INTO trail_entries (id, record_id, user_id, action, created_on, changes) VALUES ($1, $2, $3, $4, $5, $6)', [
    newId(),
    recordId,
    userId,
    before.size === 0 ? 'Created' : 'Updated',
    now.toISOString(),
    JSON.stringify(changes),
  ]);
}

export const trail = {
  ofRecord: (db: Queryable, recordId: string) => db.query<TrailEntryRow>('SELECT * FROM trail_entries WHERE record_id = $1 ORDER BY created_on DESC, id', [recordId]),
  entry: async (db: Queryable, id: string) => (await db.query<TrailEntryRow>('SELECT * FROM trail_entries WHERE id = $1', [id]))[0],
};
