// Loaders and HAL resource types of the core resources (record, field, classification, user, …).
import { groupGuid, userGuid } from '../../core/contract';
import { defineType, normaliseGuid, type Json, type RenderContext } from '../hal';
import { collectionRecords } from './configurationObjects';
import type { Queryable } from '../storage/store';
import { NEUTRAL_LANGUAGE } from './languages';
import { loadFiles, masterFile, masterLatestVersion, recordImage } from './files';

export const core = (rc: RenderContext) => `${rc.origin}/api/core`;
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export interface RecordRow {
  id: string;
  title: string;
  status: string;
  content_type: string;
  tag: string | null;
  text_content: string | null;
  has_image_overlay: boolean;
  ai_influenced: string;
  file_count: number;
  created_on: Date;
  modified_on: Date;
  created_by: number;
  modified_by: number;
}

export interface ClassificationRow {
  id: string;
  identifier: string;
  name: string;
  parent_id: string | null;
  sort_index: number;
  sort_order: string;
  labels: { languageId: string; value: string }[];
  name_path: string;
  label_path: string;
  has_children: boolean;
  created_on: Date;
  modified_on: Date;
  created_by: number | null;
  modified_by: number | null;
}

export interface UserRow {
  id: number;
  login: string;
  first_name: string;
  last_name: string;
  email: string;
  is_admin: boolean;
  active: boolean;
  language_id: string;
  created_on: Date;
  modified_on: Date;
}

export interface FieldDefinitionRow {
  id: string;
  name: string;
  labels: { languageId: string; value: string }[];
  data_type: string;
  field_group_id: string | null;
  is_required: boolean;
  is_localizable: boolean;
  is_read_only: boolean;
  default_value: { value?: unknown; values?: unknown[] } | null;
  options: { id: string; name: string; label: string }[];
  root_classification_id: string | null;
  sort_index: number;
  /** Properties the emulator keeps for the tenant without interpreting them (validation, display). */
  properties: Record<string, unknown>;
  created_on: Date;
  modified_on: Date;
}

export interface FieldGroupRow {
  id: string;
  name: string;
  labels: { languageId: string; value: string }[];
  sort_index: number;
}

/** A record's value of one field: the definition plus the stored localized values. */
export interface FieldValueRow {
  recordId: string;
  definition: FieldDefinitionRow;
  values: { languageId: string; value: { value?: unknown; values?: unknown[]; children?: unknown[] } }[];
  isDefault: boolean;
}

/** A RecordRow's columns: not `*`, which brings the stored full-text vector and search text (half a row) to every read. */
const RECORD_COLUMNS = 'id, title, status, content_type, tag, text_content, has_image_overlay, ai_influenced, file_count, created_on, modified_on, created_by, modified_by';

const CLASSIFICATION_COLUMNS = `c.id, c.identifier, c.name, c.parent_id, c.sort_index, c.sort_order, c.labels, c.name_path, c.label_path,
  EXISTS (SELECT 1 FROM classifications k WHERE k.parent_id = c.id) AS has_children, c.created_on, c.modified_on, c.created_by, c.modified_by`;

/** Loads rows by id, keeping the order of `ids`. */
async function byIds<T extends { id: string | number }>(db: Queryable, sql: string, ids: (string | number)[]): Promise<T[]> {
  if (!ids.length) return [];
  const rows = await db.query<T>(sql, [ids.map(String)]);
  const map = new Map(rows.map((r) => [String(r.id), r]));
  return ids.map((id) => map.get(String(id))).filter((r): r is T => r !== undefined);
}

export const load = {
  records: (db: Queryable, ids: string[]) => byIds<RecordRow>(db, `SELECT ${RECORD_COLUMNS} FROM records WHERE id = ANY($1::text[])`, ids),
  classifications: (db: Queryable, ids: string[]) =>
    byIds<ClassificationRow>(db, `SELECT ${CLASSIFICATION_COLUMNS} FROM classifications c WHERE c.id = ANY($1::text[])`, ids),
  classificationsWhere: (db: Queryable, where: string, params: unknown[], order = 'c.sort_index, c.name') =>
    db.query<ClassificationRow>(`SELECT ${CLASSIFICATION_COLUMNS} FROM classifications c WHERE ${where} ORDER BY ${order}`, params as never[]),
  users: (db: Queryable, ids: number[]) => byIds<UserRow>(db, 'SELECT * FROM users WHERE id::text = ANY($1::text[])', ids),
  fieldDefinitions: (db: Queryable, ids: string[]) => byIds<FieldDefinitionRow>(db, 'SELECT * FROM field_definitions WHERE id = ANY($1::text[])', ids),
  fieldGroups: (db: Queryable, ids: string[]) => byIds<FieldGroupRow>(db, 'SELECT * FROM field_groups WHERE id = ANY($1::text[])', ids),
};

