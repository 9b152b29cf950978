// The DAM Explorer view: its tree, its commands, and the status line it shows while the service throttles.
import * as vscode from 'vscode';
import { explorerNodeArg, explorerNodesArg, stringArg } from '../commandArgs';
import { Commands, VIEW_EXPLORER } from '../commandIds';
import type { ConnectionManager } from '../connections/connectionManager';
import type { DamLog } from '../log';
import { inWords } from '../errorWords';
import { registerCommand } from '../registration';
import { DamFileSystem, DAM_SCHEME, recordUri, renditionUri, thumbnailUri, versionUri } from './damFs';
import { CheckDecorations } from './decorations';
import { ExplorerDragAndDrop } from './dragAndDrop';
import { ExplorerProvider } from './explorerProvider';
import { hrefOf } from './fileData';
import { connectionMessage, recordLabel, renditionFileName, sayWhere, webUiAddress, type ExplorerNode } from './nodes';

const ID_KINDS: ReadonlySet<ExplorerNode['kind']> = new Set(['record', 'classification', 'file', 'version', 'rendition', 'checkResult']);

export class Explorer implements vscode.Disposable {
  readonly provider: ExplorerProvider;
  readonly view: vscode.TreeView<ExplorerNode>;
  readonly decorations: CheckDecorations;
  readonly fileSystem: DamFileSystem;
  readonly dragAndDrop: ExplorerDragAndDrop;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly connections: ConnectionManager,
    private readonly log: DamLog,
  ) {
    const d = this.disposables;
    this.decorations = new CheckDecorations(connections);
    d.push(this.decorations, vscode.window.registerFileDecorationProvider(this.decorations));
    // Not read-only as a whole: record documents are written back (src/extension/records); every other
    // resource's stat says it is read-only.
    this.fileSystem = new DamFileSystem(connections);
    d.push(this.fileSystem, vscode.workspace.registerFileSystemProvider(DAM_SCHEME, this.fileSystem, { isCaseSensitive: true }));
    this.provider = new ExplorerProvider(connections, log, this.decorations);
    d.push(this.provider);
    this.dragAndDrop = new ExplorerDragAndDrop(connections, this.provider, log);
    this.view = vscode.window.createTreeView(VIEW_EXPLORER, {
      treeDataProvider: this.provider,
      showCollapseAll: true,
      canSelectMany: true,
      dragAndDropController: this.dragAndDrop,
    });
    d.push(this.view);
    d.push(log.onDidRequest((e) => this.onRequest(e.status)));
    // The welcome text cannot hold a name: the view's header says which connection is signed out or failed (a
    // view message would hide the welcome and its Sign In Again).
    d.push(connections.onDidChange((state) => (this.view.description = connectionMessage(state))));

    // Run from the view's title bar these receive the selected node; only what each expects is passed on.
    registerCommand(d, log, Commands.explorerRefresh, () => this.provider.refresh());
    registerCommand(d, log, Commands.explorerRefreshNode, (node?: unknown) => this.provider.refresh(explorerNodeArg(node)));
    registerCommand(d, log, Commands.explorerRetry, (node?: unknown) => {
      const message = explorerNodeArg(node);
      if (message) this.provider.retry(message);
    });
    registerCommand(d, log, Commands.explorerLoadMore, (node?: unknown) => this.loadMore(explorerNodeArg(node)));
    registerCommand(d, log, Commands.explorerLoadAll, (node?: unknown) => this.loadAll(explorerNodeArg(node)));
    registerCommand(d, log, Commands.explorerFind, (query?: unknown) => this.find(stringArg(query)));
    registerCommand(d, log, Commands.explorerClearFind, () => this.provider.clearFind());
    registerCommand(d, log, Commands.explorerRevealRecord, (recordId?: unknown, options?: unknown) => {
      const id = stringArg(recordId);
      const focus = (options as { focus?: unknown } | undefined)?.focus;
      return id ? this.revealRecord(id, { focus: typeof focus === 'boolean' ? focus : undefined }) : undefined;
    });
    registerCommand(d, log, Commands.copyId, (node?: unknown, selected?: unknown) => this.copyIds(explorerNodeArg(node), explorerNodesArg(selected)));
    registerCommand(d, log, Commands.explorerCopyLink, (node?: unknown) => this.copyLink(explorerNodeArg(node)));
    registerCommand(d, log, Commands.explorerOpenInWebUi, (node?: unknown) => this.openInWebUi(explorerNodeArg(node)));
    registerCommand(d, log, Commands.explorerOpenPreview, (node?: unknown) => this.openPreview(explorerNodeArg(node)));
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
    // A search the service refuses (a 400 with its reason) asks again, the text kept and the reason under it.
    let refused: { text: string; why: string } | undefined;
    for (;;) {
      const text = query ?? (await askFind(refused));
      if (!text?.trim()) return undefined;
      try {
        const results = await vscode.window.withProgress({ location: { viewId: VIEW_EXPLORER }, title: 'Searching' }, () => this.provider.find(text.trim()));
        if (results) await this.view.reveal(results, { expand: true, focus: true, select: true });
        return results;
      } catch (err) {
        if (query !== undefined || (err as { status?: unknown }).status !== 400) throw err;
        this.log.warn(`Find in DAM: ${this.log.scrub(err instanceof Error ? err.message : String(err))}`);
        refused = { text, why: `The search was refused: ${this.log.scrub(sayWhere(inWords(err), text.trim()))} Correct it, or press Escape.` };
      }
    }
  }

  private async copyIds(node?: ExplorerNode, selected?: ExplorerNode[]): Promise<string | undefined> {
    const nodes = selected?.length ? selected : node ? [node] : [...this.view.selection];
    const ids = nodes.filter((n) => ID_KINDS.has(n.kind)).map((n) => n.id);
    if (ids.length === 0) return undefined;
    const text = ids.join('\n');
    await vscode.env.clipboard.writeText(text);
    vscode.window.setStatusBarMessage(`Copied ${ids.length === 1 ? 'id' : `${ids.length} ids`}`, 3000);
    return text;
  }

  /** The resource's own address (its `self` link, else the spec's path under {core_url}). */
  linkOf(node: ExplorerNode): string | undefined {
    const core = this.connections.session?.profile.endpoints.core.replace(/\/+$/, '');
    if (!core) return undefined;
    const path = (p: string) => `${core}/${p}`;
    switch (node.kind) {
      case 'record':
        return hrefOf(node.record, 'self') ?? path(`record/${node.id}`);
      case 'classification':
        return hrefOf(node.classification, 'self') ?? path(`classification/${node.id}`);
      case 'file':
        return hrefOf(node.file, 'self') ?? path(`file/${node.id}`);
      case 'version':
        return hrefOf(node.version, 'self') ?? path(`fileversion/${node.id}`);
      case 'rendition':
        return hrefOf(node.rendition, 'self') ?? hrefOf(node.rendition, 'download');
      case 'checkResult':
        return node.result.href ?? path(`fileversion/${node.versionId}/CheckResult/${node.id}`);
      case 'finding': {
        const parent = this.provider.getParent(node);
        return parent ? `${this.linkOf(parent)}/Findings/${node.finding.occurrence}` : undefined;
      }
      default:
        return undefined;
    }
  }

  private async copyLink(node?: ExplorerNode): Promise<string | undefined> {
    const target = node ?? this.view.selection[0];
    const link = target && this.linkOf(target);
    if (!link) return undefined;
    await vscode.env.clipboard.writeText(link);
    vscode.window.setStatusBarMessage('Copied link', 3000);
    return link;
  }

  /**
   * Opens the record (or classification) in the service's web UI: the profile's web address when it has
   * one, else the tenant's base address; on the emulator, the page it serves for the record (the API's JSON
   * would answer a browser 401).
   */
  private async openInWebUi(node?: ExplorerNode): Promise<string | undefined> {
    const target = node ?? this.view.selection[0];
    const profile = this.connections.session?.profile;
    if (!profile || (target?.kind !== 'record' && target?.kind !== 'classification')) return undefined;
    const url = webUiAddress(profile, target.kind, target.id) ?? this.linkOf(target);
    if (!url) return undefined;
    await vscode.env.openExternal(vscode.Uri.parse(url));
    return url;
  }

  /** Opens a version's image, a rendition or a record's thumbnail in an editor tab, through the `dam:` file system. */
  private async openPreview(node?: ExplorerNode): Promise<vscode.Uri | undefined> {
    const target = node ?? this.view.selection[0];
    let uri: vscode.Uri | undefined;
    const title = target && this.recordTitleOf(target);
    if (target?.kind === 'record') uri = await this.recordPreviewUri(target.id, recordLabel(target.record));
    else if (target?.kind === 'version') uri = versionUri(target.id, target.version.fileName ?? `version ${target.version.version ?? ''}${target.version.extension ?? ''}`, title);
    else if (target?.kind === 'rendition') uri = renditionUri(target.versionId, target.id, renditionFileName(target.rendition), title);
    if (!uri) return undefined;
    await vscode.commands.executeCommand('vscode.open', uri, { preview: true });
    return uri;
  }

  /**
   * A record's thumbnail when it has one (the file system keeps the bytes it fetched for the stat, so they are
   * read once), else its data as JSON: a document's or a video's record has no image to show.
   */
  private async recordPreviewUri(recordId: string, title: string): Promise<vscode.Uri> {
    const thumbnail = thumbnailUri(recordId, title);
    try {
      await this.fileSystem.stat(thumbnail);
      return thumbnail;
    } catch (err) {
      if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return recordUri(recordId, title);
      throw err;
    }
  }

  /** The title of the record a node is (or lies below), for names shown instead of ids. */
  recordTitleOf(node: ExplorerNode): string | undefined {
    for (let n: ExplorerNode | undefined = node; n; n = this.provider.getParent(n)) if (n.kind === 'record') return recordLabel(n.record);
    return undefined;
  }

  /**
   * Shows a record in the tree where it lives: its classification path expanded, the page holding it
   * loaded, the record selected (the query results' Reveal, and after an upload without taking the focus).
   * A record without a classification is shown under a search result instead.
   */
  async revealRecord(recordId: string, options: { focus?: boolean } = {}): Promise<ExplorerNode | undefined> {
    const focus = options.focus ?? true;
    if (focus) await vscode.commands.executeCommand(`${VIEW_EXPLORER}.focus`);
    const node = await vscode.window.withProgress({ location: { viewId: VIEW_EXPLORER }, title: 'Revealing the record' }, () => this.provider.locateRecord(recordId));
    if (!node) {
      void vscode.window.showWarningMessage('DAM: that record is no longer in the tenant (it may have been deleted).');
      return undefined;
    }
    await this.view.reveal(node, { select: true, focus, expand: false });
    return node;
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}

/**
 * The Find in DAM input; after a refused search it starts on that text with the service's reason under it, until the
 * text changes. (An input box made here, since showInputBox does not validate the value it starts with.)
 */
function askFind(refused?: { text: string; why: string }): Promise<string | undefined> {
  const box = vscode.window.createInputBox();
  box.title = 'Find in DAM';
  box.prompt = 'Words to search for, or a search expression such as Title = "Sunset*" AND ContentType = Image';
  box.ignoreFocusOut = true;
  const reason = refused && { message: refused.why, severity: vscode.InputBoxValidationSeverity.Error };
  if (refused && reason) {
    box.value = refused.text;
    box.validationMessage = reason;
  }
  return new Promise<string | undefined>((resolve) => {
    box.onDidChangeValue((value) => (box.validationMessage = reason && value === refused?.text ? reason : undefined));
    box.onDidAccept(() => {
      resolve(box.value);
      box.hide();
    });
    box.onDidHide(() => resolve(undefined));
    box.show();
  }).finally(() => box.dispose());
}
