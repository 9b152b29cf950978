// Reading and writing records for the record-editing core (src/core/records): the tenant's field definitions and
// languages, a record with its fields, classifications and files, classification lookups by id or name path, one
// change set applied as ONE PUT /record/{id}, delete, and bulk plans read through search and run by runBulk.
import { z } from 'zod';
import {
  changeSetToBody,
  fieldsEdited,
  guidKey,
  invertChangeSet,
  isEmptyChangeSet,
  planBulkUpdate,
  printDocument,
  recordToDocument,
  resolverOf,
  summarizeChangeSet,
  type BulkEdits,
  type BulkPlan,
  type ChangeSet,
  type ClassificationRef,
  type FieldDefinitionInfo,
  type FileSummary,
  type LanguageInfo,
  type RecordDocument,
  type RecordSource,
  type UndoRecord,
  type WireFieldValue,
} from '../core/records';
import { HAL_JSON, readHeaders } from './core';
import { embedded, embeddedItems } from './hal';
import type { HttpClient } from './http';
import { ApiError } from './errors';
import { runBulk, type BulkReport, type BulkRunOptions } from './bulkRunner';
import { searchBody } from './search';
import { FieldSchema, type Paged } from './schemas';

const Definition = z.looseObject({
  id: z.string(),
  name: z.string().nullish(),
  label: z.string().nullish(),
  dataType: z.string().nullish(),
  isRequired: z.boolean().nullish(),
  isLocalizable: z.boolean().nullish(),
  isReadOnly: z.boolean().nullish(),
  rootClassificationId: z.string().nullish(),
  items: z.array(z.looseObject({ id: z.string(), name: z.string().nullish(), label: z.string().nullish() })).nullish(),
});
const DefinitionPage = z.looseObject({ items: z.array(Definition), totalCount: z.number().nullish() });
const LanguagePage = z.looseObject({ items: z.array(z.looseObject({ id: z.string(), culture: z.string().nullish(), name: z.string().nullish() })) });
const ClassificationBody = z.looseObject({ id: z.string(), namePath: z.string().nullish() });
const RecordBody = z.looseObject({
  id: z.string(),
  title: z.string().nullish(),
  status: z.string().nullish(),
  contentType: z.string().nullish(),
  createdOn: z.string().nullish(),
  modifiedOn: z.string().nullish(),
  _embedded: z.record(z.string(), z.unknown()).optional(),
});
type RecordBody = z.infer<typeof RecordBody>;
const RecordPage = z.looseObject({ items: z.array(RecordBody), totalCount: z.number().nullish(), nextCursor: z.string().nullish() });

/** The service's field definition as the core reads it. */
export function definitionInfo(d: z.infer<typeof Definition>): FieldDefinitionInfo {
  return {
    id: guidKey(d.id),
    name: d.name ?? d.id,
    label: d.label ?? undefined,
    dataType: d.dataType ?? 'SingleLineText',
    isRequired: d.isRequired ?? false,
    isLocalizable: d.isLocalizable ?? false,
    isReadOnly: d.isReadOnly ?? false,
    rootClassificationId: d.rootClassificationId ?? null,
    options: (d.items ?? []).map((o) => ({ id: guidKey(o.id), name: o.name ?? o.id, label: o.label ?? undefined })),
  };
}

/** The tenant's model the core needs, read once per RecordEditsApi (call `invalidate()` after the tenant changes). */
export interface TenantModel {
  definitions: FieldDefinitionInfo[];
  languages: LanguageInfo[];
}

/** A change set the service was not sent because names in it do not resolve (an unknown classification…). */
export class ChangeRefusedError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join(' '));
    this.name = 'ChangeRefusedError';
  }
}

export interface OpenedRecord {
  document: RecordDocument;
  /** printDocument(document). */
  text: string;
  source: RecordSource;
  /** The record's `modifiedOn` as read: what a save compares against to notice a conflict. */
  modifiedOn: string | null;
}

