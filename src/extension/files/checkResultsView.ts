// The Check Results view: the check results of one file version, each with the spec's rollup badge, and under
// each its findings with their outcome icon. Descriptions, explanations and recommendations are Markdown from
// the service, shown in hovers as untrusted Markdown without HTML (no command links, no raw HTML).
import * as vscode from 'vscode';
import { CheckViewContext } from '../commandIds';
import type { ConnectionManager } from '../connections/connectionManager';
import type { DamLog } from '../log';
import type { ResultView } from './checksModule';
import { loadChecksModule } from './lazyFiles';

type Finding = ResultView['findings'][number];

export type CheckViewNode =
  | { kind: 'result'; versionId: string; result: ResultView }
  | { kind: 'finding'; versionId: string; resultId: string; finding: Finding }
  | { kind: 'message'; text: string; detail?: string };

const BADGE_COLOR: Record<string, string> = { red: 'charts.red', orange: 'charts.orange', green: 'charts.green', gray: 'disabledForeground' };
const OUTCOME_ICON: Record<string, [string, string]> = {
  fail: ['error', 'charts.red'],
  warning: ['warning', 'charts.orange'],
  pass: ['pass', 'charts.green'],
  info: ['info', 'charts.blue'],
};

export class CheckResultsProvider implements vscode.TreeDataProvider<CheckViewNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<CheckViewNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private version: { id: string; label: string } | undefined;
  private results: ResultView[] | undefined;
  private loading: Promise<ResultView[]> | undefined;
  private readonly subs: vscode.Disposable[] = [];

  constructor(
    private readonly connections: ConnectionManager,
    private readonly log: DamLog,
  ) {
    this.subs.push(connections.onDidChange(() => this.show(undefined)));
  }

  get versionId(): string | undefined {
    return this.version?.id;
  }

  /** Shows the results of a version (undefined clears the view). Resolves when they are loaded. */
  async show(version: { id: string; label: string } | undefined): Promise<ResultView[]> {
    this.version = version;
    this.results = undefined;
    this.loading = undefined;
    this.changed.fire(undefined);
    return version ? this.load() : [];
  }

  /** Reads the shown version's results again (after a publish). */
  reload(): Promise<ResultView[]> {
    return this.show(this.version);
  }

  get title(): string | undefined {
    return this.version ? `Version ${this.version.label}` : undefined;
  }

  private load(): Promise<ResultView[]> {
    const version = this.version;
    const client = this.connections.session?.client;
    if (!version || !client) return Promise.resolve([]);
    this.loading ??= loadChecksModule()
      .loadResults(client, version.id)
      .then((results) => {
        if (this.version === version) this.results = results;
        return results;
      });
    return this.loading;
  }

  async getChildren(node?: CheckViewNode): Promise<CheckViewNode[]> {
    if (!node) {
      if (!this.version) return [];
      try {
        const results = this.results ?? (await this.load());
        if (results.length === 0) return [{ kind: 'message', text: 'No check results on this version' }];
        return results.map((result) => ({ kind: 'result', versionId: this.version!.id, result }));
      } catch (err) {
        const message = this.log.scrub(err instanceof Error ? err.message : String(err));
        this.log.warn(`Check results: ${message}`);
        return [{ kind: 'message', text: 'Could not load the check results', detail: message }];
      }
    }
    if (node.kind === 'result') return node.result.findings.map((finding) => ({ kind: 'finding', versionId: node.versionId, resultId: node.result.id, finding }));
    return [];
  }

  getTreeItem(node: CheckViewNode): vscode.TreeItem {
    if (node.kind === 'message') {
      const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
      item.description = node.detail;
      item.contextValue = CheckViewContext.message;
      return item;
    }
    if (node.kind === 'result') {
      const r = node.result;
      const item = new vscode.TreeItem(r.checkName, r.findings.length ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
      item.id = `${node.versionId}:${r.id}`;
      const badge = r.badge ? `${r.badge.label}` : 'no badge';
      item.description = r.inProgress ? `${badge} · in progress` : `${badge}${r.outcome ? '' : ' (rollup)'} · ${r.findings.length} finding${r.findings.length === 1 ? '' : 's'}`;
      item.iconPath = r.inProgress ? new vscode.ThemeIcon('sync') : new vscode.ThemeIcon(r.badge ? 'circle-filled' : 'circle-outline', r.badge ? new vscode.ThemeColor(BADGE_COLOR[r.badge.color]) : undefined);
      item.tooltip = untrusted(`**${escape(r.checkName)}** — ${r.badge ? `${r.badge.color} badge ${escape(r.badge.label)}` : 'no badge'}\n\n${r.description}\n\ncheck id \`${r.checkId}\` · result id \`${r.id}\``);
      item.contextValue = CheckViewContext.result;
      return item;
    }
    const f = node.finding;
    const item = new vscode.TreeItem(f.finding, vscode.TreeItemCollapsibleState.None);
    item.id = `${node.versionId}:${node.resultId}:${f.occurrence}`;
    item.description = f.outcome;
    const [icon, color] = OUTCOME_ICON[f.outcome] ?? ['circle-outline', 'foreground'];
    item.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(color));
    const parts = [`**${escape(f.outcome)}** · occurrence ${f.occurrence}`, `> ${escape(f.finding)}`];
    if (f.explanation) parts.push(`**Why**\n\n${f.explanation}`);
    if (f.recommendation) parts.push(`**Recommendation**\n\n${f.recommendation}`);
    item.tooltip = untrusted(parts.join('\n\n'));
    item.contextValue = CheckViewContext.finding;
    return item;
  }

  dispose(): void {
    this.subs.forEach((s) => s.dispose());
    this.changed.dispose();
  }
}

/** Service Markdown as VS Code renders it safely: not trusted (no command links), no HTML, no theme icons. */
export function untrusted(markdown: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(markdown, false);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}

/** Plain text (names, finding text) inside our own Markdown. */
function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
