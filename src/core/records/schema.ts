// A JSON schema of a tenant's record documents, generated from its field definitions: the editor's completion and
// first-line checks (option names, types, languages). validateDocument stays the authority; the schema helps typing.
// No `pattern`s: validateDocument says a wrong date, time or record id in words, and a pattern would show the same
// problem a second time, as a regular expression.
import { NEUTRAL_KEY, RECORD_STATUSES, isListType, readOnlyReason, type FieldDefinitionInfo, type LanguageInfo } from './model';

type JsonSchema = Record<string, unknown>;

function itemSchema(def: FieldDefinitionInfo, languages: readonly LanguageInfo[]): JsonSchema {
  switch (def.dataType) {
    case 'OptionList': {
      const names = (def.options ?? []).map((o) => o.name);
      const labels = (def.options ?? []).map((o) => o.label).filter((l): l is string => !!l && !names.includes(l));
      return { type: 'string', enum: [...names, ...labels], markdownEnumDescriptions: [...(def.options ?? []).map((o) => o.label ?? o.name), ...labels] };
    }
    case 'LanguageList':
      return languages.length ? { type: 'string', enum: languages.map((l) => l.culture || NEUTRAL_KEY) } : { type: 'string' };
    case 'RecordList':
    case 'RecordLink':
      return { type: 'string', description: 'A record id' };
    case 'ClassificationList':
      return { type: 'string', description: 'A classification name path (/A/B) or id' };
    case 'HyperlinkList':
      return { anyOf: [{ type: 'string' }, { type: 'object', properties: { url: { type: 'string' }, displayText: { type: 'string' } }, required: ['url'] }] };
    case 'UserList':
    case 'UserGroupList':
      return { type: ['string', 'number'] };
    default:
      return { type: 'string' };
  }
}

function valueSchema(def: FieldDefinitionInfo, languages: readonly LanguageInfo[]): JsonSchema {
  const t = def.dataType;
  if (isListType(t)) return { type: 'array', items: itemSchema(def, languages) };
  switch (t) {
    case 'Numeric':
    case 'Duration':
      return { type: ['number', 'null'] };
    case 'Date':
      return { type: ['string', 'null'], description: 'YYYY-MM-DD' };
    case 'DateTime':
      return { type: ['string', 'null'], description: 'ISO 8601, e.g. 2025-03-01T12:00:00Z' };
    case 'Time':
      return { type: ['string', 'null'], description: 'HH:MM or HH:MM:SS' };
    case 'Json':
      return {};
    default:
      return { type: ['string', 'null'] };
  }
}

/** The JSON schema of a record document for these definitions (draft-07, as VS Code's JSON language service reads it). */
export function documentJsonSchema(definitions: readonly FieldDefinitionInfo[], languages: readonly LanguageInfo[] = []): JsonSchema {
  const fields: Record<string, JsonSchema> = {};
  for (const def of definitions) {
    if (readOnlyReason(def)) continue;
    const value = valueSchema(def, languages);
    const description = `${def.label ?? def.name} (${def.dataType}${def.isRequired ? ', required' : ''}${def.isLocalizable ? ', localized' : ''})`;
    fields[def.name] = def.isLocalizable
      ? {
          description,
          type: ['object', 'null'],
          ...(languages.length ? { propertyNames: { enum: languages.map((l) => l.culture || NEUTRAL_KEY) } } : {}),
          additionalProperties: value,
        }
      : // The field's own words first; the value's format (YYYY-MM-DD…) after them, not instead of them.
        { ...value, description: typeof value.description === 'string' ? `${description}: ${value.description}` : description };
  }
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    required: ['id', 'status', 'fields'],
    properties: {
      id: { type: 'string', description: 'The record id (cannot change)' },
      title: { type: 'string' },
      status: { enum: [...RECORD_STATUSES] },
      contentType: { type: 'string', description: 'Shown; cannot change here' },
      classifications: { type: 'array', items: { type: 'string' }, description: 'Name paths (/A/B) or ids', uniqueItems: true },
      fields: { type: 'object', properties: fields, additionalProperties: false },
      readOnly: { type: 'object', description: 'Shown, never sent' },
    },
  };
}
