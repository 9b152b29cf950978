// How every `dam` command that talks to the service finds it: flags, then DAM_* environment
// variables, then the local emulator with its contract credentials. Secrets come only from the
// environment, never from argv (they would show in `ps` and shell history).
import { DamClient } from '../api/client';
import { redact } from '../api/errors';
import { OAuthFlowSchema, ProfileSchema, type Endpoints, type OAuthFlow, type Profile, type ProfileSecrets } from '../api/profile';
import { EMULATOR_CLIENT, emulatorEndpoints } from '../api/endpoints';
import { findRunningEmulator } from '../api/emulatorDiscovery';
import { DEFAULT_PACING, type PacingOptions } from '../api/pacing';
import { UsageError, type CommandIO, type OptionSpec } from './command';

export const DEFAULT_EMULATOR_URL = 'http://127.0.0.1:7070';

// The package's version, defined by the bundle (esbuild.mjs); `dev` when run from the sources (tsx).
declare const DAM_WORKBENCH_VERSION: string | undefined;
export const CLI_VERSION = typeof DAM_WORKBENCH_VERSION === 'string' ? DAM_WORKBENCH_VERSION : 'dev';
export const CLI_USER_AGENT = `dam-workbench-cli/${CLI_VERSION}`;

/** An emulator's address and, in words, why it was chosen. */
export interface EmulatorTarget {
  url: string;
  source: string;
}

/**
 * Where a command given no address goes: the emulator VS Code started (the state file it keeps, while that process
 * lives), else the contract's default address.
 */
export function defaultEmulator(env: NodeJS.ProcessEnv): EmulatorTarget {
  const running = findRunningEmulator(env);
  if (running) return { url: running.url, source: `the local emulator started by VS Code (pid ${running.pid})` };
  return { url: DEFAULT_EMULATOR_URL, source: 'the default address of a local emulator: no DAM_URL, and no emulator started by VS Code is running' };
}

/** Which service a command given no flags would talk to, and how it would sign in, in words (`dam --version`). */
export function describeService(env: NodeJS.ProcessEnv): EmulatorTarget & { signIn: string } {
  const fromVsCode = env.DAM_CONNECTION ? `, set by VS Code for its connection '${env.DAM_CONNECTION}'` : '';
  const variable = ['DAM_URL', 'DAM_CORE_URL', 'DAM_BASE_URL'].find((name) => env[name]?.trim());
  const target = variable ? { url: env[variable]!.trim(), source: `${variable}${fromVsCode}` } : defaultEmulator(env);
  let signIn: string;
  try {
    const { profile, usesEmulatorCredentials } = resolveConnection({}, env);
    const how = profile.flow === 'password' ? `user '${profile.username}'` : `client '${profile.clientId}'`;
    const secret = usesEmulatorCredentials ? "the emulator's published credentials" : profile.flow === 'password' ? 'DAM_PASSWORD' : 'DAM_CLIENT_SECRET';
    signIn = `${how}, secret from ${secret}`;
  } catch (err) {
    signIn = `not possible yet: ${(err as Error).message}`;
  }
  return { ...target, signIn };
}

/** The emulator a devtools command (requests, snapshots) talks to: --url, DAM_URL, then as `defaultEmulator`. */
export function emulatorOrigin(given: unknown, env: NodeJS.ProcessEnv): string {
  if (typeof given === 'string' && given.trim() !== '') return given.trim();
  return env.DAM_URL?.trim() || defaultEmulator(env).url;
}

/** Spread into a command's `options` to accept the connection flags. */
export const connectionOptions = {
  url: { type: 'string' },
  'auth-url': { type: 'string' },
  'base-url': { type: 'string' },
  'core-url': { type: 'string' },
  'upload-url': { type: 'string' },
  'ops-url': { type: 'string' },
  'analytics-url': { type: 'string' },
  'client-id': { type: 'string' },
  flow: { type: 'string' },
  username: { type: 'string' },
  verbose: { type: 'boolean' },
  'max-rate': { type: 'string' },
  'max-in-flight': { type: 'string' },
} satisfies OptionSpec;

