// Which local files are downloaded copies of which file versions, so a copy opened later still gets its
// version's findings. Kept in a Memento (the extension's global state) keyed by the file URI; an entry whose
// file is gone is forgotten when it is next looked up or when the store starts.
import { stat } from 'node:fs/promises';
import * as vscode from 'vscode';

const KEY = 'dam.downloadedVersions';
/** Older entries are dropped beyond this, so the state stays small however many downloads are made. */
const MAX_ENTRIES = 500;

export interface DownloadedVersion {
  versionId: string;
  fileName?: string;
  downloadedOn: string;
}

/** Only well-formed entries of the stored state (checked by hand: zod stays out of the activation bundle). */
function entriesOf(state: unknown): Record<string, DownloadedVersion> {
  const out: Record<string, DownloadedVersion> = {};
  if (typeof state !== 'object' || state === null || Array.isArray(state)) return out;
  for (const [key, e] of Object.entries(state as Record<string, unknown>)) {
    if (typeof e !== 'object' || e === null) continue;
    const { versionId, fileName, downloadedOn } = e as Record<string, unknown>;
    if (typeof versionId !== 'string' || typeof downloadedOn !== 'string') continue;
    out[key] = { versionId, downloadedOn, ...(typeof fileName === 'string' ? { fileName } : {}) };
  }
  return out;
}

export class DownloadedVersions {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  /** A file was mapped to a version (or forgotten). */
  readonly onDidChange = this.changed.event;

  /**
   * The checked entries of the stored value last seen: every text document opened looks here, so they are checked
   * again only when the memento hands out another value (an update here or from another window).
   */
  private cached: { raw: unknown; entries: Readonly<Record<string, DownloadedVersion>> } | undefined;

  constructor(private readonly memento: vscode.Memento) {}

  private read(): Readonly<Record<string, DownloadedVersion>> {
    const raw = this.memento.get(KEY);
    // State written by another version of the extension (or edited by hand) is not trusted blindly.
    if (!this.cached || this.cached.raw !== raw) this.cached = { raw, entries: entriesOf(raw) };
    return this.cached.entries;
  }

  async remember(file: vscode.Uri, versionId: string, fileName?: string): Promise<void> {
    const all = { ...this.read() };
    delete all[file.toString()];
    all[file.toString()] = { versionId, ...(fileName ? { fileName } : {}), downloadedOn: new Date().toISOString() };
    const keys = Object.keys(all);
    for (const k of keys.slice(0, Math.max(0, keys.length - MAX_ENTRIES))) delete all[k];
    await this.memento.update(KEY, all);
    this.changed.fire(file);
  }

  async forget(file: vscode.Uri): Promise<void> {
    if (!(file.toString() in this.read())) return;
    const all = { ...this.read() };
    delete all[file.toString()];
    await this.memento.update(KEY, all);
    this.changed.fire(file);
  }

  /** The version a local file was downloaded from, or undefined (also when the file no longer exists: then it is forgotten). */
  async versionOf(file: vscode.Uri): Promise<string | undefined> {
    if (file.scheme !== 'file') return undefined;
    const entry = this.read()[file.toString()];
    if (!entry) return undefined;
    if (!(await exists(file.fsPath))) {
      await this.forget(file);
      return undefined;
    }
    return entry.versionId;
  }

  /** Every mapped file, for the tests and for pruning. */
  entries(): [string, DownloadedVersion][] {
    return Object.entries(this.read());
  }

  /** Forgets the files that are gone; resolves with how many were dropped. */
  async prune(): Promise<number> {
    const all = { ...this.read() };
    let dropped = 0;
    for (const key of Object.keys(all)) {
      const uri = vscode.Uri.parse(key);
      if (uri.scheme !== 'file' || !(await exists(uri.fsPath))) {
        delete all[key];
        dropped++;
      }
    }
    if (dropped) await this.memento.update(KEY, all);
    return dropped;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
