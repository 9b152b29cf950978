// Files of records: create a record from an upload token, add versions, read files, versions and renditions,
// download through a version's (or rendition's) download URI, and run CreateRenditions maintenance jobs.
import { createWriteStream } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { abortableSleep, type HttpClient } from './http';
import { ApiError, NetworkError } from './errors';
import { link, HalLinksSchema } from './hal';
import { RecordSchema } from './schemas';
import { createAndRead } from './writes';

const hal = { _links: HalLinksSchema.optional(), _embedded: z.record(z.string(), z.unknown()).optional() };

export const FileVersionSchema = z.looseObject({
  ...hal,
  id: z.string(),
  fileId: z.string().nullish(),
  recordId: z.string().nullish(),
  version: z.number().nullish(),
  versionLabel: z.string().nullish(),
  comment: z.string().nullish(),
  fileName: z.string().nullish(),
  extension: z.string().nullish(),
  fileSize: z.number().nullish(),
  checksum: z.string().nullish(),
  mimeType: z.string().nullish(),
  hasImage: z.boolean().nullish(),
  width: z.number().nullish(),
  height: z.number().nullish(),
  createdOn: z.string().nullish(),
});
export type FileVersion = z.infer<typeof FileVersionSchema>;

export const DamFileSchema = z.looseObject({
  ...hal,
  id: z.string(),
  recordId: z.string().nullish(),
  isMaster: z.boolean().nullish(),
  checkedOutBy: z.unknown().optional(),
  createdOn: z.string().nullish(),
  modifiedOn: z.string().nullish(),
});
export type DamFile = z.infer<typeof DamFileSchema>;

/** A rendition (additional file) of a file version. */
export const AdditionalFileSchema = z.looseObject({
  ...hal,
  id: z.string(),
  name: z.string().nullish(),
  preset: z.string().nullish(),
  format: z.string().nullish(),
  mimeType: z.string().nullish(),
  width: z.number().nullish(),
  height: z.number().nullish(),
  fileSize: z.number().nullish(),
  createdOn: z.string().nullish(),
});
export type AdditionalFile = z.infer<typeof AdditionalFileSchema>;

export const MAINTENANCE_JOB_FINAL = ['Success', 'PartiallyFailed', 'Failed', 'Cancelled'] as const;

export const MaintenanceJobSchema = z.looseObject({
  ...hal,
  id: z.string(),
  type: z.string().nullish(),
  status: z.string(),
  actions: z.array(z.looseObject({ action: z.string(), parameters: z.unknown().optional() })).nullish(),
  targetsCount: z.number().nullish(),
  failedTargetsCount: z.number().nullish(),
  errors: z.array(z.unknown()).nullish(),
  message: z.string().nullish(),
  createdOn: z.string().nullish(),
  startedOn: z.string().nullish(),
  executionTime: z.unknown().optional(),
});
export type MaintenanceJob = z.infer<typeof MaintenanceJobSchema>;

const itemsOf = <T extends z.ZodType>(item: T) => z.looseObject({ items: z.array(item) });
const RecordWithLatest = RecordSchema.extend({
  _embedded: z.looseObject({ masterfilelatestversion: FileVersionSchema.nullish() }).optional(),
});

/** A field value to set when creating a record: field id (or name) and its value in one language. */
export interface FieldInput {
  id: string;
  value?: unknown;
  values?: unknown[];
  languageId?: string;
}

export interface NewRecordFromUpload {
  /** The upload token (single use). */
  token: string;
  /** File name of the version; the service otherwise takes the uploaded one. */
  filename?: string;
  title?: string;
  status?: 'Draft' | 'Released' | 'Archived';
  contentType?: string;
  classificationIds?: string[];
  fields?: FieldInput[];
  versionLabel?: string;
  comment?: string;
}

export interface NewVersion {
  token: string;
  filename?: string;
  versionLabel?: string;
  comment?: string;
}

export interface DownloadResult {
  /** From `Content-Disposition`. */
  filename: string | undefined;
  contentType: string | null;
  /** `Content-Length` when the service sent it. */
  size: number | undefined;
  body: Readable;
}

/** A download URI, a file version, or a rendition (their `download` link is followed). */
export type DownloadTarget = string | { _links?: z.infer<typeof HalLinksSchema> };

