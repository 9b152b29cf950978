// Bulk inserts through unnest() of array parameters: one statement per batch, still fully parameterised.
import type { Queryable } from '../storage/store';

export interface RecordRow {
  id: string;
  title: string;
  status: string;
  contentType: string;
  searchText: string;
  createdOn: string;
  modifiedOn: string;
  createdBy: number;
}

export interface FieldValueRow {
  recordId: string;
  fieldId: string;
  languageId: string;
  value: unknown;
  valueText: string | null;
  valueDate: string | null;
}

export async function insertRecords(db: Queryable, rows: RecordRow[], batch = 2000): Promise<void> {
  for (let i = 0; i < rows.length; i += batch) {
    const part = rows.slice(i, i + batch);
    await db.query(
      `INSERT INTO records (id, title, status, content_type, search_text, created_on, modified_on, created_by, modified_by)
       SELECT id, title, status, ct, st, c::timestamptz, m::timestamptz, cb, cb
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[])
           AS u(id, title, status, ct, st, c, m, cb)`,
      [
        part.map((r) => r.id),
        part.map((r) => r.title),
        part.map((r) => r.status),
        part.map((r) => r.contentType),
        part.map((r) => r.searchText),
        part.map((r) => r.createdOn),
        part.map((r) => r.modifiedOn),
        part.map((r) => r.createdBy),
      ],
    );
  }
}

export async function insertFieldValues(db: Queryable, rows: FieldValueRow[], batch = 2000): Promise<void> {
  for (let i = 0; i < rows.length; i += batch) {
    const part = rows.slice(i, i + batch);
    await db.query(
      `INSERT INTO field_values (record_id, field_id, language_id, value, value_text, value_date)
       SELECT dam_uid(r), dam_uid(f), dam_uid(l), v::jsonb, t, d::timestamptz
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS u(r, f, l, v, t, d)`,
      [
        part.map((r) => r.recordId),
        part.map((r) => r.fieldId),
        part.map((r) => r.languageId),
        part.map((r) => JSON.stringify(r.value)),
        part.map((r) => r.valueText) as string[],
        part.map((r) => r.valueDate) as string[],
      ],
    );
  }
}

export async function insertRecordClassifications(db: Queryable, rows: { recordId: string; classificationId: string }[], batch = 4000) {
  for (let i = 0; i < rows.length; i += batch) {
    const part = rows.slice(i, i + batch);
    await db.query(
      `INSERT INTO record_classifications (record_id, classification_id)
       SELECT dam_uid(r), dam_uid(c) FROM unnest($1::text[], $2::text[]) AS u(r, c) ON CONFLICT DO NOTHING`,
      [part.map((r) => r.recordId), part.map((r) => r.classificationId)],
    );
  }
}
