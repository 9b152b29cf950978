// OAuth 2.0 for the service: client credentials, password, authorization code with PKCE (S256),
// and a token cache that renews shortly before `expires_in` runs out.
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { AuthRequiredError } from './errors';
import type { HttpClient, TokenProvider } from './http';
import type { Profile } from './profile';

/** What the request function needs: a current token, and a way to drop one the server refused. */
export type { TokenProvider };

export const TokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().positive().optional(),
  token_type: z.string().optional(),
  scope: z.string().optional(),
  refresh_token: z.string().optional(),
});
export type TokenResponse = z.infer<typeof TokenResponseSchema>;

export interface AccessToken {
  value: string;
  /** Epoch milliseconds. */
  obtainedAt: number;
  expiresAt: number;
  refreshToken?: string;
  scope?: string;
}

/** Lifetime assumed when a token answer omits `expires_in`: short, so we renew early rather than late. */
const DEFAULT_LIFETIME_S = 300;

export function toAccessToken(response: TokenResponse, now: number): AccessToken {
  const lifetime = response.expires_in ?? DEFAULT_LIFETIME_S;
  return { value: response.access_token, obtainedAt: now, expiresAt: now + lifetime * 1000, refreshToken: response.refresh_token, scope: response.scope };
}

export interface TokenCacheOptions {
  now?: () => number;
  /** Renew this long before expiry, capped at a tenth of the token's lifetime (default 60 s). */
  renewBeforeMs?: number;
}

/**
 * Caches one token and renews it before expiry. Concurrent callers share one token request, so a
 * burst of requests after expiry costs one round trip to the identity host.
 */
export class CachingTokenProvider implements TokenProvider {
  private cached: AccessToken | undefined;
  /** The last token held, kept after invalidation so its refresh token can still be used. */
  private last: AccessToken | undefined;
  private inflight: Promise<AccessToken> | undefined;
  private readonly now: () => number;
  private readonly renewBeforeMs: number;

  constructor(
    private readonly fetchToken: (previous: AccessToken | undefined) => Promise<AccessToken>,
    options: TokenCacheOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.renewBeforeMs = options.renewBeforeMs ?? 60_000;
  }

  /** The cached token, if any (for display: never log its value). */
  get current(): AccessToken | undefined {
    return this.cached;
  }

  /** Seeds the cache, e.g. with the token an authorization-code exchange returned. */
  set(token: AccessToken): void {
    this.cached = token;
    this.last = token;
  }

  isFresh(token: AccessToken): boolean {
    const margin = Math.min(this.renewBeforeMs, (token.expiresAt - token.obtainedAt) / 10);
    return this.now() < token.expiresAt - margin;
  }

  async getToken(signal?: AbortSignal): Promise<string> {
    signal?.throwIfAborted();
    if (this.cached && this.isFresh(this.cached)) return this.cached.value;
    if (!this.inflight) {
      const previous = this.cached ?? this.last;
      // The shared request is not tied to one caller's signal; each caller can still give up alone.
      this.inflight = this.fetchToken(previous).then(
        (token) => {
          this.set(token);
          this.inflight = undefined;
          return token;
        },
        (err: unknown) => {
          this.inflight = undefined;
          throw err;
        },
      );
    }
    const token = await raceAbort(this.inflight, signal);
    return token.value;
  }

  invalidate(token?: string): void {
    if (token === undefined || this.cached?.value === token) this.cached = undefined;
  }
}

/** A fixed token (a page hook's `access-token`, a test). It cannot renew itself. */
export class StaticTokenProvider implements TokenProvider {
  constructor(private readonly token: string) {}
  async getToken(): Promise<string> {
    return this.token;
  }
  invalidate(): void {
    // Nothing to renew; a 401 will surface to the caller after the single retry.
  }
}

function raceAbort<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

type AuthProfile = Pick<Profile, 'endpoints' | 'clientId' | 'scope'>;

/** POST to `{auth_url}/login/connect/token` with a form body; never sends a bearer token. */
export async function requestToken(http: HttpClient, profile: AuthProfile, form: Record<string, string>, options: { signal?: AbortSignal; now?: () => number } = {}): Promise<AccessToken> {
  const now = options.now ?? Date.now;
  const started = now();
  const res = await http.request({
    method: 'POST',
    endpoint: 'auth',
    path: '/login/connect/token',
    form: { client_id: profile.clientId, ...form },
    accept: 'application/json',
    auth: false,
    // A token request changes nothing on the server, so a lost answer may be asked again.
    idempotent: true,
    schema: TokenResponseSchema,
    signal: options.signal,
  });
  // Expiry counts from when we asked, not when the answer arrived: errs on the early side.
  return toAccessToken(res.data, started);
}

export interface ClientCredentialsSecrets {
  clientSecret: string;
}

