// The tenant folder as text: which file holds what, printing a configuration to files that diff cleanly (stable
// order, sorted keys, nothing volatile), reading them back with problems that name the file and the item, and the
// JSON schemas an editor uses for completion. No I/O here: callers read and write the files.
import { z } from 'zod';
import {
  Check,
  CheckCategory,
  Classification,
  ContentType,
  Field,
  FieldGroup,
  Language,
  SettingDefinition,
  UserGroupRef,
  UserRef,
  emptyConfig,
  normalise,
  parentPath,
  sortKeys,
  type TenantConfig,
} from './model';

export const TENANT_FORMAT = 'dam-tenant';
export const TENANT_FORMAT_VERSION = 1;
/** Where the folder keeps the JSON schemas its files name in `$schema`. */
export const SCHEMA_DIR = '.schema';

const Manifest = z.object({ format: z.literal(TENANT_FORMAT), version: z.literal(TENANT_FORMAT_VERSION) });

/** Each list file: its name, its one property and the schema of an item. */
const LIST_FILES = {
  'languages.json': { key: 'languages', item: Language },
  'content-types.json': { key: 'contentTypes', item: ContentType },
  'check-categories.json': { key: 'checkCategories', item: CheckCategory },
  'checks.json': { key: 'checks', item: Check },
  'field-groups.json': { key: 'fieldGroups', item: FieldGroup },
  'classifications.json': { key: 'classifications', item: Classification },
  'setting-definitions.json': { key: 'settingDefinitions', item: SettingDefinition },
} as const;

type ListFile = keyof typeof LIST_FILES;

const SettingsFile = z.object({ settings: z.record(z.string(), z.unknown()) });
const UsersFile = z.object({ users: z.array(UserRef), userGroups: z.array(UserGroupRef) });

/** The schema of every file kind, by the schema file's name. */
function fileSchemas(): Record<string, z.ZodType> {
  const withSchema = <T extends z.ZodRawShape>(shape: T) => z.object({ $schema: z.string().optional(), ...shape });
  const out: Record<string, z.ZodType> = {
    'tenant.schema.json': withSchema(Manifest.shape),
    'settings.schema.json': withSchema(SettingsFile.shape),
    'users.schema.json': withSchema(UsersFile.shape),
    'field.schema.json': withSchema(Field.shape),
  };
  for (const [file, { key, item }] of Object.entries(LIST_FILES)) out[file.replace(/\.json$/, '.schema.json')] = withSchema({ [key]: z.array(item) });
  return out;
}

/** The JSON schemas the folder's files name, as text by file name (written under `.schema/`). */
export function tenantJsonSchemas(): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, schema] of Object.entries(fileSchemas())) {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    out.set(name, `${JSON.stringify(sortKeys({ ...json, title: `DAM tenant folder: ${name.replace('.schema.json', '')}` }), null, 2)}\n`);
  }
  return out;
}

const print = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** A file name for a field: its name where the file system allows, told apart from names that differ only in case. */
export function fieldFileNames(fields: readonly { name: string; id: string }[]): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<string>();
  const sorted = [...fields].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const f of sorted) {
    let base = f.name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_').slice(0, 100) || 'field';
    if (taken.has(base.toLowerCase())) base = `${base}-${f.id.slice(0, 8)}`;
    taken.add(base.toLowerCase());
    out.set(f.id, `fields/${base}.json`);
  }
  return out;
}

/** Prints a configuration as the folder's files (path → text). The same configuration always gives the same text. */
export function toFiles(config: TenantConfig): Map<string, string> {
  const c = normalise(config);
  const files = new Map<string, string>();
  const ref = (schemaFile: string, depth = 0) => `${'../'.repeat(depth)}${SCHEMA_DIR}/${schemaFile}`;
  files.set('tenant.json', print({ $schema: ref('tenant.schema.json'), format: TENANT_FORMAT, version: TENANT_FORMAT_VERSION }));
  for (const [file, { key }] of Object.entries(LIST_FILES)) {
    const items = (c[key as keyof TenantConfig] as unknown[]).map(sortKeys);
    files.set(file, print({ $schema: ref(file.replace(/\.json$/, '.schema.json')), [key]: items }));
  }
  files.set('settings.json', print({ $schema: ref('settings.schema.json'), settings: c.settings }));
  files.set('users.json', print({ $schema: ref('users.schema.json'), users: c.users, userGroups: c.userGroups }));
  const names = fieldFileNames(c.fields);
  for (const field of c.fields) files.set(names.get(field.id)!, print({ $schema: ref('field.schema.json', 1), ...(sortKeys(field) as object) }));
  for (const [name, text] of tenantJsonSchemas()) files.set(`${SCHEMA_DIR}/${name}`, text);
  return files;
}

