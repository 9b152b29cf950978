// The check framework client: categories, checks (found or created by name), results and findings, with the
// spec's usage rules built in — one result per run, findings only for pinpointable items, and the slow-check
// pattern (an `info` "in progress" result, then a PUT of the final outcome to the same result).
import { z } from 'zod';
import type { HttpClient } from './http';
import { ApiError } from './errors';
import { createAndRead, updateAndRead } from './writes';
import { CHECK_ACTION_TYPE_ID } from '../core/contract';

export { CHECK_ACTION_TYPE_ID };

export const OutcomeSchema = z.enum(['pass', 'fail', 'warning', 'info']);
export type Outcome = z.infer<typeof OutcomeSchema>;

export const CheckCategorySchema = z.looseObject({ id: z.string(), name: z.string() });
export const CheckSchema = z.looseObject({ id: z.string(), name: z.string(), actionTypeId: z.string(), checkCategoryId: z.string() });
export const CheckResultSchema = z.looseObject({
  id: z.string(),
  fileVersionId: z.string().optional(),
  checkId: z.string(),
  recordId: z.string().optional(),
  outcome: OutcomeSchema.nullable(),
  description: z.string(),
  createdOn: z.string().optional(),
});
export const FindingSchema = z.looseObject({
  occurrence: z.number().int(),
  finding: z.string(),
  explanation: z.string().nullable().optional(),
  recommendation: z.string().nullable().optional(),
  outcome: OutcomeSchema,
});
const Items = <T extends z.ZodType>(item: T) => z.looseObject({ items: z.array(item) });

export type CheckCategory = z.infer<typeof CheckCategorySchema>;
export type Check = z.infer<typeof CheckSchema>;
export type CheckResult = z.infer<typeof CheckResultSchema>;
export type Finding = z.infer<typeof FindingSchema>;
export type FindingInput = Omit<Finding, 'occurrence'> & { occurrence?: number };

/** What one run of a check produced: the summary, and findings for the items it could pinpoint. */
export interface CheckRun {
  check: string;
  /** Category name (one of the four) or id; needed only when the check does not exist yet. */
  category?: string;
  /** Required when there are no findings; null/undefined lets the findings give the rollup. */
  outcome?: Outcome | null;
  description: string;
  findings?: FindingInput[];
}

// The rollup lives in its own zod-free module so the extension's activation bundle can use it too.
export { rollup, type Badge } from './rollup';

export class ChecksApi {
  constructor(private readonly http: HttpClient) {}

