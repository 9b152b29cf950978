// The one upload queue: local files sent as new records (or as new versions of one record) a few at a time,
// shared by `dam upload`, the Upload command and drag and drop. Free of `vscode` and of runtime imports of the
// client (which the extension loads with the session). What a file reached is kept per file: a retry re-sends
// only files whose bytes did not arrive, and a file whose upload arrived but whose record was not created
// reuses its token instead of sending the bytes again.
import type { DamClient } from './client';
import type { FieldInput } from './files';

export type RecordStatus = 'Draft' | 'Released' | 'Archived';

interface NewRecords {
  status?: RecordStatus;
  /** Field values set on every new record. */
  fields?: FieldInput[];
}

export type UploadTarget =
  /** New records in one classification (the extension's commands). */
  | ({ kind: 'classification'; classificationId: string } & NewRecords)
  /** New records in any number of classifications, none included (`dam upload --classification …`). */
  | ({ kind: 'records'; classificationIds: readonly string[] } & NewRecords)
  /** New versions of one record's master file, in the order given. */
  | { kind: 'record'; recordId: string };

export interface UploadItem {
  path: string;
  /** File name sent to the service. */
  name: string;
  size: number;
  /** Title of the new record; the file name without its extension when not given. */
  title?: string;
}

export type ItemState = 'pending' | 'uploading' | 'creating' | 'done' | 'failed' | 'cancelled';

export interface ItemStatus {
  readonly item: UploadItem;
  state: ItemState;
  /** Bytes the service acknowledged for this file. */
  sent: number;
  /** The upload token once the bytes arrived and until a record or version took it. */
  token?: string;
  recordId?: string;
  /** The version the file became, when the queue was asked for it (`withVersions`). */
  versionId?: string;
  reason?: string;
  segmented?: boolean;
  segments?: number;
}

export interface BatchSnapshot {
  files: number;
  done: number;
  failed: number;
  bytesSent: number;
  bytesTotal: number;
  elapsedMs: number;
  /** Bytes acknowledged in this run per second (0 before the first acknowledgement). */
  bytesPerSecond: number;
  /** Files being sent or turned into records right now. */
  active: readonly ItemStatus[];
}

export interface BatchResult {
  statuses: readonly ItemStatus[];
  recordIds: string[];
  failed: { file: string; reason: string }[];
  cancelled: boolean;
  bytes: number;
  ms: number;
}

export type UploadClient = Pick<DamClient, 'uploads' | 'files'>;

export interface BatchOptions {
  /** Files in flight at once for new records (default 4). New versions of one record go one at a time, in order. */
  concurrency?: number;
  /** Passed to the client: segments in flight per large file. */
  segmentConcurrency?: number;
  /** Also learn each file's version id (embedded in the create's answer, else one more read per new record). */
  withVersions?: boolean;
}

/** The service's content type for a file name (the explorer and the command agree on it). */
export function contentTypeOf(name: string): string {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  if (['png', 'jpg', 'jpeg', 'gif', 'webp', 'tif', 'tiff', 'bmp', 'svg'].includes(ext)) return 'Image';
  if (['mp4', 'mov', 'webm', 'avi', 'mkv'].includes(ext)) return 'Video';
  return 'Document';
}

export function defaultTitle(name: string): string {
  return name.replace(/\.[^.]+$/, '') || name;
}

export class UploadQueue {
  readonly statuses: ItemStatus[];

  constructor(
    private readonly client: UploadClient,
    readonly target: UploadTarget,
    items: readonly UploadItem[],
    private readonly options: BatchOptions = {},
  ) {
    this.statuses = items.map((item) => ({ item, state: 'pending', sent: 0 }));
  }

  /** Files not done yet (failed or cancelled ones): what "Retry failed" sends again. */
  get remaining(): ItemStatus[] {
    return this.statuses.filter((s) => s.state !== 'done');
  }

