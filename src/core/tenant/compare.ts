// Comparing two configurations: which items of one side are which of the other (by the name a person gives them,
// then by id or identifier for a classification that moved), and what differs between a pair, in words
// ("field 'Brand' gained option 'Acme'"). `dam tenant diff` prints these; the push plan is built from the same pairs.
import { leafName, parentPath, sortKeys, type Classification, type Field, type TenantConfig } from './model';

export interface Difference {
  /** What kind of item: language, content type, field group, field, classification, check, setting, … */
  kind: string;
  /** The item's name (a name path for a classification). */
  key: string;
  words: string;
}

export const same = (a: unknown, b: unknown) => JSON.stringify(sortKeys(a ?? null)) === JSON.stringify(sortKeys(b ?? null));
const show = (value: unknown) => (value === undefined || value === null ? 'nothing' : typeof value === 'string' ? `'${value}'` : JSON.stringify(value));

export interface Pairs<T> {
  pairs: [T, T][];
  onlyA: T[];
  onlyB: T[];
}

/** Pairs items by a key (case-insensitively, as the service matches names). */
export function pairBy<T>(a: readonly T[], b: readonly T[], key: (t: T) => string): Pairs<T> {
  const rest = new Map<string, T>();
  for (const item of b) rest.set(key(item).toLowerCase(), item);
  const pairs: [T, T][] = [];
  const onlyA: T[] = [];
  for (const item of a) {
    const k = key(item).toLowerCase();
    const other = rest.get(k);
    if (other !== undefined) {
      pairs.push([item, other]);
      rest.delete(k);
    } else onlyA.push(item);
  }
  return { pairs, onlyA, onlyB: [...rest.values()] };
}

/** Classifications pair by name path; one left over on each side with the same id or identifier moved or was renamed. */
export function pairClassifications(a: readonly Classification[], b: readonly Classification[]): Pairs<Classification> {
  const first = pairBy(a, b, (c) => c.namePath);
  const pairs = [...first.pairs];
  let onlyA = first.onlyA;
  let onlyB = first.onlyB;
  for (const key of [(c: Classification) => c.id, (c: Classification) => c.identifier]) {
    const usable = (list: Classification[]) => list.filter((c) => key(c) !== '');
    const more = pairBy(usable(onlyA), usable(onlyB), key);
    if (!more.pairs.length) continue;
    pairs.push(...more.pairs);
    const pairedA = new Set(more.pairs.map(([x]) => x));
    const pairedB = new Set(more.pairs.map(([, y]) => y));
    onlyA = onlyA.filter((c) => !pairedA.has(c));
    onlyB = onlyB.filter((c) => !pairedB.has(c));
  }
  return { pairs, onlyA, onlyB };
}

function labelDifferences(kind: string, key: string, a: Record<string, string>, b: Record<string, string>): Difference[] {
  const out: Difference[] = [];
  for (const culture of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    if (a[culture] === b[culture]) continue;
    out.push({ kind, key, words: `${kind} '${key}' label (${culture}): ${show(a[culture])} → ${show(b[culture])}` });
  }
  return out;
}

function propertyDifferences(kind: string, key: string, a: Record<string, unknown>, b: Record<string, unknown>, names: string[]): Difference[] {
  const out: Difference[] = [];
  for (const name of names) {
    if (!same(a[name], b[name])) out.push({ kind, key, words: `${kind} '${key}' ${name}: ${show(a[name])} → ${show(b[name])}` });
  }
  return out;
}

/** What changed in a field from `a` to `b`, option by option. */
export function fieldDifferences(a: Field, b: Field): Difference[] {
  const kind = 'field';
  const key = b.name;
  const out: Difference[] = [];
  if (a.name !== b.name) out.push({ kind, key, words: `field '${a.name}' renamed to '${b.name}'` });
  // An absent isReadOnly is false (the folder writes it only when true).
  const ro = (f: Field) => ({ ...f, isReadOnly: f.isReadOnly === true });
  out.push(...propertyDifferences(kind, key, ro(a), ro(b), ['dataType', 'group', 'isRequired', 'isReadOnly', 'isLocalizable', 'sortIndex', 'defaultValue', 'rootClassification']));
  out.push(...labelDifferences(kind, key, a.labels, b.labels));
  const options = pairBy(a.options ?? [], b.options ?? [], (o) => o.name);
  for (const o of options.onlyB) out.push({ kind, key, words: `field '${key}' gained option '${o.name}'` });
  for (const o of options.onlyA) out.push({ kind, key, words: `field '${key}' lost option '${o.name}'` });
  for (const [x, y] of options.pairs) {
    if ((x.label ?? x.name) !== (y.label ?? y.name)) out.push({ kind, key, words: `field '${key}' option '${y.name}' label: ${show(x.label)} → ${show(y.label)}` });
  }
  const order = (list: { name: string }[]) => list.map((o) => o.name.toLowerCase()).filter((n) => options.pairs.some(([x]) => x.name.toLowerCase() === n));
  if (!options.onlyA.length && !options.onlyB.length && !same(order(a.options ?? []), order(b.options ?? []))) {
    out.push({ kind, key, words: `field '${key}' options reordered` });
  }
  const props = [...new Set([...Object.keys(a.properties ?? {}), ...Object.keys(b.properties ?? {})])].sort();
  out.push(...propertyDifferences(kind, key, a.properties ?? {}, b.properties ?? {}, props));
  return out;
}

