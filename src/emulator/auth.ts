// Access tokens: random opaque strings kept in the store (so they survive restarts) with a read-through cache.
import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { SYSTEM_ADMINISTRATION, type AuthHelper, type Caller, type Clock } from './caller';
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

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A token shaped as a JWT, as the live identity server issues them: public clients read its `exp` claim to know when
 * to ask again. It is still looked up whole in the store, so the signature (a random key's) proves nothing more.
 */
function jwtShaped(clientId: string, userId: number, scope: string, now: Date, expiresAt: Date): string {
  const jti = randomBytes(24).toString('base64url');
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({
    iss: 'dam-emulator',
    client_id: clientId,
    sub: String(userId),
    scope,
    iat: Math.floor(now.getTime() / 1000),
    exp: Math.floor(expiresAt.getTime() / 1000),
    jti,
  })}`;
  return `${head}.${createHmac('sha256', jti).update(head).digest('base64url')}`;
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
    const expiresAt = new Date(this.clock.now().getTime() + this.ttlSeconds * 1000);
    const token = jwtShaped(clientId, userId, scope, this.clock.now(), expiresAt);
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
    if (token.length > 4096) throw errors.invalidToken();
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

  require(request: FastifyRequest, right: string, action?: string): Caller {
    const caller = this.caller(request);
    if (!this.has(caller, right)) throw errors.forbidden(right, action);
    return caller;
  }

  requireOwner(request: FastifyRequest, ownerId: number | null, action: string): Caller {
    const caller = this.caller(request);
    if (caller.userId !== ownerId && !this.has(caller, SYSTEM_ADMINISTRATION)) throw errors.forbidden(SYSTEM_ADMINISTRATION, action);
    return caller;
  }
}
