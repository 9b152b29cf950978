// The custom editor of `.dam-analytics.json` files and the analytics commands. Registered at activation
// but light: the panel itself (zod, validator, pager, exporter) is dist/analytics.js, required when the
// first builder opens.
import * as vscode from 'vscode';
import { stringArg, uriArg } from '../commandArgs';
import { Commands } from '../commandIds';
import type { ConnectionManager } from '../connections/connectionManager';
import type { Session } from '../connections/session';
import { lazyModule } from '../lazyModule';
import type { DamLog } from '../log';
import { registerCommand } from '../registration';
import type * as PanelModule from './panel';
import { readyQueries } from './readyQueries';

export const ANALYTICS_VIEW_TYPE = 'dam.analyticsEditor';
export const ANALYTICS_SUFFIX = '.dam-analytics.json';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const panelModule = lazyModule<typeof PanelModule>(() => require('./analytics.js'));

export class AnalyticsEditors implements vscode.CustomTextEditorProvider, vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly panels = new Map<string, PanelModule.AnalyticsPanel>();
  private readonly opened = new vscode.EventEmitter<PanelModule.AnalyticsPanel>();
  readonly onDidOpenPanel = this.opened.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly connections: ConnectionManager,
    private readonly log: DamLog,
  ) {
    const d = this.disposables;
    d.push(
      this.opened,
      vscode.window.registerCustomEditorProvider(ANALYTICS_VIEW_TYPE, this, {
        // Rows fetched and the chart survive switching tabs.
        webviewOptions: { retainContextWhenHidden: true },
        supportsMultipleEditorsPerDocument: false,
      }),
    );
    registerCommand(d, log, Commands.analyticsNewQuery, (id?: unknown) => this.newQuery(stringArg(id)));
    registerCommand(d, log, Commands.analyticsOpenBuilder, (uri?: unknown) => this.openBuilder(uriArg(uri)));
  }

  resolveCustomTextEditor(document: vscode.TextDocument, webviewPanel: vscode.WebviewPanel): void {
    const { AnalyticsPanel } = panelModule();
    const panel = new AnalyticsPanel({ extensionUri: this.extensionUri, log: this.log, session: () => this.session() }, document, webviewPanel);
    const key = document.uri.toString();
    this.panels.set(key, panel);
    webviewPanel.onDidDispose(() => {
      if (this.panels.get(key) === panel) this.panels.delete(key);
    });
    this.opened.fire(panel);
  }

  private async session(): Promise<Session> {
    const session = this.connections.session;
    if (!session) throw new Error('Not connected to a DAM tenant: start the local emulator or connect to a tenant first (DAM: Switch Connection).');
    return session;
  }

  /** The open builder of a document, for the test suite and commands. */
  panelFor(uri: vscode.Uri): PanelModule.AnalyticsPanel | undefined {
    return this.panels.get(uri.toString());
  }

  /** Opens a ready-made query (or an empty one) as a new untitled file in the builder; `id` skips the quick pick. */
  async newQuery(id?: string): Promise<vscode.Uri | undefined> {
    type Item = vscode.QuickPickItem & { fileName: string; query: object };
    const items: Item[] = [
      ...readyQueries.map((r) => ({ label: r.label, detail: r.detail, fileName: r.fileName, query: r.query, id: r.id })),
      { label: 'Empty query', detail: 'Start from a blank query and build it in the panel.', fileName: 'analytics', query: {}, id: 'empty' },
    ];
    const pick = id ? items.find((i) => (i as { id?: string }).id === id) : await vscode.window.showQuickPick(items, { title: 'DAM: New Analytics Query', placeHolder: 'Start from a ready-made query', matchOnDetail: true });
    if (!pick) return undefined;
    const uri = this.untitledUri(pick.fileName);
    const document = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(uri, new vscode.Position(0, 0), JSON.stringify(pick.query, null, 2) + '\n');
    await vscode.workspace.applyEdit(edit);
    await vscode.commands.executeCommand('vscode.openWith', document.uri, ANALYTICS_VIEW_TYPE);
    return document.uri;
  }

  private untitledUri(name: string): vscode.Uri {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.path));
    for (let n = 1; ; n++) {
      const file = `${name}${n === 1 ? '' : `-${n}`}${ANALYTICS_SUFFIX}`;
      // An untitled document with a path: saving it suggests that name in the workspace folder.
      const uri = folder ? vscode.Uri.joinPath(folder, file).with({ scheme: 'untitled' }) : vscode.Uri.from({ scheme: 'untitled', path: `/${file}` });
      if (!open.has(uri.path)) return uri;
    }
  }

  /** Opens a `.dam-analytics.json` file (the active text editor's by default) in the builder. */
  async openBuilder(uri?: vscode.Uri): Promise<void> {
    const target = uri ?? vscode.window.activeTextEditor?.document.uri;
    if (!target) throw new Error(`Open a ${ANALYTICS_SUFFIX} file first.`);
    await vscode.commands.executeCommand('vscode.openWith', target, ANALYTICS_VIEW_TYPE);
  }

  dispose(): void {
    for (const panel of this.panels.values()) panel.dispose();
    this.panels.clear();
    for (const d of this.disposables.splice(0).reverse()) d.dispose();
  }
}
