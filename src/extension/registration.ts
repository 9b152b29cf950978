// Registration helpers: every command and listener is tied to a disposable owned by its caller.
import * as vscode from 'vscode';
import type { CommandId } from './commandIds';
import type { DamLog } from './log';
import { inWords } from './errorWords';

export function registerCommand(
  subscriptions: vscode.Disposable[],
  log: DamLog,
  id: CommandId,
  handler: (...args: never[]) => unknown,
): void {
  subscriptions.push(
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await (handler as (...a: unknown[]) => unknown)(...args);
      } catch (err) {
        if (err instanceof vscode.CancellationError) return undefined;
        const message = err instanceof Error ? err.message : String(err);
        log.error(`${id}: ${message}`);
        // The notification says what went wrong in words; the log keeps the HTTP exchange.
        void vscode.window.showErrorMessage(log.scrub(inWords(err)), 'Show Log').then((choice) => {
          if (choice) log.show();
        });
        return undefined;
      }
    }),
  );
}
