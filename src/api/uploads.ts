// The upload service ({upload_url}/uploads): one request below the spec's 20 MB threshold, numbered segments
// above it (sent in parallel, each retried, the session deleted on cancel), and the signed blob URL. Files stream
// from disk through lazily read, sliced Blobs, so memory stays bounded whatever the file size.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { z } from 'zod';
import { ApiError, NetworkError } from './errors';
import { abortableSleep, type HttpClient } from './http';

/** Spec, limits table: below 20 MB a single request, above it segments. */
export const SEGMENT_THRESHOLD = 20 * 1024 * 1024;
export const DEFAULT_SEGMENT_SIZE = 16 * 1024 * 1024;
export const DEFAULT_CONCURRENCY = 4;
/** Spec, limits table: characters not allowed in file names. */
export const FORBIDDEN_FILENAME_CHARACTERS = ['<', '>', ':', '"', '/', '\\', '|', '?', '*'] as const;

export const UploadResultSchema = z.looseObject({
  token: z.string().min(1),
  // The live service may answer only `token` (real-service-notes); the emulator adds both.
  sasUrl: z.string().optional(),
  fileId: z.string().optional(),
});
export type UploadAnswer = z.infer<typeof UploadResultSchema>;

export const SegmentSessionSchema = z.looseObject({ uri: z.string().optional(), token: z.string().min(1) });
export type SegmentSession = z.infer<typeof SegmentSessionSchema>;

/** A file on disk (streamed), or bytes already in memory (e.g. dropped into the editor). */
export type UploadSource = { path: string; filename?: string } | { filename: string; data: Uint8Array };

export interface UploadProgress {
  sent: number;
  total: number;
}

export interface UploadOptions {
  signal?: AbortSignal;
  /** Called after each acknowledged request with the bytes the service holds so far. */
  onProgress?: (progress: UploadProgress) => void;
  /** Bytes per segment (default 16 MiB). */
  segmentSize?: number;
  /** Segments in flight at once (default 4). */
  concurrency?: number;
  /** Extra rounds for a segment after the transport's own retries gave up on a network error or 5xx (default 3). */
  segmentRetries?: number;
  /** Wait before such a round, doubled each time (default 1 s). */
  segmentRetryDelayMs?: number;
  /** Force the segmented (true) or single (false) route regardless of size. */
  segmented?: boolean;
}

export interface UploadResult extends UploadAnswer {
  filename: string;
  size: number;
  segmented: boolean;
  /** Number of segments sent (0 for a single upload). */
  segments: number;
}

/** The file name broke the spec's character rule: nothing was sent. */
export class InvalidFilenameError extends Error {
  override readonly name = 'InvalidFilenameError';
}

/** Throws InvalidFilenameError naming the characters the service would refuse. */
export function checkUploadFilename(name: string): void {
  if (name.trim() === '') throw new InvalidFilenameError('the file name is empty');
  const bad = FORBIDDEN_FILENAME_CHARACTERS.filter((c) => name.includes(c));
  if (bad.length) throw new InvalidFilenameError(`the file name '${name}' contains ${bad.join(' ')}; file names cannot contain < > : " / \\ | ? *`);
}

interface BlobLike {
  readonly size: number;
  slice(start?: number, end?: number): BlobLike;
}

/**
 * A byte range of a file on disk that node-fetch's FormData and body code take as a Blob (they recognise a Blob by
 * its tag and `stream()`). It reads lazily in 1 MiB chunks: fetch-blob's own file Blob reads 64 KiB at a time, and
 * the per-chunk cost through its web-stream layers showed in the 512 MB bench. A file changed since it was opened
 * fails the upload instead of sending a mix of old and new bytes.
 */
class FileRange implements BlobLike {
  readonly type = '';
  constructor(
    private readonly path: string,
    private readonly start: number,
    readonly size: number,
    private readonly mtimeMs: number,
  ) {}

  static async open(path: string): Promise<FileRange> {
    const info = await stat(path);
    if (!info.isFile()) throw new Error(`${path} is not a file`);
    return new FileRange(path, 0, info.size, info.mtimeMs);
  }

  get [Symbol.toStringTag](): string {
    return 'Blob';
  }

  slice(start = 0, end = this.size): FileRange {
    const from = Math.min(Math.max(0, start), this.size);
    const to = Math.min(Math.max(from, end), this.size);
    return new FileRange(this.path, this.start + from, to - from, this.mtimeMs);
  }

