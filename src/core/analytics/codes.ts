// The stable diagnostic codes of analytics queries: DA1xxx lexical (JSON text), DA2xxx syntax (JSON grammar, query shape), DA3xxx semantic (Cube's rules and the spec's).
import type { DiagnosticPhase } from '../search';

export const AnalyticsCodes = {
  /** A character that cannot start a JSON token, or a malformed number. */
  InvalidJsonToken: 'DA1001',
  /** A string without its closing quote. */
  UnterminatedJsonString: 'DA1002',
  /** A comment: `.dam-analytics.json` is plain JSON. */
  JsonComment: 'DA1003',

  /** The JSON grammar is broken (missing comma, colon, value, bracket). */
  InvalidJson: 'DA2001',
  /** The text is not one JSON object. */
  NotAnObject: 'DA2002',
  /** A top-level attribute the query object does not have, or an attribute a filter/time dimension does not have. */
  UnknownAttribute: 'DA2003',
  /** An attribute of the wrong JSON type (`measures` not an array of strings, …). */
  WrongAttributeType: 'DA2004',
  /** `measure` (singular): seen in old examples; the documented attribute is `measures`. */
  SingularMeasure: 'DA2005',
  /** Both `measure` and `measures`. */
  MeasureAndMeasures: 'DA2006',
  /** Arrays and objects nested deeper than any query needs (the parser would run out of stack). */
  NestedTooDeep: 'DA2007',

  /** A member name that is not `Domain.member`. */
  MalformedMember: 'DA3001',
  /** The domain part names no domain or joined group. */
  UnknownDomain: 'DA3002',
  /** The domain exists but has no such member. */
  UnknownMember: 'DA3003',
  /** A dimension listed under `measures`. */
  NotAMeasure: 'DA3004',
  /** A measure listed under `dimensions`. */
  NotADimension: 'DA3005',
  /** A joined group the query's domain may not join (spec's table). */
  GroupNotJoinable: 'DA3006',
  /** Members of two of the five domains in one query. */
  SeveralDomains: 'DA3007',
  /** Only joined-group members: no domain to answer from. */
  NoDomain: 'DA3008',
  /** No measure, dimension or time dimension at all. */
  EmptyQuery: 'DA3009',
  /** The same member twice in one list. */
  DuplicateMember: 'DA3010',

  /** A filter without `member`. */
  FilterWithoutMember: 'DA3101',
  /** A filter without `operator`. */
  FilterWithoutOperator: 'DA3102',
  /** An operator that is not one of Cube's. */
  UnknownOperator: 'DA3103',
  /** An operator that does not apply to the member's type (`contains` on a number). */
  OperatorNotForType: 'DA3104',
  /** `values` missing (required for every operator except `set` and `notSet`). */
  MissingValues: 'DA3105',
  /** `values` present but empty. */
  EmptyValues: 'DA3106',
  /** `values` given to `set`/`notSet`, which ignore them. */
  ValuesIgnored: 'DA3107',
  /** A value that cannot be of the member's type, or the wrong number of dates for a date operator. */
  InvalidValue: 'DA3108',

  /** `limit` above 10000. */
  LimitTooLarge: 'DA3201',
  /** `limit` not a non-negative integer. */
  InvalidLimit: 'DA3202',
  /** `offset` not a non-negative integer. */
  InvalidOffset: 'DA3203',
  /** Ordering by a member that is not in the query. */
  OrderMemberNotInQuery: 'DA3204',
  /** An order direction other than `asc`/`desc`. */
  InvalidOrderDirection: 'DA3205',
  /** `offset` without `order`: pages are not stable (the spec: order is required for stable paging). */
  OffsetWithoutOrder: 'DA3206',

  /** A time dimension entry naming a member that is not of type time. */
  NotATimeDimension: 'DA3301',
  /** A granularity Cube does not know. */
  InvalidGranularity: 'DA3302',
  /** A date range that is neither two dates nor a known relative range, or ends before it starts. */
  InvalidDateRange: 'DA3303',
  /** `timezone` not an IANA time zone. */
  InvalidTimezone: 'DA3304',
} as const;

export type AnalyticsCode = (typeof AnalyticsCodes)[keyof typeof AnalyticsCodes];

export function analyticsPhaseOf(code: AnalyticsCode): DiagnosticPhase {
  return code.startsWith('DA1') ? 'lexical' : code.startsWith('DA2') ? 'syntax' : 'semantic';
}
