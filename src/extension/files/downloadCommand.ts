// "DAM: Download File Version…": saves a version's bytes where the user picks (streamed to disk through a
// temporary name by the client, under a cancellable progress notification), remembers that the local file is
// a copy of that version (so its findings show as diagnostics), and opens text and Markdown copies.
import { homedir } from 'node:os';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections/connectionManager';
import type { FindingDiagnostics } from '../findings/findingDiagnostics';
import type { DamLog } from '../log';
import { formatBytes } from '../../api/uploadQueue';

/** What the command accepts when run programmatically; each field given skips its prompt. */
export interface DownloadArgs {
  versionId?: string;
  /** The newest version of this record's master file. */
  recordId?: string;
  /** Where to save (a path or a file URI); the save dialog otherwise. */
  target?: vscode.Uri | string;
  /** Open a text or Markdown copy in an editor (default true). */
  open?: boolean;
  /** Cancels as the notification's Cancel button does (tests). */
  token?: vscode.CancellationToken;
  /** Called with the bytes written so far (tests cancel half way through with it). */
  onProgress?: (bytes: number, total?: number) => void;
}

export interface DownloadOutcome {
  versionId: string;
  file: vscode.Uri;
  bytes: number;
  /** The editor's document when the copy was opened. */
  document?: vscode.TextDocument;
  /** Findings marked in the opened copy. */
  diagnostics: number;
}

/** Extensions of files VS Code shows as text; anything else is saved but not opened. */
const TEXT_EXTENSIONS = new Set(['txt', 'md', 'markdown', 'mdx', 'csv', 'tsv', 'json', 'xml', 'html', 'htm', 'yaml', 'yml', 'log', 'rst', 'adoc', 'tex', 'srt', 'vtt', 'svg']);

export function isTextFile(name: string, mimeType?: string | null): boolean {
  if (mimeType && /^text\//i.test(mimeType)) return true;
  const ext = name.toLowerCase().split('.').pop() ?? '';
  return name.includes('.') && TEXT_EXTENSIONS.has(ext);
}

/** A file name from the service made safe as a local one: no folders, no characters file systems refuse. */
export function safeFileName(name: string | null | undefined, fallback: string): string {
  const base = [...basename((name ?? '').replace(/\\/g, '/'))]
    .map((c) => (c.charCodeAt(0) < 0x20 || '<>:"/\\|?*'.includes(c) ? '_' : c))
    .join('')
    .trim();
  return base && base !== '.' && base !== '..' ? base : fallback;
}

export class DownloadCommand {
  constructor(
    private readonly connections: ConnectionManager,
    private readonly log: DamLog,
    /** The version from a tree node, a version/record id in arguments, the tree's selection, or a prompt. */
    private readonly versionOf: (source: unknown, title: string) => Promise<{ id: string; label: string } | undefined>,
    private readonly findings?: FindingDiagnostics,
  ) {}

  async run(first?: unknown): Promise<DownloadOutcome | undefined> {
    const client = this.connections.session?.client;
    if (!client) throw new Error('Not connected to a DAM tenant: run "DAM: Switch Connection" or "DAM: Start Local Emulator" first.');
    const args: DownloadArgs = isArgs(first) ? first : {};
    const picked = await this.versionOf(isArgs(first) ? (args.versionId ? { versionId: args.versionId } : args.recordId ? { recordId: args.recordId } : undefined) : first, 'DAM: download the version of');
    if (!picked) return undefined;
    const version = await client.files.getVersion(picked.id);
    const fileName = safeFileName(version.fileName, `version-${version.id}${version.extension ? `.${version.extension.replace(/^\./, '')}` : ''}`);

    let file: vscode.Uri | undefined = typeof args.target === 'string' ? vscode.Uri.file(args.target) : args.target;
    if (!file) {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(homedir());
      file = await vscode.window.showSaveDialog({ defaultUri: vscode.Uri.joinPath(folder, fileName), title: `DAM: save version ${picked.label}`, saveLabel: 'Download' });
      if (!file) return undefined;
    }
    if (file.scheme !== 'file') throw new Error('Versions are downloaded to local files only: pick a folder on this machine.');
    const path = file.fsPath;

    const size = version.fileSize ?? undefined;
    const { bytes } = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `DAM: downloading ${fileName}${size ? ` (${formatBytes(size)})` : ''}`, cancellable: true },
      async (progress, token) => {
        const abort = new AbortController();
        const subs = [token.onCancellationRequested(() => abort.abort()), ...(args.token ? [args.token.onCancellationRequested(() => abort.abort())] : [])];
        if (args.token?.isCancellationRequested) abort.abort();
        let reported = 0;
        try {
          // The client streams to a temporary name and renames at the end: a cancelled download leaves nothing at `path`.
          return await client.files.downloadToFile(version, path, {
            signal: abort.signal,
            onProgress: (sent, total) => {
              args.onProgress?.(sent, total);
              const all = total ?? size;
              if (!all) return;
              const percent = (sent / all) * 100;
              if (percent - reported < 1 && sent < all) return;
              progress.report({ increment: percent - reported, message: `${formatBytes(sent)} of ${formatBytes(all)}` });
              reported = percent;
            },
          });
        } catch (err) {
          // Cancelled: the client removed its temporary file; nothing to report as an error.
          if (abort.signal.aborted) throw new vscode.CancellationError();
          throw err;
        } finally {
          subs.forEach((s) => s.dispose());
        }
      },
    );
    await this.findings?.downloads?.remember(file, version.id, version.fileName ?? undefined);
    this.log.info(`Downloaded version ${version.id} (${formatBytes(bytes)}) to ${path}`);

    let document: vscode.TextDocument | undefined;
    let diagnostics = 0;
    if (args.open !== false && isTextFile(fileName, version.mimeType)) {
      document = await vscode.workspace.openTextDocument(file);
      await vscode.window.showTextDocument(document, { preview: false });
      // Opening fires a refresh too; this one is awaited so the caller sees the findings in place.
      diagnostics = (await this.findings?.refresh(document)) ?? 0;
    } else {
      vscode.window.setStatusBarMessage(`DAM: saved ${fileName} (${formatBytes(bytes)})`, 5000);
    }
    return { versionId: version.id, file, bytes, document, diagnostics };
  }
}

function isArgs(value: unknown): value is DownloadArgs {
  if (typeof value !== 'object' || value === null || value instanceof vscode.Uri) return false;
  // A tree node carries `kind`; the programmatic arguments never do.
  return typeof (value as { kind?: unknown }).kind !== 'string';
}
