// Create Renditions: presets from the tenant's `.renditionPreset` setting, records from the tree's selection
// (or typed ids), one CreateRenditions maintenance job, its status followed in a notification, and the new
// renditions revealed in the tree when it ends.
import * as vscode from 'vscode';
import type { DamClient } from '../../api/client';
import type { MaintenanceJob } from '../../api/files';
import type { RenditionPreset } from '../../api/schemas';
import { Commands } from '../commandIds';
import type { ConnectionManager } from '../connections/connectionManager';
import type { Explorer } from '../explorer/explorer';
import { renditionFileName, type ExplorerNode } from '../explorer/nodes';
import type { DamLog } from '../log';
import { count } from '../plural';
import { pickRecord } from '../explorer/recordPicker';

export interface RenditionArgs {
  recordIds?: string[];
  presets?: string[];
  /** Stops following the job, as the notification's Cancel does (tests). */
  token?: vscode.CancellationToken;
}

export interface RenditionOutcome {
  job: MaintenanceJob;
  /** Job still running when the user stopped following it. */
  stoppedWaiting: boolean;
  /** The renditions each record's newest master version has afterwards. */
  revealed: { recordId: string; versionId: string; renditions: ExplorerNode[] }[];
  failedTargets: { recordId: string; message: string }[];
}

type Rec = Extract<ExplorerNode, { kind: 'record' }>;

export class RenditionsCommand {
  constructor(
    private readonly connections: ConnectionManager,
    private readonly explorer: Explorer,
    private readonly log: DamLog,
  ) {}

