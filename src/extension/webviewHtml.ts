// The one page every DAM webview starts from: a strict Content-Security-Policy (nothing by default; our
// stylesheet and fonts from the extension; only the script carrying this page's fresh nonce; images from
// the extension and data: URIs when the page shows thumbnails), one stylesheet and one script from the
// extension, and a root element the script renders into.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export interface WebviewPage {
  /** `media/webviews/<name>/…` stylesheet. */
  style: vscode.Uri;
  /** `dist/webviews/<name>.js` bundle. */
  script: vscode.Uri;
  title: string;
  /** The root element the script renders into, with what it shows until then. */
  root: { tag: 'main' | 'div'; text?: string; role?: string };
  /** Allows `data:` images (thumbnails sent as data URIs). */
  dataImages?: boolean;
}

/** The folders a webview may load from: the stylesheets under media/ and the bundles under dist/webviews/. */
export function webviewRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'media'), vscode.Uri.joinPath(extensionUri, 'dist', 'webviews')];
}

export function webviewHtml(webview: vscode.Webview, page: WebviewPage): string {
  const nonce = randomBytes(18).toString('base64url');
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource}${page.dataImages ? ' data:' : ''}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  const { tag, text, role } = page.root;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${webview.asWebviewUri(page.style).toString()}">
<title>${escapeHtml(page.title)}</title>
</head>
<body>
<${tag} id="app"${role ? ` role="${role}"` : ''}${text ? ' aria-busy="true"' : ''}>${text ? escapeHtml(text) : ''}</${tag}>
<script nonce="${nonce}" src="${webview.asWebviewUri(page.script).toString()}"></script>
</body>
</html>`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
