// The upload service ({upload_url}/uploads): one request below the spec's 20 MB threshold, numbered segments
// above it (sent in parallel, each retried, the session deleted on cancel), and the signed blob URL. Files stream
// from disk in 1 MiB chunks read as they are sent, so memory stays bounded whatever the file size.
import { randomBytes } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { z } from 'zod';
import { ApiError, NetworkError } from './errors';
import { abortableSleep, type HttpClient } from './http';

/** Spec, limits table: below 20 MB a single request, above it segments. */
export const SEGMENT_THRESHOLD = 20 * 1024 * 1024;
/** Bytes per segment across a network, where one that fails is cheap to send again. */
export const DEFAULT_SEGMENT_SIZE = 16 * 1024 * 1024;
/**
 * Bytes per segment to a service on this machine (the emulator). Nothing is lost on the way there, and each segment
 * costs the service a request, a file and a row while the others wait for the same cores: on 2 cores, 512 MB took
 * a median 1.06 s in 16 MiB segments, 0.93 s in 32 MiB and 0.88 s in 64 MiB (7 rounds each, 2 in flight).
 */
export const LOOPBACK_SEGMENT_SIZE = 64 * 1024 * 1024;
/** Segments in flight at once to a service across a network: enough to hide the round trips. */
export const DEFAULT_CONCURRENCY = 4;
/**
 * Segments in flight at once to a service on this machine (the emulator). Loopback has no round trips to hide, and
 * client and service share the same cores: on 2 cores, 512 MB took 0.86 s with 2 in flight and 1.01 s with 4.
 */
export const LOOPBACK_CONCURRENCY = 2;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return LOOPBACK_HOSTS.has(host) || host.startsWith('127.');
}

/** The default number of segments in flight for an upload service at `url`. */
export function defaultConcurrency(url: string): number {
  return isLoopback(url) ? LOOPBACK_CONCURRENCY : DEFAULT_CONCURRENCY;
}

/** The default segment size for an upload service at `url`. */
export function defaultSegmentSize(url: string): number {
  return isLoopback(url) ? LOOPBACK_SEGMENT_SIZE : DEFAULT_SEGMENT_SIZE;
}
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
  /**
   * Called as the bytes go out: `sent` counts those written to the connection (about every MiB) and never goes
   * back, a part sent again counting once. It starts at 0 and reaches `total` before the service's last answer.
   */
  onProgress?: (progress: UploadProgress) => void;
  /** Bytes per segment (default 16 MiB, or 64 MiB to a service on this machine). */
  segmentSize?: number;
  /** Segments in flight at once (default 4, or 2 to a service on this machine). */
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

/** Bytes read from disk per chunk of a streamed body. */
const READ_CHUNK = 1 << 20;

/**
 * The 1 MiB read buffers of one file, shared by every request that sends a part of it. A buffer comes back only
 * once the socket has written it, so a 512 MB upload reads through a handful of buffers. Allocating a new one per
 * chunk cost page faults and collections to free them: about 200 ms of CPU per 512 MB, on cores the service shares
 * when it runs on the same machine.
 */
export class ReadBuffers {
  private readonly free: ArrayBuffer[] = [];
  private readonly mine = new WeakSet<ArrayBufferLike>();
  /** Buffers allocated so far (the rest of the reads reused them). */
  allocated = 0;

  take(): Buffer {
    const reused = this.free.pop();
    if (reused) return Buffer.from(reused);
    const buffer = Buffer.allocUnsafeSlow(READ_CHUNK);
    this.mine.add(buffer.buffer);
    this.allocated++;
    return buffer;
  }

  /** Takes back the buffer under `chunk`, which nothing may use any more; chunks of other memory are ignored. */
  give(chunk: Uint8Array): void {
    if (this.mine.has(chunk.buffer) && !this.free.includes(chunk.buffer as ArrayBuffer)) this.free.push(chunk.buffer as ArrayBuffer);
  }
}

/**
 * A byte range of a file on disk, read lazily in 1 MiB chunks when a request body is sent, so memory stays bounded
 * whatever the file size. A file changed since it was opened fails the upload instead of sending a mix of old and
 * new bytes.
 */
