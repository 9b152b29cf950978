// Check-result badges on the explorer's records, versions and check results, through a FileDecorationProvider
// on the items' `resourceUri` (scheme `dam-check`). A version's badge is known once its results are read; a
// record's is read on demand (its newest master version's results) only for the rows VS Code asks about.
import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections/connectionManager';
import { badgeMeaning, badgeText, combineBadges, resultBadge, type Badge, type BadgeColor } from './badges';
import { fileDataOf } from './fileDataCache';
import type { CheckResultView } from './nodes';

export const CHECK_SCHEME = 'dam-check';

export function checkUri(kind: 'record' | 'version' | 'result', id: string): vscode.Uri {
  return vscode.Uri.from({ scheme: CHECK_SCHEME, path: `/${kind}/${id}` });
}

const COLORS: Record<BadgeColor, string> = {
  red: 'charts.red',
  orange: 'charts.orange',
  green: 'charts.green',
  gray: 'disabledForeground',
};

/** At most this many record lookups at once: a page of rows must not flood the service. */
const CONCURRENCY = 4;

export class CheckDecorations implements vscode.FileDecorationProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri[]>();
  readonly onDidChangeFileDecorations = this.emitter.event;
  /** Known badges by `kind/id`; `null` means "looked, no badge". */
  private readonly known = new Map<string, Badge | null>();
  private readonly pending = new Map<string, Promise<Badge | null>>();
  /** Records whose badge comes from a version (their newest master version): a new result there changes theirs. */
  private readonly recordOfVersion = new Map<string, string>();
  private running = 0;
  private readonly queue: (() => void)[] = [];
  private readonly subscription: vscode.Disposable;

  constructor(private readonly connections: ConnectionManager) {
    this.subscription = connections.onDidChange(() => this.clear());
  }

  /** Records the results of a version just read by the tree, and redraws its badge (and its record's). */
  setVersionResults(versionId: string, results: CheckResultView[], recordId?: string, latest?: boolean): Badge | undefined {
    const badges = results.map((r) => resultBadge(r));
    results.forEach((r, i) => this.known.set(`result/${r.id}`, badges[i] ?? null));
    const badge = combineBadges(badges);
    this.known.set(`version/${versionId}`, badge ?? null);
    const changed = [checkUri('version', versionId), ...results.map((r) => checkUri('result', r.id))];
    if (recordId && latest) {
      this.recordOfVersion.set(versionId, recordId);
      this.known.set(`record/${recordId}`, badge ?? null);
      changed.push(checkUri('record', recordId));
    }
    this.emitter.fire(changed);
    return badge;
  }

  /** The badge already known for an item, if any (tests and tooltips). */
  badgeOf(kind: 'record' | 'version' | 'result', id: string): Badge | undefined {
    return this.known.get(`${kind}/${id}`) ?? undefined;
  }

  /** Forgets a badge (after an upload, a published result or a refresh) so it is read again; a version's takes its record's along. */
  forget(kind: 'record' | 'version', id: string): void {
    this.known.delete(`${kind}/${id}`);
    const changed = [checkUri(kind, id)];
    const recordId = kind === 'version' ? this.recordOfVersion.get(id) : undefined;
    if (recordId) {
      this.known.delete(`record/${recordId}`);
      this.pending.delete(`record/${recordId}`);
      changed.push(checkUri('record', recordId));
    }
    this.emitter.fire(changed);
  }

  clear(): void {
    this.known.clear();
    this.pending.clear();
    this.recordOfVersion.clear();
    this.emitter.fire([]);
  }

  async provideFileDecoration(uri: vscode.Uri, token: vscode.CancellationToken): Promise<vscode.FileDecoration | undefined> {
    if (uri.scheme !== CHECK_SCHEME) return undefined;
    const [kind, id] = uri.path.split('/').filter(Boolean);
    if (!kind || !id) return undefined;
    const key = `${kind}/${id}`;
    let badge = this.known.get(key);
    if (badge === undefined && kind === 'record') badge = await this.lookUpRecord(id, token);
    return badge ? decoration(badge) : undefined;
  }

  /** Reads a record's newest master version and its results; null when it has none or the read fails. */
  lookUpRecord(recordId: string, token?: vscode.CancellationToken): Promise<Badge | null> {
    const key = `record/${recordId}`;
    const known = this.known.get(key);
    if (known !== undefined) return Promise.resolve(known);
    let pending = this.pending.get(key);
    if (!pending) {
      pending = this.limited(async () => {
        const client = this.connections.session?.client;
        if (!client || token?.isCancellationRequested) return null;
        const data = fileDataOf(client);
        // In the decoration lane: badges never take more than a third of the tenant's rate, nor turns from rows.
        return client.http.asDecoration(async () => {
          const latest = await data.latestVersion(recordId);
          if (!latest) return null;
          this.recordOfVersion.set(latest.id, recordId);
          const results = await data.checkResults(latest.id);
          return combineBadges(results.map((r) => resultBadge(r))) ?? null;
        });
      })
        .catch(() => null)
        .then((badge) => {
          this.pending.delete(key);
          // A cancelled look-up is asked again when the row shows; only a finished one is kept.
          if (!token?.isCancellationRequested) this.known.set(key, badge);
          return badge;
        });
      this.pending.set(key, pending);
    }
    return pending;
  }

  private limited<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running++;
        work()
          .then(resolve, reject)
          .finally(() => {
            this.running--;
            this.queue.shift()?.();
          });
      };
      if (this.running < CONCURRENCY) start();
      else this.queue.push(start);
    });
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

function decoration(badge: Badge): vscode.FileDecoration {
  // The badge is one or two characters: its tooltip says what it counts and what its colour means.
  const d = new vscode.FileDecoration(badgeText(badge), `Checks: ${badge.label} (${badgeMeaning(badge)})`, new vscode.ThemeColor(COLORS[badge.color]));
  // The label keeps its own colour; only the badge is coloured, so a red record stays readable.
  d.propagate = false;
  return d;
}
