// Compiles a validated analytics query to one parameterised SQL statement over the event tables and their joined dimensions.
import {
  dateEndExclusive,
  dateStart,
  MAX_LIMIT,
  resolveDateRange,
  type FactDomain,
  type MemberInfo,
  type NormalizedFilter,
  type NormalizedQuery,
} from '../../core/analytics';
import type { SqlParam } from '../storage/store';

type JoinName = 'u' | 'up' | 'gm' | 'g' | 'dd' | 'r' | 'rm' | 'rc' | 'c' | 'col' | 'sp';

/** How a member reads in SQL: its expression, the joins it needs, and for time members whether it is a date or an instant. */
interface Column {
  sql: string;
  joins?: JoinName[];
  time?: 'instant' | 'date';
}

const JOINS: Record<JoinName, (domain: FactDomain) => string> = {
  u: () => 'LEFT JOIN users u ON u.id = f.user_id',
  up: () => 'LEFT JOIN analytics_user_profiles up ON up.user_id = f.user_id',
  // One row per group membership: a user in two groups counts twice, as the spec warns.
  gm: () => 'LEFT JOIN user_group_members gm ON gm.user_id = f.user_id',
  g: () => 'LEFT JOIN user_groups g ON g.id = gm.group_id',
  dd: (d) => (d === 'ContentEngagement' ? 'LEFT JOIN analytics_date_dimension dd ON dd.date = f.date' : 'LEFT JOIN analytics_date_dimension dd ON dd.id = f.date_dimension_id'),
  r: () => 'LEFT JOIN records r ON r.id = f.record_id',
  rm: () => 'LEFT JOIN analytics_record_metadata rm ON rm.record_id = f.record_id',
  // One row per classification of the record: a record with three classifications counts three times.
  // Its ids are uuids (migration 014): dam_uid gives the text ids theirs.
  rc: () => 'LEFT JOIN record_classifications rc ON rc.record_id = dam_uid(f.record_id)',
  c: () => 'LEFT JOIN analytics_classifications c ON dam_uid(c.id) = rc.classification_id',
  col: () => 'LEFT JOIN analytics_collections col ON col.id = f.collection_id',
  sp: () => 'LEFT JOIN analytics_spaces sp ON sp.id = f.space_id',
};
const JOIN_ORDER: JoinName[] = ['u', 'up', 'gm', 'g', 'dd', 'r', 'rm', 'rc', 'c', 'col', 'sp'];
const JOIN_NEEDS: Partial<Record<JoinName, JoinName>> = { g: 'gm', c: 'rc' };

const zeroFrom = (events: string) =>
  `(SELECT r0.*, r0.id AS record_id FROM records r0 WHERE NOT EXISTS (SELECT 1 FROM ${events} e WHERE e.record_id = r0.id)) f`;

const FROM: Record<FactDomain, string> = {
  Downloads: 'analytics_download_events f',
  Views: 'analytics_view_events f',
  ContentEngagement: 'analytics_content_engagement f',
  ZeroDownloadRecords: zeroFrom('analytics_download_events'),
  ZeroViewRecords: zeroFrom('analytics_view_events'),
};

const login = (idSql: string) => `(SELECT login FROM users WHERE id = ${idSql})`;

const recordColumns = (a: string, joins: JoinName[] = []): Record<string, Column> => ({
  recordId: { sql: `${a}.id`, joins },
  fileCount: { sql: `${a}.file_count`, joins },
  createUser: { sql: login(`${a}.created_by`), joins },
  lastModifiedUser: { sql: login(`${a}.modified_by`), joins },
  contentType: { sql: `${a}.content_type`, joins },
  // The emulator's records have no parent record.
  parentRecordId: { sql: 'NULL::text', joins },
  createDate: { sql: `${a}.created_on`, joins, time: 'instant' },
  lastModifiedDate: { sql: `${a}.modified_on`, joins, time: 'instant' },
});

const dd = (col: string, time?: 'date'): Column => (time ? { sql: `dd.${col}`, joins: ['dd'], time } : { sql: `dd.${col}`, joins: ['dd'] });

