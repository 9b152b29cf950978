// The analytics member catalogue as data: the spec's five domains, the joined dimension groups and which groups each domain may join.

export type MemberType = 'count' | 'number' | 'string' | 'time' | 'boolean';

/** The five queryable domains ("cubes"); every query is answered from exactly one of them. */
/** A record's attributes: the `Records` joined group, and (with `recordId`) the zero domains' dimensions. */
const recordAttributes = {
  fileCount: 'number',
  createUser: 'string',
  lastModifiedUser: 'string',
  contentType: 'string',
  parentRecordId: 'string',
  createDate: 'time',
  lastModifiedDate: 'time',
} as const;

/** The two "zero" domains share their measures, dimensions and joins. */
const ZERO_DOMAIN = {
  measures: { count: 'count' },
  dimensions: { recordId: 'string', ...recordAttributes },
  joins: ['Classifications', 'RecordMetadata'],
} as const;

export const factDomains = {
  Downloads: {
    description: 'One row per download of a file version or rendition.',
    measures: { count: 'count' },
    dimensions: {
      downloadDate: 'time',
      dateDimensionId: 'number',
      userId: 'number',
      recordId: 'string',
      versionId: 'string',
      renditionId: 'string',
      renditionType: 'string',
      versionNumber: 'number',
      cropHeight: 'number',
      cropWidth: 'number',
      cropType: 'string',
      trimDuration: 'number',
    },
    joins: ['Users', 'Groups', 'DateDimension', 'FiscalMonth', 'Month', 'MonthLongName', 'Quarter', 'Weekday', 'WeekdayLongName', 'Records', 'RecordMetadata', 'Classifications'],
  },
  Views: {
    description: 'One row per view of a record, with the context (space, collection) it was viewed in.',
    measures: { count: 'count' },
    dimensions: {
      viewDate: 'time',
      dateDimensionId: 'number',
      userId: 'number',
      recordId: 'string',
      spaceId: 'string',
      collectionId: 'string',
      hasNoContext: 'boolean',
      hasSpaceContext: 'boolean',
      hasCollectionContext: 'boolean',
    },
    joins: ['Users', 'Groups', 'DateDimension', 'FiscalMonth', 'Month', 'MonthLongName', 'Quarter', 'Weekday', 'WeekdayLongName', 'Records', 'RecordMetadata', 'Classifications', 'Collections', 'Spaces'],
  },
  ContentEngagement: {
    description: 'Views, downloads and impressions per day, user and record.',
    measures: { downloadsCount: 'count', impressionsCount: 'count', viewsCount: 'count' },
    dimensions: { date: 'time', userId: 'number', recordId: 'string' },
    joins: ['Users', 'Groups', 'DateDimension', 'FiscalMonth', 'Month', 'MonthLongName', 'Quarter', 'Weekday', 'WeekdayLongName', 'Records', 'RecordMetadata', 'Classifications'],
  },
  ZeroDownloadRecords: { description: 'Records never downloaded.', ...ZERO_DOMAIN },
  // The spec: "same as ZeroDownloadRecords".
  ZeroViewRecords: { description: 'Records never viewed.', ...ZERO_DOMAIN },
} as const;

const label = { label: 'string' } as const;

