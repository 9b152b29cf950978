// The composition root: builds every part of the extension once, with explicit dependencies.
import * as vscode from 'vscode';
import { EMULATOR_CLIENT, emulatorProfile } from '../api/endpoints';
import { Commands, ContextKeys, SECTION } from './commandIds';
import { AuthUriHandler } from './connections/authUriHandler';
import { ProfileStore } from './connections/profileStore';
import { ConnectionStatusBar } from './connections/statusBar';
import type { Session } from './connections/session';
import { registerStateCommands } from './emulator/stateCommands';
import { ConnectionError, ConnectionManager } from './connections/connectionManager';
import type { WizardStart } from './connections/connectWizard';
import type { FailureReason } from './connections/failure';
import { EmulatorProcess, type EmulatorExit } from './emulator/emulatorProcess';
import { portInUse, portInUseMessage } from './emulator/startFailure';
import { Explorer } from './explorer/explorer';
import { QueryFeature } from './query/queryFeature';
import { AnalyticsEditors } from './analytics/analyticsEditors';
import { TaskCommands } from './tasks/taskCommands';
import { DownloadedVersions } from './findings/downloadedVersions';
import { FindingDiagnostics } from './findings/findingDiagnostics';
import { FileCommands } from './files/fileCommands';
import { InspectorFeature } from './inspector/inspectorFeature';
import { TerminalEnvironment } from './terminal/terminalEnvironment';
import { RecordsFeature } from './records/recordsFeature';
import { DamLog } from './log';
import { registerCommand } from './registration';
import { TenantCommands } from './tenant/tenantCommands';

export const EMULATOR_PROFILE_ID = 'emulator';

