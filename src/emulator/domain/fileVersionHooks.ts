// Rules: when a file version is created, the emulator calls the URLs configured in the system setting
// `.fileVersionCreatedHooks`, so an integrator's check service can be run end to end against it (fetch the
// content, run the check, write the result back through the check framework). Each hook is `{ url, mode }`:
// mode `json` (default) POSTs `{ event, recordId, fileVersionId, fileVersionUrl, occurredOn }`; mode `page-hook`
// POSTs the spec's page-hook form, `application/x-www-form-urlencoded` with `access-token` (a fresh token acting
// as the user who created the version) plus `recordId` and `fileVersionId`. Calls run after the request's
// transaction committed, in the background, and a failing hook is logged in one line.
//
// A hook carries a token, so where it may go is checked when the setting is written and again when it fires (the
// setting may predate these rules, and a name may resolve elsewhere by then): http(s) only, never a link-local or
// cloud-metadata address, and a redirect is a failed delivery, never followed (it would re-send the token).
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { z } from 'zod';
import type { EmulatorContext } from '../context';
import { errors } from '../errors';
import type { Queryable } from '../storage/store';

export const HOOKS_SETTING = '.fileVersionCreatedHooks';
/** Hooks in the setting at most, and characters in one hook's URL. */
export const HOOK_LIMITS = { count: 20, urlLength: 2000 } as const;
const TIMEOUT_MS = 30_000;

const Hooks = z
  .array(
    z.union([
      z.string().transform((url) => ({ url, mode: 'json' as const })),
      z.object({ url: z.string(), mode: z.enum(['json', 'page-hook']).default('json') }),
    ]),
  )
  .max(HOOK_LIMITS.count, `at most ${HOOK_LIMITS.count} hooks are allowed`);
export type Hook = z.infer<typeof Hooks>[number];

/** Link-local ranges (where cloud metadata services answer) and the metadata addresses outside them. */
const FORBIDDEN_ADDRESSES = new BlockList();
FORBIDDEN_ADDRESSES.addSubnet('169.254.0.0', 16, 'ipv4');
FORBIDDEN_ADDRESSES.addSubnet('fe80::', 10, 'ipv6');
FORBIDDEN_ADDRESSES.addAddress('100.100.100.200', 'ipv4'); // Alibaba Cloud
FORBIDDEN_ADDRESSES.addAddress('fd00:ec2::254', 'ipv6'); // AWS over IPv6

/** Host names of cloud metadata services (lower case, without a trailing dot). */
const METADATA_HOSTS = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal', 'metadata.azure.internal', 'metadata.tencentyun.com']);

/** Why a hook may not call this address, or undefined when it may. IPv4-mapped IPv6 addresses count as IPv4. */
export function forbiddenAddress(address: string): string | undefined {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const ip = mapped ?? address;
  const family = isIP(ip);
  if (!family) return undefined;
  return FORBIDDEN_ADDRESSES.check(ip, family === 4 ? 'ipv4' : 'ipv6') ? 'a link-local or cloud-metadata address' : undefined;
}