export interface FolderProblem {
  /** The file, relative to the folder. */
  file: string;
  message: string;
}

function jsonError(err: unknown, text: string): string {
  const message = (err as Error).message;
  const at = /position (\d+)/.exec(message);
  if (!at) return message;
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  const column = Number(at[1]) - before.lastIndexOf('\n');
  return `${message.replace(/ in JSON at position \d+.*$/, '')} (line ${line}, column ${column})`;
}

function zodProblems(file: string, error: z.ZodError, describe: (path: PropertyKey[]) => string): FolderProblem[] {
  return error.issues.slice(0, 20).map((issue) => ({ file, message: `${describe(issue.path)}: ${issue.message}` }));
}

/** Files a folder may hold besides the configuration: ignored. */
function ignored(path: string): boolean {
  return path.startsWith(`${SCHEMA_DIR}/`) || path.split('/').some((part) => part.startsWith('.')) || /^readme(\.\w+)?$/i.test(path);
}

/**
 * Reads a folder's files (path → text) back into a configuration. Every problem names its file (and the item where
 * one is at fault); a folder with problems gives no configuration, so nothing acts on half of it.
 */
export function fromFiles(files: ReadonlyMap<string, string>): { config?: TenantConfig; problems: FolderProblem[] } {
  const problems: FolderProblem[] = [];
  const config = emptyConfig();
  const parse = (file: string): unknown => {
    const text = files.get(file)!;
    try {
      return JSON.parse(text);
    } catch (err) {
      problems.push({ file, message: `not valid JSON: ${jsonError(err, text)}` });
      return undefined;
    }
  };
  if (!files.has('tenant.json')) problems.push({ file: 'tenant.json', message: 'missing: this is not a folder written by `dam tenant pull`' });
  for (const file of [...files.keys()].sort()) {
    if (ignored(file)) continue;
    const json = parse(file);
    if (json === undefined) continue;
    const body = json && typeof json === 'object' ? { ...(json as Record<string, unknown>) } : json;
    if (body && typeof body === 'object') delete (body as Record<string, unknown>).$schema;
    if (file === 'tenant.json') {
      const m = Manifest.safeParse(body);
      if (!m.success) problems.push({ file, message: `expected {"format": "${TENANT_FORMAT}", "version": ${TENANT_FORMAT_VERSION}}` });
    } else if (file in LIST_FILES) {
      const { key, item } = LIST_FILES[file as ListFile];
      const parsed = z.object({ [key]: z.array(item) }).strict().safeParse(body);
      if (!parsed.success) {
        const items = (body as Record<string, unknown[]> | null)?.[key];
        problems.push(...zodProblems(file, parsed.error, (path) => describeItem(key, path, items)));
      } else (config as unknown as Record<string, unknown>)[key] = parsed.data[key];
    } else if (file === 'settings.json') {
      const parsed = SettingsFile.strict().safeParse(body);
      if (!parsed.success) problems.push(...zodProblems(file, parsed.error, (p) => p.join('.') || 'the file'));
      else config.settings = parsed.data.settings;
    } else if (file === 'users.json') {
      const parsed = UsersFile.strict().safeParse(body);
      if (!parsed.success) problems.push(...zodProblems(file, parsed.error, (p) => p.join('.') || 'the file'));
      else {
        config.users = parsed.data.users;
        config.userGroups = parsed.data.userGroups;
      }
    } else if (/^fields\/[^/]+\.json$/.test(file)) {
      const parsed = Field.strict().safeParse(body);
      if (!parsed.success) problems.push(...zodProblems(file, parsed.error, (p) => (p.length ? `field ${p.join('.')}` : 'the field')));
      else config.fields.push(parsed.data);
    } else {
      problems.push({ file, message: 'unknown file: a tenant folder holds tenant.json, the lists `dam tenant pull` writes and fields/*.json' });
    }
  }
  if (problems.length) return { problems };
  problems.push(...checkReferences(config));
  return problems.length ? { problems } : { config: normalise(config), problems };
}