/** Failures after which signing in again asks for the secret or password instead of sending it again. */
const ASK_AGAIN: ReadonlySet<FailureReason | undefined> = new Set(['secret', 'password']);
/** globalState: the local emulator ran (started here, not stopped on purpose) when the window last closed or reloaded. */
const EMULATOR_WAS_RUNNING = 'dam.emulator.wasRunning';

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
  /** Record documents, the tree's record edits and bulk updates (their module loads on first use). */
  readonly records: RecordsFeature;
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
  readonly records: RecordsFeature;
  private readonly statusBar: ConnectionStatusBar;

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
    track(d, new TenantCommands(this.connections, this.log, (token) => this.emulatorOrigin(token)));
    this.inspector = track(d, new InspectorFeature(context.globalState, this.emulator, this.connections, this.log));
    track(d, new TerminalEnvironment(context, this.connections, this.emulator, this.log));
    this.records = track(d, new RecordsFeature(this.connections, this.explorer, this.query, this.log));
    const statusBar = (this.statusBar = track(d, new ConnectionStatusBar()));
    d.push(this.connections.onDidChange((state) => statusBar.update(state)));
    d.push(this.emulator.onDidChange((origin) => this.onEmulatorChanged(origin)));
    d.push(this.emulator.onDidExitUnexpectedly((exit) => void this.onEmulatorDied(exit)));
    void vscode.commands.executeCommand('setContext', ContextKeys.state, 'disconnected');
    this.registerCommands();
    this.restoreConnection();
  }

  private registerCommands(): void {
    const d = this.disposables;
    registerCommand(d, this.log, Commands.startEmulator, () => this.startEmulatorAsked());
    registerCommand(d, this.log, Commands.stopEmulator, async () => {
      // Stopped on purpose: the next window does not start it again by itself.
      await this.context.globalState.update(EMULATOR_WAS_RUNNING, false);
      return this.emulator.stop();
    });
    registerCommand(d, this.log, Commands.addConnection, () => this.addConnection());
    registerCommand(d, this.log, Commands.switchConnection, () => this.switchConnection());
    registerCommand(d, this.log, Commands.signIn, () => this.signIn());
    registerCommand(d, this.log, Commands.signOut, () => this.connections.signOut());
    registerCommand(d, this.log, Commands.removeConnection, () => this.removeConnection());
    registerCommand(d, this.log, Commands.editConnections, () => vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.connections`));
    registerCommand(d, this.log, Commands.showLog, () => this.log.show());
    registerStateCommands(d, this.log, () => this.connections.activeProfile()?.endpoints.base ?? this.emulator.url);
    registerCommand(d, this.log, Commands.readAboutConnections, () => this.readAboutConnections());
  }

  /**
   * Reconnects to the profile that was active last time, without prompting. The local emulator stops with the
   * window, so it is started again when it was running then (a reload) or auto-start is on.
   */
  private restoreConnection(): void {
    const id = this.profiles.activeId;
    const autoStart = vscode.workspace.getConfiguration(SECTION).get<boolean>('emulator.autoStart');
    if (id === EMULATOR_PROFILE_ID) {
      if (autoStart || this.context.globalState.get<boolean>(EMULATOR_WAS_RUNNING)) void this.startEmulator().catch((err) => this.log.warn(`Emulator auto-start failed: ${String(err)}`));
      return;
    }
    if (id) {
      void this.connections.connect(id, { interactive: false }).catch((err: unknown) => {
        if (err instanceof ConnectionError) void this.offerFixes(err);
      });
    }
  }

  /** The README's section on connections, in the Markdown preview. */
  private async readAboutConnections(): Promise<void> {
    // vsce stores the package's README as `readme.md`; a development host has the repository's `README.md`.
    const packaged = vscode.Uri.joinPath(this.context.extensionUri, 'readme.md');
    const readme = await vscode.workspace.fs.stat(packaged).then(
      () => packaged,
      () => vscode.Uri.joinPath(this.context.extensionUri, 'README.md'),
    );
    await vscode.commands.executeCommand('markdown.showPreview', readme.with({ fragment: 'connections' }));
  }

  private starting: Promise<Session> | undefined;

  /** Starts the emulator child process and connects to it with the contract's credentials; a second call while it starts waits for the first. */
  /**
   * DAM: Start Local Emulator. A port another program holds (the port setting) is said in words with a way out, start
   * on a free port this time or change the setting, instead of `EADDRINUSE` with only Show Log.
   */
  private async startEmulatorAsked(): Promise<Session | undefined> {
    try {
      return await this.startEmulator();
    } catch (err) {
      const port = portInUse(err instanceof Error ? err.message : String(err));
      if (port === undefined) throw err;
      this.log.error(`${Commands.startEmulator}: ${err instanceof Error ? err.message : String(err)}`);
      void this.offerAnotherPort(port);
      return undefined;
    }
  }

  private async offerAnotherPort(port: number): Promise<void> {
    const free = 'Start on a Free Port';
    const setting = 'Change the Port Setting';
    const choice = await vscode.window.showErrorMessage(portInUseMessage(port), free, setting, 'Show Log');
    if (choice === free) {
      await this.startEmulator({ port: 0 }).catch((err: unknown) => void vscode.window.showErrorMessage(`DAM: the emulator did not start: ${err instanceof Error ? err.message : String(err)}`, 'Show Log').then((c) => c && this.log.show()));
    } else if (choice === setting) {
      await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.emulator.port`);
    } else if (choice) {
      this.log.show();
    }
  }

  startEmulator(options: { port?: number } = {}): Promise<Session> {
    if (!this.starting) {
      void vscode.commands.executeCommand('setContext', ContextKeys.emulatorStarting, true);
      this.statusBar.setEmulatorStarting(true);
      this.starting = this.startEmulatorOnce(options.port).finally(() => {
        this.starting = undefined;
        void vscode.commands.executeCommand('setContext', ContextKeys.emulatorStarting, false);
        this.statusBar.setEmulatorStarting(false);
      });
    }
    return this.starting;
  }

  private async emulatorStartOptions() {
    const config = vscode.workspace.getConfiguration(SECTION);
    const dataDir = vscode.Uri.joinPath(this.context.globalStorageUri, 'emulator').fsPath;
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(this.context.globalStorageUri, 'emulator'));
    return { port: config.get<number>('emulator.port') ?? 0, seed: config.get<'demo' | 'empty'>('emulator.seed') ?? 'demo', dataDir, tenantLimits: config.get<boolean>('emulator.tenantLimits') ?? false };
  }

  /** The local emulator's origin, started if it is not running, without switching the connection to it (the probe's compare). */
  private async emulatorOrigin(token: vscode.CancellationToken): Promise<string> {
    return this.emulator.url ?? this.emulator.start(await this.emulatorStartOptions(), token);
  }

  private async startEmulatorOnce(port?: number): Promise<Session> {
    const options = { ...(await this.emulatorStartOptions()), ...(port !== undefined ? { port } : {}) };
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'DAM: starting the local emulator', cancellable: true },
      async (progress, token) => {
        progress.report({ message: 'first start loads the demo tenant…' });
        const origin = await this.emulator.start(options, token);
        progress.report({ message: `signing in at ${origin}` });
        const session = await this.connections.connect(EMULATOR_PROFILE_ID, { interactive: false, token });
        // Remembered for a reload: the emulator stops with the window, and comes back with it.
        await this.context.globalState.update(EMULATOR_WAS_RUNNING, true);
        return session;
      },
    );
  }

  private onEmulatorChanged(origin: string | undefined): void {
    void vscode.commands.executeCommand('setContext', ContextKeys.emulatorRunning, origin !== undefined);
    if (origin) {
      this.completeWalkthroughStep('startEmulator');
      this.profiles.setEphemeral(emulatorProfile(origin), EMULATOR_PROFILE_ID);
      // The emulator's client secret is public (emulator contract), but it still goes where secrets go.
      void this.profiles.setSecrets(EMULATOR_PROFILE_ID, { clientSecret: EMULATOR_CLIENT.clientSecret });
    } else {
      this.profiles.setEphemeral(undefined, EMULATOR_PROFILE_ID);
      // A stop that was asked for disconnects; one that was not has already been marked as failed.
      const state = this.connections.state;
      if (state.kind !== 'error' && this.connections.activeProfile()?.id === EMULATOR_PROFILE_ID) this.connections.disconnect();
    }
  }

  /**
   * Ticks a step of the Getting Started walkthrough (package.json `walkthroughs`). Its completion events alone miss
   * starts: VS Code's walkthrough service listens only once it exists (a window that never showed the Welcome page
   * creates it when the walkthrough opens), and it takes a context already true when it registers as seen, not done.
   * So the emulator started from the welcome view, a notification's button or a reload stayed unticked.
   */
  private completeWalkthroughStep(step: string): void {
    const id = `${this.context.extension.id}#gettingStarted#${step}`;
    Promise.resolve(vscode.commands.executeCommand('welcome.markStepComplete', id)).catch((err: unknown) => this.log.warn(`Walkthrough step ${step}: ${err instanceof Error ? err.message : String(err)}`));
  }

  /** The emulator went away on its own: the status bar says it stopped, and a notification says how, with Restart. */
  private async onEmulatorDied(exit: EmulatorExit): Promise<void> {
    const how = exit.signal ? `it was killed (${exit.signal})` : `it exited with code ${exit.code}`;
    const message = `The local emulator stopped unexpectedly: ${how}.`;
    this.connections.fail(EMULATOR_PROFILE_ID, message, 'emulatorStopped');
    const last = exit.lastLines.slice(-3).join(' ⏎ ');
    this.log.error(`${message}${exit.lastLines.length ? ` Its last output:\n${exit.lastLines.join('\n')}` : ''}`);
    const choice = await vscode.window.showErrorMessage(`DAM: ${message}${last ? ` Its last output: ${last}` : ''}`, 'Restart', 'Show Log');
    if (choice === 'Restart') await this.startEmulator().catch((err: unknown) => void vscode.window.showErrorMessage(`DAM: the emulator did not restart: ${err instanceof Error ? err.message : String(err)}`));
    else if (choice === 'Show Log') this.log.show();
  }

  /**
   * The connect wizard, then a test of the connection under a cancellable progress before anything is
   * saved. A failure says in words what went wrong and offers to edit the answers or try again.
   */
  async addConnection(start: WizardStart = {}): Promise<Session | undefined> {
    const { runConnectWizard } = await import('./connections/connectWizard.js');
    let answers = await runConnectWizard(new Set((await this.profiles.list()).map((p) => p.id)), start);
    for (;;) {
      const { profile } = answers;
      // Editing a saved profile: a secret left empty keeps the stored one.
      const secrets = start.editing ? { ...(await this.profiles.getSecrets(profile.id)), ...answers.secrets } : answers.secrets;
      try {
        const session = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: `DAM: testing the connection to ${profile.name}…`, cancellable: true },
          (_progress, token) => this.connections.connectNew(profile, secrets, { token }),
        );
        vscode.window.setStatusBarMessage(`DAM: connected to ${profile.name}`, 5000);
        return session;
      } catch (err) {
        if (!(err instanceof ConnectionError)) throw err;
        const choice = await vscode.window.showErrorMessage(
          `DAM: could not connect to ${profile.name}. ${err.message} Nothing was saved.`,
          'Edit…',
          'Try Again',
        );
        if (choice === 'Edit…') answers = await runConnectWizard(new Set((await this.profiles.list()).map((p) => p.id)), { ...start, previous: answers });
        else if (choice !== 'Try Again') return undefined;
      }
    }
  }

  /** Connects to a saved profile under a cancellable progress; a failure is explained and offers its fixes. */
  private async connectWithProgress(id: string, options: { askSecrets?: boolean } = {}): Promise<Session | undefined> {
    const profile = await this.profiles.get(id);
    try {
      return await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `DAM: connecting to ${profile?.name ?? id}`, cancellable: true },
        (_progress, token) => this.connections.connect(id, { interactive: true, askSecrets: options.askSecrets, token }),
      );
    } catch (err) {
      if (!(err instanceof ConnectionError)) throw err;
      void this.offerFixes(err);
      return undefined;
    }
  }

  /** Says why a saved connection failed and offers what can fix it: edit it, sign in again, or remove it. */
  private async offerFixes(err: ConnectionError): Promise<void> {
    const { profile, failure } = err;
    const actions = profile.kind === 'emulator' ? ['Sign In Again'] : ['Edit…', 'Sign In Again', 'Remove…'];
    const choice = await vscode.window.showErrorMessage(`DAM: could not connect to ${profile.name}. ${failure.message}`, ...actions);
    if (choice === 'Edit…') await this.editConnection(profile.id);
    else if (choice === 'Sign In Again') await this.connectWithProgress(profile.id, { askSecrets: ASK_AGAIN.has(failure.reason) });
    else if (choice === 'Remove…') await this.removeConnection(profile.id);
  }

  /** The wizard again, starting from a saved profile's answers; the result replaces it. */
  private async editConnection(id: string): Promise<Session | undefined> {
    const profile = await this.profiles.get(id);
    if (!profile) return undefined;
    return this.addConnection({ previous: { profile, secrets: {} }, editing: true });
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
    if (!this.emulator.running && !this.starting) items.push({ label: '$(play) Start local emulator', description: 'demo tenant, no account needed', run: () => this.startEmulator() });
    items.push({ label: '$(add) Connect to a tenant…', run: () => this.addConnection() });
    const pick = await vscode.window.showQuickPick(items, { title: 'DAM: switch connection', placeHolder: 'Choose the connection to use' });
    return pick?.run();
  }

  private async signIn(): Promise<Session | undefined> {
    const profile = this.connections.activeProfile() ?? (this.profiles.activeId ? await this.profiles.get(this.profiles.activeId) : undefined);
    if (!profile) return this.switchConnection();
    // The local emulator's client secret is published (emulator contract): after Sign Out, signing in again uses it
    // rather than asking a new user for a secret they were never given.
    if (profile.id === EMULATOR_PROFILE_ID && profile.kind === 'emulator') {
      await this.profiles.setSecrets(EMULATOR_PROFILE_ID, { clientSecret: EMULATOR_CLIENT.clientSecret });
      return this.connectWithProgress(profile.id, { askSecrets: false });
    }
    // After the server refused the secret, signing in again asks for it rather than sending it once more.
    const state = this.connections.state;
    const askSecrets = state.kind === 'error' && state.profile.id === profile.id && ASK_AGAIN.has(state.reason);
    return this.connectWithProgress(profile.id, { askSecrets });
  }

  private async removeConnection(id?: string): Promise<void> {
    const saved = (await this.profiles.list()).filter((p) => p.kind !== 'emulator');
    let target = id ? saved.find((p) => p.id === id) : undefined;
    if (id && target) {
      const confirm = await vscode.window.showWarningMessage(`Remove the connection ${target.name} and its secrets?`, { modal: true }, 'Remove');
      if (confirm !== 'Remove') return;
    } else {
      const pick = await vscode.window.showQuickPick(
        saved.map((p) => ({ label: p.name, description: p.endpoints.core, id: p.id })),
        { title: 'DAM: remove connection', placeHolder: 'The profile and its secrets are removed' },
      );
      target = pick && saved.find((p) => p.id === pick.id);
    }
    if (!target) return;
    if (this.connections.activeProfile()?.id === target.id) this.connections.disconnect();
    await this.profiles.remove(target.id);
    this.log.info(`Removed connection ${target.name}`);
  }

  api(timings: ActivationTimings): DamApi {
    return { profiles: this.profiles, connections: this.connections, emulator: this.emulator, log: this.log, explorer: this.explorer, analytics: this.analytics, query: this.query, tasks: this.tasks, findings: this.findings, files: this.files, inspector: this.inspector, records: this.records, timings, activationMs: timings.activationMs };
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
