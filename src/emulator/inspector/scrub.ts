// What the request journal may keep, decided once when a request is journaled, so no secret is ever stored and
// every reader (the list, the details, the live stream, `dam emulator requests`, Copy as curl, replay) reads the
// same kept form. Headers: an allowlist of names whose values are kept; any other header keeps its name and loses
// its value (Authorization keeps its scheme). Form bodies: an allowlist of field names, judged on the decoded
// name (`client%5Fsecret` is client_secret). Query strings and JSON bodies: the values of credential-like names
// (decoded, any case, `-` or `_`) are replaced, and so are the signatures and tokens of URLs inside them.

import { SCRUBBED } from '../../core/inspector';

export { SCRUBBED };

/** Words of a name whose value is a credential, judged on the decoded name in any case: tokens, secrets, passwords, keys, cookies. */
const CREDENTIAL_WORDS = String.raw`token|secret|passw|pwd|verifier|api[_-]?key|authorization|auth[_-]?code|cookie|session|signature|credential|private[_-]?key`;
const CREDENTIAL_NAME = new RegExp(CREDENTIAL_WORDS, 'i');

/** Query parameters and form fields: also authorization codes and the signatures of download links and sasUrls. */
const isSecretParam = (name: string) => CREDENTIAL_NAME.test(name) || /^(code|sig)$/i.test(name);
/** JSON properties: an upload's `token` stays (a single-use id a person needs to follow an upload; README). */
const isSecretKey = (name: string) => CREDENTIAL_NAME.test(name) && name.toLowerCase() !== 'token';

/** Header names (lower case) whose values are kept: HTTP's own, the service's, tracing. Anything else is scrubbed. */
const KEPT_HEADERS: ReadonlySet<string> = new Set([
  // HTTP
  'accept', 'accept-charset', 'accept-encoding', 'accept-language', 'accept-ranges', 'access-control-allow-credentials',
  'access-control-allow-headers', 'access-control-allow-methods', 'access-control-allow-origin', 'access-control-expose-headers',
  'access-control-max-age', 'access-control-request-headers', 'access-control-request-method', 'age', 'allow', 'cache-control',
  'connection', 'content-disposition', 'content-encoding', 'content-language', 'content-length', 'content-location', 'content-md5',
  'content-range', 'content-type', 'date', 'dnt', 'etag', 'expect', 'expires', 'host', 'if-match', 'if-modified-since',
  'if-none-match', 'if-range', 'if-unmodified-since', 'keep-alive', 'last-event-id', 'last-modified', 'link', 'location', 'origin',
  'pragma', 'priority', 'range', 'referer', 'referrer-policy', 'retry-after', 'sec-ch-ua', 'sec-ch-ua-mobile', 'sec-ch-ua-platform',
  'sec-fetch-dest', 'sec-fetch-mode', 'sec-fetch-site', 'sec-fetch-user', 'server', 'te', 'trailer', 'transfer-encoding', 'upgrade',
  'upgrade-insecure-requests', 'user-agent', 'vary', 'via', 'warning', 'x-content-type-options', 'x-frame-options', 'content-security-policy',
  'strict-transport-security', 'x-accel-buffering',
  // proxies and tracing
  'forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip', 'x-request-id', 'x-correlation-id', 'request-id',
  'traceparent', 'tracestate', 'x-requested-with',
  // the service (api-spec.md, real-service-notes.md) and the blob store's sasUrl PUT
  'api-version', 'languages', 'filter', 'sort', 'page', 'pagesize', 'skip', 'take', 'location-alias', 'disable-validations',
  'disable-rules', 'client-id', 'x-ms-blob-type', 'x-ms-version', 'x-ms-date', 'x-ms-blob-content-type', 'x-ms-client-request-id',
  // the emulator's own
  'dam-emulator-findings', 'dam-emulator-request-id',
]);

/** Headers whose value is a URL: kept, with secrets in its query scrubbed. */
const URL_HEADERS: ReadonlySet<string> = new Set(['location', 'content-location', 'link', 'referer']);

/** Headers carrying a credential the inspector can replace with a fresh token of the same caller (replay, Copy as curl). */
export const TOKEN_HEADERS: ReadonlySet<string> = new Set(['authorization', 'x-access-token']);

/** Form fields whose values are kept (the token endpoint's and the consent page's public parameters, page-hook ids). */
const KEPT_FORM_FIELDS: ReadonlySet<string> = new Set([
  'grant_type', 'scope', 'client_id', 'redirect_uri', 'response_type', 'response_mode', 'code_challenge', 'code_challenge_method',
  'state', 'nonce', 'prompt', 'username', 'audience', 'resource', 'recordid', 'fileversionid',
]);

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    // A malformed escape: judged as sent (and not kept unless it matches the allowlist as sent).
    return raw;
  }
}

/** Whether a header's value is kept as sent. */
function keptHeader(lower: string): boolean {
  return (KEPT_HEADERS.has(lower) || /^select-[a-z-]+$/.test(lower)) && !CREDENTIAL_NAME.test(lower);
}

