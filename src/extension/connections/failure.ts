// Why a connection failed, in words a person can act on, instead of the HTTP text of the token request.
// Errors are read by shape (name, status, OAuth error code), not instanceof: the client's classes load with
// the session, after activation. Free of `vscode` so unit tests cover every case.
import type { Profile } from '../../api/profile';

export type FailureReason = 'secret' | 'password' | 'clientId' | 'flow' | 'unreachable' | 'timeout' | 'notService' | 'serviceError' | 'other' | 'emulatorStopped';

export interface ConnectionFailure {
  reason: FailureReason;
  /** One or two sentences: what happened and what to do. */
  message: string;
}

interface ErrorShape {
  name?: unknown;
  message?: unknown;
  status?: unknown;
  exceptionType?: unknown;
  exceptionMessage?: unknown;
  timedOut?: unknown;
  url?: unknown;
}

/** Each sign-in flow as people name it. */
export const FLOW_NAMES: Record<Profile['flow'], string> = {
  clientCredentials: 'client credentials',
  password: 'the password flow',
  authorizationCode: 'the authorization code flow',
};

/** The origin (scheme, host, port) of an address, as people write it. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function isLoopback(url: string): boolean {
  try {
    return /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/i.test(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** Explains why signing in to `profile` failed with `err`. `timeoutSeconds` is the request timeout in use. */
export function describeConnectionFailure(err: unknown, profile: Pick<Profile, 'endpoints' | 'clientId' | 'flow' | 'username' | 'kind'>, timeoutSeconds?: number): ConnectionFailure {
  const e = (err ?? {}) as ErrorShape;
  const auth = originOf(profile.endpoints.auth);
  const name = typeof e.name === 'string' ? e.name : '';
  const where = typeof e.url === 'string' ? originOf(e.url) : auth;
  if (name === 'NetworkError') {
    if (e.timedOut === true) {
      return { reason: 'timeout', message: `${where} did not answer${timeoutSeconds ? ` within ${timeoutSeconds} seconds` : ''}: check the address, or raise dam.requestTimeoutSeconds on a slow network.` };
    }
    const hint = isLoopback(where) ? 'is the emulator running?' : 'check the address and your network connection.';
    return { reason: 'unreachable', message: `Nothing answers at ${where}: ${hint}` };
  }
  if (name === 'ResponseShapeError') {
    return { reason: 'notService', message: `${where} answered, but not as the DAM service does (a web page or another API): check the address.` };
  }
  if (name === 'ApiError' && typeof e.status === 'number') {
    // The OAuth error code (`invalid_client`), or an exception type naming it (`…OAuth.InvalidClientException`).
    const code = typeof e.exceptionType === 'string' ? e.exceptionType.toLowerCase().replace(/[^a-z]/g, '') : '';
    const is = (oauth: string) => code === oauth || code.endsWith(`${oauth}exception`);
    const detail = typeof e.exceptionMessage === 'string' ? e.exceptionMessage : '';
    if (is('invalidclient')) {
      if (/unknown client|client_id/i.test(detail) && !/secret/i.test(detail)) {
        return { reason: 'clientId', message: `The server does not know the client id '${profile.clientId}': check it with whoever registered the integration.` };
      }
      return { reason: 'secret', message: `The server refused the client secret of '${profile.clientId}': sign in again with the right secret.` };
    }
    if (is('invalidgrant') && profile.flow === 'password') {
      return { reason: 'password', message: `The server refused the user name or password${profile.username ? ` of '${profile.username}'` : ''}: sign in again.` };
    }
    if (is('unauthorizedclient') || is('unsupportedgranttype')) {
      return { reason: 'flow', message: `The server does not allow ${FLOW_NAMES[profile.flow]} for client '${profile.clientId}': choose another way to sign in.` };
    }
    if (e.status === 404) {
      return { reason: 'notService', message: `${where} has no sign-in endpoint (it answered 404): check the address.` };
    }
    if (e.status === 401 || e.status === 403) {
      return { reason: 'secret', message: `The server refused the sign-in of '${profile.clientId}' (${e.status}): sign in again, or check the client's rights.` };
    }
    if (e.status >= 500) {
      return { reason: 'serviceError', message: `The sign-in service at ${where} failed (${e.status}): try again in a moment.` };
    }
  }
  const message = typeof e.message === 'string' && e.message ? e.message : String(err);
  return { reason: 'other', message };
}