const GROUP_COLUMNS: Record<string, Record<string, Column>> = {
  Users: {
    active: { sql: 'CASE WHEN u.active THEN 1 ELSE 0 END', joins: ['u'] },
    firstName: { sql: 'u.first_name', joins: ['u'] },
    lastName: { sql: 'u.last_name', joins: ['u'] },
    middleName: { sql: 'up.middle_name', joins: ['up'] },
    emailAddress: { sql: 'u.email', joins: ['u'] },
    loginId: { sql: 'u.login', joins: ['u'] },
    company: { sql: 'up.company', joins: ['up'] },
    department: { sql: 'up.department', joins: ['up'] },
    employeeNumber: { sql: 'up.employee_number', joins: ['up'] },
    costCenter: { sql: 'up.cost_center', joins: ['up'] },
    departmentCode: { sql: 'up.department_code', joins: ['up'] },
    altUserId: { sql: 'up.alt_user_id', joins: ['up'] },
  },
  Groups: {
    active: { sql: 'CASE WHEN g.id IS NULL THEN NULL ELSE 1 END', joins: ['g'] },
    name: { sql: 'g.name', joins: ['g'] },
    loginId: { sql: "lower(replace(g.name, ' ', ''))", joins: ['g'] },
  },
  DateDimension: {
    date: dd('date', 'date'),
    yearStartDate: dd('year_start_date', 'date'),
    yearEndDate: dd('year_end_date', 'date'),
    quarterStartDate: dd('quarter_start_date', 'date'),
    quarterEndDate: dd('quarter_end_date', 'date'),
    monthStartDate: dd('month_start_date', 'date'),
    monthEndDate: dd('month_end_date', 'date'),
    weekStartDateSun: dd('week_start_date_sun', 'date'),
    weekStartDateMon: dd('week_start_date_mon', 'date'),
    fiscalYearStartDate: dd('fiscal_year_start_date', 'date'),
    fiscalYearEndDate: dd('fiscal_year_end_date', 'date'),
    fiscalQuarterStartDate: dd('fiscal_quarter_start_date', 'date'),
    fiscalQuarterEndDate: dd('fiscal_quarter_end_date', 'date'),
    fiscalMonthStartDate: dd('fiscal_month_start_date', 'date'),
    fiscalMonthEndDate: dd('fiscal_month_end_date', 'date'),
    year: dd('year'),
    quarterLabelId: dd('quarter_label_id'),
    monthLabelId: dd('month_label_id'),
    weekdayLabelId: dd('weekday_label_id'),
    monthLongNameLabelId: dd('month_long_name_label_id'),
    weekdayLongNameLabelId: dd('weekday_long_name_label_id'),
    monthOrder: dd('month_order'),
    weekdayOrder: dd('weekday_order'),
    julianDayNumber: dd('julian_day_number'),
    fiscalMonthLabelId: dd('fiscal_month_label_id'),
    fiscalMonthOrder: dd('fiscal_month_order'),
    fiscalYear: dd('fiscal_year'),
    fiscalQuarter: dd('fiscal_quarter'),
  },
  FiscalMonth: { label: dd('fiscal_month_label') },
  Month: { label: dd('month_label') },
  MonthLongName: { label: dd('month_long_name_label') },
  Quarter: { label: dd('quarter_label') },
  Weekday: { label: dd('weekday_label') },
  WeekdayLongName: { label: dd('weekday_long_name_label') },
  Records: recordColumns('r', ['r']),
  RecordMetadata: {
    aprimoContentUsage: { sql: 'rm.aprimo_content_usage', joins: ['rm'] },
    keywords: { sql: 'rm.keywords', joins: ['rm'] },
    smartTags: { sql: 'rm.smart_tags', joins: ['rm'] },
    title: { sql: 'r.title', joins: ['r'] },
  },
  Classifications: {
    classificationId: { sql: 'c.id', joins: ['c'] },
    name: { sql: 'c.name', joins: ['c'] },
    identifier: { sql: 'c.identifier', joins: ['c'] },
    rootClassificationId: { sql: 'c.root_id', joins: ['c'] },
    parentClassificationId: { sql: 'c.parent_id', joins: ['c'] },
    sortOrder: { sql: 'c.sort_order', joins: ['c'] },
    createUser: { sql: login('c.created_by'), joins: ['c'] },
    lastModifiedUser: { sql: login('c.modified_by'), joins: ['c'] },
    contentType: { sql: "CASE WHEN c.id IS NULL THEN NULL ELSE 'Classification' END", joins: ['c'] },
    sortIndex: { sql: 'c.sort_index', joins: ['c'] },
    createDate: { sql: 'c.created_on', joins: ['c'], time: 'instant' },
    lastModifiedDate: { sql: 'c.modified_on', joins: ['c'], time: 'instant' },
  },
  Collections: {
    collectionId: { sql: 'col.id', joins: ['col'] },
    name: { sql: 'col.name', joins: ['col'] },
    createUser: { sql: 'col.create_user', joins: ['col'] },
    lastModifiedUser: { sql: 'col.last_modified_user', joins: ['col'] },
    viewType: { sql: 'col.view_type', joins: ['col'] },
    scope: { sql: 'col.scope', joins: ['col'] },
    isPublic: { sql: 'col.is_public', joins: ['col'] },
    description: { sql: 'col.description', joins: ['col'] },
    searchExpression: { sql: 'col.search_expression', joins: ['col'] },
    createDate: { sql: 'col.create_date', joins: ['col'], time: 'instant' },
    lastModifiedDate: { sql: 'col.last_modified_date', joins: ['col'], time: 'instant' },
    numberOfAssets: { sql: 'col.number_of_assets', joins: ['col'] },
  },
  Spaces: { spaceId: { sql: 'sp.id', joins: ['sp'] }, name: { sql: 'sp.name', joins: ['sp'] } },
};

