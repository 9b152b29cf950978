// The bulk plan: one set of edits (set or clear fields, status, classifications) turned into a change set per
// record, computed against what each record holds now, before anything is written. Edits the tenant's definitions
// refuse (an option that does not exist, a read-only field) refuse the whole plan; a record the edit cannot apply
// to is refused alone, with its reason.
import { diffDocuments, isEmptyChangeSet, type ChangeSet } from './changes';
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
import { checkFieldValue, isEmptyValue } from './validate';

export interface BulkEdits {
  /** Field name → value. A string (or strings, for list types) is read as the CLI's text; anything else is a document value. */
  set?: Record<string, unknown>;
  clear?: string[];
  status?: string;
  /** Name paths or ids. */
  addClassifications?: string[];
  removeClassifications?: string[];
  /** The language of localized fields that `set` and `clear` touch (culture or id); required when one is. */
  language?: string;
}

export interface BulkContext {
  languages?: readonly LanguageInfo[];
  /** The classifications the edits name (and those ClassificationList values name): needed to match ids and paths. */
  classifications?: readonly ClassificationRef[];
}

export interface PlannedRecord {
  recordId: string;
  title: string;
  changes: ChangeSet;
}

export interface RefusedRecord {
  recordId: string;
  title: string;
  reasons: string[];
}

export interface BulkPlan {
  /** Reasons the whole plan is refused (nothing may be written); empty when it may run. */
  problems: string[];
  /** Records that change, each with its change set. */
  items: PlannedRecord[];
  /** Records that already hold what the edits ask. */
  unchanged: { recordId: string; title: string }[];
  refused: RefusedRecord[];
  /** How many records each kind of change touches: `{ "UsageRights": 12, "status → Released": 40 }`. */
  counts: Record<string, number>;
}

/** The names of the fields a set of edits reads: ask the service for only these when loading the records. */
export function fieldsEdited(edits: BulkEdits): string[] {
  return [...Object.keys(edits.set ?? {}), ...(edits.clear ?? [])];
}

/**
 * The items of a list typed as text: separated by commas, each trimmed; `\,` is a comma inside an item and `\\` a
 * backslash. (`--set Keywords=red,blue` is two keywords; `--set 'Keywords=Smith\, Anna'` one.)
 */
export function splitListText(text: string): string[] {
  const items: string[] = [];
  let item = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && (text[i + 1] === ',' || text[i + 1] === '\\')) item += text[++i];
    else if (c === ',') {
      items.push(item);
      item = '';
    } else item += c;
  }
  items.push(item);
  return items.map((t) => t.trim()).filter((t) => t !== '');
}

/** Reads text given for a field (`--set NAME=VALUE`, repeated or comma-separated for list items) as its document value. */
export function coerceInput(def: FieldDefinitionInfo, input: unknown): { value?: DocumentValue; problem?: string } {
  const texts = typeof input === 'string' ? [input] : Array.isArray(input) && input.every((v) => typeof v === 'string') ? (input as string[]) : undefined;
  if (!texts) return { value: input as DocumentValue };
  const t = def.dataType;
  if (isListType(t)) {
    // `["a","b"]` gives a whole list at once; otherwise each text is one item.
    if (texts.length === 1 && texts[0].trim().startsWith('[')) {
      try {
        return { value: JSON.parse(texts[0]) as DocumentValue };
      } catch {
        return { problem: `The value of '${def.name}' starts with '[' but is not a JSON list.` };
      }
    }
    return { value: texts.flatMap(splitListText).map((s) => (t === 'OptionList' ? (findOption(def, s)?.name ?? s) : s)) };
  }
  if (texts.length > 1) return { problem: `'${def.name}' takes one value; it was given ${texts.length}.` };
  const text = texts[0];
  if (t === 'Numeric' || t === 'Duration') {
    const n = Number(text);
    return text.trim() !== '' && Number.isFinite(n) ? { value: n } : { problem: `The field '${def.name}' (${t}) needs a number; got '${text}'.` };
  }
  if (t === 'Json') {
    try {
      return { value: JSON.parse(text) as DocumentValue };
    } catch {
      return { value: text };
    }
  }
  return { value: text };
}

