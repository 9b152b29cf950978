// Writes of records: create and partial update with nested `addOrUpdate`/`remove` sections, validated per field type.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { errors } from '../errors';
import { normaliseGuid } from '../hal';
import type { Queryable } from '../storage/store';
import { NEUTRAL_LANGUAGE } from './languages';
import type { FieldDefinitionRow } from './model';
import type { BlobStore } from '../blobs';
import { applyFilesSection, FilesSection } from './files';

const IdRef = z.union([z.string().max(100), z.object({ id: z.string().max(100) }).loose()]);

const LocalizedValue = z
  .object({
    languageId: z.string().max(100).nullish(),
    value: z.unknown().optional(),
    values: z.array(z.unknown()).max(1000).nullish(),
  })
  .loose();

const FieldUpdate = z
  .object({
    id: z.string().max(100).optional(),
    /** Clients also name the field by `fieldId` or `name` (aprimo-js README, the Akeneo connector). */
    fieldId: z.string().max(100).optional(),
    fieldName: z.string().max(500).optional(),
    name: z.string().max(500).optional(),
    localizedValues: z.array(LocalizedValue).max(100).nullish(),
  })
  .loose();

/** A record body (POST or partial PUT); unknown members (e.g. `_links` of a reused read) are ignored. */
export const RecordBody = z
  .object({
    // A title written as `{ "value": … }` (one public add-on) is read as its value.
    title: z
      .union([z.string().max(2000), z.object({ value: z.string().max(2000).nullish() }).loose().transform((t) => t.value ?? null)])
      .nullish(),
    status: z.string().max(50).nullish(),
    contentType: z.string().max(200).nullish(),
    tag: z.string().max(100_000).nullish(),
    textContent: z.string().max(1_000_000).nullish(),
    hasImageOverlay: z.boolean().nullish(),
    // The service's enum (Unknown | No | Yes, any case); a boolean, which the emulator took before, still reads as Yes or No.
    aiInfluenced: z.union([z.string().max(20), z.boolean()]).nullish(),
    classifications: z
      .object({
        addOrUpdate: z.array(z.object({ id: z.string().max(100), sortIndex: z.number().int().optional() }).loose()).max(1000).optional(),
        remove: z.array(IdRef).max(1000).optional(),
      })
      .loose()
      .nullish(),
    fields: z
      .object({ addOrUpdate: z.array(FieldUpdate).max(1000).optional(), remove: z.array(IdRef).max(1000).optional() })
      .loose()
      .nullish(),
    // The files section's own schema, so its names bind in any case as the rest of the body's do.
    files: FilesSection.nullish(),
  })
  .loose();
export type RecordBody = z.infer<typeof RecordBody>;

const STATUSES = ['Draft', 'Released', 'Archived'];

export function newGuid(): string {
  return randomBytes(16).toString('hex');
}

const AI_INFLUENCED = ['Unknown', 'No', 'Yes'] as const;

function canonicalAiInfluenced(value: string | boolean | null): string {
  if (value === null) return 'Unknown';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  const found = AI_INFLUENCED.find((s) => s.toLowerCase() === value.trim().toLowerCase());
  if (!found) throw errors.validation(`aiInfluenced must be one of ${AI_INFLUENCED.join(', ')}; got '${value.slice(0, 20)}'.`);
  return found;
}

function canonicalStatus(status: string): string {
  const found = STATUSES.find((s) => s.toLowerCase() === status.trim().toLowerCase());
  if (!found) throw errors.validation(`status must be one of ${STATUSES.join(', ')}; got '${status.slice(0, 50)}'.`);
  return found;
}

async function canonicalContentType(db: Queryable, name: string): Promise<string> {
  const rows = await db.query<{ name: string }>('SELECT name FROM content_types WHERE lower(name) = lower($1) OR id = $2', [name, normaliseGuid(name) ?? '']);
  if (!rows[0]) throw errors.validation(`Unknown content type '${name.slice(0, 100)}'.`);
  return rows[0].name;
}

const refId = (ref: z.infer<typeof IdRef>) => (typeof ref === 'string' ? ref : ref.id);

type StoredValue = { value: { value?: unknown; values?: unknown[]; children?: unknown[] }; text: string | null; date: string | null };

const LIST_TYPES = ['OptionList', 'ClassificationList', 'RecordList', 'UserList', 'UserGroupList', 'LanguageList', 'TextList', 'HyperlinkList'];
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,7})?)?$/;

