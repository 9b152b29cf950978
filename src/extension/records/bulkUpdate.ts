// DAM: Update Records Matching Query…: the user chooses one edit (set or clear a field, change status, add to or
// remove from a classification), sees the dry run (how many records, what changes on how many, which are refused and
// why), then the core's plan is run by the client's bulk runner under a cancellable progress, and a report (changed,
// unchanged, failed with reasons) can be shown and saved. One record's failure does not stop the others.
import * as vscode from 'vscode';
import type { DamClient } from '../../api/client';
import type { BulkReport } from '../../api/bulkRunner';
import type { LoadedPlan, TenantModel, UndoPlan, UpdateReport } from '../../api/records';
import {
  RECORD_STATUSES,
  coerceInput,
  describeChanges,
  describePlan,
  fieldKindWords,
  fieldLabels,
  fieldTitle,
  invertChangeSet,
  isListType,
  nameHelps,
  readOnlyReason,
  readUpdateReport,
  updateReportText,
  type BulkEdits,
  type FieldDefinitionInfo,
  type FieldLabels,
  type UndoRecord,
} from '../../core/records';
import type { ConnectionManager } from '../connections/connectionManager';
import type { ExplorerProvider } from '../explorer/explorerProvider';
import type { DamLog } from '../log';
import { count } from '../plural';
import { pickClassification } from './pickers';
import type { RecordDocuments } from './recordDocuments';

/** The search a bulk update covers. */
export interface BulkSource {
  expression: string;
  /** How the user knows it: the query's name, or the expression. */
  name: string;
}

export interface BulkOutcome {
  plan: LoadedPlan;
  /** Undefined when the user stopped at the dry run or nothing was to change. */
  report?: UpdateReport;
}

/** What an undo did: the runner's report and the records it left alone (changed or deleted since the update). */
export interface UndoOutcome {
  report: BulkReport;
  skipped: UndoPlan['skipped'];
}

/**
 * How a dialog names the query: by its text, with the query's own name (`# @name`) when it has one. The names the
 * query editor makes up for a section without one (`Query 2 (bulk.dam-query)`, `bulk.dam-query:7`) say nothing of
 * what it matches.
 */
export function queryLabel(source: BulkSource): string {
  const madeUp = source.name === source.expression || /^Query \d+ \(.*\)$|:\d+$/.test(source.name);
  return madeUp ? `“${source.expression}”` : `“${source.name}” (${source.expression})`;
}

const PREVIEW_SCHEME = 'dam-bulk-preview';