export class FileRange {
  private constructor(
    private readonly path: string,
    private readonly start: number,
    readonly size: number,
    private readonly mtimeMs: number,
    /** Shared by the file's slices: the segments of one upload. */
    readonly buffers: ReadBuffers,
  ) {}

  static async open(path: string): Promise<FileRange> {
    const info = await stat(path);
    if (!info.isFile()) throw new Error(`${path} is not a file`);
    return new FileRange(path, 0, info.size, info.mtimeMs, new ReadBuffers());
  }

  slice(start = 0, end = this.size): FileRange {
    const from = Math.min(Math.max(0, start), this.size);
    const to = Math.min(Math.max(from, end), this.size);
    return new FileRange(this.path, this.start + from, to - from, this.mtimeMs, this.buffers);
  }

  /** The bytes, each chunk in a buffer of `buffers` that the reader gives back when done with it (or drops). */
  async *chunks(): AsyncGenerator<Buffer> {
    const file = await open(this.path, 'r');
    try {
      const info = await file.stat();
      if (info.mtimeMs !== this.mtimeMs) throw new Error(`${this.path} changed while it was being uploaded`);
      const end = this.start + this.size;
      for (let at = this.start; at < end; ) {
        const buffer = this.buffers.take();
        const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, end - at), at);
        if (bytesRead === 0) throw new Error(`${this.path} became shorter while it was being uploaded`);
        at += bytesRead;
        yield bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
      }
    } finally {
      await file.close();
    }
  }
}

/**
 * A request body read from `chunks`, whose buffers go back to `buffers` once written. node-fetch sends a stream body
 * with `pipeline(body, request)`, which calls `pipe`: this one writes each chunk with a callback, the only sure sign
 * that the socket holds it no more. Read any other way (for await, 'data' events), it gives nothing back and every
 * chunk is read into a new buffer: slower, never wrong.
 */
export class RecyclingBody extends Readable {
  private readonly source: AsyncIterator<Uint8Array>;

  constructor(
    chunks: AsyncIterable<Uint8Array>,
    private readonly buffers?: ReadBuffers,
    /** Told the size of each chunk once the socket has written it. */
    private readonly onWritten?: (bytes: number) => void,
  ) {
    super();
    this.source = chunks[Symbol.asyncIterator]();
  }

