// Record documents in the `dam:` file system: a record opens as JSON (the core's document: fields by name,
// classifications by name path, a read-only section), and a save sends what changed as one update.
//
// Conflicts are VS Code's own: `stat` reports the record's `modifiedOn` as `mtime`, so when the record changed on the
// tenant after the editor read it, VS Code refuses the save itself ("the content of the file is newer") and offers
// Compare and Overwrite; `writeFile` is not called until the user chooses. VS Code counts a file as changed only when
// both its mtime and its size differ from what it read (its etag is made of the two), so a newer version is never
// reported with the size the editor read.
import * as vscode from 'vscode';
import type { DamClient } from '../../api/client';
import type { OpenedRecord, TenantModel } from '../../api/records';
import { diffDocuments, formatProblem, hasErrors, isEmptyChangeSet, parseDocument, validateDocument, documentJsonSchema, type ChangeSet, type Problem, type RecordDocument } from '../../core/records';
import type { ConnectionManager } from '../connections/connectionManager';
import type { DamFsPart } from '../explorer/damFs';
import type { DamLog } from '../log';
import { inWords } from '../errorWords';
import { RECORD_SCHEMA_URI, isRecordSchemaUri, recordDocAddress, recordDocUri, type RecordDocAddress } from './recordUris';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A version of a record as served to VS Code. */
interface Served {
  opened: OpenedRecord;
  bytes: Uint8Array;
  mtime: number;
  /** When it was read from the service. */
  readAt: number;
}

interface DocState {
  /** What the editor last read (its base: a save's change set is computed against it). */
  base?: Served;
  /** The newest version seen by `stat` (handed to the next `readFile` when read moments ago). */
  latest?: Served;
}

/** A stat followed at once by a read (VS Code does this on open and on compare) reads the record once. */
const FRESH_MS = 2_000;

/** What a save did (tests, and the status bar). */
export interface SaveOutcome {
  recordId: string;
  changes: ChangeSet;
  sent: boolean;
}