export interface WriteOptions {
  signal?: AbortSignal;
  /** Extra request headers (`disable-validations`, `disable-rules`, `client-id`). */
  headers?: Record<string, string>;
}

/** A bulk plan with the records it covers; ids that do not exist are in `missing`. */
export interface LoadedPlan extends BulkPlan {
  missing: { recordId: string; reason: string }[];
  model: TenantModel;
  classifications: ClassificationRef[];
}

/** A bulk run's report with, per changed record, what undoing it needs (the change applied, the version it left). */
export interface UpdateReport extends BulkReport {
  undo: UndoRecord[];
}

/** What undoing a report would do: the records to put back, and those changed since (or deleted) with why. */
export interface UndoPlan {
  restore: UndoRecord[];
  skipped: { recordId: string; title?: string; reason: string }[];
}

/** A record undo leaves alone because it is no longer what the update left; thrown inside a job, reported as skipped. */
export class ChangedSinceError extends Error {}

const RECORD_SELECT = { record: ['fields', 'classifications', 'files'], file: ['latestversion'] };

function userName(value: unknown): string | null {
  if (!value || typeof value !== 'object') return null;
  const u = value as { name?: unknown; login?: unknown; id?: unknown };
  return String(u.name || u.login || u.id || '') || null;
}

/** The core's record from a HAL read with fields, classifications and files embedded. */
export function recordSourceOf(body: RecordBody, createdBy?: string | null, modifiedBy?: string | null): RecordSource {
  const fields: WireFieldValue[] = embeddedItems(body, 'fields').flatMap((f) => {
    const parsed = FieldSchema.safeParse(f);
    return parsed.success ? [{ id: parsed.data.id, fieldName: parsed.data.fieldName, dataType: parsed.data.dataType, localizedValues: parsed.data.localizedValues }] : [];
  });
  const classifications: ClassificationRef[] = embeddedItems(body, 'classifications').flatMap((c) => {
    const parsed = ClassificationBody.safeParse(c);
    return parsed.success ? [{ id: guidKey(parsed.data.id), namePath: parsed.data.namePath ?? '' }] : [];
  });
  const files: FileSummary[] = embeddedItems(body, 'files').map((f) => {
    const file = f as { id?: unknown; isMaster?: unknown; _embedded?: Record<string, unknown> };
    const latest = (file._embedded?.latestversion ?? {}) as { fileName?: unknown; versionLabel?: unknown; fileSize?: unknown };
    return {
      id: String(file.id ?? ''),
      ...(typeof latest.fileName === 'string' ? { fileName: latest.fileName } : {}),
      ...(typeof latest.versionLabel === 'string' ? { versionLabel: latest.versionLabel } : {}),
      ...(typeof latest.fileSize === 'number' ? { fileSize: latest.fileSize } : {}),
      isMaster: file.isMaster === true,
    };
  });
  return {
    id: guidKey(body.id),
    title: body.title,
    status: body.status,
    contentType: body.contentType,
    createdOn: body.createdOn,
    modifiedOn: body.modifiedOn,
    createdBy: createdBy ?? userName(embedded(body, 'createdby')),
    modifiedBy: modifiedBy ?? userName(embedded(body, 'modifiedby')),
    fields,
    classifications,
    files,
  };
}

/** How long a `modifiedOn` answer stands for the record's state now (RecordEditsApi.modifiedOn). */
export const MODIFIED_ON_REUSE_MS = 1000;

export class RecordEditsApi {
  private model?: Promise<TenantModel>;
  /** The last `modifiedOn` read of each record and when it was asked for (performance.now()). */
  private readonly recentModifiedOn = new Map<string, { value: string | null; at: number }>();
  /** Classifications by lower-cased id and by name path, as looked up. */
  private readonly classificationCache = new Map<string, ClassificationRef | null>();

  constructor(private readonly http: HttpClient) {}

