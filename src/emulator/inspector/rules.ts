// The inspector's request rules: where a request breaks the spec (headers per endpoint, documented enums, the
// Limits table, deprecated functionality), each a finding saying whether a tenant would refuse or only frown.
// They judge the request alone, whatever the emulator answered; the reason of an error answer is explain.ts's.
import { checkAnalyticsQuery } from '../../core/analytics';
import { CHECK_ACTION_TYPE_ID } from '../../core/contract';
import { finding, type Finding, type FindingSeverity } from '../../core/inspector';
import { TENANT_LIMITS } from '../../core/limits';
import { readSimpleTaskRequest } from '../../core/tasks';
import type { HeaderPolicy } from '../context';
import { isAcceptable, supportsApiVersion } from '../hal';

export interface RequestFacts {
  method: string;
  /** The path as sent (no query). */
  path: string;
  query: URLSearchParams;
  /** Lower-case names, as Node gives them. */
  headers: Record<string, string | string[] | undefined>;
  /** The matched route's header policy; undefined when no route matched. */
  policy: HeaderPolicy | undefined;
  /** The parsed body (JSON value, form fields), undefined when none was read. */
  body: unknown;
  /** Whether the request carried a body (declared length above 0, or chunked). */
  hasBody: boolean;
  /** Declared body size, when given. */
  bodyBytes: number | null;
  now: Date;
}

/** The facts with what every rule needs computed once: the path in lower case without a trailing slash. */
interface Facts extends RequestFacts {
  lower: string;
}

/** Spec, Versioning 4: the date the deprecated functionality stops working. */
export const DEPRECATION_DATE = new Date('2026-06-01T00:00:00Z');

