// Reading a tenant's configuration (`dam tenant pull`) and applying a push plan to one: one request at a time, so a
// pull or a push never adds more than one request to the tenant's shared rate at once, with progress and cancel.
import { z } from 'zod';
import {
  LanguageMap,
  defaultToApi,
  fromApi,
  leafName,
  parentPath,
  stepTitle,
  type ApiTenant,
  type PlanStep,
  type PullBounds,
  type PushPlan,
  type TenantConfig,
} from '../core/tenant';
import type { DamClient } from './client';
import { ApiError } from './errors';

const PAGE = 1000;
const Items = z.object({ items: z.array(z.record(z.string(), z.unknown())).default([]), totalCount: z.number().optional() }).loose();

export interface PullOptions extends PullBounds {
  /** At most this many classifications (the tree can be huge): the rest are left out and the result says so. */
  maxClassifications?: number;
  onProgress?: (message: string) => void;
  signal?: AbortSignal;
}

export interface PullResult {
  config: TenantConfig;
  /** What was left out, in words (an empty list when the folder holds everything). */
  notes: string[];
}

async function listAll(client: DamClient, path: string, signal: AbortSignal | undefined, limit = Infinity): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let page = 1; out.length < limit; page++) {
    const res = await client.http.request({
      path,
      query: { page, pageSize: PAGE },
      accept: 'application/json',
      headers: { languages: '*' },
      schema: Items,
      signal,
    });
    out.push(...res.data.items);
    const total = res.data.totalCount;
    if (res.data.items.length < PAGE || (total !== undefined && out.length >= total)) break;
  }
  return out.slice(0, limit);
}

/** Reads the configuration (not the assets) of the tenant `client` is connected to. */
export async function pullTenant(client: DamClient, options: PullOptions = {}): Promise<PullResult> {
  const { signal, onProgress = () => undefined } = options;
  const notes: string[] = [];
  const read = async (what: string, path: string, limit?: number) => {
    onProgress(`reading ${what}`);
    return listAll(client, path, signal, limit);
  };
  const maxClassifications = options.maxClassifications ?? 100_000;
  const classifications = await read('classifications', '/classifications', maxClassifications + 1);
  if (classifications.length > maxClassifications) {
    classifications.length = maxClassifications;
    notes.push(`only the first ${maxClassifications} classifications were pulled (--max-classifications)`);
  }
  const api: ApiTenant = {
    languages: (await read('languages', '/languages')) as ApiTenant['languages'],
    contentTypes: (await read('content types', '/contenttypes')) as ApiTenant['contentTypes'],
    checkCategories: (await read('check categories', '/checkcategories')) as ApiTenant['checkCategories'],
    checks: (await read('checks', '/checks')) as ApiTenant['checks'],
    fieldGroups: (await read('field groups', '/fieldgroups')) as ApiTenant['fieldGroups'],
    fieldDefinitions: await read('field definitions', '/fielddefinitions'),
    classifications: classifications as ApiTenant['classifications'],
    settingDefinitions: (await read('setting definitions', '/settingdefinitions')) as ApiTenant['settingDefinitions'],
    settings: (await read('settings', '/settings')) as ApiTenant['settings'],
    users: (await read('users', '/users')) as ApiTenant['users'],
    userGroups: (await read('user groups', '/usergroups')) as ApiTenant['userGroups'],
  };
  const config = fromApi(api, options);
  if (options.maxDepth !== undefined && config.classifications.length < classifications.length) {
    notes.push(`${classifications.length - config.classifications.length} classifications deeper than ${options.maxDepth} levels were left out (--max-depth)`);
  }
  return { config, notes };
}

export interface PushReport {
  applied: PlanStep[];
  /** The step the target refused, and why; nothing after it was sent. */
  failed?: { step: PlanStep; reason: string };
  notApplied: PlanStep[];
}

/** Ids on the target, by the names the folder uses; filled from the target as pulled and from each creation. */
class TargetIds {
  readonly language = new Map<string, string>();
  readonly contentType = new Map<string, string>();
  readonly fieldGroup = new Map<string, string>();
  readonly classification = new Map<string, string>();
  readonly field = new Map<string, string>();
  readonly checkCategory = new Map<string, string>();
  readonly check = new Map<string, string>();
  readonly options = new Map<string, Map<string, string>>();

