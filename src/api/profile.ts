// A connection profile: the six addresses of the service, the OAuth flow and the client id.
// Secrets (client secret, password, tokens) are never part of a profile; callers keep them elsewhere.
import { z } from 'zod';

export const OAuthFlowSchema = z.enum(['clientCredentials', 'password', 'authorizationCode']);
export type OAuthFlow = z.infer<typeof OAuthFlowSchema>;

const url = z.string().url();

export const EndpointsSchema = z.object({
  /** {auth_url}: token at `${auth}/login/connect/token`. */
  auth: url,
  /** {base_url}: the content host root (`/`, `/supportedVersions`, `/docs`). */
  base: url,
  /** {core_url}: usually `${base}/api/core`. */
  core: url,
  /** {upload_url}: `${upload}/uploads`. */
  upload: url,
  /** {ops_url}: work management (`/api/simple-tasks`, `/api/tasks/…`, `/api/resources/…`). */
  ops: url,
  /** {analytics_url}: `${analytics}/analytics/`. */
  analytics: url,
});
export type Endpoints = z.infer<typeof EndpointsSchema>;

export const ProfileSchema = z.object({
  /** Stable key; secrets are stored under it. */
  id: z.string().min(1),
  /** What the user sees. */
  name: z.string().min(1),
  kind: z.enum(['emulator', 'tenant']),
  endpoints: EndpointsSchema,
  flow: OAuthFlowSchema,
  clientId: z.string().min(1),
  scope: z.string().default('api'),
  /** For the password flow; the password itself is a secret. */
  username: z.string().optional(),
  /** For authorization code with PKCE: where the browser comes back. */
  redirect: z.enum(['vscode', 'loopback']).default('loopback'),
  /** The tenant's web UI, for "open in web UI" links. */
  webUrl: z.string().url().optional(),
});
export type Profile = z.infer<typeof ProfileSchema>;

/** The secrets a profile may need, by flow. */
export interface ProfileSecrets {
  clientSecret?: string;
  password?: string;
}

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

/** The emulator's fixed client registration (emulator contract, "Credentials"). */
export const EMULATOR_CLIENT = { clientId: 'dam-emulator', clientSecret: 'dam-emulator-secret', username: 'admin', password: 'admin' } as const;

export function emulatorProfile(origin: string): Profile {
  return ProfileSchema.parse({
    id: 'emulator',
    name: 'Local emulator',
    kind: 'emulator',
    endpoints: emulatorEndpoints(origin),
    flow: 'clientCredentials',
    clientId: EMULATOR_CLIENT.clientId,
    scope: 'api',
  });
}
