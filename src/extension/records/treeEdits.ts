// Record edits from the DAM Explorer: delete, change status, add to or remove from a classification, and records
// dropped on a classification (add, or move from the classification they were dragged from). Each edit is one
// change set of the core, applied by the client's record runner; the tree then redraws only the rows and
// classifications it touched.
import * as vscode from 'vscode';
import type { DamClient } from '../../api/client';
import { RECORD_STATUSES, emptyChangeSet, type ChangeSet } from '../../core/records';
import { SECTION } from '../commandIds';
import type { ConnectionManager } from '../connections/connectionManager';
import type { ExplorerProvider } from '../explorer/explorerProvider';
import type { ExplorerNode } from '../explorer/nodes';
import type { RecordRow } from '../explorer/recordPages';
import type { DamLog } from '../log';
import { count } from '../plural';
import { pickClassification, type PickedClassification } from './pickers';
import type { RecordDocuments } from './recordDocuments';
import { targetOf, type RecordTarget } from './targets';

type RecordNode = Extract<ExplorerNode, { kind: 'record' }>;
type ClassificationNode = Extract<ExplorerNode, { kind: 'classification' }>;

export type DropAction = 'add' | 'move';

export class TreeEdits {
  constructor(
    private readonly connections: ConnectionManager,
    private readonly provider: ExplorerProvider,
    private readonly documents: RecordDocuments,
    private readonly log: DamLog,
  ) {}

  private get client(): DamClient {
    return this.connections.requireSession().client;
  }

  /** Deletes records after a modal confirmation naming them; true when deleted. */
  async delete(targets: RecordTarget[], options: { confirm?: boolean } = {}): Promise<boolean> {
    if (targets.length === 0) return false;
    if (options.confirm !== false) {
      const what = targets.length === 1 ? `the record “${targets[0].title}”` : `${count(targets.length, 'record')} (${targets.slice(0, 3).map((t) => `“${t.title}”`).join(', ')}${targets.length > 3 ? ', …' : ''})`;
      const choice = await vscode.window.showWarningMessage(
        `Delete ${what}?`,
        { modal: true, detail: 'Its files, versions and renditions are deleted with it. This cannot be undone.' },
        'Delete',
      );
      if (choice !== 'Delete') return false;
    }
    const failed: string[] = [];
    for (const t of targets) {
      try {
        await this.client.recordEdits.delete(t.id);
        this.log.info(`Deleted record ${t.id} (${t.title})`);
        this.provider.removeRecord(t.id);
        this.documents.recordChanged(t.id, vscode.FileChangeType.Deleted);
      } catch (err) {
        failed.push(`“${t.title}”: ${errorText(err)}`);
      }
    }
    if (failed.length) throw new Error(`Not deleted: ${failed.join('; ')}`);
    vscode.window.setStatusBarMessage(`Deleted ${targets.length === 1 ? `“${targets[0].title}”` : count(targets.length, 'record')}`, 5000);
    return true;
  }

  /** Asks for a status (the current one marked) and sets it on the records; the status set, or undefined. */
  async changeStatus(targets: RecordTarget[], status?: string): Promise<string | undefined> {
    if (targets.length === 0) return undefined;
    const current = new Set(targets.map((t) => t.status ?? ''));
    const chosen =
      status ??
      (
        await vscode.window.showQuickPick(
          RECORD_STATUSES.map((s) => ({ label: s, description: current.size === 1 && current.has(s) ? 'current' : undefined })),
          { title: `Change the status of ${targets.length === 1 ? `“${targets[0].title}”` : count(targets.length, 'record')}`, placeHolder: 'The new status' },
        )
      )?.label;
    if (!chosen) return undefined;
    await this.applyEach(targets, (t) => {
      const cs = emptyChangeSet(t.id, t.title);
      if ((t.status ?? '') !== chosen) cs.status = { before: t.status ?? '', after: chosen };
      return cs;
    }, { status: chosen });
    return chosen;
  }

