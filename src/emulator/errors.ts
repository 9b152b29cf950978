// The one home of every error the emulator answers: named constructors producing the spec's error object.

/** The error object of the spec plus the two always-null members the live service sends. */
export interface ErrorBody {
  exceptionMessage: string;
  exceptionType: string;
  stackTrace: null;
  innerException: null;
}

/** An error that knows its HTTP status and body; the server's error handler answers it verbatim. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly exceptionType: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): ErrorBody {
    return { exceptionMessage: this.message, exceptionType: this.exceptionType, stackTrace: null, innerException: null };
  }
}

const ns = 'Dam.Core';

const MEDIA_TYPES: Record<string, string> = {
  json: 'application/json',
  multipart: 'multipart/form-data',
  form: 'application/x-www-form-urlencoded',
  raw: 'the raw bytes',
};

/**
 * Named constructors. Other areas add theirs by extending this object (e.g. `errors.taskRule`), so each
 * status/type pairing is defined once.
 */
export const errors = {
  badRequest: (message: string) => new ApiError(400, `${ns}.Common.BadRequestException`, message),
  validation: (message: string) => new ApiError(400, `${ns}.Common.ValidationException`, message),
  invalidSearchExpression: (message: string) => new ApiError(400, `${ns}.Search.InvalidSearchExpressionException`, message),
  invalidCursor: (message: string) => new ApiError(400, `${ns}.Search.InvalidCursorException`, message),
  malformedBody: (message: string) => new ApiError(400, `${ns}.Common.MalformedRequestException`, message),
  missingHeader: (header: string) => new ApiError(400, `${ns}.Common.MissingHeaderException`, `The request header '${header}' is required.`),
  unsupportedApiVersion: (version: string) =>
    new ApiError(400, `${ns}.Common.UnsupportedApiVersionException`, `API version '${version}' is not supported; supported versions: 1.`),
  unauthorized: (message = 'Authorization has been denied for this request.') =>
    new ApiError(401, `${ns}.Security.UnauthorizedException`, message, { 'WWW-Authenticate': 'Bearer' }),
  invalidToken: () =>
    new ApiError(401, `${ns}.Security.UnauthorizedException`, 'The access token is missing, unknown or expired.', {
      'WWW-Authenticate': 'Bearer error="invalid_token"',
    }),
  /** A download URI whose security token is missing, altered or expired. */
  downloadDenied: (message: string) => new ApiError(403, `${ns}.Security.InvalidDownloadTokenException`, message),
  rangeNotSatisfiable: (message: string, size: number) =>
    new ApiError(416, `${ns}.Common.RangeNotSatisfiableException`, message, { 'Content-Range': `bytes */${size}` }),
  /** 403 naming the right and, when the route says, what it would have allowed ("change settings"). */
  forbidden: (right: string, action?: string) =>
    new ApiError(
      403,
      `${ns}.Security.AccessDeniedException`,
      action ? `You lack the right to ${action}: the caller does not hold '${right}'.` : `Access denied: the caller lacks the right '${right}'.`,
    ),
  notFound: (message = 'The requested resource does not exist.') => new ApiError(404, `${ns}.Common.NotFoundException`, message),
  noDataFound: (what: string, id: string) => new ApiError(404, `${ns}.Common.NoDataFoundException`, `No ${what} with id '${id}' was found.`),
  /** Missing data looked up by something other than its id (a name path): still the service's NoDataFoundException. */
  noDataMatches: (message: string) => new ApiError(404, `${ns}.Common.NoDataFoundException`, message),
  routeNotFound: (method: string, url: string) => new ApiError(404, `${ns}.Common.NotFoundException`, `No route matches ${method} ${url}.`),
  methodNotAllowed: (method: string) => new ApiError(405, `${ns}.Common.MethodNotAllowedException`, `Method ${method} is not allowed here.`),
  notAcceptable: (accept: string) =>
    new ApiError(406, `${ns}.Common.NotAcceptableException`, `Cannot answer '${accept}'; use application/hal+json or application/json.`),
  conflict: (message: string) => new ApiError(409, `${ns}.Common.ConflictException`, message),
  gone: (replacement: string) =>
    new ApiError(410, `${ns}.Common.GoneException`, `This route was deprecated and has been removed; use ${replacement} instead.`),
  payloadTooLarge: (message = 'The request body is too large.') => new ApiError(413, `${ns}.Common.PayloadTooLargeException`, message),
  uriTooLong: (length: number, limit: number) =>
    new ApiError(414, `${ns}.Common.UriTooLongException`, `The request URI is ${length} characters long; the limit is ${limit}. Send long filters in a POST search body.`),
  headersTooLarge: (message = 'The request headers are too large.') => new ApiError(431, `${ns}.Common.RequestHeaderFieldsTooLargeException`, message),
  /** The body's Content-Type is not one the route takes; names what was sent and what to send. */
  unsupportedMediaType: (type: string, accepted: readonly string[] = ['json']) =>
    new ApiError(
      415,
      `${ns}.Common.UnsupportedMediaTypeException`,
      `Content type '${type.slice(0, 100)}' is not supported here; send ${accepted.map((k) => MEDIA_TYPES[k] ?? k).join(' or ')}.`,
    ),
  /** A request body that is not readable JSON (or not UTF-8). */
  malformedJson: (detail: string) => new ApiError(400, `${ns}.Common.MalformedRequestException`, `The request body is not valid JSON: ${detail}`),
  /** A simple-task rule broken: the spec's message verbatim; 404 when the named data does not exist. */
  taskRule: (status: 400 | 404, message: string) =>
    new ApiError(status, status === 404 ? `${ns}.Common.NoDataFoundException` : `${ns}.WorkManagement.TaskValidationException`, message),
  /** 403 whose message names the rights a combination of which is needed (task creation). */
  accessDeniedBecause: (message: string) => new ApiError(403, `${ns}.Security.AccessDeniedException`, message),
  /** An upload broke a rule of the upload service (file name, segment indexes, state). */
  uploadRule: (message: string, status: 400 | 409 = 400) => new ApiError(status, `${ns}.Upload.UploadValidationException`, message),
  /** A request to the emulator's devtools (/_emulator) from a caller they do not answer. */
  devtoolsForbidden: (message: string) => new ApiError(403, 'Dam.Emulator.DevtoolsAccessDeniedException', message),
  /** A blob (sasUrl) request whose signature is missing, wrong or expired. */
  invalidSignature: (message: string) => new ApiError(403, `${ns}.Security.AuthenticationFailedException`, message),
  /** The emulator's own routes (/_emulator/…) asked from another machine while it serves loopback only. */
  devtoolsLoopbackOnly: () =>
    new ApiError(403, `${ns}.Security.AccessDeniedException`, 'The emulator devtools answer only on this machine; start the emulator with --host to reach them from elsewhere.'),
  devtoolsFromPage: (origin: string) =>
    new ApiError(403, `${ns}.Security.AccessDeniedException`, `The emulator devtools do not answer requests made by a web page of another origin (${origin}); call them from a program, the dam CLI or the extension.`),
  /** A saved emulator state that cannot be used as asked (missing files, another emulator version, still busy). */
  snapshotUnusable: (message: string, status: 400 | 409 = 409) => new ApiError(status, `${ns}.Emulator.SnapshotException`, message),
  /** A devtools resource at its bound (the request stream's readers): try again later, or after closing one. */
  devtoolsBusy: (message: string, retryAfterSeconds: number) =>
    new ApiError(503, 'Dam.Emulator.DevtoolsBusyException', message, { 'Retry-After': String(retryAfterSeconds) }),
  /** A saved emulator state with a file missing, cut short or altered: refused before anything was replaced. */
  snapshotDamaged: (snapshot: string, file: string, reason: string) =>
    new ApiError(409, `${ns}.Emulator.SnapshotDamagedException`, `Snapshot '${snapshot}' is damaged: ${file} ${reason}. Nothing was changed; save it again or delete it.`),
};

export type ErrorFactory = typeof errors;