/** Why a hook may not call this URL (its scheme or its host), or undefined when it may. */
export function forbiddenUrl(text: string): string | undefined {
  if (text.length > HOOK_LIMITS.urlLength) return `the URL is ${text.length.toLocaleString('en-US')} characters long; at most ${HOOK_LIMITS.urlLength.toLocaleString('en-US')} are allowed`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `'${text.slice(0, 100)}' is not a URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `'${text.slice(0, 100)}' is a ${url.protocol.slice(0, 20)} URL; only http and https are allowed`;
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (METADATA_HOSTS.has(host)) return `${host} is a cloud-metadata host`;
  const reason = forbiddenAddress(host);
  return reason && `${host} is ${reason}`;
}

/** The setting's value as hooks; a 400 naming the problem (and the hook) when it is not a list of allowed hooks. */
export function validateHooks(value: unknown): Hook[] {
  const parsed = Hooks.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = typeof issue?.path[0] === 'number' ? ` (hook ${issue.path[0] + 1})` : '';
    throw errors.validation(`Invalid ${HOOKS_SETTING}: a list of URLs or { "url", "mode": "json" | "page-hook" }${where}: ${issue?.message ?? ''}`);
  }
  parsed.data.forEach((hook, i) => {
    const problem = forbiddenUrl(hook.url);
    if (problem) throw errors.validation(`Invalid ${HOOKS_SETTING} (hook ${i + 1}): ${problem}.`);
  });
  return parsed.data;
}

type Resolver = (hostname: string, options: LookupOptions & { all: true }, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/**
 * DNS resolution for a hook's connection that refuses a name resolving to a forbidden address: checked where the
 * connection is made, so a name cannot pass the check and then connect elsewhere.
 */
export function refusingLookup(resolve: Resolver = dnsLookup as Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...(options as LookupOptions), all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const bad = addresses.find((a) => forbiddenAddress(a.address));
      if (bad) return callback(Object.assign(new Error(`${hostname} resolves to ${bad.address}, ${forbiddenAddress(bad.address)}`), { code: 'EHOOKFORBIDDEN' }), '', 0);
      if ((options as LookupOptions).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
const guardedLookup = refusingLookup();

/** POSTs one hook; resolves with the status, never following a redirect. */
function post(url: string, headers: Record<string, string>, body: string): Promise<number> {
  const problem = forbiddenUrl(url);
  if (problem) return Promise.reject(new Error(`${problem}; not sent`));
  const send = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: guardedLookup, timeout: TIMEOUT_MS }, (res: IncomingMessage) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.once('error', reject);
    req.end(body);
  });
}

/** Calls each configured hook for each version the request created (none when the setting is empty). */
export async function fireFileVersionCreated(
  ctx: EmulatorContext,
  origin: string,
  created: { recordId: string; versionIds: string[]; userId: number; clientId: string },
  db: Queryable = ctx.store,
): Promise<void> {
  if (!created.versionIds.length) return;
  const rows = await db.query<{ value: unknown }>('SELECT value FROM settings WHERE name = $1', [HOOKS_SETTING]);
  const parsed = Hooks.safeParse(rows[0]?.value ?? []);
  if (!parsed.success) {
    ctx.log(`rules: the ${HOOKS_SETTING} setting is not a list of at most ${HOOK_LIMITS.count} { url, mode }; no hook called`);
    return;
  }
  for (const hook of parsed.data) {
    for (const fileVersionId of created.versionIds) {
      const host = (() => {
        try {
          return new URL(hook.url).host;
        } catch {
          return hook.url.slice(0, 100);
        }
      })();
      ctx.background(async () => {
        try {
          const [headers, body] =
            hook.mode === 'page-hook'
              ? [
                  { 'content-type': 'application/x-www-form-urlencoded' },
                  new URLSearchParams({
                    'access-token': (await ctx.tokens.issue(created.clientId, created.userId, 'api')).access_token,
                    recordId: created.recordId,
                    fileVersionId,
                  }).toString(),
                ]
              : [
                  { 'content-type': 'application/json' },
                  JSON.stringify({
                    event: 'FileVersionCreated',
                    recordId: created.recordId,
                    fileVersionId,
                    fileVersionUrl: `${origin}/api/core/fileversion/${fileVersionId}`,
                    occurredOn: ctx.clock.now().toISOString(),
                  }),
                ];
          const status = await post(hook.url, headers, body);
          if (status >= 300 && status < 400) ctx.log(`rules: ${hook.mode} hook ${host} failed for version ${fileVersionId}: it answered ${status}, a redirect, which is not followed`);
          else ctx.log(`rules: ${hook.mode} hook ${host} answered ${status} for version ${fileVersionId}`);
        } catch (err) {
          ctx.log(`rules: ${hook.mode} hook ${host} failed for version ${fileVersionId}: ${err instanceof Error ? err.message : String(err)}`);
        }
      });
    }
  }
}
