// The version model of one record document (STYLE.md principle 15), free of `vscode` so that each transition is
// tested on its own (test/unit/extension/recordVersions.test.ts); recordDocuments.ts does the reads and writes and
// asks this model what they mean. It keeps apart:
//   base    the version the editor's text started from (read-only parts are checked against it);
//   tenant  the version the tenant holds, as last read (a save is computed against it);
//   held    what VS Code holds after our own save until it reloads: our text, at the version our save made (known once
//           the save's re-read answered). A stat that finds the tenant at that version reports `held`, so VS Code sees
//           no change it did not make (no false "the file is newer" when the user types on right after a save).
// The save's re-read is off the editor's critical path: the editor shows "saved" once the PUT is accepted, the stat
// right after the write is answered from what was written, and the reload after the re-read is answered from what was
// just read; its readFile sets the base.

/** What VS Code knows of a file's version: its etag is made of these two. */
export interface FileVersion {
  mtime: number;
  size: number;
}

/** A version of the record as served to VS Code. */
export interface Version extends FileVersion {
  modifiedOn: string | null;
  text: string;
}

interface Held {
  stat: FileVersion;
  text: string;
  /** The tenant's modifiedOn after our save; undefined until the save's re-read answered. */
  modifiedOn?: string | null;
}

export class RecordVersionModel<V extends Version> {
  base?: V;
  tenant?: V;
  private held?: Held;
  /** The stat VS Code makes right after writeFile: answered with what was written, once. */
  private afterWrite?: FileVersion;
  /** A save between its accepted PUT and the moment the editor may reload. */
  private saving?: { reread: boolean; vscodeDone: boolean };
  /** The editor was told to reload the version just read: its stat needs no request and its read is the new base. */
  private reloading = false;
  /**
   * A stat reported a version other than the one the text started from: VS Code may now raise a conflict, and a read
   * while the editor holds unsaved edits is its Compare. Without one, every read is for the editor's text (a Revert
   * whose "clean" reaches the extension host after the read is still a Revert).
   */
  private newerReported = false;
  /**
   * A read that became the base while the editor held other text: VS Code replaces the text with what it read, unless
   * the document became dirty while it read (it then keeps the user's edit, made on the text it held). The first change
   * after the read tells which: anything but the text read means the edit won, and the base goes back.
   */
  private unconfirmed?: { previous: V; read: V };

  /** Open: the record was read for an editor about to open it. */
  opened(v: V): void {
    this.tenant = v;
  }

  /** The record was read (a stat found it changed, or a read for VS Code). */
  read(v: V): void {
    this.tenant = v;
  }

  /** Something else changed the record (a tree edit, a bulk run): the next stat asks the tenant. */
  forgetTenant(): void {
    this.tenant = undefined;
    this.reloading = false;
  }

  /** A stat answered without a request, or undefined when the tenant's modifiedOn must be asked. */
  statWithoutRequest(recent: (v: V) => boolean): FileVersion | undefined {
    const after = this.afterWrite;
    this.afterWrite = undefined;
    if (after) return after;
    if (this.reloading && this.tenant && recent(this.tenant)) return this.tenant;
    return undefined;
  }

  /** Whether a stat has to ask at all: only for a document with a base (before that, the read answers it). */
  get known(): boolean {
    return this.base !== undefined;
  }

  /** A stat that asked the tenant's modifiedOn: the version to report, or undefined when the record must be read. */
  statAt(modifiedOn: string | null): FileVersion | undefined {
    if (this.held?.modifiedOn !== undefined && this.held.modifiedOn === modifiedOn) return this.held.stat;
    if (this.tenant && this.tenant.modifiedOn === modifiedOn) return this.reported(this.tenant);
    return undefined;
  }

  /** A stat reports `v` (the tenant's version, as read): notes whether it is newer than the text's base. */
  reported<T extends FileVersion & { modifiedOn: string | null }>(v: T): T {
    if (this.base && v.modifiedOn !== this.base.modifiedOn) this.newerReported = true;
    return v;
  }

  /**
   * VS Code read the file. For the editor's text (open, Revert, the reload we asked for) it is the new base; a read while
   * the editor holds unsaved edits is the other side of a conflict's Compare, and the edits keep their base.
   */
  served(v: V, editorDirty: boolean, editorText?: string): void {
    if (this.reloading || !editorDirty || !this.base || !this.newerReported) {
      this.unconfirmed = this.base && editorText !== undefined && !sameText(editorText, v.text) ? { previous: this.base, read: v } : undefined;
      this.base = v;
      this.held = undefined;
      this.reloading = false;
      this.newerReported = false;
    }
  }

