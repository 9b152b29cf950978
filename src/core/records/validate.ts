// Checking a record document against the tenant's field definitions before anything is sent: data type, required,
// read-only, option values (by name, label or id), languages, record links, numbers and dates.
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
  type LanguageInfo,
  type RecordDocument,
} from './model';
import { RecordProblemCodes as C, locatorOf, place, problem, type JsonPath, type Problem } from './problems';

export interface ValidationContext {
  /** The tenant's languages: culture keys of localized fields and LanguageList values are checked against them. */
  languages?: readonly LanguageInfo[];
  /** Known classifications: when given, a name path or id not among them is a problem. */
  classifications?: readonly ClassificationRef[];
  /** The document as it was read: a change to `id`, `contentType` or the read-only section is then a problem. */
  before?: RecordDocument;
}

const GUID = /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,7})?)?$/;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function isGuid(text: string): boolean {
  return GUID.test(text);
}

/** Whether a document value holds nothing (null, '', [], or a language map of empty values). */
export function isEmptyValue(value: DocumentValue): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (isObject(value)) return Object.values(value).every(isEmptyValue);
  return false;
}

function validDate(text: string, dataType: string): boolean {
  if (dataType === 'Time') return TIME.test(text);
  if (dataType === 'Date') return DATE.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);
  return /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(text) && !Number.isNaN(Date.parse(text));
}

