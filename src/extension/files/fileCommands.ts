// The file commands in the main bundle: Upload, Create Renditions, Publish Check Result and the Check Results
// view. They are thin: the client (loaded with the session) does the service work, UploadQueue the sending,
// and the check file parser and rollup load with dist/files.js on the first publish or view read.
import * as vscode from 'vscode';
import { explorerNodeArg } from '../commandArgs';
import { Commands, VIEW_CHECK_RESULTS } from '../commandIds';
import type { ConnectionManager } from '../connections/connectionManager';
import type { Explorer } from '../explorer/explorer';
import { pickRecord } from '../explorer/recordPicker';
import type { FindingDiagnostics } from '../findings/findingDiagnostics';
import type { DamLog } from '../log';
import { registerCommand } from '../registration';
import { CheckResultsProvider, type CheckViewNode } from './checkResultsView';
import type { PublishAnswer, PublishMode, ResultView } from './checksModule';
import { DownloadCommand } from './downloadCommand';
import { loadChecksModule } from './lazyFiles';
import { RenditionsCommand } from './renditionsCommand';
import { UploadCommand } from './uploadCommand';
import { count } from '../plural';

/** What Publish Check Result accepts when run programmatically; each field given skips its prompt. */
export interface PublishArgs {
  /** The `.dam-check.json` file (else the active editor's). */
  file?: vscode.Uri;
  versionId?: string;
  /** The result goes to the newest version of this record's master file. */
  recordId?: string;
  mode?: PublishMode;
}

export interface PublishOutcome extends PublishAnswer {
  versionId: string;
  results: ResultView[];
}

