// DAM: Pull Tenant Configuration… and DAM: Compare Tenant Configuration with a Folder…: registered here, their work
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
  ) {
    registerCommand(this.disposables, log, Commands.tenantPull, (folder?: vscode.Uri) => this.load().pull(folder));
    registerCommand(this.disposables, log, Commands.tenantCompare, (folder?: vscode.Uri) => this.load().compare(folder));
  }

  private load(): TenantModule {
    this.module ??= new (loadTenantModule().TenantModule)(this.connections, this.log);
    return this.module;
  }

  dispose(): void {
    this.module?.dispose();
    this.disposables.forEach((d) => d.dispose());
  }
}
