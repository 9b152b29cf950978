// The Upload command's VS Code side: where the files and the destination come from (palette, Explorer menu,
// DAM tree menu, or arguments when run programmatically), the short quick-pick flow, one cancellable
// progress notification for the batch, "Retry failed", and refreshing the tree. The sending itself is
// UploadQueue (src/api, no vscode), which drag and drop and `dam upload` use too.
import { retryable } from './retry';
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import type { DamClient } from '../../api/client';
import type { FieldInput } from '../../api/files';
import type { FieldDefinition } from '../../api/schemas';
import { fieldKindWords } from '../../core/records';
import { explorerNodeArg } from '../commandArgs';
import { Commands } from '../commandIds';
import type { ConnectionManager } from '../connections/connectionManager';
import type { ExplorerProvider } from '../explorer/explorerProvider';
import { classificationLabel, recordLabel, type ExplorerNode } from '../explorer/nodes';
import type { DamLog } from '../log';
import { defaultOf, fieldLabel, optionsOf, toFieldInput, validateFieldText, widgetOf } from './fieldValues';
import { defaultTitle, formatBytes, UploadQueue, type BatchResult, type BatchSnapshot, type RecordStatus, type UploadItem, type UploadTarget } from '../../api/uploadQueue';
import { count } from '../plural';
import { pickRecord } from '../explorer/recordPicker';

/** What the command accepts when run programmatically; every field given skips its prompt. */
export interface UploadArgs {
  classificationId?: string;
  recordId?: string;
  files?: (vscode.Uri | string)[];
  /** Title of the new record (one file only; several files take their names). */
  title?: string;
  status?: RecordStatus;
  /** Field values of the new record(s): field id (or name) and `value` or `values`, as the client sends them. */
  fields?: FieldInput[];
  /** Cancels the upload as the notification's Cancel button does (tests). */
  token?: vscode.CancellationToken;
  /** Called on every change of the batch (tests cancel half way through with it). */
  onProgress?: (snapshot: BatchSnapshot) => void;
}

export interface UploadDestination {
  /** A classification or a record picked in VS Code (several classifications are the CLI's). */
  target: Exclude<UploadTarget, { kind: 'records' }>;
  label: string;
}

const MAX_FILES = 10_000;

export class UploadCommand {
  constructor(
    private readonly connections: ConnectionManager,
    private readonly provider: ExplorerProvider,
    private readonly log: DamLog,
  ) {}

  private client(): DamClient {
    const client = this.connections.session?.client;
    if (!client) throw new Error('Not connected to a DAM tenant: run "DAM: Switch Connection" or "DAM: Start Local Emulator" first.');
    return client;
  }

  /** Entry point for every way the command is invoked. */
  async run(first?: unknown, second?: unknown): Promise<BatchResult | undefined> {
    const client = this.client();
    let args: UploadArgs = {};
    let uris: vscode.Uri[] = [];
    const node = explorerNodeArg(first);
    if (first instanceof vscode.Uri) {
      // Explorer context menu: the clicked resource and the whole selection.
      uris = Array.isArray(second) && second.every((u) => u instanceof vscode.Uri) && second.length ? (second as vscode.Uri[]) : [first];
    } else if (node) {
      const dest = this.destinationOf(node);
      if (dest?.target.kind === 'classification') args.classificationId = dest.target.classificationId;
      else if (dest?.target.kind === 'record') args.recordId = dest.target.recordId;
    } else if (first && typeof first === 'object') {
      args = first as UploadArgs;
      uris = (args.files ?? []).map((f) => (typeof f === 'string' ? vscode.Uri.file(f) : f));
    }
    const interactive = !(first && typeof first === 'object' && !node && !(first instanceof vscode.Uri));

    if (uris.length === 0) {
      const picked = await vscode.window.showOpenDialog({ canSelectMany: true, canSelectFiles: true, canSelectFolders: true, openLabel: 'Upload to DAM', title: 'DAM: files or folders to upload' });
      if (!picked?.length) return undefined;
      uris = picked;
    }
    const items = await collectFiles(uris.filter((u) => u.scheme === 'file').map((u) => u.fsPath));
    if (items.length === 0) throw new Error('Nothing to upload: the selection has no files (only local files can be uploaded).');

    const dest = await this.askDestination(client, args);
    if (!dest) return undefined;
    if (dest.target.kind === 'classification') {
      const options = await this.askRecordOptions(client, items, dest, args, interactive);
      if (!options) return undefined;
      if (options.status) dest.target = { ...dest.target, status: options.status };
      if (options.fields?.length) dest.target = { ...dest.target, fields: options.fields };
      if (options.title && items.length === 1) items[0].title = options.title;
    }
    const batch = new UploadQueue(client, dest.target, items);
    return this.runBatch(batch, dest, args);
  }

