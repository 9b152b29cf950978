// The record document: what a person reads and edits (fields by name, classifications by name path), built from
// what the service answers and printed as JSON with a stable key order so two versions diff line by line.

/** A field definition as the core needs it (the api layer maps the service's `fielddefinition` onto this). */
export interface FieldDefinitionInfo {
  id: string;
  name: string;
  label?: string;
  dataType: string;
  isRequired?: boolean;
  isLocalizable?: boolean;
  /** Set by the tenant (`isReadOnly` on the definition): shown under `readOnly.fields`, never sent. */
  isReadOnly?: boolean;
  /** OptionList values. */
  options?: OptionInfo[];
  rootClassificationId?: string | null;
}

export interface OptionInfo {
  id: string;
  name: string;
  label?: string;
}

/** A language of the tenant; the neutral language has the culture ''. */
export interface LanguageInfo {
  id: string;
  culture: string;
  name?: string;
}

/** A classification known by id and name path (`/Products/Shoes`). */
export interface ClassificationRef {
  id: string;
  namePath: string;
}

/** One stored value of a field as the service sends it (`localizedValues[]`). */
export interface WireLocalizedValue {
  languageId?: string | null;
  value?: unknown;
  values?: unknown[] | null;
  children?: unknown[] | null;
}

export interface WireFieldValue {
  id: string;
  fieldName?: string | null;
  dataType?: string | null;
  localizedValues?: WireLocalizedValue[] | null;
}

export interface FileSummary {
  id: string;
  fileName?: string | null;
  versionLabel?: string | null;
  fileSize?: number | null;
  isMaster?: boolean;
}

/** A record as read from the service with fields, classifications and files selected. */
export interface RecordSource {
  id: string;
  title?: string | null;
  status?: string | null;
  contentType?: string | null;
  createdOn?: string | null;
  modifiedOn?: string | null;
  createdBy?: string | null;
  modifiedBy?: string | null;
  fields?: WireFieldValue[];
  classifications?: ClassificationRef[];
  files?: FileSummary[];
}

/** A field's value in the document: scalars as JSON scalars, list types as arrays, localized fields as `{ culture: value }`. */
export type DocumentValue = unknown;

export interface RecordDocument {
  id: string;
  title: string;
  status: string;
  contentType: string;
  /** Name paths (`/Products/Shoes`); an id where the path is not known. */
  classifications: string[];
  /** Editable fields by field name, in the definitions' order. */
  fields: Record<string, DocumentValue>;
  /** Shown, never sent: a change here is a problem. */
  readOnly: {
    createdOn?: string | null;
    modifiedOn?: string | null;
    createdBy?: string | null;
    modifiedBy?: string | null;
    fields?: Record<string, DocumentValue>;
    files?: FileSummary[];
  };
}

export const RECORD_STATUSES = ['Draft', 'Released', 'Archived'] as const;

/** The key of the neutral language in a localized field's map. */
export const NEUTRAL_KEY = 'neutral';
export const NEUTRAL_LANGUAGE = '00000000000000000000000000000000';

/** Data types whose values are a list (`values` on the wire). RecordLink is a list too but travels as `children`. */
export const LIST_TYPES: ReadonlySet<string> = new Set(['OptionList', 'ClassificationList', 'RecordList', 'UserList', 'UserGroupList', 'LanguageList', 'TextList', 'HyperlinkList']);

/**
 * Types the document shows but cannot send, with the reason. RichContent is structured content whose shape the
 * service's specification does not give: writing back what was read could lose parts of it.
 */
export const READ_ONLY_TYPES: Readonly<Record<string, string>> = {
  RichContent: 'RichContent values are structured content the API specification does not describe; they are shown but not sent',
};

