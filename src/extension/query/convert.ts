// Core shapes (offsets, severities, kinds) to VS Code's.
import * as vscode from 'vscode';
import type { CompletionKind, Diagnostic as CoreDiagnostic } from '../../core/search';

export function rangeOf(doc: vscode.TextDocument, r: { start: number; end: number }): vscode.Range {
  return new vscode.Range(doc.positionAt(r.start), doc.positionAt(r.end));
}

const SEVERITY: Record<CoreDiagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

export function toDiagnostic(range: vscode.Range, d: CoreDiagnostic): vscode.Diagnostic {
  const out = new vscode.Diagnostic(range, d.message, SEVERITY[d.severity]);
  out.code = d.code;
  out.source = d.source;
  return out;
}

export const COMPLETION_KIND: Record<CompletionKind, vscode.CompletionItemKind> = {
  property: vscode.CompletionItemKind.Property,
  field: vscode.CompletionItemKind.Field,
  function: vscode.CompletionItemKind.Function,
  operator: vscode.CompletionItemKind.Operator,
  keyword: vscode.CompletionItemKind.Keyword,
  value: vscode.CompletionItemKind.Value,
  accessor: vscode.CompletionItemKind.Property,
  directive: vscode.CompletionItemKind.Snippet,
};

export function codeOf(d: vscode.Diagnostic): string | undefined {
  const c = d.code;
  if (c === undefined) return undefined;
  return typeof c === 'object' ? String(c.value) : String(c);
}
