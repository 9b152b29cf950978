// Completion, hover, quick fixes, formatting, symbols, folding and Run lenses: adapters over the language core.
// Each call reads the document text and hands offsets to the core, which reads only the section at hand.
import * as vscode from 'vscode';
import { completeInDocument, formatDocument, hoverInDocument, lintSection, parseDocument, sectionAt } from '../../core/search';
import { Commands, QUERY_LANGUAGE } from '../commandIds';
import { COMPLETION_KIND, codeOf, rangeOf } from './convert';
import type { SchemaCache } from './schemaCache';

const SELECTOR: vscode.DocumentSelector = { language: QUERY_LANGUAGE };

/** Values compared with each property in the queries run before (the query history). */
export type RecentValues = () => ReadonlyMap<string, readonly string[]>;

export function registerQueryProviders(schema: SchemaCache, recentValues?: RecentValues): vscode.Disposable[] {
  return [
    vscode.languages.registerCompletionItemProvider(SELECTOR, new Completion(schema, recentValues), '.', '(', '@', '"', "'", ' '),
    vscode.languages.registerHoverProvider(SELECTOR, new Hover(schema)),
    vscode.languages.registerCodeActionsProvider(SELECTOR, new QuickFixes(schema), { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }),
    vscode.languages.registerDocumentFormattingEditProvider(SELECTOR, new Formatter()),
    vscode.languages.registerDocumentSymbolProvider(SELECTOR, new Symbols(), { label: 'DAM queries' }),
    vscode.languages.registerFoldingRangeProvider(SELECTOR, new Folding()),
    vscode.languages.registerCodeLensProvider(SELECTOR, new RunLenses()),
  ];
}

class Completion implements vscode.CompletionItemProvider {
  constructor(
    private readonly schema: SchemaCache,
    private readonly recentValues?: RecentValues,
  ) {}

  provideCompletionItems(doc: vscode.TextDocument, position: vscode.Position, _token: vscode.CancellationToken, context?: vscode.CompletionContext): vscode.CompletionItem[] {
    // The core decides what a typed space or quote may open; an explicit request (Ctrl+Space) gets everything.
    const triggerCharacter = context?.triggerKind === vscode.CompletionTriggerKind.TriggerCharacter ? context.triggerCharacter : undefined;
    const items = completeInDocument(doc.getText(), doc.offsetAt(position), { schema: this.schema.schema, recentValues: this.recentValues?.(), triggerCharacter });
    return items.map((i) => {
      const item = new vscode.CompletionItem(i.label, COMPLETION_KIND[i.kind]);
      item.insertText = i.snippet ? new vscode.SnippetString(i.insertText) : i.insertText;
      item.range = rangeOf(doc, i.range);
      item.sortText = i.sortText;
      if (i.detail) item.detail = i.detail;
      if (i.documentation) item.documentation = new vscode.MarkdownString(i.documentation);
      // The core's range may start at a quote: filter on the text that will be inserted, not the label.
      if (!i.snippet) item.filterText = i.insertText;
      if (i.retrigger) item.command = { command: 'editor.action.triggerSuggest', title: 'Suggest what comes next' };
      return item;
    });
  }
}

class Hover implements vscode.HoverProvider {
  constructor(private readonly schema: SchemaCache) {}

  provideHover(doc: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const h = hoverInDocument(doc.getText(), doc.offsetAt(position), { schema: this.schema.schema });
    if (!h) return undefined;
    // Plain Markdown from our own catalogue and the tenant's names: no HTML, no command links.
    const md = new vscode.MarkdownString(h.contents);
    md.supportHtml = false;
    md.isTrusted = false;
    return new vscode.Hover(md, rangeOf(doc, h.range));
  }
}

/**
 * The core attaches fixes to its diagnostics. VS Code hands back copies of the diagnostics it shows,
 * so the section under each one is linted again and its fixes matched by code and range.
 */
class QuickFixes implements vscode.CodeActionProvider {
  constructor(private readonly schema: SchemaCache) {}

