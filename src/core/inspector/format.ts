// One line per journal entry and one per finding, as the CLI prints them and the extension labels its rows.
import type { EntrySummary } from './entry';
import type { Finding } from './findings';

/** `GET /api/core/records?pageSize=5` with the query cut to keep a line readable. */
export function requestTarget(entry: Pick<EntrySummary, 'path' | 'query'>, maxQuery = 80): string {
  if (!entry.query) return entry.path;
  const q = entry.query.length > maxQuery ? `${entry.query.slice(0, maxQuery - 1)}…` : entry.query;
  return `${entry.path}?${q}`;
}

function clock(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().slice(11, 23);
}

/** `#12 13:04:05.123  400 GET /api/core/records  3 ms  curl/8.5.0` (status `---` when the client went away). */
export function formatEntryLine(entry: EntrySummary): string {
  const status = entry.status === 0 ? '---' : String(entry.status);
  const ms = entry.durationMs < 10 ? entry.durationMs.toFixed(1) : String(Math.round(entry.durationMs));
  const replay = entry.replayOf !== null ? `  (replay of #${entry.replayOf})` : '';
  return `#${entry.id} ${clock(entry.time)}  ${status} ${entry.method} ${requestTarget(entry)}  ${ms} ms  ${entry.client ?? '(no User-Agent)'}${replay}`;
}

/** `refuse DE1003 The request header … → send API-Version: 1`. */
export function formatFindingLine(f: Finding): string {
  return `${f.severity.padEnd(6)} ${f.code} ${f.message}${f.advice ? ` → ${f.advice}` : ''}`;
}

export function statusClass(status: number): '1xx' | '2xx' | '3xx' | '4xx' | '5xx' | 'none' {
  if (status >= 100 && status < 600) return `${Math.floor(status / 100)}xx` as '1xx';
  return 'none';
}