export function classificationDifferences(a: Classification, b: Classification): Difference[] {
  const out: Difference[] = [];
  const kind = 'classification';
  if (a.namePath !== b.namePath) {
    const moved = parentPath(a.namePath) !== parentPath(b.namePath);
    const renamed = leafName(a.namePath) !== leafName(b.namePath);
    const how = moved && renamed ? 'moved and renamed to' : moved ? 'moved to' : 'renamed to';
    out.push({ kind, key: b.namePath, words: `classification '${a.namePath}' ${how} '${b.namePath}'` });
  }
  out.push(...propertyDifferences(kind, b.namePath, a, b, ['identifier', 'sortIndex', 'sortOrder']));
  out.push(...labelDifferences(kind, b.namePath, a.labels, b.labels));
  return out;
}

/** Every difference from `a` to `b`, in the folder's order; empty when they hold the same configuration. */
export function diffConfigs(a: TenantConfig, b: TenantConfig): Difference[] {
  const out: Difference[] = [];
  const addedRemoved = <T>(kind: string, p: Pairs<T>, key: (t: T) => string) => {
    for (const item of p.onlyB) out.push({ kind, key: key(item), words: `${kind} '${key(item)}' added` });
    for (const item of p.onlyA) out.push({ kind, key: key(item), words: `${kind} '${key(item)}' removed` });
  };
  const languages = pairBy(a.languages, b.languages, (l) => l.culture);
  addedRemoved('language', languages, (l) => l.culture || 'neutral');
  for (const [x, y] of languages.pairs) out.push(...propertyDifferences('language', y.culture || 'neutral', x, y, ['name']));

  const contentTypes = pairBy(a.contentTypes, b.contentTypes, (c) => c.name);
  addedRemoved('content type', contentTypes, (c) => c.name);
  for (const [x, y] of contentTypes.pairs) out.push(...labelDifferences('content type', y.name, x.labels, y.labels));

  const categories = pairBy(a.checkCategories, b.checkCategories, (c) => c.name);
  addedRemoved('check category', categories, (c) => c.name);

  const groups = pairBy(a.fieldGroups, b.fieldGroups, (g) => g.name);
  addedRemoved('field group', groups, (g) => g.name);
  for (const [x, y] of groups.pairs) {
    out.push(...propertyDifferences('field group', y.name, x, y, ['sortIndex']));
    out.push(...labelDifferences('field group', y.name, x.labels, y.labels));
  }

  const classifications = pairClassifications(a.classifications, b.classifications);
  addedRemoved('classification', classifications, (c) => c.namePath);
  for (const [x, y] of classifications.pairs) out.push(...classificationDifferences(x, y));

  const fields = pairBy(a.fields, b.fields, (f) => f.name);
  addedRemoved('field', fields, (f) => f.name);
  for (const [x, y] of fields.pairs) out.push(...fieldDifferences(x, y));

  const definitions = pairBy(a.settingDefinitions, b.settingDefinitions, (d) => d.name);
  addedRemoved('setting definition', definitions, (d) => d.name);
  for (const [x, y] of definitions.pairs) out.push(...propertyDifferences('setting definition', y.name, x, y, ['category', 'dataType', 'description', 'defaultValue']));

  for (const name of [...new Set([...Object.keys(a.settings), ...Object.keys(b.settings)])].sort()) {
    const inA = name in a.settings;
    const inB = name in b.settings;
    if (!inA) out.push({ kind: 'setting', key: name, words: `setting '${name}' added` });
    else if (!inB) out.push({ kind: 'setting', key: name, words: `setting '${name}' removed` });
    else if (!same(a.settings[name], b.settings[name])) out.push({ kind: 'setting', key: name, words: `setting '${name}' changed: ${show(a.settings[name])} → ${show(b.settings[name])}` });
  }

  const checks = pairBy(a.checks, b.checks, (c) => c.name);
  addedRemoved('check', checks, (c) => c.name);
  for (const [x, y] of checks.pairs) out.push(...propertyDifferences('check', y.name, x, y, ['category', 'actionTypeId']));

  const users = pairBy(a.users, b.users, (u) => u.login);
  addedRemoved('user', users, (u) => u.login);
  const userGroups = pairBy(a.userGroups, b.userGroups, (g) => g.name);
  addedRemoved('user group', userGroups, (g) => g.name);
  return out;
}
