// Addresses of the service: derived from a tenant name, or all on one origin (the emulator).
// Free of zod on purpose: the extension reads these while activating, before any schema is needed.
import { EMULATOR_CLIENT } from '../core/contract';
import type { Endpoints, Profile } from './profile';

function trimSlash(value: string): string {
  return value.replace(/\/+$/, '');
}

/**
 * Derives all six addresses from a tenant name and its domain, following the service's layout:
 * the content API on `{tenant}.dam.{domain}`, identity, uploads, work management and analytics on
 * `{tenant}.{domain}`. Every address stays editable afterwards.
 */
export function deriveTenantEndpoints(tenant: string, domain: string): Endpoints {
  const t = tenant.trim().toLowerCase();
  const d = domain.trim().toLowerCase().replace(/^https?:\/\//, '').replace(/\/+$/, '');
  if (!/^[a-z0-9][a-z0-9-]*$/.test(t)) throw new Error(`'${tenant}' is not a tenant name (letters, digits and dashes)`);
  if (!/^[a-z0-9.-]+$/.test(d)) throw new Error(`'${domain}' is not a domain name`);
  const app = `https://${t}.${d}`;
  const dam = `https://${t}.dam.${d}`;
  return { auth: app, base: dam, core: `${dam}/api/core`, upload: app, ops: app, analytics: app };
}

/** The emulator serves every address from one origin (emulator contract, "One origin"). */
export function emulatorEndpoints(origin: string): Endpoints {
  const b = trimSlash(origin);
  return { auth: b, base: b, core: `${b}/api/core`, upload: b, ops: b, analytics: b };
}

export { EMULATOR_CLIENT };

export function emulatorProfile(origin: string): Profile {
  return {
    id: 'emulator',
    name: 'Local emulator',
    kind: 'emulator',
    endpoints: emulatorEndpoints(origin),
    flow: 'clientCredentials',
    clientId: EMULATOR_CLIENT.clientId,
    scope: 'api',
    redirect: 'loopback',
  };
}
