// Refresh tokens of the authorization-code flow asked with `offline_access` (real-service-notes, second round). Each
// is used once: the refresh_token grant marks it used and answers a new one (rotation).
import type { Migration } from '../migrate';

export const refreshTokens: Migration = {
  id: '010-refresh-tokens',
  sql: `
CREATE TABLE refresh_tokens (
  token text PRIMARY KEY,
  client_id text NOT NULL,
  user_id integer NOT NULL,
  scope text NOT NULL,
  expires_at timestamptz NOT NULL,
  used boolean NOT NULL DEFAULT false
);
`,
};
