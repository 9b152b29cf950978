// Between the service's answers and the folder: ids become names where a person reads them (a field's group, a
// check's category, a root classification, option and classification default values), labels become a map by
// culture, volatile members (dates, links) are dropped; and back, for the bodies a push sends.
import {
  NEUTRAL_CULTURE_KEY,
  isSecretSetting,
  type Check,
  type Classification,
  type Field,
  type Labels,
  type Language,
  type TenantConfig,
} from './model';

export interface ApiLabel {
  languageId: string;
  value: string;
}

/** The service's answers a pull reads (plain JSON, every language). */
export interface ApiTenant {
  languages: { id: string; culture?: string | null; name?: string | null; isNeutral?: boolean | null }[];
  contentTypes: { id: string; name: string; labels?: ApiLabel[] | null }[];
  checkCategories: { id: string; name: string }[];
  checks: { id: string; name: string; actionTypeId: string; checkCategoryId: string }[];
  fieldGroups: { id: string; name: string; labels?: ApiLabel[] | null; sortIndex?: number | null }[];
  fieldDefinitions: Record<string, unknown>[];
  classifications: {
    id: string;
    identifier?: string | null;
    namePath: string;
    labels?: ApiLabel[] | null;
    sortIndex?: number | null;
    sortOrder?: string | null;
  }[];
  settingDefinitions: { id: string; name: string; category?: string | null; dataType: string; description?: string | null; defaultValue?: unknown }[];
  settings: { name: string; value?: unknown; dataType?: string | null; isDefault?: boolean | null }[];
  users: { id: number | string; login?: string | null; userName?: string | null }[];
  userGroups: { id: number | string; name: string }[];
}

/** Members of a field definition the folder spells out, or that are volatile: everything else goes to `properties`. */
const FIELD_MEMBERS = new Set([
  'id',
  'name',
  'label',
  'labels',
  'dataType',
  'fieldGroupId',
  'isRequired',
  'isReadOnly',
  'isLocalizable',
  'defaultValue',
  'sortIndex',
  'items',
  'rootClassificationId',
  // A tenant's names for the group and the root (ids, spelled out by name as `group` and `rootClassification`).
  'memberships',
  'rootId',
  'createdOn',
  'modifiedOn',
  'createdBy',
  'modifiedBy',
  '_links',
  '_embedded',
]);

export class LanguageMap {
  private readonly byId = new Map<string, string>();
  private readonly byCulture = new Map<string, string>();
  constructor(languages: readonly { id: string; culture?: string | null; isNeutral?: boolean | null }[]) {
    for (const l of languages) {
      const key = l.isNeutral || !l.culture ? NEUTRAL_CULTURE_KEY : l.culture;
      this.byId.set(l.id.toLowerCase().replace(/-/g, ''), key);
      this.byCulture.set(key.toLowerCase(), l.id);
    }
  }
  /** A label map keyed by culture; an unknown language id stays as its id, so nothing is lost. */
  labelsFrom(labels: readonly ApiLabel[] | null | undefined): Labels {
    const out: Labels = {};
    for (const l of labels ?? []) out[this.byId.get(l.languageId.toLowerCase().replace(/-/g, '')) ?? l.languageId] = l.value;
    return out;
  }
  labelsTo(labels: Labels): ApiLabel[] {
    return Object.entries(labels).map(([culture, value]) => ({ languageId: this.byCulture.get(culture.toLowerCase()) ?? culture, value }));
  }
}

function defaultToFolder(dataType: string, value: unknown, optionName: Map<string, string>, pathOf: Map<string, string>): unknown {
  if (!value || typeof value !== 'object') return value ?? undefined;
  const v = value as { values?: unknown[] };
  if (dataType === 'OptionList' && Array.isArray(v.values)) return { ...v, values: v.values.map((id) => optionName.get(String(id)) ?? id) };
  if (dataType === 'ClassificationList' && Array.isArray(v.values)) return { ...v, values: v.values.map((id) => pathOf.get(String(id)) ?? id) };
  return value;
}

/** The default value as the service takes it: option names and classification paths back to ids. */
export function defaultToApi(field: Field, optionId: (name: string) => string | undefined, classificationId: (path: string) => string | undefined): unknown {
  const value = field.defaultValue as { values?: unknown[] } | undefined;
  if (!value || typeof value !== 'object' || !Array.isArray(value.values)) return value;
  if (field.dataType === 'OptionList') return { ...value, values: value.values.map((n) => optionId(String(n)) ?? n) };
  if (field.dataType === 'ClassificationList') return { ...value, values: value.values.map((p) => classificationId(String(p)) ?? p) };
  return value;
}

export interface PullBounds {
  /** Classifications deeper than this many levels are left out. */
  maxDepth?: number;
}