export class FileCommands implements vscode.Disposable {
  readonly upload: UploadCommand;
  readonly renditions: RenditionsCommand;
  readonly download: DownloadCommand;
  readonly checkResults: CheckResultsProvider;
  readonly checkResultsView: vscode.TreeView<CheckViewNode>;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly connections: ConnectionManager,
    private readonly explorer: Explorer,
    log: DamLog,
    /** Findings shown in opened copies: refreshed after a publish, and told about downloaded copies. */
    private readonly findings?: FindingDiagnostics,
  ) {
    const d = this.disposables;
    this.upload = new UploadCommand(connections, explorer.provider, log);
    this.renditions = new RenditionsCommand(connections, explorer, log);
    this.download = new DownloadCommand(connections, log, (source, title) => this.versionOf(source, title), findings);
    this.checkResults = new CheckResultsProvider(connections, log);
    d.push(this.checkResults);
    this.checkResultsView = vscode.window.createTreeView(VIEW_CHECK_RESULTS, { treeDataProvider: this.checkResults, showCollapseAll: true });
    d.push(this.checkResultsView);
    registerCommand(d, log, Commands.filesUpload, (first?: unknown, second?: unknown) => this.upload.run(first, second));
    registerCommand(d, log, Commands.filesCreateRenditions, (first?: unknown, second?: unknown) => this.renditions.run(first, second));
    registerCommand(d, log, Commands.checksPublish, (first?: unknown) => this.publish(first));
    registerCommand(d, log, Commands.checksShowResults, (first?: unknown) => this.showResults(first));
    registerCommand(d, log, Commands.checksRefreshResults, async () => {
      const results = await this.checkResults.reload();
      // Results may have changed on the service (deleted, finished elsewhere): the marked copies follow.
      await this.findings?.refreshAll();
      return results;
    });
    registerCommand(d, log, Commands.filesDownloadVersion, (first?: unknown) => this.download.run(first));
  }

  /** Shows a version's check results in the view (from a version node, a version id, or a record id prompt). */
  async showResults(first?: unknown): Promise<ResultView[] | undefined> {
    const version = await this.versionOf(first, 'DAM: show check results of');
    if (!version) return undefined;
    const results = await this.checkResults.show(version);
    this.checkResultsView.description = version.label;
    await vscode.commands.executeCommand(`${VIEW_CHECK_RESULTS}.focus`).then(undefined, () => undefined);
    return results;
  }

  async publish(first?: unknown): Promise<PublishOutcome | undefined> {
    const client = this.connections.session?.client;
    if (!client) throw new Error('Not connected to a DAM tenant: run "DAM: Switch Connection" or "DAM: Start Local Emulator" first.');
    // From the Explorer's context menu on a `.dam-check.json` the file comes first.
    const args: PublishArgs = first instanceof vscode.Uri ? { file: first } : isPublishArgs(first) ? first : {};
    const document = await this.checkDocument(args.file);
    if (!document) return undefined;
    const checks = loadChecksModule();
    let run;
    try {
      run = checks.readCheckFile(document.getText());
    } catch (err) {
      throw new Error(`${vscode.workspace.asRelativePath(document.uri)} is not a valid check result: ${(err as Error).message}. Fix it (the editor underlines the field) and publish again.`, { cause: err });
    }
    const version = await this.versionOf(first instanceof vscode.Uri ? undefined : isPublishArgs(first) ? args : first, 'DAM: publish the check result to');
    if (!version) return undefined;
    const mode = args.mode ?? (await this.askMode(client, version.id, run));
    if (!mode) return undefined;
    const answer = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `DAM: publishing '${run.check}' to ${version.label}`, cancellable: true },
      (_progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        return checks.publishRun(client, version.id, run, mode, abort.signal);
      },
    );
    const results = await this.checkResults.show(version);
    this.checkResultsView.description = version.label;
    this.refreshExplorerVersion(version.id);
    await this.findings?.refreshAll();
    const badge = answer.badge ? `${answer.badge.color} badge ${answer.badge.label}` : 'no badge';
    vscode.window.setStatusBarMessage(`DAM: ${mode === 'start' ? 'slow check started' : 'check result published'} — ${answer.checkName}, ${count(answer.findings, 'finding')}, ${badge}`, 5000);
    await vscode.commands.executeCommand(`${VIEW_CHECK_RESULTS}.focus`).then(undefined, () => undefined);
    return { ...answer, versionId: version.id, results };
  }

  private async askMode(client: NonNullable<ConnectionManager['session']>['client'], versionId: string, run: ReturnType<ReturnType<typeof loadChecksModule>['readCheckFile']>): Promise<PublishMode | undefined> {
    const open = await loadChecksModule().inProgressResult(client, versionId, run).catch(() => undefined);
    const items: (vscode.QuickPickItem & { mode: PublishMode })[] = [
      ...(open ? [{ label: '$(check) Finish the in-progress result', description: 'slow check: the final outcome replaces "in progress"', mode: 'finish' as const }] : []),
      { label: '$(cloud-upload) Publish the result', description: `${run.outcome ?? 'rollup of the findings'} · ${count(run.findings?.length ?? 0, 'finding')}`, mode: 'publish' },
      { label: '$(sync) Start a slow check', description: 'posts "Processing is in progress…" now; publish the file again when the run ends', mode: 'start' },
    ];
    return (await vscode.window.showQuickPick(items, { title: `DAM: publish '${run.check}'`, ignoreFocusOut: true }))?.mode;
  }

  /** The `.dam-check.json` to publish: given, the active editor's, a visible one, or picked. */
  private async checkDocument(file?: vscode.Uri): Promise<vscode.TextDocument | undefined> {
    if (file) return vscode.workspace.openTextDocument(file);
    const isCheck = (d: vscode.TextDocument) => /\.dam-check\.json$/i.test(d.fileName);
    const active = vscode.window.activeTextEditor?.document;
    if (active && isCheck(active)) return active;
    const visible = vscode.window.visibleTextEditors.map((e) => e.document).find(isCheck);
    if (visible) return visible;
    const picked = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'DAM check result': ['dam-check.json', 'json'] }, title: 'DAM: check result file to publish' });
    return picked?.[0] ? vscode.workspace.openTextDocument(picked[0]) : undefined;
  }

  /** A version node (or file/record node: its newest version), ids in arguments, or a record id prompt. */
  private async versionOf(source: unknown, title: string): Promise<{ id: string; label: string } | undefined> {
    const client = this.connections.session?.client;
    if (!client) throw new Error('Not connected to a DAM tenant: run "DAM: Switch Connection" or "DAM: Start Local Emulator" first.');
    const node = explorerNodeArg(source) ?? (source === undefined ? this.explorer.view.selection.find((n) => n.kind === 'version') : undefined);
    if (node?.kind === 'version') return { id: node.id, label: versionLabel(node.version, this.explorer.recordTitleOf(node)) };
    let recordId: string | undefined;
    if (typeof source === 'string') return { id: source, label: await this.labelOfVersion(source) };
    if (source && typeof source === 'object' && !explorerNodeArg(source)) {
      const a = source as PublishArgs;
      if (a.versionId) return { id: a.versionId, label: await this.labelOfVersion(a.versionId) };
      recordId = a.recordId;
    }
    if (node?.kind === 'record' || node?.kind === 'file') recordId = node.kind === 'record' ? node.id : node.recordId;
    if (!recordId) {
      // By words of its title: a new user knows the record's name, not its id.
      const picked = await pickRecord(client, { title, placeholder: "Words of the record's title (its master file's newest version is used)" });
      if (!picked) return undefined;
      recordId = picked.id;
    }
    const id = await loadChecksModule().versionOfRecord(client, recordId);
    return { id, label: await this.labelOfVersion(id, recordId) };
  }

  /** A version as people name it (file name and version, with the record's title), read from the service; ids only if that fails. */
  private async labelOfVersion(versionId: string, recordId?: string): Promise<string> {
    const client = this.connections.session?.client;
    try {
      const [version, record] = await Promise.all([client!.files.getVersion(versionId), recordId ? client!.records.get(recordId) : undefined]);
      return versionLabel(version, record?.title ?? undefined);
    } catch {
      return `version ${versionId}`;
    }
  }

  private refreshExplorerVersion(versionId: string): void {
    const decorations = this.explorer.decorations;
    decorations.forget('version', versionId);
    for (const node of this.explorer.view.selection) if (node.kind === 'version' && node.id === versionId) this.explorer.provider.refresh(node);
  }

  dispose(): void {
    this.disposables.forEach((x) => x.dispose());
  }
}


function isPublishArgs(value: unknown): value is PublishArgs {
  return typeof value === 'object' && value !== null && !explorerNodeArg(value) && !(value instanceof vscode.Uri);
}

/** "report.pdf, Revision 2 of Spring banner": the file, its version and its record, without ids. */
function versionLabel(version: { fileName?: string | null; versionLabel?: string | null; version?: number | null }, recordTitle?: string): string {
  const which = version.versionLabel || (version.version !== null && version.version !== undefined ? `v${version.version}` : undefined);
  return [version.fileName ?? 'file', which ? `, ${which}` : '', recordTitle ? ` of ${recordTitle}` : ''].join('');
}
