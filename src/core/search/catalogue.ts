// The searchable properties as data, the one definition the editor, `dam lint` and the emulator share: per search
// target, each property's type (hence its operators), sortability, whether it takes `contains`, and which part of
// the resource holds it (the emulator maps each name to its storage, keyed by these names); plus the operators per
// type and the field accessors per data type.
import type { ComparisonOperator } from './ast';

/** Value types of searchable properties. `User` and `Classification` are references compared by id or name. */
export type PropertyType = 'String' | 'DateTime' | 'Guid' | 'Numeric' | 'Boolean' | 'User' | 'Classification';

/** The target of a search (`@target` of a `.dam-query` section), i.e. which search endpoint runs it. */
export type QueryTarget = 'records' | 'classifications';

/**
 * Which part of a resource holds a property. A record search reaches the record's files ("any version of any file
 * matches"), its master file's newest version and its classifications; the emulator keys its storage on this.
 */
export type PropertyScope =
  | 'record'
  | 'classification'
  | 'file'
  | 'file version'
  | 'file type'
  | 'rendition'
  | 'master file'
  | 'record classification'
  | 'record field'
  | 'search';

/** Where a property is documented: the spec's list, the live service (real-service-notes), or resource attributes. */
export type PropertySource = 'spec' | 'service' | 'attribute';

