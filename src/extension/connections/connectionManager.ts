// Owns the active connection: which profile is active, its signed-in client, and the state the UI shows.
import * as vscode from 'vscode';
import type { Profile } from '../../api/profile';
import { Commands, ContextKeys } from '../commandIds';
import type { DamLog } from '../log';
import type { AuthUriHandler } from './authUriHandler';
import type { ProfileStore } from './profileStore';
import { loadSession } from './lazySession';
import type { Session } from './session';

export type ConnectionState =
  | { kind: 'none' }
  | { kind: 'connecting'; profile: Profile }
  | { kind: 'connected'; profile: Profile; session: Session }
  | { kind: 'error'; profile: Profile; message: string };

export class ConnectionManager implements vscode.Disposable {
  private current: ConnectionState = { kind: 'none' };
  private readonly changed = new vscode.EventEmitter<ConnectionState>();
  readonly onDidChange = this.changed.event;
  /** Increases with every connect, so a slow sign-in never overwrites a newer choice. */
  private generation = 0;

  constructor(
    private readonly store: ProfileStore,
    private readonly log: DamLog,
    private readonly uriHandler: AuthUriHandler,
  ) {}

  get state(): ConnectionState {
    return this.current;
  }

  get session(): Session | undefined {
    return this.current.kind === 'connected' ? this.current.session : undefined;
  }

  /** Connects to a profile and makes it the active one. Resolves with the session, rejects with a readable error. */
  async connect(profileId: string, options: { interactive?: boolean; token?: vscode.CancellationToken } = {}): Promise<Session> {
    const profile = await this.store.get(profileId);
    if (!profile) throw new Error(`There is no connection named '${profileId}'.`);
    const generation = ++this.generation;
    await this.store.setActiveId(profile.id);
    this.setState({ kind: 'connecting', profile });
    try {
      // The client, its schemas and zod load with the first connection, not at activation.
      const { openSession } = loadSession();
      const session = await openSession({ profile, store: this.store, log: this.log, uriHandler: this.uriHandler, interactive: options.interactive ?? true, token: options.token });
      if (generation !== this.generation) {
        session.dispose();
        throw new vscode.CancellationError();
      }
      this.setState({ kind: 'connected', profile, session });
      this.log.info(`Connected to ${profile.name} (${profile.endpoints.core})`);
      return session;
    } catch (err) {
      if (generation === this.generation) {
        const message = err instanceof vscode.CancellationError ? 'sign-in cancelled' : err instanceof Error ? err.message : String(err);
        this.setState({ kind: 'error', profile, message: this.log.scrub(message) });
        this.log.warn(`Could not connect to ${profile.name}: ${message}`);
      }
      throw err;
    }
  }

  /** Drops the active session without forgetting anything. */
  disconnect(): void {
    this.generation++;
    this.setState({ kind: 'none' });
  }

  /** Forgets the active profile's secrets and tokens; the profile itself stays. */
  async signOut(): Promise<void> {
    const profile = this.activeProfile();
    if (!profile) return;
    await this.store.deleteSecrets(profile.id);
    this.generation++;
    this.setState({ kind: 'error', profile, message: 'signed out' });
    this.log.info(`Signed out of ${profile.name}; its secrets were removed from secret storage.`);
  }

  private prompting = false;

  /** Asks once (not once per failed request) whether to sign in again after a 401. */
  async promptSignIn(): Promise<void> {
    const profile = this.activeProfile();
    if (!profile || this.prompting) return;
    this.prompting = true;
    try {
      const choice = await vscode.window.showWarningMessage(`DAM: the sign-in to ${profile.name} was refused or has expired.`, 'Sign In Again');
      if (choice) await vscode.commands.executeCommand(Commands.signIn);
    } finally {
      this.prompting = false;
    }
  }

  activeProfile(): Profile | undefined {
    return this.current.kind === 'none' ? undefined : this.current.profile;
  }

  private setState(state: ConnectionState): void {
    if (this.current.kind === 'connected' && (state.kind !== 'connected' || state.session !== this.current.session)) this.current.session.dispose();
    this.current = state;
    void vscode.commands.executeCommand('setContext', ContextKeys.state, state.kind === 'none' ? 'disconnected' : state.kind);
    void vscode.commands.executeCommand('setContext', ContextKeys.connectionName, state.kind === 'none' ? '' : state.profile.name);
    void vscode.commands.executeCommand('setContext', ContextKeys.hasConnection, state.kind !== 'none');
    this.changed.fire(state);
  }

  dispose(): void {
    if (this.current.kind === 'connected') this.current.session.dispose();
    this.changed.dispose();
  }
}
