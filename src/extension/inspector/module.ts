// The Emulator Requests view's code (dist/inspector.js), loaded when the view first shows or an inspector command
// runs: the live list (newest first, status coloured, filtered), each entry's findings as rows under it, the
// read-only details document, and the actions Copy as curl, Copy as dam command, Replay and Open Related Record.
import * as vscode from 'vscode';
import { InspectorClient } from '../../api/inspector';
import { curlCommand, damCommand, isStatusFilter, requestTarget, type EntrySummary, type Finding, type JournalFilter } from '../../core/inspector';
import { Commands, ContextKeys, RequestViewContext, VIEW_EMULATOR_REQUESTS } from '../commandIds';
import type { DamLog } from '../log';
import { renderEntry, statusIcon } from './details';

export type RequestNode =
  | { kind: 'entry'; entry: EntrySummary }
  | { kind: 'finding'; entry: EntrySummary; finding: Finding; index: number }
  | { kind: 'message'; text: string; detail?: string };

export interface InspectorHost {
  /** Redraws the view (undefined: all of it). */
  fire(node?: RequestNode): void;
  view(): vscode.TreeView<RequestNode> | undefined;
  log: DamLog;
  userAgent: string;
  /** Origin of the active connection's content host, to know whether Open Related Record can show the record. */
  connectedOrigin(): string | undefined;
}

const KEPT = 500;
/**
 * What the extension's own requests carry in their User-Agent (session.ts userAgent(): `dam-workbench/<version> vscode/…`;
 * the CLI's is `dam-workbench-cli/…` and stays shown). The view hides them unless asked: a tree of thumbnails swamped it.
 */
export const OWN_CLIENT = 'dam-workbench/';
const DETAILS_SCHEME = 'dam-request';

function statusLabel(status: number): string {
  return status === 0 ? '---' : String(status);
}

/** The details document's address: the entry id in the path, the emulator's origin in the query. */
export function detailsUri(origin: string, id: number): vscode.Uri {
  return vscode.Uri.from({ scheme: DETAILS_SCHEME, path: `/request-${id}.md`, query: `origin=${encodeURIComponent(origin)}` });
}

function parseDetailsUri(uri: vscode.Uri): { origin: string; id: number } | undefined {
  const id = Number(/request-(\d+)\.md$/.exec(uri.path)?.[1]);
  const origin = new URLSearchParams(uri.query).get('origin');
  return origin && Number.isInteger(id) ? { origin, id } : undefined;
}