  /**
   * Adds the records to a classification picked by name path; the classification, or undefined. A notification says
   * what was done and offers Undo, which takes out again only the records this added (not those already there).
   */
  async addToClassification(targets: RecordTarget[], to?: PickedClassification, options: { notify?: boolean } = {}): Promise<PickedClassification | undefined> {
    if (targets.length === 0) return undefined;
    const target = to ?? (await pickClassification(this.client, { title: `Add ${targets.length === 1 ? `“${targets[0].title}”` : count(targets.length, 'record')} to a classification` }));
    if (!target) return undefined;
    const name = await this.nameOf(target);
    const added = await this.addTo(targets, target.id);
    if (added.length === 0) {
      if (options.notify !== false) void vscode.window.showInformationMessage(`${what(targets)} ${targets.length === 1 ? 'is' : 'are'} already in ${name}.`);
      return target;
    }
    if (options.notify !== false) {
      this.offerUndo(`Added ${what(added)} to ${name}.`, async () => {
        const removed = await this.removeFrom(added, target.id);
        return removed.length ? `Undone: ${what(removed)} ${isAre(removed)} no longer in ${name}.` : `Nothing to undo: ${what(added)} ${isAre(added)} no longer in ${name}.`;
      });
    }
    return target;
  }

  /** Adds the targets not in the classification yet; those it added. */
  private async addTo(targets: RecordTarget[], classificationId: string): Promise<RecordTarget[]> {
    const added = await this.byMembership(targets, classificationId, false);
    if (added.length === 0) return added;
    await this.applyEach(added, (t) => ({ ...emptyChangeSet(t.id, t.title), addClassifications: [classificationId] }));
    for (const t of added) this.provider.addRecord(t.row ?? { id: t.id, title: t.title, status: t.status }, classificationId);
    return added;
  }

  /** Takes the targets that are in the classification out of it; those it took out. */
  private async removeFrom(targets: RecordTarget[], classificationId: string): Promise<RecordTarget[]> {
    const removed = await this.byMembership(targets, classificationId, true);
    if (removed.length === 0) return removed;
    await this.applyEach(removed, (t) => ({ ...emptyChangeSet(t.id, t.title), removeClassifications: [classificationId] }));
    for (const t of removed) this.provider.removeRecord(t.id, classificationId);
    return removed;
  }

  /**
   * Removes the records from a classification: the one their rows sit under, else one picked among the first
   * record's classifications. The classification, or undefined.
   */
  async removeFromClassification(targets: RecordTarget[], from?: PickedClassification, options: { notify?: boolean } = {}): Promise<PickedClassification | undefined> {
    if (targets.length === 0) return undefined;
    let source = from ?? (targets[0].classificationId ? { id: targets[0].classificationId, namePath: '' } : undefined);
    if (!source) {
      const source0 = await this.client.recordEdits.readRecord(targets[0].id);
      const own = source0.classifications ?? [];
      if (own.length === 0) {
        void vscode.window.showInformationMessage(`“${targets[0].title}” is in no classification.`);
        return undefined;
      }
      const pick = await vscode.window.showQuickPick(
        own.map((c) => ({ label: c.namePath || c.id, id: c.id })),
        { title: `Remove “${targets[0].title}” from a classification`, placeHolder: 'The classification to take it out of' },
      );
      if (!pick) return undefined;
      source = { id: pick.id, namePath: pick.label };
    }
    const { id } = source;
    const name = await this.nameOf(source);
    const removed = await this.removeFrom(targets, id);
    if (removed.length === 0) {
      if (options.notify !== false) void vscode.window.showInformationMessage(`${what(targets)} ${targets.length === 1 ? 'is' : 'are'} not in ${name}.`);
      return source;
    }
    if (options.notify !== false) {
      this.offerUndo(`Removed ${what(removed)} from ${name}.`, async () => {
        const added = await this.addTo(removed, id);
        return added.length ? `Undone: ${what(added)} ${isAre(added)} back in ${name}.` : `Nothing to undo: ${what(removed)} ${isAre(removed)} in ${name} already.`;
      });
    }
    return source;
  }

