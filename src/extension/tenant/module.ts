// The tenant configuration commands' module (dist/tenant.js, loaded on first use).
// DAM: Pull Tenant Configuration… writes the connected tenant's configuration into a folder (as `dam tenant pull`);
// DAM: Compare Tenant Configuration with a Folder… opens the folder beside the tenant as a diff, with the
// differences in words in the DAM log. The folder's format and the comparison are src/core/tenant's.
// DAM: Compare the Emulator with This Tenant… probes both (src/core/probe) and opens the differences as a report.
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { PULL_RECORD_FILE, diffConfigs, fromFiles, isPulledFieldFile, localEdits, localEditsWords, pullRecordText, toFiles, type TenantConfig } from '../../core/tenant';
import { pullTenant } from '../../api/tenant';
import { runProbe } from '../../api/probe';
import { DamClient } from '../../api/client';
import { EMULATOR_CLIENT, emulatorProfile } from '../../api/endpoints';
import { compareProbes, comparisonReport, probeRoutes, type Comparison } from '../../core/probe';
import { userAgent } from '../connections/session';
import type { ConnectionManager } from '../connections/connectionManager';
import type { Session } from '../connections/session';
import type { DamLog } from '../log';
import { ProbeProgress } from './probeProgress';

const SCHEME = 'dam-tenant';

/**
 * Both sides of a comparison as one text each, served read-only: one JSON object of every file of the folder by its
 * path. Plain JSON, so VS Code's JSON language service reports nothing in the Problems panel (files joined under
 * `// path` comments were "Comments are not permitted in JSON" and "End of file expected"), and without each file's
 * `$schema`, which points into the folder's `.schema/` and cannot load from here (both sides carry the same one).
 */
export function comparisonText(config: TenantConfig): string {
  const files = [...toFiles(config)].filter(([path]) => !path.startsWith('.schema/')).sort(([a], [b]) => (a < b ? -1 : 1));
  const byPath = files.map(([path, body]) => {
    const value = JSON.parse(body) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) delete (value as Record<string, unknown>).$schema;
    return [path, value] as const;
  });
  return `${JSON.stringify(Object.fromEntries(byPath), null, 2)}\n`;
}

class ComparisonDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private next = 0;
  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
  add(label: string, config: TenantConfig): vscode.Uri {
    return this.addText(`${label}.json`, comparisonText(config));
  }
  /** A read-only document (the language from the name's extension): nothing to save, no question on close. */
  addText(fileName: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${fileName.replace(/[^\w.-]+/g, '-')}`, query: String(this.next++) });
    this.texts.set(uri.toString(), text);
    return uri;
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Every file of the folder (none when it does not exist yet), except inside dot-folders. */
async function readFolderIfAny(dir: vscode.Uri): Promise<Map<string, string>> {
  try {
    return await readFolder(dir);
  } catch (err) {
    if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return new Map();
    throw err;
  }
}

async function readFolder(dir: vscode.Uri): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (at: vscode.Uri, prefix: string) => {
    for (const [name, type] of await vscode.workspace.fs.readDirectory(at)) {
      const child = vscode.Uri.joinPath(at, name);
      if (type === vscode.FileType.Directory) {
        if (!name.startsWith('.')) await walk(child, `${prefix}${name}/`);
      } else if (type === vscode.FileType.File) files.set(`${prefix}${name}`, new TextDecoder().decode(await vscode.workspace.fs.readFile(child)));
    }
  };
  await walk(dir, '');
  return files;
}

export class TenantModule implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly documents = new ComparisonDocuments();

  constructor(
    private readonly connections: ConnectionManager,
    private readonly log: DamLog,
    private readonly emulatorOrigin: (token: vscode.CancellationToken) => Promise<string>,
  ) {
    this.disposables.push(vscode.workspace.registerTextDocumentContentProvider(SCHEME, this.documents));
  }

  private session(): Session {
    const session = this.connections.session;
    if (!session) throw new Error('Not connected to a DAM tenant: start the local emulator or connect to a tenant first (DAM: Switch Connection).');
    return session;
  }

  private async pickFolder(title: string, openLabel: string): Promise<vscode.Uri | undefined> {
    const picked = await vscode.window.showOpenDialog({ canSelectFiles: false, canSelectFolders: true, canSelectMany: false, title, openLabel, defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri });
    return picked?.[0];
  }

  /** Reads the tenant with progress and cancel; undefined when cancelled. */
  private async pullWithProgress(session: Session, title: string) {
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
      const abort = new AbortController();
      const stop = token.onCancellationRequested(() => abort.abort());
      try {
        return await pullTenant(session.client, { signal: abort.signal, onProgress: (message) => progress.report({ message }) });
      } catch (err) {
        if (token.isCancellationRequested) return undefined;
        throw err;
      } finally {
        stop.dispose();
      }
    });
  }

  async pull(folder?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const session = this.session();
    const dir = folder ?? (await this.pickFolder(`Pull the configuration of ${session.profile.name} into a folder`, 'Pull Here'));
    if (!dir) return undefined;
    const result = await this.pullWithProgress(session, `Pulling the configuration of ${session.profile.name}`);
    if (!result) return undefined;
    const files = toFiles(result.config);
    const before = await readFolderIfAny(dir);
    // A file changed by hand since the last pull is not replaced without asking: the pull would lose the edit.
    const edits = localEdits(before, files, before.get(PULL_RECORD_FILE), sha256);
    if (edits.length) {
      const detail = edits.some((e) => e.kind === 'unrecorded')
        ? `The folder has no record of an earlier pull (${PULL_RECORD_FILE}), and the pull would overwrite or remove: ${localEditsWords(edits)}.`
        : `Changed by hand since the last pull: ${localEditsWords(edits)}.`;
      const replace = 'Replace Them';
      const choice = await vscode.window.showWarningMessage(
        `Pulling ${session.profile.name} would replace ${edits.length} file${edits.length === 1 ? '' : 's'} you changed in ${dir.fsPath}.`,
        { modal: true, detail: `${detail}\n\nKeep your edits elsewhere (or commit them) first, or replace them with the tenant's configuration.` },
        replace,
      );
      if (choice !== replace) {
        this.log.info(`Pull into ${dir.fsPath} cancelled: it would have replaced ${localEditsWords(edits, edits.length)}.`);
        return undefined;
      }
    }
    for (const [path, text] of files) {
      if (before.get(path) !== text) await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, path), new TextEncoder().encode(text));
    }
    // A field the tenant no longer has loses its file, so the folder is exactly the tenant.
    for (const path of before.keys()) if (isPulledFieldFile(path) && !files.has(path)) await vscode.workspace.fs.delete(vscode.Uri.joinPath(dir, path));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, PULL_RECORD_FILE), new TextEncoder().encode(pullRecordText(files, sha256)));
    for (const note of result.notes) this.log.warn(`Pull: ${note}`);
    const c = result.config;
    const summary = `Pulled ${c.fields.length} fields, ${c.classifications.length} classifications, ${c.languages.length} languages and ${c.checks.length} checks of ${session.profile.name} into ${dir.fsPath}.`;
    this.log.info(summary);
    void vscode.window.showInformationMessage(summary, 'Open tenant.json').then((choice) => {
      if (choice) void vscode.window.showTextDocument(vscode.Uri.joinPath(dir, 'tenant.json'));
    });
    return dir;
  }

  /** Opens the diff of a folder and the connected tenant; answers the differences in words (empty when none). */
  async compare(folder?: vscode.Uri): Promise<string[] | undefined> {
    const session = this.session();
    const dir = folder ?? (await this.pickFolder(`Compare a tenant folder with ${session.profile.name}`, 'Compare'));
    if (!dir) return undefined;
    const { config: fromFolder, problems } = fromFiles(await readFolder(dir));
    if (!fromFolder) {
      const lines = problems.map((p) => `${p.file}: ${p.message}`);
      for (const line of lines) this.log.warn(`Compare: ${line}`);
      throw new Error(`${dir.fsPath} is not a tenant folder: ${lines[0]}${lines.length > 1 ? ` (and ${lines.length - 1} more in the DAM log)` : ''}`);
    }
    const result = await this.pullWithProgress(session, `Reading the configuration of ${session.profile.name}`);
    if (!result) return undefined;
    const words = diffConfigs(fromFolder, result.config).map((d) => d.words);
    const left = this.documents.add('folder', fromFolder);
    const right = this.documents.add(session.profile.name, result.config);
    await vscode.commands.executeCommand('vscode.diff', left, right, `Tenant folder ↔ ${session.profile.name}`);
    this.log.info(words.length ? `Compare ${dir.fsPath} with ${session.profile.name}:\n  ${words.join('\n  ')}` : `${dir.fsPath} and ${session.profile.name} hold the same configuration.`);
    const message = words.length ? `${words.length} difference${words.length === 1 ? '' : 's'} between the folder and ${session.profile.name}: ${words.slice(0, 2).join('; ')}${words.length > 2 ? '; …' : ''}` : `The folder and ${session.profile.name} hold the same configuration.`;
    void vscode.window.showInformationMessage(message, ...(words.length ? ['Show All'] : [])).then((choice) => {
      if (choice) this.log.show();
    });
    return words;
  }

  /**
   * Probes the connected tenant and the local emulator with the same read requests (`dam tenant probe --compare`) and
   * opens the differences as a markdown report, which holds no values and can be attached to an issue. Answers the
   * comparison, or undefined when cancelled.
   */
  async compareWithEmulator(): Promise<Comparison | undefined> {
    const session = this.session();
    const name = session.profile.name;
    const comparison = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Comparing the emulator with ${name}`, cancellable: true },
      async (progress, token) => {
        const abort = new AbortController();
        const stop = token.onCancellationRequested(() => abort.abort());
        // Counts in words and a bar that fills, the tenant's half then the emulator's, rather than each request's route.
        const said = new ProbeProgress(progress);
        const tenantSide = { name: 'the tenant', share: 50 };
        const emulatorSide = { name: 'the local emulator', share: 50 };
        try {
          said.start(tenantSide);
          const tenant = await runProbe(session.client, { signal: abort.signal, onProgress: (done, total) => said.step(tenantSide, done, total) });
          said.finish(tenantSide);
          progress.report({ message: 'Reaching the local emulator (started if it is not running)…' });
          const origin = await this.emulatorOrigin(token);
          const emulator = new DamClient({ profile: emulatorProfile(origin), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, userAgent: userAgent() });
          const routes = probeRoutes(tenant);
          said.start(emulatorSide, routes.length);
          const local = await runProbe(emulator, { routes, signal: abort.signal, onProgress: (done, total) => said.step(emulatorSide, done, total) });
          said.finish(emulatorSide);
          said.comparing();
          return compareProbes(tenant, local, { first: 'tenant', second: 'emulator' });
        } catch (err) {
          if (token.isCancellationRequested) return undefined;
          throw err;
        } finally {
          stop.dispose();
        }
      },
    );
    if (!comparison) return undefined;
    const report = comparisonReport(comparison, { first: 'tenant', second: 'emulator' }, `Where the emulator differs from ${name}`);
    // Read-only, as the bulk update's dry run and report: an Untitled report asked to be saved when closed.
    const document = await vscode.workspace.openTextDocument(this.documents.addText(`emulator-vs-${name}.md`, report));
    await vscode.window.showTextDocument(document, { preview: false });
    this.log.info(`Compare the emulator with ${name}: ${comparison.differences.length} difference${comparison.differences.length === 1 ? '' : 's'}.`);
    return comparison;
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