export interface WaitOptions {
  signal?: AbortSignal;
  /** Called when the status changes. */
  onStatus?: (job: MaintenanceJob) => void;
  /** First poll delay, doubling up to `maxDelayMs` (defaults 250 ms and 5 s). */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

/** The `files` section of a record body for one upload token (real-service-notes, "Creating a record"). */
function filesSection(version: NewVersion, master: boolean) {
  const entry = {
    id: version.token,
    ...(version.filename !== undefined ? { filename: version.filename } : {}),
    ...(version.versionLabel !== undefined ? { versionLabel: version.versionLabel } : {}),
    ...(version.comment !== undefined ? { comment: version.comment } : {}),
  };
  return { ...(master ? { master: version.token } : {}), addOrUpdate: [{ versions: { addOrUpdate: [entry] } }] };
}

/** `filename="a b.png"` or RFC 5987 `filename*=UTF-8''a%20b.png` (preferred when both are present). */
export function filenameFromDisposition(header: string | null): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[2].trim());
    } catch {
      // fall through to the plain form
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
  if (!plain) return undefined;
  return (plain[1] ?? plain[2]).replace(/\\(.)/g, '$1').trim();
}

export class FilesApi {
  constructor(
    private readonly http: HttpClient,
    private readonly userAgent: string,
  ) {}

  /**
   * POST /record with the upload as master file (and its first version), plus title, classifications and fields.
   * `withLatestVersion` asks for the new version embedded in the answer (`_embedded.masterfilelatestversion`),
   * saving a read; a service that does not embed it on a create leaves it out.
   */
  async createRecordFromUpload(input: NewRecordFromUpload, options: { signal?: AbortSignal; withLatestVersion?: boolean } = {}): Promise<z.infer<typeof RecordWithLatest>> {
    const body: Record<string, unknown> = {
      status: input.status ?? 'Draft',
      files: filesSection(input, true),
    };
    if (input.title !== undefined) body.title = input.title;
    if (input.contentType !== undefined) body.contentType = input.contentType;
    if (input.classificationIds?.length) body.classifications = { addOrUpdate: input.classificationIds.map((id, i) => ({ id, sortIndex: i })) };
    if (input.fields?.length) {
      body.fields = {
        addOrUpdate: input.fields.map((f) => ({
          id: f.id,
          localizedValues: [{ ...(f.values ? { values: f.values } : { value: f.value ?? null }), ...(f.languageId ? { languageId: f.languageId } : {}) }],
        })),
      };
    }
    // Not retried: a POST that reached the service consumed the token, a replay would answer 404.
    const headers = options.withLatestVersion ? { 'select-record': 'masterfilelatestversion' } : undefined;
    return createAndRead(this.http, { path: '/record', json: body, headers, signal: options.signal }, RecordWithLatest, (id) => `/record/${encodeURIComponent(id)}`);
  }

  /** A new version of the record's master file from an upload token (PUT /record/{id} with a `files` section). */
  async addVersion(recordId: string, version: NewVersion, options: { signal?: AbortSignal } = {}): Promise<FileVersion> {
    await this.http.request({
      method: 'PUT',
      path: `/record/${encodeURIComponent(recordId)}`,
      json: { files: filesSection(version, false) },
      responseType: 'none',
      signal: options.signal,
      idempotent: false,
    });
    const latest = await this.latestVersion(recordId, options);
    if (!latest) throw new Error(`record ${recordId} has no file version after adding one`);
    return latest;
  }

  /** The newest version of the master file (`select-record: masterfilelatestversion`), or null when it has none. */
  async latestVersion(recordId: string, options: { signal?: AbortSignal } = {}): Promise<FileVersion | null> {
    const res = await this.http.request({
      path: `/record/${encodeURIComponent(recordId)}`,
      headers: { 'select-record': 'masterfilelatestversion' },
      schema: RecordWithLatest,
      signal: options.signal,
    });
    return res.data._embedded?.masterfilelatestversion ?? null;
  }

  async listFiles(recordId: string, options: { signal?: AbortSignal } = {}): Promise<DamFile[]> {
    const res = await this.http.request({ path: `/record/${encodeURIComponent(recordId)}/files`, schema: itemsOf(DamFileSchema), signal: options.signal });
    return res.data.items;
  }

  /** Versions of one file, oldest first. */
  async listVersions(fileId: string, options: { signal?: AbortSignal } = {}): Promise<FileVersion[]> {
    const res = await this.http.request({ path: `/file/${encodeURIComponent(fileId)}/fileversions`, schema: itemsOf(FileVersionSchema), signal: options.signal });
    return res.data.items;
  }

  async getVersion(versionId: string, options: { signal?: AbortSignal } = {}): Promise<FileVersion> {
    const res = await this.http.request({ path: `/fileversion/${encodeURIComponent(versionId)}`, schema: FileVersionSchema, signal: options.signal });
    return res.data;
  }

