// Everything of `.dam-query` editing and running, composed once when the first query file (or a Run
// command) needs it. Loaded from dist/query.js, so activation does not pay for the language core or zod.
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { lintSection, parseDocument, sectionAt } from '../../core/search';
import { QUERY_LANGUAGE } from '../commandIds';
import type { ConnectionManager } from '../connections/connectionManager';
import type { Session } from '../connections/session';
import type { DamLog } from '../log';
import { AnalyticsDiagnostics } from '../analytics/analyticsDiagnostics';
import { QueryDiagnostics } from './diagnostics';
import { exportFileName, SERVICE_SORT } from './exportName';
import { exportResults, type ExportFormat } from './exporter';
import { QueryHistory, type HistoryEntry } from './history';
import { registerQueryProviders } from './providers';
import { describeRequest, requestOf, type QueryRequest } from './request';
import { ResultsPanel, type RunOutcome } from './resultsPanel';
import { SchemaCache } from './schemaCache';

export interface QueryLanguageDeps {
  context: vscode.ExtensionContext;
  connections: ConnectionManager;
  log: DamLog;
}

export interface ExportOutcome {
  file: string;
  rows: number;
}

export class QueryLanguage implements vscode.Disposable {
  readonly schema: SchemaCache;
  readonly diagnostics: QueryDiagnostics;
  readonly analytics: AnalyticsDiagnostics;
  readonly history: QueryHistory;
  readonly results: ResultsPanel;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly deps: QueryLanguageDeps) {
    const { context, connections, log } = deps;
    const d = this.disposables;
    this.schema = track(d, new SchemaCache(context.globalStorageUri, connections, log, context.globalState));
    this.diagnostics = track(d, new QueryDiagnostics(this.schema));
    this.analytics = track(d, new AnalyticsDiagnostics());
    this.history = new QueryHistory(context.workspaceState);
    this.results = track(
      d,
      new ResultsPanel({
        extensionUri: context.extensionUri,
        connections,
        log,
        exportRequest: (request, format, options) => this.exportRequest(request, format, undefined, options),
        rerun: (request) => this.runRequest(request),
      }),
    );
    d.push(...registerQueryProviders(this.schema, () => this.history.recentValues()));
  }

  private session(): Session {
    const session = this.deps.connections.session;
    if (!session) throw new Error('Not connected: start the local emulator or connect to a tenant first (DAM: Switch Connection…).');
    return session;
  }

  /** The request of the section at `offset` in `uri` (default: the active editor's cursor). */
  async requestAt(uri?: vscode.Uri, offset?: number): Promise<{ request: QueryRequest; source: string }> {
    let doc: vscode.TextDocument | undefined;
    let at = offset;
    const editor = vscode.window.activeTextEditor;
    if (uri) doc = await vscode.workspace.openTextDocument(uri);
    else if (editor?.document.languageId === QUERY_LANGUAGE) doc = editor.document;
    if (!doc) throw new Error('Open a .dam-query file and put the cursor in the query to run.');
    if (at === undefined) at = editor?.document === doc ? doc.offsetAt(editor.selection.active) : 0;
    const text = doc.getText();
    const section = sectionAt(text, at);
    if (!section || !section.expression.trim()) throw new Error('There is no search expression at the cursor.');
    const errors = lintSection(section).filter((d) => d.severity === 'error' && d.phase !== 'semantic');
    if (errors.length > 0) {
      const first = errors[0];
      const pos = doc.positionAt(first.range.start);
      throw new Error(`The query cannot be sent: ${first.message} (line ${pos.line + 1}, column ${pos.character + 1}, ${first.code})`);
    }
    // Named as the outline and the breadcrumbs name it (`Query 2`), with its file.
    const index = parseDocument(text).sections.find((s) => s.range.start === section.range.start)?.index;
    const fallback = index !== undefined && index >= 0 ? `Query ${index + 1} (${basename(doc.uri.path)})` : `${basename(doc.uri.path)}:${doc.positionAt(section.range.start).line + 1}`;
    return { request: requestOf(section, fallback), source: doc.uri.toString() };
  }

  async run(uri?: vscode.Uri, offset?: number): Promise<RunOutcome> {
    const { request, source } = await this.requestAt(uri, offset);
    return this.runRequest(request, source);
  }

  async runRequest(request: QueryRequest, source?: string): Promise<RunOutcome> {
    const session = this.session();
    const outcome = await this.results.show(request, session.client, session.profile.name, source);
    const entry: HistoryEntry = { request, connection: session.profile.name, at: new Date().toISOString(), totalCount: outcome.totalCount, source };
    await this.history.add(entry);
    return outcome;
  }

  /** Quick pick of earlier runs in this workspace; the chosen one runs again as it was sent. */
  async showHistory(): Promise<RunOutcome | undefined> {
    const entries = this.history.list();
    if (entries.length === 0) {
      void vscode.window.showInformationMessage('No queries have been run in this workspace yet.');
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(
      entries.map((e) => ({
        label: e.request.name,
        description: `${e.totalCount ?? '?'} results · ${e.connection} · ${new Date(e.at).toLocaleString()}`,
        detail: describeRequest(e.request),
        entry: e,
      })),
      { title: 'DAM: Query History', placeHolder: 'Choose a query to run again', matchOnDetail: true },
    );
    return pick ? this.runRequest(pick.entry.request, pick.entry.source) : undefined;
  }

  async export(uri?: vscode.Uri, offset?: number, format?: ExportFormat, file?: vscode.Uri): Promise<ExportOutcome | undefined> {
    const { request, source } = await this.requestAt(uri, offset);
    return this.exportRequest(request, format, file, { source });
  }

  /** Streams every result to a file the user picks, with a cancellable progress notification. */
  async exportRequest(
    request: QueryRequest,
    format?: ExportFormat,
    file?: vscode.Uri,
    options: { source?: string; sort?: { key: string; dir: 'ascending' | 'descending' } } = {},
  ): Promise<ExportOutcome | undefined> {
    const session = this.session();
    // The grid sorted by a column the service sorts by: the file comes in that order too (every page, not only the
    // rows loaded). Content type and status the service cannot sort by: said in the notification.
    const sortBy = options.sort && SERVICE_SORT[options.sort.key];
    if (sortBy) request = { ...request, sort: `${sortBy} ${options.sort!.dir === 'ascending' ? 'asc' : 'desc'}` };
    const unsorted = options.sort && !sortBy ? ` (in the service's order: it cannot sort by ${options.sort.key === 'contentType' ? 'content type' : options.sort.key})` : '';
    const chosenFormat =
      format ??
      ((await vscode.window.showQuickPick(['csv', 'json'], { title: `Export ${request.name}`, placeHolder: 'Format of the file' })) as ExportFormat | undefined);
    if (!chosenFormat) return undefined;
    const target =
      file ??
      (await vscode.window.showSaveDialog({
        title: `Export ${request.name}`,
        filters: chosenFormat === 'csv' ? { CSV: ['csv'] } : { JSON: ['json'] },
        defaultUri: vscode.workspace.workspaceFolders?.[0]
          ? vscode.Uri.joinPath(vscode.workspace.workspaceFolders[0].uri, exportFileName(request.name, options.source && vscode.Uri.parse(options.source).path, chosenFormat))
          : undefined,
      }));
    if (!target) return undefined;
    const rows = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `DAM: exporting ${request.name}`, cancellable: true },
      async (progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort(new vscode.CancellationError()));
        let last = 0;
        try {
          return await exportResults(session.client, request, chosenFormat, target.fsPath, {
            signal: abort.signal,
            onProgress: ({ written, totalCount }) => {
              progress.report({
                message: `${written.toLocaleString()}${totalCount !== null ? ` of ${totalCount.toLocaleString()}` : ''} rows`,
                increment: totalCount ? ((written - last) / totalCount) * 100 : undefined,
              });
              last = written;
            },
          });
        } catch (err) {
          if (abort.signal.aborted) throw new vscode.CancellationError();
          throw err;
        } finally {
          sub.dispose();
        }
      },
    );
    const message = `Exported ${rows.toLocaleString()} rows to ${basename(target.fsPath)}${unsorted}`;
    this.results.notifyExported(message);
    // Not awaited: the command returns once the file is written, whether or not the button is used.
    void vscode.window.showInformationMessage(`DAM: ${message}.`, 'Open File').then((choice) => {
      if (choice === 'Open File') void vscode.commands.executeCommand('vscode.open', target);
    });
    this.deps.log.info(`${message} (${target.fsPath})`);
    return { file: target.fsPath, rows };
  }

  refreshSchema(): Thenable<unknown> {
    this.session();
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'DAM: reading the query schema' }, () => this.schema.refresh());
  }

  dispose(): void {
    this.disposables.reverse().forEach((d) => d.dispose());
  }
}

function track<T extends vscode.Disposable>(list: vscode.Disposable[], value: T): T {
  list.push(value);
  return value;
}