export class RecordDocuments implements DamFsPart, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  private readonly saved = new vscode.EventEmitter<SaveOutcome>();
  /** Fires after each save a record document's writeFile completed. */
  readonly onDidSave = this.saved.event;
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
    );
  }

  owns(uri: vscode.Uri): boolean {
    return isRecordSchemaUri(uri) || recordDocAddress(uri) !== undefined;
  }

  /** The document's URI for a record on the active connection. */
  uriOf(recordId: string, title: string | null | undefined): vscode.Uri {
    return recordDocUri(this.connections.requireSession().profile.id, recordId, title);
  }

  /** Reads a record for opening; what was read is served to the editor that opens it next. */
  async prepare(recordId: string): Promise<vscode.Uri> {
    const opened = await this.client().recordEdits.open(recordId);
    const uri = this.uriOf(opened.document.id, opened.document.title);
    this.state(uri).latest = served(opened);
    return uri;
  }

  /** The base document an open editor's text is compared with (diagnostics, tests). */
  baseOf(uri: vscode.Uri): RecordDocument | undefined {
    return this.states.get(uri.toString())?.base?.opened.document;
  }

  /** Tells VS Code a record changed on the tenant (a tree command wrote it): open documents of it notice. */
  recordChanged(recordId: string, type: vscode.FileChangeType = vscode.FileChangeType.Changed): void {
    const events: vscode.FileChangeEvent[] = [];
    for (const key of this.states.keys()) {
      const uri = vscode.Uri.parse(key);
      if (recordDocAddress(uri)?.recordId === recordId) {
        this.states.get(key)!.latest = undefined;
        events.push({ type, uri });
      }
    }
    if (events.length) this.emitter.fire(events);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    if (isRecordSchemaUri(uri)) {
      const bytes = await this.schemaBytes();
      return { type: vscode.FileType.File, ctime: this.schemaMtime, mtime: this.schemaMtime, size: bytes.byteLength, permissions: vscode.FilePermission.Readonly };
    }
    const address = this.address(uri);
    const state = this.state(uri);
    const base = state.base;
    let modifiedOn: string | null | undefined;
    if (base) {
      // One small read says whether the record changed since the editor read it.
      modifiedOn = await this.client().recordEdits.modifiedOn(address.recordId).catch((err: unknown) => this.fail(uri, err));
      if (modifiedOn === base.opened.modifiedOn) return fileStat(base);
    }
    // A version read moments ago is served only if it is the one the tenant holds now: an edit made within those
    // moments (another client's save) must show as newer, or VS Code saves over it.
    const latest = await this.latest(uri, address, modifiedOn);
    const stat = fileStat(latest);
    // Never the size the editor read for a newer version: VS Code would take the two as the same file.
    if (base && latest.mtime !== base.mtime && stat.size === base.bytes.byteLength) stat.size++;
    return stat;
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    if (isRecordSchemaUri(uri)) return this.schemaBytes();
    const latest = await this.latest(uri, this.address(uri));
    // A read while the editor holds unsaved edits is not the editor's own (VS Code reloads only a clean document; a
    // revert marks it clean first): it is the "in file" side of a conflict's Compare. The edits were made on the
    // version the editor read, which stays their base; else its older read-only section would count as an edit and
    // the user's Overwrite would be refused.
    const state = this.state(uri);
    const editing = vscode.workspace.textDocuments.some((d) => d.isDirty && d.uri.toString() === uri.toString());
    if (!(editing && state.base)) state.base = latest;
    return latest.bytes;
  }

  /**
   * Saves the editor's text: refused with the reason when the text has problems; otherwise what changed against the
   * version the editor read goes as one update, and the record is read again as the new base.
   */
  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    if (isRecordSchemaUri(uri)) throw vscode.FileSystemError.NoPermissions('The record schema is made from the tenant’s field definitions; it cannot be saved.');
    const address = this.address(uri);
    const state = this.state(uri);
    const base = state.base ?? (await this.latest(uri, address));
    const edits = this.client().recordEdits;
    const model = await edits.tenantModel();
    const text = decoder.decode(content);
    const problems = this.problemsOf(text, base.opened.document, model);
    if (hasErrors(problems)) {
      const errors = problems.filter((p) => p.severity === 'error');
      const shown = errors.slice(0, 3).map((p) => formatProblem(p).replace(/\.$/, '')).join(' · ');
      const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : '';
      throw vscode.FileSystemError.Unavailable(`Not saved: the record has ${errors.length === 1 ? 'a problem' : `${errors.length} problems`}: ${shown}${more}. Fix ${errors.length === 1 ? 'it' : 'them'} (see the Problems view) and save again; nothing was sent.`);
    }
    const after = parseDocument(text).doc!;
    const changes = diffDocuments(base.opened.document, after, model.definitions);
    changes.baseModifiedOn = base.opened.modifiedOn;
    if (!isEmptyChangeSet(changes)) {
      // VS Code compared mtimes just before calling this; a change made between its stat and now is caught here.
      // A version the user has already seen (stat reported it, they chose Overwrite) is overwritten.
      const now = await edits.modifiedOn(address.recordId).catch((err: unknown) => this.fail(uri, err));
      if (now !== base.opened.modifiedOn && now !== state.latest?.opened.modifiedOn) {
        state.latest = undefined;
        this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
        throw vscode.FileSystemError.Unavailable(`Not saved: the record changed on the tenant a moment ago (modified ${now ?? 'just now'}). Nothing was sent; save again to compare or overwrite.`);
      }
      try {
        await edits.apply(changes);
      } catch (err) {
        this.log.warn(`Saving record ${address.recordId}: ${this.log.scrub(err instanceof Error ? err.message : String(err))}`);
        throw vscode.FileSystemError.Unavailable(`Not saved: ${this.log.scrub(inWords(err))}`);
      }
      this.log.info(`Saved record ${address.recordId}: ${changes.fields.length} field value(s)${changes.status ? ', status' : ''}${changes.title ? ', title' : ''}${changes.addClassifications.length + changes.removeClassifications.length ? ', classifications' : ''}`);
    }
    // The new base is the record as the service now holds it (its new modifiedOn; VS Code stats it right after). The
    // editor keeps the text just saved, with the read-only section as it was read: that is what the next check and
    // save compare with, so the older dates there are not taken for an edit.
    const fresh = served(await edits.open(address.recordId));
    fresh.opened = { ...fresh.opened, document: { ...fresh.opened.document, readOnly: after.readOnly } };
    state.base = state.latest = fresh;
    this.saved.fire({ recordId: address.recordId, changes, sent: !isEmptyChangeSet(changes) });
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
    const recent = state.latest && Date.now() - state.latest.readAt < FRESH_MS ? state.latest : undefined;
    if (recent && (modifiedOn === undefined || recent.opened.modifiedOn === modifiedOn)) return recent;
    const opened = await this.client(address).recordEdits.open(address.recordId).catch((err: unknown) => this.fail(uri, err));
    state.latest = served(opened);
    return state.latest;
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
    if (!state) this.states.set(key, (state = {}));
    return state;
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

  private fail(uri: vscode.Uri, err: unknown): never {
    if (err instanceof vscode.FileSystemError) throw err;
    if ((err as { status?: unknown } | null)?.status === 404) throw vscode.FileSystemError.FileNotFound(uri);
    throw vscode.FileSystemError.Unavailable(this.log.scrub(inWords(err)));
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
    this.emitter.dispose();
    this.saved.dispose();
  }
}

function served(opened: OpenedRecord): Served {
  const mtime = opened.modifiedOn ? Date.parse(opened.modifiedOn) || 0 : 0;
  return { opened, bytes: encoder.encode(opened.text), mtime, readAt: Date.now() };
}

function fileStat(s: Served): vscode.FileStat {
  return { type: vscode.FileType.File, ctime: s.mtime, mtime: s.mtime, size: s.bytes.byteLength };
}
