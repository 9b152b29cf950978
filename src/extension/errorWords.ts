// Errors as a person reads them in a notification or a panel. Duck-typed on the client's ApiError (its name and
// fields) so the activation bundle does not load the client's error module and zod with it.

interface ServiceError {
  name: string;
  status: number;
  exceptionType?: string;
  exceptionMessage?: string;
}

function isServiceError(err: Error): err is Error & ServiceError {
  return err.name === 'ApiError' && typeof (err as Partial<ServiceError>).status === 'number';
}

/**
 * What the service said, without the HTTP exchange (method, address, status and exception type stay in the error's
 * message, which goes to the log): a refusal the service explains (a 4xx with its error object) is its explanation,
 * a 403 names the missing right; anything else keeps its message. Pass the result through the log's scrubber.
 */
export function inWords(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (!isServiceError(err)) return err.message;
  const said = (err.exceptionMessage ?? '').trim();
  if (err.status === 403 && /AccessDenied/i.test(err.exceptionType ?? '')) return err.message.replace(/ \([A-Z]+ \S+ answered 403\)$/, '');
  if (err.status >= 400 && err.status < 500 && said) return /[.!?)]$/.test(said) ? said : `${said}.`;
  return err.message;
}
