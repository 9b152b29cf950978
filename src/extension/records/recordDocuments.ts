// Record documents in the `dam:` file system: a record opens as JSON (the core's document: fields by name,
// classifications by path, a read-only section), and a save sends what changed as one update.
//
// Each document holds three things, never inferred from each other (STYLE.md principle 15, after VS Code's
// TextFileEditorModel): `base`, the version its text started from (modifiedOn and the document as read), checked
// against for read-only parts; `tenant`, the version the tenant holds now as last read, what a save is computed
// against; and the text, which is VS Code's. The model and its transitions are in ./recordVersions.ts; here are the
// reads and writes:
//   Open / Revert / reload  readFile for the editor (its document is not dirty, or we asked it to reload), or the
//                           editor's text becoming exactly the tenant's version: base = tenant = what was read.
//   Compare                 readFile while the editor holds unsaved edits: tenant = what was read, base unchanged.
//   refresh (stat)          the tenant's modifiedOn differs: tenant = read again; VS Code then reloads a clean editor,
//                           or reports a dirty one's save as a conflict (Compare / Overwrite).
//   Save / Overwrite        VS Code's stat is the conflict check (one small read); every editable value where the text
//                           differs from `tenant` goes as one PUT (after a conflict that is exactly what the editor
//                           shows). Once the PUT is accepted the editor shows the save done: the stat after the write is
//                           answered from what was written. The record is then read again off the editor's critical
//                           path; the tree and other views hear of it, and the clean editor reloads it (its stat answered
//                           from that read, its readFile the new base).
//   delete elsewhere        stat and the save's check answer 404: the save says so, offering Save As, the tab shows the
//                           file deleted and the tree drops its rows (a delete from the tree tells open documents at once).
// `stat` reports the tenant's modifiedOn as mtime, so VS Code raises its own conflict on a save over a newer version
// ("the content of the file is newer") and calls writeFile only once the user chose. VS Code takes a file as changed
// only when its size differs too (its etag is made of both), so a version's size is chosen to differ where needed.
import * as vscode from 'vscode';
import type { DamClient } from '../../api/client';
import type { OpenedRecord, TenantModel } from '../../api/records';
import { diffDocuments, hasErrors, isEmptyChangeSet, parseDocument, validateDocument, documentJsonSchema, type ChangeSet, type Problem, type RecordDocument } from '../../core/records';
import type { ConnectionManager } from '../connections/connectionManager';
import type { DamFsPart } from '../explorer/damFs';
import type { DamLog } from '../log';
import { inWords } from '../errorWords';
import { RECORD_SCHEMA_URI, isRecordFolderUri, isRecordSchemaUri, recordDocAddress, recordDocUri, type RecordDocAddress } from './recordUris';
import { RecordVersionModel, type FileVersion } from './recordVersions';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A version of a record as served to VS Code. */
interface Served {
  opened: OpenedRecord;
  modifiedOn: string | null;
  text: string;
  bytes: Uint8Array;
  mtime: number;
  /** The size `stat` reports: the bytes' length, unless that would hide a change from VS Code (see `distinct`). */
  size: number;
  /** When it was read from the service. */
  readAt: number;
}

interface DocState {
  versions: RecordVersionModel<Served>;
  /** A save's re-read on its way: a stat or a save waits for it, so they see what the save made. */
  reread?: Promise<void>;
}

/** A stat followed at once by a read (VS Code does this on open and on compare) reads the record once. */
const FRESH_MS = 2_000;

/** What a save did (tests, the tree). */
export interface SaveOutcome {
  uri: vscode.Uri;
  recordId: string;
  changes: ChangeSet;
  sent: boolean;
  /** The record as the tenant holds it after the save. */
  document: RecordDocument;
  modifiedOn: string | null;
}

