// Validation of analytics query objects by Cube's rules and the spec's: one problem per fault, each naming the member or rule and where it sits.
import {
  factDomainNames,
  filterOperators,
  granularities,
  isFactDomain,
  isFilterOperator,
  isGranularity,
  isJoinedGroup,
  joinedGroupNames,
  joinsOf,
  lookupMember,
  MAX_LIMIT,
  operatorTypes,
  type FactDomain,
  type FilterOperator,
  type Granularity,
  type MemberInfo,
  type MemberType,
} from './catalogue';
import { AnalyticsCodes as C, type AnalyticsCode } from './codes';
import { isRelativeDateRange, parseQueryDate } from './dates';
import { analyticsQuerySchema, queryAttributes, type OrderDirection } from './schema';

export type JsonPath = (string | number)[];

export interface AnalyticsProblem {
  code: AnalyticsCode;
  severity: 'error' | 'warning';
  message: string;
  /** Where in the query object the fault sits. */
  path: JsonPath;
  /** True when the fault is the property name itself (an unknown attribute), not its value. */
  onKey?: boolean;
}

export interface NormalizedFilter {
  member: MemberInfo;
  operator: FilterOperator;
  values: string[];
}

export interface NormalizedTimeDimension {
  member: MemberInfo;
  granularity?: Granularity;
  dateRange?: string | [string, string];
}

/** A query that passed validation, with every member resolved against the catalogue. */
export interface NormalizedQuery {
  domain: FactDomain;
  measures: MemberInfo[];
  dimensions: MemberInfo[];
  filters: NormalizedFilter[];
  timeDimensions: NormalizedTimeDimension[];
  /** Output keys (`Views.count`, `Views.viewDate.month`) with their direction, in order of precedence. */
  order: [string, OrderDirection][];
  limit?: number;
  offset?: number;
  timezone: string;
}