  /** Renditions (additional files) of a file version. */
  async listRenditions(versionId: string, options: { signal?: AbortSignal } = {}): Promise<AdditionalFile[]> {
    const res = await this.http.request({
      path: `/fileversion/${encodeURIComponent(versionId)}/additionalfiles`,
      schema: itemsOf(AdditionalFileSchema),
      signal: options.signal,
    });
    return res.data.items;
  }

  /**
   * Opens a download. The URI carries its own security token, so no bearer token is sent and redirects (a CDN)
   * are followed; the body is a stream the caller must consume or destroy.
   */
  async download(target: DownloadTarget, options: { signal?: AbortSignal; locationAlias?: string } = {}): Promise<DownloadResult> {
    const href = typeof target === 'string' ? target : link(target, 'download')?.href;
    if (!href) throw new Error('the resource has no download link');
    const url = this.http.urlFor({ url: href });
    const headers: Record<string, string> = { 'User-Agent': this.userAgent, Accept: '*/*' };
    if (options.locationAlias) headers['Location-Alias'] = options.locationAlias;
    let res: Response;
    try {
      res = await fetch(url, { headers, signal: options.signal, redirect: 'follow' });
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason;
      throw new NetworkError('GET', url, false, err);
    }
    if (!res.ok || !res.body) {
      const text = await res.text().catch(() => '');
      let parsed: { exceptionType?: string; exceptionMessage?: string } = {};
      try {
        parsed = JSON.parse(text) as typeof parsed;
      } catch {
        // not the error object (a proxy's page): the excerpt says what came
      }
      throw new ApiError({ method: 'GET', url, status: res.status, exceptionType: parsed.exceptionType, exceptionMessage: parsed.exceptionMessage, bodyExcerpt: text.slice(0, 160) });
    }
    const length = res.headers.get('content-length');
    return {
      filename: filenameFromDisposition(res.headers.get('content-disposition')),
      contentType: res.headers.get('content-type'),
      size: length === null ? undefined : Number(length),
      body: Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>),
    };
  }

  /**
   * Downloads to `path` through a temporary name, so an interrupted download never leaves a partial file there.
   * Answers the byte count and the file name the service gave.
   */
  async downloadToFile(target: DownloadTarget, path: string, options: { signal?: AbortSignal; onProgress?: (bytes: number, total?: number) => void } = {}) {
    const result = await this.download(target, options);
    const partial = `${path}.part-${process.pid}`;
    let bytes = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        bytes += chunk.length;
        options.onProgress?.(bytes, result.size);
        done(null, chunk);
      },
    });
    try {
      await pipeline(result.body, meter, createWriteStream(partial), { signal: options.signal });
      await rename(partial, path);
    } catch (err) {
      await unlink(partial).catch(() => undefined);
      throw err;
    }
    return { bytes, filename: result.filename };
  }

  /** Submits a CreateRenditions maintenance job for records (needs `.RoleExecuteMaintenanceJobs`). */
  async createRenditions(recordIds: string[], presets: string[], options: { signal?: AbortSignal } = {}): Promise<MaintenanceJob> {
    const json = { type: 'record', targets: recordIds.map((recordId) => ({ recordId })), actions: [{ action: 'CreateRenditions', parameters: { presets } }] };
    return createAndRead(this.http, { path: '/maintenancejobs', json, signal: options.signal }, MaintenanceJobSchema, (id) => `/maintenancejob/${encodeURIComponent(id)}`);
  }

  async getJob(jobId: string, options: { signal?: AbortSignal } = {}): Promise<MaintenanceJob> {
    const res = await this.http.request({ path: `/maintenancejob/${encodeURIComponent(jobId)}`, schema: MaintenanceJobSchema, signal: options.signal });
    return res.data;
  }

  async listJobs(options: { signal?: AbortSignal } = {}): Promise<MaintenanceJob[]> {
    const res = await this.http.request({ path: '/maintenancejobs', schema: itemsOf(MaintenanceJobSchema), signal: options.signal });
    return res.data.items;
  }

  /** Polls a job with exponential backoff until a final status (Success, PartiallyFailed, Failed, Cancelled). */
  async waitForJob(jobId: string, options: WaitOptions = {}): Promise<MaintenanceJob> {
    let delay = options.initialDelayMs ?? 250;
    const max = options.maxDelayMs ?? 5_000;
    let last: string | undefined;
    for (;;) {
      const job = await this.getJob(jobId, options);
      if (job.status !== last) {
        last = job.status;
        options.onStatus?.(job);
      }
      if (isFinalJobStatus(job.status)) return job;
      await abortableSleep(delay, options.signal);
      delay = Math.min(max, delay * 2);
    }
  }
}

export function isFinalJobStatus(status: string): boolean {
  return MAINTENANCE_JOB_FINAL.some((s) => s.toLowerCase() === status.toLowerCase());
}
