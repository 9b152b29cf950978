// Records you can read and change, the light part in the main bundle: the commands (Open Record, Delete Record…,
// Change Status…, Add to / Remove from Classification, Update Records Matching Query…), the record documents' place
// in the `dam:` file system, and the tree's record drop. What they do lives in dist/records.js (./module.ts), loaded
// on first use.
import * as vscode from 'vscode';
import type { DamClient } from '../../api/client';
import { stringArg, uriArg } from '../commandArgs';
import { Commands, QUERY_LANGUAGE } from '../commandIds';
import type { ConnectionManager } from '../connections/connectionManager';
import type { Explorer } from '../explorer/explorer';
import type { DamFsPart } from '../explorer/damFs';
import { pickRecord } from '../explorer/recordPicker';
import type { DamLog } from '../log';
import { lazyModule } from '../lazyModule';
import type { QueryFeature } from '../query/queryFeature';
import { registerCommand } from '../registration';
import type * as RecordsModuleExports from './module.js';
import type { RecordsModule } from './module.js';
import type { BulkSource } from './bulkUpdate';
import { isRecordFolderUri, isRecordSchemaUri, recordDocAddress, recordDocUri } from './recordUris';
import { targetsOfArgs, type RecordTarget } from './targets';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadRecordsModule = lazyModule<typeof RecordsModuleExports>(() => require('./records.js'));

export class RecordsFeature implements DamFsPart, vscode.Disposable {
  private module: RecordsModule | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;

  constructor(
    private readonly connections: ConnectionManager,
    private readonly explorer: Explorer,
    private readonly query: QueryFeature,
    private readonly log: DamLog,
  ) {
    const d = this.disposables;
    d.push(this.emitter, explorer.fileSystem.addPart(this));
    explorer.dragAndDrop.onRecordDrop = async (records, target) => void (await this.load().edits.drop(records, target));
    explorer.dragAndDrop.recordDocumentUri = (node) => {
      const session = connections.session;
      return session ? recordDocUri(session.profile.id, node.id, node.record.title) : undefined;
    };
    registerCommand(d, log, Commands.recordsOpen, (arg?: unknown) => this.open(arg));
    registerCommand(d, log, Commands.recordsDelete, async (node?: unknown, selected?: unknown) => this.load().edits.delete(await this.targets(node, selected, 'Delete a record')));
    registerCommand(d, log, Commands.recordsChangeStatus, async (node?: unknown, selected?: unknown, status?: unknown) =>
      this.load().edits.changeStatus(await this.targets(node, selected, 'Change the status of a record'), stringArg(status)),
    );
    registerCommand(d, log, Commands.recordsAddToClassification, async (node?: unknown, selected?: unknown) =>
      this.load().edits.addToClassification(await this.targets(node, selected, 'Add a record to a classification')),
    );
    registerCommand(d, log, Commands.recordsRemoveFromClassification, async (node?: unknown, selected?: unknown) =>
      this.load().edits.removeFromClassification(await this.targets(node, selected, 'Remove a record from a classification')),
    );
    registerCommand(d, log, Commands.recordsUpdateMatching, async (arg?: unknown, offset?: unknown) => {
      const source = await this.bulkSource(arg, typeof offset === 'number' ? offset : undefined);
      return source ? this.load().bulk.run(source) : undefined;
    });
    registerCommand(d, log, Commands.recordsUndoBulkUpdate, (file?: unknown) => this.load().bulk.undo(uriArg(file)));
  }

  /** Record editing, loaded on first use. */
  load(): RecordsModule {
    if (!this.module) {
      const module = new (loadRecordsModule().RecordsModule)({ connections: this.connections, provider: this.explorer.provider, log: this.log });
      this.disposables.push(
        module,
        module.documents.onDidChangeFile((events) => this.emitter.fire(events)),
        // The record's read-only JSON view shows what the tenant holds after a save too.
        module.documents.onDidSave((s) => this.explorer.fileSystem.recordChanged(s.recordId)),
      );
      this.module = module;
    }
    return this.module;
  }

  owns(uri: vscode.Uri): boolean {
    return isRecordSchemaUri(uri) || isRecordFolderUri(uri) || recordDocAddress(uri) !== undefined;
  }

  stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    return this.load().documents.stat(uri);
  }

  readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return this.load().documents.readFile(uri);
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    return this.load().documents.writeFile(uri, content);
  }

  rename(oldUri: vscode.Uri, newUri: vscode.Uri): void {
    this.load().documents.rename(oldUri, newUri);
  }

  /** DAM: Open Record from a tree row, a query-results row, a search hit, an id, or the palette (asks which record). */
  async open(arg?: unknown): Promise<vscode.TextEditor | undefined> {
    const given = targetsOfArgs(arg, undefined)[0];
    const id = typeof given === 'string' ? given : given?.id;
    const recordId = (arg === undefined ? undefined : id) ?? (await this.askRecord('DAM: Open Record'));
    return recordId ? this.load().open(recordId) : undefined;
  }

  /**
   * Asks which record, from the palette: by words of its title, searched on the tenant as the user types (a new user
   * knows a record's name, not its id; a pasted id still works). Not connected, it says so first and offers to start
   * the local emulator or connect (it asked for a record id, then failed with only Show Log), and goes on once
   * connected.
   */
  private async askRecord(title: string): Promise<string | undefined> {
    const client = this.connections.session?.client ?? (await this.offerConnection(title));
    if (!client) return undefined;
    return (await pickRecord(client, { title }))?.id;
  }

  private async offerConnection(title: string): Promise<DamClient | undefined> {
    const start = 'Start Local Emulator';
    const connect = 'Connect to a Tenant…';
    const choice = await vscode.window.showWarningMessage(
      `${title}: not connected to a DAM tenant. Start the local emulator (a demo tenant on this machine) or connect to a tenant first.`,
      start,
      connect,
    );
    if (!choice) return undefined;
    await vscode.commands.executeCommand(choice === start ? Commands.startEmulator : Commands.addConnection);
    return this.connections.session?.client;
  }

  /** The records a tree command acts on; asks which record when nothing names one. */
  private async targets(node: unknown, selected: unknown, title: string): Promise<RecordTarget[]> {
    const found = targetsOfArgs(node, selected);
    if (found.length && typeof found[0] !== 'string') return found as RecordTarget[];
    const ids = found.length ? (found as string[]) : [await this.askRecord(`DAM: ${title}`)].filter((id): id is string => !!id);
    return ids.length ? this.load().targetsOf(ids) : [];
  }

  /**
   * The search a bulk update covers: the `.dam-query` section at the cursor (editor title, context menu, code lens),
   * the query on screen in the results panel (its context menu), else an expression typed in.
   */
  private async bulkSource(arg: unknown, offset: number | undefined): Promise<BulkSource | undefined> {
    const uri = uriArg(arg);
    const fromPanel = typeof arg === 'object' && arg !== null && !uri && 'webviewId' in arg;
    const editor = vscode.window.activeTextEditor;
    if (uri || (!fromPanel && editor?.document.languageId === QUERY_LANGUAGE)) {
      const { request } = await this.query.load().requestAt(uri, offset);
      return sourceOf(request);
    }
    const current = fromPanel || !editor ? this.query.load().results.current : undefined;
    if (current) return sourceOf(current.request);
    const expression = stringArg(arg) ?? (await vscode.window.showInputBox({ title: 'DAM: Update Records Matching Query…', prompt: 'The search expression of the records to update, e.g. ContentType = Image AND Title = "Sunset*"', ignoreFocusOut: true }));
    return expression?.trim() ? { expression: expression.trim(), name: expression.trim() } : undefined;
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}

function sourceOf(request: { name: string; expression: string; target?: string; namedParameters?: Readonly<Record<string, unknown>>; parameters?: readonly unknown[] }): BulkSource {
  if (request.target && request.target !== 'records') throw new Error(`“${request.name}” searches ${request.target}: a bulk update needs a search of records.`);
  if (Object.keys(request.namedParameters ?? {}).length || request.parameters?.length) {
    throw new Error(`“${request.name}” uses parameters: a bulk update takes a search expression without them (write the values into the expression).`);
  }
  return { expression: request.expression, name: request.name };
}