/** Clearing a value: `value: ""` (or null) with `values: []` (or none), and no `children` (real-service-notes). */
function clears(lv: z.infer<typeof LocalizedValue>): boolean {
  const noValue = lv.value === undefined || lv.value === null || lv.value === '';
  const children = (lv as { children?: unknown }).children;
  return noValue && !(lv.values && lv.values.length) && !(Array.isArray(children) && children.length);
}

const idOf = (v: unknown) => (typeof v === 'object' && v !== null ? String((v as { id?: unknown; recordId?: unknown }).recordId ?? (v as { id?: unknown }).id ?? '') : String(v));

/** Ids of a list value, normalised; each must name an existing row of `table`. */
async function existingIds(db: Queryable, def: FieldDefinitionRow, raw: unknown[], table: 'classifications' | 'records' | 'languages', what: string): Promise<string[]> {
  const ids = raw.map((v) => normaliseGuid(idOf(v)));
  const bad = raw.find((_, i) => !ids[i]);
  if (bad !== undefined) throw errors.validation(`Values of the field '${def.name}' must be ${what} ids; '${idOf(bad).slice(0, 100)}' is not one.`);
  const found = await db.query<{ id: string }>(`SELECT id FROM ${table} WHERE id = ANY($1::text[])`, [ids as string[]]);
  const missing = ids.find((id) => !found.some((f) => f.id === id));
  if (missing) throw errors.validation(`The field '${def.name}' names ${what} '${missing}', which does not exist.`);
  return ids as string[];
}

