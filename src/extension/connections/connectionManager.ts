// Owns the active connection: which profile is active, its signed-in client, and the state the UI shows.
import * as vscode from 'vscode';
import type { Profile, ProfileSecrets } from '../../api/profile';
import { Commands, ContextKeys, SECTION } from '../commandIds';
import type { DamLog } from '../log';
import type { AuthUriHandler } from './authUriHandler';
import { describeConnectionFailure, type ConnectionFailure, type FailureReason } from './failure';
import type { ProfileStore } from './profileStore';
import { loadSession } from './lazySession';
import type { Session } from './session';
import type { SecretVault, StoredToken } from './secretVault';

export type ConnectionState =
  | { kind: 'none' }
  | { kind: 'connecting'; profile: Profile }
  | { kind: 'connected'; profile: Profile; session: Session }
  /** `reason` says what went wrong when signing in failed (a refused secret asks for it again). */
  | { kind: 'error'; profile: Profile; message: string; reason?: FailureReason };

/** A sign-in that failed, with the reason in words (`message`) and the original error as its cause. */
export class ConnectionError extends Error {
  override readonly name = 'ConnectionError';

  constructor(
    readonly profile: Profile,
    readonly failure: ConnectionFailure,
    cause: unknown,
  ) {
    super(failure.message, { cause });
  }
}

/** Secrets of a connection being tried: kept in memory, so nothing is stored unless it works. */
class TrialVault implements SecretVault {
  token: StoredToken | undefined;

  constructor(readonly secrets: ProfileSecrets) {}

  async getSecrets(): Promise<ProfileSecrets> {
    return { ...this.secrets };
  }

  async setSecrets(_id: string, secrets: ProfileSecrets): Promise<void> {
    Object.assign(this.secrets, secrets);
  }

  async getToken(): Promise<StoredToken | undefined> {
    return this.token;
  }

  async setToken(_id: string, token: StoredToken | undefined): Promise<void> {
    this.token = token;
  }
}

/** How long background reads of a new connection wait for the DAM Explorer's first rows at most. */
const FIRST_ROWS_WAIT_MS = 3_000;

export class ConnectionManager implements vscode.Disposable {
  private current: ConnectionState = { kind: 'none' };
  private readonly changed = new vscode.EventEmitter<ConnectionState>();
  readonly onDidChange = this.changed.event;
  /** Increases with every connect, so a slow sign-in never overwrites a newer choice. */
  private generation = 0;
  /** The first rows the user sees on the current connection: background reads wait for them (afterFirstRows). */
  private firstRows?: { session: Session; shown: Promise<void>; show(): void };

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

  /** The session, for a command that cannot do anything without one: throws the words a user reads when there is none. */
  requireSession(): Session {
    const session = this.session;
    if (!session) throw new Error('Not connected: start the local emulator or connect to a tenant first.');
    return session;
  }

  /**
   * Connects to a profile and makes it the active one. Resolves with the session; rejects with a
   * ConnectionError saying in words what went wrong (or a CancellationError).
   */
  async connect(profileId: string, options: { interactive?: boolean; askSecrets?: boolean; token?: vscode.CancellationToken } = {}): Promise<Session> {
    const profile = await this.store.get(profileId);
    if (!profile) throw new Error(`There is no connection named '${profileId}'.`);
    const generation = ++this.generation;
    await this.store.setActiveId(profile.id);
    this.setState({ kind: 'connecting', profile });
    try {
      // The client, its schemas and zod load with the first connection, not at activation.
      const { openSession } = loadSession();
      const session = await openSession({ profile, store: this.store, log: this.log, uriHandler: this.uriHandler, interactive: options.interactive ?? true, askSecrets: options.askSecrets, token: options.token });
      if (generation !== this.generation) {
        session.dispose();
        throw new vscode.CancellationError();
      }
      this.setState({ kind: 'connected', profile, session });
      this.log.info(`Connected to ${profile.name} (${profile.endpoints.core})`);
      return session;
    } catch (err) {
      const cancelled = err instanceof vscode.CancellationError;
      const failure = cancelled ? undefined : this.failureOf(err, profile);
      if (generation === this.generation) {
        this.setState({ kind: 'error', profile, message: failure?.message ?? 'sign-in cancelled', reason: failure?.reason });
        this.log.warn(`Could not connect to ${profile.name}: ${this.log.scrub(err instanceof Error ? err.message : String(err))}`);
      }
      throw failure ? new ConnectionError(profile, failure, err) : err;
    }
  }

  /**
   * Signs in with a profile that is not saved yet. Nothing is stored and the active connection stays as it
   * is unless the sign-in works; then the profile and its secrets are saved and it becomes the active one.
   */
  async connectNew(profile: Profile, secrets: ProfileSecrets, options: { token?: vscode.CancellationToken } = {}): Promise<Session> {
    const vault = new TrialVault({ ...secrets });
    let session: Session;
    try {
      const { openSession } = loadSession();
      session = await openSession({ profile, store: vault, log: this.log, uriHandler: this.uriHandler, interactive: true, token: options.token });
    } catch (err) {
      if (err instanceof vscode.CancellationError) throw err;
      this.log.warn(`The connection ${profile.name} did not work and was not saved: ${this.log.scrub(err instanceof Error ? err.message : String(err))}`);
      throw new ConnectionError(profile, this.failureOf(err, profile), err);
    }
    if (options.token?.isCancellationRequested) {
      session.dispose();
      throw new vscode.CancellationError();
    }
    await this.store.save(profile);
    await this.store.setSecrets(profile.id, vault.secrets);
    if (vault.token) await this.store.setToken(profile.id, vault.token);
    this.generation++;
    await this.store.setActiveId(profile.id);
    this.setState({ kind: 'connected', profile, session });
    this.log.info(`Connected to ${profile.name} (${profile.endpoints.core}); the connection is saved.`);
    return session;
  }

  private failureOf(err: unknown, profile: Profile): ConnectionFailure {
    const failure = describeConnectionFailure(err, profile, vscode.workspace.getConfiguration(SECTION).get<number>('requestTimeoutSeconds'));
    return { ...failure, message: this.log.scrub(failure.message) };
  }

  /** Marks the active connection as failed (its service went away), if it is `profileId`'s. */
  fail(profileId: string, message: string, reason: FailureReason): void {
    const profile = this.activeProfile();
    if (profile?.id !== profileId) return;
    this.generation++;
    this.setState({ kind: 'error', profile, message, reason });
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

  /**
   * Resolves once the DAM Explorer has its first rows on the current connection, or after FIRST_ROWS_WAIT_MS (the view
   * may be hidden). Background reads of a new connection (the query schema's refresh) start then: started at once, they
   * held its only warm connection, and the rows the user waits for paid a new connection's handshake.
   */
  afterFirstRows(): Promise<void> {
    return this.firstRows?.shown ?? Promise.resolve();
  }

  /** The DAM Explorer showed its first rows (or failed to) on the current connection. */
  firstRowsShown(): void {
    this.firstRows?.show();
  }

  private setState(state: ConnectionState): void {
    if (this.current.kind === 'connected' && (state.kind !== 'connected' || state.session !== this.current.session)) this.current.session.dispose();
    if (state.kind === 'connected' && this.firstRows?.session !== state.session) {
      let show!: () => void;
      const shown = new Promise<void>((resolve) => (show = resolve));
      const timer = setTimeout(show, FIRST_ROWS_WAIT_MS);
      this.firstRows = { session: state.session, shown, show: () => (clearTimeout(timer), show()) };
    } else if (state.kind !== 'connected') {
      this.firstRows?.show();
      this.firstRows = undefined;
    }
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
