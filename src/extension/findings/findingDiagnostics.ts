// Findings as diagnostics: a text or Markdown document opened from a file version (`dam:/…?version=<id>`,
// the explorer's Open Preview, or a local copy saved by "Download File Version", see DownloadedVersions) gets a diagnostic at each place a finding of that version's check results
// occurs. The check results come through the explorer's FileData (the same reads as the tree's badges);
// locating is the pure `locateFindings`.
import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections/connectionManager';
import { resourceOf } from '../explorer/damFs';
import { fileDataOf } from '../explorer/fileDataCache';
import type { DamLog } from '../log';
import type { DownloadedVersions } from './downloadedVersions';
import { locateFindings, type FindingSeverity } from './locate';

const SEVERITY: Record<FindingSeverity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
};

/** The version id of a `dam:` document of a version's file, else undefined. */
export function versionIdOf(uri: vscode.Uri): string | undefined {
  const resource = resourceOf(uri);
  return resource?.kind === 'version' ? resource.versionId : undefined;
}

export class FindingDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('dam-findings');
  private readonly disposables: vscode.Disposable[] = [this.collection];
  /** The latest refresh per document: an older answer arriving late is dropped. */
  private readonly generation = new Map<string, number>();

  constructor(
    private readonly connections: ConnectionManager,
    private readonly log: DamLog,
    /** Local copies of versions; without it only `dam:` documents are marked. */
    readonly downloads?: DownloadedVersions,
  ) {
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument((doc) => void this.refresh(doc)),
      vscode.workspace.onDidCloseTextDocument((doc) => this.collection.delete(doc.uri)),
      this.connections.onDidChange(() => void this.refreshAll()),
    );
    if (downloads) {
      this.disposables.push(
        downloads.onDidChange((uri) => {
          const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
          if (doc) void this.refresh(doc);
        }),
      );
    }
    void this.refreshAll();
  }

  /** Reads the findings again for every open document of a version (after results were published or changed). */
  async refreshAll(): Promise<void> {
    await Promise.all(vscode.workspace.textDocuments.map((doc) => this.refresh(doc)));
  }

  /** Reads the version's check results and marks the findings found in the document; resolves with the count. */
  async refresh(doc: vscode.TextDocument): Promise<number> {
    const key = doc.uri.toString();
    const gen = (this.generation.get(key) ?? 0) + 1;
    this.generation.set(key, gen);
    let versionId = versionIdOf(doc.uri);
    if (!versionId && doc.uri.scheme === 'file' && this.downloads) {
      versionId = await this.downloads.versionOf(doc.uri);
      if (this.generation.get(key) !== gen) return 0;
      // A copy whose file was deleted (or never mapped) keeps no findings.
      if (!versionId) this.collection.delete(doc.uri);
    }
    if (!versionId) return 0;
    const session = this.connections.session;
    if (!session) {
      this.collection.delete(doc.uri);
      return 0;
    }
    try {
      const results = await fileDataOf(session.client).checkResults(versionId);
      if (this.generation.get(key) !== gen || doc.isClosed) return 0;
      const text = doc.getText();
      const diagnostics = results.flatMap((r) =>
        locateFindings(text, r.findings, r.checkName ?? 'DAM check').map((f) => {
          const d = new vscode.Diagnostic(new vscode.Range(doc.positionAt(f.start), doc.positionAt(f.end)), f.message, SEVERITY[f.severity]);
          d.source = f.source;
          d.code = `finding ${f.occurrence}`;
          return d;
        }),
      );
      this.collection.set(doc.uri, diagnostics);
      return diagnostics.length;
    } catch (err) {
      // A version without check results, or a tenant without the check API, simply shows no findings.
      this.log.warn(`Findings for version ${versionId} could not be read: ${err instanceof Error ? err.message : String(err)}`);
      this.collection.delete(doc.uri);
      return 0;
    }
  }

  /** The diagnostics currently shown for a document (the test suite reads them). */
  diagnosticsOf(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