/** Checks one localized value against its field definition and returns what is stored; undefined clears it. */
async function storedValue(db: Queryable, def: FieldDefinitionRow, lv: z.infer<typeof LocalizedValue>): Promise<StoredValue | undefined> {
  const type = def.data_type;
  if (clears(lv)) return undefined;
  if (type === 'RecordLink') {
    const children = (lv as { children?: unknown }).children;
    const raw = Array.isArray(children) ? children : (lv.values ?? [lv.value]);
    const ids = await existingIds(db, def, raw, 'records', 'record');
    return { value: { children: ids.map((recordId) => ({ recordId })) }, text: ids.join(', '), date: null };
  }
  if (LIST_TYPES.includes(type)) {
    const raw = lv.values ?? (lv.value === undefined || lv.value === null || lv.value === '' ? [] : [lv.value]);
    if (type === 'OptionList') {
      const ids = raw.map((v) => {
        const text = idOf(v);
        const option = def.options.find((o) => o.id === normaliseGuid(text) || o.name.toLowerCase() === text.toLowerCase());
        if (!option) throw errors.validation(`'${text.slice(0, 100)}' is not an option of the field '${def.name}'.`);
        return option.id;
      });
      const names = ids.map((id) => def.options.find((o) => o.id === id)!.name);
      return { value: { values: ids }, text: names.join(', ') || null, date: null };
    }
    if (type === 'ClassificationList') {
      const ids = await existingIds(db, def, raw, 'classifications', 'classification');
      return { value: { values: ids }, text: ids.join(', ') || null, date: null };
    }
    if (type === 'RecordList' || type === 'LanguageList') {
      const ids = await existingIds(db, def, raw, type === 'RecordList' ? 'records' : 'languages', type === 'RecordList' ? 'record' : 'language');
      return { value: { values: ids }, text: ids.join(', ') || null, date: null };
    }
    if (type === 'TextList' && raw.some((v) => typeof v === 'object' && v !== null)) throw errors.validation(`Values of the field '${def.name}' (TextList) must be text.`);
    const values = raw.map((v) => (typeof v === 'object' ? v : String(v)));
    return { value: { values }, text: values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ') || null, date: null };
  }
  const value = lv.value ?? null;
  if (value === null) return undefined;
  if (type === 'Time') {
    if (typeof value !== 'string' || !TIME.test(value)) throw errors.validation(`The field '${def.name}' needs a time (HH:MM or HH:MM:SS), got '${String(value).slice(0, 50)}'.`);
    return { value: { value }, text: value, date: null };
  }
  if (type === 'Date' || type === 'DateTime') {
    const d = new Date(String(value));
    if (typeof value !== 'string' || Number.isNaN(d.getTime())) throw errors.validation(`The field '${def.name}' needs an ISO 8601 date, got '${String(value).slice(0, 50)}'.`);
    const text = type === 'Date' ? d.toISOString().slice(0, 10) : d.toISOString();
    return { value: { value: text }, text, date: d.toISOString() };
  }
  if (type === 'Numeric' || type === 'Duration') {
    const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
    if (!Number.isFinite(n)) throw errors.validation(`The field '${def.name}' needs a number, got '${String(JSON.stringify(value)).slice(0, 50)}'.`);
    return { value: { value: n }, text: String(n), date: null };
  }
  if (type === 'Json') return { value: { value }, text: JSON.stringify(value), date: null };
  if (typeof value === 'object') throw errors.validation(`The field '${def.name}' (${type}) needs text, not ${Array.isArray(value) ? 'a list' : 'an object'}.`);
  return { value: { value: String(value) }, text: String(value), date: null };
}

const TEXT_TYPES = new Set(['SingleLineText', 'MultiLineText', 'Html', 'RichContent', 'TextList']);

/** Recomputes the full-text body (text field values) of a record after its fields changed. */
async function refreshSearchText(db: Queryable, recordId: string) {
  await db.query(
    `UPDATE records SET search_text = coalesce((SELECT string_agg(fv.value_text, ' ') FROM field_values fv
       JOIN field_definitions d ON d.uid = fv.field_id WHERE fv.record_id = dam_uid($1) AND d.data_type = ANY($2::text[])), '') WHERE id = $1`,
    [recordId, [...TEXT_TYPES]],
  );
}

export interface WriteOptions {
  /** The `disable-validations` request header: a required field may be left empty. */
  disableValidations?: boolean;
}

/** Applies a create or partial update inside the caller's transaction. */
export async function writeRecord(db: Queryable, recordId: string, body: RecordBody, userId: number, now: Date, create: boolean, blobs?: BlobStore, options: WriteOptions = {}) {
  const sets: string[] = [];
  const params: unknown[] = [];
  const set = (column: string, value: unknown) => {
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  };
  if (body.title !== undefined) set('title', body.title ?? '');
  if (body.status !== undefined) set('status', body.status === null ? 'Draft' : canonicalStatus(body.status));
  if (body.contentType !== undefined) set('content_type', body.contentType === null ? 'Image' : await canonicalContentType(db, body.contentType));
  if (body.tag !== undefined) set('tag', body.tag);
  if (body.textContent !== undefined) set('text_content', body.textContent);
  if (body.hasImageOverlay !== undefined) set('has_image_overlay', body.hasImageOverlay ?? false);
  if (body.aiInfluenced !== undefined) set('ai_influenced', canonicalAiInfluenced(body.aiInfluenced));
  if (create) {
    await db.query('INSERT INTO records (id, created_on, modified_on, created_by, modified_by) VALUES ($1, $2, $2, $3, $3)', [recordId, now.toISOString(), userId]);
  }
  // Every write moves modifiedOn forward, even two in the same millisecond: clients detect conflicts by it.
  params.push(now.toISOString());
  sets.push(create ? `modified_on = $${params.length}` : `modified_on = GREATEST($${params.length}::timestamptz, modified_on + interval '1 millisecond')`);
  set('modified_by', userId);
  params.push(recordId);
  await db.query(`UPDATE records SET ${sets.join(', ')} WHERE id = $${params.length}`, params as never[]);

  if (body.classifications) {
    for (const ref of body.classifications.remove ?? []) {
      await db.query('DELETE FROM record_classifications WHERE record_id = dam_uid($1) AND classification_id = dam_uid($2)', [recordId, normaliseGuid(refId(ref)) ?? '']);
    }
    for (const item of body.classifications.addOrUpdate ?? []) {
      const id = normaliseGuid(item.id);
      const exists = id && (await db.query('SELECT 1 FROM classifications WHERE id = $1', [id])).length;
      if (!exists) throw errors.noDataFound('classification', item.id);
      await db.query(
        `INSERT INTO record_classifications (record_id, classification_id, sort_index) VALUES (dam_uid($1), dam_uid($2), $3)
         ON CONFLICT (record_id, classification_id) DO UPDATE SET sort_index = excluded.sort_index`,
        [recordId, id, item.sortIndex ?? 0],
      );
    }
  }
  if (body.fields) {
    const defs = await db.query<FieldDefinitionRow>('SELECT * FROM field_definitions');
    const findDef = (id: string | undefined, name: string | undefined) => {
      const guid = id ? normaliseGuid(id) : undefined;
      const def = defs.find((d) => (guid && d.id === guid) || (!guid && (id ?? name)?.toLowerCase() === d.name.toLowerCase()));
      if (!def) throw errors.noDataFound('field definition', String(id ?? name ?? '').slice(0, 100));
      if (def.is_read_only) throw errors.validation(`The field '${def.name}' is read-only.`);
      return def;
    };
    const languages = new Set((await db.query<{ id: string }>('SELECT id FROM languages')).map((l) => l.id));
    const cleared = new Set<FieldDefinitionRow>();
    for (const ref of body.fields.remove ?? []) {
      const def = findDef(refId(ref), undefined);
      await db.query('DELETE FROM field_values WHERE record_id = dam_uid($1) AND field_id = dam_uid($2)', [recordId, def.id]);
      cleared.add(def);
    }
    for (const item of body.fields.addOrUpdate ?? []) {
      const def = findDef(item.id ?? item.fieldId, item.fieldName ?? item.name);
      for (const lv of item.localizedValues ?? []) {
        const languageId = lv.languageId ? normaliseGuid(lv.languageId) : NEUTRAL_LANGUAGE;
        if (!languageId || !languages.has(languageId)) {
          throw errors.validation(`The field '${def.name}' has a value in language '${String(lv.languageId).slice(0, 100)}', which this tenant does not have.`);
        }
        const stored = await storedValue(db, def, lv);
        // A field that is not localizable holds one value whatever language a client names (clients send en-US or
        // the neutral language alike): a write or a clear in any language replaces it, so `value: ""` empties it.
        if (!def.is_localizable) await db.query('DELETE FROM field_values WHERE record_id = dam_uid($1) AND field_id = dam_uid($2) AND language_id <> dam_uid($3)', [recordId, def.id, languageId]);
        if (!stored) {
          await db.query('DELETE FROM field_values WHERE record_id = dam_uid($1) AND field_id = dam_uid($2) AND language_id = dam_uid($3)', [recordId, def.id, languageId]);
          cleared.add(def);
          continue;
        }
        await db.query(
          `INSERT INTO field_values (record_id, field_id, language_id, value, value_text, value_date) VALUES (dam_uid($1), dam_uid($2), dam_uid($3), $4, $5, $6)
           ON CONFLICT (record_id, field_id, language_id) DO UPDATE SET value = excluded.value, value_text = excluded.value_text, value_date = excluded.value_date`,
          [recordId, def.id, languageId, JSON.stringify(stored.value), stored.text, stored.date],
        );
      }
    }
    // A required field left without any value is refused, unless the client asked to skip validations.
    if (!options.disableValidations) {
      for (const def of cleared) {
        if (!def.is_required) continue;
        const left = await db.query('SELECT 1 FROM field_values WHERE record_id = dam_uid($1) AND field_id = dam_uid($2) LIMIT 1', [recordId, def.id]);
        if (!left.length) throw errors.validation(`The field '${def.name}' is required; it cannot be left empty.`);
      }
    }
    await refreshSearchText(db, recordId);
  }
  // Last, so a bad field or classification fails the request before any upload token is consumed.
  if (body.files) {
    if (!blobs) throw errors.badRequest('Files cannot be written here.');
    await applyFilesSection(db, blobs, recordId, body.files, userId, now);
  }
}

export const records = {
  /** Deletes a record; its rows cascade, and the bytes they named go after the commit (never while a row names them). */
  async remove(db: Queryable, blobs: BlobStore, recordId: string): Promise<void> {
    const named = await db.query<{ blob: string | null }>(
      `SELECT unnest(ARRAY[blob, preview_blob, thumbnail_blob]) AS blob FROM file_versions WHERE record_id = $1
       UNION ALL SELECT a.blob FROM additional_files a JOIN file_versions v ON v.id = a.file_version_id WHERE v.record_id = $1`,
      [recordId],
    );
    await db.query('DELETE FROM records WHERE id = $1', [recordId]);
    // The record's content subscriptions (kept objects, which no foreign key cascades from) go with it.
    await db.query("DELETE FROM configuration_objects WHERE kind = 'contentsubscription' AND body->>'subscriptionObjectType' = '0' AND body->>'objectId' = $1", [recordId]);
    for (const { blob } of named) if (blob) await blobs.remove(blob);
  },

  /** The versions a write stamped with `now` created (for the rules' hooks). */
  versionsCreatedAt: async (db: Queryable, recordId: string, now: Date) =>
    (await db.query<{ id: string }>('SELECT id FROM file_versions WHERE record_id = $1 AND created_on = $2', [recordId, now.toISOString()])).map((v) => v.id),
};