/** Usage text for the flags above, for commands to append to their own usage. */
export const CONNECTION_USAGE =
  '[--url ORIGIN | --auth-url U --base-url U --core-url U --upload-url U --ops-url U --analytics-url U] [--client-id ID] [--flow clientCredentials|password] [--username NAME] [--verbose] [--max-rate N] [--max-in-flight N]\n' +
  '  environment: DAM_URL, DAM_AUTH_URL, DAM_BASE_URL, DAM_CORE_URL, DAM_UPLOAD_URL, DAM_OPS_URL, DAM_ANALYTICS_URL, DAM_CLIENT_ID, DAM_FLOW, DAM_USERNAME, DAM_MAX_RATE, DAM_MAX_IN_FLIGHT;\n' +
  `  pacing: at most --max-rate requests/s (default ${DEFAULT_PACING.ratePerSecond}; a tenant serves 15/s to all its clients) and --max-in-flight at once (default ${DEFAULT_PACING.maxInFlight}); 0: none;\n` +
  '  secrets only from the environment: DAM_CLIENT_SECRET, DAM_PASSWORD. Default: the local emulator VS Code started, else ' +
  DEFAULT_EMULATOR_URL;

export interface Connection {
  profile: Profile;
  secrets: ProfileSecrets;
  /** Whether the emulator's contract credentials were filled in. */
  usesEmulatorCredentials: boolean;
}

type Values = Record<string, unknown>;

function pick(values: Values, env: NodeJS.ProcessEnv, flag: string, variable: string): string | undefined {
  const fromFlag = values[flag];
  if (typeof fromFlag === 'string' && fromFlag.trim() !== '') return fromFlag.trim();
  const fromEnv = env[variable];
  return fromEnv !== undefined && fromEnv.trim() !== '' ? fromEnv.trim() : undefined;
}

function checkUrl(name: string, value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    return value.replace(/\/+$/, '');
  } catch {
    throw new UsageError(`${name} '${value}' is not an http(s) URL`);
  }
}

function parseFlow(value: string): OAuthFlow {
  const normalised = value.replace(/[-_](\w)/g, (_, c: string) => c.toUpperCase());
  const flow = OAuthFlowSchema.safeParse(normalised);
  if (!flow.success) throw new UsageError(`--flow '${value}' is not one of clientCredentials, password`);
  if (flow.data === 'authorizationCode') {
    throw new UsageError('the authorization code flow needs a browser: sign in from the VS Code extension, or use clientCredentials or password here');
  }
  return flow.data;
}

/**
 * The connection a command should use. Six addresses: `--url` (an emulator origin) yields all of
 * them; each `--<kind>-url` then overrides one, as a real tenant spreads them over hosts.
 */