  async run(first?: unknown, second?: unknown): Promise<RenditionOutcome | undefined> {
    const client = this.connections.session?.client;
    if (!client) throw new Error('Not connected to a DAM tenant: run "DAM: Switch Connection" or "DAM: Start Local Emulator" first.');
    const args: RenditionArgs = isArgs(first) ? first : {};
    const nodes = isArgs(first) ? [] : selectedNodes(first, second, this.explorer.view.selection);
    const recordNodes = new Map<string, Rec | undefined>();
    for (const n of nodes) {
      if (n.kind === 'record') recordNodes.set(n.id, n);
      else if ((n.kind === 'file' || n.kind === 'version') && !recordNodes.has(n.recordId)) recordNodes.set(n.recordId, undefined);
    }
    let recordIds = args.recordIds ?? [...recordNodes.keys()];
    if (recordIds.length === 0) {
      // By words of its title (several records: select them in the DAM Explorer and use its context menu).
      const picked = await pickRecord(client, { title: 'DAM: create renditions for', placeholder: "Words of the record's title (for several, select them in the DAM Explorer)" });
      if (!picked) return undefined;
      recordIds = [picked.id];
    }
    const presets = args.presets ?? (await this.askPresets(client, recordIds.length));
    if (!presets?.length) return undefined;

    const outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `DAM: renditions (${presets.join(', ')}) for ${recordIds.length} record${recordIds.length === 1 ? '' : 's'}`, cancellable: true },
      async (progress, token) => {
        const abort = new AbortController();
        const subs = [token.onCancellationRequested(() => abort.abort()), ...(args.token ? [args.token.onCancellationRequested(() => abort.abort())] : [])];
        try {
          progress.report({ message: 'submitting the maintenance job…' });
          const submitted = await client.files.createRenditions(recordIds, presets);
          let job = submitted;
          try {
            job = await client.files.waitForJob(submitted.id, {
              signal: abort.signal,
              onStatus: (j) => progress.report({ message: `${j.status}${j.targetsCount ? ` · ${count(j.targetsCount, 'record')}` : ''} (Cancel stops waiting; the service goes on)` }),
            });
          } catch (err) {
            if (!abort.signal.aborted) throw err;
            return { job, stoppedWaiting: true };
          }
          return { job, stoppedWaiting: false };
        } finally {
          subs.forEach((d) => d.dispose());
        }
      },
    );
    const { job } = outcome;
    // The job's id is for the log; people are told what was made, of which records.
    this.log.info(`Maintenance job ${job.id} (CreateRenditions ${presets.join(', ')}) for ${recordIds.join(', ')}: ${job.status}`);
    if (outcome.stoppedWaiting) {
      void vscode.window.showInformationMessage('DAM: stopped waiting for the renditions; the service goes on making them. Refresh the records later to see them.');
      return { ...outcome, revealed: [], failedTargets: [] };
    }
    const failedTargets = failedTargetsOf(job);
    const okIds = recordIds.filter((id) => !failedTargets.some((f) => f.recordId === id));
    const revealed = okIds.length ? await this.reveal(okIds, recordNodes) : [];
    const made = revealed.map((r) => ({ ...r, renditions: r.renditions.filter((n) => n.kind === 'rendition' && presets.includes(n.rendition.preset ?? '')) }));
    if (/^success$/i.test(job.status)) {
      void this.announce(made, presets);
    } else {
      const titles = await this.titlesOf(failedTargets.slice(0, 5).map((f) => f.recordId), recordNodes);
      const names = failedTargets.slice(0, 5).map((f) => `${titles.get(f.recordId) ?? `record ${f.recordId}`}: ${f.message}`).join('; ');
      this.log.warn(`Maintenance job ${job.id} ended ${job.status}: ${names || job.message || 'no details'}`);
      void vscode.window.showErrorMessage(
        `DAM: the renditions (${presets.join(', ')}) ${/partial/i.test(job.status) ? 'were made only in part' : 'were not made'}${failedTargets.length ? ` — ${count(failedTargets.length, 'record')} failed: ${names}${failedTargets.length > 5 ? '; …' : ''}` : job.message ? ` — ${job.message}` : ''}. Check the presets suit those files and try again.`,
      );
    }
    return { job, stoppedWaiting: false, revealed, failedTargets };
  }

  /** Says what was made, by record title and file name, and offers to open it. */
  private async announce(made: RenditionOutcome['revealed'], presets: string[]): Promise<void> {
    const files = made.flatMap((m) => m.renditions.map((n) => ({ record: m, node: n })));
    const titles = await this.titlesOf(made.map((m) => m.recordId), new Map());
    const nameOf = (n: ExplorerNode) => (n.kind === 'rendition' ? renditionFileName(n.rendition) : '');
    const perRecord = made
      .slice(0, 3)
      .map((m) => `“${titles.get(m.recordId) ?? m.recordId}”: ${m.renditions.map(nameOf).join(', ') || 'none yet'}`)
      .join('; ');
    const more = made.length > 3 ? `; and ${count(made.length - 3, 'more record')}` : '';
    const message = `DAM: made ${count(files.length, 'rendition')} (${presets.join(', ')}) — ${perRecord}${more}. They are selected in the DAM Explorer.`;
    const first = files[0];
    const choice = await vscode.window.showInformationMessage(message, ...(first ? [`Open ${nameOf(first.node)}`] : []));
    if (choice && first) await vscode.commands.executeCommand(Commands.explorerOpenPreview, first.node);
  }

  /** Record titles by id: from the tree's nodes when it has them, else read (a few at most). */
  private async titlesOf(ids: string[], known: Map<string, Rec | undefined>): Promise<Map<string, string>> {
    const client = this.connections.session?.client;
    const out = new Map<string, string>();
    await Promise.all(
      ids.map(async (id) => {
        const node = known.get(id);
        const title = node ? node.record.title : await client?.records.get(id).then((r) => r.title, () => undefined);
        if (title) out.set(id, title);
      }),
    );
    return out;
  }

  private async askPresets(client: DamClient, count: number): Promise<string[] | undefined> {
    const presets = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'DAM: reading rendition presets' }, () => client.renditionPresets());
    if (presets.length === 0) throw new Error('The tenant has no rendition presets: add entries to the .renditionPreset setting first.');
    const picks = await vscode.window.showQuickPick(
      presets.map((p) => ({ label: p.name, description: presetDescription(p), detail: presetDetail(p), picked: false })),
      { title: `DAM: rendition presets for ${count} record${count === 1 ? '' : 's'}`, canPickMany: true, placeHolder: 'Pick one or more presets', ignoreFocusOut: true },
    );
    return picks?.map((p) => p.label);
  }

  /** Redraws each record and walks to its newest master version's renditions, revealing the first record's. */
  private async reveal(recordIds: string[], known: Map<string, Rec | undefined>): Promise<RenditionOutcome['revealed']> {
    const provider = this.explorer.provider;
    const out: RenditionOutcome['revealed'] = [];
    for (const id of recordIds.slice(0, 20)) {
      provider.refreshRecord(id);
      let record: Rec | undefined = known.get(id);
      if (!record) {
        const results = await provider.find(`Id = ${id}`);
        record = results ? (await provider.getChildren(results)).find((n): n is Rec => n.kind === 'record') : undefined;
      }
      if (!record) continue;
      const files = await provider.getChildren(record);
      const master = files.find((n) => n.kind === 'file' && n.file.isMaster) ?? files.find((n) => n.kind === 'file');
      if (!master) continue;
      const versions = await provider.getChildren(master);
      const latest = versions.find((n) => n.kind === 'version');
      if (!latest) continue;
      const renditions = (await provider.getChildren(latest)).filter((n) => n.kind === 'rendition');
      out.push({ recordId: id, versionId: latest.id, renditions });
      if (out.length === 1) {
        const target = renditions[0] ?? latest;
        await this.explorer.view.reveal(target, { select: true, focus: false, expand: true }).then(undefined, (err: unknown) => this.log.warn(`Reveal: ${String(err)}`));
      }
    }
    return out;
  }
}

function presetDescription(p: RenditionPreset): string {
  const size = typeof p.size === 'number' ? ` · ${p.size}px` : '';
  return `${p.format ?? 'format not set'}${size}`;
}

function presetDetail(p: RenditionPreset): string {
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String).join(', ') : typeof v === 'string' ? v : '');
  const usages = list(p.usages);
  const ai = list(p.aiActions);
  return [usages ? `usages: ${usages}` : 'no usages', ai ? `AI action: ${ai}` : 'no AI action'].join(' · ');
}

function failedTargetsOf(job: MaintenanceJob): { recordId: string; message: string }[] {
  return (job.errors ?? []).map((e) => {
    const o = (e ?? {}) as { recordId?: unknown; target?: { recordId?: unknown }; message?: unknown };
    return { recordId: String(o.recordId ?? o.target?.recordId ?? '?'), message: typeof o.message === 'string' ? o.message : JSON.stringify(e) };
  });
}

function isArgs(v: unknown): v is RenditionArgs {
  return typeof v === 'object' && v !== null && !('kind' in v) && ('recordIds' in v || 'presets' in v || 'token' in v);
}

function selectedNodes(first: unknown, second: unknown, selection: readonly ExplorerNode[]): ExplorerNode[] {
  if (Array.isArray(second) && second.length) return second as ExplorerNode[];
  if (first && typeof first === 'object' && 'kind' in first) return [first as ExplorerNode];
  return [...selection];
}
