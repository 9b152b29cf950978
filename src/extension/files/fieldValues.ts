// Field values asked when uploading files as new records: which of the tenant's field definitions can be
// filled from a prompt, how the typed text is checked, and the `fields` entry it becomes in the record body.
// Free of `vscode` so the rules are unit-tested; uploadCommand.ts draws the widgets. Free of zod too: this
// loads with the activation bundle, which leaves zod to the session bundle; the client already validated the
// definition, and the two loose parts read here (options, default) are checked by hand.
import type { FieldInput } from '../../api/files';
import type { FieldDefinition } from '../../api/schemas';

/**
 * The prompt for a data type. Types whose values are references to other resources (classifications,
 * records, users, languages…) or structured (Json, links) are not offered: a free text box would only
 * produce values the service refuses.
 */
export type FieldWidget = 'text' | 'number' | 'date' | 'datetime' | 'options' | 'list';

const WIDGETS: Record<string, FieldWidget> = {
  singlelinetext: 'text',
  multilinetext: 'text',
  html: 'text',
  numeric: 'number',
  duration: 'number',
  date: 'date',
  datetime: 'datetime',
  optionlist: 'options',
  textlist: 'list',
};

export function widgetOf(def: Pick<FieldDefinition, 'dataType'>): FieldWidget | undefined {
  return def.dataType ? WIDGETS[def.dataType.toLowerCase()] : undefined;
}

export interface FieldOption {
  id: string;
  name: string;
  label: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optionalString = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** The options of an OptionList definition (none when the definition carries no readable list). */
export function optionsOf(def: FieldDefinition): FieldOption[] {
  const items = def.items;
  if (!Array.isArray(items) || !items.every((o) => isObject(o) && typeof o.id === 'string')) return [];
  return (items as Record<string, unknown>[]).map((o) => {
    const id = o.id as string;
    const name = optionalString(o.name) ?? id;
    return { id, name, label: optionalString(o.label) ?? name };
  });
}

/** The definition's default as prompt text (or, for options, the default option ids). */
export function defaultOf(def: FieldDefinition): { text: string; optionIds: string[] } {
  const d = isObject(def.defaultValue) ? def.defaultValue : undefined;
  const raw = Array.isArray(d?.values) ? (d.values as unknown[]) : d?.value === undefined || d?.value === null ? [] : [d.value];
  const values = raw.filter((v) => v !== null && v !== undefined && typeof v !== 'object').map(String);
  return { text: widgetOf(def) === 'list' ? values.join(', ') : (values[0] ?? ''), optionIds: values };
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/;

/** Why the typed text is not a value of the widget's type, or undefined when it is. Empty text is always allowed (no value). */
export function validateFieldText(widget: FieldWidget, text: string): string | undefined {
  const t = text.trim();
  if (!t) return undefined;
  switch (widget) {
    case 'number':
      return NUMBER.test(t) && Number.isFinite(Number(t)) ? undefined : 'Enter a number, e.g. 42 or 3.5';
    case 'date': {
      const m = DATE.exec(t);
      if (!m) return 'Enter an ISO date: YYYY-MM-DD';
      const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
      const date = new Date(Date.UTC(y, mo - 1, d));
      // Date.UTC rolls 2025-02-30 over to March: a date that does not come back unchanged does not exist.
      return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d ? undefined : `${t} is not a date in the calendar`;
    }
    case 'datetime':
      return DATETIME.test(t) && !Number.isNaN(new Date(t).getTime()) ? undefined : 'Enter an ISO date and time: YYYY-MM-DDThh:mm[:ss][Z or ±hh:mm]';
    default:
      return undefined;
  }
}

/**
 * The `fields` entry for a typed text (or picked option ids), or undefined when there is nothing to send.
 * Throws when the text is not valid for the widget (callers validate first; this guards programmatic use).
 */
export function toFieldInput(def: FieldDefinition, answer: string | readonly string[]): FieldInput | undefined {
  const widget = widgetOf(def);
  if (!widget) throw new Error(`The field '${def.name ?? def.id}' (${def.dataType ?? 'no data type'}) cannot be set from the upload prompts.`);
  if (widget === 'options') {
    const ids = typeof answer === 'string' ? answer.split(',').map((s) => s.trim()).filter(Boolean) : [...answer];
    const options = optionsOf(def);
    for (const id of ids) {
      if (!options.some((o) => o.id === id || o.name.toLowerCase() === id.toLowerCase())) throw new Error(`'${id}' is not an option of the field '${def.name ?? def.id}'.`);
    }
    return ids.length ? { id: def.id, values: ids } : undefined;
  }
  const text = (typeof answer === 'string' ? answer : answer.join(', ')).trim();
  if (!text) return undefined;
  const problem = validateFieldText(widget, text);
  if (problem) throw new Error(`${def.name ?? def.id}: ${problem}`);
  switch (widget) {
    case 'number':
      return { id: def.id, value: Number(text) };
    case 'list':
      return { id: def.id, values: text.split(',').map((s) => s.trim()).filter(Boolean) };
    default:
      return { id: def.id, value: text };
  }
}

/** The label a person knows the field by. */
export function fieldLabel(def: FieldDefinition): string {
  return def.label || def.labels?.[0]?.value || def.name || def.id;
}
