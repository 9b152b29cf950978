// Access tokens: random opaque strings kept in the store (so they survive restarts) with a read-through cache.
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AuthHelper, Caller, Clock } from './caller';
import { errors } from './errors';
import type { Store } from './storage/store';

interface TokenRow {
  client_id: string;
  user_id: number;
  expires_at: Date;
  privileges: string[];
  language_id: string;
}

export interface IssuedToken {
  access_token: string;
  expires_in: number;
  token_type: 'Bearer';
  scope: string;
}

export class TokenService implements AuthHelper {
  private readonly cache = new Map<string, { caller: Caller; expiresAt: number }>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly ttlSeconds: number,
  ) {}

  /** Drops the cache: after a snapshot restore a token's user may have other rights, or be gone. */
  forget(): void {
    this.cache.clear();
  }

  async issue(clientId: string, userId: number, scope: string): Promise<IssuedToken> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.clock.now().getTime() + this.ttlSeconds * 1000);
    await this.store.query('INSERT INTO access_tokens (token, client_id, user_id, scope, expires_at) VALUES ($1, $2, $3, $4, $5)', [
      token,
      clientId,
      userId,
      scope,
      expiresAt,
    ]);
    return { access_token: token, expires_in: this.ttlSeconds, token_type: 'Bearer', scope };
  }

  /** Resolves a bearer token to its caller, or throws 401 when missing, unknown or expired. */
  async authenticate(authorization: string | undefined): Promise<Caller> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) throw errors.unauthorized();
    const token = match[1];
    const now = this.clock.now().getTime();
    const hit = this.cache.get(token);
    if (hit) {
      if (hit.expiresAt > now) return hit.caller;
      this.cache.delete(token);
      throw errors.invalidToken();
    }
    if (token.length > 200) throw errors.invalidToken();
    const rows = await this.store.query<TokenRow>(
      `SELECT t.client_id, t.user_id, t.expires_at, c.privileges, u.language_id
         FROM access_tokens t JOIN clients c ON c.client_id = t.client_id JOIN users u ON u.id = t.user_id WHERE t.token = $1`,
      [token],
    );
    const row = rows[0];
    if (!row) throw errors.invalidToken();
    const expiresAt = new Date(row.expires_at).getTime();
    if (expiresAt <= now) throw errors.invalidToken();
    const caller: Caller = { userId: row.user_id, clientId: row.client_id, privileges: new Set(row.privileges), languageId: row.language_id };
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(token, { caller, expiresAt });
    return caller;
  }

  caller(request: FastifyRequest): Caller {
    if (!request.caller) throw errors.unauthorized();
    return request.caller;
  }

  has(caller: Caller, right: string): boolean {
    return caller.privileges.has('*') || caller.privileges.has(right);
  }

  require(request: FastifyRequest, right: string): Caller {
    const caller = this.caller(request);
    if (!this.has(caller, right)) throw errors.forbidden(right);
    return caller;
  }
}