  /**
   * Sends every file that is not done. Aborting stops at once: open segmented sessions are deleted by the
   * client, an upload that arrived but has no record yet is discarded, and no record is created afterwards.
   */
  async run(signal?: AbortSignal, onChange?: (snapshot: BatchSnapshot) => void): Promise<BatchResult> {
    const started = performance.now();
    const todo = this.remaining;
    const sentBefore = this.statuses.reduce((n, s) => n + s.sent, 0);
    for (const s of todo) {
      s.state = 'pending';
      s.reason = undefined;
      if (!s.token) s.sent = 0;
    }
    const snapshot = (): BatchSnapshot => {
      const elapsedMs = performance.now() - started;
      const bytesSent = this.statuses.reduce((n, s) => n + s.sent, 0);
      return {
        files: this.statuses.length,
        done: this.statuses.filter((s) => s.state === 'done').length,
        failed: this.statuses.filter((s) => s.state === 'failed').length,
        bytesSent,
        bytesTotal: this.statuses.reduce((n, s) => n + s.item.size, 0),
        elapsedMs,
        bytesPerSecond: elapsedMs > 0 ? ((bytesSent - sentBefore) / elapsedMs) * 1000 : 0,
        active: this.statuses.filter((s) => s.state === 'uploading' || s.state === 'creating'),
      };
    };
    const changed = () => onChange?.(snapshot());
    const concurrency = this.target.kind === 'record' ? 1 : Math.max(1, this.options.concurrency ?? 4);
    let next = 0;
    const worker = async () => {
      while (next < todo.length && !signal?.aborted) {
        await this.one(todo[next++], signal, changed);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, todo.length) }, worker));
    const cancelled = Boolean(signal?.aborted);
    if (cancelled) for (const s of this.statuses) if (s.state !== 'done' && s.state !== 'failed') s.state = 'cancelled';
    changed();
    const ms = performance.now() - started;
    return {
      statuses: this.statuses,
      recordIds: [...new Set(this.statuses.filter((s) => s.state === 'done' && s.recordId).map((s) => s.recordId!))],
      failed: this.statuses.filter((s) => s.state === 'failed').map((s) => ({ file: s.item.name, reason: s.reason ?? 'failed' })),
      cancelled,
      bytes: this.statuses.reduce((n, s) => n + s.sent, 0) - sentBefore,
      ms,
    };
  }

  private async one(s: ItemStatus, signal: AbortSignal | undefined, changed: () => void): Promise<void> {
    const { item } = s;
    try {
      if (!s.token) {
        s.state = 'uploading';
        changed();
        const upload = await this.client.uploads.upload(
          { path: item.path, filename: item.name },
          {
            signal,
            concurrency: this.options.segmentConcurrency,
            onProgress: (p) => {
              s.sent = p.sent;
              changed();
            },
          },
        );
        s.token = upload.token;
        s.sent = upload.size;
        s.segmented = upload.segmented;
        s.segments = upload.segments;
      }
      if (signal?.aborted) throw signal.reason;
      s.state = 'creating';
      changed();
      // Not under the signal: a create the service received either made a whole record or none; aborting
      // it half way would leave us not knowing which.
      if (this.target.kind === 'record') {
        const version = await this.client.files.addVersion(this.target.recordId, { token: s.token, filename: item.name });
        s.recordId = this.target.recordId;
        s.versionId = version.id;
      } else {
        const input = {
          token: s.token,
          filename: item.name,
          title: item.title ?? defaultTitle(item.name),
          classificationIds: this.target.kind === 'classification' ? [this.target.classificationId] : [...this.target.classificationIds],
          contentType: contentTypeOf(item.name),
          ...(this.target.status ? { status: this.target.status } : {}),
          ...(this.target.fields?.length ? { fields: this.target.fields } : {}),
        };
        const record = await this.client.files.createRecordFromUpload(input, { withLatestVersion: this.options.withVersions });
        s.recordId = record.id;
        s.versionId = record._embedded?.masterfilelatestversion?.id;
      }
      s.token = undefined;
      // The record exists from here on: a failure to read its version id must not send the file again.
      s.state = 'done';
      if (this.options.withVersions && s.versionId === undefined) s.versionId = (await this.client.files.latestVersion(s.recordId).catch(() => null))?.id ?? undefined;
    } catch (err) {
      if (signal?.aborted) {
        s.state = 'cancelled';
        // The bytes arrived but nothing took them: give the upload back rather than leave it for the sweep.
        if (s.token) await this.client.uploads.discard(s.token).catch(() => undefined);
        s.token = undefined;
        s.sent = 0;
      } else {
        s.state = 'failed';
        s.reason = reasonOf(err);
        // A token the service refused (404: used or expired) is no use for a retry: send the bytes again then.
        if (s.token && (err as { status?: number }).status === 404) {
          s.token = undefined;
          s.sent = 0;
        }
      }
    } finally {
      changed();
    }
  }
}

function reasonOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** 12.3 MB, 512 KB: for progress lines. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 * 1024) return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} B`;
}