async function memo<T>(rc: RenderContext, key: string, fn: () => Promise<T>): Promise<T> {
  if (rc.memo.has(key)) return rc.memo.get(key) as T;
  const value = await fn();
  rc.memo.set(key, value);
  return value;
}

export async function oneUser(rc: RenderContext, id: number | null): Promise<UserRow | null> {
  if (id === null) return null;
  return memo(rc, `user:${id}`, async () => (await load.users(rc.ctx.store, [id]))[0] ?? null);
}

/** Which language ids a request shows: the `languages` header, else the neutral language and the caller's. */
export function languageFilter(rc: RenderContext): (languageId: string) => boolean {
  if (rc.languages === '*') return () => true;
  if (rc.languages) {
    const wanted = new Set(rc.languages);
    return (id) => wanted.has(id) || id === NEUTRAL_LANGUAGE;
  }
  return () => true;
}

function labelsFor(rc: RenderContext, labels: { languageId: string; value: string }[]) {
  const keep = languageFilter(rc);
  return labels.filter((l) => keep(l.languageId));
}

/** Field values of records, honouring `select-record-fields`, `-fieldgroups` and `select-resolve-default-values`. */
export async function loadFieldValues(rc: RenderContext, recordId: string): Promise<FieldValueRow[]> {
  const db = rc.ctx.store;
  const defs = await memo(rc, 'fielddefs', () => db.query<FieldDefinitionRow>('SELECT * FROM field_definitions ORDER BY sort_index, name'));
  const groups = await memo(rc, 'fieldgroups', () => db.query<FieldGroupRow>('SELECT * FROM field_groups'));
  const stored = await db.query<{ field_id: string; language_id: string; value: { value?: unknown; values?: unknown[] } }>(
    // The keys are uuids here (migration 014): the field's text id by its definition, the language's as 32 hex digits.
    `SELECT d.id AS field_id, replace(fv.language_id::text, '-', '') AS language_id, fv.value
       FROM field_values fv JOIN field_definitions d ON d.uid = fv.field_id WHERE fv.record_id = dam_uid($1)`,
    [recordId],
  );
  const onlyFields = rc.fieldSelection?.fields;
  const onlyGroups = rc.fieldSelection?.groups;
  const wantedDef = (d: FieldDefinitionRow) => {
    const label = d.labels[0]?.value ?? '';
    const matches = (list: string[], ...keys: string[]) => list.some((k) => keys.some((key) => key.toLowerCase() === k.toLowerCase() || normaliseGuid(k) === key));
    if (onlyFields && !matches(onlyFields, d.id, d.name, label)) return false;
    if (onlyGroups) {
      const group = groups.find((g) => g.id === d.field_group_id);
      if (!group || !matches(onlyGroups, group.id, group.name, group.labels[0]?.value ?? '')) return false;
    }
    return true;
  };
  const keepLanguage = languageFilter(rc);
  const resolveDefaults = rc.resolveDefaults;
  const out: FieldValueRow[] = [];
  for (const def of defs) {
    if (!wantedDef(def)) continue;
    const values = stored.filter((s) => s.field_id === def.id && keepLanguage(s.language_id)).map((s) => ({ languageId: s.language_id, value: s.value }));
    if (values.length) out.push({ recordId, definition: def, values, isDefault: false });
    else if (resolveDefaults && def.default_value) {
      out.push({ recordId, definition: def, values: [{ languageId: NEUTRAL_LANGUAGE, value: def.default_value }], isDefault: true });
    }
  }
  return out;
}

