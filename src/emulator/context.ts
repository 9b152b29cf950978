// What every route module receives: the store, the error factory, config, a clock and the auth helper.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TokenService } from './auth';
import type { AuthHelper, Caller, Clock } from './caller';

export type { AuthHelper, Caller, Clock };
import type { BlobStore } from './blobs';
import type { ErrorFactory } from './errors';
import type { TrackedStore } from './storage/tracking';
import type { EmulatorState } from './state/service';

/**
 * Which rows of the spec's header table apply to a route (`config: { headers: … }` on the route):
 * 'api' (default) needs API-Version, Accept, Authorization and User-Agent; 'discovery' (/, /supportedVersions)
 * Accept and User-Agent; 'download' User-Agent; 'docs' and 'login' (token endpoint, authorize page) nothing;
 * 'devtools' (the emulator's own routes under /_emulator/, no part of the tenant API) nothing either: they take no
 * tenant token, and a tenant token unlocks nothing more there.
 */
export type HeaderPolicy = 'api' | 'discovery' | 'download' | 'docs' | 'login' | 'devtools';

/** A registered route as the generated OpenAPI document sees it. */
export interface RouteInfo {
  method: string | string[];
  url: string;
  schema?: unknown;
  bodySchema?: unknown;
  policy: HeaderPolicy;
}

declare module 'fastify' {
  interface FastifySchema {
    /** One line for the generated OpenAPI document. */
    summary?: string;
    tags?: string[];
  }
  interface FastifyContextConfig {
    headers?: HeaderPolicy;
    /** JSON Schema of a body validated with zod in the handler, shown in /docs. */
    bodySchema?: unknown;
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
  /** Every registered route with its schema, for the generated OpenAPI document. */
  routes: RouteInfo[];
  /** Bytes of uploads, file versions and renditions. */
  blobs: BlobStore;
  /** Work started by a request that outlives it (maintenance jobs, rule hooks); awaited on close. */
  background(task: () => Promise<void>): void;
  /** Diagnostic log line (no-op unless the caller passed `log`). */
  log(line: string): void;
  /** Saved states: snapshots, reset, import and export. Caches of rows register with `state.onReplaced`. */
  state: EmulatorState;
}

export type RouteModule = (app: FastifyInstance, ctx: EmulatorContext) => void | Promise<void>;