  /** Runs (or re-runs, for "Retry failed") a batch under one cancellable notification. */
  async runBatch(batch: UploadQueue, dest: UploadDestination, args: Pick<UploadArgs, 'token' | 'onProgress'> = {}): Promise<BatchResult> {
    const files = batch.remaining.length;
    const title = dest.target.kind === 'classification' ? `DAM: uploading ${count(files, 'file')} to ${dest.label}` : `DAM: new version${files === 1 ? '' : 's'} of ${dest.label}`;
    const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
      const abort = new AbortController();
      const subs = [token.onCancellationRequested(() => abort.abort()), ...(args.token ? [args.token.onCancellationRequested(() => abort.abort())] : [])];
      if (args.token?.isCancellationRequested) abort.abort();
      let reported = 0;
      let lastReport = 0;
      try {
        return await batch.run(abort.signal, (s) => {
          args.onProgress?.(s);
          const now = performance.now();
          const percent = s.bytesTotal ? (s.bytesSent / s.bytesTotal) * 100 : 0;
          // The notification redraws on every report: a few a second is plenty.
          if (now - lastReport < 150 && s.done + s.failed < s.files) return;
          lastReport = now;
          progress.report({ message: progressLine(s), increment: Math.max(0, percent - reported) });
          reported = Math.max(reported, percent);
        });
      } finally {
        subs.forEach((d) => d.dispose());
      }
    });
    this.afterUpload(dest, result);
    const { failed } = result;
    if (failed.length) {
      const detail = failed.slice(0, 5).map((f) => `${f.file}: ${this.log.scrub(f.reason)}`).join('; ');
      for (const f of failed) this.log.warn(`Upload of ${f.file} failed: ${this.log.scrub(f.reason)}`);
      // Not awaited: a programmatic caller gets the result while the message waits for the user.
      // Retry only when a second try could help: a name with a forbidden character fails the same way every time.
      const buttons = retryable(failed).length ? ['Retry failed', 'Show Log'] : ['Show Log'];
      void vscode.window
        .showErrorMessage(`DAM: ${failed.length} of ${count(batch.statuses.length, 'file')} failed — ${detail}${failed.length > 5 ? '; …' : ''}`, ...buttons)
        .then((choice) => {
          if (choice === 'Retry failed') void this.runBatch(batch, dest).catch((err: unknown) => this.log.error(`Retry: ${String(err)}`));
          else if (choice === 'Show Log') this.log.show();
        });
    } else if (result.cancelled) {
      void vscode.window.showInformationMessage(`DAM: upload cancelled; ${result.recordIds.length} of ${count(batch.statuses.length, 'file')} had arrived, nothing half-made was kept.`);
    } else {
      const seconds = result.ms / 1000;
      vscode.window.setStatusBarMessage(`DAM: uploaded ${count(batch.statuses.length, 'file')}, ${formatBytes(result.bytes)} in ${seconds.toFixed(1)} s`, 5000);
    }
    return result;
  }

  /** Redraws the classification (or record) that received the files and reveals it when it is in the tree. */
  private afterUpload(dest: UploadDestination, result: BatchResult): void {
    if (result.recordIds.length === 0) return;
    if (dest.target.kind === 'record') {
      this.provider.refreshRecord(dest.target.recordId);
      return;
    }
    const node = this.provider.nodeOf(`cls:${dest.target.classificationId}`);
    if (node) this.provider.refresh(node);
    // Show where the first new record landed, selected in its classification (opened if it never was).
    void vscode.commands.executeCommand(Commands.explorerRevealRecord, result.recordIds[0], { focus: false }).then(undefined, (err: unknown) => this.log.warn(`Reveal after upload: ${String(err)}`));
  }

  private destinationOf(node: ExplorerNode): UploadDestination | undefined {
    let n: ExplorerNode | undefined = node;
    while (n && n.kind !== 'classification' && n.kind !== 'record') n = this.provider.getParent(n);
    if (n?.kind === 'classification') return { target: { kind: 'classification', classificationId: n.id }, label: classificationLabel(n.classification) };
    if (n?.kind === 'record') return { target: { kind: 'record', recordId: n.id }, label: recordLabel(n.record) };
    if (node.kind === 'file' || node.kind === 'version') return { target: { kind: 'record', recordId: node.recordId }, label: node.recordId };
    return undefined;
  }

  private async askDestination(client: DamClient, args: UploadArgs): Promise<UploadDestination | undefined> {
    if (args.recordId) return { target: { kind: 'record', recordId: args.recordId }, label: `record ${args.recordId}` };
    if (args.classificationId) {
      const node = this.provider.nodeOf(`cls:${args.classificationId}`);
      const label = node?.kind === 'classification' ? classificationLabel(node.classification) : `classification ${args.classificationId}`;
      return { target: { kind: 'classification', classificationId: args.classificationId }, label };
    }
    const how = await vscode.window.showQuickPick(
      [
        { label: '$(new-file) New records', description: 'one record per file, in a classification', to: 'classification' as const },
        { label: '$(versions) New version of a record', description: "each file becomes the newest version of the record's master file", to: 'record' as const },
      ],
      { title: 'DAM: upload as', ignoreFocusOut: true },
    );
    if (!how) return undefined;
    if (how.to === 'record') {
      // By words of its title, as the record is known; an id pasted in is taken too.
      const picked = await pickRecord(client, { title: 'DAM: record to add a version to' });
      if (!picked) return undefined;
      return { target: { kind: 'record', recordId: picked.id }, label: `“${picked.title}”` };
    }
    const items: Promise<(vscode.QuickPickItem & { id: string })[]> = client.classifications
        .list({ pageSize: 500 })
        // Names only: the path says where a classification is; its id is no help in choosing one.
        .then((page) => page.items.map((c) => ({ label: classificationLabel(c), description: parentPath(c.labelPath || c.namePath), id: c.id })));
    const pick = await vscode.window.showQuickPick(items, { title: 'DAM: classification of the new records', placeHolder: 'Type to filter classifications', matchOnDescription: true, ignoreFocusOut: true },
    );
    return pick ? { target: { kind: 'classification', classificationId: pick.id }, label: pick.label } : undefined;
  }

  /** Title, status and field values, with defaults that one Enter accepts. Undefined when the user escaped. */
  private async askRecordOptions(
    client: DamClient,
    items: UploadItem[],
    dest: UploadDestination,
    args: UploadArgs,
    interactive: boolean,
  ): Promise<{ title?: string; status?: RecordStatus; fields?: FieldInput[] } | undefined> {
    if (!interactive || args.title !== undefined || args.status !== undefined || args.fields !== undefined) return { title: args.title, status: args.status, fields: args.fields };
    const defaults = `${items.length === 1 ? `title "${defaultTitle(items[0].name)}"` : 'titles from the file names'}, status Draft`;
    const choice = await vscode.window.showQuickPick(
      [
        { label: '$(cloud-upload) Upload', description: defaults, edit: false },
        { label: '$(edit) Set title, status and field values first…', edit: true },
      ],
      { title: `DAM: ${count(items.length, 'file')} (${formatBytes(items.reduce((n, i) => n + i.size, 0))}) to ${dest.label}`, ignoreFocusOut: true },
    );
    if (!choice) return undefined;
    if (!choice.edit) return {};
    let title: string | undefined;
    if (items.length === 1) {
      title = await vscode.window.showInputBox({ title: 'DAM: title of the new record', value: defaultTitle(items[0].name), ignoreFocusOut: true, validateInput: (v) => (v.trim() ? undefined : 'A record needs a title') });
      if (title === undefined) return undefined;
    }
    const status = await vscode.window.showQuickPick(
      (['Draft', 'Released', 'Archived'] as const).map((s) => ({ label: s, picked: s === 'Draft' })),
      { title: `DAM: status of the new ${items.length === 1 ? 'record' : 'records'}`, placeHolder: 'Draft unless chosen otherwise', ignoreFocusOut: true },
    );
    if (!status) return undefined;
    const fields = await this.askFields(client, items.length);
    if (!fields) return undefined;
    return { title: title?.trim(), status: status.label, fields };
  }

  /**
   * Which fields to fill (none picked skips the step), then each one's value with the prompt of its data type.
   * Undefined when the user escaped any prompt: the whole upload is then cancelled before a byte is sent.
   */
  private async askFields(client: DamClient, count: number): Promise<FieldInput[] | undefined> {
    const definitions: Promise<(vscode.QuickPickItem & { def: FieldDefinition })[]> = client.fieldDefinitions.list({ pageSize: 500 }).then((page) =>
      page.items
        .filter((def) => widgetOf(def))
        .map((def) => {
          const d = defaultOf(def);
          const options = widgetOf(def) === 'options' ? optionsOf(def) : undefined;
          const shown = options ? d.optionIds.map((id) => options.find((o) => o.id === id)?.label ?? id).join(', ') : d.text;
          return { label: fieldLabel(def), description: fieldKindWords({ dataType: def.dataType ?? '', options: optionsOf(def) }), detail: d.text ? `default: ${shown}` : undefined, def };
        }),
    );
    const picked = await vscode.window.showQuickPick(definitions, {
      title: `DAM: field values of the new record${count === 1 ? '' : 's'}`,
      placeHolder: 'Tick the fields to fill, or press Enter with none ticked to skip',
      canPickMany: true,
      matchOnDescription: true,
      ignoreFocusOut: true,
    });
    if (!picked) return undefined;
    const out: FieldInput[] = [];
    for (const { def } of picked) {
      const answer = await this.askFieldValue(def);
      if (answer === undefined) return undefined;
      const input = toFieldInput(def, answer);
      if (input) out.push(input);
    }
    return out;
  }

  /** One field's value: options from its list, other types typed and checked as the user types. */
  private async askFieldValue(def: FieldDefinition): Promise<string | string[] | undefined> {
    const widget = widgetOf(def)!;
    const name = fieldLabel(def);
    const preset = defaultOf(def);
    if (widget === 'options') {
      const options = optionsOf(def);
      if (!options.length) throw new Error(`The field '${name}' has no options to pick from: add them in the tenant, or leave the field out.`);
      const picked = await vscode.window.showQuickPick(
        options.map((o) => ({ label: o.label, description: o.name !== o.label ? o.name : undefined, picked: preset.optionIds.includes(o.id), id: o.id })),
        { title: `DAM: ${name}`, placeHolder: 'Tick the options that apply', canPickMany: true, ignoreFocusOut: true },
      );
      return picked?.map((p) => p.id);
    }
    const hint = { text: 'Text', list: 'Values separated by commas', number: 'A number', date: 'An ISO date, YYYY-MM-DD', datetime: 'An ISO date and time, YYYY-MM-DDThh:mm:ssZ' }[widget];
    return vscode.window.showInputBox({
      title: `DAM: ${name}`,
      prompt: `${hint} (empty leaves the field unset)`,
      value: preset.text,
      ignoreFocusOut: true,
      validateInput: (v) => validateFieldText(widget, v),
    });
  }
}