  async *stream(): AsyncGenerator<Uint8Array> {
    const info = await stat(this.path);
    if (info.mtimeMs !== this.mtimeMs) throw new Error(`${this.path} changed while it was being uploaded`);
    if (this.size === 0) return;
    yield* createReadStream(this.path, { start: this.start, end: this.start + this.size - 1, highWaterMark: 1 << 20 });
  }
}

interface NodeFetchParts {
  FormData: new () => { append(name: string, value: unknown, filename?: string): void };
  Blob: new (parts: unknown[]) => BlobLike;
}

let nodeFetch: Promise<NodeFetchParts> | undefined;
/** node-fetch (the client's transport) is ESM-only: its FormData and file-backed Blob load on first use. */
function loadNodeFetch(): Promise<NodeFetchParts> {
  nodeFetch ??= import('node-fetch').then((m) => m as unknown as NodeFetchParts);
  return nodeFetch;
}

function isTransient(err: unknown): boolean {
  if (err instanceof NetworkError) return true;
  return err instanceof ApiError && (err.status === 429 || err.status >= 500);
}

/** Per-request timeout generous enough for the body at a slow 50 KB/s, never under two minutes. */
const timeoutFor = (bytes: number) => Math.max(120_000, Math.ceil(bytes / 50));

export class UploadsApi {
  constructor(private readonly http: HttpClient) {}

  /**
   * Uploads a file and answers its single-use token (plus `sasUrl` and `fileId` where the service sends them).
   * Files up to 20 MB go in one request, larger ones in segments. Aborting deletes an open segmented session.
   */
  async upload(source: UploadSource, options: UploadOptions = {}): Promise<UploadResult> {
    const filename = source.filename ?? basename((source as { path: string }).path);
    checkUploadFilename(filename);
    const parts = await loadNodeFetch();
    let blob: BlobLike;
    if ('path' in source) {
      blob = await FileRange.open(source.path);
    } else {
      blob = new parts.Blob([source.data]);
    }
    const segmented = options.segmented ?? blob.size > SEGMENT_THRESHOLD;
    return segmented ? this.uploadSegmented(blob, filename, options) : this.uploadSingle(blob, filename, options);
  }

  /** Shorthand for a file on disk. */
  uploadFile(path: string, options: UploadOptions & { filename?: string } = {}): Promise<UploadResult> {
    return this.upload({ path, filename: options.filename }, options);
  }

  private async uploadSingle(blob: BlobLike, filename: string, options: UploadOptions): Promise<UploadResult> {
    const { FormData } = await loadNodeFetch();
    options.onProgress?.({ sent: 0, total: blob.size });
    const res = await this.http.request({
      method: 'POST',
      endpoint: 'upload',
      path: '/uploads',
      accept: 'application/json',
      streamBody: () => {
        const form = new FormData();
        form.append('file1', blob, filename);
        return form;
      },
      schema: UploadResultSchema,
      // A replay after a lost answer only leaves an unused upload behind, which the service sweeps.
      idempotent: true,
      timeoutMs: timeoutFor(blob.size),
      signal: options.signal,
    });
    options.onProgress?.({ sent: blob.size, total: blob.size });
    return { ...res.data, filename, size: blob.size, segmented: false, segments: 0 };
  }

