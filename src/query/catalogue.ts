// The searchable properties of the spec as data: per entity, each property's type, sortability and
// whether it takes `contains`; plus the operators per type and the field accessors per data type.
import type { ComparisonOperator } from './ast';

/** Value types of searchable properties. `User` and `Classification` are references compared by id or name. */
export type PropertyType = 'String' | 'DateTime' | 'Guid' | 'Numeric' | 'Boolean' | 'User' | 'Classification';

export type Entity = 'records' | 'classifications' | 'files' | 'users';

/** The target of a `.dam-query` section (`@target`), i.e. which search endpoint runs it. */
export type QueryTarget = 'records' | 'classifications';

export interface PropertyInfo {
  name: string;
  type: PropertyType;
  sortable: boolean;
  /** Listed by the spec as full-text searchable with `contains`. */
  supportsContains: boolean;
  /** Which part of the resource the property belongs to (shown in hover). */
  scope: string;
  description: string;
}

/** Operators allowed per type, from the spec ("By type: …"). References behave like Guids. */
export const OPERATORS_BY_TYPE: Readonly<Record<PropertyType, readonly ComparisonOperator[]>> = {
  String: ['=', '>', '>=', '<', '<=', '<>', 'in', 'contains'],
  DateTime: ['=', '>', '>=', '<', '<=', '<>', 'in'],
  Guid: ['=', '<>', 'in'],
  Numeric: ['=', '>', '>=', '<', '<=', '<>', 'in'],
  Boolean: ['=', '<>'],
  User: ['=', '<>', 'in'],
  Classification: ['=', '<>', 'in'],
};

function p(name: string, type: PropertyType, sortable: boolean, scope: string, description: string, supportsContains = false): PropertyInfo {
  return { name, type, sortable, supportsContains, scope, description };
}

const FILE_PROPERTIES: PropertyInfo[] = [
  p('CheckedOutBy', 'User', true, 'file', 'User who checked the file out.'),
  p('IsMaster', 'Boolean', true, 'file', 'Whether the file is the master file of its record.'),
  p('FileName', 'String', false, 'file version', 'File name of a version.'),
  p('FileSize', 'Numeric', false, 'file version', 'Size of a version in bytes.'),
  p('Checksum', 'String', false, 'file version', 'Checksum of a version.'),
  p('Comment', 'String', false, 'file version', 'Comment of a version.'),
  p('Extension', 'String', false, 'file version', 'File extension of a version.'),
  p('HasPublicUri', 'Boolean', false, 'file version', 'Whether the version has a public link.'),
  p('Preview', 'String', false, 'file version', 'Preview of a version.'),
  p('PreviewCount', 'Numeric', false, 'file version', 'Number of previews of a version.'),
  p('Version', 'Numeric', false, 'file version', 'Version number.'),
  p('VersionLabel', 'String', false, 'file version', 'Label of a version.'),
  p('AdditionalFile', 'String', false, 'file version', 'Additional files (renditions) of a version.'),
  p('Kind', 'String', false, 'file type', 'Kind of the file type (e.g. JPG).'),
  p('Name', 'String', false, 'file type', 'Name of the file type.'),
];

/** Per entity, the searchable properties the spec lists (names in the spec's casing). */
export const CATALOGUES: Readonly<Record<Entity, readonly PropertyInfo[]>> = {
  records: [
    p('Id', 'Guid', true, 'record', 'Record id.'),
    p('Title', 'String', true, 'record', 'Record title.', true),
    p('ContentStatus', 'String', false, 'record', 'Content status (Draft, Released, Archived).'),
    p('ContentType', 'String', false, 'record', 'Content type, including child types.'),
    p('DirectContentType', 'String', false, 'record', 'Content type, excluding child types.'),
    p('Classification', 'Classification', false, 'record', 'Classification, including descendants.'),
    p('DirectClassification', 'Classification', false, 'record', 'Classification, excluding descendants.'),
    p('CreatedOn', 'DateTime', true, 'record', 'Creation time (UTC).'),
    p('ModifiedOn', 'DateTime', true, 'record', 'Last modification time (UTC).'),
    p('CreatedBy', 'User', false, 'record', 'User who created the record.'),
    p('ModifiedBy', 'User', false, 'record', 'User who last modified the record.'),
    p('FileCount', 'Numeric', false, 'record', 'Number of files of the record.'),
  ],
  classifications: [
    p('Id', 'Guid', true, 'classification', 'Classification id.'),
    p('Label', 'String', true, 'classification', 'Label in the current language.'),
    p('Name', 'String', true, 'classification', 'Name.'),
    p('Identifier', 'String', true, 'classification', 'Identifier.'),
    p('NamePath', 'String', false, 'classification', 'Path of names from the root, separated by `/` (escape as `\\/`).'),
    p('LabelPath', 'String', false, 'classification', 'Path of labels from the root.'),
  ],
  files: [p('Id', 'Guid', false, 'file', 'File id.'), ...FILE_PROPERTIES],
  users: [
    p('Id', 'Guid', false, 'user', 'User id.'),
    p('Email', 'String', false, 'user', 'E-mail address.'),
    p('Name', 'String', false, 'user', 'Display name.'),
    p('FirstName', 'String', false, 'user', 'First name.'),
    p('LastName', 'String', false, 'user', 'Last name.'),
  ],
};

/** Property that sorts by relevance (`Rank desc`); records and classifications only. */
export const RANK_PROPERTY: PropertyInfo = p('Rank', 'Numeric', true, 'search', 'Relevance of the match; sort only (`Rank desc`).');