const FORBIDDEN_FILE_NAME = /[<>:"/\\|?*]/;
const OUTCOMES = ['pass', 'fail', 'warning', 'info'];
const RECORD_STATUSES = ['draft', 'released', 'archived'];
const LOCATION_ALIASES = ['us1', 'eu2', 'au1', 'cn1'];
const SINGLE_UPLOAD_MAX = TENANT_LIMITS.singleUploadMax;
const PAGE_SIZE_MAX = 1000;
const RECORDS_PAGE_SIZE_MAX = 100;

function header(facts: RequestFacts, name: string): string | undefined {
  const v = facts.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Case-insensitive property, as the service binds JSON names. */
function prop(obj: unknown, name: string): unknown {
  if (!isRecord(obj)) return undefined;
  if (name in obj) return obj[name];
  const lower = name.toLowerCase();
  for (const key of Object.keys(obj)) if (key.toLowerCase() === lower) return obj[key];
  return undefined;
}

function has(obj: unknown, name: string): boolean {
  const v = prop(obj, name);
  return v !== undefined && v !== null;
}

/** A query parameter (any case of its name) or, as the service also reads them, a request header of that name. */
function param(facts: RequestFacts, name: string): string | undefined {
  const lower = name.toLowerCase();
  if (facts.query.size > 0) for (const [key, value] of facts.query) if (key.toLowerCase() === lower) return value;
  return header(facts, lower);
}

function deprecatedSeverity(now: Date): FindingSeverity {
  return now.getTime() >= DEPRECATION_DATE.getTime() ? 'refuse' : 'frown';
}

function deprecatedWhen(now: Date): string {
  return now.getTime() >= DEPRECATION_DATE.getTime() ? 'stopped working on 2026-06-01' : 'stops working on 2026-06-01';
}

const TOKEN_ADVICE = 'POST {auth_url}/login/connect/token with grant_type=client_credentials, scope=api, client_id and client_secret (form-encoded), then send Authorization: Bearer <access_token>';

function headerRules(f: Facts, out: Finding[]): void {
  const policy = f.policy;
  if (policy === undefined || policy === 'docs' || policy === 'login' || policy === 'devtools') return;
  if (!header(f, 'user-agent')) out.push(finding('DE1001', 'The request has no User-Agent header; the spec requires it on every endpoint except /docs.', 'Send User-Agent: <your application>/<version>.'));
  if (policy === 'download') return;
  const accept = header(f, 'accept');
  if (!accept) out.push(finding('DE1002', 'The request has no Accept header; the spec requires it here.', 'Send Accept: application/hal+json (links and embedded resources) or application/json (plain).'));
  else if (!isAcceptable(accept)) out.push(finding('DE1005', `Accept '${accept.slice(0, 80)}' names no media type the service answers.`, 'Send Accept: application/hal+json or application/json.'));
  if (policy !== 'api') return;
  const authorization = header(f, 'authorization');
  if (!authorization) out.push(finding('DE1006', 'The request has no Authorization header; this endpoint is protected.', TOKEN_ADVICE + '.'));
  else if (!/^Bearer\s+\S+\s*$/i.test(authorization)) {
    // Only a scheme is named: a bare value (a token sent without one) is a secret, and findings are kept and shown.
    const scheme = /^\s*([A-Za-z][\w-]{0,19})\s+\S/.exec(authorization)?.[1];
    out.push(finding('DE1007', `Authorization ${scheme ? `uses '${scheme}'` : 'carries a value without a scheme'}, not a Bearer token; the service takes only OAuth 2.0 bearer tokens.`, TOKEN_ADVICE + '.'));
  }
  const version = header(f, 'api-version');
  const core = f.lower.startsWith('/api/core');
  if (version === undefined || version.trim() === '') {
    if (core) out.push(finding('DE1003', 'The request has no API-Version header; every content-API endpoint except /, /supportedVersions, /download and /docs requires it.', 'Send API-Version: 1.'));
  } else if (!supportsApiVersion(version)) {
    out.push(finding('DE1004', `API-Version '${version.slice(0, 20)}' is not a version the service supports (GET /supportedVersions lists them).`, 'Send API-Version: 1.'));
  }
}

function bodyRules(f: Facts, out: Finding[]): void {
  if (f.policy === 'devtools') return;
  const path = f.lower;
  const type = (header(f, 'content-type') ?? '').toLowerCase();
  if (f.hasBody && !type) {
    out.push(finding('DE1008', 'The request has a body but no Content-Type header.', 'Send Content-Type: application/json (uploads: multipart/form-data; the token endpoint: application/x-www-form-urlencoded).'));
    return;
  }
  if (f.method === 'POST' && path === '/login/connect/token' && type && !type.startsWith('application/x-www-form-urlencoded')) {
    out.push(finding('DE1009', `The token endpoint takes application/x-www-form-urlencoded, not '${type.slice(0, 60)}'.`, 'Send the fields form-encoded: grant_type=client_credentials&scope=api&client_id=…&client_secret=….'));
  }
  if (f.method === 'POST' && path === '/api/resources/query' && !type.startsWith('application/json')) {
    out.push(finding('DE1009', `POST /api/resources/query needs Content-Type: application/json (spec), got '${type.slice(0, 60) || 'none'}'.`, 'Send {"query": "id1,id2"} with Content-Type: application/json.'));
  }
  // POST /uploads also takes JSON: the spec's writable blob location (the bytes then go to its sasUrl).
  const blobLocation = path === '/uploads' && /^application\/(.+\+)?json/.test(type);
  if (f.method === 'POST' && (path === '/uploads' || /^\/uploads\/segments\/[^/]+$/.test(path)) && f.hasBody && !type.startsWith('multipart/form-data') && !blobLocation) {
    out.push(finding('DE1009', `The upload service takes the file as multipart/form-data, not '${type.slice(0, 60)}'; raw binary bodies are not accepted on /uploads.`, 'Send one file part (e.g. "file1") in a multipart/form-data body.'));
  }
}

function urlRules(f: Facts, out: Finding[]): void {
  const path = f.lower;
  if (f.query.size === 0 || path.startsWith('/download') || path.startsWith('/uploads/blobs')) return;
  const secrets = [...f.query.keys()].filter((k) => /^(client[_-]?secret|password|access[_-]?token|refresh[_-]?token)$/i.test(k));
  if (secrets.length) {
    out.push(finding('DE1010', `The URL carries ${secrets.map((s) => `'${s}'`).join(', ')}; URLs end up in server, proxy and browser logs.`, 'Send credentials in the form body of the token request and tokens in the Authorization header.'));
  }
}

function headerValueRules(f: Facts, out: Finding[]): void {
  const alias = header(f, 'location-alias');
  if (alias !== undefined && f.lower.startsWith('/download') && !LOCATION_ALIASES.includes(alias.trim().toLowerCase())) {
    out.push(finding('DE1011', `Location-Alias '${alias.slice(0, 20)}' is none of ${LOCATION_ALIASES.join(', ')}; the service serves the file from its default location.`, `Send one of ${LOCATION_ALIASES.join(', ')}, or leave the header out.`));
  }
  const resolve = header(f, 'select-resolve-default-values');
  if (resolve !== undefined && resolve.trim() !== '' && !/^(true|false)$/i.test(resolve.trim())) {
    out.push(finding('DE1012', `select-resolve-default-values '${resolve.slice(0, 20)}' is neither true nor false; the service treats it as absent (true).`, 'Send true or false.'));
  }
}

function pagingRules(f: Facts, out: Finding[]): void {
  const path = f.lower;
  const isSearch = f.method === 'POST' && /^\/api\/core\/search\/(records|classifications)$/.test(path);
  if (!path.startsWith('/api/core/') || (f.method !== 'GET' && !isSearch)) return;
  const recordsCap = path === '/api/core/records' || path === '/api/core/search/records';
  const cap = recordsCap ? RECORDS_PAGE_SIZE_MAX : PAGE_SIZE_MAX;
  for (const name of ['pageSize', 'take', 'skip', 'page']) {
    const value = param(f, name);
    if (value === undefined || value === '') continue;
    if (!/^\s*\d+\s*$/.test(value)) {
      out.push(finding('DE2002', `'${name}' is '${value.slice(0, 20)}', not a non-negative integer.`, `Send ${name} as a whole number (e.g. ${name}=50).`));
      continue;
    }
    if ((name === 'pageSize' || name === 'take') && Number(value) > cap) {
      out.push(
        finding(
          'DE2001',
          `${name} ${Number(value)} is above the cap of ${cap} for this route: a tenant silently answers pages of ${cap}.`,
          `Ask for at most ${cap} and follow ${recordsCap ? 'nextCursor' : "_links.next"} for the rest.`,
        ),
      );
    }
  }
  for (const name of ['filter', 'sort']) {
    const value = param(f, name);
    if (value && hasPlaceholder(value)) {
      out.push(finding('DE2003', `The ${name} parameter has a placeholder (@Name or ?); in a query string or header ${name} takes only the plain form.`, 'Write the values into the expression, or use POST /search/records with parameters / namedParameters.'));
    }
  }
}

/** `@Name` or a lone `?` value outside quoted text. */
function hasPlaceholder(expression: string): boolean {
  const bare = expression.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
  return /(^|[\s(=<>,])@[A-Za-z_]/.test(bare) || /(=|<>|<=|>=|<|>|\bin)\s*\(?\s*\?(\s|\)|,|$)/i.test(bare);
}

function looksLikeMarkdown(text: string): boolean {
  return /\*\*[^*]+\*\*|__[^_]+__|`[^`]+`|\[[^\]]+\]\([^)]+\)|^#{1,6}\s|^\s*[-*]\s+\S/m.test(text);
}

function contentRules(f: Facts, out: Finding[]): void {
  const path = f.lower;
  const body = f.body;
  const writes = f.method === 'POST' || f.method === 'PUT' || f.method === 'PATCH';
  if (!writes || !isRecord(body)) return;

  if (/^\/api\/core\/records?(\/[^/]+)?$/.test(path)) {
    const status = prop(body, 'status');
    if (status !== undefined && status !== null && !(typeof status === 'string' && RECORD_STATUSES.includes(status.toLowerCase()))) {
      out.push(finding('DE2010', `Record status '${String(status).slice(0, 40)}' is none of Draft, Released, Archived.`, 'Send "status": "Draft", "Released" or "Archived".'));
    }
  }

  const checkResult = /^\/api\/core\/fileversion\/[^/]+\/checkresults?(\/[^/]+)?$/.test(path);
  const findingPath = /^\/api\/core\/fileversion\/[^/]+\/checkresults?\/[^/]+\/findings(\/[^/]+)?$/.test(path);
  if (checkResult || findingPath) {
    const outcome = prop(body, 'outcome');
    if (outcome !== undefined && outcome !== null && !(typeof outcome === 'string' && OUTCOMES.includes(outcome))) {
      out.push(finding('DE2011', `Outcome '${String(outcome).slice(0, 40)}' is none of ${OUTCOMES.join(', ')}.`, `Send "outcome" as one of ${OUTCOMES.join(', ')} (lower case)${checkResult ? ', or null to let the findings roll up' : ''}.`));
    }
  }
  if (checkResult && f.method === 'POST') {
    const description = prop(body, 'description');
    if (typeof description !== 'string' || description.trim() === '') {
      out.push(finding('DE2013', 'The check result has no description; the summary is mandatory.', 'Send "description" with a Markdown summary of the run.'));
    }
  }
  if (findingPath) {
    const text = prop(body, 'finding');
    if (typeof text === 'string' && looksLikeMarkdown(text)) {
      out.push(finding('DE2012', 'The finding text looks like Markdown; it is shown as plain text and should be text present in the document, so users can locate it.', 'Put formatting in "explanation" or "recommendation" (they take Markdown) and keep "finding" plain.'));
    }
  }

  if (/^\/api\/core\/checks(\/[^/]+)?$/.test(path)) {
    const actionTypeId = prop(body, 'actionTypeId');
    if (actionTypeId !== undefined && String(actionTypeId).replace(/-/g, '').toLowerCase() !== CHECK_ACTION_TYPE_ID) {
      out.push(finding('DE2014', `actionTypeId '${String(actionTypeId).slice(0, 40)}' is not the fixed value supplied to integrators.`, `Send "actionTypeId": "${CHECK_ACTION_TYPE_ID}".`));
    }
  }

  if (path === '/api/core/maintenancejobs' && f.method === 'POST') maintenanceRules(body, out);
  if (f.method === 'POST' && (path === '/api/simple-tasks' || path === '/api/tasks/simple-tasks')) simpleTaskRules(body, out);

  if (/^\/uploads\/segments(\/[^/]+\/commit)?$/.test(path)) {
    const name = prop(body, 'filename');
    if (typeof name === 'string' && FORBIDDEN_FILE_NAME.test(name)) {
      out.push(finding('DE2040', `The file name '${name.slice(0, 80)}' has a character uploads do not allow (< > : " / \\ | ? *).`, 'Replace those characters (e.g. with _) before uploading.'));
    }
  }

  if (f.method === 'PUT' && /^\/api\/core\/setting\/[^/]+$/.test(path) && mentionsAuthCode(body)) {
    out.push(
      finding(
        'DE3002',
        `A page hook set to send 'auth-code' is deprecated and ${deprecatedWhen(f.now)}.`,
        "Configure the hook to send 'access-token' (the hook then receives a user-scoped token in the form field access-token).",
        deprecatedSeverity(f.now),
      ),
    );
  }
}

function mentionsAuthCode(value: unknown, depth = 0): boolean {
  if (depth > 6) return false;
  if (Array.isArray(value)) return value.some((v) => mentionsAuthCode(v, depth + 1));
  if (!isRecord(value)) return false;
  return Object.entries(value).some(([k, v]) => (/^(include|sendtoken|mode)$/i.test(k) && typeof v === 'string' && v.toLowerCase() === 'auth-code') || mentionsAuthCode(v, depth + 1));
}

function maintenanceRules(body: Record<string, unknown>, out: Finding[]): void {
  const type = prop(body, 'type');
  if (type !== undefined && String(type).toLowerCase() !== 'record') {
    out.push(finding('DE2015', `Maintenance job type '${String(type).slice(0, 40)}' is not 'record'.`, 'Send "type": "record".'));
  }
  const actions = prop(body, 'actions');
  if (!Array.isArray(actions)) return;
  for (const [i, action] of actions.entries()) {
    const name = String(prop(action, 'action') ?? '');
    const lower = name.toLowerCase();
    if (lower !== 'createrenditions' && lower !== 'changerecordstatus') {
      out.push(finding('DE2015', `actions[${i}].action '${name.slice(0, 40)}' is neither CreateRenditions nor ChangeRecordStatus.`, 'Send "action": "CreateRenditions" with parameters.presets, or "ChangeRecordStatus" with parameters.status.'));
      continue;
    }
    const parameters = prop(action, 'parameters');
    if (lower === 'createrenditions') {
      const presets = prop(parameters, 'presets');
      if (!Array.isArray(presets) || presets.length === 0 || presets.some((p) => typeof p !== 'string')) {
        out.push(finding('DE2015', `actions[${i}].parameters.presets is not a list of preset names.`, 'Send "parameters": {"presets": ["thumbnail"]} naming presets of the .renditionPreset setting.'));
      }
    } else {
      const status = prop(parameters, 'status');
      if (!(typeof status === 'string' && RECORD_STATUSES.includes(status.toLowerCase()))) {
        out.push(finding('DE2015', `actions[${i}].parameters.status '${String(status).slice(0, 40)}' is none of draft, released, archived.`, 'Send "parameters": {"status": "released"} (draft, released or archived).'));
      }
    }
  }
  const priority = prop(body, 'priority');
  if (priority !== undefined && !(typeof priority === 'string' && ['low', 'medium', 'high'].includes(priority.toLowerCase()))) {
    out.push(finding('DE2015', `priority '${String(priority).slice(0, 40)}' is none of Low, Medium, High.`, 'Send "priority": "Low", "Medium" or "High", or leave it out.'));
  }
}

function simpleTaskRules(body: Record<string, unknown>, out: Finding[]): void {
  for (const v of readSimpleTaskRequest(body).violations.slice(0, 5)) {
    out.push(finding('DE2020', `${v.field}: ${v.message}.`, 'See the simple-task request table of the spec; `dam tasks create` checks these rules before sending.'));
  }
  const ignored: string[] = [];
  if (has(body, 'canSkip')) ignored.push("'canSkip' is read-only: the service ignores it and answers 1");
  if (has(body, 'predTaskID')) ignored.push("'predTaskID' is ignored: the predecessor is always start");
  const canDelegate = prop(body, 'canDelegate');
  if (canDelegate !== undefined && canDelegate !== null && typeof canDelegate !== 'boolean') ignored.push(`'canDelegate' ${JSON.stringify(canDelegate).slice(0, 20)} is not a boolean and is ignored`);
  if (Number(prop(body, 'autoClose')) === 1) {
    const sent = ['workGroupActionID', 'autoAccept', 'canDelegate', 'assignees'].filter((n) => has(body, n));
    if (sent.length) ignored.push(`with autoClose 1 the service ignores ${sent.join(', ')}`);
  }
  if (Number(prop(body, 'workGroupActionID')) === 1 && has(body, 'autoAccept')) ignored.push("with workGroupActionID 1 (OneMustClose) 'autoAccept' should not be sent");
  for (const text of ignored) out.push(finding('DE2021', `${text[0].toUpperCase()}${text.slice(1)}.`, 'Leave the field out.'));
}

function analyticsRules(f: Facts, out: Finding[]): void {
  if (f.method !== 'GET' || !/^\/analytics\/?$/i.test(f.path)) return;
  const text = f.query.get('query');
  if (text === null || text.trim() === '') return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    out.push(finding('DE2030', "The 'query' parameter is not JSON.", 'Send one JSON query object, URL-encoded, e.g. ?query={"measures":["Views.count"]}.'));
    return;
  }
  const checked = checkAnalyticsQuery(parsed);
  const problems = checked.ok ? checked.warnings : checked.problems;
  for (const p of problems.slice(0, 6)) {
    out.push(finding(p.severity === 'error' ? 'DE2030' : 'DE2031', `${p.code}: ${p.message}`, 'Check the query in a .dam-analytics.json file: the editor and `dam lint` point at the fault.'));
  }
}

