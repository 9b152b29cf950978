// The client's error types and the `redact` helper that keeps secrets out of logs and messages.
import { z } from 'zod';

/** The service's error object (spec "Error object"), plus the OAuth error shape of the token endpoint. */
export const ErrorBodySchema = z.looseObject({
  exceptionMessage: z.string().nullish(),
  exceptionType: z.string().nullish(),
  error: z.string().nullish(),
  error_description: z.string().nullish(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export interface ApiErrorInit {
  method: string;
  url: string;
  status: number;
  exceptionType?: string;
  exceptionMessage?: string;
  /** Milliseconds the server asked us to wait (429/503 `Retry-After`), when it said so. */
  retryAfterMs?: number;
  /** A short, redacted excerpt of a non-JSON body (e.g. the HTML of a 429/504). */
  bodyExcerpt?: string;
}

/** An HTTP answer with a failure status. `message` is meant for people; the fields are for code. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly exceptionType?: string;
  readonly exceptionMessage?: string;
  readonly retryAfterMs?: number;
  readonly bodyExcerpt?: string;

  constructor(init: ApiErrorInit) {
    super(describe(init));
    this.method = init.method;
    this.url = redact(init.url);
    this.status = init.status;
    this.exceptionType = init.exceptionType;
    this.exceptionMessage = init.exceptionMessage;
    this.retryAfterMs = init.retryAfterMs;
    this.bodyExcerpt = init.bodyExcerpt;
  }
}

/** The request never got an HTTP answer (DNS, refused connection, reset, timeout). */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(
    readonly method: string,
    readonly url: string,
    readonly timedOut: boolean,
    cause: unknown,
  ) {
    super(
      `${method} ${redact(url)} ${timedOut ? 'timed out' : `failed: ${redact(cause instanceof Error ? cause.message : String(cause))}`}`,
      { cause },
    );
  }
}

/** The answer arrived but is not what the contract promises (wrong media type, schema mismatch). */
export class ResponseShapeError extends Error {
  override readonly name = 'ResponseShapeError';
}

/** Token renewal needs the user again (authorization code flow without a usable refresh token). */
export class AuthRequiredError extends Error {
  override readonly name = 'AuthRequiredError';
}

const HINTS: Record<number, string> = {
  400: 'the request was rejected as malformed (a cursor reused with another sort or filter also gives 400)',
  401: 'the access token is missing, expired or was refused; check the client id, secret and flow',
  403: 'the caller lacks the access rights for this operation',
  404: 'no such resource (a link to missing data also answers 404)',
  410: 'this route is retired',
  429: 'the service is rate limiting; retry later',
  504: 'the service timed out; retry later',
};

/** What a refused request would have done, in words, for "You lack the right to …" (403). */
export function actionOf(method: string, url: string): string {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // already a path
  }
  const p = path.toLowerCase();
  const change = method === 'DELETE' ? 'delete' : method === 'POST' ? 'create' : 'change';
  const areas: [RegExp, string][] = [
    [/\/settings?\b/, 'change settings'],
    [/\/usergroups?\b/, `${change} user groups`],
    [/\/users?\b/, `${change} users`],
    [/\/classifications?\b/, `${change} classifications`],
    [/\/fielddefinitions?\b|\/fieldgroups?\b/, `${change} field definitions`],
    [/\/checks\b/, 'define checks'],
    [/\/maintenancejobs?\b/, 'run maintenance jobs'],
    [/\/searchindex\b/, 'rebuild the search index'],
    [/\/simple-tasks\b/, 'create tasks on this project'],
    [/\/delegate\b/, 'delegate this task'],
    [/\/records?\b/, method === 'POST' ? 'create records' : `${change} this record`],
  ];
  return areas.find(([pattern]) => pattern.test(p))?.[1] ?? `${method} ${path}`;
}

function describe(init: ApiErrorInit): string {
  const where = `${init.method} ${redact(init.url)}`;
  if (init.status === 403 && init.exceptionType !== undefined && /AccessDenied/i.test(init.exceptionType)) {
    // In words first: the right that is missing is what the user needs to hear, not the HTTP exchange.
    const said = init.exceptionMessage ? redact(init.exceptionMessage) : '';
    const lead = /^you lack the right to/i.test(said) ? said : `You lack the right to ${actionOf(init.method, init.url)}${said ? `: ${said}` : '.'}`;
    return `${lead} (${where} answered 403)`;
  }
  const what = init.exceptionMessage ? redact(init.exceptionMessage) : (HINTS[init.status] ?? 'request failed');
  const type = init.exceptionType ? ` (${init.exceptionType})` : '';
  const wait = init.retryAfterMs !== undefined ? `; Retry-After ${Math.ceil(init.retryAfterMs / 1000)} s` : '';
  return `${where} answered ${init.status}: ${what}${type}${wait}`;
}

// Patterns that carry secrets in URLs, form bodies, JSON and headers. Kept as one list so the
// extension's request log and every error message are redacted the same way.
const SECRET_PATTERNS: Array<[RegExp, string]> = [
  [/(Bearer\s+)[A-Za-z0-9\-._~+/=]+/gi, '$1***'],
  [/(Basic\s+)[A-Za-z0-9+/=]+/gi, '$1***'],
  [/("(?:access_token|refresh_token|id_token|client_secret|password|code_verifier|code|access-token|token)"\s*:\s*")[^"]*(")/gi, '$1***$2'],
  [/([?&\s]|^)((?:access_token|refresh_token|id_token|client_secret|password|code_verifier|code|access-token|token|sig|signature)=)[^&\s#"]*/gi, '$1$2***'],
];

/**
 * Removes bearer tokens, client secrets, passwords, authorization codes and download tokens from a
 * text (URL, form body, JSON, header dump). Use it on anything that reaches a log.
 */
export function redact(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** A one-line, tag-free excerpt of an HTML or text body, for error messages. */
export function excerpt(body: string, max = 160): string {
  const text = body
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return redact(text.length > max ? `${text.slice(0, max - 1)}…` : text);
}
