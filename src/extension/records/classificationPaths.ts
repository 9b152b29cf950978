// Classification name paths in record documents: completed one level at a time where one is typed (an item of
// `classifications` or of a ClassificationList field), and looked up as the user types so that a path the tenant
// does not have is marked at once, not only when a save is refused. Read from the tenant, kept per connection.
import * as vscode from 'vscode';
import type { DamClient } from '../../api/client';
import type { Classification } from '../../api/schemas';
import type { TenantModel } from '../../api/records';
import { classificationSlotAt, parentPathOf, type ClassificationRef } from '../../core/records';
import type { ConnectionManager } from '../connections/connectionManager';

export class ClassificationPaths implements vscode.CompletionItemProvider, vscode.Disposable {
  private roots?: Promise<Classification[]>;
  private readonly children = new Map<string, Promise<Classification[]>>();
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly connections: ConnectionManager,
    private readonly model: () => Promise<TenantModel>,
  ) {
    // Another tenant, other classifications.
    this.subscription = connections.onDidChange(() => this.forget());
  }

  forget(): void {
    this.roots = undefined;
    this.children.clear();
  }

  private client(): DamClient | undefined {
    return this.connections.session?.client;
  }

  async provideCompletionItems(doc: vscode.TextDocument, position: vscode.Position): Promise<vscode.CompletionItem[] | undefined> {
    const client = this.client();
    if (!client) return undefined;
    const slot = classificationSlotAt(doc.getText(), doc.offsetAt(position), (await this.model()).definitions);
    if (!slot) return undefined;
    const parent = parentPathOf(slot.typed);
    const list = parent ? await this.childrenOf(client, parent) : await this.rootsOf(client);
    const range = new vscode.Range(doc.positionAt(slot.start), doc.positionAt(slot.end));
    return list
      .filter((c) => c.namePath)
      .map((c, i) => {
        const path = c.namePath!;
        const item = new vscode.CompletionItem({ label: path, description: c.labelPath && c.labelPath !== path ? c.labelPath : undefined }, vscode.CompletionItemKind.Folder);
        item.range = range;
        item.insertText = slot.quoted ? path : JSON.stringify(path);
        item.filterText = slot.quoted ? path : JSON.stringify(path);
        item.sortText = String(i).padStart(5, '0');
        item.detail = c.hasChildren ? 'has classifications below it: type / to go on' : undefined;
        return item;
      });
  }

  /** The classifications among these paths and ids that the tenant has (each looked up once). */
  known(client: DamClient, pathsOrIds: Iterable<string>): Promise<ClassificationRef[]> {
    return client.recordEdits.classifications(pathsOrIds);
  }

  private rootsOf(client: DamClient): Promise<Classification[]> {
    this.roots ??= (async () => {
      const roots: Classification[] = [];
      // The spec names no "roots" filter: the collection, keeping those without a parent (as the DAM Explorer does).
      for await (const c of client.classifications.items({ pageSize: 1000 })) if (c.isRoot || !c.parentId) roots.push(c);
      return sorted(roots);
    })().catch((err: unknown) => {
      this.roots = undefined;
      throw err;
    });
    return this.roots;
  }

  private childrenOf(client: DamClient, parentPath: string): Promise<Classification[]> {
    let found = this.children.get(parentPath);
    if (!found) {
      found = (async () => {
        const parent = await client.recordEdits.classification(parentPath);
        return parent ? sorted(await client.classifications.children(parent.id)) : [];
      })().catch((err: unknown) => {
        this.children.delete(parentPath);
        throw err;
      });
      this.children.set(parentPath, found);
    }
    return found;
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

function sorted(list: Classification[]): Classification[] {
  return [...list].sort((a, b) => (a.sortIndex ?? 0) - (b.sortIndex ?? 0) || (a.namePath ?? '').localeCompare(b.namePath ?? ''));
}