  /** Forget the cached definitions, languages and classification lookups. */
  invalidate(): void {
    this.model = undefined;
    this.classificationCache.clear();
    this.recentModifiedOn.clear();
  }

  /** Field definitions (all pages) and languages, read once. */
  tenantModel(signal?: AbortSignal): Promise<TenantModel> {
    this.model ??= this.readModel(signal).catch((err: unknown) => {
      this.model = undefined;
      throw err;
    });
    return this.model;
  }

  private async readModel(signal?: AbortSignal): Promise<TenantModel> {
    // The languages are asked for beside the definitions, not after them: a tenant far away answers both in one
    // round trip, and the first Open Record of a session waits for this.
    const langs = this.http.request({ path: '/languages', query: { pageSize: 1000 }, accept: HAL_JSON, schema: LanguagePage, signal });
    const definitions: FieldDefinitionInfo[] = [];
    try {
      for (let page = 1; ; page++) {
        const res = await this.http.request({ path: '/fielddefinitions', query: { page, pageSize: 1000 }, accept: HAL_JSON, schema: DefinitionPage, signal });
        definitions.push(...res.data.items.map(definitionInfo));
        if (!res.data.items.length || definitions.length >= (res.data.totalCount ?? 0)) break;
      }
    } catch (err) {
      // The languages' answer is not awaited now: keep its failure from being reported as unhandled.
      langs.catch(() => undefined);
      throw err;
    }
    const languages = (await langs).data.items.map((l) => ({ id: guidKey(l.id), culture: l.culture ?? '', name: l.name ?? undefined }));
    return { definitions, languages };
  }

  /** A classification by id (dashed or not) or name path; null when there is none. */
  async classification(pathOrId: string, signal?: AbortSignal): Promise<ClassificationRef | null> {
    const key = pathOrId.startsWith('/') ? pathOrId : guidKey(pathOrId);
    const cached = this.classificationCache.get(key);
    if (cached !== undefined) return cached;
    let found: ClassificationRef | null = null;
    try {
      const res = pathOrId.startsWith('/')
        ? await this.http.request({ path: '/classification', query: { namePath: pathOrId }, accept: HAL_JSON, schema: ClassificationBody, signal })
        : await this.http.request({ path: `/classification/${encodeURIComponent(key)}`, accept: HAL_JSON, schema: ClassificationBody, signal });
      found = { id: guidKey(res.data.id), namePath: res.data.namePath ?? '' };
    } catch (err) {
      if (!(err instanceof ApiError && (err.status === 404 || err.status === 400))) throw err;
    }
    this.classificationCache.set(key, found);
    if (found) this.remember(found);
    return found;
  }

  /** A classification known to exist, found later by its id and its name path. */
  private remember(c: ClassificationRef): void {
    if (!c.id) return;
    const ref = { id: guidKey(c.id), namePath: c.namePath };
    this.classificationCache.set(ref.id, ref);
    if (ref.namePath) this.classificationCache.set(ref.namePath, ref);
  }

  /** The classifications named (ids or paths) that exist. */
  async classifications(pathsOrIds: Iterable<string>, signal?: AbortSignal): Promise<ClassificationRef[]> {
    const found = await Promise.all([...new Set(pathsOrIds)].map((p) => this.classification(p, signal)));
    return found.filter((c): c is ClassificationRef => c !== null);
  }

  /**
   * A record with fields (all languages, no default values), classifications and files' latest versions.
   * `fields` limits the fields read (`[]`: none); `files: false` leaves the files out (a bulk plan needs none).
   */
  async readRecord(id: string, options: { signal?: AbortSignal; fields?: string[]; files?: boolean } = {}): Promise<RecordSource> {
    const noFields = options.fields?.length === 0;
    // A whole read (an editor's, `dam records get`) names who created and last changed the record: without the users
    // embedded, the document could only say null there.
    const record = [...(noFields ? [] : ['fields']), 'classifications', ...(options.files === false ? [] : ['files', 'createdby', 'modifiedby'])];
    const resources = options.files === false ? { record } : { ...RECORD_SELECT, record };
    const { headers } = readHeaders({
      select: { resources, languages: '*', resolveDefaultValues: false, ...(options.fields?.length ? { recordFields: options.fields } : {}) },
    });
    const res = await this.http.request({ path: `/record/${encodeURIComponent(guidKey(id))}`, headers, accept: HAL_JSON, schema: RecordBody, signal: options.signal });
    return recordSourceOf(res.data);
  }

