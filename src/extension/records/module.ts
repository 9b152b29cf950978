// Entry of dist/records.js: record editing (the record documents of the `dam:` file system and their problems, the
// tree's record edits, bulk updates), loaded on the first record command or the first record document.
import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections/connectionManager';
import type { ExplorerProvider } from '../explorer/explorerProvider';
import type { DamLog } from '../log';
import { BulkUpdate } from './bulkUpdate';
import { ClassificationPaths } from './classificationPaths';
import { RecordDiagnostics } from './recordDiagnostics';
import { RecordDocuments } from './recordDocuments';
import { RenamedTabs } from './renamedTabs';
import type { RecordTarget } from './targets';
import { TreeEdits } from './treeEdits';

const JSON_LANGUAGE_FEATURES = 'vscode.json-language-features';
/** The language of record documents (package.json `languages`). */
const RECORD_LANGUAGE = 'dam-record';

export interface RecordsModuleDeps {
  connections: ConnectionManager;
  provider: ExplorerProvider;
  log: DamLog;
}

export class RecordsModule implements vscode.Disposable {
  readonly documents: RecordDocuments;
  readonly diagnostics: RecordDiagnostics;
  readonly edits: TreeEdits;
  readonly bulk: BulkUpdate;
  /** Completion of classification name paths in record documents. */
  readonly classificationPaths: ClassificationPaths;
  private readonly completion: vscode.Disposable;
  private readonly saveListener: vscode.Disposable;
  private readonly renamedTabs: RenamedTabs;
  private readonly deletedListener: vscode.Disposable;

  constructor(private readonly deps: RecordsModuleDeps) {
    this.documents = new RecordDocuments(deps.connections, deps.log);
    this.classificationPaths = new ClassificationPaths(deps.connections, () => this.documents.tenantModel());
    this.diagnostics = new RecordDiagnostics(this.documents, deps.log, (items) => deps.connections.requireSession().client.recordEdits.classifications(items));
    this.completion = vscode.languages.registerCompletionItemProvider({ language: RECORD_LANGUAGE }, this.classificationPaths, '/', '"');
    this.edits = new TreeEdits(deps.connections, deps.provider, this.documents, deps.log);
    this.bulk = new BulkUpdate(deps.connections, deps.provider, this.documents, deps.log);
    // After a save, the tree's rows of the record and its other open documents show what the tenant now holds.
    this.saveListener = this.documents.onDidSave((s) => {
      const { title, status } = s.document;
      deps.provider.updateRecord(s.recordId, { title, status, modifiedOn: s.modifiedOn ?? undefined });
      this.documents.recordChanged(s.recordId, vscode.FileChangeType.Changed, s.uri);
    });
    this.renamedTabs = new RenamedTabs(deps.log, (uri) => this.documents.baseOf(uri)?.title, (to) => this.documents.expectMove(to));
    // A record a read or a save found deleted on the tenant leaves the tree (its rows would open nothing).
    this.deletedListener = this.documents.onDidFindDeleted((recordId) => deps.provider.removeRecord(recordId));
    // Record documents are of their own language (`dam-record`, so that they never auto-save) and take VS Code's JSON
    // features (schema completion, validation, hovers, formatting) as a JSON language participant (package.json); but
    // VS Code's JSON extension activates only when a `json` document opens, so it is woken here, before the first one.
    const json = vscode.extensions.getExtension(JSON_LANGUAGE_FEATURES);
    if (json && !json.isActive) Promise.resolve(json.activate()).catch((err: unknown) => deps.log.warn(`JSON language features: ${err instanceof Error ? err.message : String(err)}`));
  }

  /** Opens a record as a writable document; the editor showing it. */
  async open(recordId: string, options: { preview?: boolean } = {}): Promise<vscode.TextEditor> {
    const uri = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Opening the record' }, () => this.documents.prepare(recordId));
    const doc = await vscode.workspace.openTextDocument(uri);
    return vscode.window.showTextDocument(doc, { preview: options.preview ?? false });
  }

  /** Targets for ids given without a row: each record read for its title and status (the confirmation names it). */
  async targetsOf(ids: string[]): Promise<RecordTarget[]> {
    const client = this.deps.connections.requireSession().client;
    return Promise.all(
      ids.map(async (id) => {
        const r = await client.recordEdits.readRecord(id).catch((err: unknown) => {
          if ((err as { status?: unknown }).status === 404) throw new Error(`There is no record with the id ${id} on this tenant.`);
          throw err;
        });
        return { id: r.id, title: r.title || r.id, status: r.status };
      }),
    );
  }

  dispose(): void {
    this.completion.dispose();
    this.classificationPaths.dispose();
    this.bulk.dispose();
    this.saveListener.dispose();
    this.renamedTabs.dispose();
    this.deletedListener.dispose();
    this.diagnostics.dispose();
    this.documents.dispose();
  }
}