export function clientCredentialsProvider(http: HttpClient, profile: AuthProfile, secrets: ClientCredentialsSecrets, cache?: TokenCacheOptions): CachingTokenProvider {
  return new CachingTokenProvider(
    () => requestToken(http, profile, { grant_type: 'client_credentials', scope: profile.scope, client_secret: secrets.clientSecret }, { now: cache?.now }),
    cache,
  );
}

export interface PasswordSecrets {
  clientSecret?: string;
  username: string;
  password: string;
}

export function passwordProvider(http: HttpClient, profile: AuthProfile, secrets: PasswordSecrets, cache?: TokenCacheOptions): CachingTokenProvider {
  const form: Record<string, string> = { grant_type: 'password', scope: profile.scope, username: secrets.username, password: secrets.password };
  if (secrets.clientSecret !== undefined) form.client_secret = secrets.clientSecret;
  return new CachingTokenProvider(() => requestToken(http, profile, form, { now: cache?.now }), cache);
}

export interface PkcePair {
  verifier: string;
  challenge: string;
  method: 'S256';
}

function base64url(bytes: Buffer): string {
  return bytes.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** RFC 7636: a 43-character verifier from 32 random bytes and its SHA-256 challenge. */
export function createPkcePair(): PkcePair {
  const verifier = base64url(randomBytes(32));
  return { verifier, challenge: pkceChallenge(verifier), method: 'S256' };
}

export function pkceChallenge(verifier: string): string {
  return base64url(createHash('sha256').update(verifier, 'ascii').digest());
}

/** A random `state` value for the authorize redirect. */
export function createState(): string {
  return base64url(randomBytes(16));
}

export interface AuthorizeParams {
  redirectUri: string;
  state: string;
  challenge: string;
}

/** The browser address of the consent step; the caller opens it and listens on `redirectUri`. */
export function buildAuthorizeUrl(profile: AuthProfile, params: AuthorizeParams): string {
  const url = new URL(`${profile.endpoints.auth.replace(/\/+$/, '')}/login/connect/authorize`);
  url.searchParams.set('client_id', profile.clientId);
  url.searchParams.set('redirect_uri', params.redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', profile.scope);
  url.searchParams.set('state', params.state);
  url.searchParams.set('code_challenge', params.challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  return url.toString();
}

/**
 * Reads `code` from the redirect the browser came back with, after checking `state` (a mismatch
 * means the answer is not to our request) and an OAuth `error` parameter.
 */
export function readAuthorizationRedirect(redirectUrl: string, expectedState: string): { code: string; scope?: string } {
  const url = new URL(redirectUrl);
  const error = url.searchParams.get('error');
  if (error) throw new AuthRequiredError(`authorization was refused: ${error}${url.searchParams.get('error_description') ? ` (${url.searchParams.get('error_description')})` : ''}`);
  if (url.searchParams.get('state') !== expectedState) throw new AuthRequiredError('authorization redirect carries another state: ignored');
  const code = url.searchParams.get('code');
  if (!code) throw new AuthRequiredError('authorization redirect carries no code');
  return { code, scope: url.searchParams.get('scope') ?? undefined };
}

export interface ExchangeParams {
  code: string;
  redirectUri: string;
  verifier: string;
  clientSecret?: string;
  signal?: AbortSignal;
}

export function exchangeCode(http: HttpClient, profile: AuthProfile, params: ExchangeParams, now?: () => number): Promise<AccessToken> {
  const form: Record<string, string> = { grant_type: 'authorization_code', code: params.code, redirect_uri: params.redirectUri, code_verifier: params.verifier };
  if (params.clientSecret !== undefined) form.client_secret = params.clientSecret;
  return requestToken(http, profile, form, { signal: params.signal, now });
}

export interface AuthorizationCodeOptions extends TokenCacheOptions {
  clientSecret?: string;
  /** Runs the browser step again when the token expires and no refresh token is usable. */
  reauthorize?: () => Promise<AccessToken>;
}

/**
 * Holds the token of an authorization-code login. Renewal uses a refresh token when the server
 * gave one, else `reauthorize`, else fails with AuthRequiredError so the UI can ask the user.
 */
export function authorizationCodeProvider(http: HttpClient, profile: AuthProfile, initial: AccessToken | undefined, options: AuthorizationCodeOptions = {}): CachingTokenProvider {
  const provider = new CachingTokenProvider(async (previous) => {
    if (previous?.refreshToken) {
      const form: Record<string, string> = { grant_type: 'refresh_token', refresh_token: previous.refreshToken };
      if (options.clientSecret !== undefined) form.client_secret = options.clientSecret;
      try {
        return await requestToken(http, profile, form, { now: options.now });
      } catch {
        // A refused refresh token falls back to a new browser login below.
      }
    }
    if (options.reauthorize) return options.reauthorize();
    throw new AuthRequiredError('the sign-in has expired: sign in again');
  }, options);
  if (initial) provider.set(initial);
  return provider;
}