  /** Ids that ClassificationList values of a record hold, for resolving them to name paths. */
  private classificationValueIds(source: RecordSource, definitions: readonly FieldDefinitionInfo[]): string[] {
    const listFields = new Set(definitions.filter((d) => d.dataType === 'ClassificationList').map((d) => d.id));
    const ids: string[] = [];
    for (const f of source.fields ?? []) {
      if (!listFields.has(guidKey(f.id))) continue;
      for (const lv of f.localizedValues ?? []) for (const v of lv.values ?? []) ids.push(String(typeof v === 'object' && v !== null ? (v as { id?: unknown }).id : v));
    }
    return ids;
  }

  /** The record as a document (and its text), ready for an editor or `dam records get`. */
  async open(id: string, signal?: AbortSignal): Promise<OpenedRecord> {
    const [model, source] = await Promise.all([this.tenantModel(signal), this.readRecord(id, { signal })]);
    const named = await this.classifications(this.classificationValueIds(source, model.definitions), signal);
    // The record's own classifications came embedded with their paths: the editor's check of the paths it shows (and a
    // save naming them) finds them here instead of asking the tenant again.
    for (const c of source.classifications ?? []) this.remember(c);
    const document = recordToDocument(source, model.definitions, [...(source.classifications ?? []), ...named], model.languages);
    return { document, text: printDocument(document), source, modifiedOn: source.modifiedOn ?? null };
  }

  /** The PUT body of a change set, with every name resolved to an id; throws ChangeRefusedError when one is not. */
  async bodyOf(cs: ChangeSet, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const model = await this.tenantModel(signal);
    const names = [...cs.addClassifications, ...cs.removeClassifications];
    for (const f of cs.fields) if (f.dataType === 'ClassificationList' && Array.isArray(f.after)) names.push(...f.after.map(String));
    const classifications = await this.classifications(names, signal);
    const { body, problems } = changeSetToBody(cs, model.definitions, resolverOf(model.languages, classifications));
    if (problems.length) throw new ChangeRefusedError(problems);
    return body as Record<string, unknown>;
  }

  /** Sends one change set as ONE PUT /record/{id} (nothing when it is empty). */
  async apply(cs: ChangeSet, options: WriteOptions = {}): Promise<void> {
    if (isEmptyChangeSet(cs)) return;
    this.recentModifiedOn.delete(guidKey(cs.recordId));
    const json = await this.bodyOf(cs, options.signal);
    await this.http.request({ method: 'PUT', path: `/record/${encodeURIComponent(guidKey(cs.recordId))}`, json, headers: options.headers, responseType: 'none', signal: options.signal });
  }

  /**
   * The record's `modifiedOn` now (one small read), to notice a change made since a document was read. An answer
   * this client got less than MODIFIED_ON_REUSE_MS ago is given again, unless it wrote the record since: a save
   * asks twice within moments (VS Code's stat, then the check before the PUT), and across the internet the second
   * read was one more round trip on the way to "saved" that could only repeat the first.
   */
  async modifiedOn(id: string, signal?: AbortSignal): Promise<string | null> {
    const key = guidKey(id);
    const recent = this.recentModifiedOn.get(key);
    if (recent && performance.now() - recent.at < MODIFIED_ON_REUSE_MS) return recent.value;
    const at = performance.now();
    const res = await this.http.request({ path: `/record/${encodeURIComponent(key)}`, accept: HAL_JSON, schema: RecordBody, signal });
    const value = res.data.modifiedOn ?? null;
    this.recentModifiedOn.set(key, { value, at });
    return value;
  }

