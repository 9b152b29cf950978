// The demo tenant's analytics: extra users and groups, spaces, collections, record metadata and 12 months of view and download events.
import type { Queryable } from '../storage/store';
import type { Rng } from '../rng';
import type { Seeder } from './seeder';

/** The demo events cover the 12 whole months from 1 November 2025 to 31 October 2026 (UTC). */
export const EVENTS_START = '2025-11-01T00:00:00Z';
export const EVENTS_END = '2026-11-01T00:00:00Z';
export const DEMO_VIEW_EVENTS = 90_000;
export const DEMO_DOWNLOAD_EVENTS = 30_000;
/** Analytics users are 1001…1000+N, next to the contract's users 1–3. */
export const ANALYTICS_USER_BASE = 1000;
const DEMO_USERS = 40;

const FIRST = ['Anna', 'Ben', 'Chloe', 'David', 'Emma', 'Felix', 'Grace', 'Hugo', 'Iris', 'Jonas', 'Kira', 'Leo', 'Mia', 'Noah', 'Olga', 'Paul'];
const LAST = ['Meyer', 'Rossi', 'Dubois', 'Smith', 'Tanaka', 'Silva', 'Novak', 'Berg', 'Costa', 'Walsh', 'Ito', 'Klein'];
const COMPANIES = ['Acme Outdoor', 'Acme Kitchen', 'Northwind Agency'];
const DEPARTMENTS = [
  { name: 'Marketing', code: 'MKT' },
  { name: 'Sales', code: 'SLS' },
  { name: 'Design', code: 'DSN' },
  { name: 'E-commerce', code: 'ECM' },
];
const GROUPS = [
  { id: 11, name: 'Sales' },
  { id: 12, name: 'Creative Studio' },
  { id: 13, name: 'Region EMEA' },
  { id: 14, name: 'Agency Partners' },
];
const SPACES = ['Brand Portal', 'Retail Partners', 'Press Room', 'Intranet', 'Social Hub', 'Trade Shows'];
const COLLECTIONS = ['Hero Shots', 'Spring Picks', 'Summer Catalogue', 'Holiday Gifts', 'Press Kit', 'Social Squares', 'Store Displays', 'Product Videos', 'Logos', 'Brochures', 'Lookbook', 'Web Banners'];
const KEYWORDS = ['outdoor', 'summer', 'family', 'studio', 'product', 'lifestyle', 'nature', 'city', 'kitchen', 'office', 'garden', 'travel'];
const SMART_TAGS = ['person', 'tent', 'mountain', 'table', 'lamp', 'sky', 'tree', 'knife', 'chair', 'water', 'sunset', 'dog'];
const USAGE = ['Web', 'Print', 'Social', 'Internal', 'Press'];

export interface EventVolume {
  views: number;
  downloads: number;
  /** ISO timestamps bounding the events, start inclusive, end exclusive. */
  start: string;
  end: string;
}

/** A 31-bit hash of (row, salt) as a float in [0, 1): keeps bulk generation in SQL and still deterministic. */
const u = (salt: string) => `((hashint8extended(i, ${salt}) & 2147483647)::float8 / 2147483648.0)`;

/**
 * Adds view and download events in bulk with generate_series, spread over records (skewed towards a
 * popular few), users, spaces and collections. The rng picks the salts, so the same seed gives the same
 * events. The bench reuses it to reach a million events.
 */
