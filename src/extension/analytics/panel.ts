// The analytics builder and results panel of one `.dam-analytics.json` document. Bundled apart as
// dist/analytics.js and loaded when the first such editor opens, so its zod, validator and client
// code cost nothing at activation.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { checkAnalyticsQuery, type AnalyticsQuery, type AnalyticsRow } from '../../core/analytics';
import type { Session } from '../connections/session';
import type { DamLog } from '../log';
import { webviewHtml, webviewRoots } from '../webviewHtml';
import { LabelResolver, recordsByIdQuery } from './labels';
import { HostToPanelSchema, PanelToHostSchema, type HostToPanel, type PanelToHost } from './messages';
import { editsToQuery, parseQueryText } from './queryText';
import { exportRows, ResultPager, TABLE_PAGE_SIZE } from './resultPages';
import { inWords } from '../errorWords';

export interface PanelDeps {
  extensionUri: vscode.Uri;
  log: DamLog;
  /** The signed-in session; rejects with a readable message when there is none. */
  session(): Promise<Session>;
}

type PanelState = Extract<PanelToHost, { type: 'state' }>;


interface RunState {
  id: number;
  pager?: ResultPager;
  rows: AnalyticsRow[];
  fetched: number;
  hasMore: boolean;
  note?: string;
  error?: string;
  labels: LabelResolver;
}

