// `dam` in VS Code's integrated terminals: a launcher folder first on their PATH (the CLI this extension carries, run
// by the Node.js VS Code itself runs on), and the active connection's addresses, client id and flow as the CLI's
// DAM_* variables. Never a secret: a terminal's environment is read by every program started in it. Against the
// emulator the CLI uses the contract's credentials; against a tenant it says to set DAM_CLIENT_SECRET there.
// The emulator the extension starts is also recorded in a state file, so a `dam` run elsewhere finds it.
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import * as vscode from 'vscode';
import { forgetRunningEmulator, recordRunningEmulator } from '../../api/emulatorDiscovery';
import type { ConnectionManager } from '../connections/connectionManager';
import type { EmulatorProcess } from '../emulator/emulatorProcess';
import type { DamLog } from '../log';
import { MANAGED, connectionVariables, launchers } from './terminalVariables';

export class TerminalEnvironment implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private recordedPid: number | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly connections: ConnectionManager,
    private readonly emulator: EmulatorProcess,
    private readonly log: DamLog,
  ) {
    const collection = context.environmentVariableCollection;
    collection.description = new vscode.MarkdownString('Puts `dam` on `PATH` and points it at the active DAM connection (addresses and client id, never a secret).');
    // Variables of an earlier session are dropped before anything is known about this one.
    for (const name of MANAGED) collection.delete(name);
    const binDir = join(context.globalStorageUri.fsPath, 'bin');
    void this.writeLaunchers(binDir).then(
      () => collection.prepend('PATH', `${binDir}${delimiter}`),
      (err: unknown) => this.log.warn(`Could not put dam on the terminals' PATH: ${String(err)}`),
    );
    this.disposables.push(connections.onDidChange(() => this.update()));
    this.disposables.push(emulator.onDidChange((origin) => this.recordEmulator(origin)));
    this.update();
  }

  private async writeLaunchers(binDir: string): Promise<void> {
    const { sh, cmd } = launchers(process.execPath, this.context.asAbsolutePath(join('dist', 'cli.js')));
    await mkdir(binDir, { recursive: true });
    await writeFile(join(binDir, 'dam'), sh);
    await chmod(join(binDir, 'dam'), 0o755);
    await writeFile(join(binDir, 'dam.cmd'), cmd);
  }

  private update(): void {
    const collection = this.context.environmentVariableCollection;
    const vars = connectionVariables(this.connections.activeProfile());
    for (const name of MANAGED) {
      const value = vars[name];
      if (value === undefined) collection.delete(name);
      else collection.replace(name, value);
    }
  }

  private recordEmulator(origin: string | undefined): void {
    try {
      if (origin && this.emulator.pid !== undefined) {
        this.recordedPid = this.emulator.pid;
        recordRunningEmulator(process.env, { url: origin, pid: this.recordedPid });
      } else if (this.recordedPid !== undefined) {
        forgetRunningEmulator(process.env, this.recordedPid);
        this.recordedPid = undefined;
      }
    } catch (err) {
      this.log.warn(`Could not record the emulator for dam: ${String(err)}`);
    }
  }

  dispose(): void {
    if (this.recordedPid !== undefined) forgetRunningEmulator(process.env, this.recordedPid);
    for (const d of this.disposables) d.dispose();
  }
}
