// Connection profiles live in the `dam.connections` setting; their secrets only in SecretStorage.
import * as vscode from 'vscode';
import type { Profile, ProfileSecrets } from '../../api/profile';
import { SECTION } from '../commandIds';
import { loadSession } from './lazySession';
import type { SecretVault, StoredToken } from './secretVault';

const ACTIVE_KEY = 'dam.activeConnection';
const SECRET_KINDS = ['clientSecret', 'password', 'token'] as const;
type SecretKind = (typeof SECRET_KINDS)[number];

export type { StoredToken };

export class ProfileStore implements SecretVault, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly listener: vscode.Disposable;
  /** Profiles that exist only while their source runs (the local emulator). */
  private readonly ephemeral = new Map<string, Profile>();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
    private readonly onInvalid: (message: string) => void = () => undefined,
  ) {
    this.listener = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.connections`)) this.changed.fire();
    });
  }

  /** The profile schema, loaded on first use: zod is not needed to activate the extension. */
  private async schema() {
    return loadSession().ProfileSchema;
  }

  /** Saved profiles (invalid entries are reported and skipped), then ephemeral ones. */
  async list(): Promise<Profile[]> {
    const ProfileSchema = await this.schema();
    const raw = vscode.workspace.getConfiguration(SECTION).get<unknown[]>('connections') ?? [];
    const saved: Profile[] = [];
    for (const entry of raw) {
      const parsed = ProfileSchema.safeParse(entry);
      if (parsed.success) saved.push(parsed.data);
      else this.onInvalid(`Ignoring an invalid entry in dam.connections: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    }
    return [...saved.filter((p) => !this.ephemeral.has(p.id)), ...this.ephemeral.values()];
  }

  async get(id: string): Promise<Profile | undefined> {
    return (await this.list()).find((p) => p.id === id);
  }

  /** Adds or replaces a saved profile in the user settings. */
  async save(profile: Profile): Promise<void> {
    const valid = (await this.schema()).parse(profile);
    const config = vscode.workspace.getConfiguration(SECTION);
    const raw = (config.inspect<unknown[]>('connections')?.globalValue ?? []).filter(
      (entry) => !(entry && typeof entry === 'object' && (entry as { id?: unknown }).id === valid.id),
    );
    await config.update('connections', [...raw, valid], vscode.ConfigurationTarget.Global);
  }

  /** Profiles built by the extension itself (trusted, so not validated). */
  setEphemeral(profile: Profile | undefined, id: string): void {
    if (profile) this.ephemeral.set(id, profile);
    else this.ephemeral.delete(id);
    this.changed.fire();
  }

  async remove(id: string): Promise<void> {
    const config = vscode.workspace.getConfiguration(SECTION);
    const raw = config.inspect<unknown[]>('connections')?.globalValue ?? [];
    const kept = raw.filter((entry) => !(entry && typeof entry === 'object' && (entry as { id?: unknown }).id === id));
    if (kept.length !== raw.length) await config.update('connections', kept, vscode.ConfigurationTarget.Global);
    await this.deleteSecrets(id);
    if (this.activeId === id) await this.setActiveId(undefined);
  }

  get activeId(): string | undefined {
    return this.state.get<string>(ACTIVE_KEY);
  }

  async setActiveId(id: string | undefined): Promise<void> {
    await this.state.update(ACTIVE_KEY, id);
  }

  async getSecrets(id: string): Promise<ProfileSecrets> {
    const [clientSecret, password] = await Promise.all([this.secret(id, 'clientSecret'), this.secret(id, 'password')]);
    return { clientSecret, password };
  }

  async setSecrets(id: string, secrets: ProfileSecrets): Promise<void> {
    if (secrets.clientSecret !== undefined) await this.secrets.store(key(id, 'clientSecret'), secrets.clientSecret);
    if (secrets.password !== undefined) await this.secrets.store(key(id, 'password'), secrets.password);
  }

  async getToken(id: string): Promise<StoredToken | undefined> {
    const raw = await this.secret(id, 'token');
    if (!raw) return undefined;
    try {
      const parsed = JSON.parse(raw) as StoredToken;
      return typeof parsed.accessToken === 'string' && typeof parsed.expiresAt === 'number' ? parsed : undefined;
    } catch {
      return undefined;
    }
  }

  async setToken(id: string, token: StoredToken | undefined): Promise<void> {
    if (token) await this.secrets.store(key(id, 'token'), JSON.stringify(token));
    else await this.secrets.delete(key(id, 'token'));
  }

  async deleteSecrets(id: string): Promise<void> {
    await Promise.all(SECRET_KINDS.map((kind) => this.secrets.delete(key(id, kind))));
  }

  private secret(id: string, kind: SecretKind): Thenable<string | undefined> {
    return this.secrets.get(key(id, kind));
  }

  dispose(): void {
    this.listener.dispose();
    this.changed.dispose();
  }
}

function key(id: string, kind: SecretKind): string {
  return `dam.connection/${id}/${kind}`;
}