/** A URL-encoded `a=1&b=2` list: pairs whose decoded name `keep` refuses lose their value. */
function scrubPairs(text: string, keep: (name: string) => boolean): string {
  if (!text) return text;
  return text
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const raw = eq < 0 ? pair : pair.slice(0, eq);
      if (eq < 0 || keep(decodeName(raw).trim())) return pair;
      return `${raw}=${SCRUBBED}`;
    })
    .join('&');
}

/** A raw query string (no `?`): credential-like parameters keep their name, lose their value. */
export function scrubQuery(query: string): string {
  return scrubPairs(query, (name) => !isSecretParam(name));
}

/** Secrets in the query of every URL inside a text (links in headers and answers: sasUrl, download links). */
function scrubUrlsIn(text: string): string {
  if (!text.includes('?')) return text;
  return text.replace(/\?([^#"'\s<>\\]*)/g, (_m, query: string) => `?${scrubQuery(query)}`);
}

/** One header's kept value: as sent when allowlisted, the scheme alone for Authorization, else `[scrubbed]`. */
export function scrubHeader(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (lower === 'authorization' || lower === 'proxy-authorization') {
    const scheme = /^\s*([A-Za-z][\w-]*)\s+\S/.exec(value)?.[1];
    return scheme ? `${scheme} ${SCRUBBED}` : value.trim() ? SCRUBBED : value;
  }
  if (!keptHeader(lower)) return value === '' ? value : SCRUBBED;
  return URL_HEADERS.has(lower) ? scrubUrlsIn(value) : value;
}

export interface Scrubbed {
  text: string;
  scrubbed: boolean;
}

function scrubJsonValue(value: unknown, found: { any: boolean }): unknown {
  if (typeof value === 'string') {
    const clean = scrubUrlsIn(value);
    if (clean !== value) found.any = true;
    return clean;
  }
  if (Array.isArray(value)) return value.map((v) => scrubJsonValue(v, found));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (isSecretKey(k) && v !== null && v !== '' && typeof v !== 'boolean' && typeof v !== 'number') {
        out[k] = SCRUBBED;
        found.any = true;
      } else out[k] = scrubJsonValue(v, found);
    }
    return out;
  }
  return value;
}

/** JSON property names written with escapes (`"client\u005fsecret"`) as the parser reads them, for the fallback below. */
const unescapeNames = (text: string) => text.replace(/\\u00([2-7][0-9a-fA-F])/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** `"name": "value"` (or single-quoted) whose name holds a credential word and is not exactly `token`; the value may be cut short. */
const JSON_SECRET = new RegExp(String.raw`(["'])((?!token\1)[^"'\\]*(?:${CREDENTIAL_WORDS})[^"'\\]*)\1(\s*:\s*)(["'])(?:(?!\4)[^\\]|\\.)*(?:\4|\\?$)`, 'gi');
const BEARER = /(\bBearer\s+)[A-Za-z0-9._~+/=-]+/g;

/** Text that did not parse as a whole (cut short by the journal, or not JSON): secrets found by their names. */
function scrubLooseText(text: string): string {
  let out = unescapeNames(text).replace(JSON_SECRET, (_m, q: string, name: string, colon: string, vq: string) => `${q}${name}${q}${colon}${vq}${SCRUBBED}${vq}`);
  out = out.replace(BEARER, `$1${SCRUBBED}`);
  // A form-like text (key=value&…) in a body of another type.
  if (/^[^\s{[<"']*=/.test(out)) out = scrubQuery(out);
  return scrubUrlsIn(out);
}

/** One pass that rules out most bodies before they are parsed: no credential word, no signed URL, no escaped name. */
const SUSPECT = new RegExp(String.raw`${CREDENTIAL_WORDS}|bearer|[?&](?:code|sig)=|\u00`, 'i');

/**
 * A body's kept text: a form keeps only its allowlisted fields' values; JSON loses the values of credential-like
 * properties and URL signatures (written again compactly when it held any); other text is scrubbed by names.
 */
export function scrubBody(text: string, contentType: string | null, parseJson: (text: string) => unknown): Scrubbed {
  const type = (contentType ?? '').toLowerCase();
  let out: string;
  if (type.includes('x-www-form-urlencoded')) {
    out = scrubPairs(text, (name) => KEPT_FORM_FIELDS.has(name.toLowerCase()));
  } else if (!SUSPECT.test(text)) {
    return { text, scrubbed: false };
  } else {
    let parsed: unknown;
    let ok = false;
    if (/json/.test(type) || /^\s*[{[]/.test(text)) {
      try {
        parsed = parseJson(text);
        ok = parsed !== undefined;
      } catch {
        ok = false;
      }
    }
    if (ok) {
      const found = { any: false };
      const clean = scrubJsonValue(parsed, found);
      out = found.any ? JSON.stringify(clean) : text;
    } else out = scrubLooseText(text);
  }
  return { text: out, scrubbed: out !== text };
}