const FACT_COLUMNS: Record<FactDomain, Record<string, Column>> = {
  Downloads: {
    count: { sql: 'count(*)' },
    downloadDate: { sql: 'f.download_date', time: 'instant' },
    dateDimensionId: { sql: 'f.date_dimension_id' },
    userId: { sql: 'f.user_id' },
    recordId: { sql: 'f.record_id' },
    versionId: { sql: 'f.version_id' },
    renditionId: { sql: 'f.rendition_id' },
    renditionType: { sql: 'f.rendition_type' },
    versionNumber: { sql: 'f.version_number' },
    cropHeight: { sql: 'f.crop_height' },
    cropWidth: { sql: 'f.crop_width' },
    cropType: { sql: 'f.crop_type' },
    trimDuration: { sql: 'f.trim_duration' },
  },
  Views: {
    count: { sql: 'count(*)' },
    viewDate: { sql: 'f.view_date', time: 'instant' },
    dateDimensionId: { sql: 'f.date_dimension_id' },
    userId: { sql: 'f.user_id' },
    recordId: { sql: 'f.record_id' },
    spaceId: { sql: 'f.space_id' },
    collectionId: { sql: 'f.collection_id' },
    hasNoContext: { sql: '(f.space_id IS NULL AND f.collection_id IS NULL)' },
    hasSpaceContext: { sql: '(f.space_id IS NOT NULL)' },
    hasCollectionContext: { sql: '(f.collection_id IS NOT NULL)' },
  },
  ContentEngagement: {
    downloadsCount: { sql: 'coalesce(sum(f.downloads_count), 0)' },
    impressionsCount: { sql: 'coalesce(sum(f.impressions_count), 0)' },
    viewsCount: { sql: 'coalesce(sum(f.views_count), 0)' },
    date: { sql: 'f.date', time: 'date' },
    userId: { sql: 'f.user_id' },
    recordId: { sql: 'f.record_id' },
  },
  ZeroDownloadRecords: { count: { sql: 'count(*)' }, ...recordColumns('f') },
  ZeroViewRecords: { count: { sql: 'count(*)' }, ...recordColumns('f') },
};

export function columnOf(domain: FactDomain, member: MemberInfo): Column {
  const table = member.domain === domain ? FACT_COLUMNS[domain] : GROUP_COLUMNS[member.domain];
  const col = table?.[member.member];
  // The catalogue and these tables are kept in step by a unit test; reaching this is a programming error.
  if (!col) throw new Error(`analytics: no SQL column for ${member.name} in ${domain}`);
  return col;
}

export interface CompiledQuery {
  sql: string;
  params: SqlParam[];
  /** Output key of each result column c0, c1, … (a time bucket also answers under its plain member name). */
  keys: string[][];
}

/** Compiles a query that passed `checkAnalyticsQuery`. `now` resolves relative date ranges. */
export interface CompileOptions {
  /** Reads the first `head` rows of the ordered answer instead of the query's own limit/offset (the page cache slices them). */
  head?: number;
}