export const recordType = defineType<RecordRow>({
  name: 'record',
  self: (r, rc) => `${core(rc)}/record/${r.id}`,
  attributes: (r) => ({
    id: r.id,
    title: r.title,
    status: r.status,
    contentType: r.content_type,
    createdOn: iso(r.created_on),
    modifiedOn: iso(r.modified_on),
    tag: r.tag,
  }),
  optional: {
    textContent: (r) => r.text_content,
    hasImageOverlay: (r) => r.has_image_overlay,
    aiInfluenced: (r) => r.ai_influenced,
    fileCount: (r) => r.file_count,
  },
  relations: [
    { key: 'fields', type: 'field', many: true, href: (r, rc) => `${core(rc)}/record/${r.id}/fields`, load: (r, rc) => loadFieldValues(rc, r.id) },
    { key: 'files', type: 'file', many: true, href: (r, rc) => `${core(rc)}/record/${r.id}/files`, load: (r, rc) => loadFiles.ofRecord(rc.ctx.store, r.id) },
    { key: 'preview', type: 'image', many: false, href: (r, rc) => `${core(rc)}/record/${r.id}/preview`, load: (r, rc) => recordImage(rc, r.id, 'preview') },
    { key: 'thumbnail', type: 'image', many: false, href: (r, rc) => `${core(rc)}/record/${r.id}/thumbnail`, load: (r, rc) => recordImage(rc, r.id, 'thumbnail') },
    { key: 'masterfile', type: 'file', many: false, href: (r, rc) => `${core(rc)}/record/${r.id}/masterfile`, load: (r, rc) => masterFile(rc, r.id) },
    {
      key: 'masterfilelatestversion',
      type: 'fileversion',
      many: false,
      href: (r, rc) => `${core(rc)}/record/${r.id}/masterfilelatestversion`,
      load: (r, rc) => masterLatestVersion(rc, r.id),
    },
    {
      key: 'classifications',
      type: 'classification',
      many: true,
      href: (r, rc) => `${core(rc)}/record/${r.id}/classifications`,
      load: async (r, rc) =>
        load.classificationsWhere(rc.ctx.store, 'c.uid IN (SELECT classification_id FROM record_classifications WHERE record_id = dam_uid($1))', [r.id], 'c.name_path'),
    },
    { key: 'permissions', type: 'permission', many: true, href: (r, rc) => `${core(rc)}/record/${r.id}/permissions`, load: async () => [] },
    { key: 'collections', type: 'collection', many: true, href: (r, rc) => `${core(rc)}/record/${r.id}/collections`, load: (r, rc) => collectionRecords.ofRecord(rc.ctx.store, r.id) },
    { key: 'createdby', type: 'user', many: false, href: (r, rc) => `${core(rc)}/user/${userGuid(r.created_by)}`, load: (r, rc) => oneUser(rc, r.created_by) },
    { key: 'modifiedby', type: 'user', many: false, href: (r, rc) => `${core(rc)}/user/${userGuid(r.modified_by)}`, load: (r, rc) => oneUser(rc, r.modified_by) },
  ],
});

/** The wire form of one stored value: scalars as `value`, list types as `values`. */
function localizedValue(languageId: string, value: { value?: unknown; values?: unknown[]; children?: unknown[] }): Json {
  if (Array.isArray(value.children)) return { languageId, children: value.children as Json[] };
  if (Array.isArray(value.values)) return { languageId, values: value.values };
  return { languageId, value: value.value ?? null };
}

export const fieldType = defineType<FieldValueRow>({
  name: 'field',
  self: (f, rc) => `${core(rc)}/record/${f.recordId}/field/${f.definition.id}`,
  attributes: (f, rc) => ({
    id: f.definition.id,
    fieldName: f.definition.name,
    label: labelsFor(rc, f.definition.labels)[0]?.value ?? f.definition.labels[0]?.value ?? f.definition.name,
    dataType: f.definition.data_type,
    localizedValues: f.values.map((v) => localizedValue(v.languageId, v.value)),
  }),
  relations: [
    {
      key: 'definition',
      type: 'fielddefinition',
      many: false,
      href: (f, rc) => `${core(rc)}/fielddefinition/${f.definition.id}`,
      load: async (f) => f.definition,
    },
  ],
});

const EMPTY_GUID = '00000000000000000000000000000000';

/** A new definition's members on a tenant (public SDK models: aprimo-js BaseFieldDefinition, the .NET config tools). */
const DEFINITION_DEFAULTS = {
  scope: 'RecordContentGlobal',
  scopeCategory: 'Record',
  indexed: true,
  isUniqueIdentifier: false,
  languageMode: 'Normal',
  enabledLanguages: [],
  resetToDefaultTriggers: [],
  resetToDefaultFields: [],
  validation: '',
  validationErrorMessage: '',
  validationTrigger: 'Always',
  storageMode: 'LogChanges',
  searchIndexRebuildRequired: false,
  helpText: '',
  helpTexts: [],
  inlineStyle: '',
  tag: null,
} as const;