export function resolveConnection(values: Values, env: NodeJS.ProcessEnv): Connection {
  const origin = pick(values, env, 'url', 'DAM_URL');
  const specific: Partial<Record<keyof Endpoints, string>> = {};
  for (const kind of ['auth', 'base', 'core', 'upload', 'ops', 'analytics'] as const) {
    const value = pick(values, env, `${kind}-url`, `DAM_${kind.toUpperCase()}_URL`);
    if (value !== undefined) specific[kind] = checkUrl(`--${kind}-url`, value);
  }
  const hasSpecific = Object.keys(specific).length > 0;

  let endpoints: Endpoints;
  if (origin !== undefined || !hasSpecific) {
    endpoints = { ...emulatorEndpoints(checkUrl('--url', origin ?? defaultEmulator(env).url)), ...specific };
  } else {
    // A tenant given host by host: base and core imply each other, the rest default to the identity host.
    const base = specific.base ?? specific.core?.replace(/\/api\/core$/i, '');
    if (base === undefined) throw new UsageError('give --base-url or --core-url (or --url for an emulator)');
    const core = specific.core ?? `${base}/api/core`;
    const auth = specific.auth ?? base;
    endpoints = { base, core, auth, upload: specific.upload ?? auth, ops: specific.ops ?? auth, analytics: specific.analytics ?? auth };
  }

  const clientId = pick(values, env, 'client-id', 'DAM_CLIENT_ID') ?? EMULATOR_CLIENT.clientId;
  const flowText = pick(values, env, 'flow', 'DAM_FLOW');
  const username = pick(values, env, 'username', 'DAM_USERNAME');
  const flow: OAuthFlow = flowText ? parseFlow(flowText) : username ? 'password' : 'clientCredentials';
  const isEmulatorClient = clientId === EMULATOR_CLIENT.clientId;

  // The emulator's published credentials are filled in only for its own client id.
  let usesEmulatorCredentials = false;
  let clientSecret = env.DAM_CLIENT_SECRET;
  if (clientSecret === undefined && isEmulatorClient) {
    clientSecret = EMULATOR_CLIENT.clientSecret;
    usesEmulatorCredentials = true;
  }
  let password = env.DAM_PASSWORD;
  const user = username ?? (flow === 'password' && isEmulatorClient ? EMULATOR_CLIENT.username : undefined);
  if (flow === 'password' && password === undefined && isEmulatorClient && user === EMULATOR_CLIENT.username) {
    password = EMULATOR_CLIENT.password;
    usesEmulatorCredentials = true;
  }
  // In a VS Code terminal the connection came from the extension, which keeps its secrets to itself.
  const inThisTerminal = env.DAM_CONNECTION ? ` in this terminal (VS Code gives terminals the connection '${env.DAM_CONNECTION}' without its secrets)` : '';
  if (flow === 'clientCredentials' && clientSecret === undefined) throw new UsageError(`no client secret for client '${clientId}': set DAM_CLIENT_SECRET${inThisTerminal}`);
  if (flow === 'password' && user === undefined) throw new UsageError('the password flow needs --username or DAM_USERNAME');
  if (flow === 'password' && password === undefined) throw new UsageError(`the password flow needs DAM_PASSWORD in the environment${inThisTerminal}`);

  const profile = ProfileSchema.parse({
    id: 'cli',
    name: 'command line',
    kind: origin !== undefined || !hasSpecific ? 'emulator' : 'tenant',
    endpoints,
    flow,
    clientId,
    scope: 'api',
    username: user,
  });
  return { profile, secrets: { clientSecret, password }, usesEmulatorCredentials };
}

/** The command's pacing within the tenant's limits (api/pacing.ts): flags, then DAM_MAX_RATE / DAM_MAX_IN_FLIGHT. */
export function resolvePacing(values: Values, env: NodeJS.ProcessEnv): PacingOptions {
  const rate = pick(values, env, 'max-rate', 'DAM_MAX_RATE');
  const inFlight = pick(values, env, 'max-in-flight', 'DAM_MAX_IN_FLIGHT');
  const pacing = { ...DEFAULT_PACING };
  if (rate !== undefined) {
    if (!/^\d+(\.\d+)?$/.test(rate) || (Number(rate) !== 0 && Number(rate) < 0.1)) throw new UsageError(`--max-rate must be requests per second (0.1 or more; 0: no rate), got '${rate}'`);
    pacing.ratePerSecond = Number(rate) === 0 ? Infinity : Number(rate);
  }
  if (inFlight !== undefined) {
    if (!/^\d{1,4}$/.test(inFlight)) throw new UsageError(`--max-in-flight must be a number of requests (0: no bound), got '${inFlight}'`);
    pacing.maxInFlight = Number(inFlight) === 0 ? Infinity : Number(inFlight);
  }
  return pacing;
}

/** A ready client for a command; with `--verbose`, every request is logged (redacted) to stderr. */
export function connect(values: Values, io: Pick<CommandIO, 'env' | 'stderr'>): DamClient {
  const { profile, secrets } = resolveConnection(values, io.env);
  const verbose = values.verbose === true;
  return new DamClient({
    profile,
    secrets,
    pacing: resolvePacing(values, io.env),
    userAgent: CLI_USER_AGENT,
    onRequest: verbose ? (e) => io.stderr.write(redact(`${e.method} ${e.url} → ${e.status || e.error} ${e.ms} ms${e.attempt ? ` (retry ${e.attempt})` : ''}\n`)) : undefined,
  });
}
