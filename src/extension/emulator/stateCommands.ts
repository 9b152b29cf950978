// Registers Save Emulator State…, Restore Emulator State… and Reset to Demo Tenant; their code (and the client with
// zod) loads with the first use (dist/emulatorState.js). They work on the active connection's address, or on
// the emulator the extension started when nothing is connected.
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import { lazyModule } from '../lazyModule';
import type { DamLog } from '../log';
import { registerCommand } from '../registration';
import type * as StateModule from './stateModule.js';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadStateModule = lazyModule<typeof StateModule>(() => require('./emulatorState.js'));

export function registerStateCommands(subscriptions: vscode.Disposable[], log: DamLog, origin: () => string | undefined): void {
  const target = (): StateModule.StateTarget => {
    const at = origin();
    if (!at) throw new Error('No emulator: start the local emulator, or connect to one, first.');
    return { origin: at, refreshExplorer: () => vscode.commands.executeCommand(Commands.explorerRefresh) };
  };
  registerCommand(subscriptions, log, Commands.emulatorSaveState, () => loadStateModule().saveState(target()));
  registerCommand(subscriptions, log, Commands.emulatorRestoreState, () => loadStateModule().restoreState(target()));
  registerCommand(subscriptions, log, Commands.emulatorReset, () => loadStateModule().resetState(target()));
}
