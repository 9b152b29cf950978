// The change set: what one save or one record of a bulk run changes, as a value that can be previewed, summarised
// and turned into the one PUT /record/{id} body that sends only what changed (STYLE.md principle 14).
import {
  NEUTRAL_KEY,
  RECORD_STATUSES,
  findDefinition,
  findLanguage,
  findOption,
  guidKey,
  isListType,
  readOnlyReason,
  type ClassificationRef,
  type DocumentValue,
  type FieldDefinitionInfo,
  type FieldLabels,
  type LanguageInfo,
  type RecordDocument,
} from './model';
import { isEmptyValue } from './validate';

/** One field in one language going from `before` to `after` (document forms; empty = cleared). */
export interface FieldChange {
  field: string;
  fieldId: string;
  dataType: string;
  /** The language's document key (`en-US`, `neutral`) for a localized field; undefined otherwise. */
  language?: string;
  before: DocumentValue;
  after: DocumentValue;
}

export interface ChangeSet {
  recordId: string;
  /** The record's title as read, for messages. */
  recordTitle?: string;
  /** `modifiedOn` of the version the change was computed against. */
  baseModifiedOn?: string | null;
  title?: { before: string; after: string };
  status?: { before: string; after: string };
  fields: FieldChange[];
  /** Name paths or ids. */
  addClassifications: string[];
  removeClassifications: string[];
}

export function emptyChangeSet(recordId: string, recordTitle?: string, baseModifiedOn?: string | null): ChangeSet {
  return { recordId, recordTitle, baseModifiedOn, fields: [], addClassifications: [], removeClassifications: [] };
}

export function isEmptyChangeSet(cs: ChangeSet): boolean {
  return !cs.title && !cs.status && !cs.fields.length && !cs.addClassifications.length && !cs.removeClassifications.length;
}

const show = (v: DocumentValue) => (isEmptyValue(v) ? '(empty)' : typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v));

/**
 * One line per change, as a person reads it: `UsageRights: ["Internal"] → ["Public"]`; with `label` (see
 * `fieldLabels`) each field as the extension shows it: `Usage rights: ["Internal"] → ["Public"]`.
 */
export function describeChanges(cs: ChangeSet, label: FieldLabels = (name) => name): string[] {
  const lines: string[] = [];
  if (cs.title) lines.push(`title: ${show(cs.title.before)} → ${show(cs.title.after)}`);
  if (cs.status) lines.push(`status: ${cs.status.before} → ${cs.status.after}`);
  for (const f of cs.fields) lines.push(`${label(f.field)}${f.language ? ` [${f.language}]` : ''}: ${show(f.before)} → ${isEmptyValue(f.after) ? '(cleared)' : show(f.after)}`);
  for (const c of cs.addClassifications) lines.push(`classification + ${c}`);
  for (const c of cs.removeClassifications) lines.push(`classification − ${c}`);
  return lines;
}

/** A short summary of a change set: `2 fields, status, 1 classification added`. */
export function summarizeChangeSet(cs: ChangeSet): string {
  const parts: string[] = [];
  if (cs.title) parts.push('title');
  if (cs.status) parts.push(`status → ${cs.status.after}`);
  if (cs.fields.length) parts.push(`${cs.fields.length} field value${cs.fields.length === 1 ? '' : 's'}`);
  if (cs.addClassifications.length) parts.push(`${cs.addClassifications.length} classification${cs.addClassifications.length === 1 ? '' : 's'} added`);
  if (cs.removeClassifications.length) parts.push(`${cs.removeClassifications.length} classification${cs.removeClassifications.length === 1 ? '' : 's'} removed`);
  return parts.length ? parts.join(', ') : 'no change';
}

/**
 * The value in the form the diff compares: option labels and ids become names, list order kept, '' and [] are empty.
 * Two spellings of the same value are then no change.
 */
export function canonicalValue(def: FieldDefinitionInfo, value: DocumentValue): DocumentValue {
  if (isEmptyValue(value)) return isListType(def.dataType) ? [] : null;
  if (def.dataType === 'OptionList' && Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? (findOption(def, v)?.name ?? v) : v));
  if ((def.dataType === 'RecordList' || def.dataType === 'RecordLink') && Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? guidKey(v) : v));
  // `…T10:30:00Z` typed over the service's `…T10:30:00.000Z` is the same instant.
  if (def.dataType === 'DateTime' && typeof value === 'string' && !Number.isNaN(Date.parse(value))) return new Date(value).toISOString();
  return value;
}

function languageMap(value: DocumentValue): Record<string, DocumentValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, DocumentValue>) : {};
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The changes of one field between two document values (one per language for a localized field). */
export function diffField(def: FieldDefinitionInfo, before: DocumentValue, after: DocumentValue): FieldChange[] {
  const base = { field: def.name, fieldId: def.id, dataType: def.dataType };
  if (!def.isLocalizable) {
    const a = canonicalValue(def, before);
    const b = canonicalValue(def, after);
    return same(a, b) ? [] : [{ ...base, before: a, after: b }];
  }
  const was = languageMap(before);
  const now = after === null ? {} : languageMap(after);
  const out: FieldChange[] = [];
  for (const key of new Set([...Object.keys(was), ...Object.keys(now)])) {
    const a = canonicalValue(def, was[key]);
    // A language left out of the map after the edit is cleared, as an emptied one is.
    const b = canonicalValue(def, now[key]);
    if (!same(a, b)) out.push({ ...base, language: key, before: a, after: b });
  }
  return out;
}