  /**
   * Records dropped on a classification: added there, or moved from the classification they were dragged from (one
   * update per record: added and removed together). VS Code tells a tree drop no modifier keys, so the setting
   * `dam.records.dropOnClassification` says which, or the user is asked.
   */
  async drop(records: RecordNode[], target: ClassificationNode, action?: DropAction): Promise<DropAction | undefined> {
    const targets = records.map(targetOf).filter((t) => t.classificationId !== target.id);
    if (targets.length === 0) return undefined;
    const movable = targets.filter((t) => t.classificationId);
    const name = target.classification.namePath || target.classification.name || target.id;
    let chosen = action ?? vscode.workspace.getConfiguration(SECTION).get<'ask' | DropAction>('records.dropOnClassification') ?? 'ask';
    if (chosen === 'ask') {
      if (movable.length === 0) chosen = 'add';
      else {
        const what = targets.length === 1 ? `“${targets[0].title}”` : count(targets.length, 'record');
        const pick = await vscode.window.showQuickPick(
          [
            { label: `Add to ${name}`, description: 'it stays where it was too', action: 'add' as const },
            { label: `Move to ${name}`, description: 'and take it out of the classification it was dragged from', action: 'move' as const },
          ],
          { title: `Drop ${what} on ${name}`, placeHolder: 'Add or move? (the setting “DAM › Records: Drop On Classification” can decide for you)' },
        );
        if (!pick) return undefined;
        chosen = pick.action;
      }
    }
    const move = chosen === 'move';
    await this.applyEach(targets, (t) => ({
      ...emptyChangeSet(t.id, t.title),
      addClassifications: [target.id],
      removeClassifications: move && t.classificationId ? [t.classificationId] : [],
    }));
    for (const t of targets) {
      this.provider.addRecord(t.row ?? { id: t.id, title: t.title, status: t.status }, target.id);
      if (move && t.classificationId) this.provider.removeRecord(t.id, t.classificationId);
    }
    vscode.window.setStatusBarMessage(`${move ? 'Moved' : 'Added'} ${targets.length === 1 ? `“${targets[0].title}”` : count(targets.length, 'record')} to ${name}`, 5000);
    return chosen;
  }

  /** A classification's name path for messages (looked up once when only its id is known). */
  private async nameOf(c: PickedClassification): Promise<string> {
    if (c.namePath) return c.namePath;
    const found = await this.client.recordEdits.classification(c.id).catch(() => null);
    return found?.namePath || c.id;
  }

  /** The targets that are (`inIt`) or are not in a classification now, read from the tenant. */
  private async byMembership(targets: RecordTarget[], classificationId: string, inIt: boolean): Promise<RecordTarget[]> {
    const key = classificationId.replace(/-/g, '').toLowerCase();
    const held = await Promise.all(targets.map((t) => this.client.recordEdits.readRecord(t.id, { fields: [], files: false }).then((r) => (r.classifications ?? []).some((c) => c.id === key))));
    return targets.filter((_, i) => held[i] === inIt);
  }

  /**
   * A notification of what an edit did, with Undo. The undo confirms in a notification of its own, once, starting
   * with “Undone:” so that it is never read as the edit's own message (a status bar message went unseen: the
   * notification the user clicked closes, and nothing else changed in view). The log says the same.
   */
  private offerUndo(message: string, undo: () => Promise<string>): void {
    void vscode.window.showInformationMessage(message, 'Undo').then(async (choice) => {
      if (choice !== 'Undo') return;
      try {
        const done = await undo();
        this.log.info(`Undo of “${message}”: ${done}`);
        void vscode.window.showInformationMessage(done);
      } catch (err) {
        void vscode.window.showErrorMessage(`Could not undo (${message.replace(/\.$/, '')}): ${errorText(err)}`);
      }
    });
  }

  /** One change set per record, each applied as one update; rows redraw with their new modification date. */
  private async applyEach(targets: RecordTarget[], changeOf: (t: RecordTarget) => ChangeSet, rowChange: Partial<RecordRow> = {}): Promise<void> {
    const edits = this.client.recordEdits;
    const failed: string[] = [];
    for (const t of targets) {
      try {
        await edits.apply(changeOf(t));
        const modifiedOn = await edits.modifiedOn(t.id).catch(() => undefined);
        this.provider.updateRecord(t.id, { ...rowChange, ...(modifiedOn ? { modifiedOn } : {}) });
        this.documents.recordChanged(t.id);
      } catch (err) {
        this.log.warn(`Record ${t.id}: ${this.log.scrub(err instanceof Error ? err.message : String(err))}`);
        failed.push(`“${t.title}”: ${errorText(err)}`);
      }
    }
    if (failed.length) throw new Error(`${failed.length === targets.length ? 'Nothing was changed' : `${count(failed.length, 'record')} not changed`}: ${failed.join('; ')}`);
  }
}

function what(targets: RecordTarget[]): string {
  return targets.length === 1 ? `“${targets[0].title}”` : count(targets.length, 'record');
}

function isAre(targets: RecordTarget[]): string {
  return targets.length === 1 ? 'is' : 'are';
}

function errorText(err: unknown): string {
  const e = err as { exceptionMessage?: unknown; message?: unknown } | null;
  return typeof e?.exceptionMessage === 'string' && e.exceptionMessage ? e.exceptionMessage : err instanceof Error ? err.message : String(err);
}
