// The browser step of authorization code with PKCE: open the consent page, wait for the redirect on a
// one-shot loopback listener or on the `vscode://` URI handler, and hand back the code.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { buildAuthorizeUrl, createPkcePair, createState, readAuthorizationRedirect } from '../../api/auth';
import type { Profile } from '../../api/profile';
import type { AuthUriHandler } from './authUriHandler';

export interface BrowserGrant {
  code: string;
  redirectUri: string;
  verifier: string;
}

const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

export async function signInWithBrowser(profile: Profile, uriHandler: AuthUriHandler, token: vscode.CancellationToken): Promise<BrowserGrant> {
  const pkce = createPkcePair();
  const state = createState();
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `DAM: sign in to ${profile.name} in your browser`, cancellable: true },
    async (_progress, progressToken) => {
      const cancel = new vscode.CancellationTokenSource();
      const subs = [token.onCancellationRequested(() => cancel.cancel()), progressToken.onCancellationRequested(() => cancel.cancel())];
      const timer = setTimeout(() => cancel.cancel(), SIGN_IN_TIMEOUT_MS);
      try {
        if (profile.redirect === 'vscode') {
          const callback = vscode.Uri.parse(`${vscode.env.uriScheme}://dam-workbench.dam-workbench/auth-callback`);
          const external = await vscode.env.asExternalUri(callback);
          const redirectUri = external.toString(true);
          await openConsent(profile, redirectUri, state, pkce.challenge);
          const uri = await uriHandler.wait(state, cancel.token);
          const { code } = readAuthorizationRedirect(`${redirectUri.split('?')[0]}?${uri.query}`, state);
          return { code, redirectUri, verifier: pkce.verifier };
        }
        const listener = await listenOnce(state, cancel.token);
        try {
          await openConsent(profile, listener.redirectUri, state, pkce.challenge);
          const code = await listener.code;
          return { code, redirectUri: listener.redirectUri, verifier: pkce.verifier };
        } finally {
          listener.server.close();
        }
      } finally {
        clearTimeout(timer);
        subs.forEach((s) => s.dispose());
        cancel.dispose();
      }
    },
  );
}

async function openConsent(profile: Profile, redirectUri: string, state: string, challenge: string): Promise<void> {
  const url = buildAuthorizeUrl(profile, { redirectUri, state, challenge });
  const opened = await vscode.env.openExternal(vscode.Uri.parse(url, true));
  if (!opened) throw new Error('The browser could not be opened for sign-in.');
}

/** A listener on 127.0.0.1 that accepts exactly the redirect carrying our `state`. */
async function listenOnce(state: string, token: vscode.CancellationToken): Promise<{ server: Server; redirectUri: string; code: Promise<string> }> {
  let resolveCode!: (code: string) => void;
  let rejectCode!: (err: Error) => void;
  const code = new Promise<string>((resolve, reject) => {
    resolveCode = resolve;
    rejectCode = reject;
  });
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    try {
      const grant = readAuthorizationRedirect(url.toString(), state);
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page('Signed in', 'You can close this tab and return to VS Code.'));
      resolveCode(grant.code);
    } catch (err) {
      res.writeHead(400, { 'Content-Type': 'text/html; charset=utf-8' }).end(page('Sign-in failed', 'Return to VS Code and try again.'));
      rejectCode(err as Error);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  token.onCancellationRequested(() => rejectCode(new vscode.CancellationError()));
  const { port } = server.address() as AddressInfo;
  return { server, redirectUri: `http://127.0.0.1:${port}/callback`, code };
}

function page(title: string, text: string): string {
  return `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:system-ui;margin:3em"><h1>${title}</h1><p>${text}</p></body>`;
}