const CLASSIFICATION_LIST_DEFAULTS = {
  filter: '',
  acceptMultipleOptions: true,
  linkRecordToSelectedClassifications: false,
  restrictValuesToLeafNodes: false,
  defaultSelectionDisplayMode: 'Browse',
} as const;

export const fieldDefinitionType = defineType<FieldDefinitionRow>({
  name: 'fielddefinition',
  self: (d, rc) => `${core(rc)}/fielddefinition/${d.id}`,
  attributes: (d, rc) => ({
    // Every member a definition carries on a tenant, with the value a new definition has there: clients read them all
    // (workbook exporters through `dynamic`, SDKs into typed models), and an absent member breaks them where a value
    // does not. Kept properties (sent on create or update) override these.
    ...DEFINITION_DEFAULTS,
    memberships: d.field_group_id ? [d.field_group_id] : [],
    ...(d.data_type === 'ClassificationList' ? CLASSIFICATION_LIST_DEFAULTS : {}),
    ...(d.properties ?? {}),
    id: d.id,
    name: d.name,
    label: d.labels[0]?.value ?? d.name,
    labels: labelsFor(rc, d.labels),
    dataType: d.data_type,
    fieldGroupId: d.field_group_id,
    isRequired: d.is_required,
    isLocalizable: d.is_localizable,
    isReadOnly: d.is_read_only,
    defaultValue: d.default_value,
    sortIndex: d.sort_index,
    createdOn: iso(d.created_on),
    modifiedOn: iso(d.modified_on),
    ...(d.data_type === 'OptionList' ? { items: d.options.map((o, i) => ({ id: o.id, name: o.name, label: o.label, sortIndex: i })) } : {}),
    // `rootId` is the tenant's name (the empty GUID when no root is set); `rootClassificationId` stays for older callers.
    ...(d.data_type === 'ClassificationList' ? { rootClassificationId: d.root_classification_id, rootId: d.root_classification_id ?? EMPTY_GUID } : {}),
  }),
  relations: [
    {
      key: 'fieldgroup',
      type: 'fieldgroup',
      many: false,
      href: (d, rc) => `${core(rc)}/fieldgroup/${d.field_group_id ?? 'none'}`,
      load: async (d, rc) => (d.field_group_id ? ((await load.fieldGroups(rc.ctx.store, [d.field_group_id]))[0] ?? null) : null),
    },
  ],
});

export const fieldGroupType = defineType<FieldGroupRow>({
  name: 'fieldgroup',
  self: (g, rc) => `${core(rc)}/fieldgroup/${g.id}`,
  attributes: (g, rc) => ({ id: g.id, name: g.name, label: g.labels[0]?.value ?? g.name, labels: labelsFor(rc, g.labels), sortIndex: g.sort_index }),
  relations: [
    {
      key: 'fields',
      type: 'fielddefinition',
      many: true,
      href: (g, rc) => `${core(rc)}/fielddefinitions?filter=${encodeURIComponent(`FieldGroupId = ${g.id}`)}`,
      load: (g, rc) => rc.ctx.store.query<FieldDefinitionRow>('SELECT * FROM field_definitions WHERE field_group_id = $1 ORDER BY sort_index', [g.id]),
    },
    // The SDK's name for the same list (FieldGroup `members`), which an admin tool embeds to find a field's groups.
    {
      key: 'members',
      type: 'fielddefinition',
      many: true,
      href: (g, rc) => `${core(rc)}/fieldgroup/${g.id}/members`,
      load: (g, rc) => rc.ctx.store.query<FieldDefinitionRow>('SELECT * FROM field_definitions WHERE field_group_id = $1 ORDER BY sort_index', [g.id]),
    },
  ],
});

