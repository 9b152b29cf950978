// Checking a document after a pause in its changes, for the diagnostics of `.dam-query` and
// `.dam-analytics.json` files: a change re-arms the timer, and a check whose document has moved on
// (a newer version, or closed) is dropped.
import type * as vscode from 'vscode';

export class DelayedChecks implements vscode.Disposable {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly check: (doc: vscode.TextDocument) => void) {}

  /** Checks `doc` after `delayMs` unless it changes (or is checked) before. */
  schedule(doc: vscode.TextDocument, delayMs: number): void {
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    const version = doc.version;
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        // A newer change has its own timer; a closed document is gone.
        if (!doc.isClosed && doc.version === version) this.check(doc);
      }, delayMs),
    );
  }

  /** Drops a pending check (the document was checked now, or closed). */
  cancel(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
