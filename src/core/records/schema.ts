// A JSON schema of a tenant's record documents, generated from its field definitions: the editor's completion and
// hovers (field names with their type, option names, languages, statuses). It judges nothing: no `type`, `enum`,
// `required`, `pattern` or `additionalProperties`, since validateDocument is the one verdict on a record document
// (the same check refuses a save), and a schema that also judged showed each bad value twice, in other words, and
// disagreed with it (it accepted an option's label the record check refused). Values to pick are offered as
// `defaultSnippets`, which VS Code's JSON language service completes but never validates.
import { NEUTRAL_KEY, RECORD_STATUSES, isListType, readOnlyReason, type FieldDefinitionInfo, type LanguageInfo } from './model';

type JsonSchema = Record<string, unknown>;

interface Snippet {
  label: string;
  description?: string;
  body: unknown;
}

const snippets = (list: Snippet[]): JsonSchema => (list.length ? { defaultSnippets: list } : {});

/** What a value of one item can be: one completion entry per option (its name, its label as the description). */
function itemSchema(def: FieldDefinitionInfo, languages: readonly LanguageInfo[]): JsonSchema {
  switch (def.dataType) {
    case 'OptionList':
      return snippets((def.options ?? []).map((o) => ({ label: o.name, ...(o.label && o.label !== o.name ? { description: o.label } : {}), body: o.name })));
    case 'LanguageList':
      return snippets(languages.map((l) => ({ label: l.culture || NEUTRAL_KEY, ...(l.name ? { description: l.name } : {}), body: l.culture || NEUTRAL_KEY })));
    case 'RecordList':
    case 'RecordLink':
      return { description: 'A record id' };
    case 'ClassificationList':
      return { description: 'A classification name path (/A/B) or id' };
    case 'HyperlinkList':
      return snippets([{ label: '{ url, displayText }', body: { url: '', displayText: '' } }]);
    default:
      return {};
  }
}

function valueSchema(def: FieldDefinitionInfo, languages: readonly LanguageInfo[]): JsonSchema {
  const t = def.dataType;
  if (isListType(t)) return { items: itemSchema(def, languages), ...snippets([{ label: '[]', description: 'a list', body: [] }]) };
  switch (t) {
    case 'Date':
      return { description: 'YYYY-MM-DD' };
    case 'DateTime':
      return { description: 'ISO 8601, e.g. 2025-03-01T12:00:00Z' };
    case 'Time':
      return { description: 'HH:MM or HH:MM:SS' };
    default:
      return {};
  }
}

/** The JSON schema of a record document for these definitions (draft-07, as VS Code's JSON language service reads it). */
export function documentJsonSchema(definitions: readonly FieldDefinitionInfo[], languages: readonly LanguageInfo[] = []): JsonSchema {
  const fields: Record<string, JsonSchema> = {};
  const cultures = languages.map((l) => l.culture || NEUTRAL_KEY);
  for (const def of definitions) {
    if (readOnlyReason(def)) continue;
    const value = valueSchema(def, languages);
    const description = `${def.label ?? def.name} (${def.dataType}${def.isRequired ? ', required' : ''}${def.isLocalizable ? ', localized' : ''})`;
    fields[def.name] = def.isLocalizable
      ? // Languages are offered as the map's keys; each value is described as the field's value.
        { description, properties: Object.fromEntries(cultures.map((c) => [c, value])), additionalProperties: value, ...snippets([{ label: '{}', description: 'values by language', body: {} }]) }
      : // The field's own words first; the value's format (YYYY-MM-DD…) after them, not instead of them.
        { ...value, description: typeof value.description === 'string' ? `${description}: ${value.description}` : description };
  }
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    properties: {
      id: { description: 'The record id (cannot change)' },
      title: { description: 'The record title' },
      status: { description: `One of ${RECORD_STATUSES.join(', ')}`, ...snippets(RECORD_STATUSES.map((s) => ({ label: s, body: s }))) },
      contentType: { description: 'Shown; cannot change here' },
      classifications: { description: 'Name paths (/A/B) or ids', items: { description: 'A classification name path (/A/B) or id' } },
      fields: { description: 'The fields, by name', properties: fields },
      readOnly: { description: 'Shown, never sent' },
    },
  };
}