  provideCodeActions(doc: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const ours = context.diagnostics.filter((d) => d.source === 'dam-query');
    if (ours.length === 0) return [];
    const text = doc.getText();
    const actions: vscode.CodeAction[] = [];
    const linted = new Map<number, ReturnType<typeof lintSection>>();
    for (const shown of ours) {
      const start = doc.offsetAt(shown.range.start);
      const end = doc.offsetAt(shown.range.end);
      const section = sectionAt(text, start);
      if (!section) continue;
      let diagnostics = linted.get(section.range.start);
      if (!diagnostics) {
        diagnostics = lintSection(section, { schema: this.schema.schema });
        linted.set(section.range.start, diagnostics);
      }
      const core = diagnostics.find((d) => d.code === codeOf(shown) && d.range.start === start && d.range.end === end);
      for (const [i, fix] of (core?.fixes ?? []).entries()) {
        const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
        action.diagnostics = [shown];
        action.isPreferred = i === 0;
        action.edit = new vscode.WorkspaceEdit();
        for (const e of fix.edits) action.edit.replace(doc.uri, rangeOf(doc, e.range), e.newText);
        actions.push(action);
      }
    }
    return actions;
  }
}

class Formatter implements vscode.DocumentFormattingEditProvider {
  provideDocumentFormattingEdits(doc: vscode.TextDocument, options: vscode.FormattingOptions): vscode.TextEdit[] {
    const text = doc.getText();
    const indent = options.insertSpaces ? ' '.repeat(options.tabSize) : '\t';
    const formatted = formatDocument(text, { indent });
    if (formatted === text) return [];
    // One edit for the span that changed keeps the cursor and undo steps where the user expects them.
    let a = 0;
    while (a < text.length && a < formatted.length && text.charCodeAt(a) === formatted.charCodeAt(a)) a++;
    let b = 0;
    while (b < text.length - a && b < formatted.length - a && text.charCodeAt(text.length - 1 - b) === formatted.charCodeAt(formatted.length - 1 - b)) b++;
    return [vscode.TextEdit.replace(rangeOf(doc, { start: a, end: text.length - b }), formatted.slice(a, formatted.length - b))];
  }
}

class Symbols implements vscode.DocumentSymbolProvider {
  provideDocumentSymbols(doc: vscode.TextDocument): vscode.DocumentSymbol[] {
    return parseDocument(doc.getText()).sections.map((s) => {
      const range = rangeOf(doc, { start: s.range.start, end: Math.max(s.range.start, trimEnd(doc, s.range.end)) });
      const nameDirective = s.directives.find((d) => d.key === 'name' && d.value);
      const select = nameDirective ? nameDirective.valueRange : s.headerRange ?? { start: s.expressionOffset, end: s.expressionOffset };
      const symbol = new vscode.DocumentSymbol(
        s.name ?? `Query ${s.index + 1}`,
        s.target === 'classifications' ? 'classifications' : s.expression.replace(/\s+/g, ' ').slice(0, 60),
        vscode.SymbolKind.Function,
        range,
        rangeOf(doc, select).intersection(range) ?? new vscode.Range(range.start, range.start),
      );
      return symbol;
    });
  }
}

/** The end of a section without the line break before the next `###`. */
function trimEnd(doc: vscode.TextDocument, end: number): number {
  return end > 0 && doc.getText(new vscode.Range(doc.positionAt(end - 1), doc.positionAt(end))) === '\n' ? end - 1 : end;
}

class Folding implements vscode.FoldingRangeProvider {
  provideFoldingRanges(doc: vscode.TextDocument): vscode.FoldingRange[] {
    const out: vscode.FoldingRange[] = [];
    for (const s of parseDocument(doc.getText()).sections) {
      const first = doc.positionAt(s.range.start).line;
      const last = doc.positionAt(trimEnd(doc, s.range.end)).line;
      if (last > first) out.push(new vscode.FoldingRange(first, last, vscode.FoldingRangeKind.Region));
    }
    return out;
  }
}

class RunLenses implements vscode.CodeLensProvider {
  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const out: vscode.CodeLens[] = [];
    for (const s of parseDocument(doc.getText()).sections) {
      if (!s.expression.trim()) continue;
      const at = new vscode.Range(doc.positionAt(s.range.start), doc.positionAt(s.range.start));
      const args = [doc.uri, s.expressionOffset];
      out.push(new vscode.CodeLens(at, { title: '$(play) Run', command: Commands.queryRun, arguments: args, tooltip: `Run ${s.name ?? 'this query'} against the active connection` }));
      out.push(new vscode.CodeLens(at, { title: 'Export…', command: Commands.queryExport, arguments: args, tooltip: 'Export every result of this query to a CSV or JSON file' }));
      if (!s.target || s.target === 'records') {
        out.push(new vscode.CodeLens(at, { title: 'Update Matching Records…', command: Commands.recordsUpdateMatching, arguments: args, tooltip: 'Set or clear a field, change status or classify every record this query matches (a dry run comes first)' }));
      }
    }
    return out;
  }
}