/** How people say a field's data type (pickers, prompts): the service's type names are identifiers, not words. */
const DATA_TYPE_WORDS: Readonly<Record<string, string>> = {
  SingleLineText: 'single line of text',
  MultiLineText: 'text of several lines',
  Html: 'HTML text',
  Numeric: 'number',
  Date: 'date',
  DateTime: 'date and time',
  Time: 'time of day',
  Duration: 'duration',
  ClassificationList: 'list of classifications',
  OptionList: 'list of options',
  RecordList: 'list of records',
  RecordLink: 'links to other records',
  UserList: 'list of users',
  UserGroupList: 'list of user groups',
  LanguageList: 'list of languages',
  TextList: 'list of texts',
  HyperlinkList: 'list of web links',
  Json: 'JSON value',
  RichContent: 'rich content',
};

/** A field's data type in words; a type this table does not know is shown as the service names it. */
export function dataTypeWords(dataType: string | null | undefined): string {
  if (!dataType) return 'no data type';
  return DATA_TYPE_WORDS[dataType] ?? DATA_TYPE_WORDS[Object.keys(DATA_TYPE_WORDS).find((k) => k.toLowerCase() === dataType.toLowerCase()) ?? ''] ?? dataType;
}

/** The options an option list's kind names before it says "…" (a picker's line is short). */
const OPTIONS_SHOWN = 3;

/**
 * What a field holds, as a person says it: its kind in words, an option list with its first options by label
 * ("list of options: Draft, Approved, …"), a classification list with the path it is limited to (`rootPath`, the
 * name path of its root classification, when the caller knows it): names, never ids.
 */
export function fieldKindWords(def: Pick<FieldDefinitionInfo, 'dataType' | 'options'>, rootPath?: string): string {
  const words = dataTypeWords(def.dataType);
  if (def.dataType === 'OptionList' && def.options?.length) {
    const names = def.options.slice(0, OPTIONS_SHOWN).map((o) => o.label || o.name);
    return `${words}: ${names.join(', ')}${def.options.length > OPTIONS_SHOWN ? ', …' : ''}`;
  }
  if (def.dataType === 'ClassificationList' && rootPath) return `${words} under ${rootPath}`;
  return words;
}

/** How a field is shown to a person: its label, or its name when it has none. */
export function fieldTitle(def: Pick<FieldDefinitionInfo, 'name' | 'label'>): string {
  return def.label?.trim() || def.name;
}

/**
 * Whether a picker should show a field's name beside its label: only when the label does not already say it (the
 * label "Usage rights" is the name "UsageRights" in words; "Photographer, credit" hides the name "Photographer"), or
 * when another field has the same label.
 */
export function nameHelps(def: Pick<FieldDefinitionInfo, 'name' | 'label'>, all: readonly Pick<FieldDefinitionInfo, 'name' | 'label'>[] = []): boolean {
  const squash = (t: string) => t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  if (squash(fieldTitle(def)) !== squash(def.name)) return true;
  return all.some((other) => other.name !== def.name && fieldTitle(other).toLowerCase() === fieldTitle(def).toLowerCase());
}

/** A field's name as a text shown to a person reads it; names it does not know stay as they are. */
export type FieldLabels = (name: string) => string;

/**
 * Field names as the extension's texts show them (the bulk update's dry run, its report, its undo): the label, with
 * the name after it only where the field picker shows the name too (`nameHelps`, among the fields a person can edit):
 * `Photographer, credit (Photographer)`, but `Usage rights` for UsageRights. The CLI keeps names: its users type them.
 */
export function fieldLabels(definitions: readonly FieldDefinitionInfo[]): FieldLabels {
  const editable = definitions.filter((d) => !readOnlyReason(d));
  const labels = new Map<string, string>();
  for (const d of definitions) labels.set(d.name, nameHelps(d, editable) ? `${fieldTitle(d)} (${d.name})` : fieldTitle(d));
  return (name) => labels.get(name) ?? name;
}

export function isListType(dataType: string): boolean {
  return LIST_TYPES.has(dataType) || dataType === 'RecordLink';
}

/** Why a field cannot be edited, or undefined when it can. */
export function readOnlyReason(def: FieldDefinitionInfo): string | undefined {
  if (def.isReadOnly) return `the field '${def.name}' is read-only on this tenant`;
  return READ_ONLY_TYPES[def.dataType];
}