  constructor(current: TenantConfig) {
    for (const l of current.languages) this.language.set((l.culture || 'neutral').toLowerCase(), l.id);
    for (const c of current.contentTypes) this.contentType.set(c.name.toLowerCase(), c.id);
    for (const g of current.fieldGroups) this.fieldGroup.set(g.name.toLowerCase(), g.id);
    for (const c of current.classifications) this.classification.set(c.namePath.toLowerCase(), c.id);
    for (const f of current.fields) {
      this.field.set(f.name.toLowerCase(), f.id);
      this.options.set(f.name.toLowerCase(), new Map((f.options ?? []).flatMap((o) => (o.id ? [[o.name.toLowerCase(), o.id] as const] : []))));
    }
    for (const c of current.checkCategories) this.checkCategory.set(c.name.toLowerCase(), c.id);
    for (const c of current.checks) this.check.set(c.name.toLowerCase(), c.id);
  }

  get(map: Map<string, string>, what: string, key: string): string {
    const id = map.get(key.toLowerCase());
    if (!id) throw new Error(`the target has no ${what} '${key}'`);
    return id;
  }
}

const Created = z.object({ id: z.string() }).loose();

/**
 * Applies a plan in its order, one request at a time, stopping at the first step the target refuses. A plan with
 * refusals is not applied at all. `languages` of the folder map label cultures to the target's language ids.
 */
export async function applyPlan(
  client: DamClient,
  plan: PushPlan,
  current: TenantConfig,
  options: { onStep?: (step: PlanStep, index: number, total: number) => void; signal?: AbortSignal } = {},
): Promise<PushReport> {
  if (plan.refusals.length) return { applied: [], notApplied: plan.steps };
  const ids = new TargetIds(current);
  const langs = new LanguageMap(current.languages);
  const applied: PlanStep[] = [];
  const send = async (method: 'POST' | 'PUT' | 'DELETE', path: string, json?: unknown) => {
    const res = await client.http.request({
      method,
      path,
      json,
      accept: 'application/json',
      responseType: method === 'POST' ? 'json' : 'none',
      idempotent: method !== 'POST',
      signal: options.signal,
    });
    return method === 'POST' ? Created.parse(res.data).id : undefined;
  };
  for (const [index, step] of plan.steps.entries()) {
    options.signal?.throwIfAborted();
    options.onStep?.(step, index, plan.steps.length);
    try {
      await applyStep(step, send, ids, langs);
      applied.push(step);
    } catch (err) {
      // The service's own words where it gave them (a refusal names the field or the item).
      const reason = err instanceof ApiError ? (err.exceptionMessage ?? err.message) : (err as Error).message;
      return { applied, failed: { step, reason: `${stepTitle(step)}: ${reason}` }, notApplied: plan.steps.slice(index + 1) };
    }
  }
  return { applied, notApplied: [] };
}

type Send = (method: 'POST' | 'PUT' | 'DELETE', path: string, json?: unknown) => Promise<string | undefined>;

