// Who is calling and what they may do: the caller a token acts as, the auth helper routes use, and the clock tokens expire by.
import type { FastifyRequest } from 'fastify';

/** The authenticated caller of a request: the user its token acts as, the client, and its privileges. */
export interface Caller {
  userId: number;
  clientId: string;
  /** Named rights such as '.RoleExecuteMaintenanceJobs'; '*' means every right (system administrator). */
  privileges: Set<string>;
  /** The user's default language: what fields and labels show when no `languages` header is sent. */
  languageId: string;
}

export interface Clock {
  now(): Date;
}

export interface AuthHelper {
  /** The caller of an authenticated request; throws 401 when the route was not authenticated. */
  caller(request: FastifyRequest): Caller;
  /** Throws 403 naming the right unless the caller holds it (or is a system administrator). */
  require(request: FastifyRequest, right: string): Caller;
  /** True when the caller holds the right (or is a system administrator). */
  has(caller: Caller, right: string): boolean;
}