export const guidKey = (id: string) => id.replace(/-/g, '').toLowerCase();

/** The document key of a language: its culture, `neutral` for the neutral language, else its id. */
export function languageKey(languageId: string | null | undefined, languages: readonly LanguageInfo[]): string {
  if (!languageId || guidKey(languageId) === NEUTRAL_LANGUAGE) return NEUTRAL_KEY;
  const found = languages.find((l) => guidKey(l.id) === guidKey(languageId));
  return found && found.culture ? found.culture : guidKey(languageId);
}

/** A language by culture (`en-US`, any case), `neutral`, or id (dashed or not). */
export function findLanguage(key: string, languages: readonly LanguageInfo[]): LanguageInfo | undefined {
  const k = key.trim().toLowerCase();
  if (k === NEUTRAL_KEY || guidKey(k) === NEUTRAL_LANGUAGE) return languages.find((l) => guidKey(l.id) === NEUTRAL_LANGUAGE) ?? { id: NEUTRAL_LANGUAGE, culture: '' };
  return languages.find((l) => (l.culture && l.culture.toLowerCase() === k) || guidKey(l.id) === guidKey(k));
}

/** An option by id, name or label (names first: a label may repeat another option's name). */
export function findOption(def: FieldDefinitionInfo, text: string): OptionInfo | undefined {
  const t = text.trim().toLowerCase();
  const options = def.options ?? [];
  return (
    options.find((o) => o.name.toLowerCase() === t) ??
    options.find((o) => guidKey(o.id) === guidKey(t)) ??
    options.find((o) => (o.label ?? '').toLowerCase() === t)
  );
}

export function findDefinition(definitions: readonly FieldDefinitionInfo[], nameOrId: string): FieldDefinitionInfo | undefined {
  const k = nameOrId.trim().toLowerCase();
  return definitions.find((d) => d.name.toLowerCase() === k) ?? definitions.find((d) => guidKey(d.id) === guidKey(k)) ?? definitions.find((d) => (d.label ?? '').toLowerCase() === k);
}