export async function insertAnalyticsEvents(db: Queryable, rng: Rng, volume: EventVolume, firstRow = 1): Promise<void> {
  const records = (await db.query<{ id: string }>('SELECT id FROM records ORDER BY id')).map((r) => r.id);
  const users = (await db.query<{ id: number }>('SELECT id FROM users ORDER BY id')).map((r) => r.id);
  const spaces = (await db.query<{ id: string }>('SELECT id FROM analytics_spaces ORDER BY id')).map((r) => r.id);
  const collections = (await db.query<{ id: string }>('SELECT id FROM analytics_collections ORDER BY id')).map((r) => r.id);
  if (records.length === 0 || users.length === 0) return;
  // Some records are never viewed (and more never downloaded), so the two zero domains have rows.
  const viewed = records.slice(0, Math.ceil(records.length * 0.92));
  const downloaded = records.slice(0, Math.ceil(records.length * 0.75));
  const salt = () => rng.int(1, 2 ** 30);
  const span = (Date.parse(volume.end) - Date.parse(volume.start)) / 1000;
  const chunk = 200_000;
  for (let from = 0; from < volume.views; from += chunk) {
    const s = [salt(), salt(), salt(), salt(), salt(), salt()];
    await db.query(
      `INSERT INTO analytics_view_events (view_date, date_dimension_id, user_id, record_id, space_id, collection_id)
       SELECT ts, to_char(ts AT TIME ZONE 'UTC', 'YYYYMMDD')::int, uid, rid,
              CASE WHEN ctx < 0.2 THEN ($5::text[])[1 + floor(pick * cardinality($5::text[]))::int] END,
              CASE WHEN ctx >= 0.2 AND ctx < 0.45 THEN ($6::text[])[1 + floor(pick * cardinality($6::text[]))::int] END
         FROM (SELECT $1::timestamptz + floor(${u(`${s[0]}`)} * $2::float8) * interval '1 second' AS ts,
                      ($3::int[])[1 + floor(power(${u(`${s[1]}`)}, 1.6) * cardinality($3::int[]))::int] AS uid,
                      ($4::text[])[1 + floor(power(${u(`${s[2]}`)}, 2.5) * cardinality($4::text[]))::int] AS rid,
                      CASE WHEN cardinality($5::text[]) = 0 THEN 1 ELSE ${u(`${s[3]}`)} END AS ctx,
                      ${u(`${s[4]}`)} AS pick
                 FROM generate_series($7::bigint, $8::bigint) AS g(i)) AS x`,
      [volume.start, span, users, viewed, spaces, collections, firstRow + from, firstRow + Math.min(from + chunk, volume.views) - 1],
    );
  }
  for (let from = 0; from < volume.downloads; from += chunk) {
    const s = [salt(), salt(), salt(), salt(), salt()];
    await db.query(
      `INSERT INTO analytics_download_events (download_date, date_dimension_id, user_id, record_id, version_id, rendition_id, rendition_type,
                                              version_number, crop_height, crop_width, crop_type, trim_duration)
       SELECT ts, to_char(ts AT TIME ZONE 'UTC', 'YYYYMMDD')::int, uid, rid,
              md5(rid || vn::text), CASE WHEN kind < 0.5 THEN NULL ELSE md5(rid || 'r' || floor(kind * 4)::text) END,
              CASE WHEN kind < 0.5 THEN 'original' WHEN kind < 0.75 THEN 'web' WHEN kind < 0.9 THEN 'thumbnail' ELSE 'cutout' END,
              vn,
              CASE WHEN kind >= 0.9 THEN 600 + floor(kind * 1000)::int END,
              CASE WHEN kind >= 0.9 THEN 800 + floor(kind * 1000)::int END,
              CASE WHEN kind >= 0.9 THEN 'custom' END,
              NULL
         FROM (SELECT $1::timestamptz + floor(${u(`${s[0]}`)} * $2::float8) * interval '1 second' AS ts,
                      ($3::int[])[1 + floor(power(${u(`${s[1]}`)}, 1.6) * cardinality($3::int[]))::int] AS uid,
                      ($4::text[])[1 + floor(power(${u(`${s[2]}`)}, 2.5) * cardinality($4::text[]))::int] AS rid,
                      ${u(`${s[3]}`)} AS kind,
                      1 + floor(${u(`${s[4]}`)} * 3)::int AS vn
                 FROM generate_series($5::bigint, $6::bigint) AS g(i)) AS x`,
      [volume.start, span, users, downloaded, firstRow + from, firstRow + Math.min(from + chunk, volume.downloads) - 1],
    );
  }
}

