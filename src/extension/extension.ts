// Activation stays thin: one controller owns everything and is disposed with the extension.
import type * as vscode from 'vscode';
import { DamController, type DamApi } from './controller';

const loadedAt = performance.now();

export function activate(context: vscode.ExtensionContext): DamApi {
  const controller = new DamController(context);
  context.subscriptions.push(controller);
  return controller.api(performance.now() - loadedAt);
}

export function deactivate(): void {}
