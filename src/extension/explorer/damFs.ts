// The read-only `dam:` file system: a version's file, a rendition, a record's thumbnail or preview, or a
// record's (classification's) metadata opens in an editor tab (VS Code's image preview for images) without a
// temporary file. The path is what people read in the tab and the breadcrumbs, the record's title and the
// file's name; the ids that find the bytes travel in the query:
//   dam:/<record title>/<file name>?version=<versionId>
//   dam:/<record title>/<rendition name>?version=<versionId>&rendition=<renditionId>
//   dam:/<record title>/<record title> (thumbnail).png?thumbnail=<recordId>
//   dam:/<record title>/<record title> (preview).png?preview=<recordId>
//   dam:/<record title>/<record title>.json?record=<recordId>
//   dam:/<classification>/<classification>.json?classification=<classificationId>
// Record documents (`*.dam-record.json`, writable) and their schema are a part of their own: src/extension/records.
import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections/connectionManager';
import { fileDataOf } from './fileDataCache';

export const DAM_SCHEME = 'dam';

interface Entry {
  bytes: Uint8Array;
  mtime: number;
}

type DamResource =
  | { kind: 'version'; versionId: string }
  | { kind: 'rendition'; versionId: string; renditionId: string }
  | { kind: 'thumbnail' | 'preview' | 'record'; recordId: string }
  | { kind: 'classification'; classificationId: string };

function damUri(folder: string, name: string, ids: Record<string, string>): vscode.Uri {
  return vscode.Uri.from({ scheme: DAM_SCHEME, path: `/${safeName(folder)}/${safeName(name)}`, query: new URLSearchParams(ids).toString() });
}

/** A version's file, named after its record and file; the file name is last so the editor picks the right viewer. */
export function versionUri(versionId: string, fileName: string, recordTitle?: string): vscode.Uri {
  return damUri(recordTitle ?? 'version', fileName, { version: versionId });
}

export function renditionUri(versionId: string, renditionId: string, name: string, recordTitle?: string): vscode.Uri {
  return damUri(recordTitle ?? 'rendition', name, { version: versionId, rendition: renditionId });
}

export function thumbnailUri(recordId: string, title: string): vscode.Uri {
  return damUri(title, `${title} (thumbnail).png`, { thumbnail: recordId });
}

/** A record's preview image (the service renders it from the master file). */
export function previewUri(recordId: string, title: string): vscode.Uri {
  return damUri(title, `${title} (preview).png`, { preview: recordId });
}

/** A record's own data as read-only JSON, for records without an image to show. */
export function recordUri(recordId: string, title: string): vscode.Uri {
  return damUri(title, `${title}.json`, { record: recordId });
}

export function classificationUri(classificationId: string, label: string): vscode.Uri {
  return damUri(label, `${label}.json`, { classification: classificationId });
}

/** What a `dam:` URI stands for (also the older `dam:/version/<id>/<name>` form a restored tab may hold). */
export function resourceOf(uri: vscode.Uri): DamResource | undefined {
  if (uri.scheme !== DAM_SCHEME) return undefined;
  const q = new URLSearchParams(uri.query);
  const version = q.get('version');
  const rendition = q.get('rendition');
  if (version && rendition) return { kind: 'rendition', versionId: version, renditionId: rendition };
  if (version) return { kind: 'version', versionId: version };
  for (const kind of ['thumbnail', 'preview', 'record'] as const) {
    const id = q.get(kind);
    if (id) return { kind, recordId: id };
  }
  const classification = q.get('classification');
  if (classification) return { kind: 'classification', classificationId: classification };
  const [kind, a, b] = uri.path.split('/').filter(Boolean).map((p) => decodeURIComponent(p));
  if (kind === 'version' && a) return { kind: 'version', versionId: a };
  if (kind === 'rendition' && a && b) return { kind: 'rendition', versionId: a, renditionId: b };
  if (kind === 'thumbnail' && a) return { kind: 'thumbnail', recordId: a };
  return undefined;
}

function safeName(name: string): string {
  return name.replace(/[\\/]/g, '_').trim() || 'file';
}

/**
 * A part of the `dam:` file system that owns some of its URIs (VS Code takes one provider per scheme): the
 * writable record documents of src/extension/records. What it does not own stays read-only here.
 */
export interface DamFsPart {
  owns(uri: vscode.Uri): boolean;
  stat(uri: vscode.Uri): Promise<vscode.FileStat>;
  readFile(uri: vscode.Uri): Promise<Uint8Array>;
  writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void>;
  /** Moves one of its documents to another of its URIs (a record document to its new title); refused when absent. */
  rename?(oldUri: vscode.Uri, newUri: vscode.Uri): void;
  readonly onDidChangeFile: vscode.Event<vscode.FileChangeEvent[]>;
}