/** The plan of `edits` over `records` (documents read with at least the edited fields). */
export function planBulkUpdate(records: readonly RecordDocument[], edits: BulkEdits, definitions: readonly FieldDefinitionInfo[], context: BulkContext = {}): BulkPlan {
  const plan: BulkPlan = { problems: [], items: [], unchanged: [], refused: [], counts: {} };
  const languages = context.languages ?? [];
  const status = edits.status === undefined ? undefined : RECORD_STATUSES.find((s) => s.toLowerCase() === edits.status!.trim().toLowerCase());
  if (edits.status !== undefined && !status) plan.problems.push(`'${edits.status}' is not a status (${RECORD_STATUSES.join(', ')}).`);
  let languageKey: string | undefined;
  if (edits.language !== undefined) {
    const language = findLanguage(edits.language, languages);
    if (!language) plan.problems.push(`'${edits.language}' is not a language of this tenant.`);
    else languageKey = language.culture || NEUTRAL_KEY;
  }

  // Each edited field once: its definition and its new value (undefined = clear).
  const fieldEdits: { def: FieldDefinitionInfo; value: DocumentValue }[] = [];
  const fieldOf = (name: string) => {
    const def = findDefinition(definitions, name);
    if (!def) {
      plan.problems.push(`There is no field '${name}' on this tenant.`);
      return undefined;
    }
    const reason = readOnlyReason(def);
    if (reason) {
      plan.problems.push(`'${def.name}' cannot be changed: ${reason}.`);
      return undefined;
    }
    if (def.isLocalizable && edits.language === undefined) {
      plan.problems.push(`The field '${def.name}' is localized: name the language to change (--language, e.g. en-US).`);
      return undefined;
    }
    if (fieldEdits.some((f) => f.def.id === def.id)) {
      plan.problems.push(`The field '${def.name}' is both set and cleared, or set twice.`);
      return undefined;
    }
    return def;
  };
  for (const [name, input] of Object.entries(edits.set ?? {})) {
    const def = fieldOf(name);
    if (!def) continue;
    const { value, problem } = coerceInput(def, input);
    if (problem) {
      plan.problems.push(problem);
      continue;
    }
    // Checked once against the definition: a value the tenant refuses refuses the plan, before any record is read.
    const problems = checkFieldValue({ ...def, isLocalizable: false, isRequired: false }, value, ['fields', def.name], { languages, classifications: context.classifications });
    if (problems.length) {
      plan.problems.push(...problems.map((p) => p.message));
      continue;
    }
    if (def.isRequired && isEmptyValue(value)) {
      plan.problems.push(`The field '${def.name}' is required: it cannot be set empty.`);
      continue;
    }
    fieldEdits.push({ def, value });
  }
  for (const name of edits.clear ?? []) {
    const def = fieldOf(name);
    if (!def) continue;
    if (def.isRequired) {
      plan.problems.push(`The field '${def.name}' is required: it cannot be cleared.`);
      continue;
    }
    fieldEdits.push({ def, value: isListType(def.dataType) ? [] : null });
  }
  const classificationKey = (pathOrId: string) => {
    const known = context.classifications?.find((c) => c.namePath === pathOrId || guidKey(c.id) === guidKey(pathOrId));
    if (!known && context.classifications) plan.problems.push(`There is no classification '${pathOrId}'.`);
    return known;
  };
  const adds = (edits.addClassifications ?? []).map((c) => ({ text: c, ref: classificationKey(c) }));
  const removes = (edits.removeClassifications ?? []).map((c) => ({ text: c, ref: classificationKey(c) }));
  if (plan.problems.length) return plan;

  const holds = (doc: RecordDocument, c: { text: string; ref?: ClassificationRef }) =>
    doc.classifications.some((x) => x === c.text || (c.ref && (x === c.ref.namePath || guidKey(x) === guidKey(c.ref.id))));
  const nameOf = (c: { text: string; ref?: ClassificationRef }) => c.ref?.namePath || c.text;

  for (const before of records) {
    const after: RecordDocument = { ...before, fields: { ...before.fields }, classifications: [...before.classifications] };
    if (status) after.status = status;
    for (const { def, value } of fieldEdits) {
      if (def.isLocalizable) {
        const map = { ...((before.fields[def.name] as Record<string, DocumentValue> | null) ?? {}) };
        if (value === null || (Array.isArray(value) && !value.length)) delete map[languageKey!];
        else map[languageKey!] = value;
        after.fields[def.name] = map;
      } else {
        after.fields[def.name] = value;
      }
    }
    const changes = diffDocuments(before, after, definitions);
    // Classifications by their matching entry, so an id given on the command line finds the path the record shows.
    changes.addClassifications = adds.filter((c) => !holds(before, c)).map(nameOf);
    changes.removeClassifications = removes.filter((c) => holds(before, c)).map(nameOf);
    if (isEmptyChangeSet(changes)) {
      plan.unchanged.push({ recordId: before.id, title: before.title });
      continue;
    }
    plan.items.push({ recordId: before.id, title: before.title, changes });
    if (changes.status) plan.counts[`status → ${changes.status.after}`] = (plan.counts[`status → ${changes.status.after}`] ?? 0) + 1;
    for (const name of new Set(changes.fields.map((f) => f.field))) plan.counts[name] = (plan.counts[name] ?? 0) + 1;
    for (const c of changes.addClassifications) plan.counts[`+ ${c}`] = (plan.counts[`+ ${c}`] ?? 0) + 1;
    for (const c of changes.removeClassifications) plan.counts[`− ${c}`] = (plan.counts[`− ${c}`] ?? 0) + 1;
  }
  return plan;
}

/**
 * The plan in words: how many records, what changes on how many, which are refused and why. Fields are counted by
 * name (`Photographer: 2 records`), or as `label` says (see `fieldLabels`): `Photographer, credit (Photographer): 2 records`.
 */
export function describePlan(plan: BulkPlan, label?: FieldLabels): string[] {
  if (plan.problems.length) return ['The plan is refused; nothing would be written:', ...plan.problems.map((p) => `  ${p}`)];
  const total = plan.items.length + plan.unchanged.length + plan.refused.length;
  const lines = [`${total} record${total === 1 ? '' : 's'}: ${plan.items.length} would change, ${plan.unchanged.length} already as asked, ${plan.refused.length} refused.`];
  // Only the counts of fields are labelled: the others are `status → …` and `+ /a/classification`.
  const fields = new Set(plan.items.flatMap((i) => i.changes.fields.map((f) => f.field)));
  const named = (what: string) => (label && fields.has(what) ? label(what) : what);
  for (const [what, n] of Object.entries(plan.counts)) lines.push(`  ${named(what)}: ${n} record${n === 1 ? '' : 's'}`);
  for (const r of plan.refused) lines.push(`  refused ${r.recordId} (${r.title}): ${r.reasons.join('; ')}`);
  return lines;
}