/** The folder's configuration from what the service answered. */
export function fromApi(api: ApiTenant, bounds: PullBounds = {}): TenantConfig {
  const langs = new LanguageMap(api.languages);
  const pathOf = new Map(api.classifications.map((c) => [c.id, c.namePath]));
  const groupName = new Map(api.fieldGroups.map((g) => [g.id, g.name]));
  const categoryName = new Map(api.checkCategories.map((c) => [c.id, c.name]));
  const depth = (path: string) => path.split(/(?<!\\)\//).length - 1;
  const languages: Language[] = api.languages.map((l) => ({ id: l.id, culture: l.culture ?? '', name: l.name ?? l.culture ?? '', isNeutral: l.isNeutral === true }));
  const classifications: Classification[] = api.classifications
    .filter((c) => bounds.maxDepth === undefined || depth(c.namePath) <= bounds.maxDepth)
    .map((c) => ({
      namePath: c.namePath,
      id: c.id,
      identifier: c.identifier ?? '',
      labels: langs.labelsFrom(c.labels),
      sortIndex: c.sortIndex ?? 0,
      sortOrder: c.sortOrder ?? 'SortIndex',
    }));
  const fields: Field[] = api.fieldDefinitions.map((d) => {
    const dataType = String(d.dataType);
    const items = Array.isArray(d.items) ? (d.items as { id: string; name: string; label?: string | null; sortIndex?: number }[]) : undefined;
    const options = items
      ? [...items].sort((a, b) => (a.sortIndex ?? 0) - (b.sortIndex ?? 0)).map((o) => ({ id: o.id, name: o.name, ...(o.label && o.label !== o.name ? { label: o.label } : {}) }))
      : undefined;
    const optionName = new Map((options ?? []).map((o) => [o.id, o.name]));
    const properties: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(d)) if (!FIELD_MEMBERS.has(key) && value !== null && value !== undefined) properties[key] = value;
    // A tenant answers `rootId` (the empty GUID for none) and `memberships`; the emulator also the older single names.
    const rootValue = typeof d.rootClassificationId === 'string' ? d.rootClassificationId : typeof d.rootId === 'string' ? d.rootId : null;
    const root = rootValue && !/^[0-]+$/.test(rootValue) ? rootValue : null;
    const groupId = typeof d.fieldGroupId === 'string' ? d.fieldGroupId : Array.isArray(d.memberships) && typeof d.memberships[0] === 'string' ? d.memberships[0] : null;
    const field: Field = {
      id: String(d.id),
      name: String(d.name),
      dataType,
      labels: langs.labelsFrom(d.labels as ApiLabel[] | undefined),
      group: groupId ? (groupName.get(groupId) ?? null) : null,
      isRequired: d.isRequired === true,
      ...(d.isReadOnly === true ? { isReadOnly: true } : {}),
      isLocalizable: d.isLocalizable === true,
      sortIndex: typeof d.sortIndex === 'number' ? d.sortIndex : 0,
    };
    const defaultValue = defaultToFolder(dataType, d.defaultValue, optionName, pathOf);
    if (defaultValue !== undefined && defaultValue !== null) field.defaultValue = defaultValue;
    if (options) field.options = options;
    if (dataType === 'ClassificationList') field.rootClassification = root ? (pathOf.get(root) ?? null) : null;
    if (Object.keys(properties).length) field.properties = properties;
    return field;
  });
  const definitions = new Map(api.settingDefinitions.map((d) => [d.name, d]));
  const settings: Record<string, unknown> = {};
  for (const s of api.settings) {
    if (isSecretSetting(s.name, s.dataType ?? definitions.get(s.name)?.dataType)) continue;
    if (s.value !== undefined) settings[s.name] = s.value;
  }
  const checks: Check[] = api.checks.map((c) => ({ id: c.id, name: c.name, category: categoryName.get(c.checkCategoryId) ?? c.checkCategoryId, actionTypeId: c.actionTypeId }));
  // Users and groups only as far as the configuration names them: a UserList or UserGroupList default value.
  const named = new Set<string>();
  for (const f of fields) {
    if ((f.dataType === 'UserList' || f.dataType === 'UserGroupList') && f.defaultValue && typeof f.defaultValue === 'object') {
      for (const v of (f.defaultValue as { values?: unknown[] }).values ?? []) named.add(`${f.dataType}:${String(v)}`);
    }
  }
  return {
    languages,
    contentTypes: api.contentTypes.map((c) => ({ id: c.id, name: c.name, labels: langs.labelsFrom(c.labels) })),
    checkCategories: api.checkCategories.map((c) => ({ id: c.id, name: c.name })),
    checks,
    fieldGroups: api.fieldGroups.map((g) => ({ id: g.id, name: g.name, labels: langs.labelsFrom(g.labels), sortIndex: g.sortIndex ?? 0 })),
    fields,
    classifications,
    settingDefinitions: api.settingDefinitions
      .filter((d) => !isSecretSetting(d.name, d.dataType))
      .map((d) => ({ name: d.name, id: d.id, category: d.category ?? '', dataType: d.dataType, description: d.description ?? '', ...(d.defaultValue !== undefined && d.defaultValue !== null ? { defaultValue: d.defaultValue } : {}) })),
    settings,
    users: api.users.filter((u) => named.has(`UserList:${u.id}`)).map((u) => ({ id: u.id, login: u.login ?? u.userName ?? String(u.id) })),
    userGroups: api.userGroups.filter((g) => named.has(`UserGroupList:${g.id}`)).map((g) => ({ id: g.id, name: g.name })),
  };
}
