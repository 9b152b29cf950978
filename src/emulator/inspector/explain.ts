// The reason of an error answer in words and what to send instead, from the error object's type and message;
// for a path no route matches, the nearest routes (as WireMock explains a near miss).
import { finding, type Finding } from '../../core/inspector';

export interface ErrorFacts {
  status: number;
  method: string;
  path: string;
  exceptionType?: string;
  exceptionMessage?: string;
  retryAfter?: string;
  caller: { clientId: string; userId: number } | null;
  /** Whether the request carried an Authorization header. */
  hadAuthorization: boolean;
}

export interface KnownRoute {
  method: string;
  url: string;
}

function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

const segments = (p: string) => p.toLowerCase().split('/').filter(Boolean);

/** How far a path is from a route pattern: edits in static segments, plus a missing or extra segment costing 4. */
function distance(path: string[], pattern: string[]): number {
  if (Math.abs(path.length - pattern.length) > 1) return Infinity;
  let cost = 4 * Math.abs(path.length - pattern.length);
  const n = Math.min(path.length, pattern.length);
  for (let i = 0; i < n; i++) {
    const p = pattern[i];
    if (p.startsWith(':') || p === '*') continue;
    cost += levenshtein(path[i], p);
  }
  return cost;
}

const display = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** Methods of the routes whose pattern matches `path` exactly (segment by segment). */
export function methodsFor(routes: readonly KnownRoute[], path: string): string[] {
  const wanted = segments(path);
  const methods = new Set<string>();
  for (const r of routes) {
    const pattern = segments(r.url);
    if (pattern.length === wanted.length && pattern.every((s, i) => s.startsWith(':') || s === wanted[i])) methods.add(r.method);
  }
  methods.delete('HEAD');
  return [...methods].sort();
}