function progressLine(s: BatchSnapshot): string {
  const current = s.active
    .slice(0, 2)
    .map((a) => `${a.item.name} ${a.state === 'creating' ? 'creating record' : `${a.item.size ? Math.floor((a.sent / a.item.size) * 100) : 100}%`}`)
    .join(', ');
  const rate = s.bytesPerSecond > 0 ? ` · ${formatBytes(s.bytesPerSecond)}/s` : '';
  const failed = s.failed ? ` · ${s.failed} failed` : '';
  return `${s.done} of ${s.files} done${failed}${current ? ` · ${current}` : ''}${rate}`;
}


/** Files of the selection, folders walked (hidden entries and links skipped), in a stable order. */
export async function collectFiles(paths: string[]): Promise<UploadItem[]> {
  const out: UploadItem[] = [];
  const walk = async (path: string): Promise<void> => {
    if (out.length >= MAX_FILES) throw new Error(`More than ${MAX_FILES.toLocaleString()} files selected: upload a smaller folder.`);
    const info = await stat(path);
    if (info.isFile()) {
      out.push({ path, name: basename(path), size: info.size });
      return;
    }
    if (!info.isDirectory()) return;
    const entries = (await readdir(path, { withFileTypes: true })).filter((e) => !e.name.startsWith('.') && !e.isSymbolicLink()).sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) await walk(join(path, e.name));
  };
  for (const p of paths) await walk(p);
  return out;
}

/** The part of a classification path above its last name (`/Products/Outdoor/Tents` → `Products / Outdoor`). */
function parentPath(path: string | null | undefined): string | undefined {
  const parts = (path ?? '').split('/').map((p) => p.trim()).filter(Boolean);
  return parts.length > 1 ? parts.slice(0, -1).join(' / ') : undefined;
}