export function compileAnalyticsQuery(q: NormalizedQuery, now: Date, options: CompileOptions = {}): CompiledQuery {
  const params: SqlParam[] = [];
  const p = (v: SqlParam) => `$${params.push(v)}`;
  // The time zone is bound once, and only when a time member needs it (an unused parameter has no type).
  let tzRef: string | undefined;
  const tz = () => (tzRef ??= `${p(q.timezone)}::text`);
  const joins = new Set<JoinName>();
  const use = (m: MemberInfo): Column => {
    const col = columnOf(q.domain, m);
    for (const j of col.joins ?? []) {
      joins.add(j);
      const need = JOIN_NEEDS[j];
      if (need) joins.add(need);
    }
    return col;
  };
  // Wall-clock time in the query's time zone: what Cube buckets and compares.
  const wall = (col: Column) => (col.time === 'date' ? `(${col.sql})::timestamp` : `(${col.sql} AT TIME ZONE ${tz()})`);

  interface Out {
    raw: string;
    keys: string[];
    type: MemberInfo['type'];
    grouped: boolean;
  }
  const outs: Out[] = [];
  for (const d of q.dimensions) {
    const col = use(d);
    outs.push({ raw: col.time ? wall(col) : col.sql, keys: [d.name], type: d.type, grouped: true });
  }
  for (const td of q.timeDimensions) {
    if (!td.granularity) continue;
    const col = use(td.member);
    const keys = [`${td.member.name}.${td.granularity}`];
    // Cube answers the bucket under both names unless the plain member is also a dimension of its own.
    if (!q.dimensions.some((d) => d.name === td.member.name) && !outs.some((o) => o.keys.includes(td.member.name))) keys.push(td.member.name);
    outs.push({ raw: `date_trunc('${td.granularity}', ${wall(col)})`, keys, type: 'time', grouped: true });
  }
  for (const m of q.measures) outs.push({ raw: use(m).sql, keys: [m.name], type: m.type, grouped: false });

  const where: string[] = [];
  const having: string[] = [];
  for (const f of q.filters) {
    const col = use(f.member);
    const expr = f.member.type === 'time' ? wall(col) : col.sql;
    (f.member.kind === 'measure' ? having : where).push(filterSql(f, expr, p));
  }
  for (const td of q.timeDimensions) {
    if (!td.dateRange) continue;
    const bounds = resolveDateRange(td.dateRange, now);
    if (!bounds) continue;
    const expr = wall(use(td.member));
    where.push(`${expr} >= ${p(bounds.from)}::timestamp AND ${expr} < ${p(bounds.to)}::timestamp`);
  }

  const index = (key: string) => outs.findIndex((o) => o.keys.includes(key));
  const orderBy: string[] = [];
  const ordered = new Set<number>();
  const order = q.order.length > 0 ? q.order : defaultOrder(q, outs.map((o) => o.keys));
  for (const [key, dir] of order) {
    const i = index(key);
    if (i < 0 || ordered.has(i)) continue;
    ordered.add(i);
    orderBy.push(`${i + 1} ${dir === 'desc' ? 'DESC' : 'ASC'} NULLS LAST`);
  }
  // The grouped columns make each row unique, so adding them as tie-breakers makes limit/offset pages stable.
  outs.forEach((o, i) => {
    if (o.grouped && !ordered.has(i)) orderBy.push(`${i + 1} ASC NULLS LAST`);
  });

  const groupBy = outs.map((o, i) => (o.grouped ? String(i + 1) : '')).filter(Boolean);
  const inner = [
    `SELECT ${outs.map((o, i) => `${o.raw} AS k${i}`).join(', ')}`,
    `FROM ${FROM[q.domain]}`,
    ...JOIN_ORDER.filter((j) => joins.has(j)).map((j) => JOINS[j](q.domain)),
    where.length ? `WHERE ${where.join(' AND ')}` : '',
    groupBy.length ? `GROUP BY ${groupBy.join(', ')}` : '',
    having.length ? `HAVING ${having.join(' AND ')}` : '',
    orderBy.length ? `ORDER BY ${orderBy.join(', ')}` : '',
    `LIMIT ${p(options.head ?? Math.min(q.limit ?? MAX_LIMIT, MAX_LIMIT))}`,
    options.head === undefined && q.offset ? `OFFSET ${p(q.offset)}` : '',
  ]
    .filter(Boolean)
    .join('\n');
  // Text conversion happens outside, so sorting and grouping above work on the typed values.
  const text = (o: Out, i: number) =>
    o.type === 'time' ? `to_char(q.k${i}, 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS c${i}` : `q.k${i}::text AS c${i}`;
  const sql = `SELECT ${outs.map(text).join(', ')} FROM (\n${inner}\n) q ORDER BY ${orderBy.map((o) => o.replace(/^(\d+)/, (_m, n: string) => `q.k${Number(n) - 1}`)).join(', ') || '1'}`;
  return { sql, params, keys: outs.map((o) => o.keys) };
}