  private async call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, schema?: z.ZodType<T>, json?: unknown, signal?: AbortSignal): Promise<T> {
    const response = await this.http.request<T>({ method, path, json, schema, signal, accept: 'application/json', responseType: method === 'DELETE' ? 'none' : 'json' });
    return response.data;
  }

  /** A create, whatever the service answers: the resource, only `{ id }`, or a Location (api/writes.ts). */
  private create<T>(path: string, schema: z.ZodType<T>, json: unknown, pathOfId: (id: string) => string, signal?: AbortSignal): Promise<T> {
    return createAndRead(this.http, { path, json, accept: 'application/json', signal }, schema, pathOfId);
  }

  async categories(signal?: AbortSignal): Promise<CheckCategory[]> {
    return (await this.call('GET', '/checkcategories', Items(CheckCategorySchema), undefined, signal)).items;
  }

  async list(signal?: AbortSignal): Promise<Check[]> {
    return (await this.call('GET', '/checks', Items(CheckSchema), undefined, signal)).items;
  }

  /** The check with this name, created in the named category when missing (names are unique per environment). */
  async ensure(name: string, category?: string, signal?: AbortSignal): Promise<Check> {
    const existing = (await this.list(signal)).find((c) => c.name.toLowerCase() === name.toLowerCase());
    if (existing) return existing;
    if (!category) throw new Error(`the check '${name}' does not exist yet; give its category (one of the four) to create it`);
    const categories = await this.categories(signal);
    const wanted = category.toLowerCase().replace(/-/g, '');
    const found = categories.find((c) => c.id === wanted || c.name.toLowerCase() === category.toLowerCase());
    if (!found) throw new Error(`unknown check category '${category}'; the categories are ${categories.map((c) => c.name).join(', ')}`);
    return this.create('/checks', CheckSchema, { name, actionTypeId: CHECK_ACTION_TYPE_ID, checkCategoryId: found.id }, (id) => `/checks/${encodeURIComponent(id)}`, signal);
  }

  results(fileVersionId: string, signal?: AbortSignal): Promise<CheckResult[]> {
    return this.call('GET', `/fileversion/${encodeURIComponent(fileVersionId)}/CheckResults`, Items(CheckResultSchema), undefined, signal).then((r) => r.items);
  }

  /** The latest result of one check on a file version, or undefined when it has none. */
  async latest(fileVersionId: string, checkId: string, signal?: AbortSignal): Promise<CheckResult | undefined> {
    try {
      const path = `/fileversion/${encodeURIComponent(fileVersionId)}/CheckResult?CheckId=${encodeURIComponent(checkId)}`;
      return await this.call('GET', path, CheckResultSchema, undefined, signal);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404 && !/NoDataFound/.test(err.exceptionType ?? '')) return undefined;
      throw err;
    }
  }

  findings(fileVersionId: string, resultId: string, signal?: AbortSignal): Promise<Finding[]> {
    return this.call('GET', this.resultPath(fileVersionId, resultId) + '/Findings', Items(FindingSchema), undefined, signal).then((r) => r.items);
  }

  /**
   * Publishes one run as exactly one result with its findings. A run without findings must say its outcome
   * (use `info` for general information or a link, as the spec advises).
   */
  async publish(fileVersionId: string, run: CheckRun, signal?: AbortSignal): Promise<{ result: CheckResult; findings: Finding[]; check: Check }> {
    validateRun(run);
    const check = await this.ensure(run.check, run.category, signal);
    const body = { checkId: check.id, outcome: run.outcome ?? null, description: run.description };
    const result = await this.create(`/fileversion/${encodeURIComponent(fileVersionId)}/CheckResults`, CheckResultSchema, body, (id) => this.resultPath(fileVersionId, id), signal);
    const findings = await this.addFindings(fileVersionId, result.id, run.findings ?? [], signal);
    return { result, findings, check };
  }

  /** The slow-check pattern, part 1: an `info` result saying the check is running. */
  async start(fileVersionId: string, check: string, category?: string, description = 'Processing is in progress…', signal?: AbortSignal) {
    const c = await this.ensure(check, category, signal);
    const body = { checkId: c.id, outcome: 'info', description };
    const result = await this.create(`/fileversion/${encodeURIComponent(fileVersionId)}/CheckResults`, CheckResultSchema, body, (id) => this.resultPath(fileVersionId, id), signal);
    return { result, check: c };
  }

  /** The slow-check pattern, part 2: the final outcome and description PUT to the same result, findings added. */
  async finish(fileVersionId: string, resultId: string, run: Omit<CheckRun, 'check' | 'category'>, signal?: AbortSignal) {
    validateRun({ ...run, check: '-' });
    // A tenant may answer the PUT with the result or with 204 No Content: the result is read again either way.
    const result = await updateAndRead(this.http, { path: this.resultPath(fileVersionId, resultId), json: { outcome: run.outcome ?? null, description: run.description }, accept: 'application/json', signal }, CheckResultSchema);
    const findings = await this.addFindings(fileVersionId, resultId, run.findings ?? [], signal);
    return { result, findings };
  }

  private async addFindings(fileVersionId: string, resultId: string, findings: FindingInput[], signal?: AbortSignal): Promise<Finding[]> {
    const out: Finding[] = [];
    let next = 1;
    for (const f of findings) {
      const occurrence = f.occurrence ?? next;
      next = occurrence + 1;
      const findings = this.resultPath(fileVersionId, resultId) + '/Findings';
      out.push(await this.create(findings, FindingSchema, { ...f, occurrence }, () => `${findings}/${occurrence}`, signal));
    }
    return out;
  }

  private resultPath(fileVersionId: string, resultId: string) {
    return `/fileversion/${encodeURIComponent(fileVersionId)}/CheckResult/${encodeURIComponent(resultId)}`;
  }
}

/** The spec's rules on a run, checked before anything is sent. */
export function validateRun(run: CheckRun): void {
  if (!run.description?.trim()) throw new Error('a check result needs a description (the summary is mandatory)');
  if (!run.findings?.length && !run.outcome) throw new Error('a result without findings needs an outcome (pass, fail, warning or info)');
  const seen = new Set<number>();
  for (const f of run.findings ?? []) {
    if (f.occurrence !== undefined && seen.has(f.occurrence)) throw new Error(`two findings share occurrence ${f.occurrence}`);
    if (f.occurrence !== undefined) seen.add(f.occurrence);
    if (!String(f.finding ?? '').trim()) throw new Error('a finding needs its text (ideally text present in the document)');
  }
}
