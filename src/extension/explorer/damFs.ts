// The read-only `dam:` file system: a version's file, a rendition or a record's thumbnail opens in an
// editor tab (VS Code's image preview for images) without a temporary file. Paths:
//   dam:/version/<versionId>/<fileName>
//   dam:/rendition/<versionId>/<renditionId>/<name>
//   dam:/thumbnail/<recordId>/<name>.png
import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections/connectionManager';
import { fileDataOf } from './fileDataCache';

export const DAM_SCHEME = 'dam';

interface Entry {
  bytes: Uint8Array;
  mtime: number;
}

/** Builds the `dam:` URI of a version's file; the file name is last so the editor picks the right viewer. */
export function versionUri(versionId: string, fileName: string): vscode.Uri {
  return vscode.Uri.from({ scheme: DAM_SCHEME, path: `/version/${versionId}/${safeName(fileName)}` });
}

export function renditionUri(versionId: string, renditionId: string, name: string): vscode.Uri {
  return vscode.Uri.from({ scheme: DAM_SCHEME, path: `/rendition/${versionId}/${renditionId}/${safeName(name)}` });
}

export function thumbnailUri(recordId: string, title: string): vscode.Uri {
  return vscode.Uri.from({ scheme: DAM_SCHEME, path: `/thumbnail/${recordId}/${safeName(title)} (thumbnail).png` });
}

function safeName(name: string): string {
  return name.replace(/[\\/]/g, '_').trim() || 'file';
}

export class DamFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  /** A few recent answers, so `stat` followed by `readFile` fetches once. */
  private readonly recent = new Map<string, Entry>();

  constructor(private readonly connections: ConnectionManager) {}

  watch(): vscode.Disposable {
    // The service sends no change events; a new version is a new URI.
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const [kind, id] = parts(uri);
    if (kind === 'version' && id) {
      // The version says its size and date; no need to download for a stat.
      const version = await this.data().version(id).catch((err: unknown) => this.fail(uri, err));
      if (typeof version.fileSize === 'number') {
        const mtime = version.createdOn ? Date.parse(version.createdOn) || 0 : 0;
        return { type: vscode.FileType.File, ctime: mtime, mtime, size: version.fileSize, permissions: vscode.FilePermission.Readonly };
      }
    }
    const entry = await this.fetch(uri);
    return { type: vscode.FileType.File, ctime: entry.mtime, mtime: entry.mtime, size: entry.bytes.byteLength, permissions: vscode.FilePermission.Readonly };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return (await this.fetch(uri)).bytes;
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  writeFile(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(oldUri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(oldUri);
  }

  private data() {
    const client = this.connections.session?.client;
    if (!client) throw vscode.FileSystemError.Unavailable('Not connected to a DAM service');
    return fileDataOf(client);
  }

  private async fetch(uri: vscode.Uri): Promise<Entry> {
    const key = uri.toString();
    const cached = this.recent.get(key);
    if (cached) return cached;
    const [kind, a, b] = parts(uri);
    const data = this.data();
    let bytes: Uint8Array;
    try {
      if (kind === 'version' && a) bytes = await data.download(await data.version(a));
      else if (kind === 'rendition' && a && b) {
        const rendition = (await data.renditions(a)).find((r) => r.id === b);
        if (!rendition) throw vscode.FileSystemError.FileNotFound(uri);
        bytes = await data.download(rendition);
      } else if (kind === 'thumbnail' && a) bytes = (await data.thumbnail({ id: a })).bytes;
      else throw vscode.FileSystemError.FileNotFound(uri);
    } catch (err) {
      this.fail(uri, err);
    }
    const entry = { bytes, mtime: Date.now() };
    this.recent.set(key, entry);
    if (this.recent.size > 16) this.recent.delete(this.recent.keys().next().value as string);
    return entry;
  }

  private fail(uri: vscode.Uri, err: unknown): never {
    if (err instanceof vscode.FileSystemError) throw err;
    if ((err as { status?: unknown } | null)?.status === 404) throw vscode.FileSystemError.FileNotFound(uri);
    throw vscode.FileSystemError.Unavailable(err instanceof Error ? err.message : String(err));
  }

  dispose(): void {
    this.emitter.dispose();
    this.recent.clear();
  }
}

function parts(uri: vscode.Uri): string[] {
  return uri.path.split('/').filter(Boolean);
}
