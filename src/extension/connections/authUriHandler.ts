// Receives the `vscode://` redirects of the authorization-code flow and hands each to the sign-in waiting for its state.
import * as vscode from 'vscode';

/** Receives `vscode://` redirects of the authorization-code flow. */
export class AuthUriHandler implements vscode.UriHandler {
  private readonly waiting = new Map<string, (uri: vscode.Uri) => void>();

  handleUri(uri: vscode.Uri): void {
    const state = new URLSearchParams(uri.query).get('state');
    const resolve = state ? this.waiting.get(state) : undefined;
    if (resolve) {
      this.waiting.delete(state!);
      resolve(uri);
    }
  }

  /** Resolves with the redirect that carries `state`. */
  wait(state: string, token: vscode.CancellationToken): Promise<vscode.Uri> {
    return new Promise((resolve, reject) => {
      this.waiting.set(state, resolve);
      token.onCancellationRequested(() => {
        this.waiting.delete(state);
        reject(new vscode.CancellationError());
      });
    });
  }
}
