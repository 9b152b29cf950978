// A record document's URI carries the record's title (the tab shows it), and VS Code cannot rename an open document.
// When a clean record document's text names another title than its URI (a save that changed the title, or a reload
// that read a rename made elsewhere), its tabs are opened again under the URI of the new title, in the same group, at
// the same place, with the same selection and scroll, and the old tabs close: the tab and the tree never disagree.
// A document with unsaved edits keeps its tab until it is clean (saved or reverted).
import * as vscode from 'vscode';
import { parseDocument } from '../../core/records';
import type { DamLog } from '../log';
import { recordDocAddress, recordDocUri } from './recordUris';

export class RenamedTabs implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[];
  /** Documents being reopened now (a save and its reload both report the same rename). */
  private readonly moving = new Set<string>();

  /**
   * `baseTitle`: the title of the version the document's text is based on (the record documents' base). An edit's
   * change event can arrive before VS Code marks the document dirty, so a clean-looking text is taken as the tenant's
   * only when its title is the base's.
   */
  constructor(
    private readonly log: DamLog,
    private readonly baseTitle: (uri: vscode.Uri) => string | undefined,
  ) {
    this.disposables = [
      vscode.workspace.onDidSaveTextDocument((doc) => this.check(doc)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length && !e.document.isDirty) this.check(e.document);
      }),
    ];
  }

  /** The URI a record document's text belongs under, when it is the tenant's version and differs from its own. */
  renamedUri(doc: vscode.TextDocument): vscode.Uri | undefined {
    const address = recordDocAddress(doc.uri);
    if (!address || doc.isDirty) return undefined;
    const parsed = parseDocument(doc.getText()).doc;
    if (!parsed || parsed.id.replace(/-/g, '').toLowerCase() !== address.recordId || parsed.title !== this.baseTitle(doc.uri)) return undefined;
    const uri = recordDocUri(address.connectionId, address.recordId, parsed.title);
    return uri.toString() === doc.uri.toString() ? undefined : uri;
  }

  private check(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    if (this.moving.has(key)) return;
    const to = this.renamedUri(doc);
    if (!to) return;
    this.moving.add(key);
    this.reopen(doc, to)
      .catch((err: unknown) => this.log.warn(`Reopening ${doc.uri.path} as ${to.path}: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => this.moving.delete(key));
  }

  private async reopen(doc: vscode.TextDocument, to: vscode.Uri): Promise<void> {
    const from = doc.uri.toString();
    const focused = vscode.window.activeTextEditor?.document.uri.toString() === from;
    // What each group showed before anything moved: the tab objects change as tabs open and close, so each step
    // reads the groups again by column.
    const before = vscode.window.tabGroups.all
      .map((g) => ({ column: g.viewColumn, groupActive: g.isActive, index: g.tabs.findIndex((t) => isTabOf(t, from)) }))
      .filter((g) => g.index >= 0)
      .map((g) => ({ ...g, tab: groupAt(g.column)!.tabs[g.index] }));
    if (before.length === 0) return;
    const next = await vscode.workspace.openTextDocument(to);
    // The group the user looks at comes last, so that the focus ends where it was.
    before.sort((a, b) => Number(a.groupActive) - Number(b.groupActive));
    for (const { column, groupActive, index, tab } of before) {
      if (!tab.isActive) {
        // A tab in the background stays there: opened inactive (VS Code's `background` open option).
        await vscode.commands.executeCommand('vscode.open', to, { viewColumn: column, preview: tab.isPreview, preserveFocus: true, background: true });
      } else {
        const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === from && e.viewColumn === column);
        const shown = await vscode.window.showTextDocument(next, { viewColumn: column, preview: tab.isPreview, preserveFocus: !(focused && groupActive), ...(editor ? { selection: editor.selection } : {}) });
        if (editor) {
          shown.selections = editor.selections;
          const top = editor.visibleRanges[0];
          if (top) shown.revealRange(top, vscode.TextEditorRevealType.AtTop);
        }
        // The new tab takes the old one's place (VS Code opens it beside the active tab); moving acts on the active
        // group's active editor, which it is only when the group has the focus.
        const active = vscode.window.tabGroups.activeTabGroup;
        if (active.viewColumn === column && active.activeTab && isTabOf(active.activeTab, to.toString())) {
          await vscode.commands.executeCommand('moveActiveEditor', { to: 'position', value: index + 1 });
        }
      }
      const old = groupAt(column)?.tabs.filter((t) => isTabOf(t, from)) ?? [];
      // Never a tab with unsaved edits: closing it would ask to save them (the document then shows under both names
      // until the user closes the old one).
      const clean = old.filter((t) => !t.isDirty);
      if (clean.length) await vscode.window.tabGroups.close(clean, true);
    }
    this.log.info(`The record's title changed: its document is now ${to.path}`);
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}

function isTabOf(tab: vscode.Tab, uri: string): boolean {
  return tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri;
}

function groupAt(column: vscode.ViewColumn): vscode.TabGroup | undefined {
  return vscode.window.tabGroups.all.find((g) => g.viewColumn === column);
}