/** The document form of one stored value of a field (option ids become names, classification ids paths). */
function documentValueOf(def: FieldDefinitionInfo, lv: WireLocalizedValue, classifications: readonly ClassificationRef[], languages: readonly LanguageInfo[]): DocumentValue {
  const t = def.dataType;
  if (t === 'RecordLink') {
    const children = lv.children ?? lv.values ?? [];
    return children.map((c) => (typeof c === 'object' && c !== null ? String((c as { recordId?: unknown; id?: unknown }).recordId ?? (c as { id?: unknown }).id ?? '') : String(c)));
  }
  if (LIST_TYPES.has(t)) {
    const raw = lv.values ?? (lv.value === undefined || lv.value === null || lv.value === '' ? [] : [lv.value]);
    const idOf = (v: unknown) => (typeof v === 'object' && v !== null ? String((v as { id?: unknown }).id ?? '') : String(v));
    switch (t) {
      case 'OptionList':
        return raw.map((v) => {
          const id = idOf(v);
          return def.options?.find((o) => guidKey(o.id) === guidKey(id))?.name ?? id;
        });
      case 'ClassificationList':
        return raw.map((v) => {
          const id = idOf(v);
          return classifications.find((c) => guidKey(c.id) === guidKey(id))?.namePath ?? id;
        });
      case 'LanguageList':
        return raw.map((v) => languageKey(idOf(v), languages));
      case 'TextList':
      case 'RecordList':
      case 'UserList':
      case 'UserGroupList':
        return raw.map((v) => (typeof v === 'object' && v !== null ? idOf(v) : String(v)));
      default:
        return raw;
    }
  }
  const v = lv.value;
  if (v === undefined || v === null || v === '') return null;
  if (t === 'Date' && typeof v === 'string') return v.slice(0, 10);
  if ((t === 'Numeric' || t === 'Duration') && typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return v;
}

/** The empty value of a field in the document: `[]` for list types, `{}` for a localized field, else null. */
export function emptyValue(def: FieldDefinitionInfo): DocumentValue {
  if (def.isLocalizable) return {};
  return isListType(def.dataType) ? [] : null;
}

/** The document value of one field of a record (every language it has, for a localized field). */
export function fieldDocumentValue(
  def: FieldDefinitionInfo,
  stored: WireFieldValue | undefined,
  classifications: readonly ClassificationRef[],
  languages: readonly LanguageInfo[],
): DocumentValue {
  const lvs = stored?.localizedValues ?? [];
  if (def.isLocalizable) {
    const byLanguage: Record<string, DocumentValue> = {};
    const entries = lvs.map((lv) => [languageKey(lv.languageId, languages), documentValueOf(def, lv, classifications, languages)] as const);
    // Cultures sorted, neutral first: the same record prints the same way whatever order the service chose, and in
    // every process (code points, not the host's locale), so a Compare never shows an order as a difference.
    entries.sort(([a], [b]) => (a === b ? 0 : a === NEUTRAL_KEY ? -1 : b === NEUTRAL_KEY ? 1 : a < b ? -1 : 1));
    for (const [key, value] of entries) byLanguage[key] = value;
    return byLanguage;
  }
  // A field that is not localized holds its value in the neutral language; a tenant may still hold it in another.
  const lv = lvs.find((l) => !l.languageId || guidKey(l.languageId) === NEUTRAL_LANGUAGE) ?? lvs[0];
  return lv ? documentValueOf(def, lv, classifications, languages) : emptyValue(def);
}

/**
 * The document of a record. `classifications` resolves ids to name paths (the record's own classifications and
 * those its ClassificationList fields name); ids it does not know are shown as ids.
 */
export function recordToDocument(
  record: RecordSource,
  definitions: readonly FieldDefinitionInfo[],
  classifications: readonly ClassificationRef[] = [],
  languages: readonly LanguageInfo[] = [],
): RecordDocument {
  const storedById = new Map((record.fields ?? []).map((f) => [guidKey(f.id), f]));
  const fields: Record<string, DocumentValue> = {};
  const readOnlyFields: Record<string, DocumentValue> = {};
  for (const def of definitions) {
    const value = fieldDocumentValue(def, storedById.get(guidKey(def.id)), classifications, languages);
    if (readOnlyReason(def)) readOnlyFields[def.name] = value;
    else fields[def.name] = value;
  }
  const known = new Map(classifications.map((c) => [guidKey(c.id), c.namePath]));
  const readOnly: RecordDocument['readOnly'] = {
    createdOn: record.createdOn ?? null,
    modifiedOn: record.modifiedOn ?? null,
    createdBy: record.createdBy ?? null,
    modifiedBy: record.modifiedBy ?? null,
  };
  if (Object.keys(readOnlyFields).length) readOnly.fields = readOnlyFields;
  readOnly.files = (record.files ?? []).map((f) => ({ ...f }));
  return {
    id: record.id,
    title: record.title ?? '',
    status: record.status ?? 'Draft',
    contentType: record.contentType ?? '',
    classifications: (record.classifications ?? []).map((c) => c.namePath || known.get(guidKey(c.id)) || c.id).sort((a, b) => a.localeCompare(b)),
    fields,
    readOnly,
  };
}

/** Top-level key order of a printed document; any other key keeps its place after these. */
const TOP_ORDER = ['id', 'title', 'status', 'contentType', 'classifications', 'fields', 'readOnly'];

/** JSON with 2-space indent and a stable top-level order, ending with a newline (what an editor saves). */
export function printDocument(doc: RecordDocument): string {
  const ordered: Record<string, unknown> = {};
  for (const key of TOP_ORDER) if (key in doc) ordered[key] = (doc as unknown as Record<string, unknown>)[key];
  for (const [key, value] of Object.entries(doc)) if (!(key in ordered)) ordered[key] = value;
  return `${JSON.stringify(ordered, null, 2)}\n`;
}
