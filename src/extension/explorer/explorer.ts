// The DAM Explorer view: its tree, its commands, and the status line it shows while the service throttles.
import * as vscode from 'vscode';
import { Commands, VIEW_EXPLORER } from '../commandIds';
import type { ConnectionManager } from '../connections/connectionManager';
import type { DamLog } from '../log';
import { registerCommand } from '../registration';
import { ExplorerProvider } from './explorerProvider';
import type { ExplorerNode } from './nodes';

export class Explorer implements vscode.Disposable {
  readonly provider: ExplorerProvider;
  readonly view: vscode.TreeView<ExplorerNode>;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(connections: ConnectionManager, log: DamLog) {
    const d = this.disposables;
    this.provider = new ExplorerProvider(connections, log);
    d.push(this.provider);
    this.view = vscode.window.createTreeView(VIEW_EXPLORER, { treeDataProvider: this.provider, showCollapseAll: true, canSelectMany: true });
    d.push(this.view);
    d.push(log.onDidRequest((e) => this.onRequest(e.status)));

    registerCommand(d, log, Commands.explorerRefresh, () => this.provider.refresh());
    registerCommand(d, log, Commands.explorerRefreshNode, (node: ExplorerNode) => this.provider.refresh(node));
    registerCommand(d, log, Commands.explorerRetry, (node: ExplorerNode) => this.provider.retry(node));
    registerCommand(d, log, Commands.explorerLoadMore, (node?: ExplorerNode) => this.loadMore(node));
    registerCommand(d, log, Commands.explorerLoadAll, (node?: ExplorerNode) => this.loadAll(node));
    registerCommand(d, log, Commands.explorerFind, (query?: string) => this.find(query));
    registerCommand(d, log, Commands.explorerClearFind, () => this.provider.clearFind());
    registerCommand(d, log, Commands.copyId, (node?: ExplorerNode, selected?: ExplorerNode[]) => this.copyIds(node, selected));
  }

  private throttled = false;

  /** A 429 or 504 is retried by the client; say so where the user looks, and clear it on the next answer. */
  private onRequest(status: number | 'error'): void {
    if (status === 429 || status === 504) {
      this.throttled = true;
      this.view.message = status === 429 ? 'The service is rate limiting requests: waiting and retrying…' : 'The service timed out (504): retrying…';
    } else if (this.throttled && typeof status === 'number' && status < 400) {
      this.throttled = false;
      this.view.message = undefined;
    }
  }

  private classificationIdOf(node?: ExplorerNode): string | undefined {
    if (node?.kind === 'classification') return node.id;
    if (node?.kind === 'loadMore') return node.classificationId;
    const selected = this.view.selection[0];
    return selected?.kind === 'classification' ? selected.id : selected?.kind === 'loadMore' ? selected.classificationId : undefined;
  }

  private async loadMore(node?: ExplorerNode): Promise<number> {
    const id = this.classificationIdOf(node);
    if (!id) return 0;
    return this.provider.loadMore(id);
  }

  private async loadAll(node?: ExplorerNode): Promise<void> {
    const id = this.classificationIdOf(node);
    if (!id) {
      void vscode.window.showInformationMessage('Select a classification in the DAM Explorer first.');
      return;
    }
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'DAM: loading all records', cancellable: true },
      async (progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        let last = 0;
        try {
          await this.provider.loadAll(id, abort.signal, (shown, total) => {
            const increment = total ? ((shown - last) / total) * 100 : undefined;
            last = shown;
            progress.report({ message: `${shown.toLocaleString()}${total !== undefined ? ` of ${total.toLocaleString()}` : ''}`, increment });
          });
        } finally {
          sub.dispose();
        }
      },
    );
  }

  private async find(query?: string): Promise<ExplorerNode | undefined> {
    const text =
      query ??
      (await vscode.window.showInputBox({
        title: 'Find in DAM',
        prompt: 'Words to search for, or a search expression such as Title = "Sunset*" AND ContentType = Image',
        ignoreFocusOut: true,
      }));
    if (!text?.trim()) return undefined;
    const results = await vscode.window.withProgress({ location: { viewId: VIEW_EXPLORER }, title: 'Searching' }, () => this.provider.find(text.trim()));
    if (results) await this.view.reveal(results, { expand: true, focus: true, select: true });
    return results;
  }

  private async copyIds(node?: ExplorerNode, selected?: ExplorerNode[]): Promise<string | undefined> {
    const nodes = selected?.length ? selected : node ? [node] : [...this.view.selection];
    const ids = nodes.filter((n) => n.kind === 'record' || n.kind === 'classification').map((n) => n.id);
    if (ids.length === 0) return undefined;
    const text = ids.join('\n');
    await vscode.env.clipboard.writeText(text);
    vscode.window.setStatusBarMessage(`Copied ${ids.length === 1 ? 'id' : `${ids.length} ids`}`, 3000);
    return text;
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
