// What every route module receives: the store, the error factory, config, a clock and the auth helper.
import type { CountIndexHolder } from './search/countIndex';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TokenService } from './auth';
import type { AuthHelper, Caller, Clock } from './caller';

export type { AuthHelper, Caller, Clock };
import type { BlobStore } from './blobs';
import type { ErrorFactory } from './errors';
import type { TrackedStore } from './storage/tracking';
import type { EmulatorState } from './state/service';
import type { TenantLimitsConfig } from '../core/limits';

/**
 * Which rows of the spec's header table apply to a route (`config: { headers: … }` on the route):
 * 'api' (the content API, `/api/core`) needs API-Version, Accept, Authorization and User-Agent; 'service' (the upload
 * service, work management, analytics: real clients call them without API-Version, real-service-notes) needs
 * Authorization and User-Agent; 'discovery' (/, /supportedVersions) Accept and User-Agent; 'download' User-Agent;
 * 'docs', 'login' (token endpoint, authorize page) and 'blob' (a signed sasUrl) nothing; 'devtools' (the emulator's
 * own `/_emulator/` routes) is not the tenant's API at all.
 */
export type HeaderPolicy = 'api' | 'service' | 'discovery' | 'download' | 'docs' | 'login' | 'blob' | 'devtools';

declare module 'fastify' {
  interface FastifySchema {
    /** One line for the generated OpenAPI document. */
    summary?: string;
    tags?: string[];
  }
  interface FastifyContextConfig {
    headers?: HeaderPolicy;
  }
  interface FastifyRequest {
    /** Set for every route with the 'api' header policy before its handler runs; null otherwise. */
    caller: Caller | null;
  }
}

export interface EmulatorConfig {
  /** `expires_in` of new access tokens, in seconds. */
  tokenTtl: number;
  /** Page-size caps and default of the spec. */
  pageSizeDefault: number;
  pageSizeMax: number;
  recordsPageSizeMax: number;
  /** Bound to a loopback address: the devtools (/_emulator/…) then answer only callers on this machine. */
  loopbackOnly: boolean;
  /** The tenant's rate, queue and single-upload size, and whether they are enforced (`--tenant-limits`). */
  limits: TenantLimitsConfig;
}


export interface EmulatorContext {
  /** The store; `generation()` moves on every write (for read caches). */
  store: TrackedStore;
  errors: ErrorFactory;
  config: EmulatorConfig;
  clock: Clock;
  auth: AuthHelper;
  /** The absolute origin links are built on (`http://host:port`), taken from the request when it is sane. */
  origin(request: FastifyRequest): string;
  /** Per-tenant secret for signing cursors and other opaque values. */
  secret: string;
  /** Issues and checks access tokens (the token endpoint uses it). */
  tokens: TokenService;
  /** Bytes of uploads, file versions and renditions. */
  blobs: BlobStore;
  /** Work started by a request that outlives it (maintenance jobs, rule hooks); awaited on close. */
  background(task: () => Promise<void>): void;
  /** Diagnostic log line (no-op unless the caller passed `log`). */
  log(line: string): void;
  /** Saved states: snapshots, reset, import and export. Caches of rows register with `state.onReplaced`. */
  state: EmulatorState;
  /** Counts records searches' hits from memory on large tenants (search/countIndex.ts). */
  searchIndex: CountIndexHolder;
}

export type RouteModule = (app: FastifyInstance, ctx: EmulatorContext) => void | Promise<void>;