export const classificationType = defineType<ClassificationRow>({
  name: 'classification',
  self: (c, rc) => `${core(rc)}/classification/${c.id}`,
  attributes: (c, rc) => ({
    id: c.id,
    identifier: c.identifier,
    name: c.name,
    namePath: c.name_path,
    labelPath: c.label_path,
    labels: labelsFor(rc, c.labels),
    parentId: c.parent_id,
    isRoot: c.parent_id === null,
    hasChildren: c.has_children,
    sortIndex: c.sort_index,
    sortOrder: c.sort_order,
    // No field or field group is registered on a classification here; the members are there (empty) because typed
    // and dynamic clients read them (aprimo-js Classification, the configuration workbook).
    registeredFieldGroups: [],
    registeredFields: [],
    disabledInDAMUI: false,
    createdOn: iso(c.created_on),
    modifiedOn: iso(c.modified_on),
  }),
  relations: [
    {
      key: 'parent',
      type: 'classification',
      many: false,
      href: (c, rc) => `${core(rc)}/classification/${c.id}/parent`,
      load: async (c, rc) => (c.parent_id ? ((await load.classifications(rc.ctx.store, [c.parent_id]))[0] ?? null) : null),
    },
    {
      key: 'ancestors',
      type: 'classification',
      many: true,
      href: (c, rc) => `${core(rc)}/classification/${c.id}/ancestors`,
      load: (c, rc) => ancestors(rc.ctx.store, c.id),
    },
    {
      key: 'children',
      type: 'classification',
      many: true,
      href: (c, rc) => `${core(rc)}/classification/${c.id}/children`,
      load: (c, rc) => load.classificationsWhere(rc.ctx.store, 'c.parent_id = $1', [c.id]),
    },
    { key: 'fields', type: 'field', many: true, href: (c, rc) => `${core(rc)}/classification/${c.id}/fields`, load: async () => [] },
    { key: 'createdby', type: 'user', many: false, href: (c, rc) => `${core(rc)}/user/${userGuid(c.created_by ?? 0)}`, load: (c, rc) => oneUser(rc, c.created_by) },
    { key: 'modifiedby', type: 'user', many: false, href: (c, rc) => `${core(rc)}/user/${userGuid(c.modified_by ?? 0)}`, load: (c, rc) => oneUser(rc, c.modified_by) },
  ],
});

/** Ancestors from the root down to the parent. */
export async function ancestors(db: Queryable, id: string): Promise<ClassificationRow[]> {
  const ids = await db.query<{ id: string; depth: number }>(
    `WITH RECURSIVE up(id, parent_id, depth) AS (
       SELECT id, parent_id, 0 FROM classifications WHERE id = $1
       UNION ALL SELECT c.id, c.parent_id, up.depth + 1 FROM classifications c JOIN up ON c.id = up.parent_id WHERE up.depth < 100)
     SELECT id, depth FROM up WHERE depth > 0 ORDER BY depth DESC`,
    [id],
  );
  return load.classifications(
    db,
    ids.map((r) => r.id),
  );
}

export const userType = defineType<UserRow>({
  name: 'user',
  self: (u, rc) => `${core(rc)}/user/${userGuid(u.id)}`,
  // The content API names a user by GUID; the work-management API and analytics keep the integer (contract).
  attributes: (u) => ({
    id: userGuid(u.id),
    login: u.login,
    name: `${u.first_name} ${u.last_name}`.trim(),
    firstName: u.first_name,
    lastName: u.last_name,
    email: u.email,
    isActive: u.active,
    isSystemAdministrator: u.is_admin,
    languageId: u.language_id,
    createdOn: iso(u.created_on),
    modifiedOn: iso(u.modified_on),
  }),
  relations: [
    {
      key: 'usergroups',
      type: 'usergroup',
      many: true,
      href: (u, rc) => `${core(rc)}/user/${userGuid(u.id)}/usergroups`,
      load: (u, rc) =>
        rc.ctx.store.query('SELECT g.* FROM user_groups g JOIN user_group_members m ON m.group_id = g.id WHERE m.user_id = $1 ORDER BY g.id', [u.id]),
    },
  ],
});

export interface UserGroupRow {
  id: number;
  name: string;
  created_on: Date;
  modified_on: Date;
}

export const userGroupType = defineType<UserGroupRow>({
  name: 'usergroup',
  self: (g, rc) => `${core(rc)}/usergroup/${groupGuid(g.id)}`,
  attributes: (g) => ({ id: groupGuid(g.id), name: g.name, createdOn: iso(g.created_on), modifiedOn: iso(g.modified_on) }),
  relations: [
    {
      key: 'members',
      type: 'user',
      many: true,
      href: (g, rc) => `${core(rc)}/usergroup/${groupGuid(g.id)}/members`,
      load: (g, rc) => rc.ctx.store.query('SELECT u.* FROM users u JOIN user_group_members m ON m.user_id = u.id WHERE m.group_id = $1 ORDER BY u.id', [g.id]),
    },
  ],
});
