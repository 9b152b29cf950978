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
    aiInfluenced: z.boolean().nullish(),
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

/** Checks one localized value against its field definition and returns what is stored. */
async function storedValue(db: Queryable, def: FieldDefinitionRow, lv: z.infer<typeof LocalizedValue>) {
  const type = def.data_type;
  const listTypes = ['OptionList', 'ClassificationList', 'RecordList', 'UserList', 'UserGroupList', 'LanguageList', 'TextList', 'HyperlinkList'];
  if (listTypes.includes(type)) {
    const raw = lv.values ?? (lv.value === undefined || lv.value === null ? [] : [lv.value]);
    if (type === 'OptionList') {
      const ids = raw.map((v) => {
        const text = typeof v === 'object' && v !== null ? String((v as { id?: unknown }).id ?? '') : String(v);
        const option = def.options.find((o) => o.id === normaliseGuid(text) || o.name.toLowerCase() === text.toLowerCase());
        if (!option) throw errors.validation(`'${text.slice(0, 100)}' is not an option of the field '${def.name}'.`);
        return option.id;
      });
      const names = ids.map((id) => def.options.find((o) => o.id === id)!.name);
      return { value: { values: ids }, text: names.join(', ') || null, date: null };
    }
    if (type === 'ClassificationList') {
      const ids = raw.map((v) => normaliseGuid(typeof v === 'object' && v !== null ? String((v as { id?: unknown }).id ?? '') : String(v)));
      if (ids.some((id) => !id)) throw errors.validation(`Values of the field '${def.name}' must be classification ids.`);
      const found = await db.query<{ id: string }>('SELECT id FROM classifications WHERE id = ANY($1::text[])', [ids as string[]]);
      const missing = ids.find((id) => !found.some((f) => f.id === id));
      if (missing) throw errors.noDataFound('classification', missing);
      return { value: { values: ids }, text: (ids as string[]).join(', ') || null, date: null };
    }
    const values = raw.map((v) => (typeof v === 'object' ? v : String(v)));
    return { value: { values }, text: values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ') || null, date: null };
  }
  const value = lv.value ?? null;
  if (value === null) return { value: { value: null }, text: null, date: null };
  if (type === 'Date' || type === 'DateTime' || type === 'Time') {
    const d = new Date(String(value));
    if (typeof value !== 'string' || Number.isNaN(d.getTime())) throw errors.validation(`The field '${def.name}' needs an ISO 8601 date, got '${String(value).slice(0, 50)}'.`);
    const text = type === 'Date' ? d.toISOString().slice(0, 10) : d.toISOString();
    return { value: { value: text }, text, date: d.toISOString() };
  }
  if (type === 'Numeric' || type === 'Duration') {
    const n = typeof value === 'number' ? value : Number(value);
    if (!Number.isFinite(n)) throw errors.validation(`The field '${def.name}' needs a number.`);
    return { value: { value: n }, text: String(n), date: null };
  }
  if (typeof value === 'object') return { value: { value }, text: JSON.stringify(value), date: null };
  return { value: { value: String(value) }, text: String(value), date: null };
}

const TEXT_TYPES = new Set(['SingleLineText', 'MultiLineText', 'Html', 'RichContent', 'TextList']);

/** Recomputes the full-text body (text field values) of a record after its fields changed. */
async function refreshSearchText(db: Queryable, recordId: string) {
  await db.query(
    `UPDATE records SET search_text = coalesce((SELECT string_agg(fv.value_text, ' ') FROM field_values fv
       JOIN field_definitions d ON d.id = fv.field_id WHERE fv.record_id = $1 AND d.data_type = ANY($2::text[])), '') WHERE id = $1`,
    [recordId, [...TEXT_TYPES]],
  );
}

/** Applies a create or partial update inside the caller's transaction. */
export async function writeRecord(db: Queryable, recordId: string, body: RecordBody, userId: number, now: Date, create: boolean, blobs?: BlobStore) {
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
  if (body.aiInfluenced !== undefined) set('ai_influenced', body.aiInfluenced ?? false);
  if (create) {
    await db.query('INSERT INTO records (id, created_on, modified_on, created_by, modified_by) VALUES ($1, $2, $2, $3, $3)', [recordId, now.toISOString(), userId]);
  }
  set('modified_on', now.toISOString());
  set('modified_by', userId);
  params.push(recordId);
  await db.query(`UPDATE records SET ${sets.join(', ')} WHERE id = $${params.length}`, params as never[]);

  if (body.classifications) {
    for (const ref of body.classifications.remove ?? []) {
      await db.query('DELETE FROM record_classifications WHERE record_id = $1 AND classification_id = $2', [recordId, normaliseGuid(refId(ref)) ?? '']);
    }
    for (const item of body.classifications.addOrUpdate ?? []) {
      const id = normaliseGuid(item.id);
      const exists = id && (await db.query('SELECT 1 FROM classifications WHERE id = $1', [id])).length;
      if (!exists) throw errors.noDataFound('classification', item.id);
      await db.query(
        `INSERT INTO record_classifications (record_id, classification_id, sort_index) VALUES ($1, $2, $3)
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
      if (!def) throw errors.noDataFound('field definition', String(id ?? name ?? ''));
      return def;
    };
    for (const ref of body.fields.remove ?? []) {
      const def = findDef(refId(ref), undefined);
      await db.query('DELETE FROM field_values WHERE record_id = $1 AND field_id = $2', [recordId, def.id]);
    }
    for (const item of body.fields.addOrUpdate ?? []) {
      const def = findDef(item.id ?? item.fieldId, item.fieldName ?? item.name);
      for (const lv of item.localizedValues ?? []) {
        const languageId = lv.languageId ? normaliseGuid(lv.languageId) : NEUTRAL_LANGUAGE;
        if (!languageId) throw errors.validation(`'${lv.languageId}' is not a language id.`);
        const language = await db.query('SELECT 1 FROM languages WHERE id = $1', [languageId]);
        if (!language.length) throw errors.noDataFound('language', languageId);
        const stored = await storedValue(db, def, lv);
        const empty = stored.value.value === null || (Array.isArray((stored.value as { values?: unknown[] }).values) && !(stored.value as { values: unknown[] }).values.length);
        if (empty) {
          await db.query('DELETE FROM field_values WHERE record_id = $1 AND field_id = $2 AND language_id = $3', [recordId, def.id, languageId]);
          continue;
        }
        await db.query(
          `INSERT INTO field_values (record_id, field_id, language_id, value, value_text, value_date) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (record_id, field_id, language_id) DO UPDATE SET value = excluded.value, value_text = excluded.value_text, value_date = excluded.value_date`,
          [recordId, def.id, languageId, JSON.stringify(stored.value), stored.text, stored.date],
        );
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
    for (const { blob } of named) if (blob) await blobs.remove(blob);
  },

  /** The versions a write stamped with `now` created (for the rules' hooks). */
  versionsCreatedAt: async (db: Queryable, recordId: string, now: Date) =>
    (await db.query<{ id: string }>('SELECT id FROM file_versions WHERE record_id = $1 AND created_on = $2', [recordId, now.toISOString()])).map((v) => v.id),
};
