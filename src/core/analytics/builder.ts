// A typed builder of analytics queries: member names are checked by the compiler against the chosen domain and its joins.
import type { DimensionOf, FactDomain, FilterOperator, Granularity, MeasureOf, TimeDimensionOf } from './catalogue';
import type { AnalyticsQuery, OrderDirection } from './schema';
import { checkAnalyticsQuery, type AnalyticsProblem } from './validate';

export type MemberOf<D extends FactDomain> = MeasureOf<D> | DimensionOf<D>;
/** What `order` may name: a measure, a dimension, or a time dimension with its granularity suffix. */
export type OrderKeyOf<D extends FactDomain> = MemberOf<D> | `${TimeDimensionOf<D>}.${Granularity}`;

/** Thrown by `build()` and the client when a query breaks a rule; carries every problem. */
export class AnalyticsQueryError extends Error {
  constructor(readonly problems: AnalyticsProblem[]) {
    super(problems.filter((p) => p.severity === 'error').map((p) => p.message).join('\n') || 'Invalid analytics query.');
    this.name = 'AnalyticsQueryError';
  }
}

export class AnalyticsQueryBuilder<D extends FactDomain> {
  private readonly q: AnalyticsQuery = {};

  constructor(readonly domain: D) {}

  measures(...members: MeasureOf<D>[]): this {
    this.q.measures = [...(this.q.measures ?? []), ...members];
    return this;
  }

  dimensions(...members: DimensionOf<D>[]): this {
    this.q.dimensions = [...(this.q.dimensions ?? []), ...members];
    return this;
  }

  filter(member: MemberOf<D>, operator: 'set' | 'notSet'): this;
  filter(member: MemberOf<D>, operator: Exclude<FilterOperator, 'set' | 'notSet'>, values: string[]): this;
  filter(member: MemberOf<D>, operator: FilterOperator, values?: string[]): this {
    const f: NonNullable<AnalyticsQuery['filters']>[number] = { member, operator };
    if (values !== undefined) f.values = values;
    this.q.filters = [...(this.q.filters ?? []), f];
    return this;
  }

  timeDimension(dimension: TimeDimensionOf<D>, granularity?: Granularity, dateRange?: string | [string, string]): this {
    const td: NonNullable<AnalyticsQuery['timeDimensions']>[number] = { dimension };
    if (granularity) td.granularity = granularity;
    if (dateRange) td.dateRange = dateRange;
    this.q.timeDimensions = [...(this.q.timeDimensions ?? []), td];
    return this;
  }

  order(member: OrderKeyOf<D>, direction: OrderDirection = 'asc'): this {
    const order = (this.q.order && !Array.isArray(this.q.order) ? this.q.order : {}) as Record<string, OrderDirection>;
    order[member] = direction;
    this.q.order = order;
    return this;
  }

  limit(n: number): this {
    this.q.limit = n;
    return this;
  }

  offset(n: number): this {
    this.q.offset = n;
    return this;
  }

  /** The query object, checked by the same rules as `dam lint` and the emulator; throws on an error. */
  build(): AnalyticsQuery {
    const r = checkAnalyticsQuery(this.q);
    if (!r.ok) throw new AnalyticsQueryError(r.problems);
    return structuredClone(this.q);
  }
}

/** Starts a query on one of the five domains: `analyticsQuery('Views').measures('Views.count')…build()`. */
export function analyticsQuery<D extends FactDomain>(domain: D): AnalyticsQueryBuilder<D> {
  return new AnalyticsQueryBuilder(domain);
}