export type CheckResult = { ok: true; query: NormalizedQuery; warnings: AnalyticsProblem[] } | { ok: false; problems: AnalyticsProblem[] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const fmt = (path: JsonPath) => path.reduce<string>((s, p) => (typeof p === 'number' ? `${s}[${p}]` : s ? `${s}.${p}` : p), '');
const NUMBER_RE = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;
const DATE_OPERATORS_TWO: readonly FilterOperator[] = ['inDateRange', 'notInDateRange'];
const DATE_OPERATORS_ONE: readonly FilterOperator[] = ['beforeDate', 'beforeOrOnDate', 'afterDate', 'afterOrOnDate'];
const SINGLE_VALUE: readonly FilterOperator[] = ['gt', 'gte', 'lt', 'lte'];

class Checker {
  readonly problems: AnalyticsProblem[] = [];
  /** Resolved members with where they were used, to settle the domain once all are known. */
  private readonly used: { info: MemberInfo; path: JsonPath }[] = [];

  add(code: AnalyticsCode, message: string, path: JsonPath, severity: 'error' | 'warning' = 'error', onKey = false): void {
    const p: AnalyticsProblem = { code, severity, message, path };
    if (onKey) p.onKey = true;
    this.problems.push(p);
  }

  /** Resolves `Domain.member` (tracked for the domain check unless `track` is false), reporting a malformed name, an unknown domain or an unknown member. */
  member(name: string, path: JsonPath, track = true): MemberInfo | undefined {
    const dot = name.indexOf('.');
    if (dot <= 0 || dot === name.length - 1) {
      this.add(C.MalformedMember, `Member '${name}' must be written Domain.member (for example 'Views.count').`, path);
      return undefined;
    }
    const domain = name.slice(0, dot);
    if (!isFactDomain(domain) && !isJoinedGroup(domain)) {
      this.add(
        C.UnknownDomain,
        `Domain '${domain}' of member '${name}' does not exist; domains: ${factDomainNames.join(', ')}; joined groups: ${joinedGroupNames.join(', ')}.`,
        path,
      );
      return undefined;
    }
    const info = lookupMember(name);
    if (!info) {
      this.add(C.UnknownMember, `Member '${name}' not found: '${domain}' has no member '${name.slice(dot + 1)}'.`, path);
      return undefined;
    }
    if (track) this.used.push({ info, path });
    return info;
  }

  stringList(q: Record<string, unknown>, key: string, path: JsonPath): { value: string; path: JsonPath }[] {
    const v = q[key];
    if (v === undefined) return [];
    if (!Array.isArray(v)) {
      this.add(C.WrongAttributeType, `'${fmt(path)}' must be an array of member names.`, path);
      return [];
    }
    const out: { value: string; path: JsonPath }[] = [];
    const seen = new Set<string>();
    v.forEach((item, i) => {
      const p = [...path, i];
      if (typeof item !== 'string') {
        this.add(C.WrongAttributeType, `'${fmt(p)}' must be a member name (a string).`, p);
        return;
      }
      if (seen.has(item)) this.add(C.DuplicateMember, `Member '${item}' is listed twice in '${fmt(path)}'.`, p, 'warning');
      seen.add(item);
      out.push({ value: item, path: p });
    });
    return out;
  }

  /** The one domain of the query; reports members of a second domain and groups the domain may not join. */
  settleDomain(): FactDomain | undefined {
    let domain: FactDomain | undefined;
    let first: MemberInfo | undefined;
    for (const { info, path } of this.used) {
      if (!isFactDomain(info.domain)) continue;
      if (!domain || !first) {
        domain = info.domain;
        first = info;
      } else if (info.domain !== domain) {
        this.add(
          C.SeveralDomains,
          `Member '${info.name}' is from domain '${info.domain}' but '${first.name}' is from '${domain}'; a query reads one domain.`,
          path,
        );
      }
    }
    for (const { info, path } of this.used) {
      if (isFactDomain(info.domain)) continue;
      if (!domain) {
        this.add(
          C.NoDomain,
          `Member '${info.name}' is from the joined group '${info.domain}', which needs a member of a domain (${factDomainNames.join(', ')}) in the same query.`,
          path,
        );
        return undefined;
      }
      const joins = joinsOf(domain);
      if (!joins.includes(info.domain as (typeof joins)[number])) {
        this.add(C.GroupNotJoinable, `Member '${info.name}' cannot be used with domain '${domain}': it joins only ${joins.join(', ')}.`, path);
      }
    }
    return domain;
  }
}

function checkValues(ck: Checker, info: MemberInfo | undefined, operator: FilterOperator | undefined, filter: Record<string, unknown>, path: JsonPath): string[] {
  const vpath = [...path, 'values'];
  const raw = filter.values;
  const name = info?.name ?? String(filter.member ?? '?');
  if (operator === 'set' || operator === 'notSet') {
    if (raw !== undefined) ck.add(C.ValuesIgnored, `Operator '${operator}' takes no values; those of the filter on '${name}' are ignored.`, vpath, 'warning');
    return [];
  }
  if (raw === undefined) {
    if (operator) ck.add(C.MissingValues, `Filter on '${name}' with operator '${operator}' needs 'values' (only set and notSet take none).`, [...path, 'operator']);
    return [];
  }
  if (!Array.isArray(raw)) {
    ck.add(C.WrongAttributeType, `'values' of the filter on '${name}' must be an array of strings.`, vpath);
    return [];
  }
  const values: string[] = [];
  raw.forEach((v, i) => {
    if (typeof v === 'string') values.push(v);
    else ck.add(C.WrongAttributeType, `'values[${i}]' of the filter on '${name}' must be a string (the service takes values as strings).`, [...vpath, i]);
  });
  if (raw.length === 0) {
    ck.add(C.EmptyValues, `Filter on '${name}' with operator '${operator ?? '?'}' has empty 'values'.`, vpath);
    return [];
  }
  if (values.length !== raw.length || !info || !operator) return values;

  if (DATE_OPERATORS_TWO.includes(operator)) {
    const bad = values.findIndex((v) => !parseQueryDate(v));
    if (values.length !== 2) ck.add(C.InvalidValue, `Operator '${operator}' on '${name}' needs two dates (YYYY-MM-DD), got ${values.length} value(s).`, vpath);
    else if (bad >= 0) ck.add(C.InvalidValue, `'${values[bad]}' is not a date (YYYY-MM-DD) in the filter on '${name}'.`, [...vpath, bad]);
    else if (parseQueryDate(values[0])!.date > parseQueryDate(values[1])!.date)
      ck.add(C.InvalidValue, `The date range of the filter on '${name}' ends (${values[1]}) before it starts (${values[0]}).`, vpath);
    return values;
  }
  if (DATE_OPERATORS_ONE.includes(operator) || (info.type === 'time' && (operator === 'equals' || operator === 'notEquals'))) {
    if (DATE_OPERATORS_ONE.includes(operator) && values.length !== 1)
      ck.add(C.InvalidValue, `Operator '${operator}' on '${name}' takes exactly one date, got ${values.length}.`, vpath);
    values.forEach((v, i) => {
      if (!parseQueryDate(v)) ck.add(C.InvalidValue, `'${v}' is not a date (YYYY-MM-DD) in the filter on '${name}'.`, [...vpath, i]);
    });
    return values;
  }
  if (SINGLE_VALUE.includes(operator) && values.length !== 1)
    ck.add(C.InvalidValue, `Operator '${operator}' on '${name}' takes exactly one value, got ${values.length}.`, vpath);
  const numeric: MemberType[] = ['number', 'count'];
  values.forEach((v, i) => {
    if (numeric.includes(info.type) && !NUMBER_RE.test(v)) ck.add(C.InvalidValue, `'${v}' is not a number, as '${name}' (${info.type}) needs.`, [...vpath, i]);
    if (info.type === 'boolean' && !['true', 'false', '1', '0'].includes(v.toLowerCase()))
      ck.add(C.InvalidValue, `'${v}' is not true or false, as '${name}' (boolean) needs.`, [...vpath, i]);
  });
  return values;
}

/**
 * Checks a query object (already parsed from JSON) and, when it holds no error, returns it normalised:
 * members resolved, `measure` folded into `measures`, `order` as pairs.
 */
export function checkAnalyticsQuery(input: unknown): CheckResult {
  const ck = new Checker();
  const fail = (): CheckResult => ({ ok: false, problems: ck.problems });
  if (!isObject(input)) {
    ck.add(C.NotAnObject, 'An analytics query is one JSON object with measures, dimensions, filters, timeDimensions, order, limit and offset.', []);
    return fail();
  }
  const q = input;
  for (const key of Object.keys(q)) {
    if (!(queryAttributes as string[]).includes(key)) {
      ck.add(C.UnknownAttribute, `Unknown query attribute '${key}'; attributes: ${queryAttributes.filter((a) => a !== 'measure').join(', ')}.`, [key], 'error', true);
    }
  }

  // Measures (with the old singular spelling folded in).
  let measureRefs = ck.stringList(q, 'measures', ['measures']);
  if (q.measure !== undefined) {
    if (q.measures !== undefined) {
      ck.add(C.MeasureAndMeasures, `Both 'measure' and 'measures' are given; use only 'measures'.`, ['measure'], 'error', true);
    } else {
      ck.add(C.SingularMeasure, `'measure' is an old spelling; the documented attribute is 'measures'.`, ['measure'], 'warning', true);
      measureRefs = typeof q.measure === 'string' ? [{ value: q.measure, path: ['measure'] }] : ck.stringList(q, 'measure', ['measure']);
    }
  }
  const measures: MemberInfo[] = [];
  for (const { value, path } of measureRefs) {
    const info = ck.member(value, path);
    if (!info) continue;
    if (info.kind !== 'measure') ck.add(C.NotAMeasure, `'${value}' is a dimension, not a measure; list it under 'dimensions'.`, path);
    else measures.push(info);
  }

  const dimensions: MemberInfo[] = [];
  for (const { value, path } of ck.stringList(q, 'dimensions', ['dimensions'])) {
    const info = ck.member(value, path);
    if (!info) continue;
    if (info.kind !== 'dimension') ck.add(C.NotADimension, `'${value}' is a measure, not a dimension; list it under 'measures'.`, path);
    else dimensions.push(info);
  }

  const timeDimensions: NormalizedTimeDimension[] = [];
  if (q.timeDimensions !== undefined) {
    if (!Array.isArray(q.timeDimensions)) ck.add(C.WrongAttributeType, `'timeDimensions' must be an array of objects with dimension, granularity and dateRange.`, ['timeDimensions']);
    else
      q.timeDimensions.forEach((td: unknown, i) => {
        const path: JsonPath = ['timeDimensions', i];
        if (!isObject(td)) {
          ck.add(C.WrongAttributeType, `'${fmt(path)}' must be an object with dimension, granularity and dateRange.`, path);
          return;
        }
        for (const key of Object.keys(td))
          if (!['dimension', 'granularity', 'dateRange'].includes(key))
            ck.add(C.UnknownAttribute, `Unknown attribute '${key}' in '${fmt(path)}'; a time dimension has dimension, granularity and dateRange.`, [...path, key], 'error', true);
        if (typeof td.dimension !== 'string') {
          ck.add(C.WrongAttributeType, `'${fmt(path)}' needs 'dimension', a member name.`, td.dimension === undefined ? path : [...path, 'dimension']);
          return;
        }
        const info = ck.member(td.dimension, [...path, 'dimension']);
        if (info && info.type !== 'time')
          ck.add(C.NotATimeDimension, `'${info.name}' is not a time dimension (it is ${info.kind === 'measure' ? 'a measure' : info.type}); timeDimensions take members of type time.`, [...path, 'dimension']);
        let granularity: Granularity | undefined;
        if (td.granularity !== undefined) {
          if (typeof td.granularity === 'string' && isGranularity(td.granularity)) granularity = td.granularity;
          else ck.add(C.InvalidGranularity, `Unknown granularity '${String(td.granularity)}' for '${td.dimension}'; granularities: ${granularities.join(', ')}.`, [...path, 'granularity']);
        }
        let dateRange: string | [string, string] | undefined;
        if (td.dateRange !== undefined) {
          const dr = td.dateRange;
          const two = Array.isArray(dr) && dr.length === 2 && dr.every((d) => typeof d === 'string' && parseQueryDate(d));
          if (two && parseQueryDate(dr[0] as string)!.date > parseQueryDate(dr[1] as string)!.date)
            ck.add(C.InvalidDateRange, `The dateRange of '${td.dimension}' ends (${String(dr[1])}) before it starts (${String(dr[0])}).`, [...path, 'dateRange']);
          else if (two) dateRange = [dr[0] as string, dr[1] as string];
          else if (typeof dr === 'string' && isRelativeDateRange(dr)) dateRange = dr;
          else
            ck.add(
              C.InvalidDateRange,
              `The dateRange of '${td.dimension}' must be two dates ["YYYY-MM-DD", "YYYY-MM-DD"] or a relative range such as 'last 30 days' or 'this month', got ${JSON.stringify(dr)}.`,
              [...path, 'dateRange'],
            );
        }
        if (info && info.type === 'time') {
          const out: NormalizedTimeDimension = { member: info };
          if (granularity) out.granularity = granularity;
          if (dateRange) out.dateRange = dateRange;
          timeDimensions.push(out);
        }
      });
  }

  const filters: NormalizedFilter[] = [];
  if (q.filters !== undefined) {
    if (!Array.isArray(q.filters)) ck.add(C.WrongAttributeType, `'filters' must be an array of objects with member, operator and values.`, ['filters']);
    else
      q.filters.forEach((f: unknown, i) => {
        const path: JsonPath = ['filters', i];
        if (!isObject(f)) {
          ck.add(C.WrongAttributeType, `'${fmt(path)}' must be an object with member, operator and values.`, path);
          return;
        }
        for (const key of Object.keys(f))
          if (!['member', 'operator', 'values'].includes(key))
            ck.add(C.UnknownAttribute, `Unknown attribute '${key}' in '${fmt(path)}'; a filter has member, operator and values.`, [...path, key], 'error', true);
        let info: MemberInfo | undefined;
        if (f.member === undefined) ck.add(C.FilterWithoutMember, `'${fmt(path)}' needs 'member', the member to filter on.`, path);
        else if (typeof f.member !== 'string') ck.add(C.WrongAttributeType, `'member' of '${fmt(path)}' must be a member name (a string).`, [...path, 'member']);
        else info = ck.member(f.member, [...path, 'member']);
        let operator: FilterOperator | undefined;
        const label = typeof f.member === 'string' ? `the filter on '${f.member}'` : `'${fmt(path)}'`;
        if (f.operator === undefined) ck.add(C.FilterWithoutOperator, `${label[0].toUpperCase()}${label.slice(1)} needs 'operator'.`, typeof f.member === 'string' ? [...path, 'member'] : path);
        else if (typeof f.operator !== 'string' || !isFilterOperator(f.operator))
          ck.add(C.UnknownOperator, `Unknown operator '${String(f.operator)}' in ${label}; operators: ${filterOperators.join(', ')}.`, [...path, 'operator']);
        else {
          operator = f.operator;
          if (info && !operatorTypes[operator].includes(info.type))
            ck.add(C.OperatorNotForType, `Operator '${operator}' does not apply to '${info.name}' (${info.type}); it applies to ${operatorTypes[operator].join(', ')}.`, [...path, 'operator']);
        }
        const values = checkValues(ck, info, operator, f, path);
        if (info && operator) filters.push({ member: info, operator, values });
      });
  }

  // The output keys a query produces are what `order` may name.
  const outputKeys = new Set<string>([...measures, ...dimensions].map((m) => m.name));
  for (const td of timeDimensions) {
    if (td.granularity) {
      outputKeys.add(`${td.member.name}.${td.granularity}`);
      outputKeys.add(td.member.name);
    }
  }
  const order: [string, OrderDirection][] = [];
  if (q.order !== undefined) {
    let pairs: { member: unknown; dir: unknown; path: JsonPath; dirPath: JsonPath }[] = [];
    if (isObject(q.order)) pairs = Object.entries(q.order).map(([member, dir]) => ({ member, dir, path: ['order', member], dirPath: ['order', member] }));
    else if (Array.isArray(q.order) && q.order.every((p) => Array.isArray(p) && p.length === 2))
      pairs = (q.order as unknown[][]).map((p, i) => ({ member: p[0], dir: p[1], path: ['order', i, 0], dirPath: ['order', i, 1] }));
    else ck.add(C.WrongAttributeType, `'order' must be an object of member names to 'asc' or 'desc'.`, ['order']);
    for (const { member, dir, path, dirPath } of pairs) {
      const onKey = isObject(q.order);
      if (typeof member !== 'string') {
        ck.add(C.WrongAttributeType, `An 'order' member must be a member name (a string).`, path);
        continue;
      }
      if (!outputKeys.has(member)) {
        // A name with a granularity suffix is checked by its member part; an unknown member is reported as unknown, not as missing.
        const parts = member.split('.');
        const base = parts.length === 3 && isGranularity(parts[2]) ? `${parts[0]}.${parts[1]}` : member;
        if (ck.member(base, path, false))
          ck.add(C.OrderMemberNotInQuery, `Order member '${member}' is not in the query; order by one of its measures, dimensions or time dimensions with a granularity.`, path, 'error', onKey);
      }
      if (dir !== 'asc' && dir !== 'desc') ck.add(C.InvalidOrderDirection, `Order direction for '${member}' must be 'asc' or 'desc', got ${JSON.stringify(dir)}.`, dirPath);
      else if (outputKeys.has(member)) order.push([member, dir]);
    }
  }

  let limit: number | undefined;
  if (q.limit !== undefined) {
    if (typeof q.limit !== 'number' || !Number.isInteger(q.limit) || q.limit < 0) ck.add(C.InvalidLimit, `limit must be a whole number from 0 to ${MAX_LIMIT}, got ${JSON.stringify(q.limit)}.`, ['limit']);
    else if (q.limit > MAX_LIMIT) ck.add(C.LimitTooLarge, `limit ${q.limit} is over the maximum of ${MAX_LIMIT} rows per query.`, ['limit']);
    else limit = q.limit;
  }
  let offset: number | undefined;
  if (q.offset !== undefined) {
    if (typeof q.offset !== 'number' || !Number.isInteger(q.offset) || q.offset < 0) ck.add(C.InvalidOffset, `offset must be a whole number of rows to skip, 0 or more, got ${JSON.stringify(q.offset)}.`, ['offset']);
    else offset = q.offset;
    if (q.order === undefined) ck.add(C.OffsetWithoutOrder, `offset without order: pages are stable only with 'order'.`, ['offset'], 'warning', true);
  }
  let timezone = 'UTC';
  if (q.timezone !== undefined) {
    if (typeof q.timezone === 'string' && isTimeZone(q.timezone)) timezone = q.timezone;
    else ck.add(C.InvalidTimezone, `timezone ${JSON.stringify(q.timezone)} is not an IANA time zone such as 'UTC' or 'Europe/Berlin'.`, ['timezone']);
  }

  // A time dimension without granularity only filters; the answer needs at least one column.
  const hasContent =
    measureRefs.length > 0 ||
    (Array.isArray(q.dimensions) && q.dimensions.length > 0) ||
    (Array.isArray(q.timeDimensions) && q.timeDimensions.some((td) => isObject(td) && td.granularity !== undefined));
  if (!hasContent) ck.add(C.EmptyQuery, 'The query names no measure, dimension or time dimension with a granularity, so it has no column to answer.', []);

  const domain = ck.settleDomain();
  if (ck.problems.some((p) => p.severity === 'error') || !domain) return fail();
  // The hand checks above are stricter than the schema; the schema parse keeps the two in step.
  const parsed = analyticsQuerySchema.safeParse(q);
  if (!parsed.success) {
    ck.add(C.WrongAttributeType, `The query does not have the documented shape: ${parsed.error.issues[0]?.message ?? 'invalid'}.`, parsed.error.issues[0]?.path.map((p) => (typeof p === 'number' ? p : String(p))) ?? []);
    return fail();
  }
  const query: NormalizedQuery = { domain, measures, dimensions, filters, timeDimensions, order, timezone };
  if (limit !== undefined) query.limit = limit;
  if (offset !== undefined) query.offset = offset;
  return { ok: true, query, warnings: ck.problems };
}

/** Every problem of a query object (errors and warnings), in document order of discovery. */
export function validateAnalyticsQuery(input: unknown): AnalyticsProblem[] {
  const r = checkAnalyticsQuery(input);
  return r.ok ? r.warnings : r.problems;
}

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