export class DamFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  /** A few recent answers, so `stat` followed by `readFile` fetches once. */
  private readonly recent = new Map<string, Entry>();
  private readonly parts: DamFsPart[] = [];

  constructor(private readonly connections: ConnectionManager) {}

  /** Hands the URIs `part` owns to it; its change events become this provider's. */
  addPart(part: DamFsPart): vscode.Disposable {
    this.parts.push(part);
    const sub = part.onDidChangeFile((events) => this.emitter.fire(events));
    return new vscode.Disposable(() => {
      sub.dispose();
      this.parts.splice(this.parts.indexOf(part), 1);
    });
  }

  private partOf(uri: vscode.Uri): DamFsPart | undefined {
    return this.parts.find((p) => p.owns(uri));
  }

  watch(): vscode.Disposable {
    // The service sends no change events; a new version is a new URI.
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const part = this.partOf(uri);
    if (part) return part.stat(uri);
    const resource = resourceOf(uri);
    if (resource?.kind === 'version') {
      // The version says its size and date; no need to download for a stat.
      const version = await this.data().version(resource.versionId).catch((err: unknown) => this.fail(uri, err));
      if (typeof version.fileSize === 'number') {
        const mtime = version.createdOn ? Date.parse(version.createdOn) || 0 : 0;
        return { type: vscode.FileType.File, ctime: mtime, mtime, size: version.fileSize, permissions: vscode.FilePermission.Readonly };
      }
    }
    const entry = await this.fetch(uri);
    return { type: vscode.FileType.File, ctime: entry.mtime, mtime: entry.mtime, size: entry.bytes.byteLength, permissions: vscode.FilePermission.Readonly };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const part = this.partOf(uri);
    if (part) return part.readFile(uri);
    return (await this.fetch(uri)).bytes;
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const part = this.partOf(uri);
    if (part) return part.writeFile(uri, content);
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(oldUri: vscode.Uri, newUri: vscode.Uri): void {
    const part = this.partOf(oldUri);
    if (part?.rename && part === this.partOf(newUri)) return part.rename(oldUri, newUri);
    throw vscode.FileSystemError.NoPermissions(oldUri);
  }

  /**
   * A record changed on the tenant (a save): its read-only JSON (`?record=`) is read again, and an open tab of it
   * reloads. Only that view: images and files are other URIs, and a save of its metadata changes none of them.
   */
  recordChanged(recordId: string): void {
    const uris = new Map<string, vscode.Uri>();
    for (const key of this.recent.keys()) uris.set(key, vscode.Uri.parse(key));
    for (const doc of vscode.workspace.textDocuments) uris.set(doc.uri.toString(), doc.uri);
    const events: vscode.FileChangeEvent[] = [];
    for (const [key, uri] of uris) {
      const resource = resourceOf(uri);
      if (resource?.kind !== 'record' || resource.recordId.replace(/-/g, '').toLowerCase() !== recordId.replace(/-/g, '').toLowerCase()) continue;
      this.recent.delete(key);
      events.push({ type: vscode.FileChangeType.Changed, uri });
    }
    if (events.length) this.emitter.fire(events);
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
    const resource = resourceOf(uri);
    const data = this.data();
    let bytes: Uint8Array;
    try {
      switch (resource?.kind) {
        case 'version':
          bytes = await data.download(await data.version(resource.versionId));
          break;
        case 'rendition': {
          const rendition = (await data.renditions(resource.versionId)).find((r) => r.id === resource.renditionId);
          if (!rendition) throw vscode.FileSystemError.FileNotFound(uri);
          bytes = await data.download(rendition);
          break;
        }
        case 'thumbnail':
        case 'preview':
          bytes = (await data.image({ id: resource.recordId }, resource.kind)).bytes;
          break;
        case 'record':
          bytes = json(await data.resource(`record/${encodeURIComponent(resource.recordId)}`));
          break;
        case 'classification':
          bytes = json(await data.resource(`classification/${encodeURIComponent(resource.classificationId)}`));
          break;
        default:
          throw vscode.FileSystemError.FileNotFound(uri);
      }
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

/** A resource as people read it: indented JSON without its links (download links carry tokens). */
function json(value: unknown): Uint8Array {
  const { _links: _l, ...rest } = (value ?? {}) as Record<string, unknown>;
  return new TextEncoder().encode(JSON.stringify(rest, null, 2) + '\n');
}
