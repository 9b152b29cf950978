// The emulator's saved states: named snapshots in its snapshot folder, a reset to a fresh demo (or empty) tenant,
// and the folders of --import and --export-on-exit. Every replacement runs alone behind the state gate and then
// tells the caches that hold rows of the old state (onReplaced).
import { mkdir, readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { BlobStore } from '../blobs';
import { errors } from '../errors';
import type { TrackedStore } from '../storage/tracking';
import { GateTimeoutError, type StateGate } from './gate';
import type { Manifest } from './snapshotDir';
import { sweepSnapshots } from './snapshotDir';
import { loadSnapshot, readManifest, saveSnapshot, SnapshotDamagedError, SnapshotFormatError, SnapshotMismatchError, type LoadResult } from './snapshots';

/** Letters, digits, `.`, `_` and `-`, starting with a letter or digit: a folder name that cannot leave the snapshot folder. */
export const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** How long a replacement waits for the requests in flight before it gives up, changing nothing. */
const DRAIN_TIMEOUT_MS = 30_000;

export interface SnapshotInfo {
  name: string;
  createdOn: string;
  seed: string | null;
  records: number;
  tables: number;
  blobs: number;
  backend: string;
}

export interface RestoreReport extends LoadResult {
  name: string;
}

export interface EmulatorStateOptions {
  store: TrackedStore;
  blobs: BlobStore;
  gate: StateGate;
  /** Folder of the named snapshots. */
  home: string;
  /** The state folders of the tenants prepared at build time (their table files can be copied by a save). */
  preparedStates: string[];
  /** A snapshot folder holding a fresh tenant of the seed (prepared at build time, or made on first use). */
  freshTenant(seed: 'demo' | 'empty'): Promise<string>;
  log(line: string): void;
}

const info = (name: string, m: Manifest): SnapshotInfo => ({
  name,
  createdOn: m.createdOn,
  seed: m.seed,
  records: m.records,
  tables: m.tables.length,
  blobs: m.blobs.count,
  backend: m.backend,
});

export class EmulatorState {
  private readonly listeners: (() => void)[] = [];

  constructor(private readonly options: EmulatorStateOptions) {}

  /** `listener` runs after every replacement of the state, before the first request sees the new one. */
  onReplaced(listener: () => void): void {
    this.listeners.push(listener);
  }

  private folder(name: string): string {
    if (!SNAPSHOT_NAME.test(name)) {
      throw errors.validation(`'${name.slice(0, 80)}' is not a snapshot name: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit.`);
    }
    return join(this.options.home, name);
  }

  async list(): Promise<SnapshotInfo[]> {
    let names: string[];
    try {
      names = await readdir(this.options.home);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const found = await Promise.all(
      names
        .filter((n) => SNAPSHOT_NAME.test(n))
        .map(async (n) => {
          try {
            return info(n, await readManifest(join(this.options.home, n)));
          } catch {
            return undefined;
          }
        }),
    );
    return found.filter((s): s is SnapshotInfo => s !== undefined).sort((a, b) => b.createdOn.localeCompare(a.createdOn) || a.name.localeCompare(b.name));
  }

  async get(name: string): Promise<SnapshotInfo> {
    const dir = this.folder(name);
    try {
      return info(name, await readManifest(dir));
    } catch (err) {
      if (err instanceof SnapshotDamagedError) throw errors.snapshotDamaged(name, err.file, err.reason);
      if (err instanceof SnapshotFormatError) throw errors.noDataFound('snapshot', name);
      throw err;
    }
  }

  /**
   * Removes what saves stopped part way left (in the snapshot folder, and beside `exportDir`), so a killed save costs
   * no space past the next start. Call before the first save. Answers how many files or folders it removed.
   */
  async sweep(exportDir?: string): Promise<number> {
    let removed = await sweepSnapshots(this.options.home);
    if (exportDir) removed += await sweepSnapshots(dirname(exportDir), basename(exportDir));
    if (removed) this.options.log(`removed ${removed} file(s) or folder(s) that stopped snapshot saves left`);
    return removed;
  }

  /** Saves the state as `name`, replacing a snapshot of that name. */
  async save(name: string): Promise<SnapshotInfo> {
    const dir = this.folder(name);
    await mkdir(this.options.home, { recursive: true });
    const reuse = await this.reuseSources();
    const manifest = await this.alone(name, () => saveSnapshot(this.options.store, this.options.blobs.dir, dir, reuse));
    this.options.log(`saved the emulator state as '${name}' (${manifest.records} records, ${manifest.blobs.count} blobs)`);
    return info(name, manifest);
  }

  async restore(name: string): Promise<RestoreReport> {
    const dir = this.folder(name);
    await this.get(name);
    const result = await this.replaceFrom(dir, name);
    this.options.log(`restored '${name}' in ${result.ms.toFixed(0)} ms (${result.tablesLoaded.length} tables loaded)`);
    return { name, ...result };
  }

  async remove(name: string): Promise<void> {
    const dir = this.folder(name);
    await this.get(name);
    await rm(dir, { recursive: true, force: true });
  }

  /** Replaces the state with a fresh tenant of `seed`. Tokens stay valid. */
  async reset(seed: 'demo' | 'empty'): Promise<LoadResult> {
    const dir = await this.options.freshTenant(seed);
    const result = await this.replaceFrom(dir);
    this.options.log(`reset to the ${seed} tenant in ${result.ms.toFixed(0)} ms (${result.tablesLoaded.length} tables loaded)`);
    return result;
  }

  /** --import: loads a snapshot folder given by path. */
  async importFrom(dir: string): Promise<LoadResult> {
    return this.replaceFrom(dir);
  }

  /** --export-on-exit: saves to a folder given by path (replacing it). */
  async exportTo(dir: string): Promise<Manifest> {
    const reuse = await this.reuseSources();
    return this.alone(dir, () => saveSnapshot(this.options.store, this.options.blobs.dir, dir, reuse));
  }

  /** Snapshots whose files a save may copy for tables that did not change: the named ones and the prepared tenants. */
  private async reuseSources(): Promise<string[]> {
    const named = (await readdir(this.options.home).catch(() => [] as string[])).filter((n) => SNAPSHOT_NAME.test(n)).map((n) => join(this.options.home, n));
    return [...named, ...this.options.preparedStates];
  }

  /** `name`: the snapshot's name in errors (else its folder). */
  private async replaceFrom(dir: string, name = dir): Promise<LoadResult> {
    return this.alone(name, async () => {
      try {
        return await loadSnapshot(this.options.store, this.options.blobs.dir, dir);
      } finally {
        // Even a load that failed part way (its transaction rolled back) may have copied blobs in: caches start over.
        this.options.store.invalidate();
        for (const listener of this.listeners) listener();
      }
    });
  }

  private async alone<T>(name: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await this.options.gate.exclusive(fn, DRAIN_TIMEOUT_MS);
    } catch (err) {
      if (err instanceof GateTimeoutError) throw errors.snapshotUnusable(`The emulator is busy: ${err.message}.`);
      if (err instanceof SnapshotDamagedError) throw errors.snapshotDamaged(name, err.file, err.reason);
      if (err instanceof SnapshotMismatchError) throw errors.snapshotUnusable(`This snapshot cannot be loaded: ${err.message}.`);
      if (err instanceof SnapshotFormatError) throw errors.snapshotUnusable(err.message, 400);
      throw err;
    }
  }
}

