// Field definitions and field groups: the repository, with the rules a definition follows (a data type that never
// changes, options edited through `items` sections, a field group that exists).
import { errors } from '../errors';
import { normaliseGuid } from '../hal';
import type { Queryable } from '../storage/store';
import { NEUTRAL_LANGUAGE } from './languages';
import { load, type FieldDefinitionRow, type FieldGroupRow } from './model';
import { newGuid } from './records';

interface Label {
  languageId: string;
  value: string;
}

export interface FieldDefinitionFields {
  name?: string | null;
  labels?: Label[] | null;
  dataType?: string | null;
  fieldGroupId?: string | null;
  isRequired?: boolean | null;
  isLocalizable?: boolean | null;
  isReadOnly?: boolean | null;
  defaultValue?: { value?: unknown; values?: unknown[] } | null;
  items?: { addOrUpdate?: { id?: string; name: string; label?: string }[]; remove?: (string | { id: string })[] } | null;
  rootClassificationId?: string | null;
  sortIndex?: number | null;
  /** Other members of the body (validation and display properties): kept as sent, a null removes one. */
  properties?: Record<string, unknown>;
}

/** Members of a definition body the emulator interprets (or derives); any other member is a kept property. */
const DEFINITION_MEMBERS = new Set(
  ['id', 'name', 'label', 'labels', 'dataType', 'fieldGroupId', 'isRequired', 'isReadOnly', 'isLocalizable', 'defaultValue', 'items', 'rootClassificationId', 'rootId', 'memberships', 'sortIndex', 'createdOn', 'modifiedOn', 'createdBy', 'modifiedBy', '_links', '_embedded'].map((m) => m.toLowerCase()),
);

/** The members of a (lenient) body that are kept as properties; at most 64 KB of them. */
export function definitionProperties(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (DEFINITION_MEMBERS.has(key.toLowerCase()) || key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    out[key] = value;
  }
  if (JSON.stringify(out).length > 65_536) throw errors.validation('The field definition carries more than 64 KB of other properties.');
  return out;
}

interface Sections {
  addOrUpdate?: unknown[] | null;
  remove?: unknown[] | null;
}

/** The spec's nested-collection edit (`{ addOrUpdate, remove }`, e.g. `enabledLanguages` as tools write it). */
function isSections(value: unknown): value is Sections {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k === 'addOrUpdate' || k === 'remove') && keys.every((k) => (value as Record<string, unknown>)[k] == null || Array.isArray((value as Record<string, unknown>)[k]));
}

/** Applies sections to a kept list, so the definition answers the list (as a tenant does), not the edit. */
function applySections(current: unknown, sections: Sections): unknown[] {
  const key = (v: unknown) => JSON.stringify(v);
  const removed = new Set((sections.remove ?? []).map(key));
  const out = (Array.isArray(current) ? current : []).filter((v) => !removed.has(key(v)));
  for (const v of sections.addOrUpdate ?? []) if (!out.some((x) => key(x) === key(v))) out.push(v);
  return out;
}

export interface FieldGroupFields {
  name?: string | null;
  labels?: Label[] | null;
  sortIndex?: number | null;
}

/** Collects `column = $n` assignments of a partial update. */
class Assignments {
  readonly sets: string[] = [];
  readonly params: unknown[] = [];
  set(column: string, value: unknown) {
    this.params.push(value);
    this.sets.push(`${column} = $${this.params.length}`);
  }
}

