// `dam emulator --seed DIR`: the emulator on a tenant's own configuration (a folder `dam tenant pull` wrote), on top
// of what every seed holds (the contract's clients, users, projects and tasks), and `--records N` synthetic records
// whose field values respect that configuration's definitions, so searches on the tenant's fields find something.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { LanguageMap, defaultToApi, fromFiles, parentPath, type Field, type TenantConfig } from '../../core/tenant';
import { insertFieldValues, insertRecordClassifications, insertRecords, type FieldValueRow, type RecordRow } from '../domain/bulk';
import { NEUTRAL_LANGUAGE } from '../domain/languages';
import { newGuid } from '../domain/records';
import { createRng, type Rng } from '../rng';
import type { Queryable, Store } from '../storage/store';

export class TenantFolderError extends Error {
  override readonly name = 'TenantFolderError';
}

/** Reads and checks a tenant folder; every problem names its file. */
export async function readTenantFolder(dir: string): Promise<TenantConfig> {
  const files = new Map<string, string>();
  const walk = async (at: string) => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory() && !entry.name.startsWith('.')) await walk(path);
      else if (entry.isFile()) files.set(relative(dir, path).split(sep).join('/'), await readFile(path, 'utf8'));
    }
  };
  try {
    await walk(dir);
  } catch (err) {
    throw new TenantFolderError(`--seed ${dir}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such folder' : (err as Error).message}`);
  }
  const { config, problems } = fromFiles(files);
  if (!config) throw new TenantFolderError(`--seed ${dir} is not a tenant folder the emulator can start from:\n${problems.map((p) => `  ${join(dir, p.file)}: ${p.message}`).join('\n')}`);
  return config;
}

const META_KEY = 'tenant-folder';

/**
 * Replaces the seeded catalogue (languages, content types, check categories) with the folder's and adds its field
 * groups, classifications, fields, settings and checks, keeping the folder's ids. Runs once per store, in one
 * transaction; returns false when the store was seeded from a folder before.
 */