/**
 * The properties a search on `target` understands. Record searches also reach the files of the
 * record (file, version and file type properties), which clients use as `Kind = JPG`.
 */
export function propertiesFor(target: QueryTarget): readonly PropertyInfo[] {
  return target === 'records' ? RECORD_SEARCH : CATALOGUES.classifications;
}

const RECORD_SEARCH: readonly PropertyInfo[] = [...CATALOGUES.records, ...FILE_PROPERTIES];

const INDEX = new Map<QueryTarget, Map<string, PropertyInfo>>();
for (const target of ['records', 'classifications'] as const) {
  const m = new Map<string, PropertyInfo>();
  for (const info of propertiesFor(target)) {
    if (!m.has(info.name.toLowerCase())) m.set(info.name.toLowerCase(), info);
    if (!m.has(info.name)) m.set(info.name, info);
  }
  INDEX.set(target, m);
}

const RECORDS_INDEX = INDEX.get('records')!;
const CLASSIFICATIONS_INDEX = INDEX.get('classifications')!;

/** Case-insensitive lookup (real clients write `contentType`, `TITLE`). */
export function lookupProperty(target: QueryTarget, name: string): PropertyInfo | undefined {
  const index = target === 'records' ? RECORDS_INDEX : CLASSIFICATIONS_INDEX;
  // Names usually come spelled as catalogued; try that before allocating a lower-case copy.
  const exact = index.get(name);
  return exact ?? index.get(name.toLowerCase());
}

/** Field data types of the service (real-service-notes: "Data types"). */
export const FIELD_DATA_TYPES = [
  'SingleLineText', 'MultiLineText', 'Html', 'Numeric', 'Date', 'DateTime', 'Time', 'ClassificationList',
  'OptionList', 'RecordList', 'UserList', 'UserGroupList', 'Duration', 'Json', 'LanguageList', 'RichContent',
  'TextList', 'HyperlinkList', 'RecordLink',
] as const;
export type FieldDataType = (typeof FIELD_DATA_TYPES)[number];

export interface AccessorInfo {
  /** Dotted accessor as written after the field reference, e.g. `Option.Name`. */
  path: string;
  type: PropertyType;
}

const TEXT: AccessorInfo[] = [{ path: 'Value', type: 'String' }];
const NUMBER: AccessorInfo[] = [{ path: 'Value', type: 'Numeric' }];
const DATE: AccessorInfo[] = [{ path: 'Value', type: 'DateTime' }, { path: 'UtcValue', type: 'DateTime' }];

/**
 * Accessors per field data type, from the spec. `Value` on an option list is what clients write to
 * compare the option's name, so it is accepted there as a String too.
 */
export const ACCESSORS_BY_DATA_TYPE: Readonly<Record<FieldDataType, readonly AccessorInfo[]>> = {
  SingleLineText: TEXT,
  MultiLineText: TEXT,
  Html: TEXT,
  RichContent: TEXT,
  Json: TEXT,
  TextList: TEXT,
  Numeric: NUMBER,
  Duration: NUMBER,
  Date: DATE,
  DateTime: DATE,
  Time: DATE,
  HyperlinkList: [{ path: 'Url', type: 'String' }, { path: 'DisplayText', type: 'String' }],
  OptionList: [
    { path: 'Option.Id', type: 'Guid' },
    { path: 'Option.Name', type: 'String' },
    { path: 'Option.Label', type: 'String' },
    { path: 'Option.SortIndex', type: 'Numeric' },
    { path: 'Value', type: 'String' },
  ],
  ClassificationList: [{ path: 'Classification.Id', type: 'Guid' }],
  LanguageList: [{ path: 'Language.Id', type: 'Guid' }],
  RecordList: [{ path: 'Record.Id', type: 'Guid' }, { path: 'RecordId', type: 'Guid' }],
  RecordLink: [{ path: 'Child.Record.Id', type: 'Guid' }],
  UserList: [{ path: 'User.Name', type: 'String' }],
  UserGroupList: [{ path: 'UserGroup.Id', type: 'Guid' }],
};

/** Every accessor any data type has, with the data types that have it (for checks without a schema). */
export const ALL_ACCESSORS: ReadonlyMap<string, { path: string; dataTypes: FieldDataType[] }> = (() => {
  const m = new Map<string, { path: string; dataTypes: FieldDataType[] }>();
  for (const dt of FIELD_DATA_TYPES) {
    for (const a of ACCESSORS_BY_DATA_TYPE[dt]) {
      const key = a.path.toLowerCase();
      const entry = m.get(key) ?? { path: a.path, dataTypes: [] };
      entry.dataTypes.push(dt);
      m.set(key, entry);
    }
  }
  return m;
})();

/** Per accessor (lower-case), its value type when every data type having it agrees, else null (`Value`). */
export const ACCESSOR_TYPES: ReadonlyMap<string, PropertyType | null> = (() => {
  const m = new Map<string, PropertyType | null>();
  for (const dt of FIELD_DATA_TYPES) {
    for (const a of ACCESSORS_BY_DATA_TYPE[dt]) {
      const key = a.path.toLowerCase();
      const seen = m.get(key);
      m.set(key, seen === undefined || seen === a.type ? a.type : null);
    }
  }
  return m;
})();

/** Logical keywords and the other reserved words, canonical spelling. */
export const KEYWORDS = ['AND', 'OR', 'NOT'] as const;