/** Cube's order when a query names none: first time bucket ascending, else first measure descending, else first dimension. */
function defaultOrder(q: NormalizedQuery, keys: string[][]): [string, 'asc' | 'desc'][] {
  const bucket = q.timeDimensions.find((t) => t.granularity);
  if (bucket) return [[`${bucket.member.name}.${bucket.granularity}`, 'asc']];
  if (q.measures[0]) return [[q.measures[0].name, 'desc']];
  return keys[0] ? [[keys[0][0], 'asc']] : [];
}

const DASHED_GUID = /^\{?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}?$/i;

function likeEscape(v: string): string {
  return v.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function filterSql(f: NormalizedFilter, expr: string, p: (v: SqlParam) => string): string {
  const type = f.member.type;
  const cast = type === 'number' || type === 'count' ? 'numeric' : type === 'boolean' ? 'boolean' : type === 'time' ? 'timestamp' : 'text';
  const vals = (): SqlParam => {
    if (type === 'boolean') return f.values.map((v) => (['true', '1'].includes(v.toLowerCase()) ? 'true' : 'false'));
    if (type === 'time') return f.values.map((v) => dateStart(v) ?? v);
    // Ids travel undashed in rows (real-service-notes); clients filter with dashed GUIDs too.
    return f.values.map((v) => (DASHED_GUID.test(v) ? v.replace(/[{}-]/g, '').toLowerCase() : v));
  };
  const like = (wrap: (v: string) => string) => `${expr}::text ILIKE ANY(${p(f.values.map((v) => wrap(likeEscape(v))))}::text[])`;
  const one = () => `${p(f.values[0])}::${cast}`;
  switch (f.operator) {
    case 'equals':
      return `${expr} = ANY(${p(vals())}::${cast}[])`;
    case 'notEquals':
      return `(${expr} IS NULL OR ${expr} <> ALL(${p(vals())}::${cast}[]))`;
    case 'contains':
      return like((v) => `%${v}%`);
    case 'notContains':
      return `(${expr} IS NULL OR NOT ${like((v) => `%${v}%`)})`;
    case 'startsWith':
      return like((v) => `${v}%`);
    case 'notStartsWith':
      return `(${expr} IS NULL OR NOT ${like((v) => `${v}%`)})`;
    case 'endsWith':
      return like((v) => `%${v}`);
    case 'notEndsWith':
      return `(${expr} IS NULL OR NOT ${like((v) => `%${v}`)})`;
    case 'gt':
      return `${expr} > ${one()}`;
    case 'gte':
      return `${expr} >= ${one()}`;
    case 'lt':
      return `${expr} < ${one()}`;
    case 'lte':
      return `${expr} <= ${one()}`;
    case 'set':
      return `${expr} IS NOT NULL`;
    case 'notSet':
      return `${expr} IS NULL`;
    case 'inDateRange':
      return `(${expr} >= ${p(dateStart(f.values[0]) ?? '')}::timestamp AND ${expr} < ${p(dateEndExclusive(f.values[1]) ?? '')}::timestamp)`;
    case 'notInDateRange':
      return `(${expr} IS NULL OR ${expr} < ${p(dateStart(f.values[0]) ?? '')}::timestamp OR ${expr} >= ${p(dateEndExclusive(f.values[1]) ?? '')}::timestamp)`;
    case 'beforeDate':
      return `${expr} < ${p(dateStart(f.values[0]) ?? '')}::timestamp`;
    case 'beforeOrOnDate':
      return `${expr} < ${p(dateEndExclusive(f.values[0]) ?? '')}::timestamp`;
    case 'afterDate':
      return `${expr} >= ${p(dateEndExclusive(f.values[0]) ?? '')}::timestamp`;
    case 'afterOrOnDate':
      return `${expr} >= ${p(dateStart(f.values[0]) ?? '')}::timestamp`;
  }
}