  async delete(id: string, options: WriteOptions = {}): Promise<void> {
    this.recentModifiedOn.delete(guidKey(id));
    await this.http.request({ method: 'DELETE', path: `/record/${encodeURIComponent(guidKey(id))}`, headers: options.headers, responseType: 'none', signal: options.signal });
  }

  /**
   * Reads the records a bulk edit covers (by ids, or every hit of a search expression, with only the edited fields
   * selected) and plans the edit over them. Nothing is written.
   */
  async plan(target: { ids: string[] } | { expression: string }, edits: BulkEdits, options: { signal?: AbortSignal; concurrency?: number } = {}): Promise<LoadedPlan> {
    const { signal } = options;
    const model = await this.tenantModel(signal);
    const named = [...(edits.addClassifications ?? []), ...(edits.removeClassifications ?? [])];
    for (const [name, value] of Object.entries(edits.set ?? {})) {
      const def = model.definitions.find((d) => d.name.toLowerCase() === name.toLowerCase());
      if (def?.dataType === 'ClassificationList') named.push(...(Array.isArray(value) ? value : [value]).map(String).filter((v) => !v.startsWith('[')));
    }
    const classifications = await this.classifications(named, signal);
    // A plan refused for its edits reads no record.
    const dry = planBulkUpdate([], edits, model.definitions, { languages: model.languages, classifications });
    const missing: LoadedPlan['missing'] = [];
    let sources: RecordSource[] = [];
    if (!dry.problems.length) {
      const fields = fieldsEdited(edits);
      sources = 'ids' in target ? await this.readMany(target.ids, fields, missing, options) : await this.searchAll(target.expression, fields, signal);
    }
    const docs = sources.map((s) => recordToDocument(s, model.definitions, [...(s.classifications ?? []), ...classifications], model.languages));
    const plan = dry.problems.length ? dry : planBulkUpdate(docs, edits, model.definitions, { languages: model.languages, classifications });
    return { ...plan, missing, model, classifications };
  }

