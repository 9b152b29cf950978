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

/** The rights of the spec and the emulator contract, by the names tokens carry. */
export const SYSTEM_ADMINISTRATION = 'SystemAdministration';
export const Rights = {
  /** Settings, users, groups, roles, classifications, field and check definitions: the administrator's. */
  SystemAdministration: SYSTEM_ADMINISTRATION,
  ExecuteMaintenanceJobs: '.RoleExecuteMaintenanceJobs',
  ViewMaintenanceJobs: '.RoleViewMaintenanceJobs',
} as const;

export interface Clock {
  now(): Date;
}

export interface AuthHelper {
  /** The caller of an authenticated request; throws 401 when the route was not authenticated. */
  caller(request: FastifyRequest): Caller;
  /** Throws 403 naming the right (and what it allows, when given) unless the caller holds it (or is a system administrator). */
  require(request: FastifyRequest, right: string, action?: string): Caller;
  /** Throws 403 unless the caller is the owner (e.g. the record's creator) or a system administrator. */
  requireOwner(request: FastifyRequest, ownerId: number | null, action: string): Caller;
  /** True when the caller holds the right (or is a system administrator). */
  has(caller: Caller, right: string): boolean;
}