/** Up to three routes near `path` (best first) for the given method, or of any method when none is near. */
export function nearestRoutes(routes: readonly KnownRoute[], method: string, path: string): KnownRoute[] {
  const wanted = segments(path);
  const budget = Math.max(2, Math.floor(wanted.join('/').length / 4));
  const scored = routes
    .filter((r) => r.method !== 'HEAD' && !r.url.includes('*') && !r.url.startsWith('/_emulator'))
    .map((r) => ({ r, d: distance(wanted, segments(r.url)) + (r.method === method ? 0 : 1) }))
    .filter((s) => s.d <= budget)
    .sort((a, b) => a.d - b.d || a.r.url.length - b.r.url.length);
  const seen = new Set<string>();
  const out: KnownRoute[] = [];
  const best = scored[0]?.d ?? 0;
  for (const { r, d } of scored) {
    if (d > best + 1) break;
    const key = `${r.method} ${r.url.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(r);
    if (out.length === 3) break;
  }
  return out;
}

const HEADER_CODES: Record<string, { code: 'DE1001' | 'DE1002' | 'DE1003'; advice: string }> = {
  'user-agent': { code: 'DE1001', advice: 'Send User-Agent: <your application>/<version>.' },
  accept: { code: 'DE1002', advice: 'Send Accept: application/hal+json or application/json.' },
  'api-version': { code: 'DE1003', advice: 'Send API-Version: 1.' },
};

const TASK_ADVICE: [RegExp, string][] = [
  [/ProjectId cannot be null/i, 'Send "ProjectId" with the id of a project (GET /api/projects lists them on the emulator).'],
  [/Only Draft/i, 'A Draft project takes task status 1 (Draft), 8 (Canceled) or 9 (Removed).'],
  [/Only Projected/i, 'An InProcess or Paused project takes task status 2 (Projected), 3 (Pending), 4 (Assigned), 8 or 9.'],
  [/cannot add Task/i, 'Pick a project that is Draft, InProcess or Paused.'],
  [/BeginDate should not be greater/i, 'Send an endDate on or after beginDate.'],
  [/check the data sent/i, 'Dates are YYYY-MM-DDThh:mm:ss; numbers are integers.'],
  [/only positive numbers/i, 'Send durations of 0 or more.'],
  [/WorkScheduleID/i, "Send a workScheduleId of one of the project's calendars, or leave it out (default calendar 1)."],
  [/AutoClose/i, 'Send autoClose 0 (No) or 1 (Yes).'],
  [/AutoAccept/i, 'Send autoAccept 0 or 1.'],
  [/Only one of Assignees and TaskRoles/i, 'Send either assignees or taskRoles, not both.'],
  [/Assignees or TaskRoles specified does not exist/i, 'Send assignees (userID) or taskRoles (userId or roleID) naming existing users, groups or roles.'],
  [/StartType/i, 'Pick a start type the task status allows (spec: allowed start types by task status).'],
  [/WorkGroupActionID/i, 'Send workGroupActionID 1, 2 or 3.'],
];

/**
 * The finding explaining an error answer (4xx or 5xx), or undefined for a success. `routes` is every route the
 * emulator serves, for the near miss of a 404 without a route.
 */
export function explainError(e: ErrorFacts, routes: readonly KnownRoute[]): Finding | undefined {
  if (e.status < 400) return undefined;
  const type = e.exceptionType ?? '';
  const message = e.exceptionMessage ?? '';
  const said = message ? `: ${message.slice(0, 300)}` : '';
  const kind = type.split('.').pop() ?? '';

  if (e.status === 429) return finding('DE4290', 'The service is throttling requests (429); the body is HTML, not the error object.', `Wait ${e.retryAfter ? `Retry-After (${e.retryAfter} s)` : 'a moment'} and send the request again; never parse a 429 body as JSON.`);
  if (e.status === 504) return finding('DE5040', 'The gateway timed out (504); the body is HTML, not the error object.', 'Send the request again with backoff; never parse a 504 body as JSON.');
  if (e.status >= 500) return finding('DE5000', `The emulator failed (${e.status})${said}.`, 'A tenant answers 500 for an unexpected exception. If the request is valid, this is an emulator bug: report it with this entry.');

  switch (kind) {
    case 'MissingHeaderException': {
      const name = /'([^']+)'/.exec(message)?.[1] ?? '';
      const known = HEADER_CODES[name.toLowerCase()];
      if (known) {
        const outsideCore = known.code === 'DE1003' && !e.path.toLowerCase().startsWith('/api/core');
        return finding(
          known.code,
          `The emulator refused the request: the header '${name}' is missing${outsideCore ? ' (a live tenant does not ask for API-Version outside /api/core, the emulator does)' : ''}.`,
          known.advice,
        );
      }
      return finding('DE4000', `A required header is missing${said}.`, `Send the header the message names.`);
    }
    case 'UnsupportedApiVersionException':
      return finding('DE1004', `The API version is not supported${said}.`, 'Send API-Version: 1.');
    case 'NotAcceptableException':
      return finding('DE1005', `The service cannot answer the Accept header${said}.`, 'Send Accept: application/hal+json or application/json.');
    case 'UnauthorizedException':
      if (!e.hadAuthorization) return finding('DE1006', 'The request has no Authorization header; this endpoint is protected.', 'Get a token at {auth_url}/login/connect/token and send Authorization: Bearer <access_token>.');
      return finding('DE4010', `The access token was refused${said}`, 'Tokens expire after expires_in seconds: get a new one at {auth_url}/login/connect/token (no refresh token for client credentials) and send it as Authorization: Bearer <token>.');
    case 'AccessDeniedException': {
      const who = e.caller ? `client '${e.caller.clientId}' (user ${e.caller.userId})` : 'the caller';
      return finding('DE4030', `Access denied to ${who}${said}`, "Call with a client or user that holds the right. On the emulator, 'dam-emulator' acts as the administrator; 'dam-emulator-limited' has no administrative rights.");
    }
    case 'InvalidDownloadTokenException':
      return finding('DE4031', `The download link was refused${said}`, 'Download links expire (30 hours) and their token must be unaltered: read the file version again for a fresh download link.');
    case 'AuthenticationFailedException':
      return finding('DE4032', `The blob URL was refused${said}`, 'Use the sasUrl exactly as the upload answered it, before it expires; upload again for a fresh one.');
    case 'InvalidSearchExpressionException':
      return finding('DE4001', `The search expression is invalid${said}`, 'Check it in a .dam-query file (the editor and `dam lint` point at the fault); quote values with spaces; filter and sort parameters take no placeholders.');
    case 'InvalidCursorException':
      return finding('DE4002', `The cursor was refused${said}`, 'Pass nextCursor back verbatim with the same sort and filter, or start again without a cursor.');
    case 'MethodNotAllowedException':
      return finding('DE4050', `${e.method} is not allowed here${said}`, `Use one of the methods this path takes: ${methodsFor(routes, e.path).join(', ') || 'see /docs'}.`);
    case 'ConflictException':
      return finding('DE4090', `The request conflicts with existing data${said}`, 'Change the conflicting value (names of checks are unique) or update the existing resource with PUT.');
    case 'GoneException':
      return finding('DE4100', `The route was removed${said}`, 'Use the replacement the message names.');
    case 'PayloadTooLargeException':
      return finding('DE4130', `The body is too large${said}`, 'Upload files above 20 MB in segments (POST /uploads/segments); JSON bodies are at most 16 MB.');
    case 'UnsupportedMediaTypeException':
      return finding('DE4150', `The Content-Type is not taken here${said}`, 'Send application/json (uploads: multipart/form-data; the token endpoint: application/x-www-form-urlencoded).');
    case 'RangeNotSatisfiableException':
      return finding('DE4160', `The Range cannot be served${said}`, 'Ask for a range inside the file (Content-Range in the answer gives its size).');
    case 'TaskValidationException': {
      const advice = TASK_ADVICE.find(([re]) => re.test(message))?.[1] ?? 'See the simple-task rules of the spec; `dam tasks create` checks them before sending.';
      return finding('DE4200', `The task was refused${said}`, advice);
    }
    case 'UploadValidationException':
      return finding('DE4210', `The upload was refused${said}`, 'Follow the upload states: one file part per POST /uploads; segments zero-based without gaps; commit with the segment count; each token creates one file version.');
    case 'NotFoundException':
      if (/^No route matches/.test(message)) return explainNoRoute(e, routes);
      return finding('DE4040', `Nothing was found${said}`, 'Check the id in the path (ids are 32 hex digits without dashes); list the collection or search to find one.');
    case 'NoDataFoundException':
      return finding('DE4040', `Nothing was found${said}`, 'Check the id (32 hex digits without dashes); an upload token works once; list the collection or search to find one.');
    default:
      if (e.status === 404 && !type) return explainNoRoute(e, routes);
      if (e.status === 400 || e.status === 422) {
        return finding('DE4000', `The request was refused (${e.status}${kind ? ` ${kind}` : ''})${said}`, 'Compare the request with the OpenAPI document at {core_url}/docs (or the spec).');
      }
      return finding('DE4999', `The request was refused (${e.status}${kind ? ` ${kind}` : ''})${said}`, 'Read the message; the OpenAPI document at {core_url}/docs shows what each route takes.');
  }
}

function explainNoRoute(e: ErrorFacts, routes: readonly KnownRoute[]): Finding {
  const methods = methodsFor(routes, e.path);
  if (methods.length) {
    return finding('DE4041', `No route takes ${e.method} ${e.path.slice(0, 200)}; this path takes ${methods.join(', ')}.`, `Send ${methods.join(' or ')} instead.`);
  }
  const near = nearestRoutes(routes, e.method, e.path);
  return finding(
    'DE4041',
    `No route matches ${e.method} ${e.path.slice(0, 200)}.`,
    near.length ? `Did you mean ${near.map((r) => `${r.method} ${display(r.url)}`).join(', or ')}?` : 'See the OpenAPI document at {core_url}/docs for the routes the emulator serves.',
  );
}
