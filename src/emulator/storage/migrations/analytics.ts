// Tables of the analytics API: view and download events, spaces, collections, record metadata, user profiles and a date dimension.
import type { Migration } from '../migrate';

/**
 * The date dimension covers 2015–2035, filled here so both seeds have it. Fiscal years start on 1 July
 * and are named by the calendar year they end in (1 July 2025 – 30 June 2026 is fiscal year `FY2026`,
 * its first quarter `FY2026-Q1`). Label ids are the ordinal of the label (month 1–12, ISO weekday 1–7,
 * quarter 1–4), and the label groups (`Month.label`, …) are English names held on the same row.
 */
export const analytics: Migration = {
  id: 'analytics-001',
  sql: `
CREATE TABLE analytics_date_dimension (
  id integer PRIMARY KEY,
  date date NOT NULL UNIQUE,
  year_start_date date NOT NULL,
  year_end_date date NOT NULL,
  quarter_start_date date NOT NULL,
  quarter_end_date date NOT NULL,
  month_start_date date NOT NULL,
  month_end_date date NOT NULL,
  week_start_date_sun date NOT NULL,
  week_start_date_mon date NOT NULL,
  fiscal_year_start_date date NOT NULL,
  fiscal_year_end_date date NOT NULL,
  fiscal_quarter_start_date date NOT NULL,
  fiscal_quarter_end_date date NOT NULL,
  fiscal_month_start_date date NOT NULL,
  fiscal_month_end_date date NOT NULL,
  year integer NOT NULL,
  quarter_label_id integer NOT NULL,
  month_label_id integer NOT NULL,
  weekday_label_id integer NOT NULL,
  month_long_name_label_id integer NOT NULL,
  weekday_long_name_label_id integer NOT NULL,
  month_order integer NOT NULL,
  weekday_order integer NOT NULL,
  julian_day_number integer NOT NULL,
  fiscal_month_label_id integer NOT NULL,
  fiscal_month_order integer NOT NULL,
  fiscal_year text NOT NULL,
  fiscal_quarter text NOT NULL,
  quarter_label text NOT NULL,
  month_label text NOT NULL,
  month_long_name_label text NOT NULL,
  weekday_label text NOT NULL,
  weekday_long_name_label text NOT NULL,
  fiscal_month_label text NOT NULL
);

INSERT INTO analytics_date_dimension
SELECT to_char(d, 'YYYYMMDD')::int, d,
  date_trunc('year', d)::date, (date_trunc('year', d) + interval '1 year - 1 day')::date,
  date_trunc('quarter', d)::date, (date_trunc('quarter', d) + interval '3 months - 1 day')::date,
  date_trunc('month', d)::date, (date_trunc('month', d) + interval '1 month - 1 day')::date,
  (d - extract(dow from d)::int), (d - (extract(isodow from d)::int - 1)),
  fy_start, (fy_start + interval '1 year - 1 day')::date,
  (fy_start + (fq - 1) * interval '3 months')::date, (fy_start + fq * interval '3 months' - interval '1 day')::date,
  date_trunc('month', d)::date, (date_trunc('month', d) + interval '1 month - 1 day')::date,
  extract(year from d)::int,
  extract(quarter from d)::int, extract(month from d)::int, extract(isodow from d)::int,
  extract(month from d)::int, extract(isodow from d)::int,
  extract(month from d)::int, extract(isodow from d)::int,
  to_char(d, 'J')::int,
  fm, fm,
  'FY' || extract(year from fy_start + interval '1 year')::int,
  'FY' || extract(year from fy_start + interval '1 year')::int || '-Q' || fq,
  'Q' || extract(quarter from d)::int,
  (ARRAY['Jan','Feb','Mar','Apr','May','Jun','Jul','Aug','Sep','Oct','Nov','Dec'])[extract(month from d)::int],
  (ARRAY['January','February','March','April','May','June','July','August','September','October','November','December'])[extract(month from d)::int],
  (ARRAY['Mon','Tue','Wed','Thu','Fri','Sat','Sun'])[extract(isodow from d)::int],
  (ARRAY['Monday','Tuesday','Wednesday','Thursday','Friday','Saturday','Sunday'])[extract(isodow from d)::int],
  'FM' || lpad(fm::text, 2, '0')
FROM (
  SELECT d::date AS d,
    (date_trunc('year', d - interval '6 months') + interval '6 months')::date AS fy_start,
    ((extract(month from d)::int + 5) % 12) + 1 AS fm,
    (((extract(month from d)::int + 5) % 12) / 3) + 1 AS fq
  FROM generate_series('2015-01-01'::date, '2035-12-31'::date, interval '1 day') AS g(d)
) AS days;

CREATE TABLE analytics_user_profiles (
  user_id integer PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  middle_name text,
  company text,
  department text,
  employee_number text,
  cost_center text,
  department_code text,
  alt_user_id text
);

CREATE TABLE analytics_spaces (
  id text PRIMARY KEY,
  name text NOT NULL
);

CREATE TABLE analytics_collections (
  id text PRIMARY KEY,
  name text NOT NULL,
  create_user text,
  last_modified_user text,
  view_type text,
  scope text,
  is_public text,
  description text,
  search_expression text,
  create_date timestamptz NOT NULL,
  last_modified_date timestamptz NOT NULL,
  number_of_assets integer NOT NULL DEFAULT 0
);

-- Keyed by record id without a foreign key: analytics keep describing records deleted since.
CREATE TABLE analytics_record_metadata (
  record_id text PRIMARY KEY,
  aprimo_content_usage text,
  keywords text,
  smart_tags text
);

-- Events carry no foreign keys either: the service keeps events of deleted records and users.
CREATE TABLE analytics_view_events (
  view_date timestamptz NOT NULL,
  date_dimension_id integer NOT NULL,
  user_id integer NOT NULL,
  record_id text NOT NULL,
  space_id text,
  collection_id text
);
CREATE INDEX analytics_view_events_record ON analytics_view_events(record_id);

CREATE TABLE analytics_download_events (
  download_date timestamptz NOT NULL,
  date_dimension_id integer NOT NULL,
  user_id integer NOT NULL,
  record_id text NOT NULL,
  version_id text,
  rendition_id text,
  rendition_type text,
  version_number integer,
  crop_height integer,
  crop_width integer,
  crop_type text,
  trim_duration numeric
);
CREATE INDEX analytics_download_events_record ON analytics_download_events(record_id);

-- ContentEngagement: views, downloads and impressions per UTC day, user and record. A view counts one
-- impression, plus one when seen in a space and two when seen in a collection (the record was listed there).
CREATE VIEW analytics_content_engagement AS
SELECT day AS date, user_id, record_id,
  sum(v)::bigint AS views_count, sum(dl)::bigint AS downloads_count, sum(imp)::bigint AS impressions_count
FROM (
  SELECT (view_date AT TIME ZONE 'UTC')::date AS day, user_id, record_id, 1 AS v, 0 AS dl,
    1 + (CASE WHEN space_id IS NULL THEN 0 ELSE 1 END) + (CASE WHEN collection_id IS NULL THEN 0 ELSE 2 END) AS imp
  FROM analytics_view_events
  UNION ALL
  SELECT (download_date AT TIME ZONE 'UTC')::date, user_id, record_id, 0, 1, 0 FROM analytics_download_events
) AS e
GROUP BY day, user_id, record_id;

-- Advanced by any change to the event tables, so cached answers of the analytics route are dropped at once.
CREATE SEQUENCE analytics_data_version;
CREATE FUNCTION analytics_data_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM nextval('analytics_data_version');
  RETURN NULL;
END
$fn$;
CREATE TRIGGER analytics_view_events_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON analytics_view_events
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_data_changed();
CREATE TRIGGER analytics_download_events_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON analytics_download_events
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_data_changed();

-- Classifications with their root, which the Classifications group exposes as rootClassificationId.
CREATE VIEW analytics_classifications AS
WITH RECURSIVE tree AS (
  SELECT id, id AS root_id FROM classifications WHERE parent_id IS NULL
  UNION ALL
  SELECT c.id, tree.root_id FROM classifications c JOIN tree ON c.parent_id = tree.id
)
SELECT c.*, tree.root_id FROM classifications c JOIN tree ON tree.id = c.id;
`,
};
