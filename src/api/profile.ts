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