export const fieldDefinitions = {
  list: (db: Queryable) => db.query<FieldDefinitionRow>('SELECT * FROM field_definitions ORDER BY sort_index, name'),

  /** By id or name. */
  async find(db: Queryable, idOrName: string): Promise<FieldDefinitionRow> {
    const guid = normaliseGuid(idOrName);
    const row = guid
      ? (await load.fieldDefinitions(db, [guid]))[0]
      : (await db.query<FieldDefinitionRow>('SELECT * FROM field_definitions WHERE lower(name) = lower($1::text)', [idOrName]))[0];
    if (!row) throw errors.noDataFound('field definition', idOrName.slice(0, 100));
    return row;
  },

  /** Creates (`current` undefined) or changes a definition; call in a transaction. Returns its id. */
  async write(tx: Queryable, fields: FieldDefinitionFields, now: Date, current?: FieldDefinitionRow): Promise<string> {
    const id = current?.id ?? newGuid();
    if (!current) {
      if (!fields.name || !fields.dataType) throw errors.validation('name and dataType are required.');
      await tx.query('INSERT INTO field_definitions (id, name, data_type, labels) VALUES ($1, $2, $3, $4)', [
        id,
        fields.name,
        fields.dataType,
        JSON.stringify(fields.labels ?? [{ languageId: NEUTRAL_LANGUAGE, value: fields.name }]),
      ]);
    } else if (fields.dataType && fields.dataType !== current.data_type) {
      throw errors.validation('The dataType of an existing field definition cannot change.');
    }
    const a = new Assignments();
    if (fields.name !== undefined && current) {
      if (fields.name === null) throw errors.validation('name cannot be reset.');
      a.set('name', fields.name);
    }
    if (fields.labels !== undefined && current) a.set('labels', JSON.stringify(fields.labels ?? []));
    if (fields.fieldGroupId !== undefined) {
      const group = fields.fieldGroupId === null ? null : normaliseGuid(fields.fieldGroupId);
      if (fields.fieldGroupId !== null && (!group || !(await tx.query('SELECT 1 FROM field_groups WHERE id = $1', [group])).length)) {
        throw errors.noDataFound('field group', fields.fieldGroupId);
      }
      a.set('field_group_id', group);
    }
    if (fields.isRequired !== undefined) a.set('is_required', fields.isRequired ?? false);
    if (fields.isLocalizable !== undefined) a.set('is_localizable', fields.isLocalizable ?? false);
    if (fields.isReadOnly !== undefined) a.set('is_read_only', fields.isReadOnly ?? false);
    if (fields.defaultValue !== undefined) a.set('default_value', fields.defaultValue === null ? null : JSON.stringify(fields.defaultValue));
    if (fields.rootClassificationId !== undefined) a.set('root_classification_id', fields.rootClassificationId ? normaliseGuid(fields.rootClassificationId) : null);
    if (fields.sortIndex !== undefined) a.set('sort_index', fields.sortIndex ?? 0);
    if (fields.properties && Object.keys(fields.properties).length) {
      const kept: Record<string, unknown> = { ...(current?.properties ?? {}) };
      for (const [key, value] of Object.entries(fields.properties)) {
        if (value === null) delete kept[key];
        else kept[key] = isSections(value) ? applySections(kept[key], value) : value;
      }
      a.set('properties', JSON.stringify(kept));
    }
    if (fields.items) {
      let options = current?.options ?? [];
      const removed = new Set((fields.items.remove ?? []).map((r) => (typeof r === 'string' ? r : r.id)).map((r) => normaliseGuid(r) ?? r));
      options = options.filter((o) => !removed.has(o.id));
      for (const o of fields.items.addOrUpdate ?? []) {
        const oid = (o.id && normaliseGuid(o.id)) || newGuid();
        const next = { id: oid, name: o.name, label: o.label ?? o.name };
        const at = options.findIndex((x) => x.id === oid);
        if (at >= 0) options[at] = next;
        else options = [...options, next];
      }
      a.set('options', JSON.stringify(options));
    }
    a.set('modified_on', now.toISOString());
    a.params.push(id);
    await tx.query(`UPDATE field_definitions SET ${a.sets.join(', ')} WHERE id = $${a.params.length}`, a.params as never[]);
    return id;
  },

  remove: (db: Queryable, id: string) => db.query('DELETE FROM field_definitions WHERE id = $1', [id]),
};

export const fieldGroups = {
  list: (db: Queryable) => db.query<FieldGroupRow>('SELECT * FROM field_groups ORDER BY sort_index, name'),

  async find(db: Queryable, id: string): Promise<FieldGroupRow> {
    const guid = normaliseGuid(id);
    const row = guid ? (await load.fieldGroups(db, [guid]))[0] : undefined;
    if (!row) throw errors.noDataFound('field group', id.slice(0, 100));
    return row;
  },

  async create(db: Queryable, fields: FieldGroupFields): Promise<string> {
    if (!fields.name) throw errors.validation('name is required.');
    const id = newGuid();
    await db.query('INSERT INTO field_groups (id, name, labels, sort_index) VALUES ($1, $2, $3, $4)', [
      id,
      fields.name,
      JSON.stringify(fields.labels ?? [{ languageId: NEUTRAL_LANGUAGE, value: fields.name }]),
      fields.sortIndex ?? 0,
    ]);
    return id;
  },

  async update(db: Queryable, row: FieldGroupRow, fields: FieldGroupFields, now: Date): Promise<void> {
    if (fields.name === null) throw errors.validation('name cannot be reset.');
    await db.query('UPDATE field_groups SET name = $1, labels = $2, sort_index = $3, modified_on = $4 WHERE id = $5', [
      fields.name ?? row.name,
      JSON.stringify(fields.labels === undefined ? row.labels : (fields.labels ?? [])),
      fields.sortIndex === undefined ? row.sort_index : (fields.sortIndex ?? 0),
      now.toISOString(),
      row.id,
    ]);
  },

  remove: (db: Queryable, id: string) => db.query('DELETE FROM field_groups WHERE id = $1', [id]),
};
