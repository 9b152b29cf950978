// The composition root: builds every part of the extension once, with explicit dependencies.
import * as vscode from 'vscode';
import { EMULATOR_CLIENT, emulatorProfile } from '../api/endpoints';
import { Commands, ContextKeys, SECTION } from './commandIds';
import { AuthUriHandler } from './connections/authUriHandler';
import { ConnectionManager } from './connections/connectionManager';
import { ProfileStore } from './connections/profileStore';
import { ConnectionStatusBar } from './connections/statusBar';
import type { Session } from './connections/session';
import { EmulatorProcess } from './emulator/emulatorProcess';
import { registerStateCommands } from './emulator/stateCommands';
import { Explorer } from './explorer/explorer';
import { QueryFeature } from './query/queryFeature';
import { AnalyticsEditors } from './analytics/analyticsEditors';
import { TaskCommands } from './tasks/taskCommands';
import { DownloadedVersions } from './findings/downloadedVersions';
import { FindingDiagnostics } from './findings/findingDiagnostics';
import { FileCommands } from './files/fileCommands';
import { InspectorFeature } from './inspector/inspectorFeature';
import { DamLog } from './log';
import { registerCommand } from './registration';

export const EMULATOR_PROFILE_ID = 'emulator';

/** What `activate` returns: the parts other extensions and the test suite may read. */
export interface DamApi {
  readonly profiles: ProfileStore;
  readonly connections: ConnectionManager;
  readonly emulator: EmulatorProcess;
  readonly log: DamLog;
  readonly explorer: Explorer;
  /** `.dam-query` editing and running (the language module loads on first use). */
  readonly query: QueryFeature;
  /** The analytics builder (custom editor of `.dam-analytics.json`). */
  readonly analytics: AnalyticsEditors;
  /** Task commands (create form, delegate, attach); their module loads on first use. */
  readonly tasks: TaskCommands;
  /** Findings of a version's check results as diagnostics in its opened text. */
  readonly findings: FindingDiagnostics;
  /** Upload, Create Renditions, Publish Check Result and the Check Results view. */
  readonly files: FileCommands;
  /** The Emulator Requests view (its code loads when it first shows). */
  readonly inspector: InspectorFeature;
  readonly timings: ActivationTimings;
  /** Milliseconds from the bundle starting to load to `activate` returning. */
  readonly activationMs: number;
}

export interface ActivationTimings {
  activationMs: number;
  /** Evaluating the bundle's modules. */
  moduleLoadMs: number;
  /** The `activate` call itself. */
  activateMs: number;
}