/** Whether YYYY-MM-DD names a day of the calendar (Date.UTC rolls 2026-02-29 over to March; a real day survives). */
function realDay(text: string): boolean {
  const [y, m, d] = text.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const DATE_HINT: Record<string, string> = { Date: 'a date (YYYY-MM-DD)', DateTime: 'a date and time (ISO 8601, e.g. 2025-03-01T12:00:00Z)', Time: 'a time (HH:MM or HH:MM:SS)' };

/** Problems of one value of a field in one language (not localized maps: see checkFieldValue). */
function checkSingle(def: FieldDefinitionInfo, value: DocumentValue, path: JsonPath, context: ValidationContext): Problem[] {
  const name = def.name;
  const wrong = (what: string) => [problem(C.WrongType, `The field '${name}' (${def.dataType}) needs ${what}.`, path, name)];
  if (value === null || value === undefined) return [];
  const t = def.dataType;
  if (isListType(t)) {
    if (!Array.isArray(value)) return wrong('a list ([…])');
    const out: Problem[] = [];
    value.forEach((item, i) => {
      const at = [...path, i];
      const text = typeof item === 'string' ? item : typeof item === 'number' ? String(item) : undefined;
      if (t === 'HyperlinkList') {
        if (typeof item !== 'string' && !(isObject(item) && typeof item.url === 'string')) out.push(problem(C.WrongType, `Items of '${name}' are URLs or { "url": …, "displayText": … }.`, at, name));
        return;
      }
      if ((t === 'UserList' || t === 'UserGroupList') && text !== undefined) return;
      if (typeof item !== 'string') {
        out.push(problem(C.WrongType, `Items of '${name}' (${t}) are strings.`, at, name));
        return;
      }
      if (t === 'OptionList' && !findOption(def, item)) {
        const names = (def.options ?? []).map((o) => o.name).join(', ');
        out.push(problem(C.NotAnOption, `'${item}' is not an option of '${name}'${names ? ` (options: ${names})` : ''}.`, at, name));
      }
      if ((t === 'RecordList' || t === 'RecordLink') && !isGuid(item)) out.push(problem(C.BadRecordId, `Items of '${name}' are record ids (32 hex digits); '${item}' is not one.`, at, name));
      if (t === 'LanguageList' && context.languages && !findLanguage(item, context.languages)) {
        out.push(problem(C.UnknownLanguage, `'${item}' is not a language of this tenant.`, at, name));
      }
      if (t === 'ClassificationList') out.push(...checkClassification(item, at, context, name));
    });
    return out;
  }
  switch (t) {
    case 'Numeric':
    case 'Duration':
      return typeof value === 'number' && Number.isFinite(value) ? [] : wrong('a number');
    case 'Date':
    case 'DateTime':
    case 'Time':
      if (typeof value === 'string' && validDate(value, t)) return [];
      // Written as a date but not on the calendar (2026-02-29, 2025-04-31): say so, as the query editor does, rather
      // than ask for the format the value already has.
      if (typeof value === 'string' && t !== 'Time' && /^\d{4}-\d{2}-\d{2}/.test(value) && !realDay(value.slice(0, 10))) {
        return [problem(C.WrongType, `'${value.slice(0, 10)}' is not a real date (the field '${name}').`, path, name)];
      }
      return wrong(DATE_HINT[t]);
    case 'Json':
      return [];
    default:
      return typeof value === 'string' ? [] : wrong('text (a string)');
  }
}

function checkClassification(item: string, path: JsonPath, context: ValidationContext, field?: string): Problem[] {
  if (!context.classifications) {
    return item.startsWith('/') || isGuid(item) ? [] : [problem(C.UnknownClassification, `'${item}' is neither a name path (/A/B) nor a classification id.`, path, field)];
  }
  const known = context.classifications.some((c) => c.namePath === item || guidKey(c.id) === guidKey(item));
  return known ? [] : [problem(C.UnknownClassification, `There is no classification '${item}'.`, path, field)];
}

/** Problems of a field's document value: a localized field takes `{ culture: value }`, any other the value itself. */
export function checkFieldValue(def: FieldDefinitionInfo, value: DocumentValue, path: JsonPath, context: ValidationContext = {}): Problem[] {
  const out: Problem[] = [];
  if (def.isLocalizable && value !== null) {
    if (!isObject(value)) return [problem(C.WrongType, `The field '${def.name}' is localized: give its values by language, e.g. { "en-US": … }.`, path, def.name)];
    for (const [key, v] of Object.entries(value)) {
      if (key !== NEUTRAL_KEY && context.languages && !findLanguage(key, context.languages)) {
        out.push(problem(C.UnknownLanguage, `'${key}' is not a language of this tenant (the field '${def.name}').`, [...path, key], def.name));
        continue;
      }
      out.push(...checkSingle(def, v, [...path, key], context));
    }
  } else if (!def.isLocalizable && isObject(value) && def.dataType !== 'Json' && def.dataType !== 'HyperlinkList') {
    out.push(problem(C.NotLocalized, `The field '${def.name}' is not localized: give the value itself, not values by language.`, path, def.name));
  } else {
    out.push(...checkSingle(def, value, path, context));
  }
  if (def.isRequired && isEmptyValue(value)) out.push(problem(C.Required, `The field '${def.name}' is required.`, path, def.name));
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Every problem of a document; placed on its text when it came from parseDocument. */
export function validateDocument(doc: RecordDocument, definitions: readonly FieldDefinitionInfo[], context: ValidationContext = {}): Problem[] {
  const out: { p: Problem; onKey?: boolean }[] = [];
  const add = (p: Problem, onKey = false) => out.push({ p, onKey });
  const { before } = context;
  if (!RECORD_STATUSES.some((s) => s.toLowerCase() === String(doc.status).toLowerCase())) {
    add(problem(C.BadStatus, `'status' must be one of ${RECORD_STATUSES.join(', ')}.`, ['status']));
  }
  if (before && doc.id !== before.id) add(problem(C.ReadOnly, `'id' cannot change (this document is record ${before.id}).`, ['id']));
  if (before && doc.contentType !== before.contentType) {
    add(problem(C.ReadOnly, "'contentType' cannot change here: a record's content type decides which fields apply to it.", ['contentType']));
  }
  if (before && !same(doc.readOnly, before.readOnly)) add(problem(C.ReadOnly, "The 'readOnly' section shows what cannot be changed; edits to it are not sent.", ['readOnly']));
  doc.classifications.forEach((c, i) => out.push(...checkClassification(c, ['classifications', i], context).map((p) => ({ p }))));
  for (const [name, value] of Object.entries(doc.fields)) {
    const def = findDefinition(definitions, name);
    if (!def || def.name !== name) {
      const hint = def ? ` (did you mean '${def.name}'?)` : '';
      add(problem(C.UnknownField, `There is no field '${name}' on this tenant${hint}.`, ['fields', name], name), true);
      continue;
    }
    const reason = readOnlyReason(def);
    if (reason) {
      add(problem(C.ReadOnly, `'${name}' cannot be changed: ${reason}.`, ['fields', name], name), true);
      continue;
    }
    for (const p of checkFieldValue(def, value, ['fields', name], context)) {
      // A required field that was already empty is a warning: the tenant refuses emptying one, not other edits.
      const wasEmpty = before && isEmptyValue(before.fields[name]);
      add(p.code === C.Required && wasEmpty ? { ...p, severity: 'warning', message: `${p.message} It is empty now; fill it in.` } : p);
    }
  }
  const locator = locatorOf(doc);
  return out.map(({ p, onKey }) => place(p, locator, onKey));
}

/** Where a document names classifications: `classifications` and the items of ClassificationList fields. */
function classificationItems(doc: RecordDocument, definitions: readonly FieldDefinitionInfo[]): { item: string; path: JsonPath; field?: string }[] {
  const out: { item: string; path: JsonPath; field?: string }[] = doc.classifications.map((item, i) => ({ item, path: ['classifications', i] }));
  for (const [name, value] of Object.entries(doc.fields)) {
    const def = findDefinition(definitions, name);
    if (def?.name !== name || def.dataType !== 'ClassificationList' || !Array.isArray(value)) continue;
    value.forEach((item, i) => typeof item === 'string' && out.push({ item, path: ['fields', name, i], field: name }));
  }
  return out;
}

/** The name paths and ids a document names (what to look up on the tenant before classificationProblems). */
export function namedClassifications(doc: RecordDocument, definitions: readonly FieldDefinitionInfo[]): string[] {
  return [...new Set(classificationItems(doc, definitions).map((c) => c.item).filter((item) => item.startsWith('/') || isGuid(item)))];
}

/**
 * The name paths and ids of a document that are not among the tenant's `known` classifications, each one problem,
 * placed on its text: marked as the user types, not only when the tenant refuses the save. Items that are neither a
 * path nor an id are validateDocument's (without known classifications it says so), so nothing is reported twice.
 */
export function classificationProblems(doc: RecordDocument, definitions: readonly FieldDefinitionInfo[], known: readonly ClassificationRef[]): Problem[] {
  const locator = locatorOf(doc);
  return classificationItems(doc, definitions)
    .filter(({ item }) => item.startsWith('/') || isGuid(item))
    .flatMap(({ item, path, field }) => checkClassification(item, path, { classifications: known }, field))
    .map((p) => place(p, locator));
}

