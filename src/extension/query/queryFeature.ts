// The light part of `.dam-query` support that lives in the main bundle: the commands, and loading the
// language module when the first query or analytics file opens (or a command needs it).
import * as vscode from 'vscode';
import { numberArg, oneOf, stringArg, uriArg } from '../commandArgs';
import { Commands, QUERY_LANGUAGE } from '../commandIds';
import type { ConnectionManager } from '../connections/connectionManager';
import type { DamLog } from '../log';
import { registerCommand } from '../registration';
import { loadQueryModule } from './lazyQuery';
import type { QueryLanguage } from './module.js';

export class QueryFeature implements vscode.Disposable {
  private language: QueryLanguage | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly connections: ConnectionManager,
    private readonly log: DamLog,
  ) {
    const d = this.disposables;
    // The editor title passes the resource and its group; the lens passes the resource and an offset.
    registerCommand(d, log, Commands.queryRun, (uri?: unknown, offset?: unknown) => this.load().run(uriArg(uri), numberArg(offset)));
    registerCommand(d, log, Commands.queryHistory, () => this.load().showHistory());
    registerCommand(d, log, Commands.queryExport, (uri?: unknown, offset?: unknown, format?: unknown, file?: unknown) =>
      this.load().export(uriArg(uri), numberArg(offset), oneOf(format, ['csv', 'json'] as const), uriArg(file)),
    );
    registerCommand(d, log, Commands.queryRefreshSchema, () => this.load().refreshSchema());
    // The results table's context menu passes its row's `data-vscode-context`.
    const onResult = (action: 'reveal' | 'preview' | 'copyId') => (context?: unknown) => {
      const id = stringArg((context as { resultId?: unknown } | undefined)?.resultId);
      return id ? this.load().results.runAction(action, id) : undefined;
    };
    registerCommand(d, log, Commands.queryRevealResult, onResult('reveal'));
    registerCommand(d, log, Commands.queryPreviewResult, onResult('preview'));
    registerCommand(d, log, Commands.queryCopyResultId, onResult('copyId'));
    d.push(vscode.workspace.onDidOpenTextDocument((doc) => this.loadFor(doc)));
    vscode.workspace.textDocuments.forEach((doc) => this.loadFor(doc));
  }

  private loadFor(doc: vscode.TextDocument): void {
    if (this.language) return;
    if (doc.languageId === QUERY_LANGUAGE || doc.uri.path.toLowerCase().endsWith('.dam-analytics.json')) {
      try {
        this.load();
      } catch (err) {
        this.log.error(`Loading the query language failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  /** The language features, loaded and started on first use. */
  load(): QueryLanguage {
    this.language ??= new (loadQueryModule().QueryLanguage)({ context: this.context, connections: this.connections, log: this.log });
    return this.language;
  }

  dispose(): void {
    this.language?.dispose();
    this.disposables.forEach((d) => d.dispose());
  }
}
