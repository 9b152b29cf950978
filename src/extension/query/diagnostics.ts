// Diagnostics of `.dam-query` files, off the typing path: a change schedules a check after a pause,
// and the check re-lints only sections whose text changed (the others reuse their earlier result).
import * as vscode from 'vscode';
import { lintSection, parseDocument, type Diagnostic as CoreDiagnostic } from '../../core/search';
import { QUERY_LANGUAGE } from '../commandIds';
import { DelayedChecks } from '../delayedChecks';
import { rangeOf, toDiagnostic } from './convert';
import type { SchemaCache } from './schemaCache';

const DEBOUNCE_MS = 250;

/** Diagnostics of one section with ranges relative to the section's start. */
type SectionResult = CoreDiagnostic[];

export interface LintStats {
  sections: number;
  relinted: number;
  ms: number;
}

export class QueryDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection(QUERY_LANGUAGE);
  private readonly checks = new DelayedChecks((doc) => this.refresh(doc));
  /** Per document: section text → its diagnostics. Replaced on every check, so it holds only live sections. */
  private readonly cache = new Map<string, Map<string, SectionResult>>();
  private readonly disposables: vscode.Disposable[] = [this.collection, this.checks];

  constructor(private readonly schema: SchemaCache) {
    const d = this.disposables;
    d.push(vscode.workspace.onDidOpenTextDocument((doc) => this.schedule(doc, 0)));
    d.push(vscode.workspace.onDidChangeTextDocument((e) => e.contentChanges.length > 0 && this.schedule(e.document, DEBOUNCE_MS)));
    d.push(
      vscode.workspace.onDidCloseTextDocument((doc) => {
        this.cache.delete(doc.uri.toString());
        this.collection.delete(doc.uri);
        this.checks.cancel(doc.uri);
      }),
    );
    // Field names and options change what is valid: everything is checked again.
    d.push(
      schema.onDidChange(() => {
        this.cache.clear();
        for (const doc of vscode.workspace.textDocuments) this.schedule(doc, 0);
      }),
    );
    for (const doc of vscode.workspace.textDocuments) this.schedule(doc, 0);
  }

  private schedule(doc: vscode.TextDocument, delay: number): void {
    if (doc.languageId === QUERY_LANGUAGE) this.checks.schedule(doc, delay);
  }

  /** Checks a document now and publishes the result; `cold` ignores what earlier checks remembered. */
  refresh(doc: vscode.TextDocument, cold = false): LintStats {
    const started = performance.now();
    const text = doc.getText();
    const key = doc.uri.toString();
    // This check covers whatever a pending one would have seen.
    this.checks.cancel(doc.uri);
    const previous = cold ? undefined : this.cache.get(key);
    const next = new Map<string, SectionResult>();
    const schema = this.schema.schema;
    const out: vscode.Diagnostic[] = [];
    let relinted = 0;
    const sections = parseDocument(text).sections;
    for (const s of sections) {
      const sectionText = text.slice(s.range.start, s.range.end);
      let result = next.get(sectionText) ?? previous?.get(sectionText);
      if (!result) {
        relinted++;
        result = lintSection(s, { schema }).map((d) => relative(d, -s.range.start));
      }
      next.set(sectionText, result);
      for (const d of result) out.push(toDiagnostic(rangeOf(doc, { start: d.range.start + s.range.start, end: d.range.end + s.range.start }), d));
    }
    this.cache.set(key, next);
    this.collection.set(doc.uri, out);
    return { sections: sections.length, relinted, ms: performance.now() - started };
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}

function relative(d: CoreDiagnostic, by: number): CoreDiagnostic {
  return { ...d, range: { start: d.range.start + by, end: d.range.end + by } };
}
