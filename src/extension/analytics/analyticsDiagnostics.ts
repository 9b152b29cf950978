// Diagnostics of `.dam-analytics.json` files from the analytics core (members, operators, limits).
// Self-contained so the analytics panels (issue 10) can reuse it: construct it once, or call
// `diagnose` on any text document. The JSON schema in schemas/ covers shape and names while typing.
import * as vscode from 'vscode';
import { lintAnalyticsText } from '../../core/analytics';
import { DelayedChecks } from '../delayedChecks';
import { rangeOf, toDiagnostic } from '../query/convert';

const DEBOUNCE_MS = 250;

export function isAnalyticsDocument(doc: vscode.TextDocument): boolean {
  return doc.uri.path.toLowerCase().endsWith('.dam-analytics.json');
}

/** The core's diagnostics of an analytics query text, as VS Code diagnostics of `doc`. */
export function diagnoseAnalytics(doc: vscode.TextDocument): vscode.Diagnostic[] {
  return lintAnalyticsText(doc.getText()).map((d) => toDiagnostic(rangeOf(doc, d.range), d));
}

export class AnalyticsDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('dam-analytics');
  private readonly checks = new DelayedChecks((doc) => this.refresh(doc));
  private readonly disposables: vscode.Disposable[] = [this.collection, this.checks];

  constructor() {
    const d = this.disposables;
    d.push(vscode.workspace.onDidOpenTextDocument((doc) => this.schedule(doc, 0)));
    d.push(vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document, DEBOUNCE_MS)));
    d.push(
      vscode.workspace.onDidCloseTextDocument((doc) => {
        this.checks.cancel(doc.uri);
        this.collection.delete(doc.uri);
      }),
    );
    for (const doc of vscode.workspace.textDocuments) this.schedule(doc, 0);
  }

  private schedule(doc: vscode.TextDocument, delay: number): void {
    if (isAnalyticsDocument(doc)) this.checks.schedule(doc, delay);
  }

  refresh(doc: vscode.TextDocument): vscode.Diagnostic[] {
    const out = diagnoseAnalytics(doc);
    this.collection.set(doc.uri, out);
    return out;
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