function describeItem(key: string, path: PropertyKey[], items: unknown[] | undefined): string {
  if (path[0] !== key || typeof path[1] !== 'number') return path.join('.') || 'the file';
  const item = items?.[path[1]] as { name?: string; namePath?: string; culture?: string } | undefined;
  const name = item?.namePath ?? item?.name ?? item?.culture;
  const rest = path.slice(2).join('.');
  return `${key}[${path[1]}]${name ? ` (${name})` : ''}${rest ? ` ${rest}` : ''}`;
}

/** References between files: each must name something the folder holds, and names and ids are unique. */
export function checkReferences(config: TenantConfig): FolderProblem[] {
  const problems: FolderProblem[] = [];
  const unique = <T>(file: string, what: string, items: T[], key: (t: T) => string) => {
    const seen = new Set<string>();
    for (const item of items) {
      const k = key(item);
      if (seen.has(k)) problems.push({ file, message: `${what} '${k}' appears twice` });
      seen.add(k);
    }
  };
  unique('languages.json', 'language', config.languages, (l) => l.culture.toLowerCase());
  unique('content-types.json', 'content type', config.contentTypes, (c) => c.name.toLowerCase());
  unique('field-groups.json', 'field group', config.fieldGroups, (g) => g.name.toLowerCase());
  unique('checks.json', 'check', config.checks, (c) => c.name.toLowerCase());
  unique('classifications.json', 'classification', config.classifications, (c) => c.namePath.toLowerCase());
  unique('classifications.json', 'classification id', config.classifications, (c) => c.id);
  unique('fields/', 'field', config.fields, (f) => f.name.toLowerCase());
  unique('fields/', 'field id', config.fields, (f) => f.id);
  const cultures = new Set(config.languages.map((l) => l.culture || 'neutral'));
  const groups = new Set(config.fieldGroups.map((g) => g.name));
  const categories = new Set(config.checkCategories.map((c) => c.name));
  const paths = new Set(config.classifications.map((c) => c.namePath));
  const fileOf = fieldFileNames(config.fields);
  for (const f of config.fields) {
    const file = fileOf.get(f.id)!;
    if (f.group && !groups.has(f.group)) problems.push({ file, message: `field '${f.name}' names field group '${f.group}', which field-groups.json does not hold` });
    if (f.rootClassification && !paths.has(f.rootClassification)) {
      problems.push({ file, message: `field '${f.name}' names root classification '${f.rootClassification}', which classifications.json does not hold` });
    }
    if (config.languages.length) {
      for (const culture of Object.keys(f.labels)) {
        if (!cultures.has(culture)) problems.push({ file, message: `field '${f.name}' has a label in '${culture}', which languages.json does not hold` });
      }
    }
  }
  for (const c of config.checks) {
    if (!categories.has(c.category)) problems.push({ file: 'checks.json', message: `check '${c.name}' names category '${c.category}', which check-categories.json does not hold` });
  }
  for (const c of config.classifications) {
    const parent = parentPath(c.namePath);
    if (parent && !paths.has(parent)) problems.push({ file: 'classifications.json', message: `classification '${c.namePath}' has no parent '${parent}' in the folder` });
  }
  const definitions = new Set(config.settingDefinitions.map((d) => d.name));
  for (const name of Object.keys(config.settings)) {
    if (config.settingDefinitions.length && !definitions.has(name)) {
      problems.push({ file: 'settings.json', message: `setting '${name}' has no definition in setting-definitions.json` });
    }
  }
  return problems;
}