export async function seedFromFolder(store: Store, config: TenantConfig, log: (line: string) => void): Promise<boolean> {
  if ((await store.query(`SELECT 1 FROM meta WHERE key = $1`, [META_KEY])).length) return false;
  const started = Date.now();
  await store.transaction(async (db) => {
    await replaceCatalogue(db, config);
    const langs = new LanguageMap(config.languages);
    const labels = (l: Record<string, string>) => JSON.stringify(langs.labelsTo(l));
    for (const g of config.fieldGroups) {
      await db.query('INSERT INTO field_groups (id, name, labels, sort_index) VALUES ($1, $2, $3, $4)', [g.id, g.name, labels(g.labels), g.sortIndex]);
    }
    const idOfPath = new Map<string, string>();
    const labelPathOf = new Map<string, string>();
    for (const c of config.classifications) {
      const parent = parentPath(c.namePath);
      const parentId = parent ? idOfPath.get(parent.toLowerCase())! : null;
      const name = c.namePath.slice((parent ?? '').length + 1).replace(/\\\//g, '/');
      const label = Object.values(c.labels)[0] ?? name;
      const labelPath = `${parent ? labelPathOf.get(parent.toLowerCase()) : ''}/${label.replace(/\//g, '\\/')}`;
      await db.query(
        `INSERT INTO classifications (id, identifier, name, parent_id, sort_index, sort_order, labels, name_path, label_path, created_on, modified_on, created_by, modified_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z', 1, 1)`,
        [c.id, c.identifier, name, parentId, c.sortIndex, c.sortOrder, labels(c.labels), c.namePath, labelPath],
      );
      idOfPath.set(c.namePath.toLowerCase(), c.id);
      labelPathOf.set(c.namePath.toLowerCase(), labelPath);
    }
    const groupId = new Map(config.fieldGroups.map((g) => [g.name, g.id]));
    for (const f of config.fields) {
      // An option written by hand without an id gets one, as the service gives it when the option is created.
      const options = (f.options ?? []).map((o) => ({ id: o.id ?? newGuid(), name: o.name, label: o.label ?? o.name }));
      const optionId = (name: string) => options.find((o) => o.name.toLowerCase() === name.toLowerCase())?.id;
      const defaultValue = defaultToApi(f, optionId, (path) => idOfPath.get(path.toLowerCase()));
      await db.query(
        `INSERT INTO field_definitions (id, name, labels, data_type, field_group_id, is_required, is_localizable, default_value, options, root_classification_id, sort_index, properties, is_read_only)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        [
          f.id,
          f.name,
          labels(f.labels),
          f.dataType,
          f.group ? (groupId.get(f.group) ?? null) : null,
          f.isRequired,
          f.isLocalizable,
          defaultValue === undefined || defaultValue === null ? null : JSON.stringify(defaultValue),
          JSON.stringify(options),
          f.rootClassification ? (idOfPath.get(f.rootClassification.toLowerCase()) ?? null) : null,
          f.sortIndex,
          JSON.stringify(f.properties ?? {}),
          f.isReadOnly === true,
        ],
      );
    }
    for (const d of config.settingDefinitions) {
      await db.query(
        `INSERT INTO setting_definitions (name, id, category, data_type, description, default_value) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (name) DO UPDATE SET id = excluded.id, category = excluded.category, data_type = excluded.data_type,
           description = excluded.description, default_value = excluded.default_value`,
        [d.name, d.id, d.category, d.dataType, d.description, JSON.stringify(d.defaultValue ?? null)],
      );
    }
    for (const [name, value] of Object.entries(config.settings)) {
      if (!(await db.query('SELECT 1 FROM setting_definitions WHERE name = $1', [name])).length) continue;
      await db.query(`INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value`, [name, JSON.stringify(value)]);
    }
    const categoryId = new Map(config.checkCategories.map((c) => [c.name, c.id]));
    for (const c of config.checks) {
      await db.query('INSERT INTO checks (id, name, action_type_id, check_category_id) VALUES ($1, $2, $3, $4)', [c.id, c.name, c.actionTypeId, categoryId.get(c.category) ?? null]);
    }
    for (const u of config.users) {
      await db.query(`INSERT INTO users (id, login, password) VALUES ($1, $2, '') ON CONFLICT DO NOTHING`, [u.id, u.login]);
    }
    for (const g of config.userGroups) await db.query('INSERT INTO user_groups (id, name) VALUES ($1, $2) ON CONFLICT DO NOTHING', [g.id, g.name]);
    await db.query('INSERT INTO meta (key, value) VALUES ($1, $2)', [META_KEY, new Date().toISOString()]);
  });
  log(`seeded the tenant folder's configuration: ${config.fields.length} fields, ${config.classifications.length} classifications (${Date.now() - started} ms)`);
  return true;
}

/** Languages, content types and check categories become exactly the folder's (its ids, its names). */
async function replaceCatalogue(db: Queryable, config: TenantConfig): Promise<void> {
  if (config.languages.length) {
    const ids = config.languages.map((l) => l.id);
    await db.query('DELETE FROM languages WHERE NOT (id = ANY($1::text[])) AND NOT is_neutral', [ids]);
    for (const l of config.languages) {
      await db.query('DELETE FROM languages WHERE lower(culture) = lower($1) AND id <> $2', [l.culture, l.id]);
      await db.query(
        `INSERT INTO languages (id, culture, name, is_neutral) VALUES ($1, $2, $3, $4)
         ON CONFLICT (id) DO UPDATE SET culture = excluded.culture, name = excluded.name, is_neutral = excluded.is_neutral`,
        [l.id, l.culture, l.name, l.isNeutral],
      );
    }
  }
  const langs = new LanguageMap(config.languages);
  if (config.contentTypes.length) {
    await db.query('DELETE FROM content_types');
    for (const c of config.contentTypes) {
      await db.query('INSERT INTO content_types (id, name, labels) VALUES ($1, $2, $3)', [c.id, c.name, JSON.stringify(langs.labelsTo(c.labels))]);
    }
  }
  if (config.checkCategories.length) {
    await db.query('DELETE FROM check_categories WHERE NOT EXISTS (SELECT 1 FROM checks WHERE checks.check_category_id = check_categories.id)');
    for (const c of config.checkCategories) {
      await db.query('DELETE FROM check_categories WHERE lower(name) = lower($1) AND id <> $2', [c.name, c.id]);
      await db.query('INSERT INTO check_categories (id, name) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET name = excluded.name', [c.id, c.name]);
    }
  }
}

const WORDS = ['alpine', 'harbour', 'summer', 'launch', 'studio', 'outdoor', 'catalog', 'family', 'detail', 'urban', 'night', 'river', 'market', 'classic', 'bold', 'fresh'];
const STATUSES = ['Draft', 'Released', 'Released', 'Released', 'Archived'];

/** One drawn value of a field, as the records store keeps it; undefined for data types this generator leaves empty. */
function drawValue(f: Field, rng: Rng, ctx: { classifications: { id: string; namePath: string }[]; languageIds: string[]; created: Date }) {
  const words = (n: number) => Array.from({ length: n }, () => rng.pick(WORDS)).join(' ');
  switch (f.dataType) {
    case 'SingleLineText':
    case 'MultiLineText':
    case 'Html':
    case 'RichContent': {
      const text = words(f.dataType === 'SingleLineText' ? 2 : 6);
      return { value: { value: text }, text, date: null };
    }
    case 'Numeric': {
      const n = rng.int(1, 1000);
      return { value: { value: n }, text: String(n), date: null };
    }
    case 'Date': {
      const day = new Date(ctx.created.getTime() + rng.int(0, 90) * 86_400_000).toISOString().slice(0, 10);
      return { value: { value: day }, text: day, date: `${day}T00:00:00Z` };
    }
    case 'DateTime': {
      const at = new Date(ctx.created.getTime() + rng.int(0, 90 * 86_400) * 1000).toISOString();
      return { value: { value: at }, text: at, date: at };
    }
    case 'OptionList': {
      if (!f.options?.length) return undefined;
      const o = rng.pick(f.options);
      return { value: { values: [o.id] }, text: o.name, date: null };
    }
    case 'ClassificationList': {
      const root = f.rootClassification;
      const under = root ? ctx.classifications.filter((c) => c.namePath.toLowerCase().startsWith(`${root.toLowerCase()}/`)) : ctx.classifications;
      if (!under.length) return undefined;
      const c = rng.pick(under);
      return { value: { values: [c.id] }, text: c.id, date: null };
    }
    case 'TextList': {
      const values = [...new Set([rng.pick(WORDS), rng.pick(WORDS)])];
      return { value: { values }, text: values.join(', '), date: null };
    }
    case 'LanguageList': {
      if (!ctx.languageIds.length) return undefined;
      const id = rng.pick(ctx.languageIds);
      return { value: { values: [id] }, text: id, date: null };
    }
    default:
      return undefined;
  }
}

/**
 * Adds `count` records over the folder's configuration: content types, statuses and dates spread as in the demo,
 * every required field filled and the others most of the time, one or two classifications each, spread over the tree.
 * Deterministic: the same folder and count give the same records.
 */
export async function seedSyntheticRecords(store: Store, config: TenantConfig, count: number, log: (line: string) => void): Promise<number> {
  const have = (await store.query<{ n: number }>('SELECT count(*)::int AS n FROM records'))[0].n;
  if (have >= count) return 0;
  const rng = createRng(0x5eed + have);
  const started = Date.now();
  const types = config.contentTypes.length ? config.contentTypes.map((c) => c.name) : ['Image', 'Video', 'Document'];
  const languageIds = config.languages.filter((l) => !l.isNeutral && l.culture).map((l) => l.id);
  const classifications = config.classifications.map((c) => ({ id: c.id, namePath: c.namePath }));
  const start = Date.UTC(2024, 0, 1);
  const span = Date.UTC(2025, 11, 31) - start;
  const CHUNK = 5_000;
  for (let from = have; from < count; from += CHUNK) {
    const records: RecordRow[] = [];
    const values: FieldValueRow[] = [];
    const links: { recordId: string; classificationId: string }[] = [];
    for (let i = from; i < Math.min(count, from + CHUNK); i++) {
      const id = rng.guid();
      const created = new Date(start + Math.floor(rng.next() * span));
      const texts: string[] = [];
      for (const f of config.fields) {
        if (!f.isRequired && !rng.chance(0.7)) continue;
        const languages = f.isLocalizable && languageIds.length ? languageIds.slice(0, 2) : [NEUTRAL_LANGUAGE];
        for (const languageId of languages) {
          const v = drawValue(f, rng, { classifications, languageIds, created });
          if (!v) continue;
          values.push({ recordId: id, fieldId: f.id, languageId, value: v.value, valueText: v.text, valueDate: v.date });
          if (/Text|Html|RichContent/.test(f.dataType)) texts.push(v.text);
        }
      }
      records.push({
        id,
        title: `${rng.pick(WORDS)} ${rng.pick(WORDS)} ${i + 1}`,
        status: rng.pick(STATUSES),
        contentType: rng.pick(types),
        searchText: texts.join(' '),
        createdOn: created.toISOString(),
        modifiedOn: new Date(created.getTime() + rng.int(0, 90) * 86_400_000).toISOString(),
        createdBy: rng.int(1, 3),
      });
      const n = classifications.length ? rng.int(1, 2) : 0;
      for (let k = 0; k < n; k++) links.push({ recordId: id, classificationId: rng.pick(classifications).id });
    }
    await store.transaction(async (tx) => {
      await insertRecords(tx, records);
      await insertFieldValues(tx, values);
      await insertRecordClassifications(tx, links);
    });
    log(`added ${Math.min(count, from + CHUNK) - have} of ${count - have} synthetic records (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  return count - have;
}