export class AnalyticsPanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private runCounter = 0;
  private run: RunState | undefined;
  private stateValue: PanelState | undefined;
  private readonly stateChanged = new vscode.EventEmitter<PanelState>();
  private readonly runChanged = new vscode.EventEmitter<RunState>();
  /** The panel's builder state after each render (the webview reports it). */
  readonly onDidChangeState = this.stateChanged.event;
  /** A page arrived or a run failed. */
  readonly onDidChangeRun = this.runChanged.event;
  private disposed = false;

  constructor(
    private readonly deps: PanelDeps,
    readonly document: vscode.TextDocument,
    readonly webviewPanel: vscode.WebviewPanel,
  ) {
    const webview = webviewPanel.webview;
    webview.options = { enableScripts: true, localResourceRoots: webviewRoots(deps.extensionUri) };
    webview.html = webviewHtml(webview, {
      style: vscode.Uri.joinPath(deps.extensionUri, 'media', 'webviews', 'analytics', 'style.css'),
      script: vscode.Uri.joinPath(deps.extensionUri, 'dist', 'webviews', 'analytics.js'),
      title: 'Analytics query',
      root: { tag: 'main', text: 'Loading the analytics builder…' },
      dataImages: true,
    });
    this.disposables.push(
      webview.onDidReceiveMessage((raw: unknown) => void this.handleMessage(raw)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.toString() === document.uri.toString() && e.contentChanges.length > 0) this.postDocument();
      }),
      webviewPanel.onDidDispose(() => this.dispose()),
      this.stateChanged,
      this.runChanged,
    );
  }

  get state(): PanelState | undefined {
    return this.stateValue;
  }

  /** The current run's id, as the webview names it in `fetchMore`. */
  get runId(): number | undefined {
    return this.run?.id;
  }

  /** The current run's rows (what the table holds) and whether more exist. */
  get results(): { rows: readonly AnalyticsRow[]; fetched: number; hasMore: boolean; note?: string; error?: string } | undefined {
    const r = this.run;
    return r && { rows: r.rows, fetched: r.fetched, hasMore: r.hasMore, note: r.note, error: r.error };
  }

  private post(message: HostToPanel): void {
    if (this.disposed) return;
    // Checked on the way out too: a malformed message is our bug and should fail here, not in the panel.
    void this.webviewPanel.webview.postMessage(HostToPanelSchema.parse(message));
  }

  private postDocument(): void {
    this.post({ type: 'document', version: this.document.version, text: this.document.getText() });
  }

  /** Every message from the webview arrives here, checked against its schema first; tests post the same messages. */
  async handleMessage(raw: unknown): Promise<void> {
    const parsed = PanelToHostSchema.safeParse(raw);
    if (!parsed.success) {
      this.deps.log.warn(`Analytics panel: ignored a malformed message (${parsed.error.issues[0]?.message ?? 'invalid'})`);
      return;
    }
    const message = parsed.data;
    try {
      switch (message.type) {
        case 'ready':
          this.postDocument();
          if (this.run) this.replayRun(this.run);
          return;
        case 'edit':
          await this.applyQuery(message.query);
          return;
        case 'run':
          await this.runQuery();
          return;
        case 'fetchMore':
          await this.fetchMore(message.runId);
          return;
        case 'export':
          await this.exportWithDialog(message.format);
          return;
        case 'openAsText':
          // Switch, as "Reopen Editor With" does: the text editor takes the builder's place.
          await vscode.commands.executeCommand('vscode.openWith', this.document.uri, 'default', this.webviewPanel.viewColumn);
          this.webviewPanel.dispose();
          return;
        case 'state':
          this.stateValue = message;
          this.stateChanged.fire(message);
          return;
      }
    } catch (err) {
      if (err instanceof vscode.CancellationError) return;
      this.deps.log.error(`Analytics panel: ${this.deps.log.scrub(err instanceof Error ? err.message : String(err))}`);
      void vscode.window.showErrorMessage(`DAM analytics: ${this.deps.log.scrub(inWords(err))}`);
    }
  }

  /** Writes the builder's query into the document as minimal edits, so undo and redo see ordinary text changes. */
  async applyQuery(query: Record<string, unknown>): Promise<boolean> {
    const text = this.document.getText();
    const eol = this.document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
    const edits = editsToQuery(text, query, eol);
    if (edits.length === 0) return true;
    const edit = new vscode.WorkspaceEdit();
    for (const e of edits) {
      edit.replace(this.document.uri, new vscode.Range(this.document.positionAt(e.offset), this.document.positionAt(e.offset + e.length)), e.content);
    }
    return vscode.workspace.applyEdit(edit);
  }

  private queryOfDocument(): AnalyticsQuery {
    const parsed = parseQueryText(this.document.getText());
    if (!parsed.ok) throw new Error(parsed.message);
    const checked = checkAnalyticsQuery(parsed.value);
    if (!checked.ok) {
      const errors = checked.problems.filter((p) => p.severity === 'error');
      throw new Error(`The query has ${errors.length} problem(s): ${errors.map((p) => p.message).join(' ')}`);
    }
    return parsed.value as AnalyticsQuery;
  }

  /** Runs the document's query from its first row; resolves once the first page is shown. */
  async runQuery(): Promise<void> {
    this.run?.pager?.dispose();
    const id = ++this.runCounter;
    const session = await this.deps.session();
    const client = session.client;
    const run: RunState = {
      id,
      rows: [],
      fetched: 0,
      hasMore: false,
      labels: new LabelResolver({
        recordTitles: async (ids, signal) => {
          const page = await client.search.records({ ...recordsByIdQuery(ids), pageSize: ids.length, signal });
          return new Map(page.items.map((r) => [r.id, r.title ?? r.id]));
        },
        userName: async (userId, signal) => {
          const u = await client.users.get(userId, { signal });
          const full = [u.firstName, u.lastName].filter(Boolean).join(' ');
          return full || (u.name ?? undefined);
        },
      }),
    };
    this.run = run;
    let query: AnalyticsQuery;
    try {
      query = this.queryOfDocument();
    } catch (err) {
      this.failRun(run, err);
      return;
    }
    run.pager = new ResultPager(client.analytics, query, TABLE_PAGE_SIZE);
    this.post({ type: 'runStarted', runId: id, paged: !run.pager.done });
    await this.fetchMore(id);
  }

  private failRun(run: RunState, err: unknown): void {
    this.deps.log.error(`Analytics run: ${this.deps.log.scrub(err instanceof Error ? err.message : String(err))}`);
    run.error = this.deps.log.scrub(inWords(err));
    run.hasMore = false;
    this.post({ type: 'runFailed', runId: run.id, message: run.error });
    this.runChanged.fire(run);
  }

  /** Fetches the next page of run `runId` (ignored when a newer run started or nothing is left). */
  async fetchMore(runId: number): Promise<void> {
    const run = this.run;
    if (!run || run.id !== runId || !run.pager || run.pager.done) return;
    let page;
    try {
      page = await run.pager.next();
    } catch (err) {
      if (this.run === run) this.failRun(run, err);
      return;
    }
    if (!page || this.run !== run) return;
    run.rows.push(...page.rows);
    run.fetched = page.fetched;
    run.hasMore = page.hasMore;
    run.note = page.note;
    this.post({ type: 'rows', runId, rows: page.rows, fetched: page.fetched, hasMore: page.hasMore, note: page.note });
    this.runChanged.fire(run);
    // Titles and names follow the rows; the table shows ids until they arrive.
    void run.labels.resolve(page.rows, run.pager.abort.signal).then(
      (labels) => {
        if (this.run === run && (Object.keys(labels.records).length || Object.keys(labels.users).length)) this.post({ type: 'labels', ...labels });
      },
      (err: unknown) => this.deps.log.warn(`Analytics panel: could not resolve names (${String(err)})`),
    );
  }

  /** A reloaded webview gets the rows it had. */
  private replayRun(run: RunState): void {
    this.post({ type: 'runStarted', runId: run.id, paged: true });
    if (run.error) this.post({ type: 'runFailed', runId: run.id, message: run.error });
    else this.post({ type: 'rows', runId: run.id, rows: run.rows, fetched: run.fetched, hasMore: run.hasMore, note: run.note });
  }

  private async exportWithDialog(format: 'csv' | 'json'): Promise<void> {
    const base = path.basename(this.document.uri.path).replace(/\.dam-analytics\.json$/i, '') || 'analytics';
    const folder = this.document.uri.scheme === 'file' ? vscode.Uri.joinPath(this.document.uri, '..') : vscode.workspace.workspaceFolders?.[0]?.uri;
    const defaultUri = folder ? vscode.Uri.joinPath(folder, `${base}.${format}`) : undefined;
    const target = await vscode.window.showSaveDialog({
      defaultUri,
      title: 'Export every row of the analytics query',
      filters: format === 'csv' ? { CSV: ['csv'] } : { JSON: ['json'] },
    });
    if (!target) return;
    await this.exportTo(target.fsPath, format);
  }

  /** Streams every row of the query to `file`, with progress and cancel; returns the number of rows written. */
  async exportTo(file: string, format: 'csv' | 'json'): Promise<number> {
    const query = this.queryOfDocument();
    const session = await this.deps.session();
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `DAM: exporting analytics rows to ${path.basename(file)}`, cancellable: true },
      async (progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort(new vscode.CancellationError()));
        try {
          return await exportRows(session.client.analytics, query, file, {
            format,
            signal: abort.signal,
            onProgress: (rows) => progress.report({ message: `${rows.toLocaleString('en-US')} rows written` }),
          });
        } catch (err) {
          if (token.isCancellationRequested) throw new vscode.CancellationError();
          throw err;
        } finally {
          sub.dispose();
        }
      },
    );
    const message = `Exported ${result.rows.toLocaleString('en-US')} rows to ${path.basename(file)}.${result.note ? ` ${result.note}` : ''}`;
    this.post({ type: 'exportDone', message });
    this.deps.log.info(message);
    // Said outside the panel too, as the query results' export does: the panel may be hidden, and the file is to open.
    // Not awaited: the export is done whether or not the button is used.
    void vscode.window.showInformationMessage(`DAM: ${message}`, 'Open File').then((choice) => {
      if (choice === 'Open File') void vscode.commands.executeCommand('vscode.open', vscode.Uri.file(file));
    });
    return result.rows;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.run?.pager?.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

/** The initial text of a new query file. */
export function queryFileText(query: unknown): string {
  return JSON.stringify(query, null, 2) + '\n';
}

