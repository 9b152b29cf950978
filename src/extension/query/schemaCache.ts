// The tenant's schema for completion and checks: field definitions (with option values), classification
// names and languages. Kept on disk per connection in global storage, so completion works offline and
// at the next start; refreshed in the background whenever a connection comes up.
import * as vscode from 'vscode';
import { z } from 'zod';
import { FIELD_DATA_TYPES, type FieldDataType, FieldSchemaSchema, type FieldSchema, type QuerySchema } from '../../core/search';
import type { ConnectionManager, ConnectionState } from '../connections/connectionManager';
import type { DamLog } from '../log';

const CachedSchemaSchema = z.object({
  version: z.literal(1),
  profileId: z.string(),
  fetchedAt: z.string(),
  fields: z.array(FieldSchemaSchema),
  classifications: z.array(z.string()),
  languages: z.array(z.object({ id: z.string(), name: z.string(), culture: z.string().optional() })),
  /** The tenant's content types (absent in caches written before they were read). */
  contentTypes: z.array(z.string()).optional(),
});
export type CachedSchema = z.infer<typeof CachedSchemaSchema>;

const LAST_PROFILE_KEY = 'dam.query.schemaProfile';

/** A real tenant may have many classifications; completion needs names, not the whole tree. */
const MAX_CLASSIFICATIONS = 5000;

export class SchemaCache implements vscode.Disposable {
  private cached: CachedSchema | undefined;
  private readonly changed = new vscode.EventEmitter<CachedSchema | undefined>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private refreshing: Promise<CachedSchema | undefined> | undefined;
  private profileId: string | undefined;

  constructor(
    private readonly storageUri: vscode.Uri,
    private readonly connections: ConnectionManager,
    private readonly log: DamLog,
    /** Remembers whose schema was last in use, so a start without a connection still completes field names. */
    private readonly memento: vscode.Memento,
  ) {
    this.disposables.push(connections.onDidChange((s) => void this.onConnection(s)));
    void this.onConnection(connections.state);
  }

  /** The schema the language core gets, or undefined before any connection was ever made. */
  get schema(): QuerySchema | undefined {
    return this.cached ? { fields: this.cached.fields, classifications: this.cached.classifications, languages: this.cached.languages, contentTypes: this.cached.contentTypes } : undefined;
  }

  get current(): CachedSchema | undefined {
    return this.cached;
  }

  /** Where the schema of a connection is kept. */
  fileFor(profileId: string): vscode.Uri {
    return vscode.Uri.joinPath(this.storageUri, 'query-schema', `${encodeURIComponent(profileId)}.json`);
  }

  private async onConnection(state: ConnectionState): Promise<void> {
    // Disconnected (or never connected since the start): keep using the schema of the last connection.
    const profileId = state.kind === 'none' ? (this.profileId ?? this.memento.get<string>(LAST_PROFILE_KEY)) : state.profile.id;
    if (profileId !== this.profileId) {
      this.profileId = profileId;
      const fromDisk = profileId ? await this.readDisk(profileId) : undefined;
      // A newer answer may have arrived while the disk was read.
      if (this.profileId === profileId && this.cached?.profileId !== profileId) this.set(fromDisk);
    }
    if (state.kind !== 'connected') return;
    // After the DAM Explorer's first rows: the schema's reads would hold the new connection's only warm socket.
    await this.connections.afterFirstRows();
    if (this.connections.session !== state.session) return;
    void this.refresh().catch((err) => this.log.warn(`Query schema refresh failed: ${err instanceof Error ? err.message : String(err)}`));
  }

  private async readDisk(profileId: string): Promise<CachedSchema | undefined> {
    try {
      const bytes = await vscode.workspace.fs.readFile(this.fileFor(profileId));
      const parsed = CachedSchemaSchema.safeParse(JSON.parse(new TextDecoder().decode(bytes)));
      if (!parsed.success) this.log.warn(`Ignoring the cached query schema of ${profileId}: ${parsed.error.issues[0]?.message}`);
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  private set(value: CachedSchema | undefined): void {
    this.cached = value;
    if (value) void this.memento.update(LAST_PROFILE_KEY, value.profileId);
    this.changed.fire(value);
  }

  /** Fetches the schema from the connected tenant and writes it to disk; one refresh at a time. */
  refresh(): Promise<CachedSchema | undefined> {
    this.refreshing ??= this.fetch().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async fetch(): Promise<CachedSchema | undefined> {
    const session = this.connections.session;
    if (!session) return undefined;
    const { client, profile } = session;
    const started = Date.now();
    const fields: FieldSchema[] = [];
    for await (const d of client.fieldDefinitions.items()) {
      const dataType = FIELD_DATA_TYPES.find((t) => t.toLowerCase() === (d.dataType ?? '').toLowerCase()) as FieldDataType | undefined;
      if (!d.name || !dataType) continue;
      const items = (d as { items?: unknown }).items;
      const options = Array.isArray(items)
        ? items.filter((o): o is { id?: string; name: string; label?: string } => !!o && typeof (o as { name?: unknown }).name === 'string').map((o) => ({ id: o.id, name: o.name, label: o.label ?? undefined }))
        : undefined;
      fields.push({ id: d.id, name: d.name, label: d.label ?? undefined, dataType, ...(options ? { options } : {}) });
    }
    const classifications = new Set<string>();
    for await (const c of client.classifications.items({ pageSize: 100 })) {
      for (const name of [c.name, c.namePath]) if (name) classifications.add(name);
      if (classifications.size >= MAX_CLASSIFICATIONS) break;
    }
    const languages: CachedSchema['languages'] = [];
    for await (const l of client.languages.items()) languages.push({ id: l.id, name: l.name ?? l.id, culture: l.culture ?? undefined });
    // Offered as values of ContentType; a tenant that does not list them still gets Image, Video and Document.
    const contentTypes: string[] = [];
    try {
      for await (const t of client.contentTypes.items()) if (t.name) contentTypes.push(t.name);
    } catch (err) {
      this.log.info(`Query schema of ${profile.name}: content types not read (${err instanceof Error ? err.message : String(err)})`);
    }
    const value: CachedSchema = { version: 1, profileId: profile.id, fetchedAt: new Date().toISOString(), fields, classifications: [...classifications], languages, contentTypes };
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(this.storageUri, 'query-schema'));
    await vscode.workspace.fs.writeFile(this.fileFor(profile.id), new TextEncoder().encode(JSON.stringify(value)));
    // Only the connection that asked may set it: the user may have switched meanwhile.
    if (this.connections.session?.profile.id === profile.id) this.set(value);
    this.log.info(`Query schema of ${profile.name}: ${fields.length} fields, ${classifications.size} classifications, ${languages.length} languages (${Date.now() - started} ms)`);
    return value;
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