/**
 * What changed from `before` to `after`: title, status, field values (fields missing from `after.fields` are left
 * alone), classifications added and removed. The read-only section, `id` and `contentType` are never part of it.
 */
export function diffDocuments(before: RecordDocument, after: RecordDocument, definitions: readonly FieldDefinitionInfo[]): ChangeSet {
  const cs = emptyChangeSet(before.id, before.title, before.readOnly?.modifiedOn);
  if (after.title !== before.title) cs.title = { before: before.title, after: after.title };
  const status = RECORD_STATUSES.find((s) => s.toLowerCase() === String(after.status).toLowerCase()) ?? after.status;
  if (status !== before.status) cs.status = { before: before.status, after: status };
  for (const [name, value] of Object.entries(after.fields)) {
    const def = findDefinition(definitions, name);
    if (!def || readOnlyReason(def)) continue;
    cs.fields.push(...diffField(def, before.fields[def.name], value));
  }
  const had = new Set(before.classifications);
  const has = new Set(after.classifications);
  cs.addClassifications = [...has].filter((c) => !had.has(c));
  cs.removeClassifications = [...had].filter((c) => !has.has(c));
  return cs;
}

/** Resolves what a change set names to the ids the service takes. */
export interface WireResolver {
  languages: readonly LanguageInfo[];
  /** A classification's id by name path or id; undefined when there is none. */
  classificationId(pathOrId: string): string | undefined;
}

/** The wire form of one value in one language: `value`, `values` (list types) or `children` (RecordLink); empty clears. */
function wireValue(def: FieldDefinitionInfo, value: DocumentValue, resolver: WireResolver): Record<string, unknown> {
  const t = def.dataType;
  const list = Array.isArray(value) ? value : [];
  if (t === 'RecordLink') return { children: list.map((id) => ({ recordId: guidKey(String(id)) })) };
  if (isListType(t)) {
    const values = list.map((v) => {
      if (typeof v !== 'string') return v;
      if (t === 'OptionList') return findOption(def, v)?.id ?? v;
      if (t === 'ClassificationList') return resolver.classificationId(v) ?? v;
      if (t === 'LanguageList') return findLanguage(v, resolver.languages)?.id ?? v;
      if (t === 'RecordList') return guidKey(v);
      return v;
    });
    // Clearing sends `value: ""` with `values: []`, as public clients do (real-service-notes).
    return values.length ? { values } : { value: '', values: [] };
  }
  if (isEmptyValue(value)) return { value: '', values: [] };
  return { value };
}

export interface UpdateBody {
  title?: string;
  status?: string;
  fields?: { addOrUpdate: { id: string; localizedValues: Record<string, unknown>[] }[] };
  classifications?: { addOrUpdate?: { id: string }[]; remove?: { id: string }[] };
}

/**
 * The one `PUT /record/{id}` body of a change set: fields by id with `localizedValues`, classifications as
 * `addOrUpdate`/`remove`, status and title only when they changed. Names the resolver cannot turn into ids are
 * returned as problems (and the body is then not to be sent).
 */
export function changeSetToBody(cs: ChangeSet, definitions: readonly FieldDefinitionInfo[], resolver: WireResolver): { body: UpdateBody; problems: string[] } {
  const body: UpdateBody = {};
  const problems: string[] = [];
  if (cs.title) body.title = cs.title.after;
  if (cs.status) body.status = cs.status.after;
  const byField = new Map<string, Record<string, unknown>[]>();
  for (const change of cs.fields) {
    const def = definitions.find((d) => d.id === change.fieldId) ?? findDefinition(definitions, change.field);
    if (!def) {
      problems.push(`There is no field '${change.field}'.`);
      continue;
    }
    const language = findLanguage(change.language ?? NEUTRAL_KEY, resolver.languages);
    if (!language) {
      problems.push(`'${change.language}' is not a language of this tenant (the field '${def.name}').`);
      continue;
    }
    if (def.dataType === 'ClassificationList' && Array.isArray(change.after)) {
      for (const v of change.after) if (typeof v === 'string' && !resolver.classificationId(v)) problems.push(`There is no classification '${v}' (the field '${def.name}').`);
    }
    const list = byField.get(def.id) ?? [];
    list.push({ languageId: language.id, ...wireValue(def, change.after, resolver) });
    byField.set(def.id, list);
  }
  if (byField.size) body.fields = { addOrUpdate: [...byField].map(([id, localizedValues]) => ({ id, localizedValues })) };
  const ids = (names: string[]) =>
    names.map((n) => {
      const id = resolver.classificationId(n);
      if (!id) problems.push(`There is no classification '${n}'.`);
      return { id: id ?? n };
    });
  if (cs.addClassifications.length || cs.removeClassifications.length) {
    body.classifications = {};
    if (cs.addClassifications.length) body.classifications.addOrUpdate = ids(cs.addClassifications);
    if (cs.removeClassifications.length) body.classifications.remove = ids(cs.removeClassifications);
  }
  return { body, problems };
}

/** A resolver over a list of known classifications (what the api layer looked up). */
export function resolverOf(languages: readonly LanguageInfo[], classifications: readonly ClassificationRef[]): WireResolver {
  return {
    languages,
    classificationId: (pathOrId) => classifications.find((c) => c.namePath === pathOrId || guidKey(c.id) === guidKey(pathOrId))?.id,
  };
}