export interface PropertyInfo {
  /** The canonical spelling (names match case-insensitively). */
  name: string;
  /** Other names the service takes for the same property. */
  aliases: readonly string[];
  type: PropertyType;
  sortable: boolean;
  /** Listed as full-text searchable with `contains`. */
  supportsContains: boolean;
  scope: PropertyScope;
  source: PropertySource;
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

interface Options {
  sortable?: boolean;
  contains?: boolean;
  aliases?: string[];
  source?: PropertySource;
}

function p(name: string, type: PropertyType, scope: PropertyScope, description: string, o: Options = {}): PropertyInfo {
  return { name, aliases: o.aliases ?? [], type, sortable: o.sortable ?? false, supportsContains: o.contains ?? false, scope, source: o.source ?? 'spec', description };
}

/**
 * The spec's file, file version and file type properties, reached from a record search (`Kind = JPG`): a record
 * matches when any version of any of its files does. The spec marks `CheckedOutBy` and `IsMaster` sortable in a
 * search of files; a record has several files, so a record search does not sort by them.
 */
const FILE_PROPERTIES: PropertyInfo[] = [
  p('CheckedOutBy', 'User', 'file', 'User who checked the file out.'),
  p('IsMaster', 'Boolean', 'file', 'Whether the file is the master file of its record.'),
  p('FileName', 'String', 'file version', 'File name of a version.'),
  p('FileSize', 'Numeric', 'file version', 'Size of a version in bytes.'),
  p('Checksum', 'String', 'file version', 'Checksum of a version.'),
  p('Comment', 'String', 'file version', 'Comment of a version.'),
  p('Extension', 'String', 'file version', 'File extension of a version (without the dot).', { aliases: ['File.Version.Extension'] }),
  p('HasPublicUri', 'Boolean', 'file version', 'Whether the version has a public link.'),
  p('Preview', 'String', 'file version', 'Format of the version\'s preview (`jpg`); empty when it has none (`Preview <> ""`).'),
  p('PreviewCount', 'Numeric', 'file version', 'Number of previews of a version.'),
  p('Version', 'Numeric', 'file version', 'Version number.'),
  p('VersionLabel', 'String', 'file version', 'Label of a version.'),
  p('AdditionalFile', 'String', 'rendition', 'Name of an additional file (rendition) of a version.'),
  p('Kind', 'String', 'file type', 'Kind of the file type (e.g. JPG).'),
  p('Name', 'String', 'file type', 'Name of the file type.'),
];

/** A record's content statuses (real-service-notes): the whole set, so another value finds nothing. */
export const CONTENT_STATUSES: readonly string[] = ['Draft', 'Released', 'Archived'];
/** The content types every tenant has (the emulator's contract); a tenant may have more (QuerySchema.contentTypes). */
export const BASE_CONTENT_TYPES: readonly string[] = ['Image', 'Video', 'Document'];

/** Per search target, every property it understands, in the order completion offers them. */
export const SEARCH_PROPERTIES: Readonly<Record<QueryTarget, readonly PropertyInfo[]>> = {
  records: [
    p('Id', 'Guid', 'record', 'Record id.', { sortable: true }),
    p('Title', 'String', 'record', 'Record title.', { sortable: true, contains: true }),
    p('ContentStatus', 'String', 'record', 'Content status (Draft, Released, Archived).', { aliases: ['Status'] }),
    p('ContentType', 'String', 'record', 'Content type, including child types.'),
    p('DirectContentType', 'String', 'record', 'Content type, excluding child types.'),
    p('Classification', 'Classification', 'record classification', 'Classification (id, name, identifier or name path), including descendants.', { aliases: ['Classification.Id'] }),
    p('DirectClassification', 'Classification', 'record classification', 'Classification (id, name, identifier or name path), excluding descendants.', {
      aliases: ['DirectClassification.Id'],
    }),
    p('Classification.NamePath', 'String', 'record classification', 'Name path of one of the record\'s classifications, e.g. `/Products/Outdoor*`.', { source: 'service' }),
    p('Classification.LabelPath', 'String', 'record classification', 'Label path of one of the record\'s classifications.', { source: 'service' }),
    p('Classification.Name', 'String', 'record classification', 'Name of one of the record\'s classifications (that classification only, not its descendants).', { source: 'service' }),
    p('Classification.Label', 'String', 'record classification', 'Label of one of the record\'s classifications.', { source: 'service' }),
    p('Classification.Identifier', 'String', 'record classification', 'Identifier of one of the record\'s classifications.', { source: 'service' }),
    p('CreatedOn', 'DateTime', 'record', 'Creation time (UTC).', { sortable: true }),
    p('ModifiedOn', 'DateTime', 'record', 'Last modification time (UTC).', { sortable: true }),
    p('CreatedBy', 'User', 'record', 'User who created the record (id, login or name).'),
    p('ModifiedBy', 'User', 'record', 'User who last modified the record (id, login or name).'),
    p('FileCount', 'Numeric', 'record', 'Number of files of the record.'),
    p('Tag', 'String', 'record', 'The record\'s tag (an XML string or empty).', { source: 'attribute' }),
    p('Keywords', 'String', 'record field', 'Keywords of the record (values of its Keywords field).', { contains: true, source: 'service' }),
    p('LatestVersionOfMasterfile.FileName', 'String', 'master file', 'File name of the newest version of the record\'s master file.', { source: 'service' }),
    p('LatestVersionOfMasterfile.HasPublicUri', 'Boolean', 'master file', 'Whether the newest version of the master file has a public link.', { source: 'service' }),
    ...FILE_PROPERTIES,
  ],
  classifications: [
    p('Id', 'Guid', 'classification', 'Classification id.', { sortable: true }),
    p('Label', 'String', 'classification', 'Label in the current language.', { sortable: true }),
    p('Name', 'String', 'classification', 'Name.', { sortable: true }),
    p('Identifier', 'String', 'classification', 'Identifier.', { sortable: true }),
    p('NamePath', 'String', 'classification', 'Path of names from the root, separated by `/` (escape as `\\/`).'),
    p('LabelPath', 'String', 'classification', 'Path of labels from the root.'),
    p('ParentId', 'Guid', 'classification', 'Id of the parent classification (empty for a root).', { aliases: ['Parent.Id'], source: 'service' }),
    p('SortIndex', 'Numeric', 'classification', 'Position among its siblings.', { sortable: true, source: 'attribute' }),
    p('CreatedOn', 'DateTime', 'classification', 'Creation time (UTC).', { source: 'attribute' }),
    p('ModifiedOn', 'DateTime', 'classification', 'Last modification time (UTC).', { source: 'attribute' }),
  ],
};

/** Property that sorts by relevance (`Rank desc`); records and classifications only. */
export const RANK_PROPERTY: PropertyInfo = p('Rank', 'Numeric', 'search', 'Relevance of the match; sort only (`Rank desc`).', { sortable: true });

/** The properties a search on `target` understands. */
export function propertiesFor(target: QueryTarget): readonly PropertyInfo[] {
  return SEARCH_PROPERTIES[target];
}

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

/** Every name (canonical and aliases) of a target's properties, for case-insensitive lookups. */
function nameTable(target: QueryTarget): NameTable<PropertyInfo> {
  return new NameTable(SEARCH_PROPERTIES[target].flatMap((info) => [info.name, ...info.aliases].map((name) => [name, info] as const)));
}

const RECORDS_INDEX = nameTable('records');
const CLASSIFICATIONS_INDEX = nameTable('classifications');

/** Case-insensitive lookup by name or alias (real clients write `contentType`, `TITLE`, `parent.id`). */
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
