// What the request journal never keeps: bearer tokens, client secrets, passwords, `access-token` fields, PKCE
// verifiers and codes, and the signatures of sasUrl and download links. Applied to headers, query strings and
// body text before anything is stored, including text cut short (a secret split at the cut is still removed).

export const SCRUBBED = '[scrubbed]';

/** JSON properties and form fields whose value is a secret. Upload tokens stay: they are single-use ids a person needs to follow an upload. */
const SECRET_FIELD = String.raw`access[_-]?token|refresh[_-]?token|id[_-]?token|client[_-]?secret|password|passwd|code[_-]?verifier|api[_-]?key|secret|authorization`;
/** Query parameters whose value is a secret: the above, plus download-link and sasUrl signatures and authorization codes. */
const SECRET_PARAM = String.raw`${SECRET_FIELD}|sig|token|code|auth-code`;

const PARAM_IN_TEXT = new RegExp(String.raw`([?&](?:${SECRET_PARAM})=)[^&#"'\s<>\\]+`, 'gi');
const JSON_DOUBLE = new RegExp(String.raw`("(?:${SECRET_FIELD})"\s*:\s*)"(?:[^"\\]|\\.)*(?:"|\\?$)`, 'gi');
const JSON_SINGLE = new RegExp(String.raw`('(?:${SECRET_FIELD})'\s*:\s*)'(?:[^'\\]|\\.)*(?:'|\\?$)`, 'gi');
const FORM_FIELD = new RegExp(String.raw`(^|&)((?:${SECRET_PARAM})=)[^&#"'\s<>\\]*`, 'gi');
const BEARER = /(\bBearer\s+)[A-Za-z0-9._~+/=-]+/g;
const SECRET_PARAM_NAME = new RegExp(String.raw`^(?:${SECRET_PARAM})$`, 'i');
/** One pass that rules out most bodies before the five that replace. */
const SUSPECT = /token|secret|passw|verifier|api[_-]?key|authorization|bearer|sig=|code=|auth-code/i;

export interface Scrubbed {
  text: string;
  scrubbed: boolean;
}

/** Body text of any kind: JSON (double or single quoted), form fields, URLs inside it, bearer tokens. */
export function scrubText(text: string): Scrubbed {
  if (!SUSPECT.test(text)) return { text, scrubbed: false };
  let out = text.replace(JSON_DOUBLE, `$1"${SCRUBBED}"`);
  out = out.replace(JSON_SINGLE, `$1'${SCRUBBED}'`);
  out = out.replace(FORM_FIELD, `$1$2${SCRUBBED}`);
  out = out.replace(PARAM_IN_TEXT, `$1${SCRUBBED}`);
  out = out.replace(BEARER, `$1${SCRUBBED}`);
  return { text: out, scrubbed: out !== text };
}

/** A raw query string (no `?`): secret parameters keep their name, lose their value. */
export function scrubQuery(query: string): string {
  if (!query) return query;
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed escape: judge the name as sent.
      }
      return SECRET_PARAM_NAME.test(name) ? `${pair.slice(0, eq)}=${SCRUBBED}` : pair;
    })
    .join('&');
}

const HIDDEN_HEADERS = new Set(['cookie', 'set-cookie', 'proxy-authorization', 'x-api-key']);
const URL_HEADERS = new Set(['location', 'content-location', 'link', 'referer']);

/** One header value: the Authorization scheme stays visible (`Bearer [scrubbed]`), cookies go entirely. */
export function scrubHeader(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (lower === 'authorization') {
    const scheme = /^\s*([A-Za-z][\w-]*)\s+\S/.exec(value)?.[1];
    return scheme ? `${scheme} ${SCRUBBED}` : value.trim() ? SCRUBBED : value;
  }
  if (HIDDEN_HEADERS.has(lower)) return SCRUBBED;
  if (URL_HEADERS.has(lower)) return value.replace(PARAM_IN_TEXT, `$1${SCRUBBED}`);
  return value;
}
