// A record document's URI carries the record's title (the tab shows it). When a record document's text names the
// tenant's title and its URI another (a save that changed the title, or a reload that read a rename made elsewhere),
// the document is moved to the URI of the new title as VS Code moves a renamed file (a workspace edit's renameFile):
// VS Code replaces the editor in place, in every group, at the same position, with its view state and any unsaved
// text, and no second tab shows on the way. Reopening it under the new URI and closing the old tab showed both tabs
// for a moment, and had to wait for unsaved edits to be saved.
import * as vscode from 'vscode';
import { parseDocument } from '../../core/records';
import type { DamLog } from '../log';
import { recordDocAddress, recordDocUri } from './recordUris';

export class RenamedTabs implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[];
  /** Documents being moved now (a save and its reload both report the same rename). */
  private readonly moving = new Set<string>();

  /**
   * `baseTitle`: the title of the version the document's text is based on (the record documents' base): the text's
   * title is taken as the tenant's only when it is the base's (an unsaved edit of the title does not move anything).
   * `expectMove`: makes the new URI free for the move (record documents answer every title of a record otherwise).
   */
  constructor(
    private readonly log: DamLog,
    private readonly baseTitle: (uri: vscode.Uri) => string | undefined,
    private readonly expectMove: (to: vscode.Uri) => () => void,
  ) {
    this.disposables = [
      vscode.workspace.onDidSaveTextDocument((doc) => this.check(doc)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length && !e.document.isDirty) this.check(e.document);
      }),
    ];
  }

  /** The URI a record document's text belongs under, when its title is the tenant's and differs from its URI's. */
  renamedUri(doc: vscode.TextDocument): vscode.Uri | undefined {
    const address = recordDocAddress(doc.uri);
    if (!address) return undefined;
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
    this.move(doc.uri, to)
      .catch((err: unknown) => this.log.warn(`Moving ${doc.uri.path} to ${to.path}: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => this.moving.delete(key));
  }

  private async move(from: vscode.Uri, to: vscode.Uri): Promise<void> {
    const done = this.expectMove(to);
    try {
      const edit = new vscode.WorkspaceEdit();
      edit.renameFile(from, to, { overwrite: false });
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code did not apply the rename');
    } finally {
      done();
    }
    this.log.info(`The record's title changed: its document is now ${to.path}`);
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
