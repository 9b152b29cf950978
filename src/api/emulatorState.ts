// The emulator's state devtools (/_emulator/snapshots, /_emulator/reset) for the CLI and the extension: no token,
// answers checked with zod, failures as ApiError (the error object) or NetworkError, never HTML parsed as JSON.
import { z } from 'zod';
import { ApiError, ErrorBodySchema, NetworkError, ResponseShapeError, excerpt } from './errors';

export const SnapshotSchema = z.object({
  name: z.string(),
  createdOn: z.string(),
  seed: z.string().nullish(),
  records: z.number(),
  tables: z.number().optional(),
  blobs: z.number().optional(),
  backend: z.string().optional(),
});
export type Snapshot = z.infer<typeof SnapshotSchema>;

export const LoadReportSchema = z.object({
  name: z.string().optional(),
  tablesLoaded: z.array(z.string()),
  blobsAdded: z.number(),
  blobsRemoved: z.number(),
  ms: z.number(),
});
export type LoadReport = z.infer<typeof LoadReportSchema>;

/** Restores can wait for requests in flight (up to 30 s on the emulator's side). */
const TIMEOUT_MS = 120_000;

export class EmulatorStateClient {
  /** `origin`: the emulator's base address, e.g. http://127.0.0.1:7070. */
  constructor(
    private readonly origin: string,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  private async call<T>(method: string, path: string, schema: z.ZodType<T> | undefined, body?: unknown, signal?: AbortSignal): Promise<T> {
    const url = `${this.origin.replace(/\/+$/, '')}/_emulator${path}`;
    let res: Response;
    const timeout = AbortSignal.timeout(TIMEOUT_MS);
    try {
      res = await this.fetchImpl(url, {
        method,
        headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (err) {
      throw new NetworkError(method, url, timeout.aborted, err);
    }
    const text = await res.text();
    const json = /\bjson\b/i.test(res.headers.get('content-type') ?? '') && text ? safeJson(text) : undefined;
    if (!res.ok) {
      const error = ErrorBodySchema.safeParse(json);
      throw new ApiError({
        method,
        url,
        status: res.status,
        exceptionType: error.success ? (error.data.exceptionType ?? undefined) : undefined,
        exceptionMessage: error.success ? (error.data.exceptionMessage ?? undefined) : undefined,
        bodyExcerpt: json === undefined && text ? excerpt(text) : undefined,
      });
    }
    if (!schema) return undefined as T;
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const hint = res.status === 404 || json === undefined ? ' (is this an emulator of this version?)' : '';
      throw new ResponseShapeError(`${method} ${url} answered something else than expected${hint}: ${parsed.error.issues[0]?.message ?? ''}`);
    }
    return parsed.data;
  }

  list(signal?: AbortSignal): Promise<Snapshot[]> {
    return this.call('GET', '/snapshots', z.object({ items: z.array(SnapshotSchema) }), undefined, signal).then((r) => r.items);
  }

  save(name: string, signal?: AbortSignal): Promise<Snapshot> {
    return this.call('POST', '/snapshots', SnapshotSchema, { name }, signal);
  }

  restore(name: string, signal?: AbortSignal): Promise<LoadReport> {
    return this.call('POST', `/snapshots/${encodeURIComponent(name)}/restore`, LoadReportSchema, undefined, signal);
  }

  async delete(name: string, signal?: AbortSignal): Promise<void> {
    await this.call('DELETE', `/snapshots/${encodeURIComponent(name)}`, undefined, undefined, signal);
  }

  reset(seed: 'demo' | 'empty' = 'demo', signal?: AbortSignal): Promise<LoadReport> {
    return this.call('POST', '/reset', LoadReportSchema, { seed }, signal);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