/** Dry runs shown as read-only documents (never a dirty untitled file a user is asked to save). */
class PreviewDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private next = 0;
  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
  add(name: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${name.replace(/[^\w .–-]+/g, '_').slice(0, 80)}.txt`, query: String(this.next++) });
    this.texts.set(uri.toString(), text);
    return uri;
  }
}

/** One block per record: its title and id, then each change as `field: old → new`, as `dam records update --dry-run` prints them. */
function previewLines(items: readonly { recordId: string; title?: string; lines: string[] }[]): string[] {
  return items.flatMap((i) => [`${i.title ?? ''} (${i.recordId})`, ...i.lines.map((l) => `    ${l}`)]);
}

export interface BulkOptions {
  /** The edit; asked for when absent. */
  edits?: BulkEdits;
  /** Decides on the dry run; the default asks in a modal dialog. */
  confirm?: (plan: LoadedPlan, lines: string[]) => Promise<boolean>;
}

/** Updates in flight at once: what the client's other bulk work uses; the runner lowers it to dam.maxConcurrentRequests (the connection's pacer). */
const CONCURRENCY = 4;

export class BulkUpdate {
  /** The last run's report with its query and edit (Save Report…, Undo This Update). */
  last: { source: BulkSource; edits: BulkEdits; dryRun: string[]; report: UpdateReport } | undefined;
  private readonly previews = new PreviewDocuments();
  private readonly registration: vscode.Disposable;

  constructor(
    private readonly connections: ConnectionManager,
    private readonly provider: ExplorerProvider,
    private readonly documents: RecordDocuments,
    private readonly log: DamLog,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, this.previews);
  }

  dispose(): void {
    this.registration.dispose();
  }

  private get client(): DamClient {
    return this.connections.requireSession().client;
  }

  async run(source: BulkSource, options: BulkOptions = {}): Promise<BulkOutcome | undefined> {
    const client = this.client;
    const model = await client.recordEdits.tenantModel();
    const edits = options.edits ?? (await this.askEdits(client, model, source));
    if (!edits) return undefined;
    const plan = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `DAM: dry run of the update on ${queryLabel(source)}: reading the records it matches…`, cancellable: true },
      (_progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        return client.recordEdits.plan({ expression: source.expression }, edits, { signal: abort.signal }).finally(() => sub.dispose());
      },
    );
    // Fields as the picker shows them (label, and the name only where the label hides it), not by name as the CLI does.
    const label = fieldLabels(model.definitions);
    const lines = describePlan(plan, label);
    this.log.info(`Dry run on ${queryLabel(source)}:\n${lines.join('\n')}`);
    if (plan.problems.length) {
      await vscode.window.showErrorMessage(`The update on ${queryLabel(source)} is refused; nothing was written.`, { modal: true, detail: plan.problems.join('\n') });
      return { plan };
    }
    const confirmed = await (options.confirm ?? ((p, l) => this.confirm(source, p, l, label)))(plan, lines);
    if (!confirmed) return { plan };
    const report = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `DAM: updating ${count(plan.items.length, 'record')}`, cancellable: true },
      (progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        let reported = 0;
        return client.recordEdits
          .run(plan, {
            concurrency: CONCURRENCY,
            signal: abort.signal,
            onProgress: (p) => {
              const percent = p.total ? (p.done / p.total) * 100 : 0;
              progress.report({ message: `${p.done} of ${p.total}${p.failed ? ` (${p.failed} failed)` : ''}`, increment: percent - reported });
              reported = percent;
            },
          })
          .finally(() => sub.dispose());
      },
    );
    this.last = { source, edits, dryRun: lines, report };
    this.updateTree(plan, report, edits);
    void this.announce(source, report);
    return { plan, report };
  }

  /** The dry run in a modal dialog (counts, then the first records' old → new values): Apply, or read all of it first. */
  private async confirm(source: BulkSource, plan: LoadedPlan, lines: string[], fields: FieldLabels): Promise<boolean> {
    const total = plan.items.length + plan.unchanged.length + plan.refused.length + plan.missing.length;
    const label = queryLabel(source);
    if (plan.items.length === 0) {
      await vscode.window.showInformationMessage(`Nothing to change: none of the ${count(total, 'record')} matching ${label} would change.`, { modal: true, detail: lines.join('\n') });
      return false;
    }
    const records = previewLines(plan.items.map((i) => ({ recordId: i.recordId, title: i.title, lines: describeChanges(i.changes, fields) })));
    const detail = [...lines, '', ...records];
    const shown = detail.length > 16 ? [...detail.slice(0, 16), `… and ${detail.length - 16} more lines (Show Dry Run)`] : detail;
    const apply = `Update ${count(plan.items.length, 'Record')}`;
    for (;;) {
      const choice = await vscode.window.showWarningMessage(`Dry run: ${count(plan.items.length, 'record')} of ${total} matching ${label} would change. Apply?`, { modal: true, detail: shown.join('\n') }, apply, 'Show Dry Run');
      if (choice === apply) return true;
      if (choice !== 'Show Dry Run') return false;
      const text = [`Dry run of the update on ${label}: nothing is written until you choose ${apply}.`, '', ...lines, '', 'Each record, old → new:', '', ...records, ''].join('\n');
      await vscode.window.showTextDocument(this.previews.add(`Dry run – ${source.expression}`, text), { preview: true });
    }
  }

  private async announce(source: BulkSource, report: UpdateReport): Promise<void> {
    const summary = `${report.changed.length} changed, ${report.unchanged.length} unchanged, ${report.failed.length} failed${report.cancelled ? `, ${report.notRun.length} not run (cancelled)` : ''}`;
    const failures = report.failed.slice(0, 3).map((f) => `${f.title ?? f.recordId}: ${f.reason}`).join('; ');
    const text = `DAM: update on ${queryLabel(source)}: ${summary}.${failures ? ` ${failures}${report.failed.length > 3 ? '; …' : ''}` : ''}`;
    const show = report.failed.length ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    const undo = 'Undo This Update';
    const choice = await show(text, 'Show Report', 'Save Report…', ...(report.undo.length ? [undo] : []));
    if (choice === 'Show Report') await this.showReport();
    else if (choice === 'Save Report…') await this.saveReport();
    else if (choice === undo) await this.undo();
  }

  /** The report as a file `dam records undo FILE` reads too: the run, and per changed record its values before. */
  private reportJson(): string {
    if (!this.last) throw new Error('No bulk update has run yet.');
    const { source, edits, dryRun, report } = this.last;
    const { undo, ...run } = report;
    return updateReportText({ query: source.name, expression: source.expression, edits, dryRun, report: run, undo });
  }

  /** The report, read-only (an untitled document would ask to be saved); Undo This Update stays on the command. */
  async showReport(): Promise<void> {
    const json = this.reportJson();
    const doc = await vscode.workspace.openTextDocument(this.previews.add(`Update report – ${this.last!.source.expression}`, json));
    await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await vscode.window.showTextDocument(doc, { preview: false });
  }

  /** Saves the last report as JSON where the user says (or to `target`); the file written. */
  async saveReport(target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const json = this.reportJson();
    const stamp = this.last!.report.finishedAt.replace(/[:.]/g, '-');
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const uri = target ?? (await vscode.window.showSaveDialog({ title: 'Save the bulk update report', filters: { JSON: ['json'] }, defaultUri: folder && vscode.Uri.joinPath(folder, `dam-update-report-${stamp}.json`) }));
    if (!uri) return undefined;
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(json));
    return uri;
  }

  /**
   * Undo This Update: puts back each record's values before the last update (or the update of a saved report `file`),
   * through the same runner, after a dry run that names the records changed since by someone else: those are skipped.
   */
  async undo(file?: vscode.Uri, options: { confirm?: (plan: UndoPlan) => Promise<boolean> } = {}): Promise<UndoOutcome | undefined> {
    let records: UndoRecord[];
    let label: string;
    if (file || !this.last) {
      const uri =
        file ??
        (await vscode.window.showOpenDialog({ title: 'Undo a bulk update: its saved report', filters: { JSON: ['json'] }, canSelectMany: false, defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri }))?.[0];
      if (!uri) return undefined;
      const read = readUpdateReport(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
      if (!read.undo) throw new Error(`${uri.fsPath} is ${read.problem}`);
      records = read.undo;
      label = read.query ? `“${read.query}”` : vscode.workspace.asRelativePath(uri);
    } else {
      records = this.last.report.undo;
      label = queryLabel(this.last.source);
    }
    if (!records.length) {
      void vscode.window.showInformationMessage(`The update on ${label} changed no record: there is nothing to undo.`);
      return undefined;
    }
    const client = this.client;
    const plan = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `DAM: undo of the update on ${label}: checking which records changed since…`, cancellable: true },
      (_progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        return client.recordEdits.planUndo(records, { signal: abort.signal, concurrency: CONCURRENCY }).finally(() => sub.dispose());
      },
    );
    const skippedLines = plan.skipped.map((s) => `${s.title ?? s.recordId}: ${s.reason}`);
    this.log.info(`Undo of the update on ${label}: ${plan.restore.length} to restore, ${plan.skipped.length} skipped${skippedLines.length ? `:\n  ${skippedLines.join('\n  ')}` : ''}`);
    if (!plan.restore.length) {
      await vscode.window.showWarningMessage(`Nothing to undo: every record the update on ${label} changed was changed since (or deleted).`, { modal: true, detail: skippedLines.join('\n') });
      return { report: emptyReport(), skipped: plan.skipped };
    }
    const confirm = options.confirm ?? (async (p: UndoPlan) => this.confirmUndo(label, p, fieldLabels((await client.recordEdits.tenantModel()).definitions)));
    if (!(await confirm(plan))) return undefined;
    const { skipped, ...report } = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `DAM: undoing the update on ${label}`, cancellable: true },
      (progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        return client.recordEdits
          .runUndo(plan, { concurrency: CONCURRENCY, signal: abort.signal, onProgress: (p) => progress.report({ message: `${p.done} of ${p.total}` }) })
          .finally(() => sub.dispose());
      },
    );
    const restored = new Set(report.changed.map((c) => c.recordId));
    for (const r of plan.restore.filter((r) => restored.has(r.recordId))) {
      if (r.changes.status) this.provider.updateRecord(r.recordId, { status: r.changes.status.before });
      this.documents.recordChanged(r.recordId);
    }
    const summary = `${report.changed.length} restored, ${skipped.length} skipped (changed since)${report.failed.length ? `, ${report.failed.length} failed` : ''}${report.cancelled ? `, ${report.notRun.length} not run (cancelled)` : ''}`;
    const names = skipped.slice(0, 3).map((s) => s.title ?? s.recordId).join(', ');
    const text = `DAM: undo of the update on ${label}: ${summary}.${names ? ` Skipped: ${names}${skipped.length > 3 ? ', …' : ''}.` : ''}`;
    this.log.info(text);
    void (skipped.length || report.failed.length ? vscode.window.showWarningMessage : vscode.window.showInformationMessage)(text, ...(skipped.length || report.failed.length ? ['Show Log'] : [])).then((c) => {
      if (c) this.log.show();
    });
    return { report, skipped };
  }

  private async confirmUndo(label: string, plan: UndoPlan, fields: FieldLabels): Promise<boolean> {
    const restore = previewLines(plan.restore.map((r) => ({ recordId: r.recordId, title: r.title, lines: describeChanges(invertChangeSet(r.changes), fields) })));
    const skipped = plan.skipped.map((s) => `skipped ${s.title ?? s.recordId}: ${s.reason}`);
    const detail = [...skipped, ...(skipped.length ? [''] : []), ...restore];
    const shown = detail.length > 16 ? [...detail.slice(0, 16), `… and ${detail.length - 16} more lines`] : detail;
    const go = `Undo ${count(plan.restore.length, 'Record')}`;
    const choice = await vscode.window.showWarningMessage(
      `Undo the update on ${label}? ${count(plan.restore.length, 'record')} get back the values before it${plan.skipped.length ? `; ${count(plan.skipped.length, 'record')} changed since by someone else ${plan.skipped.length === 1 ? 'is' : 'are'} skipped` : ''}.`,
      { modal: true, detail: shown.join('\n') },
      go,
    );
    return choice === go;
  }

  /** Rows of changed records redraw (status), classifications that gained or lost records read their page again. */
  private updateTree(plan: LoadedPlan, report: BulkReport, edits: BulkEdits): void {
    const changed = new Set(report.changed.map((c) => c.recordId));
    for (const id of changed) {
      if (edits.status) this.provider.updateRecord(id, { status: edits.status });
      this.documents.recordChanged(id);
    }
    if (changed.size === 0) return;
    for (const c of [...(edits.addClassifications ?? []), ...(edits.removeClassifications ?? [])]) {
      const ref = plan.classifications.find((r) => r.id === c || r.namePath === c);
      if (ref) this.provider.refreshClassification(ref.id);
    }
  }

  /** Asks which edit to make: the kind, then its field, value, language, status or classification. */
  private async askEdits(client: DamClient, model: TenantModel, source: BulkSource): Promise<BulkEdits | undefined> {
    const title = `Update the records matching ${queryLabel(source)}`;
    const kinds = [
      { label: '$(edit) Set a field…', edit: 'set' as const },
      { label: '$(clear-all) Clear a field…', edit: 'clear' as const },
      { label: '$(tag) Change status…', edit: 'status' as const },
      { label: '$(add) Add to a classification…', edit: 'add' as const },
      { label: '$(remove) Remove from a classification…', edit: 'remove' as const },
    ];
    const kind = (await vscode.window.showQuickPick(kinds, { title, placeHolder: 'What to change on every record the query matches (a dry run comes first)' }))?.edit;
    switch (kind) {
      case undefined:
        return undefined;
      case 'status': {
        const status = await vscode.window.showQuickPick([...RECORD_STATUSES], { title, placeHolder: 'The new status' });
        return status ? { status } : undefined;
      }
      case 'add':
      case 'remove': {
        const c = await pickClassification(client, { title: `${title}: ${kind === 'add' ? 'add to' : 'remove from'}` });
        if (!c) return undefined;
        return kind === 'add' ? { addClassifications: [c.id] } : { removeClassifications: [c.id] };
      }
      case 'set':
      case 'clear': {
        const def = await pickField(client, model.definitions, `${title}: ${kind === 'set' ? 'set' : 'clear'} which field?`);
        if (!def) return undefined;
        let language: string | undefined;
        if (def.isLocalizable) {
          language = (
            await vscode.window.showQuickPick(
              model.languages.map((l) => ({ label: l.culture || 'neutral', description: l.name })),
              { title: `${fieldTitle(def)} is kept in several languages: in which language?` },
            )
          )?.label;
          if (!language) return undefined;
        }
        if (kind === 'clear') return { clear: [def.name], ...(language ? { language } : {}) };
        const value = await askValue(client, def, title);
        return value === undefined ? undefined : { set: { [def.name]: value }, ...(language ? { language } : {}) };
      }
    }
  }
}

async function pickField(client: DamClient, definitions: readonly FieldDefinitionInfo[], title: string): Promise<FieldDefinitionInfo | undefined> {
  const editable = definitions.filter((d) => !readOnlyReason(d));
  const items = (async () => {
    // A classification list says where its classifications come from, by path (the definition holds the root's id).
    const roots = new Map<string, string>();
    await Promise.all(
      editable
        .filter((d) => d.dataType === 'ClassificationList' && d.rootClassificationId)
        .map(async (d) => {
          const root = await client.recordEdits.classification(d.rootClassificationId!).catch(() => null);
          if (root?.namePath) roots.set(d.name, root.namePath);
        }),
    );
    return editable.map((d) => ({
      // As the record's form names it (its label) and what it holds in words; the name the query language and the CLI
      // use only where the label does not already say it.
      label: fieldTitle(d),
      description: [
        fieldKindWords(d, roots.get(d.name)),
        d.isLocalizable ? 'in several languages' : undefined,
        d.isRequired ? 'required' : undefined,
        nameHelps(d, editable) ? `named ${d.name} in queries` : undefined,
      ]
        .filter(Boolean)
        .join(' · '),
      def: d,
    }));
  })();
  return (await vscode.window.showQuickPick(items, { title, matchOnDescription: true, placeHolder: 'A field, by its label' }))?.def;
}

/** The value to set, as the CLI's text (checked by the core as it is typed), option names, or a classification's path. */
async function askValue(client: DamClient, def: FieldDefinitionInfo, title: string): Promise<unknown> {
  if (def.dataType === 'OptionList') {
    const picked = await vscode.window.showQuickPick(
      (def.options ?? []).map((o) => ({ label: o.label || o.name, description: o.label && nameHelps(o) ? `named ${o.name} in queries` : undefined, name: o.name })),
      { title: `${fieldTitle(def)}: the options to set`, canPickMany: true },
    );
    return picked?.length ? picked.map((p) => p.name) : undefined;
  }
  if (def.dataType === 'ClassificationList') {
    const c = await pickClassification(client, { title: `${fieldTitle(def)}: the classification to set` });
    return c ? [c.namePath || c.id] : undefined;
  }
  const list = isListType(def.dataType);
  // A list's items are typed separated by commas (`\,` for a comma inside one) or as a JSON list: the core splits the
  // text, as it does for `dam records update --set`.
  const text = await vscode.window.showInputBox({
    title: `${title}: ${fieldTitle(def)}`,
    prompt: `The new value of ${fieldTitle(def)} (${fieldKindWords(def)}${list ? ', several separated by commas; \\, for a comma inside one' : ''})`,
    validateInput: (t) => coerceInput(def, t).problem,
  });
  return text;
}

function emptyReport(): BulkReport {
  const now = new Date().toISOString();
  return { startedAt: now, finishedAt: now, durationMs: 0, total: 0, changed: [], unchanged: [], failed: [], notRun: [], cancelled: false };
}