  /**
   * The base before the last read, while VS Code has not shown that it replaced the text with that read: the editor's
   * text may still be on it (an edit made while VS Code read). The text's own read-only section tells (`keptPrevious`).
   */
  get previousBase(): V | undefined {
    return this.unconfirmed && this.base === this.unconfirmed.read ? this.unconfirmed.previous : undefined;
  }

  /** The editor's text is on the base before the last read: VS Code kept the user's edit and dropped that read. */
  keptPrevious(): void {
    if (this.unconfirmed && this.base === this.unconfirmed.read) this.base = this.unconfirmed.previous;
    this.unconfirmed = undefined;
  }

  /**
   * The editor's text changed. Text that is exactly the tenant's version was loaded from it (a Revert: VS Code may tell
   * the extension host that the document is clean only after it read the file).
   */
  textChanged(text: string): void {
    // The text read has arrived: the read is the text's base for sure.
    if (this.unconfirmed && sameText(text, this.unconfirmed.read.text)) this.unconfirmed = undefined;
    if (this.tenant && this.base !== this.tenant && text === this.tenant.text) {
      this.base = this.tenant;
      this.held = undefined;
      this.newerReported = false;
    }
  }

  /**
   * The version a save is computed against, given the tenant's modifiedOn now: the one the edit started from, or, after
   * a conflict, the newer one VS Code showed and the user chose to overwrite. Undefined: the record changed meanwhile.
   */
  against(modifiedOn: string | null): V | undefined {
    if (this.base && modifiedOn === this.base.modifiedOn) return this.base;
    if (this.tenant && modifiedOn === this.tenant.modifiedOn) return this.tenant;
    return undefined;
  }

  /** The tenant accepted our save of `text` (`size` bytes), computed against `from`: what VS Code is told it now holds. */
  written(from: FileVersion, text: string, size: number): FileVersion {
    const stat = { mtime: from.mtime, size };
    this.afterWrite = stat;
    this.held = { stat, text };
    this.saving = { reread: false, vscodeDone: false };
    this.reloading = false;
    this.unconfirmed = undefined;
    this.newerReported = false;
    return stat;
  }

  /**
   * The save's re-read answered: `fresh` is the tenant's version, `savedAt` the saved text at that version (its base,
   * with the read-only section it shows). True when the editor may reload now.
   */
  reread(fresh: V, savedAt: V): boolean {
    this.tenant = fresh;
    this.base = savedAt;
    if (this.held) this.held.modifiedOn = fresh.modifiedOn;
    if (this.saving) this.saving.reread = true;
    return this.reloadDue();
  }

  /** The save's re-read failed: nothing is known of the tenant's version now. */
  rereadFailed(): void {
    this.tenant = undefined;
    this.saving = undefined;
  }

  /** VS Code finished the save (its stat after the write is done). True when the editor may reload now. */
  vscodeSaved(): boolean {
    if (this.saving) this.saving.vscodeDone = true;
    return this.reloadDue();
  }

  /** We tell VS Code to reload the clean editor: its stat and read come next. */
  reloadStarted(): void {
    this.reloading = true;
  }

  /**
   * A version as served, with a size VS Code does not mistake for what it holds: VS Code takes a file as unchanged
   * when its size is the same (its conflict check compares etags made of mtime and size), so a newer version, or the
   * tenant's text where VS Code holds the text it saved, of the same length reports one byte more.
   */
  distinct<T extends V>(v: T): T {
    const held = this.afterWrite ? { ...this.afterWrite, text: this.held?.text } : this.held ? { ...this.held.stat, text: this.held.text } : this.base;
    if (held && v.size === held.size && (v.mtime !== held.mtime || (held.text !== undefined && held.text !== v.text))) return { ...v, size: v.size + 1 };
    return v;
  }

  private reloadDue(): boolean {
    if (!this.saving?.reread || !this.saving.vscodeDone) return false;
    this.saving = undefined;
    return true;
  }
}

/** The same text, whatever its line ends (VS Code keeps a document's own). */
function sameText(a: string, b: string): boolean {
  return a === b || a.replace(/\r\n/g, '\n') === b.replace(/\r\n/g, '\n');
}
