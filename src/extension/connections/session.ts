// A signed-in connection: the profile, its HTTP client with a token provider for the profile's flow,
// and the request log wiring. Prompts for missing secrets only when the user started the sign-in.
import * as vscode from 'vscode';
import { authorizationCodeProvider, clientCredentialsProvider, exchangeCode, passwordProvider, type AccessToken, type CachingTokenProvider } from '../../api/auth';
import { DamClient } from '../../api/client';
import { HttpClient, type RequestEvent } from '../../api/http';
import { DEFAULT_PACING } from '../../api/pacing';
import type { Profile } from '../../api/profile';
import { SECTION } from '../commandIds';
import type { DamLog } from '../log';
import { signInWithBrowser } from './browserSignIn';
import type { AuthUriHandler } from './authUriHandler';
import type { SecretVault } from './secretVault';

// This module is bundled on its own (dist/session.js) and loaded with the first connection, so the
// client, its schemas and zod cost nothing at activation. The profile schema travels with it.
export { ProfileSchema } from '../../api/profile';

export interface Session extends vscode.Disposable {
  readonly profile: Profile;
  readonly client: DamClient;
  readonly tokens: CachingTokenProvider;
}

export interface OpenSessionOptions {
  profile: Profile;
  store: SecretVault;
  log: DamLog;
  uriHandler: AuthUriHandler;
  /** False when restoring at startup: never prompt, fail instead. */
  interactive: boolean;
  /** Ask for the client secret and password even when some are stored (after the server refused them). */
  askSecrets?: boolean;
  token?: vscode.CancellationToken;
}

export function userAgent(): string {
  const version = (vscode.extensions.getExtension('dam-workbench.dam-workbench')?.packageJSON as { version?: string } | undefined)?.version ?? '0';
  return `dam-workbench/${version} vscode/${vscode.version}`;
}

function transportOptions(log: DamLog) {
  const settings = vscode.workspace.getConfiguration(SECTION);
  const timeoutS = settings.get<number>('requestTimeoutSeconds') ?? 30;
  return {
    userAgent: userAgent(),
    timeoutMs: timeoutS * 1000,
    // Within the tenant's limits (15 requests/s shared by all its clients): api/pacing.ts.
    pacing: { ratePerSecond: settings.get<number>('maxRequestsPerSecond') ?? DEFAULT_PACING.ratePerSecond, maxInFlight: settings.get<number>('maxConcurrentRequests') ?? DEFAULT_PACING.maxInFlight },
    // The event carries method, redacted URL, status and time only: never headers or bodies.
    onRequest: (e: RequestEvent) => log.request({ method: e.method, url: e.url, status: e.status === 0 ? 'error' : e.status, ms: e.ms }),
  };
}

export async function openSession(options: OpenSessionOptions): Promise<Session> {
  const { profile, store, log, interactive } = options;
  // Token requests go through their own transport; the DamClient below shares the token provider.
  const http = new HttpClient({ endpoints: profile.endpoints, ...transportOptions(log) });
  const secrets = await store.getSecrets(profile.id);
  log.addSecret(secrets.clientSecret);
  log.addSecret(secrets.password);

  const needSecret = async (kind: 'clientSecret' | 'password', prompt: string): Promise<string> => {
    const existing = secrets[kind];
    if (existing && !options.askSecrets) return existing;
    if (!interactive) throw new Error(`${profile.name} has no ${kind === 'password' ? 'password' : 'client secret'} in secret storage: run "DAM: Sign In Again".`);
    const value = await vscode.window.showInputBox({ title: `Sign in to ${profile.name}`, prompt, password: true, ignoreFocusOut: true });
    if (value === undefined) throw new vscode.CancellationError();
    await store.setSecrets(profile.id, { [kind]: value });
    log.addSecret(value);
    return value;
  };

  let tokens: CachingTokenProvider;
  switch (profile.flow) {
    case 'clientCredentials':
      tokens = clientCredentialsProvider(http, profile, { clientSecret: await needSecret('clientSecret', `Client secret of ${profile.clientId}`) });
      break;
    case 'password': {
      if (!profile.username) throw new Error(`${profile.name} uses the password flow but names no user: edit it in settings.`);
      const clientSecret = await needSecret('clientSecret', `Client secret of ${profile.clientId}`);
      const password = await needSecret('password', `Password of ${profile.username}`);
      tokens = passwordProvider(http, profile, { clientSecret, username: profile.username, password });
      break;
    }
    case 'authorizationCode': {
      const clientSecret = secrets.clientSecret;
      const stored = await store.getToken(profile.id);
      const initial: AccessToken | undefined = stored ? { value: stored.accessToken, obtainedAt: Date.now(), expiresAt: stored.expiresAt, refreshToken: stored.refreshToken } : undefined;
      const reauthorize = async (): Promise<AccessToken> => {
        if (!interactive) throw new Error(`The sign-in to ${profile.name} has expired: run "DAM: Sign In Again".`);
        const grant = await signInWithBrowser(profile, options.uriHandler, options.token ?? new vscode.CancellationTokenSource().token);
        const token = await exchangeCode(http, profile, { code: grant.code, redirectUri: grant.redirectUri, verifier: grant.verifier, clientSecret });
        await store.setToken(profile.id, { accessToken: token.value, expiresAt: token.expiresAt, refreshToken: token.refreshToken });
        return token;
      };
      tokens = authorizationCodeProvider(http, profile, initial && initial.expiresAt > Date.now() ? initial : undefined, { clientSecret, reauthorize });
      break;
    }
  }

  // Signing in proves the profile works; the token itself is only ever held in memory and SecretStorage.
  const abort = new AbortController();
  const sub = options.token?.onCancellationRequested(() => abort.abort(new vscode.CancellationError()));
  try {
    const value = await tokens.getToken(abort.signal);
    log.addSecret(value);
  } finally {
    sub?.dispose();
  }
  const client = new DamClient({ profile, tokenProvider: tokens, ...transportOptions(log) });
  return { profile, client, tokens, dispose: () => undefined };
}