export class DamController implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  readonly log: DamLog;
  readonly profiles: ProfileStore;
  readonly connections: ConnectionManager;
  readonly emulator: EmulatorProcess;
  readonly explorer: Explorer;
  readonly analytics: AnalyticsEditors;
  readonly query: QueryFeature;
  readonly tasks: TaskCommands;
  readonly findings: FindingDiagnostics;
  readonly files: FileCommands;
  readonly inspector: InspectorFeature;

  constructor(private readonly context: vscode.ExtensionContext) {
    const d = this.disposables;
    this.log = track(d, new DamLog());
    this.profiles = track(d, new ProfileStore(context.secrets, context.globalState, (m) => this.log.warn(m)));
    const uriHandler = new AuthUriHandler();
    d.push(vscode.window.registerUriHandler(uriHandler));
    this.connections = track(d, new ConnectionManager(this.profiles, this.log, uriHandler));
    this.emulator = track(d, new EmulatorProcess(context.asAbsolutePath('dist/emulator.js'), this.log));
    this.explorer = track(d, new Explorer(this.connections, this.log));
    this.query = track(d, new QueryFeature(context, this.connections, this.log));
    this.analytics = track(d, new AnalyticsEditors(context.extensionUri, this.connections, this.log));
    this.tasks = track(d, new TaskCommands(context.extensionUri, this.connections, this.log));
    const downloads = track(d, new DownloadedVersions(context.globalState));
    void downloads.prune().catch((err: unknown) => this.log.warn(`Downloaded copies: ${String(err)}`));
    this.findings = track(d, new FindingDiagnostics(this.connections, this.log, downloads));
    this.files = track(d, new FileCommands(this.connections, this.explorer, this.log, this.findings));
    this.inspector = track(d, new InspectorFeature(context.globalState, this.emulator, this.connections, this.log));
    const statusBar = track(d, new ConnectionStatusBar());
    d.push(this.connections.onDidChange((state) => statusBar.update(state)));
    d.push(this.emulator.onDidChange((origin) => this.onEmulatorChanged(origin)));
    void vscode.commands.executeCommand('setContext', ContextKeys.state, 'disconnected');
    this.registerCommands();
    this.restoreConnection();
  }

  private registerCommands(): void {
    const d = this.disposables;
    registerCommand(d, this.log, Commands.startEmulator, () => this.startEmulator());
    registerCommand(d, this.log, Commands.stopEmulator, () => this.emulator.stop());
    registerCommand(d, this.log, Commands.addConnection, () => this.addConnection());
    registerCommand(d, this.log, Commands.switchConnection, () => this.switchConnection());
    registerCommand(d, this.log, Commands.signIn, () => this.signIn());
    registerCommand(d, this.log, Commands.signOut, () => this.connections.signOut());
    registerCommand(d, this.log, Commands.removeConnection, () => this.removeConnection());
    registerCommand(d, this.log, Commands.editConnections, () => vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.connections`));
    registerCommand(d, this.log, Commands.showLog, () => this.log.show());
    registerStateCommands(d, this.log, () => this.connections.activeProfile()?.endpoints.base ?? this.emulator.url);
  }

  /** Reconnects to the profile that was active last time, without prompting. */
  private restoreConnection(): void {
    const id = this.profiles.activeId;
    const autoStart = vscode.workspace.getConfiguration(SECTION).get<boolean>('emulator.autoStart');
    if (id === EMULATOR_PROFILE_ID) {
      if (autoStart) void this.startEmulator().catch((err) => this.log.warn(`Emulator auto-start failed: ${String(err)}`));
      return;
    }
    if (id) void this.connections.connect(id, { interactive: false }).catch(() => undefined);
  }

  /** Starts the emulator child process and connects to it with the contract's credentials. */
  async startEmulator(): Promise<Session> {
    const config = vscode.workspace.getConfiguration(SECTION);
    const dataDir = vscode.Uri.joinPath(this.context.globalStorageUri, 'emulator').fsPath;
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(this.context.globalStorageUri, 'emulator'));
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'DAM: starting the local emulator', cancellable: true },
      async (progress, token) => {
        progress.report({ message: 'first start loads the demo tenant…' });
        const origin = await this.emulator.start(
          { port: config.get<number>('emulator.port') ?? 0, seed: config.get<'demo' | 'empty'>('emulator.seed') ?? 'demo', dataDir },
          token,
        );
        progress.report({ message: `signing in at ${origin}` });
        return this.connections.connect(EMULATOR_PROFILE_ID, { interactive: false, token });
      },
    );
  }

  private onEmulatorChanged(origin: string | undefined): void {
    void vscode.commands.executeCommand('setContext', ContextKeys.emulatorRunning, origin !== undefined);
    if (origin) {
      this.profiles.setEphemeral(emulatorProfile(origin), EMULATOR_PROFILE_ID);
      // The emulator's client secret is public (emulator contract), but it still goes where secrets go.
      void this.profiles.setSecrets(EMULATOR_PROFILE_ID, { clientSecret: EMULATOR_CLIENT.clientSecret });
    } else {
      this.profiles.setEphemeral(undefined, EMULATOR_PROFILE_ID);
      if (this.connections.activeProfile()?.id === EMULATOR_PROFILE_ID) this.connections.disconnect();
    }
  }

  private async addConnection(): Promise<Session> {
    const { runConnectWizard } = await import('./connections/connectWizard.js');
    const { profile, secrets } = await runConnectWizard(new Set((await this.profiles.list()).map((p) => p.id)));
    await this.profiles.save(profile);
    await this.profiles.setSecrets(profile.id, secrets);
    return this.connectWithProgress(profile.id);
  }

  private async connectWithProgress(id: string): Promise<Session> {
    const profile = await this.profiles.get(id);
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `DAM: connecting to ${profile?.name ?? id}`, cancellable: true },
      (_progress, token) => this.connections.connect(id, { interactive: true, token }),
    );
  }

  private async switchConnection(): Promise<Session | undefined> {
    type Item = vscode.QuickPickItem & { run: () => Thenable<Session | undefined> | Promise<Session | undefined> };
    const activeId = this.connections.activeProfile()?.id;
    const items: Item[] = (await this.profiles.list()).map((p) => ({
      label: `${p.kind === 'emulator' ? '$(server-process)' : '$(cloud)'} ${p.name}`,
      description: p.id === activeId ? 'active' : p.endpoints.core,
      detail: `${p.flow} · client ${p.clientId}`,
      run: () => this.connectWithProgress(p.id),
    }));
    if (!this.emulator.running) items.push({ label: '$(play) Start local emulator', description: 'demo tenant, no account needed', run: () => this.startEmulator() });
    items.push({ label: '$(add) Connect to a tenant…', run: () => this.addConnection() });
    const pick = await vscode.window.showQuickPick(items, { title: 'DAM: switch connection', placeHolder: 'Choose the connection to use' });
    return pick?.run();
  }

  private async signIn(): Promise<Session | undefined> {
    const profile = this.connections.activeProfile() ?? (this.profiles.activeId ? await this.profiles.get(this.profiles.activeId) : undefined);
    if (!profile) return this.switchConnection();
    return this.connectWithProgress(profile.id);
  }

  private async removeConnection(): Promise<void> {
    const saved = (await this.profiles.list()).filter((p) => p.kind !== 'emulator');
    const pick = await vscode.window.showQuickPick(
      saved.map((p) => ({ label: p.name, description: p.endpoints.core, id: p.id })),
      { title: 'DAM: remove connection', placeHolder: 'The profile and its secrets are removed' },
    );
    if (!pick) return;
    if (this.connections.activeProfile()?.id === pick.id) this.connections.disconnect();
    await this.profiles.remove(pick.id);
    this.log.info(`Removed connection ${pick.label}`);
  }

  api(timings: ActivationTimings): DamApi {
    return { profiles: this.profiles, connections: this.connections, emulator: this.emulator, log: this.log, explorer: this.explorer, analytics: this.analytics, query: this.query, tasks: this.tasks, findings: this.findings, files: this.files, inspector: this.inspector, timings, activationMs: timings.activationMs };
  }

  dispose(): void {
    for (const disposable of this.disposables.reverse()) disposable.dispose();
    this.disposables.length = 0;
  }
}

function track<T extends vscode.Disposable>(list: vscode.Disposable[], value: T): T {
  list.push(value);
  return value;
}
