// Drag files from VS Code's Explorer (or the OS) onto the DAM Explorer: onto a classification each file
// becomes a new record there; onto a record (or one of its files or versions) it becomes a new version of
// the record's master file. Uploads run under a cancellable progress notification. Records dragged within the
// tree onto a classification are handed to `onRecordDrop` (src/extension/records: add or move).
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections/connectionManager';
import type { DamLog } from '../log';
import type { ExplorerProvider } from './explorerProvider';
import type { ExplorerNode } from './nodes';
import { UploadQueue } from '../../api/uploadQueue';
import { count } from '../plural';

const URI_LIST = 'text/uri-list';
/** VS Code's own mime type for items dragged within this tree (`application/vnd.code.tree.<view id>`). */
export const RECORD_ROWS_MIME = 'application/vnd.code.tree.dam.explorer';

type RecordNode = Extract<ExplorerNode, { kind: 'record' }>;
type ClassificationNode = Extract<ExplorerNode, { kind: 'classification' }>;

/** Handles record rows dropped on a classification (set by the records feature). */
export type RecordDropHandler = (records: RecordNode[], target: ClassificationNode, token: vscode.CancellationToken) => Promise<void>;

export interface DropOutcome {
  /** Ids of the records created (drop on a classification) or given a new version (drop on a record). */
  recordIds: string[];
  /** Files not uploaded, with the reason. */
  failed: { file: string; reason: string }[];
  cancelled: boolean;
}

export class ExplorerDragAndDrop implements vscode.TreeDragAndDropController<ExplorerNode> {
  readonly dropMimeTypes = [URI_LIST, RECORD_ROWS_MIME];
  readonly dragMimeTypes = [RECORD_ROWS_MIME, URI_LIST];
  /** What a record row dropped on a classification does; without it such a drop does nothing. */
  onRecordDrop: RecordDropHandler | undefined;
  /** The `dam:` address a dragged record row carries to the editor area (it opens there as a document). */
  recordDocumentUri: ((record: RecordNode) => vscode.Uri | undefined) | undefined;

  constructor(
    private readonly connections: ConnectionManager,
    private readonly provider: ExplorerProvider,
    private readonly log: DamLog,
  ) {}

  /** What the last drop did (tests, and the status after a drop). */
  lastDrop: DropOutcome | undefined;

  handleDrag(source: readonly ExplorerNode[], dataTransfer: vscode.DataTransfer): void {
    const records = source.filter((n): n is RecordNode => n.kind === 'record');
    if (records.length === 0) return;
    dataTransfer.set(RECORD_ROWS_MIME, new vscode.DataTransferItem(records));
    const uris = records.map((r) => this.recordDocumentUri?.(r)).filter((u): u is vscode.Uri => u !== undefined);
    if (uris.length) dataTransfer.set(URI_LIST, new vscode.DataTransferItem(uris.map((u) => u.toString()).join('\r\n')));
  }

  async handleDrop(target: ExplorerNode | undefined, dataTransfer: vscode.DataTransfer, token: vscode.CancellationToken): Promise<void> {
    const rows = dataTransfer.get(RECORD_ROWS_MIME)?.value as unknown;
    if (Array.isArray(rows)) {
      const records = rows.filter((n): n is RecordNode => (n as ExplorerNode | null)?.kind === 'record');
      if (records.length && target?.kind === 'classification' && this.onRecordDrop) await this.onRecordDrop(records, target, token);
      return;
    }
    this.lastDrop = await this.drop(target, dataTransfer, token);
  }

