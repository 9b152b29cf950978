// The DAM Explorer's data: classifications fetched lazily on expand, the records under each paged by
// cursor (never silently capped), errors shown as inline nodes with a retry, and search results.
import * as vscode from 'vscode';
import type { DamClient } from '../../api/client';
import type { Classification, DamRecord } from '../../api/schemas';
import { Commands, SECTION } from '../commandIds';
import type { ConnectionManager } from '../connections/connectionManager';
import type { DamLog } from '../log';
import { NodeContext, classificationLabel, keyOf, recordLabel, type ExplorerNode, type RecordPaging } from './nodes';


type ClassificationNode = Extract<ExplorerNode, { kind: 'classification' }>;

export class ExplorerProvider implements vscode.TreeDataProvider<ExplorerNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ExplorerNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  /** Every node handed to VS Code, by key, so `getParent` and `reveal` work. */
  private readonly nodes = new Map<string, ExplorerNode>();
  private roots: ClassificationNode[] | undefined;
  private readonly childClassifications = new Map<string, ClassificationNode[]>();
  private readonly paging = new Map<string, RecordPaging>();
  private results: Extract<ExplorerNode, { kind: 'results' }> | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly connections: ConnectionManager,
    private readonly log: DamLog,
  ) {
    this.subscriptions.push(connections.onDidChange(() => this.reset()));
  }

  private get client(): DamClient | undefined {
    return this.connections.session?.client;
  }

  /** Forgets everything fetched and redraws from the top (connection changed). */
  reset(): void {
    this.nodes.clear();
    this.roots = undefined;
    this.childClassifications.clear();
    this.paging.clear();
    this.results = undefined;
    this.changed.fire(undefined);
  }

  /** Refetches below `node` (or everything). Keys stay the same, so VS Code keeps what was expanded. */
  refresh(node?: ExplorerNode): void {
    if (!node) {
      this.roots = undefined;
      this.childClassifications.clear();
      this.paging.clear();
      this.changed.fire(undefined);
      return;
    }
    const target = node.kind === 'classification' ? node : node.parentKey ? this.nodes.get(node.parentKey) : undefined;
    if (target?.kind === 'classification') {
      this.childClassifications.delete(target.id);
      this.paging.delete(target.id);
      this.changed.fire(target);
    } else {
      this.refresh();
    }
  }

  /** Retry after an error node: refetch the level it stands in. */
  retry(message: ExplorerNode): void {
    const parent = message.parentKey ? this.nodes.get(message.parentKey) : undefined;
    this.refresh(parent);
  }

  getTreeItem(node: ExplorerNode): vscode.TreeItem {
    switch (node.kind) {
      case 'classification': {
        const c = node.classification;
        const item = new vscode.TreeItem(classificationLabel(c), vscode.TreeItemCollapsibleState.Collapsed);
        item.id = keyOf(node);
        item.contextValue = NodeContext.classification;
        item.iconPath = new vscode.ThemeIcon('symbol-folder');
        const paging = this.paging.get(node.id);
        if (paging?.totalCount !== undefined) item.description = `${paging.totalCount.toLocaleString()} record${paging.totalCount === 1 ? '' : 's'}`;
        item.tooltip = new vscode.MarkdownString(`**${md(classificationLabel(c))}**\n\n${c.namePath ? `\`${md(c.namePath)}\`\n\n` : ''}id \`${c.id}\``);
        return item;
      }
      case 'record': {
        const r = node.record;
        const item = new vscode.TreeItem(recordLabel(r), vscode.TreeItemCollapsibleState.None);
        item.id = keyOf(node);
        item.contextValue = NodeContext.record;
        item.iconPath = new vscode.ThemeIcon(iconForContentType(r.contentType));
        item.description = [r.status, shortDate(r.modifiedOn)].filter(Boolean).join(' · ');
        item.tooltip = recordTooltip(r);
        return item;
      }
      case 'loadMore': {
        const total = node.total !== undefined ? ` of ${node.total.toLocaleString()}` : '';
        const item = new vscode.TreeItem('Load more…', vscode.TreeItemCollapsibleState.None);
        item.id = keyOf(node);
        item.description = `${node.shown.toLocaleString()}${total} shown`;
        item.contextValue = NodeContext.loadMore;
        item.iconPath = new vscode.ThemeIcon('ellipsis');
        item.command = { command: Commands.explorerLoadMore, title: 'Load more', arguments: [node] };
        return item;
      }
      case 'message': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.id = keyOf(node);
        item.description = node.detail;
        item.tooltip = node.detail ? `${node.text}\n${node.detail}` : node.text;
        item.iconPath = new vscode.ThemeIcon(node.severity === 'error' ? 'error' : 'info', node.severity === 'error' ? new vscode.ThemeColor('errorForeground') : undefined);
        item.contextValue = node.action === 'retry' ? NodeContext.messageRetry : NodeContext.message;
        if (node.action === 'retry') item.command = { command: Commands.explorerRetry, title: 'Retry', arguments: [node] };
        if (node.action === 'signIn') item.command = { command: Commands.signIn, title: 'Sign in again' };
        return item;
      }
      case 'results': {
        const item = new vscode.TreeItem(`Results for “${node.query}”`, vscode.TreeItemCollapsibleState.Expanded);
        item.id = keyOf(node);
        item.contextValue = NodeContext.results;
        item.iconPath = new vscode.ThemeIcon('search');
        const total = node.total !== undefined ? ` of ${node.total.toLocaleString()}` : '';
        item.description = `${node.hits.length.toLocaleString()}${total}`;
        return item;
      }
    }
  }

  getParent(node: ExplorerNode): ExplorerNode | undefined {
    return node.parentKey ? this.nodes.get(node.parentKey) : undefined;
  }

  async getChildren(node?: ExplorerNode): Promise<ExplorerNode[]> {
    const client = this.client;
    if (!client) return [];
    const parentKey = node ? keyOf(node) : undefined;
    try {
      if (!node) return this.track([...(this.results ? [this.results] : []), ...(await this.rootNodes(client))]);
      if (node.kind === 'results') return this.track(node.hits.map((record) => ({ kind: 'record' as const, id: record.id, parentKey: keyOf(node), record })));
      if (node.kind !== 'classification') return [];
      const [children, paging] = await Promise.all([this.childNodes(client, node), this.firstPage(client, node.id)]);
      const out: ExplorerNode[] = [...children, ...paging.records.map((record) => ({ kind: 'record' as const, id: record.id, parentKey: keyOf(node), record }))];
      if (paging.nextCursor) out.push({ kind: 'loadMore', id: node.id, parentKey: keyOf(node), classificationId: node.id, shown: paging.records.length, total: paging.totalCount });
      if (out.length === 0) out.push({ kind: 'message', id: 'empty', parentKey: keyOf(node), text: 'No records', severity: 'info' });
      return this.track(out);
    } catch (err) {
      return this.track([this.errorNode(err, parentKey)]);
    }
  }

  /** Fetches the next page of records under a classification and redraws it. */
  async loadMore(classificationId: string, signal?: AbortSignal): Promise<number> {
    const client = this.client;
    const paging = this.paging.get(classificationId);
    if (!client || !paging?.nextCursor) return 0;
    const page = await client.search.records(this.recordQuery(classificationId, signal), { cursor: paging.nextCursor });
    paging.records.push(...page.items);
    paging.nextCursor = page.nextCursor ?? undefined;
    paging.totalCount = page.totalCount ?? paging.totalCount;
    const node = this.nodes.get(`cls:${classificationId}`);
    this.changed.fire(node);
    return page.items.length;
  }

  /** Streams every remaining page; `onPage` hears the running count. Stops early when `signal` aborts. */
  async loadAll(classificationId: string, signal: AbortSignal, onPage: (shown: number, total: number | undefined) => void): Promise<void> {
    const client = this.client;
    if (!client) return;
    const paging = await this.firstPage(client, classificationId);
    const node = this.nodes.get(`cls:${classificationId}`);
    let lastRedraw = Date.now();
    while (paging.nextCursor && !signal.aborted) {
      const page = await client.search.records(this.recordQuery(classificationId, signal), { cursor: paging.nextCursor });
      paging.records.push(...page.items);
      paging.nextCursor = page.nextCursor ?? undefined;
      paging.totalCount = page.totalCount ?? paging.totalCount;
      onPage(paging.records.length, paging.totalCount);
      // Redrawing a long list on every page would cost more than fetching it.
      if (Date.now() - lastRedraw > 500) {
        this.changed.fire(node);
        lastRedraw = Date.now();
      }
    }
    this.changed.fire(node);
  }

  /** Runs a server-side search and shows its first page as a "Results" node at the top. */
  async find(query: string, signal?: AbortSignal): Promise<Extract<ExplorerNode, { kind: 'results' }> | undefined> {
    const client = this.client;
    if (!client) return undefined;
    const page = await client.search.records({ expression: query, pageSize: 100, signal });
    this.results = { kind: 'results', id: 'find', parentKey: undefined, query, hits: page.items, total: page.totalCount ?? undefined };
    this.track([this.results]);
    this.changed.fire(undefined);
    return this.results;
  }

  clearFind(): void {
    this.results = undefined;
    this.changed.fire(undefined);
  }

  /** What is loaded under a classification (for tests and status). */
  pagingOf(classificationId: string): Readonly<RecordPaging> | undefined {
    return this.paging.get(classificationId);
  }

  private recordQuery(classificationId: string, signal?: AbortSignal) {
    // Cursor paging needs the same expression and sort on every page; the id travels as a parameter.
    return { expression: 'DirectClassification = @classification', namedParameters: { classification: classificationId }, sort: 'Title', pageSize: pageSize(), signal };
  }

  private async firstPage(client: DamClient, classificationId: string): Promise<RecordPaging> {
    const existing = this.paging.get(classificationId);
    if (existing?.started) return existing;
    const page = await client.search.records(this.recordQuery(classificationId));
    const paging: RecordPaging = { records: page.items, nextCursor: page.nextCursor ?? undefined, totalCount: page.totalCount ?? undefined, started: true };
    this.paging.set(classificationId, paging);
    return paging;
  }

  private async rootNodes(client: DamClient): Promise<ClassificationNode[]> {
    if (!this.roots) {
      // The spec names no "roots" filter: read the collection and keep the classifications without a parent.
      const roots: Classification[] = [];
      for await (const c of client.classifications.items({ pageSize: 1000 })) if (c.isRoot || !c.parentId) roots.push(c);
      this.roots = sortClassifications(roots).map((classification) => ({ kind: 'classification', id: classification.id, parentKey: undefined, classification }));
    }
    return this.roots;
  }

  private async childNodes(client: DamClient, node: ClassificationNode): Promise<ClassificationNode[]> {
    let children = this.childClassifications.get(node.id);
    if (!children) {
      const list = await client.classifications.children(node.classification);
      children = sortClassifications(list).map((classification) => ({ kind: 'classification', id: classification.id, parentKey: keyOf(node), classification }));
      this.childClassifications.set(node.id, children);
    }
    return children;
  }

  private errorNode(err: unknown, parentKey: string | undefined): ExplorerNode {
    // Read by shape, not instanceof: the client's error classes load with the client, after activation.
    const status = (err as { status?: unknown } | null)?.status;
    if ((err as Error | null)?.name === 'AuthRequiredError' || status === 401) {
      void this.connections.promptSignIn();
      return { kind: 'message', id: 'auth', parentKey, text: 'Sign-in needed', detail: 'click to sign in again', severity: 'error', action: 'signIn' };
    }
    const message = this.log.scrub(err instanceof Error ? err.message : String(err));
    this.log.warn(`Explorer: ${message}`);
    return { kind: 'message', id: 'error', parentKey, text: 'Could not load', detail: message, severity: 'error', action: 'retry' };
  }

  private track<T extends ExplorerNode>(nodes: T[]): T[] {
    for (const node of nodes) this.nodes.set(keyOf(node), node);
    return nodes;
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.changed.dispose();
  }
}

