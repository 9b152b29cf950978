// The shape of the service catalogue (STYLE 16): everything known of the service's surface as data, each entry with
// the sources it was read from. The emulator serves from it, the probe reads its read routes, tests are generated
// from it. The data lives beside this file; this module only says what an entry is.

/**
 * Where a line was read. `spec`: shared/spec/api-spec.md; `notes`: shared/spec/real-service-notes.md; `contract`:
 * shared/spec/emulator-contract.md; `docs`: the service's public developer documentation or API reference page (give
 * its address); `sdk`: a public SDK's model (repository and path); `client`: a public client's request, as replayed
 * in test/interop (repository and path).
 */
export type SourceKind = 'spec' | 'notes' | 'contract' | 'docs' | 'sdk' | 'client';

export interface Source {
  kind: SourceKind;
  /** A section of a spec file, an address, or `owner/repo path`. */
  ref: string;
}

/** Which API (and so which host of the spec) a route belongs to. */
export type Api = 'core' | 'upload' | 'ops' | 'analytics' | 'auth';

export interface RouteEntry {
  api: Api;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /**
   * The path relative to the API's base ({core_url} for `core`, the host root otherwise), with parameters in braces:
   * `/record/{id}`. Matched case-insensitively, as the service does.
   */
  path: string;
  /** The resource the route answers (a key of `resources`), when it answers one or a collection of them. */
  resource?: string;
  /** True when the answer is a paged collection of `resource`. */
  collection?: boolean;
  sources: readonly Source[];
  /** Where sources disagree: which one wins and why. */
  note?: string;
  /** The emulator answers this route differently from a tenant, and why (the generated test reports it, pending). */
  knownDifference?: string;
  /**
   * The query a read needs to answer at all (a 400 without it), as the probe sends it: each value a literal, `{name}`
   * for the id of a sample of that resource (`{record}`, `{check}`), or `{name.member}` for a member of that sample
   * (`{classification.namePath}`). Values are taken from earlier answers and stay in memory.
   */
  query?: Readonly<Record<string, string>>;
  /**
   * A POST that only reads (a search, a lookup by ids): the probe may send it, with this body. A string in the body
   * may be a `{name}` or `{name.member}` as in `query`.
   */
  readOnly?: { body: unknown };
}

/** JSON types as a client's typed model reads them. `date-time` and `guid` are strings with a format. */
export type MemberType =
  | 'string'
  | 'guid'
  | 'date-time'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'object'
  | 'array'
  | 'string|null';

export interface MemberEntry {
  name: string;
  type: MemberType;
  /** The service may answer null (a client must then type it nullable). */
  nullable?: boolean;
  /** Only present when selected (`select-<resource>: <name>`), not in the default representation. */
  selectOnly?: boolean;
  /** What the emulator answers when it keeps no value (by type otherwise: '', 0, false, [], {}, null when nullable). */
  default?: unknown;
  sources: readonly Source[];
  note?: string;
  /** The emulator answers this member differently from a tenant, and why (the generated test reports it, pending). */
  knownDifference?: string;
}

export interface RelationEntry {
  /** The link relation in `_links`, and the key of `_embedded` when selected. */
  rel: string;
  /** The value for the `select-<resource>` header; the relation name when absent. */
  selectKey?: string;
  /** The resource it points to (a key of `resources`). */
  target: string;
  /** Embeds a collection (`_embedded.<rel>.items[]`) rather than one resource. */
  collection?: boolean;
  sources: readonly Source[];
  note?: string;
  /** The emulator answers this relation differently from a tenant, and why (the generated test reports it, pending). */
  knownDifference?: string;
}

export interface ResourceEntry {
  /** The resource's name as the service writes it in `select-<name>` headers (`record`, `fileversion`). */
  name: string;
  members: readonly MemberEntry[];
  relations: readonly RelationEntry[];
  /** What a search expression may name on it (properties); fields are named by FieldName/FieldId/FieldLabel. */
  searchable?: readonly { property: string; sources: readonly Source[] }[];
  sources: readonly Source[];
  /**
   * Where an instance is read on the content API (relative to {core_url}): a path answering it, or a collection whose
   * first item is one. `{record}`, `{fileversion}`, … stand for the id of a sample of that resource (a record with a
   * master file). How the generated test and the probe reach a sample.
   */
  sample?: string;
  note?: string;
}

export interface AnalyticsMemberEntry {
  /** `Domain.member`. */
  name: string;
  kind: 'measure' | 'dimension';
  type: 'count' | 'time' | 'number' | 'string' | 'boolean';
  sources: readonly Source[];
}

export interface Catalogue {
  routes: readonly RouteEntry[];
  resources: Readonly<Record<string, ResourceEntry>>;
  analytics: readonly AnalyticsMemberEntry[];
}

const EMPTY_GUID = '00000000000000000000000000000000';

/**
 * The value a member takes where the emulator keeps none: the catalogued default, else one of the member's type, so a
 * client that types the member never reads null where it expects a number, boolean or date (null only when the
 * catalogue says the service may answer null).
 */
export function defaultOf(member: MemberEntry, createdOn?: unknown): unknown {
  if (member.default !== undefined) return member.default;
  // A number or boolean the service may leave null still gets a value: typed clients (.NET, Java) that declare it
  // non-nullable break on null (real-service-notes), and the SDKs that allow null accept a value too.
  if ((member.nullable && !['integer', 'number', 'boolean'].includes(member.type)) || member.type === 'string|null') return null;
  switch (member.type) {
    case 'guid':
      return EMPTY_GUID;
    case 'date-time':
      return typeof createdOn === 'string' ? createdOn : '1970-01-01T00:00:00.000Z';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return '';
  }
}
