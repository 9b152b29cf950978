// Grows a tenant to N records for scaling measurements (`--records N`). The records are made in the database
// by INSERT … SELECT over generate_series, a chunk at a time in one transaction: a record is a function of its
// ordinal alone (its id the ordinal in hex after eight f's, so each table's primary key grows at its end
// instead of at random pages; hashes of it drawn into titles, dates, field values and classifications, in the
// demo's vocabulary and proportions), so the same N gives the same tenant on PGlite and PostgreSQL on every machine.
// How many were generated is kept in `meta`, so a larger N adds only the difference, and a tenant loaded
// from a prepared demo grows the same way.
import type { Queryable, SqlParam, Store } from '../storage/store';
import { EN_US, NEUTRAL_LANGUAGE } from './fixed';
import { ADJECTIVES, DEMO_RECORDS, FIELD_IDS, KINDS, PHOTOGRAPHERS, SUBJECTS, USAGE_OPTIONS, WORDS } from './demo';

/** Records per statement: large enough for the bulk path, small enough to keep a chunk's temporary tables in memory. */
const CHUNK = 50_000;
const META_KEY = 'scale-records';
/** maintenance_work_mem while the dropped indexes are built again (see growRecords). */
const INDEX_BUILD_MEMORY = '256MB';
/** The demo's content types and their weights (Image twice). */
const TYPES = ['Image', 'Image', 'Video', 'Document'];
const STATUSES = ['Draft', 'Released', 'Released', 'Released', 'Archived'];
const CREATED_FROM = '2024-01-01T00:00:00Z';
/** Seconds from CREATED_FROM to the end of 2025, the demo's span of creation dates. */
const CREATED_SPAN = (Date.UTC(2025, 11, 31) - Date.UTC(2024, 0, 1)) / 1000;

/** Draw `salt` of record `k`: an integer in [0, 2^31), the same hash the analytics events are drawn with. */
const draw = (salt: number) => `(hashint8extended(k, ${salt}) & 2147483647)::int`;

/**
 * Adds records until the tenant holds `target`; returns how many were added. One transaction: a start killed
 * mid-way leaves the tenant as it was. When it adds more records than the tenant holds, the secondary indexes
 * of the three tables are dropped first and built once at the end (building a GIN index over a million rows
 * at once is many times faster than a million inserts into it), and as a superuser the foreign-key checks
 * are skipped: every generated row points at a record or catalogue row that exists.
 */
