// The identity endpoints: the token endpoint (client credentials, password, authorization code + PKCE) and the authorize page.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { EmulatorContext } from '../context';
import { ApiError } from '../errors';
import { bodyKindOf, route } from '../routeTable';
import { ErrorBodySchema, TokenSchema } from '../schemas';

const OAuthErrorSchema = ErrorBodySchema.extend({ error: z.string(), error_description: z.string() });

const TokenRequest = z.object({
  grant_type: z.string().max(100),
  client_id: z.string().max(200).optional(),
  client_secret: z.string().max(500).optional(),
  scope: z.string().max(500).optional(),
  username: z.string().max(200).optional(),
  password: z.string().max(500).optional(),
  code: z.string().max(500).optional(),
  redirect_uri: z.string().max(2000).optional(),
  code_verifier: z.string().max(500).optional(),
  refresh_token: z.string().max(500).optional(),
});

/** Scopes a client may ask: the API, and `offline_access` for a refresh token (authorization-code flow only). */
const SCOPES = ['api', 'offline_access'];
/** How long an unused refresh token stays valid. */
const REFRESH_TTL_MS = 30 * 24 * 3600_000;

/** The scope the authorization code flow grants: always the API, and offline access when it was asked for. */
const grantedScope = (asked: string | undefined) => (asked?.split(/\s+/).includes('offline_access') ? 'api offline_access' : 'api');

const AuthorizeRequest = z.object({
  client_id: z.string().min(1).max(200),
  redirect_uri: z.string().min(1).max(2000),
  response_type: z.literal('code'),
  state: z.string().max(2000).optional(),
  scope: z.string().max(500).optional(),
  code_challenge: z.string().regex(/^[A-Za-z0-9_-]{43,128}$/, 'code_challenge must be base64url (43-128 characters)'),
  code_challenge_method: z.literal('S256'),
});

/** OAuth's own error fields, plus the service's error object so every 4xx carries exceptionType/Message. */
class OAuthError extends ApiError {
  constructor(
    status: number,
    readonly error: string,
    description: string,
  ) {
    super(status, `Dam.Identity.OAuth.${error.replace(/(^|_)(\w)/g, (_m, _s, c: string) => c.toUpperCase())}Exception`, description);
  }

  override body() {
    return { error: this.error, error_description: this.message, ...super.body() };
  }
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Loopback (any port) and vscode:// redirect targets are accepted, as the contract says. */
export function redirectAllowed(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol === 'vscode:' || url.protocol === 'vscode-insiders:') return true;
  return (url.protocol === 'http:' || url.protocol === 'https:') && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function sendOAuthError(reply: FastifyReply, err: OAuthError) {
  return reply.code(err.status).header('Cache-Control', 'no-store').type('application/json; charset=utf-8').send(err.body());
}

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  const tag = 'OAuth 2.0';
  interface ClientRow {
    client_id: string;
    secret: string;
    user_id: number;
  }
  const findClient = async (id: string | undefined) =>
    id ? (await ctx.store.query<ClientRow>('SELECT client_id, secret, user_id FROM clients WHERE client_id = $1', [id]))[0] : undefined;

  /** An access token for the API, with a new refresh token when offline access was granted. */
  const withRefreshToken = async (client: ClientRow, scope: string) => {
    const issued = await ctx.tokens.issue(client.client_id, client.user_id, 'api');
    if (!scope.split(/\s+/).includes('offline_access')) return issued;
    const refreshToken = randomBytes(32).toString('base64url');
    await ctx.store.query('INSERT INTO refresh_tokens (token, client_id, user_id, scope, expires_at) VALUES ($1, $2, $3, $4, $5)', [
      refreshToken,
      client.client_id,
      client.user_id,
      scope,
      new Date(ctx.clock.now().getTime() + REFRESH_TTL_MS),
    ]);
    return { ...issued, scope, refresh_token: refreshToken };
  };

