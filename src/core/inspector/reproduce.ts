// Turns a journal entry back into something a person can run: a curl command that sends the same request
// (headers as sent, missing ones kept missing, a fresh token in place of the scrubbed one), and the `dam`
// command that does the same job the right way, where one exists.
import { EMULATOR_CLIENT, EMULATOR_LIMITED_CLIENT } from '../contract';
import type { EntryDetail } from './entry';

export interface Reproduction {
  command: string;
  /** What the command cannot reproduce (a body the journal did not keep, a scrubbed secret). */
  notes: string[];
}

/** A word for a POSIX shell, in single quotes. */
export function shellQuote(text: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(text)) return text;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Headers curl must not copy: it sets them itself from the URL and body, or they belong to one connection. */
const NOT_COPIED = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'accept-encoding', 'expect', 'te', 'upgrade', 'authorization', 'x-access-token', 'cookie', 'dam-emulator-replay-of']);

/** What the emulator's journal writes in place of a value it does not keep. */
export const SCRUBBED = '[scrubbed]';

const CONTRACT_CLIENTS: Record<string, string> = {
  [EMULATOR_CLIENT.clientId]: EMULATOR_CLIENT.clientSecret,
  [EMULATOR_LIMITED_CLIENT.clientId]: EMULATOR_LIMITED_CLIENT.clientSecret,
};

/** A shell expression printing a fresh access token of a contract client (whose secret the emulator contract publishes). */
export function tokenSubshell(origin: string, clientId: string): string | undefined {
  const secret = CONTRACT_CLIENTS[clientId];
  if (secret === undefined) return undefined;
  const form = ['grant_type=client_credentials', 'scope=api', `client_id=${clientId}`, `client_secret=${secret}`].map((f) => `-d ${f}`).join(' ');
  return `$(curl -sS ${origin}/login/connect/token ${form} | sed -E 's/.*"access_token" *: *"([^"]+)".*/\\1/')`;
}

function url(entry: EntryDetail, origin: string): string {
  return `${origin}${entry.path}${entry.query ? `?${entry.query}` : ''}`;
}

export function curlCommand(entry: EntryDetail, origin: string): Reproduction {
  const notes: string[] = [];
  const parts = ['curl', '-sS', entry.method === 'HEAD' ? '-I' : '-i', '-g'];
  if (entry.method !== 'HEAD' && (entry.method !== 'GET' || entry.request.body)) parts.push('-X', entry.method);
  parts.push(shellQuote(url(entry, origin)));
  if (entry.query.includes(SCRUBBED)) notes.push('A secret in the query string was scrubbed; the command sends [scrubbed] in its place.');
  const names = new Set(entry.request.headers.map(([name]) => name.toLowerCase()));
  for (const [name, value] of entry.request.headers) {
    if (NOT_COPIED.has(name.toLowerCase())) continue;
    parts.push('-H', shellQuote(`${name}: ${value}`));
    if (value === SCRUBBED) notes.push(`The value of ${name} was not kept by the journal; the command sends [scrubbed] in its place.`);
  }
  // curl sends these on its own unless told not to; a request that lacked them must still lack them.
  if (!names.has('user-agent')) parts.push('-H', shellQuote('User-Agent:'));
  if (!names.has('accept')) parts.push('-H', shellQuote('Accept:'));
  // The token headers (Authorization, and X-Access-Token of the work-management API) get a fresh token of the same caller.
  for (const [name, prefix] of [['Authorization', 'Bearer '], ['X-Access-Token', '']] as const) {
    const value = entry.request.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
    if (value === undefined) continue;
    const fresh = entry.caller && (prefix === '' || /^bearer\s/i.test(value)) ? tokenSubshell(origin, entry.caller.clientId) : undefined;
    if (fresh) parts.push('-H', `"${name}: ${prefix}${fresh}"`);
    else {
      parts.push('-H', shellQuote(`${name}: ${value}`));
      notes.push(
        entry.caller
          ? `The token of client '${entry.caller.clientId}' was scrubbed: put a token of that client in place of [scrubbed].`
          : `The ${name} header is sent as scrubbed, as invalid as the original was.`,
      );
    }
  }
  const body = entry.request.body;
  if (body) {
    if (body.text !== undefined && !body.truncated) {
      if (!names.has('content-type')) parts.push('-H', shellQuote('Content-Type:'));
      parts.push('--data-raw', shellQuote(body.text));
      if (body.scrubbed) notes.push('Secrets in the body were scrubbed; the command sends [scrubbed] in their place.');
    } else if (body.text !== undefined) {
      parts.push('--data-raw', shellQuote(body.text));
      notes.push(`The body was cut at ${body.text.length} characters by the journal; the command sends only that much.`);
    } else {
      notes.push(`The body was not kept (${body.note ?? 'binary'}); attach it yourself (e.g. -F file1=@FILE for an upload).`);
    }
  }
  return { command: parts.join(' '), notes };
}

function header(entry: EntryDetail, name: string): string | undefined {
  return entry.request.headers.find(([n]) => n.toLowerCase() === name)?.[1];
}

