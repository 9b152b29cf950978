// The `DAM` log channel. Requests are logged as method, path, status and time only: no headers,
// no bodies, and any known secret value is scrubbed from free text before it is written.
import * as vscode from 'vscode';

export interface RequestLogEntry {
  method: string;
  url: string;
  status: number | 'error';
  ms: number;
}

export class DamLog implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  private readonly secrets = new Set<string>();
  /** The last lines written, scrubbed, for "copy diagnostics" and for tests that check what was logged. */
  private readonly recent: string[] = [];
  private readonly requested = new vscode.EventEmitter<RequestLogEntry>();
  /** Every request's outcome, for status such as "rate limited, retrying". */
  readonly onDidRequest = this.requested.event;

  constructor() {
    this.channel = vscode.window.createOutputChannel('DAM', { log: true });
  }

  /** Values that must never reach the log, such as a client secret or an access token. */
  addSecret(value: string | undefined): void {
    if (value && value.length >= 4) this.secrets.add(value);
  }

  scrub(text: string): string {
    let out = text.replace(/(authorization\s*[:=]\s*)(bearer\s+)?[^\s,;"']+/gi, '$1$2[redacted]');
    out = out.replace(/((?:access_token|refresh_token|client_secret|password|code_verifier|code|access-token)=)[^&\s"']+/gi, '$1[redacted]');
    for (const secret of this.secrets) out = out.split(secret).join('[redacted]');
    return out;
  }

  request(entry: RequestLogEntry): void {
    const line = `${entry.method} ${pathOf(entry.url)} ${entry.status} ${Math.round(entry.ms)}ms`;
    this.write(entry.status === 'error' || (typeof entry.status === 'number' && entry.status >= 500) ? 'warn' : 'info', line);
    this.requested.fire(entry);
  }

  info(message: string): void {
    this.write('info', message);
  }

  warn(message: string): void {
    this.write('warn', message);
  }

  error(message: string | Error): void {
    this.write('error', message instanceof Error ? message.message : message);
  }

  /** The most recent lines, already scrubbed. */
  tail(): readonly string[] {
    return this.recent;
  }

  private write(level: 'info' | 'warn' | 'error', message: string): void {
    const text = this.scrub(message);
    this.recent.push(`${level} ${text}`);
    if (this.recent.length > 1000) this.recent.splice(0, this.recent.length - 1000);
    this.channel[level](text);
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.requested.dispose();
    this.channel.dispose();
  }
}

/** Host and path with the query string dropped: query strings may carry tokens (download URIs do). */
function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname}`;
  } catch {
    return url.split('?')[0];
  }
}