/** Dimension groups that exist only joined to a domain; they have no measures of their own. */
export const joinedGroups = {
  Classifications: {
    classificationId: 'string',
    name: 'string',
    identifier: 'string',
    rootClassificationId: 'string',
    parentClassificationId: 'string',
    sortOrder: 'string',
    createUser: 'string',
    lastModifiedUser: 'string',
    contentType: 'string',
    sortIndex: 'number',
    createDate: 'time',
    lastModifiedDate: 'time',
  },
  DateDimension: {
    date: 'time',
    yearStartDate: 'time',
    yearEndDate: 'time',
    quarterStartDate: 'time',
    quarterEndDate: 'time',
    monthStartDate: 'time',
    monthEndDate: 'time',
    weekStartDateSun: 'time',
    weekStartDateMon: 'time',
    fiscalYearStartDate: 'time',
    fiscalYearEndDate: 'time',
    fiscalQuarterStartDate: 'time',
    fiscalQuarterEndDate: 'time',
    fiscalMonthStartDate: 'time',
    fiscalMonthEndDate: 'time',
    year: 'number',
    quarterLabelId: 'number',
    monthLabelId: 'number',
    weekdayLabelId: 'number',
    monthLongNameLabelId: 'number',
    weekdayLongNameLabelId: 'number',
    monthOrder: 'number',
    weekdayOrder: 'number',
    julianDayNumber: 'number',
    fiscalMonthLabelId: 'number',
    fiscalMonthOrder: 'number',
    fiscalYear: 'string',
    fiscalQuarter: 'string',
  },
  FiscalMonth: label,
  Month: label,
  MonthLongName: label,
  Quarter: label,
  Weekday: label,
  WeekdayLongName: label,
  Groups: { active: 'number', name: 'string', loginId: 'string' },
  RecordMetadata: { aprimoContentUsage: 'string', keywords: 'string', smartTags: 'string', title: 'string' },
  Records: recordAttributes,
  Users: {
    active: 'number',
    firstName: 'string',
    lastName: 'string',
    middleName: 'string',
    emailAddress: 'string',
    loginId: 'string',
    company: 'string',
    department: 'string',
    employeeNumber: 'string',
    costCenter: 'string',
    departmentCode: 'string',
    altUserId: 'string',
  },
  Collections: {
    collectionId: 'string',
    name: 'string',
    createUser: 'string',
    lastModifiedUser: 'string',
    viewType: 'string',
    scope: 'string',
    isPublic: 'string',
    description: 'string',
    searchExpression: 'string',
    createDate: 'time',
    lastModifiedDate: 'time',
    numberOfAssets: 'number',
  },
  Spaces: { spaceId: 'string', name: 'string' },
} as const;

export type FactDomain = keyof typeof factDomains;
export type JoinedGroup = keyof typeof joinedGroups;
export type DomainName = FactDomain | JoinedGroup;

type Joins<D extends FactDomain> = (typeof factDomains)[D]['joins'][number];
type OwnMeasure<D extends FactDomain> = `${D}.${keyof (typeof factDomains)[D]['measures'] & string}`;
type OwnDimension<D extends FactDomain> = `${D}.${keyof (typeof factDomains)[D]['dimensions'] & string}`;
type GroupDimension<G extends JoinedGroup> = `${G}.${keyof (typeof joinedGroups)[G] & string}`;
type GroupDimensions<D extends FactDomain> = { [G in Joins<D>]: GroupDimension<G> }[Joins<D>];
type TimeKeys<T> = { [K in keyof T]: T[K] extends 'time' ? K : never }[keyof T] & string;

/** Measure names a query on domain D may use. */
export type MeasureOf<D extends FactDomain> = OwnMeasure<D>;
/** Dimension names a query on domain D may use (its own and those of the groups it joins). */
export type DimensionOf<D extends FactDomain> = OwnDimension<D> | GroupDimensions<D>;
/** Time dimensions a query on domain D may bucket with `timeDimensions`. */
export type TimeDimensionOf<D extends FactDomain> =
  | `${D}.${TimeKeys<(typeof factDomains)[D]['dimensions']>}`
  | { [G in Joins<D>]: `${G}.${TimeKeys<(typeof joinedGroups)[G]>}` }[Joins<D>];

export interface MemberInfo {
  /** Full name, `Domain.member`. */
  name: string;
  domain: DomainName;
  member: string;
  kind: 'measure' | 'dimension';
  type: MemberType;
}

export const factDomainNames = Object.keys(factDomains) as FactDomain[];
export const joinedGroupNames = Object.keys(joinedGroups) as JoinedGroup[];

export function isFactDomain(name: string): name is FactDomain {
  return Object.prototype.hasOwnProperty.call(factDomains, name);
}

export function isJoinedGroup(name: string): name is JoinedGroup {
  return Object.prototype.hasOwnProperty.call(joinedGroups, name);
}