function pageSize(): number {
  const value = vscode.workspace.getConfiguration(SECTION).get<number>('explorer.pageSize') ?? 50;
  return Math.min(100, Math.max(1, Math.floor(value)));
}

function sortClassifications(list: Classification[]): Classification[] {
  return [...list].sort((a, b) => (a.sortIndex ?? 0) - (b.sortIndex ?? 0) || classificationLabel(a).localeCompare(classificationLabel(b)));
}

function iconForContentType(type: string | null | undefined): string {
  switch ((type ?? '').toLowerCase()) {
    case 'image':
      return 'file-media';
    case 'video':
      return 'device-camera-video';
    case 'document':
      return 'file-pdf';
    case 'audio':
      return 'unmute';
    default:
      return 'file';
  }
}

function shortDate(iso: string | null | undefined): string | undefined {
  if (!iso) return undefined;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString().slice(0, 10);
}

function md(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

function recordTooltip(r: DamRecord): vscode.MarkdownString {
  const tip = new vscode.MarkdownString(undefined, true);
  tip.appendMarkdown(`**${md(recordLabel(r))}**\n\n`);
  const rows: [string, string | null | undefined][] = [
    ['Content type', r.contentType],
    ['Status', r.status],
    ['Modified', r.modifiedOn],
    ['Created', r.createdOn],
    ['Id', r.id],
  ];
  for (const [label, value] of rows) if (value) tip.appendMarkdown(`${label}: \`${md(String(value))}\`  \n`);
  return tip;
}