/** Users, groups (some users in two: the double counting the spec warns of), spaces, collections and record metadata. */
export async function seedAnalyticsDimensions(db: Queryable, rng: Rng): Promise<void> {
  // The password is random: these users exist to be counted, not to sign in.
  const users: [number, string, string, string, string, string][] = [];
  for (let n = 1; n <= DEMO_USERS; n++) {
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    const login = `${first[0].toLowerCase()}${last.toLowerCase()}${n}`;
    users.push([ANALYTICS_USER_BASE + n, login, first, last, `${login}@dam.example`, rng.guid()]);
  }
  await db.query(
    `INSERT INTO users (id, login, password, first_name, last_name, email, active)
     SELECT id, login, pw, f, l, e, id % 17 <> 0 FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS u(id, login, f, l, e, pw)`,
    [users.map((u) => u[0]), users.map((u) => u[1]), users.map((u) => u[2]), users.map((u) => u[3]), users.map((u) => u[4]), users.map((u) => u[5])],
  );
  const allUsers = (await db.query<{ id: number }>('SELECT id FROM users ORDER BY id')).map((r) => r.id);
  const profiles = allUsers.map((id) => {
    const dept = rng.pick(DEPARTMENTS);
    return { id, middle: rng.chance(0.2) ? rng.pick(FIRST) : null, company: rng.pick(COMPANIES), dept: dept.name, code: dept.code, emp: `E${10000 + id}`, cc: `CC-${rng.int(100, 140)}` };
  });
  await db.query(
    `INSERT INTO analytics_user_profiles (user_id, middle_name, company, department, employee_number, cost_center, department_code, alt_user_id)
     SELECT id, m, c, d, e, cc, code, 'alt-' || id FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS u(id, m, c, d, e, cc, code)
     ON CONFLICT (user_id) DO NOTHING`,
    [profiles.map((p) => p.id), profiles.map((p) => p.middle) as string[], profiles.map((p) => p.company), profiles.map((p) => p.dept), profiles.map((p) => p.emp), profiles.map((p) => p.cc), profiles.map((p) => p.code)],
  );
  for (const g of GROUPS) await db.query(`INSERT INTO user_groups (id, name) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [g.id, g.name]);
  const members: [number, number][] = [];
  for (const [id] of users) {
    const first = rng.pick(GROUPS).id;
    members.push([first, id]);
    if (rng.chance(0.35)) {
      const second = rng.pick(GROUPS).id;
      if (second !== first) members.push([second, id]);
    }
  }
  await db.query(`INSERT INTO user_group_members (group_id, user_id) SELECT g, u FROM unnest($1::int[], $2::int[]) AS m(g, u) ON CONFLICT DO NOTHING`, [
    members.map((m) => m[0]),
    members.map((m) => m[1]),
  ]);

  const spaces = SPACES.map((name) => ({ id: rng.guid(), name }));
  await db.query(`INSERT INTO analytics_spaces (id, name) SELECT * FROM unnest($1::text[], $2::text[])`, [spaces.map((s) => s.id), spaces.map((s) => s.name)]);
  const logins = users.map((u) => u[1]);
  const collections = COLLECTIONS.map((name) => {
    const created = Date.parse('2025-06-01T00:00:00Z') + rng.int(0, 120) * 86400000;
    return {
      id: rng.guid(),
      name,
      createUser: rng.pick(logins),
      lastModifiedUser: rng.pick(logins),
      viewType: rng.pick(['Grid', 'List', 'Mosaic']),
      scope: rng.pick(['Private', 'Shared', 'Public']),
      isPublic: rng.chance(0.4) ? 'true' : 'false',
      description: `${name} for campaigns and partners`,
      searchExpression: rng.chance(0.5) ? `Title contains "${name.split(' ')[0].toLowerCase()}"` : '',
      created: new Date(created).toISOString(),
      modified: new Date(created + rng.int(1, 90) * 86400000).toISOString(),
      assets: rng.int(5, 120),
    };
  });
  await db.query(
    `INSERT INTO analytics_collections (id, name, create_user, last_modified_user, view_type, scope, is_public, description, search_expression, create_date, last_modified_date, number_of_assets)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::timestamptz[], $11::timestamptz[], $12::int[])`,
    [
      collections.map((c) => c.id),
      collections.map((c) => c.name),
      collections.map((c) => c.createUser),
      collections.map((c) => c.lastModifiedUser),
      collections.map((c) => c.viewType),
      collections.map((c) => c.scope),
      collections.map((c) => c.isPublic),
      collections.map((c) => c.description),
      collections.map((c) => c.searchExpression),
      collections.map((c) => c.created),
      collections.map((c) => c.modified),
      collections.map((c) => c.assets),
    ],
  );

  const records = (await db.query<{ id: string }>('SELECT id FROM records ORDER BY id')).map((r) => r.id);
  const pickSome = (list: string[], max: number) => [...new Set(Array.from({ length: rng.int(1, max) }, () => rng.pick(list)))].join(', ');
  const meta = records.map((id) => ({ id, usage: rng.pick(USAGE), keywords: pickSome(KEYWORDS, 4), tags: pickSome(SMART_TAGS, 5) }));
  await db.query(
    `INSERT INTO analytics_record_metadata (record_id, aprimo_content_usage, keywords, smart_tags)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) ON CONFLICT (record_id) DO NOTHING`,
    [meta.map((m) => m.id), meta.map((m) => m.usage), meta.map((m) => m.keywords), meta.map((m) => m.tags)],
  );
}

export const analyticsEventsSeeder: Seeder = {
  name: 'analytics-events',
  kind: 'demo',
  async run(store, rng) {
    await seedAnalyticsDimensions(store, rng);
    await insertAnalyticsEvents(store, rng, { views: DEMO_VIEW_EVENTS, downloads: DEMO_DOWNLOAD_EVENTS, start: EVENTS_START, end: EVENTS_END });
  },
};
