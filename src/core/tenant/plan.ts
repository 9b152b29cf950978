// The push plan: what to create, change and (only with prune) delete on a target so it holds a folder's
// configuration, in dependency order (languages and groups before the fields that name them, a parent
// classification before its children, deletions last and deepest first). A value to review before anything is
// written, as Terraform's plan; `api/tenant.ts` applies it step by step.
import { classificationDifferences, diffConfigs, fieldDifferences, pairBy, pairClassifications, same, type Difference } from './compare';
import type { Check, Classification, ContentType, Field, FieldGroup, Language, SettingDefinition, TenantConfig } from './model';

export type StepKind = 'language' | 'contentType' | 'fieldGroup' | 'classification' | 'field' | 'settingDefinition' | 'setting' | 'check';

interface StepBase<K extends StepKind, T> {
  action: 'create' | 'update' | 'delete';
  kind: K;
  /** The item's name (a name path for a classification). */
  key: string;
  /** What the step does, in words: one line per change. */
  words: string[];
  /** The folder's item (absent for a delete). */
  desired?: T;
  /** The target's item as it is now (absent for a create). */
  current?: T;
}

export type PlanStep =
  | StepBase<'language', Language>
  | StepBase<'contentType', ContentType>
  | StepBase<'fieldGroup', FieldGroup>
  | StepBase<'classification', Classification>
  | StepBase<'field', Field>
  | StepBase<'settingDefinition', SettingDefinition>
  | StepBase<'setting', { name: string; value: unknown }>
  | StepBase<'check', Check>;

export interface PushPlan {
  steps: PlanStep[];
  /** Why the plan cannot be applied at all (nothing is written while there is one). */
  refusals: string[];
}

const KIND_WORDS: Record<StepKind, string> = {
  language: 'language',
  contentType: 'content type',
  fieldGroup: 'field group',
  classification: 'classification',
  field: 'field',
  settingDefinition: 'setting definition',
  setting: 'setting',
  check: 'check',
};

export function stepTitle(step: PlanStep): string {
  return `${step.action} ${KIND_WORDS[step.kind]} '${step.key}'`;
}

const wordsOf = (diffs: Difference[]) => diffs.map((d) => d.words);