  async drop(target: ExplorerNode | undefined, dataTransfer: vscode.DataTransfer, token: vscode.CancellationToken): Promise<DropOutcome | undefined> {
    const client = this.connections.session?.client;
    const dest = this.destination(target);
    if (!client || !dest) return undefined;
    const list = await dataTransfer.get(URI_LIST)?.asString();
    const uris = parseUriList(list ?? '').filter((u) => u.scheme === 'file');
    if (uris.length === 0 || token.isCancellationRequested) return undefined;
    const files = dest.kind === 'record' ? uris.slice(0, 1) : uris;
    if (dest.kind === 'record' && uris.length > 1) void vscode.window.showWarningMessage('A record takes one new version at a time: only the first file was uploaded.');

    const outcome: DropOutcome = { recordIds: [], failed: [], cancelled: false };
    // The same sender as the Upload command: streamed from disk by the client (segmented when large), files in
    // parallel, an arrived upload discarded on cancel.
    const items = await Promise.all(files.map(async (uri) => ({ path: uri.fsPath, name: basename(uri.fsPath), size: (await vscode.workspace.fs.stat(uri)).size })));
    const batch = new UploadQueue(client, dest.kind === 'classification' ? { kind: 'classification', classificationId: dest.id } : { kind: 'record', recordId: dest.id }, items);
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: dest.kind === 'classification' ? `DAM: uploading ${files.length} file${files.length === 1 ? '' : 's'} to ${dest.label}` : `DAM: new version of ${dest.label}`,
        cancellable: true,
      },
      async (progress, progressToken) => {
        const abort = new AbortController();
        const subs = [token.onCancellationRequested(() => abort.abort()), progressToken.onCancellationRequested(() => abort.abort())];
        let reported = 0;
        let lastReport = 0;
        try {
          const result = await batch.run(abort.signal, (s) => {
            const percent = s.bytesTotal ? (s.bytesSent / s.bytesTotal) * 100 : 0;
            // Bytes are reported about every MiB; the notification redraws on each report, so a few a second.
            const now = performance.now();
            if (now - lastReport < 150 && s.done + s.failed < s.files) return;
            lastReport = now;
            progress.report({ message: `${s.done} of ${s.files}${s.active[0] ? `: ${s.active[0].item.name}` : ''}`, increment: Math.max(0, percent - reported) });
            reported = Math.max(reported, percent);
          });
          outcome.recordIds = result.recordIds;
          outcome.failed = result.failed.map((f) => ({ file: f.file, reason: this.log.scrub(f.reason) }));
          outcome.cancelled = result.cancelled;
          for (const f of outcome.failed) this.log.warn(`Upload of ${f.file} failed: ${f.reason}`);
        } finally {
          subs.forEach((s) => s.dispose());
        }
      },
    );

    if (dest.kind === 'classification') this.provider.refresh(dest.node);
    else this.provider.refreshRecord(dest.id);
    if (outcome.failed.length) {
      void vscode.window.showErrorMessage(`DAM: ${outcome.failed.length} of ${count(files.length, 'upload')} failed: ${outcome.failed.map((f) => `${f.file} (${f.reason})`).join('; ')}`);
    } else if (outcome.cancelled) {
      void vscode.window.showInformationMessage(`DAM: upload cancelled after ${outcome.recordIds.length} of ${count(files.length, 'file')}.`);
    }
    return outcome;
  }

  /** Where a drop on `target` goes: a classification, or the record a file/version row belongs to. */
  private destination(target: ExplorerNode | undefined): { kind: 'classification' | 'record'; id: string; label: string; node: ExplorerNode } | undefined {
    let node: ExplorerNode | undefined = target;
    while (node && node.kind !== 'classification' && node.kind !== 'record') node = this.provider.getParent(node);
    if (node?.kind === 'classification') return { kind: 'classification', id: node.id, label: node.classification.name ?? node.id, node };
    if (node?.kind === 'record') return { kind: 'record', id: node.id, label: node.record.title ?? node.id, node };
    return undefined;
  }
}

/** `text/uri-list` per RFC 2483: one URI a line, `#` lines are comments. */
export function parseUriList(text: string): vscode.Uri[] {
  const out: vscode.Uri[] = [];
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    try {
      out.push(vscode.Uri.parse(trimmed, true));
    } catch {
      // not a URI: ignored, as a browser would
    }
  }
  return out;
}