export async function growRecords(store: Store, target: number, log: (line: string) => void): Promise<number> {
  const have = (await store.query<{ n: number }>('SELECT count(*)::int AS n FROM records'))[0].n;
  if (have >= target) return 0;
  const generated = Number((await store.query<{ value: string }>('SELECT value FROM meta WHERE key = $1', [META_KEY]))[0]?.value ?? 0);
  // Sorted by id: the same catalogue gives the same picks wherever it was seeded.
  // As their uids (the keys of record_classifications, migration 014).
  const classifications = (await store.query<{ id: string }>('SELECT uid::text AS id FROM classifications ORDER BY id')).map((r) => r.id);
  const products = (await store.query<{ id: string }>(`SELECT id FROM classifications WHERE name_path LIKE '/Products/%' ORDER BY id`)).map((r) => r.id);
  const fields = new Set((await store.query<{ id: string }>('SELECT id FROM field_definitions WHERE id = ANY($1::text[])', [Object.values(FIELD_IDS)])).map((r) => r.id));
  const started = Date.now();
  const adding = target - have;
  const last = generated + adding;
  await store.transaction(async (tx) => {
    if ((await tx.query<{ on: string }>(`SELECT current_setting('is_superuser') AS on`))[0]?.on === 'on') await tx.exec('SET LOCAL session_replication_role = replica');
    const indexes =
      adding > have
        ? await tx.query<{ name: string; definition: string }>(
            // Not the indexes of constraints (primary keys): those stay and keep the rows unique.
            `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS definition
               FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
              WHERE t.relnamespace = current_schema()::regnamespace AND t.relname IN ('records', 'field_values', 'record_classifications')
                AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`,
          )
        : [];
    // The primary keys of the two tables nothing references go too, and come back built from the sorted rows: nine
    // rows in ten of a growth are theirs, and an insert into a B-tree costs about what the rest of the insert does.
    // No statement below needs them to find a conflict: every generated row is of a new record.
    const keys = indexes.length
      ? await tx.query<{ table: string; name: string; definition: string }>(
          // With the key's storage parameters (fillfactor, migration 015), which the constraint's definition leaves out.
          `SELECT t.relname AS table, c.conname AS name, pg_get_constraintdef(c.oid) || coalesce(' WITH (' || array_to_string(i.reloptions, ', ') || ')', '') AS definition
             FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class i ON i.oid = c.conindid
            WHERE t.relnamespace = current_schema()::regnamespace AND t.relname IN ('field_values', 'record_classifications') AND c.contype = 'p'`,
        )
      : [];
    for (const index of indexes) await tx.exec(`DROP INDEX "${index.name}"`);
    for (const key of keys) await tx.exec(`ALTER TABLE "${key.table}" DROP CONSTRAINT "${key.name}"`);
    for (let from = generated + 1; from <= last; from += CHUNK) {
      const to = Math.min(last, from + CHUNK - 1);
      await generateChunk(tx, from, to, classifications, products, fields);
      // PostgreSQL's own checkpointer does this on a server (and a refused CHECKPOINT would end the transaction).
      if (store.kind === 'pglite') await checkpoint(tx);
      log(`grew the tenant by ${(to - generated).toLocaleString('en-US')} of ${adding.toLocaleString('en-US')} records (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    }
    // A GIN index built in memory is written once; in 64 MB (PGlite's default) it is merged from many runs.
    if (indexes.length) await tx.exec(`SET LOCAL maintenance_work_mem = '${INDEX_BUILD_MEMORY}'`);
    for (const key of keys) await tx.exec(`ALTER TABLE "${key.table}" ADD CONSTRAINT "${key.name}" ${key.definition}`);
    for (const index of indexes) await tx.exec(index.definition);
    if (indexes.length) log(`built ${indexes.length} indexes (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    await tx.query(`INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [META_KEY, String(last)]);
  });
  await vacuumSearchTables(store);
  await checkpoint(store);
  return adding;
}

/**
 * The planner's statistics (searches pick their plans by how many rows a condition keeps), and the visibility map:
 * without it an index-only scan still reads every row's page, and PGlite has no autovacuum to set it. After a growth,
 * and after a migration rewrote these tables (a rewrite leaves the map empty: at a million records on PostgreSQL 15,
 * `ContentType = Video` sorted by Title fetched 1,821 heap pages from its index-only scan, 920 ms cold).
 */
export async function vacuumSearchTables(store: Store): Promise<void> {
  for (const table of ['records', 'field_values', 'record_classifications']) await store.exec(`VACUUM ANALYZE ${table}`);
}

/**
 * Lets the database drop the WAL written so far. PGlite runs PostgreSQL single-user, with no checkpointer process:
 * without a checkpoint its WAL only grows (4.4 GB of the 8.7 GB a million-record folder took). A role that may not
 * checkpoint (PostgreSQL without pg_checkpoint) leaves it to the server's own checkpointer.
 */
async function checkpoint(db: Queryable): Promise<void> {
  await db.exec('CHECKPOINT').catch(() => undefined);
}

async function generateChunk(db: Queryable, from: number, to: number, classifications: string[], products: string[], fields: Set<string>): Promise<void> {
  // Every draw of a record, once (OFFSET 0 keeps the subquery apart, so a draw used in several columns is not
  // computed again for each), and the record made of them, in the one temporary table the inserts below read.
  await db.query(
    `CREATE TEMP TABLE scale_records AS
     SELECT id, k, type, ($2::text[])[1 + adj % 12] || ' ' || ($3::text[])[1 + subj % 12] || ' ' || ($4::text[])[1 + 3 * (CASE type WHEN 'Image' THEN 0 WHEN 'Video' THEN 1 ELSE 2 END) + kind % 3] || ' ' || ($1::int + k) AS title,
            ($5::text[])[1 + st % 5] AS status,
            words[1] || ' ' || words[2] || ' ' || words[3] || ' shot for the ' || words[4] || ' campaign' AS description,
            ARRAY(SELECT DISTINCT w FROM unnest(words) AS w ORDER BY w) AS keywords,
            $6::timestamptz + make_interval(secs => created % $7::int) AS created_on,
            later % 91 AS modified_days, 1 + (later / 91) % 3 AS created_by,
            extra % 3 AS usage, (extra / 3) % 5 AS photographer, (extra / 15) % 10 < 7 AS has_photographer, 1 + (extra / 150) % 60 AS published_days,
            c0, c1, (extra / 9000) % 2 = 1 AS two_classifications, prod
       FROM (SELECT *, ($8::text[])[1 + t % 4] AS type, ARRAY[($9::text[])[1 + w0 % 12], ($9::text[])[1 + w1 % 12], ($9::text[])[1 + w2 % 12], ($9::text[])[1 + w3 % 12]] AS words
               FROM (SELECT k, 'ffffffff' || lpad(to_hex(k), 24, '0') AS id, ${draw(1)} AS t, ${draw(2)} AS adj, ${draw(3)} AS subj, ${draw(4)} AS kind,
                            ${draw(5)} AS st, ${draw(6)} AS created, ${draw(7)} AS later, ${draw(8)} AS extra,
                            ${draw(9)} AS w0, ${draw(10)} AS w1, ${draw(11)} AS w2, ${draw(12)} AS w3, ${draw(13)} AS c0, ${draw(14)} AS c1, ${draw(15)} AS prod
                       FROM generate_series($10::bigint, $11::bigint) AS k OFFSET 0) AS draws) AS d`,
    [DEMO_RECORDS, ADJECTIVES, SUBJECTS, [...KINDS.Image, ...KINDS.Video, ...KINDS.Document], STATUSES, CREATED_FROM, CREATED_SPAN, TYPES, WORDS, from, to],
  );
  await db.query(
    `INSERT INTO records (id, title, status, content_type, search_text, created_on, modified_on, created_by, modified_by)
     SELECT id, title, status, type, description, created_on, created_on + make_interval(days => modified_days), created_by, created_by FROM scale_records ORDER BY id`,
  );
  // Each field of the demo catalogue the tenant has, all of a record's values at once in one pass over the chunk:
  // a record's rows come out in the primary key's order (records in id order, then its fields by id, one language
  // each), so the key grows at its right end only. Field by field, each pass split the pages of the one before
  // (the key a third larger) and every value was sorted first. The keys are uuids (migration 014); a generated
  // record id is 32 hex digits, so a plain cast is its dam_uid.
  const params: SqlParam[] = [];
  const bind = (value: SqlParam) => `$${params.push(value)}`;
  const usageIds = bind(USAGE_OPTIONS.map((o) => o.id));
  const usageNames = bind(USAGE_OPTIONS.map((o) => o.name));
  const photographers = bind(PHOTOGRAPHERS);
  const product = products.length ? `(${bind(products)}::text[])[1 + s.prod % ${products.length}]` : 'NULL::text';
  // Each: the field, the language of its values, and its value, text and date (no row where the value is NULL).
  const values: [string, string, string][] = [
    [FIELD_IDS.description, EN_US, `jsonb_build_object('value', s.description), s.description, NULL::timestamptz`],
    [FIELD_IDS.keywords, NEUTRAL_LANGUAGE, `jsonb_build_object('values', to_jsonb(s.keywords)), array_to_string(s.keywords, ', '), NULL`],
    [FIELD_IDS.usageRights, NEUTRAL_LANGUAGE, `jsonb_build_object('values', jsonb_build_array((${usageIds}::text[])[1 + s.usage])), (${usageNames}::text[])[1 + s.usage], NULL`],
    [FIELD_IDS.publicationDate, NEUTRAL_LANGUAGE, `jsonb_build_object('value', to_char(p.day, 'YYYY-MM-DD')), to_char(p.day, 'YYYY-MM-DD'), p.day AT TIME ZONE 'UTC'`],
    [
      FIELD_IDS.photographer,
      NEUTRAL_LANGUAGE,
      `CASE WHEN s.has_photographer THEN jsonb_build_object('value', (${photographers}::text[])[1 + s.photographer]) END, (${photographers}::text[])[1 + s.photographer], NULL`,
    ],
    ...(products.length ? [[FIELD_IDS.productLine, NEUTRAL_LANGUAGE, `jsonb_build_object('values', jsonb_build_array(${product})), ${product}, NULL`] as [string, string, string]] : []),
  ];
  const rows = values
    .filter(([fieldId]) => fields.has(fieldId))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([fieldId, languageId, row]) => `(dam_uid(${bind(fieldId)}::text), dam_uid(${bind(languageId)}::text), ${row})`);
  if (rows.length) {
    await db.query(
      `INSERT INTO field_values (record_id, field_id, language_id, value, value_text, value_date)
       SELECT s.id::uuid, v.field_id, v.language_id, v.value, v.value_text, v.value_date
         FROM scale_records s
         CROSS JOIN LATERAL (SELECT date_trunc('day', s.created_on AT TIME ZONE 'UTC') + make_interval(days => s.published_days) AS day) p
         CROSS JOIN LATERAL (VALUES ${rows.join(', ')}) AS v(field_id, language_id, value, value_text, value_date)
        WHERE v.value IS NOT NULL`,
      params,
    );
  }
  if (classifications.length) {
    await db.query(
      `INSERT INTO record_classifications (record_id, classification_id)
       SELECT id::uuid, ($1::uuid[])[1 + c0 % cardinality($1::uuid[])] FROM scale_records
       UNION ALL
       SELECT id::uuid, ($1::uuid[])[1 + c1 % cardinality($1::uuid[])] FROM scale_records
        WHERE two_classifications AND c1 % cardinality($1::uuid[]) <> c0 % cardinality($1::uuid[])
       ORDER BY 1`,
      [classifications],
    );
  }
  await db.exec('DROP TABLE scale_records');
}
