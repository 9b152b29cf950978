// The tenant's limits (real-service-notes, "The tenant's limits"): the numbers the emulator enforces or reports
// and the client paces itself under, and the token bucket both sides count with.
export { TokenBucket, type Reservation } from './tokenBucket';

/** A tenant's rate and queue, shared by every client and integration of the tenant. */
export interface TenantLimits {
  /** Requests per second the REST API serves. */
  rate: number;
  /** Requests that may wait for their turn; one more is answered 429. */
  queue: number;
  /** Bytes a single-request upload may carry; larger files go in segments. */
  singleUploadMax: number;
}

export const TENANT_LIMITS: TenantLimits = { rate: 15, queue: 100, singleUploadMax: 20 * 1024 * 1024 };

/** The limits an emulator runs with: a tenant's numbers unless given, enforced (`--tenant-limits`) or only reported. */
export interface TenantLimitsConfig extends TenantLimits {
  enforce: boolean;
}

export type TenantLimitsOptions = Partial<TenantLimitsConfig>;

export function tenantLimitsConfig(options: TenantLimitsOptions = {}): TenantLimitsConfig {
  return {
    enforce: options.enforce ?? false,
    rate: options.rate ?? TENANT_LIMITS.rate,
    queue: options.queue ?? TENANT_LIMITS.queue,
    singleUploadMax: options.singleUploadMax ?? TENANT_LIMITS.singleUploadMax,
  };
}

/** Requests served at once before the rate applies: a bucket holding one second's worth (at least one). */
export function burstOf(rate: number): number {
  return Math.max(1, Math.ceil(rate));
}