/** The groups a domain may join, in the spec's order. */
export function joinsOf(domain: FactDomain): readonly JoinedGroup[] {
  return factDomains[domain].joins;
}

/** Looks a member up by its full name; undefined when the domain or the member is unknown. */
export function lookupMember(name: string): MemberInfo | undefined {
  const dot = name.indexOf('.');
  if (dot <= 0) return undefined;
  const domain = name.slice(0, dot);
  const member = name.slice(dot + 1);
  if (isFactDomain(domain)) {
    const d = factDomains[domain];
    if (Object.prototype.hasOwnProperty.call(d.measures, member)) {
      return { name, domain, member, kind: 'measure', type: (d.measures as Record<string, MemberType>)[member] };
    }
    if (Object.prototype.hasOwnProperty.call(d.dimensions, member)) {
      return { name, domain, member, kind: 'dimension', type: (d.dimensions as Record<string, MemberType>)[member] };
    }
    return undefined;
  }
  if (isJoinedGroup(domain)) {
    const g = joinedGroups[domain] as Record<string, MemberType>;
    if (Object.prototype.hasOwnProperty.call(g, member)) return { name, domain, member, kind: 'dimension', type: g[member] };
  }
  return undefined;
}

/** Every member of a domain or group, for completion and documentation. */
export function membersOf(domain: DomainName): MemberInfo[] {
  if (isFactDomain(domain)) {
    const d = factDomains[domain];
    return [
      ...Object.entries(d.measures).map(([m, type]) => ({ name: `${domain}.${m}`, domain, member: m, kind: 'measure' as const, type: type as MemberType })),
      ...Object.entries(d.dimensions).map(([m, type]) => ({ name: `${domain}.${m}`, domain, member: m, kind: 'dimension' as const, type: type as MemberType })),
    ];
  }
  return Object.entries(joinedGroups[domain] as Record<string, MemberType>).map(([m, type]) => ({ name: `${domain}.${m}`, domain, member: m, kind: 'dimension' as const, type }));
}

/** Filter operators of Cube that the service accepts; the spec shows equals, contains, inDateRange, gt, gte, set and notSet. */
export const filterOperators = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'startsWith',
  'notStartsWith',
  'endsWith',
  'notEndsWith',
  'gt',
  'gte',
  'lt',
  'lte',
  'set',
  'notSet',
  'inDateRange',
  'notInDateRange',
  'beforeDate',
  'beforeOrOnDate',
  'afterDate',
  'afterOrOnDate',
] as const;
export type FilterOperator = (typeof filterOperators)[number];

/** Which member types each operator applies to; a mismatch would be a SQL type error in Cube. */
export const operatorTypes: Record<FilterOperator, readonly MemberType[]> = {
  equals: ['string', 'number', 'count', 'boolean', 'time'],
  notEquals: ['string', 'number', 'count', 'boolean', 'time'],
  contains: ['string'],
  notContains: ['string'],
  startsWith: ['string'],
  notStartsWith: ['string'],
  endsWith: ['string'],
  notEndsWith: ['string'],
  gt: ['number', 'count'],
  gte: ['number', 'count'],
  lt: ['number', 'count'],
  lte: ['number', 'count'],
  set: ['string', 'number', 'count', 'boolean', 'time'],
  notSet: ['string', 'number', 'count', 'boolean', 'time'],
  inDateRange: ['time'],
  notInDateRange: ['time'],
  beforeDate: ['time'],
  beforeOrOnDate: ['time'],
  afterDate: ['time'],
  afterOrOnDate: ['time'],
};

export function isFilterOperator(op: string): op is FilterOperator {
  return (filterOperators as readonly string[]).includes(op);
}

export const granularities = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export type Granularity = (typeof granularities)[number];

export function isGranularity(g: string): g is Granularity {
  return (granularities as readonly string[]).includes(g);
}

/** The service's cap on `limit`; also Cube's default row limit when a query names none. */
export const MAX_LIMIT = 10000;
