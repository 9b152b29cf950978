// The DAM Explorer's data: classifications fetched lazily on expand, the records under each paged by
// cursor (never silently capped), errors shown as inline nodes with a retry, and search results.
import * as vscode from 'vscode';
import type { DamClient } from '../../api/client';
import type { FileVersion } from '../../api/files';
import type { Classification } from '../../api/schemas';
import { Commands, SECTION } from '../commandIds';
import type { ConnectionManager } from '../connections/connectionManager';
import type { DamLog } from '../log';
import { badgeMeaning, resultBadge } from './badges';
import { checkUri, type CheckDecorations } from './decorations';
import { fileDataOf } from './fileDataCache';
import { NodeContext, classificationLabel, keyOf, plainWords, recordLabel, wordsExpression, type CheckResultView, type ExplorerNode } from './nodes';
import { RecordPages, hasMore, type RecordPaging, type RecordRow } from './recordPages';
import { byTitle, compareNames } from '../names';
import { readableTime } from '../dates';
import { guidKey } from '../../core/search';

type ClassificationNode = Extract<ExplorerNode, { kind: 'classification' }>;
type RecordNode = Extract<ExplorerNode, { kind: 'record' }>;

export class ExplorerProvider implements vscode.TreeDataProvider<ExplorerNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ExplorerNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  /** Every node handed to VS Code, by key, so `getParent` and `reveal` work. */
  private readonly nodes = new Map<string, ExplorerNode>();
  private roots: ClassificationNode[] | undefined;
  private readonly childClassifications = new Map<string, Promise<ClassificationNode[]>>();
  /** Classifications refreshed by the user: their children are asked for even when the service said they had none. */
  private readonly refreshed = new Set<string>();
  /** A record's row is made once, when its page arrives, so VS Code and every caller hold the same node object. */
  private readonly paging = new RecordPages<RecordNode>(pageSize, (classificationId, record) => ({ kind: 'record', id: record.id, parentKey: `cls:${classificationId}`, record }));
  /** The record rows under the current search results, built once so every caller holds the same objects. */
  private resultRows: Extract<ExplorerNode, { kind: 'record' }>[] | undefined;
  private results: Extract<ExplorerNode, { kind: 'results' }> | undefined;
  private searches = 0;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly connections: ConnectionManager,
    private readonly log: DamLog,
    private readonly decorations?: CheckDecorations,
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
    this.rootsLoading = undefined;
    this.childClassifications.clear();
    this.refreshed.clear();
    this.paging.clear();
    this.results = undefined;
    this.resultRows = undefined;
    this.changed.fire(undefined);
  }

  /** Refetches below `node` (or everything). Keys stay the same, so VS Code keeps what was expanded. */
  refresh(node?: ExplorerNode): void {
    // VS Code knows the element it was last given for a key; a caller may hold an older copy.
    if (node) node = this.nodes.get(keyOf(node)) ?? node;
    if (!node) {
      this.roots = undefined;
      this.rootsLoading = undefined;
      this.childClassifications.clear();
      this.paging.clear();
      this.changed.fire(undefined);
      return;
    }
    if (node.kind === 'record' || node.kind === 'file' || node.kind === 'version' || node.kind === 'checkResult') {
      // Below a record nothing is cached by the provider: redrawing the node reads its children again.
      if (node.kind === 'record') this.decorations?.forget('record', node.id);
      if (node.kind === 'version') this.decorations?.forget('version', node.id);
      this.changed.fire(node);
      return;
    }
    const target = node.kind === 'classification' ? node : node.parentKey ? this.nodes.get(node.parentKey) : undefined;
    if (target?.kind === 'classification') {
      this.childClassifications.delete(target.id);
      this.refreshed.add(target.id);
      this.paging.forget(target.id);
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
        item.tooltip = new vscode.MarkdownString(`**${md(classificationLabel(c))}**\n\n${c.namePath ? `${code(c.namePath)}\n\n` : ''}id \`${c.id}\``);
        return item;
      }
      case 'record': {
        const r = node.record;
        const item = new vscode.TreeItem(recordLabel(r), vscode.TreeItemCollapsibleState.Collapsed);
        item.id = keyOf(node);
        item.contextValue = NodeContext.record;
        item.iconPath = new vscode.ThemeIcon(iconForContentType(r.contentType));
        item.description = [r.status, shortDate(r.modifiedOn)].filter(Boolean).join(' · ');
        item.resourceUri = checkUri('record', r.id);
        // The tooltip (with the thumbnail) is built in resolveTreeItem, only when the pointer rests on the row.
        return item;
      }
      case 'file': {
        const f = node.file;
        const label = f.isMaster ? 'Master file' : `File ${node.index + 1}`;
        const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = keyOf(node);
        item.contextValue = NodeContext.file;
        item.iconPath = new vscode.ThemeIcon(f.isMaster ? 'file-symlink-file' : 'file');
        item.description = shortDate(f.modifiedOn ?? f.createdOn);
        // Names for the screen reader and the hover; the id only in the hover and Copy Id.
        const parent = this.nodes.get(node.parentKey);
        const of = parent?.kind === 'record' ? ` of ${recordLabel(parent.record)}` : '';
        item.accessibilityInformation = { label: [label + of, item.description].filter(Boolean).join(', ') };
        item.tooltip = new vscode.MarkdownString(`**${md(label)}**${md(of)}\n\nid \`${f.id}\``);
        return item;
      }
      case 'version': {
        const v = node.version;
        const name = v.fileName ?? `version ${v.version ?? '?'}`;
        const item = new vscode.TreeItem(`${v.versionLabel || `v${v.version ?? '?'}`} · ${name}`, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = keyOf(node);
        item.contextValue = isImage(v.mimeType, v.extension) ? NodeContext.versionImage : NodeContext.version;
        item.iconPath = new vscode.ThemeIcon(iconForMime(v.mimeType, v.extension));
        item.description = [formatSize(v.fileSize), shortDate(v.createdOn), node.latest ? 'latest' : undefined].filter(Boolean).join(' · ');
        item.resourceUri = checkUri('version', v.id);
        item.tooltip = versionTooltip(v);
        if (isImage(v.mimeType, v.extension)) item.command = { command: Commands.explorerOpenPreview, title: 'Open preview', arguments: [node] };
        return item;
      }
      case 'rendition': {
        const a = node.rendition;
        const item = new vscode.TreeItem(a.name ?? a.preset ?? a.id, vscode.TreeItemCollapsibleState.None);
        item.id = keyOf(node);
        const image = isImage(a.mimeType, a.format);
        item.contextValue = image ? NodeContext.renditionImage : NodeContext.rendition;
        item.iconPath = new vscode.ThemeIcon(image ? 'file-media' : 'file-binary');
        item.description = ['rendition', a.preset, a.width && a.height ? `${a.width}×${a.height}` : undefined, formatSize(a.fileSize)].filter(Boolean).join(' · ');
        if (image) item.command = { command: Commands.explorerOpenPreview, title: 'Open preview', arguments: [node] };
        return item;
      }
      case 'checkResult': {
        const c = node.result;
        const item = new vscode.TreeItem(c.checkName ?? 'Unnamed check', c.findings.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
        item.id = keyOf(node);
        item.contextValue = NodeContext.checkResult;
        const badge = resultBadge(c);
        item.iconPath = new vscode.ThemeIcon(outcomeIcon(c.outcome ?? undefined, badge?.color), outcomeColor(badge?.color));
        item.description = [badge?.label ?? 'no findings', shortDate(c.createdOn)].filter(Boolean).join(' · ');
        item.resourceUri = checkUri('result', c.id);
        const tip = new vscode.MarkdownString(`**${md(c.checkName ?? 'Unnamed check')}**\n\n`);
        // The description is the service's Markdown: shown, but never trusted with commands or HTML.
        tip.appendMarkdown(c.description);
        tip.appendMarkdown(`\n\ncheck id \`${c.checkId}\` · result id \`${c.id}\``);
        tip.isTrusted = false;
        tip.supportHtml = false;
        item.tooltip = tip;
        return item;
      }
      case 'finding': {
        const f = node.finding;
        const item = new vscode.TreeItem(`${f.occurrence}. ${f.finding}`, vscode.TreeItemCollapsibleState.None);
        item.id = keyOf(node);
        item.contextValue = NodeContext.finding;
        item.iconPath = new vscode.ThemeIcon(outcomeIcon(f.outcome, undefined), outcomeColor(f.outcome ? OUTCOME_COLOR[f.outcome] : undefined));
        item.description = f.outcome;
        const tip = new vscode.MarkdownString();
        tip.appendText(f.finding);
        if (f.explanation) tip.appendMarkdown(`\n\n**Why:** ${f.explanation}`);
        if (f.recommendation) tip.appendMarkdown(`\n\n**Next step:** ${f.recommendation}`);
        item.tooltip = tip;
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
        // A record looked up by id (a rendition made, a request's record, a reveal outside the tree) is named by its
        // title: `Results for “Id = 0a567e5d…”` showed an id where a name belongs.
        const byId = /^\s*Id\s*=\s*'?([0-9a-f-]{32,36})'?\s*$/i.exec(node.query)?.[1];
        const one = byId && node.hits.length === 1 && guidKey(node.hits[0].id) === guidKey(byId) ? node.hits[0] : undefined;
        const item = new vscode.TreeItem(one?.title ? `Record “${one.title}”` : `Results for “${node.query}”`, vscode.TreeItemCollapsibleState.Expanded);
        if (one?.title) item.tooltip = `Found by its id: ${node.query}`;
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
      if (node.kind === 'record') return this.track(await this.fileNodes(client, node));
      if (node.kind === 'file') return this.track(await this.versionNodes(client, node));
      if (node.kind === 'version') return this.track(await this.versionChildren(client, node));
      if (node.kind === 'checkResult') return this.track(node.result.findings.map((finding) => ({ kind: 'finding' as const, id: String(finding.occurrence), parentKey: keyOf(node), finding })));
      if (node.kind === 'results') return this.track(this.resultRowsOf(node));
      if (node.kind !== 'classification') return [];
      // The records' page goes out first: it is the slower answer, and the service takes requests in order.
      const [paging, children] = await Promise.all([this.paging.first(client, node.id), this.childNodes(client, node)]);
      // The service pages by title in its own collation (the emulator's is case-sensitive): the loaded rows are shown as people sort names.
      const out: ExplorerNode[] = [...children, ...[...paging.rows].sort(byTitle)];
      if (hasMore(paging)) out.push({ kind: 'loadMore', id: node.id, parentKey: keyOf(node), classificationId: node.id, shown: paging.rows.length, total: paging.totalCount });
      if (out.length === 0) out.push({ kind: 'message', id: 'empty', parentKey: keyOf(node), text: 'No records', severity: 'info' });
      return this.track(out);
    } catch (err) {
      return this.track([this.errorNode(err, parentKey)]);
    }
  }

  /** The record's tooltip with its thumbnail, built when the pointer rests on the row. */
  async resolveTreeItem(item: vscode.TreeItem, node: ExplorerNode, token: vscode.CancellationToken): Promise<vscode.TreeItem> {
    if (node.kind !== 'record' || item.tooltip) return item;
    const tip = recordTooltip(node.record);
    // The badge's colour and text mean the checks of the newest master version: the hover says so in words.
    const badge = this.decorations?.badgeOf('record', node.record.id);
    if (badge) tip.appendMarkdown(`Checks of the newest master version: ${md(badge.label)} (${md(badgeMeaning(badge))})  \n`);
    const client = this.client;
    if (client && hasThumbnail(node.record)) {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        const { bytes, contentType } = await fileDataOf(client).thumbnail(node.record, abort.signal);
        // A data URI: the hover cannot send our bearer token to fetch the image itself.
        const mime = /^image\/(png|jpe?g|gif|webp)$/i.test(contentType ?? '') ? contentType : 'image/png';
        if (bytes.byteLength <= MAX_THUMBNAIL_BYTES) tip.appendMarkdown(`\n![thumbnail](data:${mime};base64,${Buffer.from(bytes).toString('base64')}|width=200)\n`);
      } catch {
        // No thumbnail (404 for records without an image): the text tooltip stands on its own.
      } finally {
        sub.dispose();
      }
    }
    item.tooltip = tip;
    return item;
  }

  /** Drops what is loaded below a record (after a new version), keeping the record row. */
  refreshRecord(recordId: string): void {
    for (const node of this.nodes.values()) if (node.kind === 'record' && node.id === recordId) this.changed.fire(node);
    this.decorations?.forget('record', recordId);
  }

  /** The node a tree key stands for (tests, drag and drop). */
  nodeOf(key: string): ExplorerNode | undefined {
    return this.nodes.get(key);
  }

  /** Fetches the next page of records under a classification and redraws it. */
  async loadMore(classificationId: string, signal?: AbortSignal): Promise<number> {
    const client = this.client;
    if (!client) return 0;
    const added = await this.paging.more(client, classificationId, signal);
    this.changed.fire(this.nodes.get(`cls:${classificationId}`));
    return added;
  }

  /** Streams every remaining page; `onPage` hears the running count. Stops early when `signal` aborts. */
  async loadAll(classificationId: string, signal: AbortSignal, onPage: (shown: number, total: number | undefined) => void): Promise<void> {
    const client = this.client;
    if (!client) return;
    await this.paging.all(client, classificationId, signal, onPage, () => this.changed.fire(this.nodes.get(`cls:${classificationId}`)), (r) => r.id);
  }

  /**
   * Runs a server-side search and shows its first page as a "Results" node at the top. Plain words are
   * ranked by relevance, with records whose title is exactly those words first.
   */
  async find(query: string, signal?: AbortSignal): Promise<Extract<ExplorerNode, { kind: 'results' }> | undefined> {
    const client = this.client;
    if (!client) return undefined;
    const words = plainWords(query);
    const [page, exact] = await Promise.all([
      client.search.records({ expression: words ? wordsExpression(words) : query, pageSize: 100, signal, ...(words ? { sort: 'Rank desc' } : {}) }),
      words ? client.search.records({ expression: 'Title = @title', namedParameters: { title: words }, supportWildcards: false, pageSize: 20, signal }) : undefined,
    ]);
    const first = exact?.items ?? [];
    const hits = [...first, ...page.items.filter((r) => !first.some((e) => e.id === r.id))];
    // A new id per search: VS Code remembers a row's collapsed state by id, and new results should show open.
    this.results = { kind: 'results', id: `find-${++this.searches}`, parentKey: undefined, query, hits, total: page.totalCount ?? undefined };
    this.resultRows = undefined;
    this.track([this.results]);
    this.changed.fire(undefined);
    return this.results;
  }

  /**
   * The record's row where it lives in the tree: below its classification path (each level read as on
   * expand, pages of the classification loaded until the record is among them), tracked so VS Code can
   * reveal it. A record in no classification comes as a search result. Undefined when there is no such record.
   */
  async locateRecord(recordId: string, signal?: AbortSignal): Promise<ExplorerNode | undefined> {
    const client = this.client;
    if (!client) return undefined;
    const listed = itemsOf(await client.get(`record/${encodeURIComponent(recordId)}/classifications`, { signal }).catch((err: unknown) => {
      if ((err as { status?: unknown }).status === 404) return undefined;
      throw err;
    }));
    const direct = listed[0] as Classification | undefined;
    if (direct) {
      const ancestors = await client.classifications.ancestors(direct.id, { signal });
      let level: ClassificationNode[] = this.track(await this.rootNodes(client));
      let node: ClassificationNode | undefined;
      for (const c of [...ancestors, direct]) {
        node = level.find((n) => n.id === c.id);
        if (!node) break;
        if (c.id !== direct.id) level = this.track(await this.childNodes(client, node));
      }
      if (node?.id === direct.id) {
        const paging = await this.paging.first(client, node.id);
        for (let pages = 0; !paging.rows.some((r) => r.id === recordId) && hasMore(paging) && pages < MAX_REVEAL_PAGES; pages++) await this.loadMore(node.id, signal);
        // The row VS Code was given for the record (rows are made once per record), so it can reveal it.
        const row = paging.rows.find((r) => r.id === recordId);
        if (row) {
          this.track([row]);
          this.changed.fire(node);
          return row;
        }
      }
    }
    const results = await this.find(`Id = ${recordId}`, signal);
    return results ? this.resultRowsOf(results).find((r) => r.id === recordId) : undefined;
  }

  clearFind(): void {
    this.results = undefined;
    this.resultRows = undefined;
    this.changed.fire(undefined);
  }

  /** What is loaded under a classification (for tests and status). */
  pagingOf(classificationId: string): Readonly<RecordPaging<RecordNode>> | undefined {
    return this.paging.get(classificationId);
  }

  private resultRowsOf(node: Extract<ExplorerNode, { kind: 'results' }>): Extract<ExplorerNode, { kind: 'record' }>[] {
    const rows = node.hits.map((record) => ({ kind: 'record' as const, id: record.id, parentKey: keyOf(node), record }));
    if (node !== this.results) return rows;
    // VS Code redraws the results when it likes; a caller holding a row must still find it as the parent of its files.
    this.resultRows ??= rows;
    return this.resultRows;
  }

  /** The roots on their way: VS Code's tree and a command asking at the same time share one read. */
  private rootsLoading?: { client: DamClient; promise: Promise<ClassificationNode[]> };

  private rootNodes(client: DamClient): Promise<ClassificationNode[]> {
    if (this.roots) return Promise.resolve(this.roots);
    if (this.rootsLoading?.client !== client) {
      const promise: Promise<ClassificationNode[]> = this.readRoots(client).then(
        (roots) => {
          // Kept only if no refresh came in between; the caller gets its rows either way.
          if (this.rootsLoading?.promise === promise) {
            this.rootsLoading = undefined;
            this.roots = roots;
          }
          return roots;
        },
        (err: unknown) => {
          if (this.rootsLoading?.promise === promise) this.rootsLoading = undefined;
          throw err;
        },
      );
      this.rootsLoading = { client, promise };
    }
    return this.rootsLoading.promise;
  }

  private async readRoots(client: DamClient): Promise<ClassificationNode[]> {
    try {
      // The spec names no "roots" filter: read the collection and keep the classifications without a parent.
      const roots: Classification[] = [];
      for await (const c of client.classifications.items({ pageSize: 1000 })) if (c.isRoot || !c.parentId) roots.push(c);
      return sortClassifications(roots).map((classification) => ({ kind: 'classification', id: classification.id, parentKey: undefined, classification }));
    } finally {
      this.connections.firstRowsShown();
    }
  }

  /** Callers at the same time share one request; a classification the service says has none is not asked until refreshed. */
  private childNodes(client: DamClient, node: ClassificationNode): Promise<ClassificationNode[]> {
    let children = this.childClassifications.get(node.id);
    if (!children) {
      const request = (node.classification.hasChildren === false && !this.refreshed.has(node.id) ? Promise.resolve([]) : client.classifications.children(node.classification)).then((list) =>
        sortClassifications(list).map((classification): ClassificationNode => ({ kind: 'classification', id: classification.id, parentKey: keyOf(node), classification })),
      );
      // A failed read is asked again next time.
      request.catch(() => {
        if (this.childClassifications.get(node.id) === request) this.childClassifications.delete(node.id);
      });
      this.childClassifications.set(node.id, (children = request));
    }
    return children;
  }

  private async fileNodes(client: DamClient, node: Extract<ExplorerNode, { kind: 'record' }>): Promise<ExplorerNode[]> {
    const files = await fileDataOf(client).files(node.id);
    if (files.length === 0) return [{ kind: 'message', id: 'nofiles', parentKey: keyOf(node), text: 'No files', severity: 'info' }];
    // The master file first: it is the one the record's thumbnail and badge come from.
    const sorted = [...files].sort((a, b) => Number(Boolean(b.isMaster)) - Number(Boolean(a.isMaster)));
    return sorted.map((file, index) => ({ kind: 'file' as const, id: file.id, parentKey: keyOf(node), recordId: node.id, file, index }));
  }

  private async versionNodes(client: DamClient, node: Extract<ExplorerNode, { kind: 'file' }>): Promise<ExplorerNode[]> {
    const versions = await fileDataOf(client).versions(node.file);
    if (versions.length === 0) return [{ kind: 'message', id: 'noversions', parentKey: keyOf(node), text: 'No versions', severity: 'info' }];
    return versions.map((version, i) => ({ kind: 'version' as const, id: version.id, parentKey: keyOf(node), recordId: node.recordId, version, latest: i === 0 && Boolean(node.file.isMaster) }));
  }

  /** A version's renditions and its check results (with findings), read together. */
  private async versionChildren(client: DamClient, node: Extract<ExplorerNode, { kind: 'version' }>): Promise<ExplorerNode[]> {
    const data = fileDataOf(client);
    const [renditions, results] = await Promise.all([data.renditions(node.id), data.checkResults(node.id).catch((err: unknown) => err as Error)]);
    const out: ExplorerNode[] = renditions.map((rendition) => ({ kind: 'rendition' as const, id: rendition.id, parentKey: keyOf(node), versionId: node.id, rendition }));
    if (results instanceof Error) {
      out.push(this.errorNode(results, keyOf(node)));
    } else {
      this.decorations?.setVersionResults(node.id, results, node.recordId, node.latest);
      const newestFirst = [...results].sort((a: CheckResultView, b: CheckResultView) => (b.createdOn ?? '').localeCompare(a.createdOn ?? ''));
      out.push(...newestFirst.map((result) => ({ kind: 'checkResult' as const, id: result.id, parentKey: keyOf(node), versionId: node.id, result })));
    }
    if (out.length === 0) out.push({ kind: 'message', id: 'empty', parentKey: keyOf(node), text: 'No renditions or check results', severity: 'info' });
    return out;
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

  /** A record's status, title or dates changed: its rows redraw from `change`, nothing is read again. */
  updateRecord(recordId: string, change: Partial<RecordRow>): void {
    for (const node of this.recordRows(recordId)) {
      Object.assign(node.record, change);
      this.changed.fire(node);
    }
  }

  /**
   * A record left `classificationId` (or the tenant, when undefined): its rows there go, only their parents redraw. A
   * classification named here lost the record on the service, so its count drops even when the row was not loaded.
   */
  removeRecord(recordId: string, classificationId?: string): void {
    const from = classificationId ? [classificationId] : this.paging.holding(recordId, (r) => r.id);
    for (const id of from) {
      if (!this.paging.remove(id, recordId, (r) => r.id, classificationId !== undefined)) continue;
      this.nodes.delete(`rec:cls:${id}:${recordId}`);
      this.changed.fire(this.nodes.get(`cls:${id}`));
    }
    if (!classificationId && this.results?.hits.some((r) => r.id === recordId)) {
      this.results.hits = this.results.hits.filter((r) => r.id !== recordId);
      if (this.results.total !== undefined) this.results.total--;
      this.resultRows = undefined;
      this.changed.fire(this.results);
    }
  }

  /** A record joined `classificationId`: placed among its loaded rows by title, only that classification redraws. */
  addRecord(record: RecordRow, classificationId: string): void {
    const node = this.nodes.get(`cls:${classificationId}`);
    if (!node || !this.paging.get(classificationId)) return;
    const row = this.paging.insert(classificationId, record, (r) => r.id, (r) => r.record.title ?? '');
    if (row) this.track([row]);
    this.changed.fire(node);
  }

  /** Reads a classification's records again when it is in the tree (after a bulk update added or took some out). */
  refreshClassification(classificationId: string): void {
    const node = this.nodes.get(`cls:${classificationId}`);
    if (node) this.refresh(node);
  }

  private recordRows(recordId: string): RecordNode[] {
    return [...this.nodes.values()].filter((n): n is RecordNode => n.kind === 'record' && n.id === recordId);
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.changed.dispose();
  }
}

/** Pages of a classification Reveal loads at most to find a record (then it shows it as a search result). */
const MAX_REVEAL_PAGES = 200;

/** `items[]` of a collection answer, read loosely (the classifications of a record). */
function itemsOf(body: unknown): unknown[] {
  const items = (body as { items?: unknown } | null | undefined)?.items;
  return Array.isArray(items) ? items : [];
}

function pageSize(): number {
  const value = vscode.workspace.getConfiguration(SECTION).get<number>('explorer.pageSize') ?? 50;
  return Math.min(100, Math.max(1, Math.floor(value)));
}

function sortClassifications(list: Classification[]): Classification[] {
  return [...list].sort((a, b) => (a.sortIndex ?? 0) - (b.sortIndex ?? 0) || compareNames(classificationLabel(a), classificationLabel(b)));
}

const MAX_THUMBNAIL_BYTES = 512 * 1024;

const OUTCOME_COLOR = { fail: 'red', warning: 'orange', pass: 'green', info: 'gray' } as const;

function hasThumbnail(r: RecordRow): boolean {
  const links = (r as { _links?: Record<string, unknown> })._links;
  // Without links (a plain answer) try anyway; with links, only when the service offers one.
  return !links || Object.keys(links).some((k) => k.toLowerCase() === 'thumbnail');
}

function isImage(mime: string | null | undefined, ext: string | null | undefined): boolean {
  return /^image\//i.test(mime ?? '') || /^\.?(png|jpe?g|gif|webp|bmp|svg)$/i.test(ext ?? '');
}

function iconForMime(mime: string | null | undefined, ext: string | null | undefined): string {
  if (isImage(mime, ext)) return 'file-media';
  if (/^video\//i.test(mime ?? '')) return 'device-camera-video';
  if (/pdf/i.test(mime ?? '') || /^\.?pdf$/i.test(ext ?? '')) return 'file-pdf';
  return 'file';
}

function outcomeIcon(outcome: string | undefined, color: string | undefined): string {
  const c = color ?? (outcome ? OUTCOME_COLOR[outcome as keyof typeof OUTCOME_COLOR] : undefined);
  return c === 'red' ? 'error' : c === 'orange' ? 'warning' : c === 'green' ? 'pass' : c === 'gray' ? 'info' : 'circle-outline';
}

function outcomeColor(color: string | undefined): vscode.ThemeColor | undefined {
  return color === 'red' ? new vscode.ThemeColor('charts.red') : color === 'orange' ? new vscode.ThemeColor('charts.orange') : color === 'green' ? new vscode.ThemeColor('charts.green') : undefined;
}

function formatSize(bytes: number | null | undefined): string | undefined {
  if (typeof bytes !== 'number') return undefined;
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function versionTooltip(v: FileVersion): vscode.MarkdownString {
  const tip = new vscode.MarkdownString();
  tip.appendMarkdown(`**${md(v.fileName ?? v.id)}**\n\n`);
  const rows: [string, unknown][] = [
    ['Version', v.versionLabel ?? v.version],
    ['Comment', v.comment],
    ['Type', v.mimeType],
    ['Size', formatSize(v.fileSize)],
    ['Dimensions', v.width && v.height ? `${v.width}×${v.height}` : undefined],
    ['Created', v.createdOn],
    ['Id', v.id],
  ];
  for (const [label, value] of rows) if (value !== undefined && value !== null && value !== '') tip.appendMarkdown(`${label}: ${code(String(value))}  \n`);
  return tip;
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

/** A code span: backslash escapes are literal inside one, so only backticks need care (a longer fence). */
function code(text: string): string {
  const fence = text.includes('`') ? '`` ' : '`';
  return `${fence}${text}${fence.split('').reverse().join('')}`;
}

function md(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

function recordTooltip(r: RecordRow): vscode.MarkdownString {
  const tip = new vscode.MarkdownString(undefined, true);
  tip.appendMarkdown(`**${md(recordLabel(r))}**\n\n`);
  const rows: [string, string | null | undefined][] = [
    ['Content type', r.contentType],
    ['Status', r.status],
    ['Modified', r.modifiedOn],
    ['Created', r.createdOn],
    ['Id', r.id],
  ];
  for (const [label, value] of rows) if (value) tip.appendMarkdown(`${label}: ${label === 'Modified' || label === 'Created' ? (readableTime(String(value)) ?? code(String(value))) : code(String(value))}  \n`);
  return tip;
}
