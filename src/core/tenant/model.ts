// A tenant's configuration as `dam tenant pull` writes it: the shapes of the folder's files (zod, so the folder is
// checked where it is read and its JSON schemas come from the same definitions), with names instead of ids where a
// person reads them (a field's group, a check's category, a ClassificationList field's root) and ids kept so a
// seeded emulator answers the tenant's own ids.
import { z } from 'zod';

/** Labels by language culture (`en-US`); the neutral language is `neutral`. */
export const Labels = z.record(z.string(), z.string()).describe('Labels by language culture (en-US); the neutral language is "neutral"');
export type Labels = z.infer<typeof Labels>;

export const NEUTRAL_CULTURE_KEY = 'neutral';

export const Language = z.object({
  id: z.string().describe('The language id (32 hex digits)'),
  culture: z.string().describe('Culture name, e.g. en-US; empty for the neutral language'),
  name: z.string(),
  isNeutral: z.boolean().default(false),
});

export const ContentType = z.object({ id: z.string(), name: z.string(), labels: Labels.default({}) });
export const CheckCategory = z.object({ id: z.string(), name: z.string() });
export const Check = z.object({
  id: z.string(),
  name: z.string(),
  category: z.string().describe('The check category, by name'),
  actionTypeId: z.string(),
});
export const FieldGroup = z.object({ id: z.string(), name: z.string(), labels: Labels.default({}), sortIndex: z.number().int().default(0) });

/** A new option written by hand needs only its name: the tenant gives it an id when a push creates it. */
export const FieldOption = z.object({
  id: z.string().optional().describe('Given by the tenant: leave it out for a new option'),
  name: z.string(),
  label: z.string().optional(),
});

/** Properties of a field definition the folder names; anything else a tenant answers is kept in `properties`. */
export const Field = z.object({
  id: z.string(),
  name: z.string(),
  dataType: z.string().describe('SingleLineText, MultiLineText, Numeric, Date, DateTime, OptionList, ClassificationList, …'),
  labels: Labels.default({}),
  group: z.string().nullable().default(null).describe('The field group, by name'),
  isRequired: z.boolean().default(false),
  isReadOnly: z.boolean().optional().describe('The service refuses record writes to a read-only field (absent: false)'),
  isLocalizable: z.boolean().default(false),
  sortIndex: z.number().int().default(0),
  defaultValue: z.unknown().optional().describe('As the tenant answers it: { value } or { values }'),
  options: z.array(FieldOption).optional().describe('OptionList fields: the options, in their order'),
  rootClassification: z.string().nullable().optional().describe('ClassificationList fields: the root, by name path'),
  properties: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Validation and display properties the tenant keeps (isReadOnly, validation, regularExpression, maximumLength, helpText, …)'),
});

export const Classification = z.object({
  namePath: z.string().describe('The name path, e.g. /Products/Outdoor (a / inside a name is written \\/)'),
  id: z.string(),
  identifier: z.string().default(''),
  labels: Labels.default({}),
  sortIndex: z.number().int().default(0),
  sortOrder: z.string().default('SortIndex'),
});

export const SettingDefinition = z.object({
  name: z.string(),
  id: z.string(),
  category: z.string().default(''),
  dataType: z.string(),
  description: z.string().default(''),
  defaultValue: z.unknown().optional(),
});

// A tenant's content API names users and groups by GUID; folders pulled before that (and older emulators) hold integers.
const UserOrGroupId = z.union([z.string().regex(/^[0-9a-fA-F-]{32,36}$/), z.number().int()]);
export const UserRef = z.object({ id: UserOrGroupId, login: z.string() });
export const UserGroupRef = z.object({ id: UserOrGroupId, name: z.string() });

export type Language = z.infer<typeof Language>;
export type ContentType = z.infer<typeof ContentType>;
export type CheckCategory = z.infer<typeof CheckCategory>;
export type Check = z.infer<typeof Check>;
export type FieldGroup = z.infer<typeof FieldGroup>;
export type FieldOption = z.infer<typeof FieldOption>;
export type Field = z.infer<typeof Field>;
export type Classification = z.infer<typeof Classification>;
export type SettingDefinition = z.infer<typeof SettingDefinition>;
export type UserRef = z.infer<typeof UserRef>;