  private async uploadSegmented(blob: BlobLike, filename: string, options: UploadOptions): Promise<UploadResult> {
    const segmentSize = Math.max(1, Math.floor(options.segmentSize ?? DEFAULT_SEGMENT_SIZE));
    const count = Math.max(1, Math.ceil(blob.size / segmentSize));
    const concurrency = Math.max(1, Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, count));
    const signal = options.signal;
    const session = await this.openSession(filename, { signal });
    try {
      let sent = 0;
      options.onProgress?.({ sent, total: blob.size });
      let next = 0;
      // A failure stops the other workers from starting new segments; the first error is the one reported.
      const stop = new AbortController();
      const combined = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
      const worker = async () => {
        while (next < count && !combined.aborted) {
          const index = next++;
          const part = blob.slice(index * segmentSize, Math.min(blob.size, (index + 1) * segmentSize));
          try {
            await this.sendSegmentWithRetry(session.token, index, part, filename, options, combined);
          } catch (err) {
            stop.abort(err);
            throw err;
          }
          sent += part.size;
          options.onProgress?.({ sent, total: blob.size });
        }
      };
      const results = await Promise.allSettled(Array.from({ length: concurrency }, worker));
      if (signal?.aborted) throw signal.reason;
      // The first failure is the cause; the others were aborted because of it.
      if (stop.signal.aborted) throw stop.signal.reason;
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      const answer = await this.commit(session.token, filename, count, { signal });
      return { ...answer, filename, size: blob.size, segmented: true, segments: count };
    } catch (err) {
      // Cancelled or failed: delete the session so it leaves nothing open. Not under the caller's (aborted) signal.
      await this.cancelSession(session.token).catch(() => undefined);
      throw err;
    }
  }

  private async sendSegmentWithRetry(token: string, index: number, part: BlobLike, filename: string, options: UploadOptions, signal: AbortSignal): Promise<void> {
    const rounds = options.segmentRetries ?? 3;
    let delay = options.segmentRetryDelayMs ?? 1000;
    for (let round = 0; ; round++) {
      try {
        await this.uploadSegment(token, index, part, `${filename}.segment${index}`, { signal });
        return;
      } catch (err) {
        if (signal.aborted || round >= rounds || !isTransient(err)) throw err;
        await abortableSleep(delay, signal);
        delay *= 2;
      }
    }
  }

  /** POST /uploads/segments: opens a segmented upload. */
  async openSession(filename: string, options: { signal?: AbortSignal } = {}): Promise<SegmentSession> {
    checkUploadFilename(filename);
    const res = await this.http.request({
      method: 'POST',
      endpoint: 'upload',
      path: '/uploads/segments',
      accept: 'application/json',
      json: { filename },
      schema: SegmentSessionSchema,
      signal: options.signal,
    });
    return res.data;
  }

  /** POST /uploads/segments/{token}?index=n with part `segment<n>`; sending an index again replaces it. */
  async uploadSegment(token: string, index: number, data: BlobLike | Uint8Array, partFilename: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    const { FormData, Blob } = await loadNodeFetch();
    const body = data instanceof Uint8Array ? new Blob([data]) : data;
    await this.http.request({
      method: 'POST',
      endpoint: 'upload',
      path: `/uploads/segments/${encodeURIComponent(token)}`,
      query: { index },
      accept: 'application/json',
      streamBody: () => {
        const form = new FormData();
        form.append(`segment${index}`, body, partFilename);
        return form;
      },
      responseType: 'none',
      idempotent: true,
      timeoutMs: timeoutFor(body.size),
      signal: options.signal,
    });
  }

  /** POST /uploads/segments/{token}/commit. The emulator answers a repeated commit the same way, so it is retried. */
  async commit(token: string, filename: string, segmentCount: number, options: { signal?: AbortSignal } = {}): Promise<UploadAnswer> {
    const res = await this.http.request({
      method: 'POST',
      endpoint: 'upload',
      path: `/uploads/segments/${encodeURIComponent(token)}/commit`,
      accept: 'application/json',
      json: { filename, segmentcount: segmentCount },
      schema: UploadResultSchema,
      timeoutMs: 600_000,
      signal: options.signal,
    });
    return res.data;
  }

  /** DELETE /uploads/segments/{token}: cancels a segmented upload (204). */
  async cancelSession(token: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    await this.http.request({
      method: 'DELETE',
      endpoint: 'upload',
      path: `/uploads/segments/${encodeURIComponent(token)}`,
      accept: 'application/json',
      responseType: 'none',
      // A second DELETE after a lost answer would be a 404 for a session that is gone: not worth retrying.
      idempotent: false,
      signal: options.signal,
    });
  }

  /** DELETE /uploads/{token}: discards an upload whose token will not be used. */
  async discard(token: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    await this.http.request({
      method: 'DELETE',
      endpoint: 'upload',
      path: `/uploads/${encodeURIComponent(token)}`,
      accept: 'application/json',
      responseType: 'none',
      idempotent: false,
      signal: options.signal,
    });
  }

  /**
   * PUTs a file's bytes to an upload's `sasUrl` (the signed blob URL; the signature is the credential, so no
   * bearer token or API headers go with it).
   */
  async writeToSasUrl(sasUrl: string, source: UploadSource, options: { signal?: AbortSignal } = {}): Promise<void> {
    const parts = await loadNodeFetch();
    const blob = 'path' in source ? await FileRange.open(source.path) : new parts.Blob([source.data]);
    await this.http.request({
      method: 'PUT',
      url: sasUrl,
      auth: false,
      apiVersion: false,
      accept: '*/*',
      streamBody: () => blob,
      headers: { 'Content-Type': 'application/octet-stream', 'x-ms-blob-type': 'BlockBlob' },
      responseType: 'none',
      timeoutMs: timeoutFor(blob.size),
      signal: options.signal,
    });
  }
}
