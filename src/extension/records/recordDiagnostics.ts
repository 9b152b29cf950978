// Problems of open record documents, as the user types: the core's validation against the tenant's field
// definitions (types, required, read-only, option values, languages, record ids) and against the version read (id,
// content type and the read-only section cannot change). The same check refuses a save, so what the Problems view
// shows is what a save would say. The JSON schema (served beside the documents) adds completion and hovers.
import * as vscode from 'vscode';
import { classificationProblems, namedClassifications, parseDocument, type ClassificationRef, type Problem } from '../../core/records';
import type { DamLog } from '../log';
import type { RecordDocuments } from './recordDocuments';
import { recordDocAddress } from './recordUris';

export const RECORD_DIAGNOSTIC_SOURCE = 'DAM record';

const DEBOUNCE_MS = 250;

export class RecordDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('dam-records');
  private readonly disposables: vscode.Disposable[] = [this.collection];
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly documents: RecordDocuments,
    private readonly log: DamLog,
    /** The classifications among these name paths and ids that the tenant has (unknown ones are marked as typed). */
    private readonly lookUpClassifications?: (pathsOrIds: string[]) => Promise<ClassificationRef[]>,
  ) {
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument((doc) => this.schedule(doc)),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        if (!recordDocAddress(doc.uri)) return;
        this.clear(doc.uri);
        this.documents.forget(doc.uri);
      }),
      // VS Code closes a document some time after its last tab (or never, while something else holds it): its problems
      // go with the last tab showing it.
      vscode.window.tabGroups.onDidChangeTabs((e) => {
        for (const tab of e.closed) {
          const uri = uriOfTab(tab);
          if (uri && recordDocAddress(uri) && !isShown(uri)) this.clear(uri);
        }
      }),
    );
    vscode.workspace.textDocuments.forEach((doc) => this.schedule(doc));
  }

  private schedule(doc: vscode.TextDocument): void {
    if (!recordDocAddress(doc.uri)) return;
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void this.check(doc).catch((err: unknown) => this.log.warn(`Record problems: ${err instanceof Error ? err.message : String(err)}`));
      }, DEBOUNCE_MS),
    );
  }

  /** Checks one document now; the problems it found (tests). */
  async check(doc: vscode.TextDocument): Promise<vscode.Diagnostic[]> {
    const before = this.documents.baseOf(doc.uri);
    if (!before || doc.isClosed || !isShown(doc.uri)) return [];
    const model = await this.documents.tenantModel();
    const text = doc.getText();
    // Against the base as it is now (the model moves it when the editor reads a version, before the text arrives).
    const problems = [...this.documents.problemsOf(text, this.documents.baseFor(doc.uri, text) ?? before, model), ...(await this.unknownClassifications(text, model.definitions))];
    // A tab closed (or the text changed) while the tenant model and classifications were read: no stale problems.
    if (doc.isClosed || !isShown(doc.uri) || doc.getText() !== text) return [];
    const diagnostics = problems.map((p) => diagnosticOf(doc, p));
    this.collection.set(doc.uri, diagnostics);
    return diagnostics;
  }

  /** Name paths and ids the tenant does not have: looked up as the user types (a save was the first to say so). */
  private async unknownClassifications(text: string, definitions: Parameters<typeof namedClassifications>[1]): Promise<Problem[]> {
    const parsed = parseDocument(text).doc;
    if (!parsed || !this.lookUpClassifications) return [];
    const named = namedClassifications(parsed, definitions);
    if (!named.length) return [];
    try {
      return classificationProblems(parsed, definitions, await this.lookUpClassifications(named));
    } catch (err) {
      this.log.warn(`Record problems: looking up classifications: ${err instanceof Error ? err.message : String(err)}`);
      return [];
    }
  }

  private clear(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    this.collection.delete(uri);
  }

  dispose(): void {
    this.timers.forEach((t) => clearTimeout(t));
    this.disposables.forEach((d) => d.dispose());
  }
}

function uriOfTab(tab: vscode.Tab): vscode.Uri | undefined {
  if (tab.input instanceof vscode.TabInputText) return tab.input.uri;
  if (tab.input instanceof vscode.TabInputTextDiff) return tab.input.modified;
  return undefined;
}

/** Whether a tab (an editor or the user's side of a Compare) shows the document. */
function isShown(uri: vscode.Uri): boolean {
  const key = uri.toString();
  return vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => uriOfTab(t)?.toString() === key));
}

function diagnosticOf(doc: vscode.TextDocument, p: Problem): vscode.Diagnostic {
  const start = doc.positionAt(p.offset ?? 0);
  const end = doc.positionAt((p.offset ?? 0) + Math.max(p.length ?? 0, 1));
  const d = new vscode.Diagnostic(new vscode.Range(start, end), p.message, p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
  d.source = RECORD_DIAGNOSTIC_SOURCE;
  d.code = p.code;
  return d;
}
