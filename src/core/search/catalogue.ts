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

/**
 * A case-insensitive table of ASCII names that looks a name up without allocating: names are
 * bucketed by length and compared char by char, folding only A–Z. Checks run this once per
 * criterion, where `toLowerCase` and hashing a fresh slice cost more than the comparison. A name
 * with a non-ASCII character goes through `toLowerCase` (the Kelvin sign lower-cases to `k`).
 */
export class NameTable<V> {
  private readonly buckets: ({ lower: string; value: V }[] | undefined)[] = [];
  private readonly byLower = new Map<string, V>();

  /** Entries in priority order: of two names equal but for case, the first one is kept. */
  constructor(entries: Iterable<readonly [string, V]>) {
    for (const [name, value] of entries) {
      const lower = name.toLowerCase();
      if (this.byLower.has(lower)) continue;
      this.byLower.set(lower, value);
      (this.buckets[lower.length] ??= []).push({ lower, value });
    }
  }

  get(name: string): V | undefined {
    const n = name.length;
    const bucket = n < this.buckets.length ? this.buckets[n] : undefined;
    if (bucket !== undefined) {
      for (let b = 0; b < bucket.length; b++) {
        const lower = bucket[b].lower;
        let i = 0;
        for (; i < n; i++) {
          const c = name.charCodeAt(i);
          if (c !== lower.charCodeAt(i) && !(c >= 65 && c <= 90 && c + 32 === lower.charCodeAt(i))) break;
        }
        if (i === n) return bucket[b].value;
      }
    }
    for (let i = 0; i < n; i++) if (name.charCodeAt(i) > 127) return this.byLower.get(name.toLowerCase());
    return undefined;
  }

  values(): IterableIterator<V> {
    return this.byLower.values();
  }
}

const RECORDS_INDEX = new NameTable(propertiesFor('records').map((info) => [info.name, info] as const));
const CLASSIFICATIONS_INDEX = new NameTable(propertiesFor('classifications').map((info) => [info.name, info] as const));

/** Case-insensitive lookup (real clients write `contentType`, `TITLE`). */
export function lookupProperty(target: QueryTarget, name: string): PropertyInfo | undefined {
  return (target === 'records' ? RECORDS_INDEX : CLASSIFICATIONS_INDEX).get(name);
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

/** `ALL_ACCESSORS` and `ACCESSOR_TYPES` in one case-insensitive table, for checks that run per criterion. */
export const ACCESSOR_INDEX: NameTable<{ path: string; dataTypes: FieldDataType[]; type: PropertyType | null }> = new NameTable(
  [...ALL_ACCESSORS].map(([lower, e]) => [lower, { path: e.path, dataTypes: e.dataTypes, type: ACCESSOR_TYPES.get(lower) ?? null }] as const),
);

/** Logical keywords and the other reserved words, canonical spelling. */
export const KEYWORDS = ['AND', 'OR', 'NOT'] as const;
