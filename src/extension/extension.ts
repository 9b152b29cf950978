// Activation stays thin: one controller owns everything and is disposed with the extension.
import type * as vscode from 'vscode';
import { DamController, type DamApi } from './controller';

// Set by the bundle's first line (esbuild banner); absent when this module is loaded unbundled.
declare const __damLoadStart: number | undefined;
const loadedAt = typeof __damLoadStart === 'number' ? __damLoadStart : performance.now();
// Module bodies run in import order, so this line runs after every dependency has loaded.
const modulesReadyAt = performance.now();

export function activate(context: vscode.ExtensionContext): DamApi {
  const started = performance.now();
  const controller = new DamController(context);
  context.subscriptions.push(controller);
  const done = performance.now();
  return controller.api({ activationMs: done - loadedAt, moduleLoadMs: modulesReadyAt - loadedAt, activateMs: done - started });
}

export function deactivate(): void {}
