// The light part of the task commands that lives in the main bundle: registering the commands and
// loading the module with the form and the flows on the first use.
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { ConnectionManager } from '../connections/connectionManager';
import type { DamLog } from '../log';
import { registerCommand } from '../registration';
import { loadTaskModule } from './lazyTasks';
import type { TaskModule } from './module.js';

export class TaskCommands implements vscode.Disposable {
  private module: TaskModule | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly connections: ConnectionManager,
    private readonly log: DamLog,
  ) {
    const d = this.disposables;
    registerCommand(d, log, Commands.tasksCreate, () => this.load().createTask());
    registerCommand(d, log, Commands.tasksDelegate, (taskId?: number, taskAssigneeId?: number, newUserId?: number) => this.load().delegate(taskId, taskAssigneeId, newUserId));
    // From the Explorer's context menu the file comes first; from the palette or a caller, the task id.
    registerCommand(d, log, Commands.tasksAttach, (first?: unknown, file?: unknown, title?: unknown) =>
      first instanceof vscode.Uri ? this.load().attach(undefined, first) : this.load().attach(first, file, title),
    );
  }

  /** The task module, loaded on first use (the test suite reads the open form through it). */
  load(): TaskModule {
    this.module ??= new (loadTaskModule().TaskModule)({
      extensionUri: this.extensionUri,
      log: this.log,
      session: () => {
        const session = this.connections.session;
        if (!session) throw new Error('Not connected to a DAM tenant: start the local emulator or connect to a tenant first (DAM: Switch Connection).');
        return session;
      },
    });
    return this.module;
  }

  dispose(): void {
    this.module?.dispose();
    this.disposables.forEach((d) => d.dispose());
  }
}