async function applyStep(step: PlanStep, send: Send, ids: TargetIds, langs: LanguageMap): Promise<void> {
  const enc = encodeURIComponent;
  switch (step.kind) {
    case 'language': {
      if (step.action === 'delete') return void (await send('DELETE', `/language/${enc(step.current!.id)}`));
      const l = step.desired!;
      if (step.action === 'create') {
        const id = await send('POST', '/languages', { culture: l.culture, name: l.name });
        ids.language.set(l.culture.toLowerCase(), id!);
      } else await send('PUT', `/language/${enc(step.current!.id)}`, { name: l.name });
      return;
    }
    case 'contentType': {
      if (step.action === 'delete') return void (await send('DELETE', `/contenttype/${enc(step.current!.id)}`));
      const c = step.desired!;
      const body = { name: c.name, labels: langs.labelsTo(c.labels) };
      if (step.action === 'create') ids.contentType.set(c.name.toLowerCase(), (await send('POST', '/contenttypes', body))!);
      else await send('PUT', `/contenttype/${enc(step.current!.id)}`, body);
      return;
    }
    case 'fieldGroup': {
      if (step.action === 'delete') return void (await send('DELETE', `/fieldgroup/${enc(step.current!.id)}`));
      const g = step.desired!;
      const body = { name: g.name, labels: langs.labelsTo(g.labels), sortIndex: g.sortIndex };
      if (step.action === 'create') ids.fieldGroup.set(g.name.toLowerCase(), (await send('POST', '/fieldgroups', body))!);
      else await send('PUT', `/fieldgroup/${enc(step.current!.id)}`, body);
      return;
    }
    case 'classification': {
      if (step.action === 'delete') return void (await send('DELETE', `/classification/${enc(step.current!.id)}`));
      const c = step.desired!;
      const parent = parentPath(c.namePath);
      const body = {
        name: leafName(c.namePath),
        identifier: c.identifier || undefined,
        labels: langs.labelsTo(c.labels),
        sortIndex: c.sortIndex,
        sortOrder: c.sortOrder,
        parentId: parent ? ids.get(ids.classification, 'classification', parent) : null,
      };
      if (step.action === 'create') ids.classification.set(c.namePath.toLowerCase(), (await send('POST', '/classifications', body))!);
      else {
        await send('PUT', `/classification/${enc(step.current!.id)}`, body);
        ids.classification.set(c.namePath.toLowerCase(), step.current!.id);
      }
      return;
    }
    case 'field': {
      if (step.action === 'delete') return void (await send('DELETE', `/fielddefinition/${enc(step.current!.id)}`));
      const f = step.desired!;
      const targetOptions = ids.options.get(f.name.toLowerCase()) ?? new Map<string, string>();
      // A new option keeps the folder's id where the target takes one, so default values stay the same on both sides.
      const addOrUpdate = (f.options ?? []).map((o) => ({ id: targetOptions.get(o.name.toLowerCase()) ?? o.id, name: o.name, label: o.label ?? o.name }));
      const kept = new Set((f.options ?? []).map((o) => o.name.toLowerCase()));
      const remove = [...targetOptions.entries()].filter(([name]) => !kept.has(name)).map(([, id]) => id);
      const optionId = (name: string) => addOrUpdate.find((o) => o.name.toLowerCase() === name.toLowerCase())?.id;
      const body: Record<string, unknown> = {
        ...(f.properties ?? {}),
        name: f.name,
        labels: langs.labelsTo(f.labels),
        fieldGroupId: f.group ? ids.get(ids.fieldGroup, 'field group', f.group) : null,
        isRequired: f.isRequired,
        isReadOnly: f.isReadOnly === true,
        isLocalizable: f.isLocalizable,
        sortIndex: f.sortIndex,
        defaultValue: defaultToApi(f, optionId, (path) => ids.classification.get(path.toLowerCase())) ?? null,
      };
      if (f.options) body.items = { addOrUpdate, remove };
      if (f.dataType === 'ClassificationList') body.rootClassificationId = f.rootClassification ? ids.get(ids.classification, 'classification', f.rootClassification) : null;
      if (step.action === 'create') {
        const id = await send('POST', '/fielddefinitions', { ...body, dataType: f.dataType });
        ids.field.set(f.name.toLowerCase(), id!);
      } else await send('PUT', `/fielddefinition/${enc(step.current!.id)}`, body);
      return;
    }
    case 'settingDefinition': {
      const d = step.desired!;
      await send('POST', '/settingdefinitions', { name: d.name, category: d.category, dataType: d.dataType, description: d.description, defaultValue: d.defaultValue ?? null });
      return;
    }
    case 'setting':
      await send('PUT', `/setting/${enc(step.desired!.name)}`, { value: step.desired!.value });
      return;
    case 'check': {
      if (step.action === 'delete') return void (await send('DELETE', `/checks/${enc(step.current!.id)}`));
      const c = step.desired!;
      const body = { name: c.name, actionTypeId: c.actionTypeId, checkCategoryId: ids.get(ids.checkCategory, 'check category', c.category) };
      if (step.action === 'create') ids.check.set(c.name.toLowerCase(), (await send('POST', '/checks', body))!);
      else await send('PUT', `/checks/${enc(step.current!.id)}`, body);
      return;
    }
  }
}