function jsonBody(entry: EntryDetail): Record<string, unknown> | undefined {
  const body = entry.request.body;
  if (!body?.text || body.truncated) return undefined;
  try {
    const parsed: unknown = JSON.parse(body.text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Case-insensitive property of a JSON object, as the service binds them. */
function prop(obj: Record<string, unknown> | undefined, name: string): unknown {
  if (!obj) return undefined;
  const key = Object.keys(obj).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : obj[key];
}

/**
 * The `dam` command doing what the request did, with `--url` naming the emulator; undefined when the CLI has no
 * such command. It sends the spec's headers itself, so it shows the right way rather than repeating a fault.
 */
export function damCommand(entry: EntryDetail, origin: string): string | undefined {
  const path = entry.path;
  const lower = path.toLowerCase();
  const tail = ['--url', shellQuote(origin)];
  const query = new URLSearchParams(entry.query);
  if (entry.method === 'GET' && lower.startsWith('/api/core/') && !/^\/api\/core\/(docs|supportedversions)?\/?$/.test(lower)) {
    const args = ['dam', 'get', shellQuote(`${path.slice('/api/core/'.length)}${entry.query ? `?${entry.query}` : ''}`)];
    const selects = entry.request.headers
      .filter(([n]) => /^select-[a-z]+$/i.test(n) && !/^select-resolve/i.test(n))
      .map(([n, v]) => `${n.slice('select-'.length).toLowerCase()}=${v.replace(/\s+/g, '')}`);
    if (selects.length) args.push('--select', shellQuote(selects.join(';')));
    const recordFields = header(entry, 'select-record-fields');
    if (recordFields) args.push('--record-fields', shellQuote(recordFields));
    const languages = header(entry, 'languages');
    if (languages) args.push('--languages', shellQuote(languages));
    if (/^application\/json/i.test(header(entry, 'accept') ?? '')) args.push('--plain');
    return [...args, ...tail].join(' ');
  }
  const search = /^\/api\/core\/search\/(records|classifications)\/?$/.exec(lower);
  if (entry.method === 'POST' && search) {
    const body = jsonBody(entry);
    const se = prop(body, 'searchExpression') as Record<string, unknown> | undefined;
    const expression = prop(se, 'expression');
    if (typeof expression !== 'string') return undefined;
    const args = ['dam', 'search', shellQuote(expression)];
    if (search[1] === 'classifications') args.push('--classifications');
    const named = prop(se, 'namedParameters');
    if (named && typeof named === 'object') for (const [k, v] of Object.entries(named)) args.push('--param', shellQuote(`${k.replace(/^@/, '')}=${String(v)}`));
    if (prop(se, 'supportWildcards') === false || prop(se, 'supportWildcards') === 'false') args.push('--no-wildcards');
    const operator = prop(se, 'defaultLogicalOperator');
    if (typeof operator === 'string') args.push('--operator', shellQuote(operator));
    const sort = prop(body, 'sort') ?? query.get('sort');
    if (typeof sort === 'string' && sort) args.push('--sort', shellQuote(sort));
    const pageSize = query.get('pageSize') ?? query.get('take');
    if (pageSize) args.push('--page-size', shellQuote(pageSize));
    return [...args, ...tail].join(' ');
  }
  if (entry.method === 'GET' && /^\/analytics\/?$/.test(lower) && query.get('query')) {
    const file = 'query.dam-analytics.json';
    return `printf '%s\\n' ${shellQuote(query.get('query')!)} > ${file} && dam analytics run ${file} ${tail.join(' ')}`;
  }
  if (entry.method === 'POST' && lower === '/api/resources/query') {
    const ids = prop(jsonBody(entry), 'query');
    if (typeof ids !== 'string' || !ids.trim()) return undefined;
    return ['dam', 'strings', 'resolve', ...ids.split(',').map((s) => shellQuote(s.trim())).filter((s) => s !== "''"), ...tail].join(' ');
  }
  if (entry.method === 'POST' && /^\/api\/core\/maintenancejobs\/?$/.test(lower)) {
    const body = jsonBody(entry);
    const actions = prop(body, 'actions');
    const targets = prop(body, 'targets');
    if (!Array.isArray(actions) || !Array.isArray(targets)) return undefined;
    const renditions = actions.find((a) => typeof a === 'object' && a !== null && String(prop(a as Record<string, unknown>, 'action')).toLowerCase() === 'createrenditions') as
      | Record<string, unknown>
      | undefined;
    const presets = prop(prop(renditions, 'parameters') as Record<string, unknown> | undefined, 'presets');
    const records = targets.map((t) => (typeof t === 'object' && t !== null ? prop(t as Record<string, unknown>, 'recordId') : undefined)).filter((r): r is string => typeof r === 'string');
    if (!Array.isArray(presets) || records.length === 0) return undefined;
    return ['dam', 'renditions', ...records.map(shellQuote), ...presets.flatMap((p) => ['--preset', shellQuote(String(p))]), ...tail].join(' ');
  }
  const delegate = /^\/api\/tasks\/(\d+)\/delegate\/?$/.exec(lower);
  if (entry.method === 'POST' && delegate) {
    const body = jsonBody(entry);
    const to = prop(body, 'newUserId');
    const assignee = prop(body, 'taskAssigneeId');
    if (to === undefined) return undefined;
    return ['dam', 'tasks', 'delegate', delegate[1], '--to', shellQuote(String(to)), ...(assignee !== undefined ? ['--assignee', shellQuote(String(assignee))] : []), ...tail].join(' ');
  }
  return undefined;
}