export class RequestsView implements vscode.TreeDataProvider<RequestNode>, vscode.TextDocumentContentProvider, vscode.Disposable {
  private origin: string | undefined;
  private client: InspectorClient | undefined;
  private entries: EntrySummary[] = [];
  private readonly nodes = new Map<number, RequestNode & { kind: 'entry' }>();
  private filter: JournalFilter = {};
  /** Whether the extension's own requests (the DAM Explorer's pages and thumbnails) are listed too. */
  private showOwn = false;
  private visible = false;
  private live: AbortController | undefined;
  private state: { message?: string; loading: boolean } = { loading: false };
  private redraw: ReturnType<typeof setTimeout> | undefined;
  private readonly docChanged = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.docChanged.event;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly host: InspectorHost) {
    this.disposables.push(vscode.workspace.registerTextDocumentContentProvider(DETAILS_SCHEME, this), this.docChanged);
  }

  /** Points the view at an emulator (undefined: none); reloads when it changed. */
  setOrigin(origin: string | undefined): void {
    if (origin === this.origin) return;
    this.origin = origin;
    this.client = origin ? new InspectorClient(origin, { userAgent: this.host.userAgent }) : undefined;
    this.entries = [];
    this.nodes.clear();
    this.restart();
  }

  setVisible(visible: boolean): void {
    if (visible === this.visible) return;
    this.visible = visible;
    this.restart();
  }

  get currentOrigin(): string | undefined {
    return this.origin;
  }

  get shown(): readonly EntrySummary[] {
    return this.entries;
  }

  /** Loads the newest entries, then follows the stream while the view is visible. */
  private restart(): void {
    this.live?.abort();
    this.live = undefined;
    this.describe();
    if (!this.client || !this.visible) {
      this.host.fire();
      return;
    }
    const live = new AbortController();
    this.live = live;
    void this.run(this.client, live.signal);
  }

  private async run(client: InspectorClient, signal: AbortSignal): Promise<void> {
    this.state = { loading: true };
    this.host.fire();
    let since: number | undefined;
    while (!signal.aborted && since === undefined) {
      try {
        const page = await client.list(this.query(), 200, signal);
        this.entries = page.items;
        this.nodes.clear();
        since = page.lastId;
        this.state = { loading: false };
      } catch (err) {
        if (signal.aborted) return;
        this.state = { loading: false, message: `${(err as Error).message} Retrying…` };
        this.setMessage(this.state.message);
        this.host.fire();
        await new Promise((r) => setTimeout(r, 3000));
      }
    }
    if (signal.aborted) return;
    this.setMessage(undefined);
    this.host.fire();
    await client.follow(
      this.query(),
      {
        onEntry: (entry) => this.add(entry),
        onDropped: (count) => this.setMessage(`${count} request(s) came faster than the view could take them; Refresh shows them.`),
        onError: (error) => this.setMessage(`${error.message} — retrying…`),
        onOpen: (reconnect) => {
          if (reconnect) this.setMessage(undefined);
        },
      },
      signal,
      since,
    );
  }

  private add(entry: EntrySummary): void {
    if (this.entries.some((e) => e.id === entry.id)) return;
    this.entries.unshift(entry);
    this.entries.sort((a, b) => b.id - a.id);
    if (this.entries.length > KEPT) for (const gone of this.entries.splice(KEPT)) this.nodes.delete(gone.id);
    // Many requests at once redraw the tree once.
    this.redraw ??= setTimeout(() => {
      this.redraw = undefined;
      this.host.fire();
    }, 100);
  }

  /** The filter as the journal is asked: the user's, and the extension's own requests left out unless shown. */
  private query(): JournalFilter {
    return this.showOwn ? this.filter : { ...this.filter, hideClient: OWN_CLIENT };
  }

  get showsOwnRequests(): boolean {
    return this.showOwn;
  }

  /** Lists the extension's own requests too, or hides them again (the default). */
  setShowOwn(show: boolean): void {
    if (show === this.showOwn) return;
    this.showOwn = show;
    this.refresh();
  }

  private setMessage(text: string | undefined): void {
    const view = this.host.view();
    if (view) view.message = text;
  }

  private describe(): void {
    const view = this.host.view();
    const parts = [
      this.filter.status && `status ${this.filter.status}`,
      this.filter.route && `route “${this.filter.route}”`,
      this.filter.client && `client “${this.filter.client}”`,
      this.filter.withFindings && 'with findings',
    ].filter(Boolean);
    if (view) view.description = parts.length ? `${parts.join(' · ')}` : this.origin?.replace(/^https?:\/\//, '');
    void vscode.commands.executeCommand('setContext', ContextKeys.inspectorFiltered, parts.length > 0);
  }

  private entryNode(entry: EntrySummary): RequestNode & { kind: 'entry' } {
    let node = this.nodes.get(entry.id);
    if (!node || node.entry !== entry) {
      node = { kind: 'entry', entry };
      this.nodes.set(entry.id, node);
    }
    return node;
  }

  getChildren(node?: RequestNode): RequestNode[] {
    if (!node) {
      if (!this.origin) return [{ kind: 'message', text: 'No emulator to inspect', detail: 'Start the local emulator, or point the view at one with “Inspect Emulator at…”.' }];
      if (this.state.loading) return [{ kind: 'message', text: 'Loading the request journal…' }];
      if (this.entries.length === 0 && this.state.message) return [{ kind: 'message', text: this.state.message }];
      if (this.entries.length === 0) {
        const own = this.showOwn ? '' : " The extension's own requests are hidden (Filter → Show the extension's own requests).";
        return [{ kind: 'message', text: Object.values(this.filter).some(Boolean) ? 'No request matches the filter' : 'No requests yet', detail: `Requests to the emulator appear here as they arrive.${own}` }];
      }
      return this.entries.map((e) => this.entryNode(e));
    }
    if (node.kind === 'entry') return node.entry.findings.map((finding, index) => ({ kind: 'finding', entry: node.entry, finding, index }));
    return [];
  }

  getParent(node: RequestNode): RequestNode | undefined {
    return node.kind === 'finding' ? this.entryNode(node.entry) : undefined;
  }

  getTreeItem(node: RequestNode): vscode.TreeItem {
    if (node.kind === 'message') {
      const item = new vscode.TreeItem(node.text);
      item.description = node.detail;
      item.tooltip = node.detail;
      item.contextValue = RequestViewContext.message;
      item.iconPath = new vscode.ThemeIcon(this.state.loading ? 'loading~spin' : 'info');
      return item;
    }
    if (node.kind === 'finding') {
      const f = node.finding;
      const item = new vscode.TreeItem(f.message);
      item.id = `${this.origin}#${node.entry.id}/${node.index}`;
      item.description = `${f.code} · ${f.severity === 'refuse' ? 'a tenant refuses' : 'a tenant frowns'}`;
      item.iconPath = new vscode.ThemeIcon(f.severity === 'refuse' ? 'error' : 'warning', new vscode.ThemeColor(f.severity === 'refuse' ? 'charts.red' : 'charts.orange'));
      const tip = new vscode.MarkdownString(undefined, false);
      tip.appendMarkdown(`**${f.code}** `).appendText(f.message);
      if (f.advice) tip.appendMarkdown('\n\n**Send instead:** ').appendText(f.advice);
      item.tooltip = tip;
      item.contextValue = RequestViewContext.finding;
      item.command = { command: Commands.inspectorShowDetails, title: 'Show Request Details', arguments: [this.entryNode(node.entry)] };
      return item;
    }
    const e = node.entry;
    const label = `${statusLabel(e.status)} ${e.method} ${requestTarget(e, 60)}`;
    const item = new vscode.TreeItem(label, e.findings.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = `${this.origin}#${e.id}`;
    const refuse = e.findings.filter((f) => f.severity === 'refuse').length;
    const findings = e.findings.length ? ` · ${e.findings.length} finding${e.findings.length > 1 ? 's' : ''}${refuse ? ` (${refuse} refused)` : ''}` : '';
    item.description = `${Math.round(e.durationMs)} ms · ${e.client ?? 'no User-Agent'}${findings}`;
    const icon = statusIcon(e.status);
    item.iconPath = new vscode.ThemeIcon(icon.id, new vscode.ThemeColor(icon.color));
    const tip = new vscode.MarkdownString(undefined, false);
    tip.appendText(`#${e.id} · ${new Date(e.time).toLocaleTimeString()} · ${label}\n`);
    for (const f of e.findings) tip.appendMarkdown(`\n- **${f.code}** `).appendText(`${f.message}${f.advice ? ` → ${f.advice}` : ''}`);
    item.tooltip = tip;
    item.accessibilityInformation = { label: `${e.status === 0 ? 'no answer' : `status ${e.status}`}, ${e.method} ${e.path}, ${e.findings.length} findings` };
    item.contextValue = e.recordId ? RequestViewContext.requestWithRecord : RequestViewContext.request;
    item.command = { command: Commands.inspectorShowDetails, title: 'Show Request Details', arguments: [node] };
    return item;
  }

  /** The entry an action is about: its row, a finding row under it, an entry id, or the view's selection. */
  private entryOf(arg: unknown): EntrySummary | undefined {
    if (typeof arg === 'number') return this.entries.find((e) => e.id === arg) ?? ({ id: arg } as EntrySummary);
    const node = (arg as RequestNode | undefined) ?? this.host.view()?.selection[0];
    return node && node.kind !== 'message' ? node.entry : undefined;
  }

  private need(arg: unknown): { client: InspectorClient; origin: string; entry: EntrySummary } {
    const entry = this.entryOf(arg);
    if (!this.client || !this.origin) throw new Error('No emulator to inspect: start the local emulator or run “DAM: Inspect Emulator at…”.');
    if (!entry) throw new Error('Select a request in the Emulator Requests view first.');
    return { client: this.client, origin: this.origin, entry };
  }

  /** Shows an entry's details rendered (VS Code's Markdown preview: HTML sanitised, no scripts; bodies are fenced) and returns the document. */
  async showDetails(arg?: unknown): Promise<vscode.TextDocument | undefined> {
    const { origin, entry } = this.need(arg);
    const uri = detailsUri(origin, entry.id);
    this.docChanged.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    const previewed = await vscode.commands.executeCommand('markdown.showPreview', uri).then(
      () => true,
      () => false,
    );
    // Without the built-in Markdown extension (disabled by the user), the source is still readable.
    if (!previewed) await vscode.window.showTextDocument(doc, { preview: true, preserveFocus: true, viewColumn: vscode.ViewColumn.Active });
    return doc;
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const at = parseDetailsUri(uri);
    if (!at) return 'Not a request of the emulator journal.';
    const abort = new AbortController();
    token.onCancellationRequested(() => abort.abort());
    try {
      const detail = await new InspectorClient(at.origin, { userAgent: this.host.userAgent }).get(at.id, abort.signal);
      return renderEntry(detail, at.origin);
    } catch (err) {
      return `# Request #${at.id}\n\nThe emulator at ${at.origin} cannot show it: ${(err as Error).message}\n\n(The journal keeps only the most recent requests.)\n`;
    }
  }

  async copyCurl(arg?: unknown): Promise<string> {
    const { client, origin, entry } = this.need(arg);
    const detail = await client.get(entry.id);
    const { command, notes } = curlCommand(detail, origin);
    await vscode.env.clipboard.writeText(command);
    vscode.window.setStatusBarMessage(`$(clippy) Copied curl for #${entry.id}`, 4000);
    if (notes.length) void vscode.window.showWarningMessage(`Copied curl for request #${entry.id}. ${notes.join(' ')}`);
    return command;
  }

  async copyDamCommand(arg?: unknown): Promise<string | undefined> {
    const { client, origin, entry } = this.need(arg);
    const command = damCommand(await client.get(entry.id), origin);
    if (!command) {
      void vscode.window.showInformationMessage(`No dam command does ${entry.method ?? 'this'} ${entry.path ?? 'request'}; Copy as curl reproduces it.`);
      return undefined;
    }
    await vscode.env.clipboard.writeText(command);
    vscode.window.setStatusBarMessage(`$(clippy) Copied the dam command for #${entry.id}`, 4000);
    return command;
  }

  async replay(arg?: unknown): Promise<EntrySummary | undefined> {
    const { client, entry } = this.need(arg);
    const answer = await vscode.window.withProgress({ location: { viewId: VIEW_EMULATOR_REQUESTS }, title: `Replaying #${entry.id}` }, () => client.replay(entry.id));
    if (!answer.entry) {
      void vscode.window.showInformationMessage(`Replayed #${entry.id}: ${answer.status}.`);
      return undefined;
    }
    this.add(answer.entry);
    if (this.redraw) {
      clearTimeout(this.redraw);
      this.redraw = undefined;
    }
    this.host.fire();
    const node = this.entryNode(this.entries.find((e) => e.id === answer.entry!.id) ?? answer.entry);
    await this.host.view()?.reveal(node, { select: true, focus: true, expand: true }).then(undefined, () => undefined);
    vscode.window.setStatusBarMessage(`Replayed #${entry.id} as #${answer.entry.id}: ${answer.status}`, 5000);
    await this.showDetails(node);
    return answer.entry;
  }

  async openRecord(arg?: unknown): Promise<string | undefined> {
    const { origin, entry } = this.need(arg);
    const recordId = entry.recordId ?? (await this.client!.get(entry.id)).recordId;
    if (!recordId) {
      void vscode.window.showInformationMessage(`Request #${entry.id} names no record.`);
      return undefined;
    }
    const connected = this.host.connectedOrigin();
    if (!connected || connected.replace(/\/+$/, '') !== origin) {
      void vscode.window.showWarningMessage(`The DAM Explorer is not connected to ${origin}: connect to it to see record ${recordId} there.`);
      return recordId;
    }
    await vscode.commands.executeCommand(Commands.explorerFind, `Id = ${recordId}`);
    return recordId;
  }

  async chooseFilter(): Promise<JournalFilter | undefined> {
    type Item = vscode.QuickPickItem & { apply: () => Promise<JournalFilter | undefined> | JournalFilter | undefined };
    const f = this.filter;
    const items: Item[] = [
      ...['4xx', '5xx', '2xx'].map((s) => ({ label: `$(filter) Status ${s}`, description: f.status === s ? 'active' : undefined, apply: () => ({ ...f, status: s }) })),
      {
        label: '$(edit) Status…',
        description: 'a class or codes: 4xx, 404, 2xx,5xx',
        apply: async () => {
          const v = await vscode.window.showInputBox({ title: 'Requests with status', value: f.status ?? '', validateInput: (t) => (!t.trim() || isStatusFilter(t.trim()) ? undefined : 'A class or codes, e.g. 4xx, 404 or 2xx,5xx') });
          return v === undefined ? undefined : { ...f, status: v.trim() || undefined };
        },
      },
      {
        label: '$(symbol-namespace) Route contains…',
        description: f.route,
        apply: async () => {
          const v = await vscode.window.showInputBox({ title: 'Requests whose path or route contains', value: f.route ?? '', placeHolder: '/api/core/search' });
          return v === undefined ? undefined : { ...f, route: v.trim() || undefined };
        },
      },
      {
        label: '$(person) Client contains…',
        description: f.client,
        apply: async () => {
          const v = await vscode.window.showInputBox({ title: 'Requests whose User-Agent contains', value: f.client ?? '', placeHolder: 'my-integration' });
          return v === undefined ? undefined : { ...f, client: v.trim() || undefined };
        },
      },
      { label: '$(warning) Only requests with findings', description: f.withFindings ? 'active' : undefined, apply: () => ({ ...f, withFindings: !f.withFindings || undefined }) },
      { label: '$(clear-all) Clear filter', apply: () => ({}) },
      {
        label: this.showOwn ? "$(eye-closed) Hide the extension's own requests" : "$(eye) Show the extension's own requests",
        description: this.showOwn ? 'shown now' : 'hidden now: the DAM Explorer’s pages and thumbnails',
        apply: () => {
          this.setShowOwn(!this.showOwn);
          return undefined;
        },
      },
    ];
    const pick = await vscode.window.showQuickPick(items, { title: 'Filter emulator requests', placeHolder: 'Show only…' });
    const next = await pick?.apply();
    if (next) this.setFilter(next);
    return next;
  }

  setFilter(filter: JournalFilter): void {
    this.filter = Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined && v !== '')) as JournalFilter;
    this.entries = [];
    this.nodes.clear();
    this.restart();
  }

  refresh(): void {
    this.entries = [];
    this.nodes.clear();
    this.restart();
  }

  async clearJournal(): Promise<void> {
    if (!this.client) return;
    await this.client.clear();
    this.refresh();
  }

  dispose(): void {
    this.live?.abort();
    if (this.redraw) clearTimeout(this.redraw);
    for (const d of this.disposables) d.dispose();
  }
}

export function createRequestsView(host: InspectorHost): RequestsView {
  return new RequestsView(host);
}