/** Plans a push of `desired` (a folder) onto `current` (the target as pulled now). */
export function planPush(desired: TenantConfig, current: TenantConfig, options: { prune?: boolean } = {}): PushPlan {
  const steps: PlanStep[] = [];
  const deletions: PlanStep[] = [];
  const refusals: string[] = [];
  const prune = options.prune === true;

  const languages = pairBy(desired.languages, current.languages, (l) => l.culture);
  for (const l of languages.onlyA) steps.push({ action: 'create', kind: 'language', key: l.culture || 'neutral', words: [`add language ${l.culture} (${l.name})`], desired: l });
  for (const [d, c] of languages.pairs) {
    if (d.name !== c.name) steps.push({ action: 'update', kind: 'language', key: d.culture || 'neutral', words: [`language ${d.culture} name: '${c.name}' → '${d.name}'`], desired: d, current: c });
  }
  if (prune) for (const l of languages.onlyB) if (!l.isNeutral) deletions.push({ action: 'delete', kind: 'language', key: l.culture, words: [`delete language ${l.culture}`], current: l });

  const contentTypes = pairBy(desired.contentTypes, current.contentTypes, (c) => c.name);
  for (const c of contentTypes.onlyA) steps.push({ action: 'create', kind: 'contentType', key: c.name, words: [`add content type '${c.name}'`], desired: c });
  for (const [d, c] of contentTypes.pairs) {
    if (!same(d.labels, c.labels)) steps.push({ action: 'update', kind: 'contentType', key: d.name, words: [`content type '${d.name}' labels`], desired: d, current: c });
  }
  if (prune) for (const c of contentTypes.onlyB) deletions.push({ action: 'delete', kind: 'contentType', key: c.name, words: [`delete content type '${c.name}'`], current: c });

  // Check categories are the service's fixed set: a folder can only name ones the target has.
  const categories = new Set(current.checkCategories.map((c) => c.name.toLowerCase()));
  for (const c of desired.checkCategories) {
    if (!categories.has(c.name.toLowerCase())) refusals.push(`check category '${c.name}' does not exist on the target, and the service creates no check categories (they are a fixed set)`);
  }

  const groups = pairBy(desired.fieldGroups, current.fieldGroups, (g) => g.name);
  for (const g of groups.onlyA) steps.push({ action: 'create', kind: 'fieldGroup', key: g.name, words: [`add field group '${g.name}'`], desired: g });
  for (const [d, c] of groups.pairs) {
    if (!same(d.labels, c.labels) || d.sortIndex !== c.sortIndex) {
      steps.push({ action: 'update', kind: 'fieldGroup', key: d.name, words: [`field group '${d.name}' labels or order`], desired: d, current: c });
    }
  }

  // Creations and changes in the folder's path order: a parent (created or moved) always before its children.
  const classifications = pairClassifications(desired.classifications, current.classifications);
  const classificationSteps: PlanStep[] = [];
  for (const c of classifications.onlyA) classificationSteps.push({ action: 'create', kind: 'classification', key: c.namePath, words: [`add classification '${c.namePath}'`], desired: c });
  for (const [d, c] of classifications.pairs) {
    const diffs = classificationDifferences(c, d);
    if (diffs.length) classificationSteps.push({ action: 'update', kind: 'classification', key: d.namePath, words: wordsOf(diffs), desired: d, current: c });
  }
  classificationSteps.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  steps.push(...classificationSteps);

  const fields = pairBy(desired.fields, current.fields, (f) => f.name);
  for (const f of fields.onlyA) steps.push({ action: 'create', kind: 'field', key: f.name, words: [`add field '${f.name}' (${f.dataType})`], desired: f });
  for (const [d, c] of fields.pairs) {
    if (d.dataType !== c.dataType) {
      refusals.push(`field '${d.name}' is ${c.dataType} on the target and ${d.dataType} in the folder: the service never changes a field's data type`);
      continue;
    }
    const diffs = fieldDifferences(c, d);
    if (diffs.length) steps.push({ action: 'update', kind: 'field', key: d.name, words: wordsOf(diffs), desired: d, current: c });
  }

  const definitions = pairBy(desired.settingDefinitions, current.settingDefinitions, (s) => s.name);
  for (const s of definitions.onlyA) steps.push({ action: 'create', kind: 'settingDefinition', key: s.name, words: [`add setting definition '${s.name}' (${s.dataType})`], desired: s });
  for (const [name, value] of Object.entries(desired.settings)) {
    const known = name in current.settings || definitions.onlyA.some((s) => s.name === name) || current.settingDefinitions.some((s) => s.name.toLowerCase() === name.toLowerCase());
    if (!known) {
      refusals.push(`setting '${name}' has no definition on the target, and the folder does not define it`);
      continue;
    }
    if (!same(value, current.settings[name])) {
      steps.push({ action: 'update', kind: 'setting', key: name, words: [`setting '${name}' changes`], desired: { name, value }, current: { name, value: current.settings[name] } });
    }
  }

  const checks = pairBy(desired.checks, current.checks, (c) => c.name);
  for (const c of checks.onlyA) steps.push({ action: 'create', kind: 'check', key: c.name, words: [`add check '${c.name}' (${c.category})`], desired: c });
  for (const [d, c] of checks.pairs) {
    if (d.category !== c.category || d.actionTypeId !== c.actionTypeId) {
      steps.push({ action: 'update', kind: 'check', key: d.name, words: [`check '${d.name}' category: '${c.category}' → '${d.category}'`], desired: d, current: c });
    }
  }

  if (prune) {
    // Dependents first: checks and fields, then classifications deepest first, groups, and the catalogue last.
    const del = <T>(kind: StepKind, items: T[], key: (t: T) => string, what: string): PlanStep[] =>
      items.map((item) => ({ action: 'delete', kind, key: key(item), words: [`delete ${what} '${key(item)}'`], current: item }) as PlanStep);
    const deepestFirst = [...classifications.onlyB].sort((x, y) => (x.namePath < y.namePath ? 1 : x.namePath > y.namePath ? -1 : 0));
    steps.push(
      ...del('check', checks.onlyB, (c) => c.name, 'check'),
      ...del('field', fields.onlyB, (f) => f.name, 'field (and its values)'),
      ...del('classification', deepestFirst, (c) => c.namePath, 'classification'),
      ...del('fieldGroup', groups.onlyB, (g) => g.name, 'field group'),
      ...deletions.reverse(),
    );
  }
  return { steps, refusals };
}

/** Differences the plan leaves alone: things present only on the target without --prune, users and groups. */
export function unplannedDifferences(desired: TenantConfig, current: TenantConfig, plan: PushPlan): Difference[] {
  const planned = new Set(plan.steps.map((s) => `${KIND_WORDS[s.kind]}\u0000${s.key.toLowerCase()}`));
  return diffConfigs(current, desired).filter((d) => !planned.has(`${d.kind}\u0000${d.key.toLowerCase()}`));
}