  override _read(): void {
    this.source.next().then(
      (next) => this.push(next.done ? null : next.value),
      (err: Error) => this.destroy(err),
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // Ends the generator, which closes the file.
    const ended = this.source.return?.();
    if (!ended) return callback(error);
    ended.then(
      () => callback(error),
      (err: Error) => callback(error ?? err),
    );
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    const dest = destination as unknown as Writable;
    const onData = (chunk: Buffer) => {
      const written = (err?: Error | null) => {
        this.buffers?.give(chunk);
        if (!err) this.onWritten?.(chunk.length);
      };
      if (!dest.write(chunk, written)) this.pause();
    };
    const onDrain = () => this.resume();
    const stop = () => {
      this.off('data', onData);
      this.off('end', onEnd);
      dest.off('drain', onDrain);
      dest.off('close', onClose);
    };
    const onEnd = () => {
      stop();
      if (options?.end !== false) dest.end();
    };
    const onClose = () => {
      stop();
      this.pause();
    };
    dest.on('drain', onDrain);
    dest.once('close', onClose);
    this.once('end', onEnd);
    this.on('data', onData);
    return destination;
  }
}

/** What an upload request carries: a file's bytes on disk or bytes already in memory. */
export type UploadContent = FileRange | Uint8Array;

const sizeOf = (content: UploadContent) => (content instanceof FileRange ? content.size : content.byteLength);
/** A view of bytes `start` to `end`, never a copy. */
const sliceOf = (content: UploadContent, start: number, end: number) => (content instanceof FileRange ? content.slice(start, end) : content.subarray(start, end));

/** The bytes of `content` as they are sent: read from disk chunk by chunk, or the bytes in memory at once. */
async function* chunksOf(content: UploadContent): AsyncGenerator<Uint8Array> {
  if (content instanceof FileRange) yield* content.chunks();
  else yield content;
}

const buffersOf = (content: UploadContent) => (content instanceof FileRange ? content.buffers : undefined);

/**
 * A body for `streamBody`: made afresh for each attempt, so a retry reads the file again and nothing holds it.
 * `sent` is told how many of the content's bytes this attempt has written so far (not counting the multipart frame).
 */
interface StreamedBody {
  headers: Record<string, string>;
  body: (sent?: (bytes: number) => void) => Readable;
}

/** Counts what a body's socket has written, as bytes of the content: those after the `head` and up to its `size`. */
function contentWritten(head: number, size: number, sent: ((bytes: number) => void) | undefined): ((bytes: number) => void) | undefined {
  if (!sent) return undefined;
  let written = 0;
  return (bytes) => {
    written += bytes;
    sent(Math.min(size, Math.max(0, written - head)));
  };
}

/** The bytes as the whole body (the blob PUT to a `sasUrl`). */
function rawBody(content: UploadContent, contentType: string): StreamedBody {
  return {
    headers: { 'Content-Type': contentType, 'Content-Length': String(sizeOf(content)) },
    body: (sent) => new RecyclingBody(chunksOf(content), buffersOf(content), contentWritten(0, sizeOf(content), sent)),
  };
}

/** Quoted-string escaping of a multipart/form-data name, as browsers do it (WHATWG HTML, form submission). */
const escapeQuoted = (value: string) => value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');

/**
 * A multipart/form-data body (RFC 7578) of one file part, streamed from disk with its length known in advance.
 * Built here rather than through node-fetch's FormData, whose Blob and web-stream layers took twice the CPU of the
 * rest of the client per byte sent (measured on 512 MB: 200-350 ms of user time against 60-100 ms this way).
 */
export function multipartFileBody(field: string, filename: string, content: UploadContent): StreamedBody {
  const boundary = `----DamWorkbench${randomBytes(16).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${escapeQuoted(field)}"; filename="${escapeQuoted(filename)}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* chunks(): AsyncGenerator<Uint8Array> {
    yield head;
    yield* chunksOf(content);
    yield tail;
  }
  return {
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(head.length + sizeOf(content) + tail.length) },
    body: (sent) => new RecyclingBody(chunks(), buffersOf(content), contentWritten(head.length, sizeOf(content), sent)),
  };
}

/**
 * An upload's progress, which only grows: the bytes of the parts the service acknowledged, plus those written so
 * far of the parts on their way. A part sent again counts from where the earlier attempt got to, not twice.
 */
function progressOf(total: number, onProgress: ((progress: UploadProgress) => void) | undefined) {
  let acknowledged = 0;
  let reported = -1;
  const onTheirWay = new Map<number, number>();
  const acknowledgedParts = new Set<number>();
  const report = () => {
    let sent = acknowledged;
    for (const bytes of onTheirWay.values()) sent += bytes;
    if (sent <= reported) return;
    reported = sent;
    onProgress?.({ sent, total });
  };
  report();
  return {
    /** Told the bytes of part `index` that its current attempt has written. */
    sending: (index: number) => (bytes: number) => {
      // (A write reported after the answer is already counted.)
      if (acknowledgedParts.has(index)) return;
      onTheirWay.set(index, bytes);
      report();
    },
    done: (index: number, bytes: number) => {
      onTheirWay.delete(index);
      acknowledgedParts.add(index);
      acknowledged += bytes;
      report();
    },
  };
}

const contentOf = async (source: UploadSource): Promise<UploadContent> => ('path' in source ? FileRange.open(source.path) : source.data);

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
    const content = await contentOf(source);
    const segmented = options.segmented ?? sizeOf(content) > SEGMENT_THRESHOLD;
    return segmented ? this.uploadSegmented(content, filename, options) : this.uploadSingle(content, filename, options);
  }

  /** Shorthand for a file on disk. */
  uploadFile(path: string, options: UploadOptions & { filename?: string } = {}): Promise<UploadResult> {
    return this.upload({ path, filename: options.filename }, options);
  }

  private async uploadSingle(content: UploadContent, filename: string, options: UploadOptions): Promise<UploadResult> {
    const size = sizeOf(content);
    const { headers, body } = multipartFileBody('file1', filename, content);
    const progress = progressOf(size, options.onProgress);
    const res = await this.http.request({
      method: 'POST',
      endpoint: 'upload',
      path: '/uploads',
      accept: 'application/json',
      headers,
      streamBody: () => body(progress.sending(0)),
      schema: UploadResultSchema,
      // A replay after a lost answer only leaves an unused upload behind, which the service sweeps.
      idempotent: true,
      timeoutMs: timeoutFor(size),
      signal: options.signal,
    });
    progress.done(0, size);
    return { ...res.data, filename, size, segmented: false, segments: 0 };
  }

  private async uploadSegmented(content: UploadContent, filename: string, options: UploadOptions): Promise<UploadResult> {
    const size = sizeOf(content);
    const service = this.http.urlFor({ endpoint: 'upload' });
    const segmentSize = Math.max(1, Math.floor(options.segmentSize ?? defaultSegmentSize(service)));
    const count = Math.max(1, Math.ceil(size / segmentSize));
    const concurrency = Math.max(1, Math.min(options.concurrency ?? defaultConcurrency(service), count));
    const signal = options.signal;
    const session = await this.openSession(filename, { signal });
    try {
      const progress = progressOf(size, options.onProgress);
      let next = 0;
      // A failure stops the other workers from starting new segments; the first error is the one reported.
      const stop = new AbortController();
      const combined = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
      const worker = async () => {
        while (next < count && !combined.aborted) {
          const index = next++;
          const part = sliceOf(content, index * segmentSize, Math.min(size, (index + 1) * segmentSize));
          try {
            await this.sendSegmentWithRetry(session.token, index, part, filename, options, combined, progress.sending(index));
          } catch (err) {
            stop.abort(err);
            throw err;
          }
          progress.done(index, sizeOf(part));
        }
      };
      const results = await Promise.allSettled(Array.from({ length: concurrency }, worker));
      if (signal?.aborted) throw signal.reason;
      // The first failure is the cause; the others were aborted because of it.
      if (stop.signal.aborted) throw stop.signal.reason;
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      const answer = await this.commit(session.token, filename, count, { signal });
      return { ...answer, filename, size, segmented: true, segments: count };
    } catch (err) {
      // Cancelled or failed: delete the session so it leaves nothing open. Not under the caller's (aborted) signal.
      await this.cancelSession(session.token).catch(() => undefined);
      throw err;
    }
  }

  private async sendSegmentWithRetry(
    token: string,
    index: number,
    part: UploadContent,
    filename: string,
    options: UploadOptions,
    signal: AbortSignal,
    sent: (bytes: number) => void,
  ): Promise<void> {
    const rounds = options.segmentRetries ?? 3;
    let delay = options.segmentRetryDelayMs ?? 1000;
    for (let round = 0; ; round++) {
      try {
        await this.uploadSegment(token, index, part, `${filename}.segment${index}`, { signal, sent });
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
  async uploadSegment(
    token: string,
    index: number,
    data: UploadContent,
    partFilename: string,
    options: { signal?: AbortSignal; sent?: (bytes: number) => void } = {},
  ): Promise<void> {
    const { headers, body } = multipartFileBody(`segment${index}`, partFilename, data);
    await this.http.request({
      method: 'POST',
      endpoint: 'upload',
      path: `/uploads/segments/${encodeURIComponent(token)}`,
      query: { index },
      accept: 'application/json',
      headers,
      streamBody: () => body(options.sent),
      responseType: 'none',
      idempotent: true,
      timeoutMs: timeoutFor(sizeOf(data)),
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
    const content = await contentOf(source);
    const { headers, body } = rawBody(content, 'application/octet-stream');
    await this.http.request({
      method: 'PUT',
      url: sasUrl,
      auth: false,
      apiVersion: false,
      accept: '*/*',
      streamBody: body,
      headers: { ...headers, 'x-ms-blob-type': 'BlockBlob' },
      responseType: 'none',
      timeoutMs: timeoutFor(sizeOf(content)),
      signal: options.signal,
    });
  }
}
