// Errors as the `dam` CLI prints them: in words a person acts on. The HTTP exchange and the service's .NET
// exception type stay for --verbose and --json, where a script or a bug report wants them. Read by shape
// (name, fields), as the client's errors carry them.
import { DEFAULT_EMULATOR_URL } from './connection';

interface ErrorShape {
  name?: unknown;
  message?: unknown;
  status?: unknown;
  exceptionType?: unknown;
  exceptionMessage?: unknown;
  timedOut?: unknown;
  url?: unknown;
  cause?: unknown;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function isLoopback(origin: string): boolean {
  try {
    return /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/i.test(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** The system error code behind a failed request (`ECONNREFUSED`, `ENOTFOUND`), from the error or its causes. */
function codeOf(err: unknown): string | undefined {
  for (let e = err as ErrorShape & { code?: unknown; errno?: unknown }, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string') return e.code;
    const m = typeof e.message === 'string' ? /\b(E[A-Z]{3,})\b/.exec(e.message) : null;
    if (m) return m[1];
  }
  return undefined;
}

/** One line (or two) for stderr after `dam: `. `detailed` (--verbose, --json) keeps the exchange and exception type. */
export function cliErrorMessage(err: unknown, detailed = false): string {
  if (!(err instanceof Error)) return String(err);
  if (detailed) return err.message;
  const e = err as Error & ErrorShape;
  if (e.name === 'NetworkError') {
    const where = typeof e.url === 'string' ? originOf(e.url) : DEFAULT_EMULATOR_URL;
    if (e.timedOut === true) return `${where} did not answer in time. Check the address, or try again (--verbose shows each request).`;
    const code = codeOf(e.cause) ?? codeOf(e);
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `The host of ${where} is not known. Check the address (--url or DAM_URL) and your network.`;
    if (isLoopback(where)) return `No DAM service answers at ${where}. Start one with \`dam emulator\` or set DAM_URL.`;
    return `No DAM service answers at ${where}. Check the address (--url or DAM_URL) and your network.`;
  }
  if (e.name === 'ApiError' && typeof e.status === 'number') {
    const said = typeof e.exceptionMessage === 'string' ? e.exceptionMessage.trim() : '';
    // A refusal the service explains is its explanation; the status says which kind of refusal it was.
    if (e.status >= 400 && e.status < 500 && said && e.status !== 403) return `${/[.!?)]$/.test(said) ? said : `${said}.`} (HTTP ${e.status})`;
    const type = typeof e.exceptionType === 'string' && e.exceptionType ? ` (${e.exceptionType})` : '';
    return type ? err.message.replace(type, '') : err.message;
  }
  return err.message;
}
