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

  constructor(private readonly log: DamLog) {
    this.disposables = [
      vscode.workspace.onDidSaveTextDocument((doc) => this.check(doc)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length && !e.document.isDirty) this.check(e.document);
      }),
    ];
  }

  /** The URI a record document's text belongs under, when it is clean and differs from its own; else undefined. */
  static renamedUri(doc: vscode.TextDocument): vscode.Uri | undefined {
    const address = recordDocAddress(doc.uri);
    if (!address || doc.isDirty) return undefined;
    const parsed = parseDocument(doc.getText()).doc;
    if (!parsed || parsed.id.replace(/-/g, '').toLowerCase() !== address.recordId) return undefined;
    const uri = recordDocUri(address.connectionId, address.recordId, parsed.title);
    return uri.toString() === doc.uri.toString() ? undefined : uri;
  }

  private check(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    if (this.moving.has(key)) return;
    const to = RenamedTabs.renamedUri(doc);
    if (!to) return;
    this.moving.add(key);
    this.reopen(doc, to)
      .catch((err: unknown) => this.log.warn(`Reopening ${doc.uri.path} as ${to.path}: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => this.moving.delete(key));
  }

  private async reopen(doc: vscode.TextDocument, to: vscode.Uri): Promise<void> {
    const from = doc.uri.toString();
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === from);
    if (tabs.length === 0) return;
    const focused = vscode.window.activeTextEditor?.document.uri.toString() === from;
    const next = await vscode.workspace.openTextDocument(to);
    // The tab the user looks at comes last, so that the focus ends where it was.
    const ordered = [...tabs].sort((a, b) => Number(a.group.isActive && a.isActive) - Number(b.group.isActive && b.isActive));
    for (const tab of ordered) {
      const group = tab.group;
      const index = group.tabs.indexOf(tab);
      if (!tab.isActive) {
        // A tab in the background stays there: opened inactive (VS Code's `background` open option).
        await vscode.commands.executeCommand('vscode.open', to, { viewColumn: group.viewColumn, preview: tab.isPreview, preserveFocus: true, background: true });
        await closeTab(tab);
        continue;
      }
      const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === from && e.viewColumn === group.viewColumn);
      const shown = await vscode.window.showTextDocument(next, {
        viewColumn: group.viewColumn,
        preview: tab.isPreview,
        preserveFocus: !(focused && group.isActive),
        ...(editor ? { selection: editor.selection } : {}),
      });
      if (editor) {
        shown.selections = editor.selections;
        const top = editor.visibleRanges[0];
        if (top) shown.revealRange(top, vscode.TextEditorRevealType.AtTop);
      }
      // The new tab takes the old one's place (VS Code opens it beside the active tab); moving acts on the active
      // group's active editor, which it is only when the group has the focus.
      const active = vscode.window.tabGroups.activeTabGroup;
      if (active.viewColumn === group.viewColumn && active.activeTab?.input instanceof vscode.TabInputText && active.activeTab.input.uri.toString() === to.toString()) {
        await vscode.commands.executeCommand('moveActiveEditor', { to: 'position', value: index + 1 });
      }
      await closeTab(tab);
    }
    this.log.info(`The record's title changed: its document is now ${to.path}`);
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}

/** Closes a tab that may be gone already (a preview opened in its group replaces the group's preview tab). */
async function closeTab(tab: vscode.Tab): Promise<void> {
  await Promise.resolve(vscode.window.tabGroups.close(tab, true)).catch(() => undefined);
}