/** Integers in order, then GUIDs in order: a stable order for both kinds of id. */
const byId = (a: string | number, b: string | number) =>
  typeof a === typeof b ? (a < b ? -1 : a > b ? 1 : 0) : typeof a === 'number' ? -1 : 1;
export type UserGroupRef = z.infer<typeof UserGroupRef>;

/** The whole configuration; each list is kept in the folder's stable order (see `normalise`). */
export interface TenantConfig {
  languages: Language[];
  contentTypes: ContentType[];
  checkCategories: CheckCategory[];
  checks: Check[];
  fieldGroups: FieldGroup[];
  fields: Field[];
  classifications: Classification[];
  settingDefinitions: SettingDefinition[];
  /** Setting values by setting name (only settings that carry no secret). */
  settings: Record<string, unknown>;
  users: UserRef[];
  userGroups: UserGroupRef[];
}

export function emptyConfig(): TenantConfig {
  return {
    languages: [],
    contentTypes: [],
    checkCategories: [],
    checks: [],
    fieldGroups: [],
    fields: [],
    classifications: [],
    settingDefinitions: [],
    settings: {},
    users: [],
    userGroups: [],
  };
}

const byString =
  <T>(key: (t: T) => string) =>
  (a: T, b: T) => {
    const x = key(a);
    const y = key(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };

/** Sorts object keys recursively, so the same value always prints the same text. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/**
 * The folder's order: by culture, name or name path (code-point order, the same on every machine), options in
 * the tenant's order; a parent classification always comes before its children (its path is a prefix).
 */
export function normalise(config: TenantConfig): TenantConfig {
  return {
    languages: [...config.languages].sort(byString((l) => l.culture)),
    contentTypes: [...config.contentTypes].sort(byString((c) => c.name)),
    checkCategories: [...config.checkCategories].sort(byString((c) => c.name)),
    checks: [...config.checks].sort(byString((c) => c.name)),
    fieldGroups: [...config.fieldGroups].sort(byString((g) => g.name)),
    fields: [...config.fields].sort(byString((f) => f.name)),
    classifications: [...config.classifications].sort(byString((c) => c.namePath)),
    settingDefinitions: [...config.settingDefinitions].sort(byString((d) => d.name)),
    settings: sortKeys(config.settings) as Record<string, unknown>,
    users: [...config.users].sort((a, b) => byId(a.id, b.id)),
    userGroups: [...config.userGroups].sort((a, b) => byId(a.id, b.id)),
  };
}

/** A setting that holds a secret stays out of the folder (and so out of version control). */
export function isSecretSetting(name: string, dataType: string | undefined): boolean {
  return /secret|password|passwd|token|apikey|api[-_.]?key|credential|private[-_.]?key|connectionstring/i.test(name) || /password|secret/i.test(dataType ?? '');
}

/** Splits a name path into its names (`\/` is a slash inside a name). */
export function namePathParts(namePath: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < namePath.length; i++) {
    const c = namePath[i];
    if (c === '\\' && namePath[i + 1] === '/') {
      current += '/';
      i++;
    } else if (c === '/') {
      if (i > 0) parts.push(current);
      current = '';
    } else current += c;
  }
  if (namePath.length) parts.push(current);
  return parts;
}

/** The name path of a classification's parent, or null for a root. */
export function parentPath(namePath: string): string | null {
  for (let i = namePath.length - 1; i > 0; i--) {
    if (namePath[i] === '/' && namePath[i - 1] !== '\\') return namePath.slice(0, i);
  }
  return null;
}

/** The last name of a name path. */
export function leafName(namePath: string): string {
  const parts = namePathParts(namePath);
  return parts[parts.length - 1] ?? '';
}

export function escapeName(name: string): string {
  return name.replace(/\//g, '\\/');
}