  route(app, ctx, {
    method: 'GET',
    url: '/login/.well-known/openid-configuration',
    summary: 'OpenID discovery: the endpoints, grant types, client authentication methods and PKCE methods',
    tag,
    policy: 'login',
    responses: { 200: { description: 'The discovery document', schema: z.object({ issuer: z.string(), token_endpoint: z.string() }).loose() } },
    handler: async ({ request, reply }) => {
      const login = `${ctx.origin(request)}/login`;
      reply.header('Cache-Control', 'public, max-age=3600');
      return {
        issuer: login,
        authorization_endpoint: `${login}/connect/authorize`,
        token_endpoint: `${login}/connect/token`,
        scopes_supported: SCOPES,
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: ['authorization_code', 'client_credentials', 'password', 'refresh_token'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
        code_challenge_methods_supported: ['S256'],
        subject_types_supported: ['public'],
        // Access tokens are JWT-shaped (clients read `exp`), but the emulator checks them by lookup, not signature.
        id_token_signing_alg_values_supported: ['HS256'],
      };
    },
  });

  route(app, ctx, {
    method: 'POST',
    url: '/login/connect/token',
    summary: 'OAuth 2.0 token endpoint: client credentials, password, authorization code with PKCE',
    tag,
    policy: 'login',
    body: TokenRequest,
    bodyReadByHandler: true,
    consumes: ['form', 'json'],
    responses: {
      200: { description: 'An access token', schema: TokenSchema },
      400: { description: 'OAuth error (`error`, `error_description`)', schema: OAuthErrorSchema },
      401: { description: 'OAuth error: unknown client or wrong secret', schema: OAuthErrorSchema },
    },
    handler: async ({ request, reply }) => {
    // IdentityServer reads only a form body here and answers anything else invalid_request: code that got its token
    // from the emulator with JSON would not get one from a tenant.
    const kind = bodyKindOf(request.headers['content-type']);
    if (kind !== undefined && kind !== 'form') {
      const type = String(request.headers['content-type']).split(';')[0].trim().slice(0, 60);
      return sendOAuthError(reply, new OAuthError(400, 'invalid_request', `The token endpoint reads application/x-www-form-urlencoded, not ${type}: send grant_type=…&client_id=…&client_secret=… as a form.`));
    }
    const parsed = TokenRequest.safeParse(request.body ?? {});
    if (!parsed.success) return sendOAuthError(reply, new OAuthError(400, 'invalid_request', parsed.error.issues[0]?.message ?? 'Invalid token request.'));
    const body = { ...parsed.data };
    // Client authentication may also come as HTTP Basic.
    const basic = /^Basic\s+(\S+)$/i.exec(String(request.headers.authorization ?? ''));
    if (basic) {
      const [id, secret] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
      body.client_id ??= decodeURIComponent(id ?? '');
      body.client_secret ??= decodeURIComponent(secret ?? '');
    }
    const client = await findClient(body.client_id);
    if (!client) return sendOAuthError(reply, new OAuthError(401, 'invalid_client', 'Unknown client_id.'));
    const scope = body.scope?.trim() || 'api';
    if (scope.split(/\s+/).some((s) => !SCOPES.includes(s))) return sendOAuthError(reply, new OAuthError(400, 'invalid_scope', `Unsupported scope '${scope}'; use 'api' (and 'offline_access' for a refresh token).`));
    // A refresh token comes only with a user's consent (the authorization-code flow): the spec gives client
    // credentials none, and a tenant refuses offline_access there.
    if (scope.split(/\s+/).includes('offline_access') && (body.grant_type === 'client_credentials' || body.grant_type === 'password')) {
      return sendOAuthError(reply, new OAuthError(400, 'invalid_scope', `offline_access is not granted to the ${body.grant_type} flow; it has no refresh token.`));
    }
    const secretOk = body.client_secret !== undefined && sameSecret(body.client_secret, client.secret);

    if (body.grant_type === 'client_credentials' || body.grant_type === 'password') {
      if (!secretOk) return sendOAuthError(reply, new OAuthError(401, 'invalid_client', 'Invalid client_secret.'));
      if (body.grant_type === 'password') {
        if (!body.username || body.password === undefined) return sendOAuthError(reply, new OAuthError(400, 'invalid_request', 'username and password are required.'));
        const user = (await ctx.store.query<{ password: string }>('SELECT password FROM users WHERE login = $1 AND active', [body.username]))[0];
        if (!user || !sameSecret(user.password, body.password)) return sendOAuthError(reply, new OAuthError(400, 'invalid_grant', 'Invalid username or password.'));
      }
      reply.header('Cache-Control', 'no-store');
      return ctx.tokens.issue(client.client_id, client.user_id, scope);
    }

    if (body.grant_type === 'authorization_code') {
      if (body.client_secret !== undefined && !secretOk) return sendOAuthError(reply, new OAuthError(401, 'invalid_client', 'Invalid client_secret.'));
      if (!body.code || !body.code_verifier || !body.redirect_uri) {
        return sendOAuthError(reply, new OAuthError(400, 'invalid_request', 'code, redirect_uri and code_verifier are required.'));
      }
      const verifier = body.code_verifier;
      const result = await ctx.store.transaction(async (tx) => {
        const rows = await tx.query<{ client_id: string; redirect_uri: string; code_challenge: string; expires_at: Date; used: boolean; user_id: number; scope: string }>(
          'SELECT client_id, redirect_uri, code_challenge, expires_at, used, user_id, scope FROM auth_codes WHERE code = $1 FOR UPDATE',
          [body.code!],
        );
        const row = rows[0];
        if (!row || row.used || new Date(row.expires_at).getTime() <= ctx.clock.now().getTime()) return { refused: 'the code is unknown, used or expired' };
        await tx.query('UPDATE auth_codes SET used = true WHERE code = $1', [body.code!]);
        if (row.client_id !== client.client_id) return { refused: 'the code was issued to another client' };
        if (row.redirect_uri !== body.redirect_uri) return { refused: 'redirect_uri differs from the authorization request' };
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (challenge !== row.code_challenge) return { refused: 'code_verifier does not match the code_challenge (S256)' };
        return { scope: row.scope };
      });
      if (result.refused !== undefined) return sendOAuthError(reply, new OAuthError(400, 'invalid_grant', `Invalid authorization code: ${result.refused}.`));
      reply.header('Cache-Control', 'no-store');
      return withRefreshToken(client, result.scope);
    }

    if (body.grant_type === 'refresh_token') {
      // A public client (PKCE, no secret) refreshes with its id alone, as it got the code; a secret sent must be right.
      if (body.client_secret !== undefined && !secretOk) return sendOAuthError(reply, new OAuthError(401, 'invalid_client', 'Invalid client_secret.'));
      if (!body.refresh_token) return sendOAuthError(reply, new OAuthError(400, 'invalid_request', 'refresh_token is required.'));
      const refused = await ctx.store.transaction(async (tx) => {
        const row = (await tx.query<{ client_id: string; expires_at: Date; used: boolean }>('SELECT client_id, expires_at, used FROM refresh_tokens WHERE token = $1 FOR UPDATE', [body.refresh_token!]))[0];
        if (!row || row.used || new Date(row.expires_at).getTime() <= ctx.clock.now().getTime()) return 'the refresh token is unknown, used or expired';
        if (row.client_id !== client.client_id) return 'the refresh token was issued to another client';
        // Rotation: a refresh token is good for one exchange; the answer carries its successor.
        await tx.query('UPDATE refresh_tokens SET used = true WHERE token = $1', [body.refresh_token!]);
        return undefined;
      });
      if (refused) return sendOAuthError(reply, new OAuthError(400, 'invalid_grant', `Invalid refresh token: ${refused}.`));
      reply.header('Cache-Control', 'no-store');
      return withRefreshToken(client, 'api offline_access');
    }
    return sendOAuthError(reply, new OAuthError(400, 'unsupported_grant_type', `Unsupported grant_type '${body.grant_type.slice(0, 50)}'.`));
    },
  });

  const checkAuthorize = async (input: unknown) => {
    const parsed = AuthorizeRequest.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw ctx.errors.badRequest(`Invalid authorization request: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
    }
    const q = parsed.data;
    if (!(await findClient(q.client_id))) throw ctx.errors.badRequest(`Unknown client_id '${q.client_id}'.`);
    if (!redirectAllowed(q.redirect_uri)) throw ctx.errors.badRequest('redirect_uri must be a loopback http(s) URI or a vscode:// URI.');
    return q;
  };

  route(app, ctx, {
    method: 'GET',
    url: '/login/connect/authorize',
    summary: 'Authorization page (PKCE S256): a one-button consent for admin',
    tag,
    policy: 'login',
    query: AuthorizeRequest.partial().loose(),
    responses: { 200: { description: 'The consent page', contentType: 'text/html' } },
    handler: async ({ request, reply }) => {
    const q = await checkAuthorize(request.query);
    const hidden = Object.entries(q)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(String(v))}">`)
      .join('');
    // The form posts to a relative address so the page also works behind a path-prefix proxy
    // (code-server opens loopback pages as /proxy/<port>/…).
    const html = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Sign in to the DAM emulator</title></head>
<body><h1>DAM emulator</h1><p>Allow <b>${escapeHtml(q.client_id)}</b> to act as <b>admin</b>?</p>
<form method="post" action="authorize">${hidden}<button type="submit" id="allow">Allow</button></form></body></html>`;
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(html);
    },
  });

  route(app, ctx, {
    method: 'POST',
    url: '/login/connect/authorize',
    summary: 'Consent: issues the code and redirects to redirect_uri',
    tag,
    policy: 'login',
    body: AuthorizeRequest,
    bodyReadByHandler: true,
    consumes: ['form'],
    responses: { 302: { description: 'To redirect_uri with code, state and scope' } },
    handler: async ({ request, reply }) => {
    const q = await checkAuthorize(request.body ?? {});
    const code = randomBytes(32).toString('base64url');
    const client = (await findClient(q.client_id))!;
    await ctx.store.query(
      `INSERT INTO auth_codes (code, client_id, user_id, redirect_uri, code_challenge, scope, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [code, q.client_id, client.user_id, q.redirect_uri, q.code_challenge, grantedScope(q.scope), new Date(ctx.clock.now().getTime() + 10 * 60_000)],
    );
    const target = new URL(q.redirect_uri);
    target.searchParams.set('code', code);
    if (q.state !== undefined) target.searchParams.set('state', q.state);
    target.searchParams.set('scope', grantedScope(q.scope));
    return reply.redirect(target.toString(), 302);
    },
  });
}
