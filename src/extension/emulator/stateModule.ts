// Save, restore and reset the emulator's state (dist/emulatorState.js, loaded on the first of these commands):
// a name asked for, a quick pick of the saved states with their dates, each with
// cancellable progress; a confirmation before what replaces data (Save over a saved name, Restore, Reset); the DAM Explorer is refreshed after a restore or reset.
import * as vscode from 'vscode';
import { EmulatorStateClient, type LoadReport, type Snapshot } from '../../api/emulatorState';

export interface StateTarget {
  /** The emulator's origin. */
  origin: string;
  refreshExplorer(): Thenable<unknown>;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Cancelling the notification aborts the request; the emulator finishes or rolls back on its side. */
function withProgress<T>(title: string, work: (signal: AbortSignal) => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (_progress, token) => {
    const controller = new AbortController();
    const cancel = token.onCancellationRequested(() => controller.abort());
    try {
      return await work(controller.signal);
    } catch (err) {
      if (controller.signal.aborted) throw new vscode.CancellationError();
      throw err;
    } finally {
      cancel.dispose();
    }
  });
}

function ago(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}

/** Whether a restore or reset changed anything (the emulator loads only the tables that differ). */
const changedAnything = (r: LoadReport) => r.tablesLoaded.length > 0 || r.blobsAdded > 0 || r.blobsRemoved > 0;

function suggestedName(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `state-${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}`;
}

export async function saveState(target: StateTarget): Promise<void> {
  const client = new EmulatorStateClient(target.origin);
  const name = await vscode.window.showInputBox({
    title: 'Save Emulator State',
    prompt: `Saves the database and files of the emulator at ${target.origin}; saving under a name already saved asks before replacing it.`,
    value: suggestedName(),
    validateInput: (value) => (NAME.test(value) ? undefined : 'Use 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit.'),
  });
  if (!name) return;
  // Replacing a saved state loses it for good: ask first, naming it and what it holds.
  const existing = (await withProgress('DAM: reading the saved emulator states', (signal) => client.list(signal))).find((s) => s.name === name);
  if (existing) {
    const choice = await vscode.window.showWarningMessage(
      `Replace the saved state '${name}'?`,
      { modal: true, detail: `'${name}' was saved ${ago(existing.createdOn)} (${new Date(existing.createdOn).toLocaleString()}) with ${existing.records} records. Saving now replaces it with the emulator's current state.` },
      'Replace',
    );
    if (choice !== 'Replace') return;
  }
  const saved = await withProgress(`DAM: saving the emulator state as '${name}'`, (signal) => client.save(name, signal));
  void vscode.window.showInformationMessage(`Saved the emulator state as '${saved.name}' (${saved.records} records).`);
}

interface SnapshotItem extends vscode.QuickPickItem {
  snapshot: Snapshot;
}

export async function restoreState(target: StateTarget): Promise<void> {
  const client = new EmulatorStateClient(target.origin);
  const snapshots = await withProgress('DAM: reading the saved emulator states', (signal) => client.list(signal));
  if (!snapshots.length) {
    void vscode.window.showInformationMessage('The emulator has no saved states yet: use "DAM: Save Emulator State…" first.');
    return;
  }
  const picked = await vscode.window.showQuickPick<SnapshotItem>(
    snapshots.map((s) => ({
      label: s.name,
      description: `${ago(s.createdOn)} · ${s.records} records`,
      detail: `saved ${new Date(s.createdOn).toLocaleString()}`,
      snapshot: s,
    })),
    { title: 'Restore Emulator State', placeHolder: 'The state to go back to (what changed since it was saved is lost)', matchOnDescription: true },
  );
  if (!picked) return;
  const choice = await vscode.window.showWarningMessage(
    `Restore the emulator state '${picked.snapshot.name}'?`,
    {
      modal: true,
      detail: `The tenant of the emulator at ${target.origin} is replaced by '${picked.snapshot.name}' (saved ${ago(picked.snapshot.createdOn)}, ${picked.snapshot.records} records): everything changed since then is lost. Save the current state first to keep it.`,
    },
    'Restore',
  );
  if (choice !== 'Restore') return;
  const report = await withProgress(`DAM: restoring '${picked.snapshot.name}'`, (signal) => client.restore(picked.snapshot.name, signal));
  await target.refreshExplorer();
  // Said as a user thinks of it (the state and its records), not as the emulator did it ("7 table(s) loaded in 363 ms").
  const { name, records, createdOn } = picked.snapshot;
  void vscode.window.showInformationMessage(
    changedAnything(report)
      ? `Restored the emulator state '${name}': ${records} records, as saved ${ago(createdOn)}.`
      : `The emulator already held the state '${name}' (${records} records): nothing had changed since it was saved.`,
  );
}

export async function resetState(target: StateTarget): Promise<void> {
  const choice = await vscode.window.showWarningMessage(
    'Reset the emulator to the demo tenant?',
    { modal: true, detail: 'Everything changed since the demo tenant was loaded is lost. Saved states are kept, and signed-in clients stay signed in.' },
    'Reset',
  );
  if (choice !== 'Reset') return;
  const report = await withProgress('DAM: resetting the emulator to the demo tenant', (signal) => new EmulatorStateClient(target.origin).reset('demo', signal));
  await target.refreshExplorer();
  void vscode.window.showInformationMessage(changedAnything(report) ? 'The emulator holds the demo tenant again.' : 'The emulator already held the demo tenant: nothing had changed.');
}
