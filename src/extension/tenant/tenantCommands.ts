// DAM: Pull Tenant Configuration…, DAM: Compare Tenant Configuration with a Folder… and DAM: Compare the Emulator with
// This Tenant…: registered here, their work
// (the tenant core, its schemas and the client's pull) in dist/tenant.js, loaded on first use so activation stays light.
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { ConnectionManager } from '../connections/connectionManager';
import type { DamLog } from '../log';
import { registerCommand } from '../registration';
import { loadTenantModule } from './lazyTenant';
import type { TenantModule } from './module.js';

export class TenantCommands implements vscode.Disposable {
  private module: TenantModule | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly connections: ConnectionManager,
    private readonly log: DamLog,
    /** The local emulator's origin: the running one, else started for the comparison (without connecting to it). */
    private readonly emulatorOrigin: (token: vscode.CancellationToken) => Promise<string>,
  ) {
    registerCommand(this.disposables, log, Commands.tenantPull, (folder?: vscode.Uri) => this.load().pull(folder));
    registerCommand(this.disposables, log, Commands.tenantCompare, (folder?: vscode.Uri) => this.load().compare(folder));
    registerCommand(this.disposables, log, Commands.tenantCompareEmulator, () => this.load().compareWithEmulator());
  }

  private load(): TenantModule {
    this.module ??= new (loadTenantModule().TenantModule)(this.connections, this.log, this.emulatorOrigin);
    return this.module;
  }

  dispose(): void {
    this.module?.dispose();
    this.disposables.forEach((d) => d.dispose());
  }
}