function uploadSizeRules(f: Facts, out: Finding[]): void {
  if (f.method === 'POST' && /^\/uploads\/?$/i.test(f.path) && f.bodyBytes !== null && f.bodyBytes > SINGLE_UPLOAD_MAX) {
    out.push(finding('DE2041', `A single-request upload of ${f.bodyBytes.toLocaleString('en')} bytes: a tenant takes at most 20 MB in one request and refuses more (413).`, 'POST /uploads/segments with the file name, send the segments, then commit.'));
  }
}

function deprecationRules(f: Facts, out: Finding[]): void {
  const path = f.lower;
  if (/^\/api\/oauth\/(create-native-token|authorize|create-token|exchange-auth-code)$/.test(path)) {
    out.push(
      finding(
        'DE3001',
        `${f.path} is a deprecated OAuth route that ${deprecatedWhen(f.now)}.`,
        'Use the OAuth 2.0 flows at {auth_url}/login/connect/token (client credentials, password, or authorization code with PKCE).',
        deprecatedSeverity(f.now),
      ),
    );
  }
  if (f.method === 'POST' && path === '/login/connect/token' && isRecord(f.body)) {
    const grant = prop(f.body, 'grant_type');
    if (grant === 'authorization_code' && !has(f.body, 'code_verifier')) {
      out.push(
        finding(
          'DE3003',
          `The authorization code flow without PKCE (no code_verifier) is obsolete and ${deprecatedWhen(f.now)}.`,
          'Send code_challenge with code_challenge_method=S256 to /login/connect/authorize and code_verifier with the code.',
          deprecatedSeverity(f.now),
        ),
      );
    }
  }
}

/** Every finding about the request itself, in the order a reader fixes them (headers first). */
export function requestFindings(given: RequestFacts): Finding[] {
  const out: Finding[] = [];
  const lower = given.path.toLowerCase();
  const facts: Facts = { ...given, lower: lower.length > 1 && lower.endsWith('/') ? lower.replace(/\/+$/, '') : lower };
  headerRules(facts, out);
  bodyRules(facts, out);
  urlRules(facts, out);
  headerValueRules(facts, out);
  pagingRules(facts, out);
  contentRules(facts, out);
  analyticsRules(facts, out);
  uploadSizeRules(facts, out);
  deprecationRules(facts, out);
  return out;
}