  private async readMany(ids: string[], fields: string[], missing: LoadedPlan['missing'], options: { signal?: AbortSignal; concurrency?: number }): Promise<RecordSource[]> {
    const out: (RecordSource | undefined)[] = new Array(ids.length);
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const i = next++;
        try {
          out[i] = await this.readRecord(ids[i], { signal: options.signal, fields, files: false });
        } catch (err) {
          if (!(err instanceof ApiError && (err.status === 404 || err.status === 400))) throw err;
          missing.push({ recordId: ids[i], reason: err.status === 404 ? 'the record does not exist' : (err.exceptionMessage ?? err.message) });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 4, ids.length) }, worker));
    return out.filter((r): r is RecordSource => r !== undefined);
  }

  /** Every hit of a search, 100 a page by cursor, with the edited fields and classifications embedded. */
  private async searchAll(expression: string, fields: string[], signal?: AbortSignal): Promise<RecordSource[]> {
    // Fields only when the edit touches some: a status or classification edit reads none.
    const { headers } = readHeaders({
      select: { resources: { record: fields.length ? ['fields', 'classifications'] : ['classifications'] }, languages: '*', resolveDefaultValues: false, ...(fields.length ? { recordFields: fields } : {}) },
    });
    const out: RecordSource[] = [];
    let cursor: string | undefined;
    for (;;) {
      const res = await this.http.request({
        method: 'POST',
        path: '/search/records',
        query: { pageSize: 100 },
        json: searchBody({ expression }, cursor),
        headers,
        accept: HAL_JSON,
        idempotent: true,
        schema: RecordPage as z.ZodType<Paged<RecordBody>>,
        signal,
      });
      out.push(...res.data.items.map((r) => recordSourceOf(r)));
      cursor = res.data.nextCursor ?? undefined;
      if (!cursor || !res.data.items.length) break;
    }
    return out;
  }

  /**
   * Runs a plan: each record's change set as one PUT, by runBulk paced by this connection's pacer; missing records are
   * failures. After each PUT the record's `modifiedOn` is read back (one small GET) so the report can be undone.
   */
  async run(plan: LoadedPlan, options: BulkRunOptions & { headers?: Record<string, string> } = {}): Promise<UpdateReport> {
    const jobs = plan.items.map((item) => ({ recordId: item.recordId, title: item.title, summary: summarizeChangeSet(item.changes), changes: item.changes }));
    const undo: UndoRecord[] = [];
    const report = await runBulk(
      jobs,
      async (job, signal) => {
        await this.apply(job.changes, { signal, headers: options.headers });
        // Read right after the write: a change by someone else in between would make undo skip this record, which
        // errs on the side of keeping their change.
        const modifiedOnAfter = await this.modifiedOn(job.recordId, signal).catch(() => null);
        undo.push({ recordId: job.recordId, title: job.title, modifiedOnAfter, changes: job.changes });
      },
      { pacer: this.http.pacer, ...options },
      plan.unchanged,
    );
    for (const m of plan.missing) report.failed.push({ recordId: m.recordId, reason: m.reason, status: 404 });
    for (const r of plan.refused) report.failed.push({ recordId: r.recordId, title: r.title, reason: r.reasons.join('; ') });
    report.total += plan.missing.length + plan.refused.length;
    return { ...report, undo };
  }

  /** Why a record is no longer what an update left (changed or deleted since), or undefined when it still is. */
  private async changedSince(record: UndoRecord, signal?: AbortSignal): Promise<string | undefined> {
    try {
      const now = await this.modifiedOn(record.recordId, signal);
      if (record.modifiedOnAfter === null || now !== record.modifiedOnAfter) return `changed since the update (modified ${now ?? 'at an unknown time'}): kept as it is`;
      return undefined;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return 'deleted since the update';
      throw err;
    }
  }

  /** Reads each record of a report once: the plan of an undo (the dry run). Nothing is written. */
  async planUndo(records: readonly UndoRecord[], options: { signal?: AbortSignal; concurrency?: number } = {}): Promise<UndoPlan> {
    const plan: UndoPlan = { restore: [], skipped: [] };
    const verdicts: (string | undefined)[] = new Array(records.length);
    let next = 0;
    const worker = async () => {
      while (next < records.length) {
        const i = next++;
        verdicts[i] = await this.changedSince(records[i], options.signal);
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 4, records.length) }, worker));
    records.forEach((r, i) => (verdicts[i] ? plan.skipped.push({ recordId: r.recordId, title: r.title, reason: verdicts[i]! }) : plan.restore.push(r)));
    return plan;
  }

  /**
   * Puts back the values an update changed, through the same runner (pacing, progress, cancel). Each record is checked
   * again just before its write: one changed after the plan is skipped too (a failure with ChangedSinceError's reason).
   */
  async runUndo(plan: UndoPlan, options: BulkRunOptions & { headers?: Record<string, string> } = {}): Promise<BulkReport & { skipped: UndoPlan['skipped'] }> {
    const jobs = plan.restore.map((r) => ({ recordId: r.recordId, title: r.title, summary: summarizeChangeSet(invertChangeSet(r.changes)), record: r }));
    const report = await runBulk(
      jobs,
      async (job, signal) => {
        const why = await this.changedSince(job.record, signal);
        if (why) throw new ChangedSinceError(why);
        await this.apply(invertChangeSet(job.record.changes), { signal, headers: options.headers });
      },
      { pacer: this.http.pacer, ...options },
    );
    const late = report.failed.filter((f) => /^(changed|deleted) since the update/.test(f.reason));
    report.failed = report.failed.filter((f) => !late.includes(f));
    return { ...report, skipped: [...plan.skipped, ...late.map((f) => ({ recordId: f.recordId, title: f.title, reason: f.reason }))] };
  }
}

