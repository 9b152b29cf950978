// The Emulator Requests view as the main bundle knows it: which emulator it shows (a URL the user named, else the
// emulator started here, else the connected emulator profile), its commands, and a tree shell whose provider and
// actions load with dist/inspector.js the first time the view shows or an inspector command runs.
import * as vscode from 'vscode';
import { Commands, ContextKeys, VIEW_EMULATOR_REQUESTS } from '../commandIds';
import type { ConnectionManager } from '../connections/connectionManager';
import type { EmulatorProcess } from '../emulator/emulatorProcess';
import { lazyModule } from '../lazyModule';
import type { DamLog } from '../log';
import { registerCommand } from '../registration';
import type * as InspectorModule from './module.js';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadInspectorModule = lazyModule<typeof InspectorModule>(() => require('./inspector.js'));

const URL_KEY = 'dam.inspector.url';
const USER_AGENT = 'dam-workbench-vscode/0.1.0 (request inspector)';

type Node = InspectorModule.RequestNode;

export class InspectorFeature implements vscode.Disposable {
  readonly treeView: vscode.TreeView<Node>;
  private requestsView: InspectorModule.RequestsView | undefined;
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly state: vscode.Memento,
    private readonly emulator: EmulatorProcess,
    private readonly connections: ConnectionManager,
    log: DamLog,
  ) {
    const d = this.disposables;
    const shell: vscode.TreeDataProvider<Node> = {
      onDidChangeTreeData: this.changed.event,
      getChildren: (node) => this.view(log).getChildren(node),
      getTreeItem: (node) => this.view(log).getTreeItem(node),
      getParent: (node) => this.view(log).getParent(node),
    };
    this.treeView = vscode.window.createTreeView(VIEW_EMULATOR_REQUESTS, { treeDataProvider: shell, showCollapseAll: true });
    d.push(this.treeView, this.changed);
    d.push(this.treeView.onDidChangeVisibility((e) => this.requestsView?.setVisible(e.visible)));
    d.push(emulator.onDidChange(() => this.retarget()));
    d.push(connections.onDidChange(() => this.retarget()));
    const run = (fn: (v: InspectorModule.RequestsView, arg?: unknown) => unknown) => (arg?: unknown) => fn(this.view(log), arg);
    registerCommand(d, log, Commands.inspectorSetUrl, (url?: string) => this.setUrl(url));
    registerCommand(d, log, Commands.inspectorFilter, run((v) => v.chooseFilter()));
    registerCommand(d, log, Commands.inspectorClearFilter, run((v) => v.setFilter({})));
    registerCommand(d, log, Commands.inspectorRefresh, run((v) => v.refresh()));
    registerCommand(d, log, Commands.inspectorClear, run((v) => v.clearJournal()));
    registerCommand(d, log, Commands.inspectorShowDetails, run((v, a) => v.showDetails(a)));
    registerCommand(d, log, Commands.inspectorCopyCurl, run((v, a) => v.copyCurl(a)));
    registerCommand(d, log, Commands.inspectorCopyDamCommand, run((v, a) => v.copyDamCommand(a)));
    registerCommand(d, log, Commands.inspectorReplay, run((v, a) => v.replay(a)));
    registerCommand(d, log, Commands.inspectorOpenRecord, run((v, a) => v.openRecord(a)));
    this.retarget();
  }

  /** The emulator the view shows: a URL the user named, else the one started here, else a connected emulator profile. */
  get target(): string | undefined {
    const named = this.state.get<string>(URL_KEY);
    if (named) return named;
    if (this.emulator.url) return this.emulator.url;
    const profile = this.connections.activeProfile();
    return profile?.kind === 'emulator' ? profile.endpoints.base.replace(/\/+$/, '') : undefined;
  }

  /** The loaded view (loading dist/inspector.js on first use). */
  view(log: DamLog): InspectorModule.RequestsView {
    if (!this.requestsView) {
      this.requestsView = loadInspectorModule().createRequestsView({
        fire: (node) => this.changed.fire(node),
        view: () => this.treeView,
        log,
        userAgent: USER_AGENT,
        connectedOrigin: () => this.connections.session?.profile.endpoints.base,
      });
      this.disposables.push(this.requestsView);
      this.requestsView.setOrigin(this.target);
      this.requestsView.setVisible(this.treeView.visible);
    }
    return this.requestsView;
  }

  private retarget(): void {
    const target = this.target;
    void vscode.commands.executeCommand('setContext', ContextKeys.inspectorHasTarget, target !== undefined);
    this.requestsView?.setOrigin(target);
  }

  /** Points the view at an emulator URL (asked when not given); an empty answer goes back to the emulator started here. */
  async setUrl(url?: string): Promise<string | undefined> {
    const answer =
      url ??
      (await vscode.window.showInputBox({
        title: 'DAM: inspect the requests of the emulator at',
        prompt: 'The emulator origin, e.g. http://127.0.0.1:7070 (leave empty to follow the emulator started in VS Code)',
        value: this.state.get<string>(URL_KEY) ?? this.target ?? 'http://127.0.0.1:7070',
        ignoreFocusOut: true,
        validateInput: (v) => {
          if (!v.trim()) return undefined;
          try {
            const u = new URL(v.trim());
            return u.protocol === 'http:' || u.protocol === 'https:' ? undefined : 'An http:// or https:// address';
          } catch {
            return 'An address such as http://127.0.0.1:7070';
          }
        },
      }));
    if (answer === undefined) return undefined;
    const origin = answer.trim() ? new URL(answer.trim()).origin : undefined;
    await this.state.update(URL_KEY, origin);
    this.retarget();
    await vscode.commands.executeCommand(`${VIEW_EMULATOR_REQUESTS}.focus`).then(undefined, () => undefined);
    return this.target;
  }

  dispose(): void {
    for (const d of this.disposables.reverse()) d.dispose();
  }
}