export class RecordDocuments implements DamFsPart, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  private readonly saved = new vscode.EventEmitter<SaveOutcome>();
  /** Fires after each save a record document's writeFile completed, once the record was read again. */
  readonly onDidSave = this.saved.event;
  private readonly deleted = new vscode.EventEmitter<string>();
  /** Fires with a record's id when a read or a save found it deleted on the tenant (the tree drops its rows). */
  readonly onDidFindDeleted = this.deleted.event;
  private readonly states = new Map<string, DocState>();
  private readonly disposables: vscode.Disposable[] = [];
  private schemaMtime = Date.now();

  constructor(
    private readonly connections: ConnectionManager,
    private readonly log: DamLog,
  ) {
    this.disposables.push(
      connections.onDidChange(() => {
        // Another tenant, other definitions: the schema is served again.
        this.schemaMtime = Date.now();
        this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri: RECORD_SCHEMA_URI }]);
      }),
      // An editor that now holds exactly the tenant's version has loaded it (a revert or a reload: VS Code may tell
      // the extension host that the document is clean only after it read the file, so readFile cannot always know).
      vscode.workspace.onDidChangeTextDocument((e) => this.states.get(e.document.uri.toString())?.versions.textChanged(e.document.getText())),
      // VS Code reloads only a clean editor: once its save is done and the save's re-read answered, the editor reads
      // the record as the tenant now holds it (new dates, who changed it, values as the tenant prints them).
      vscode.workspace.onDidSaveTextDocument((doc) => {
        const state = this.states.get(doc.uri.toString());
        if (state?.versions.vscodeSaved()) this.reload(doc.uri, state);
      }),
    );
  }

  owns(uri: vscode.Uri): boolean {
    return isRecordSchemaUri(uri) || isRecordFolderUri(uri) || recordDocAddress(uri) !== undefined;
  }

  /** The document's URI for a record on the active connection. */
  uriOf(recordId: string, title: string | null | undefined): vscode.Uri {
    return recordDocUri(this.connections.requireSession().profile.id, recordId, title);
  }

  /** Reads a record for opening; what was read is served to the editor that opens it next. */
  async prepare(recordId: string): Promise<vscode.Uri> {
    const opened = await this.client().recordEdits.open(recordId);
    const uri = this.uriOf(opened.document.id, opened.document.title);
    const { versions } = this.state(uri);
    versions.opened(versions.distinct(served(opened)));
    return uri;
  }

  /** The base document an open editor's text is compared with (diagnostics, tests). */
  baseOf(uri: vscode.Uri): RecordDocument | undefined {
    return this.states.get(uri.toString())?.versions.base?.opened.document;
  }

  /**
   * The base an editor's `text` started from. While VS Code has not shown that it replaced the text with the version it
   * last read (an edit made while it read wins: VS Code does not reload a document that became dirty), the text's own
   * read-only section says whether it is still on the base before that read; the model then goes back to it.
   */
  baseFor(uri: vscode.Uri, text: string): RecordDocument | undefined {
    const state = this.states.get(uri.toString());
    if (!state) return undefined;
    return this.textBase(state, text)?.opened.document;
  }

  private textBase(state: DocState, text: string): Served | undefined {
    const { versions } = state;
    const previous = versions.previousBase;
    if (previous && versions.base) {
      const shown = parseDocument(text).doc?.readOnly?.modifiedOn;
      if (shown !== undefined && shown === previous.opened.document.readOnly.modifiedOn && shown !== versions.base.opened.document.readOnly.modifiedOn) versions.keptPrevious();
    }
    return versions.base;
  }

  /** The version of a document's record the tenant holds, as last read (tests). */
  tenantOf(uri: vscode.Uri): RecordDocument | undefined {
    return this.states.get(uri.toString())?.versions.tenant?.opened.document;
  }

  /** Waits for a save's re-read of the document, if one is on its way (tests, and the next stat or save). */
  async settled(uri: vscode.Uri): Promise<void> {
    await this.states.get(uri.toString())?.reread;
  }

  /** Tells VS Code a record changed on the tenant (a tree command wrote it): open documents of it notice. */
  recordChanged(recordId: string, type: vscode.FileChangeType = vscode.FileChangeType.Changed, except?: vscode.Uri): void {
    const events: vscode.FileChangeEvent[] = [];
    for (const [key, state] of this.states) {
      const uri = vscode.Uri.parse(key);
      if (key !== except?.toString() && recordDocAddress(uri)?.recordId === recordId) {
        state.versions.forgetTenant();
        events.push({ type, uri });
      }
    }
    if (events.length) this.emitter.fire(events);
  }

  /**
   * Names under which a record document is about to be moved (a rename after its title changed, renamedTabs.ts): VS
   * Code checks that a move's target does not exist, and any title of a record would otherwise read as its document.
   */
  private readonly arriving = new Set<string>();

  /** Makes `to` a free name for a move of `from` (see `arriving`); the returned function ends that, moved or not. */
  expectMove(to: vscode.Uri): () => void {
    const key = to.toString();
    this.arriving.add(key);
    return () => this.arriving.delete(key);
  }

  /**
   * Moves a record document to another name of the same record (its new title): the version model goes with it, so the
   * moved document keeps its base, and VS Code moves the editor and its unsaved text. Any other rename is refused: a
   * record document is named after its title, which changes in the document (an undo of that move, too).
   */
  rename(from: vscode.Uri, to: vscode.Uri): void {
    const source = recordDocAddress(from);
    const target = recordDocAddress(to);
    const key = to.toString();
    if (!source || !target || source.connectionId !== target.connectionId || source.recordId !== target.recordId || !this.arriving.has(key)) {
      throw vscode.FileSystemError.NoPermissions('A record document is named after the record’s title: change the title in the document and save.');
    }
    this.arriving.delete(key);
    const state = this.states.get(from.toString());
    this.states.delete(from.toString());
    if (state) this.states.set(key, state);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    if (isRecordSchemaUri(uri)) {
      const bytes = await this.schemaBytes();
      return { type: vscode.FileType.File, ctime: this.schemaMtime, mtime: this.schemaMtime, size: bytes.byteLength, permissions: vscode.FilePermission.Readonly };
    }
    // A record's folder exists as long as the document does (VS Code looks for it before writing a file it cannot
    // stat, and would try to create it).
    if (isRecordFolderUri(uri)) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    if (this.arriving.has(uri.toString())) throw vscode.FileSystemError.FileNotFound(uri);
    const address = this.address(uri);
    const state = this.state(uri);
    // Right after writeFile, VS Code stats the text it just saved; the reload we asked for stats what was just read.
    const known = state.versions.statWithoutRequest((v) => Date.now() - v.readAt < FRESH_MS);
    if (known) return fileStat(known);
    await state.reread;
    let modifiedOn: string | null | undefined;
    if (state.versions.known) {
      // One small read says whether the record changed since the tenant's version was read.
      modifiedOn = await this.client(address).recordEdits.modifiedOn(address.recordId).catch((err: unknown) => this.fail(uri, err, address.recordId));
      const answer = state.versions.statAt(modifiedOn);
      if (answer) return fileStat(answer);
    }
    return fileStat(state.versions.reported(await this.latest(uri, address, modifiedOn)));
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    if (isRecordSchemaUri(uri)) return this.schemaBytes();
    const latest = await this.latest(uri, this.address(uri));
    // VS Code reads for its editor while the document is clean (open, Revert, the reload we asked for): that read is the
    // editor's new base. A read while the editor holds unsaved edits is the other side of a conflict's Compare: the
    // edits stay based on the version they were made on.
    this.state(uri).versions.served(latest, isDirty(uri), vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.getText());
    return latest.bytes;
  }

  /**
   * Saves the editor's text: refused with the reason when the text has problems; otherwise every editable value where
   * the text differs from the tenant's version goes as one update, and the record is read again.
   */
  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    if (isRecordSchemaUri(uri)) throw vscode.FileSystemError.NoPermissions('The record schema is made from the tenant’s field definitions; it cannot be saved.');
    const address = this.address(uri);
    const state = this.state(uri);
    const edits = this.client(address).recordEdits;
    // A save right after a save computes against what the first one made.
    await state.reread;
    const text = decoder.decode(content);
    const base = this.textBase(state, text) ?? (await this.latest(uri, address));
    const title = base.opened.document.title || address.recordId;
    const model = await edits.tenantModel();
    const problems = this.problemsOf(text, base.opened.document, model);
    if (hasErrors(problems)) {
      const errors = problems.filter((p) => p.severity === 'error');
      // "line 20", not formatProblem's `20:24:` (a compiler's place, which reads like a time in a notification).
      const shown = errors.slice(0, 3).map((p) => `${p.message.replace(/\.$/, '')}${p.line !== undefined ? ` (line ${p.line})` : ''}`).join(' · ');
      const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : '';
      this.refused(`“${title}” was not saved: ${shown}${more}. Fix ${errors.length === 1 ? 'it' : 'them'} and save again; nothing was sent.`, ['Show Problems']);
      throw vscode.FileSystemError.Unavailable(`Not saved: ${errors.length === 1 ? 'a problem' : `${errors.length} problems`} in the record`);
    }
    const after = parseDocument(text).doc!;
    // VS Code compared mtimes just before calling this; a change made between its stat and now is caught here.
    const now = await edits.modifiedOn(address.recordId).catch((err: unknown) => {
      if ((err as { status?: unknown } | null)?.status === 404) this.deletedOnSave(uri, state, address.recordId, title);
      return this.fail(uri, err);
    });
    // The version the update is computed against: the one the edit started from, or, after a conflict, the newer one
    // VS Code showed and the user chose to overwrite. Then the tenant ends up holding exactly the text.
    const against = state.versions.against(now);
    if (!against) {
      state.versions.forgetTenant();
      this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
      this.refused(`“${title}” was not saved: it changed on the tenant a moment ago (modified ${now ?? 'just now'}). Nothing was sent; save again to compare or overwrite.`);
      throw vscode.FileSystemError.Unavailable('Not saved: the record changed on the tenant');
    }
    const changes = diffDocuments(against.opened.document, after, model.definitions);
    changes.baseModifiedOn = against.opened.modifiedOn;
    if (!isEmptyChangeSet(changes)) {
      try {
        await edits.apply(changes);
      } catch (err) {
        const reason = this.log.scrub(inWords(err));
        this.log.warn(`Saving record ${address.recordId}: ${this.log.scrub(err instanceof Error ? err.message : String(err))}`);
        this.refused(`“${title}” was not saved: ${reason}`);
        throw vscode.FileSystemError.Unavailable('Not saved: the tenant refused the change');
      }
      this.log.info(`Saved record ${address.recordId}: ${changes.fields.length} field value(s)${changes.status ? ', status' : ''}${changes.title ? ', title' : ''}${changes.addClassifications.length + changes.removeClassifications.length ? ', classifications' : ''}`);
    }
    // The editor shows the save done now: VS Code's stat after this write is answered with what was written.
    state.versions.written(against, text, content.byteLength);
    // The tenant's version after the update is read off the editor's critical path; the editor reloads it once VS Code
    // has finished the save (see the constructor). Until then its text is what it saved, based on the new version with
    // the read-only section it shows.
    state.reread = this.reread(uri, state, address, changes, after, text, content.byteLength);
  }

  private async reread(uri: vscode.Uri, state: DocState, address: RecordDocAddress, changes: ChangeSet, after: RecordDocument, text: string, size: number): Promise<void> {
    try {
      const fresh = await this.client(address).recordEdits.open(address.recordId);
      const savedAt = served({ ...fresh, document: { ...fresh.document, readOnly: after.readOnly }, text }, size);
      const reload = state.versions.reread(state.versions.distinct(served(fresh)), savedAt);
      this.saved.fire({ uri, recordId: address.recordId, changes, sent: !isEmptyChangeSet(changes), document: fresh.document, modifiedOn: fresh.modifiedOn });
      if (reload) this.reload(uri, state);
    } catch (err) {
      state.versions.rereadFailed();
      this.log.warn(`Reading record ${address.recordId} after its save: ${this.log.scrub(err instanceof Error ? err.message : String(err))}`);
      if ((err as { status?: unknown } | null)?.status === 404) this.gone(uri, address.recordId);
    } finally {
      state.reread = undefined;
    }
  }

  /** A clean editor reads the version just read (a dirty one keeps its text; its next save compares). */
  private reload(uri: vscode.Uri, state: DocState): void {
    if (isDirty(uri)) return;
    state.versions.reloadStarted();
    this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  /** Problems of a record document's text against the version it was read from (syntax, definitions, read-only parts). */
  problemsOf(text: string, before: RecordDocument, model: TenantModel): Problem[] {
    const parsed = parseDocument(text);
    if (!parsed.doc) return parsed.problems;
    return [...parsed.problems, ...validateDocument(parsed.doc, model.definitions, { languages: model.languages, before })];
  }

  /** The tenant model of the active connection (definitions and languages), read once per connection. */
  tenantModel(): Promise<TenantModel> {
    return this.client().recordEdits.tenantModel();
  }

  /** The record as the tenant holds it; one read moments ago is reused unless `modifiedOn` (known newer) says it is stale. */
  private async latest(uri: vscode.Uri, address: RecordDocAddress, modifiedOn?: string | null): Promise<Served> {
    const state = this.state(uri);
    // A save's re-read on its way is the latest version.
    await state.reread;
    const { versions } = state;
    const recent = versions.tenant && Date.now() - versions.tenant.readAt < FRESH_MS ? versions.tenant : undefined;
    if (recent && (modifiedOn === undefined || recent.modifiedOn === modifiedOn)) return recent;
    const opened = await this.client(address).recordEdits.open(address.recordId).catch((err: unknown) => this.fail(uri, err, address.recordId));
    versions.read(versions.distinct(served(opened)));
    return versions.tenant!;
  }

  /** Shows why a save was refused, in the extension's words (VS Code's own notice of the failed write stays short). */
  private refused(message: string, actions: string[] = []): void {
    void vscode.window.showErrorMessage(message, ...actions).then((choice) => {
      if (choice === 'Show Problems') void vscode.commands.executeCommand('workbench.actions.view.problems');
    });
  }

  /** A save of a record deleted on the tenant: said so, with what the user can do with the text they hold. */
  private deletedOnSave(uri: vscode.Uri, state: DocState, recordId: string, title: string): never {
    state.versions.forgetTenant();
    this.gone(uri, recordId);
    const saveAs = 'Save As…';
    const close = 'Close Without Saving';
    void vscode.window
      .showErrorMessage(`“${title}” was deleted on the tenant, so it cannot be saved there; nothing was sent. Keep your text in a local file with Save As…, or close it.`, saveAs, close)
      .then(async (choice) => {
        if (!choice) return;
        const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
        if (!doc) return;
        await vscode.window.showTextDocument(doc);
        await vscode.commands.executeCommand(choice === saveAs ? 'workbench.action.files.saveAs' : 'workbench.action.revertAndCloseActiveEditor');
      });
    throw vscode.FileSystemError.Unavailable('Not saved: the record was deleted on the tenant');
  }

  private async schemaBytes(): Promise<Uint8Array> {
    const client = this.connections.session?.client;
    // Without a connection, a schema that accepts anything: the editor still opens and nothing is flagged wrongly.
    if (!client) return encoder.encode('{}\n');
    try {
      const model = await client.recordEdits.tenantModel();
      return encoder.encode(`${JSON.stringify({ title: 'DAM record', ...documentJsonSchema(model.definitions, model.languages) }, null, 2)}\n`);
    } catch (err) {
      this.log.warn(`Record schema: ${this.log.scrub(err instanceof Error ? err.message : String(err))}`);
      return encoder.encode('{}\n');
    }
  }

  private state(uri: vscode.Uri): DocState {
    const key = uri.toString();
    let state = this.states.get(key);
    if (!state) this.states.set(key, (state = { versions: new RecordVersionModel<Served>() }));
    return state;
  }

  /** The record is not on the tenant (any more): the tab shows the file deleted, and the tree drops its rows. */
  private gone(uri: vscode.Uri, recordId: string): void {
    this.emitter.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
    this.deleted.fire(recordId);
  }

  /** Forgets what was served for a closed document. */
  forget(uri: vscode.Uri): void {
    this.states.delete(uri.toString());
  }

  private address(uri: vscode.Uri): RecordDocAddress {
    const address = recordDocAddress(uri);
    if (!address) throw vscode.FileSystemError.FileNotFound(uri);
    return address;
  }

  private client(address?: RecordDocAddress): DamClient {
    const session = this.connections.session;
    if (!session) throw vscode.FileSystemError.Unavailable('Not connected to a DAM service: start the local emulator or connect to the tenant this record is on.');
    if (address && session.profile.id !== address.connectionId) {
      throw vscode.FileSystemError.Unavailable(`This record is on the connection “${address.connectionId}”, and the active connection is “${session.profile.name}”: switch to it (DAM: Switch Connection…) to read or save it.`);
    }
    return session.client;
  }

  private fail(uri: vscode.Uri, err: unknown, recordId?: string): never {
    if (err instanceof vscode.FileSystemError) throw err;
    if ((err as { status?: unknown } | null)?.status === 404) {
      if (recordId) this.deleted.fire(recordId);
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    throw vscode.FileSystemError.Unavailable(this.log.scrub(inWords(err)));
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
    this.emitter.dispose();
    this.saved.dispose();
    this.deleted.dispose();
  }
}

function served(opened: OpenedRecord, size?: number): Served {
  const mtime = opened.modifiedOn ? Date.parse(opened.modifiedOn) || 0 : 0;
  const bytes = encoder.encode(opened.text);
  return { opened, modifiedOn: opened.modifiedOn, text: opened.text, bytes, mtime, size: size ?? bytes.byteLength, readAt: Date.now() };
}

/** Whether the extension host sees an editor of `uri` with unsaved edits. */
function isDirty(uri: vscode.Uri): boolean {
  return vscode.workspace.textDocuments.some((d) => d.isDirty && d.uri.toString() === uri.toString());
}

function fileStat(s: FileVersion): vscode.FileStat {
  return { type: vscode.FileType.File, ctime: s.mtime, mtime: s.mtime, size: s.size };
}
