// Runs the local emulator as a child process of the extension host (never inside it), on a loopback
// port, with its data in the extension's global storage. Ready when it prints its `listening on` line.
import { spawn, type ChildProcess } from 'node:child_process';
import * as vscode from 'vscode';
import { parseListening } from '../../core/contract';
import type { DamLog } from '../log';

export interface EmulatorStartOptions {
  port: number;
  seed: 'demo' | 'empty';
  dataDir: string;
  /** `--tenant-limits`: enforce the tenant's rate, queue and upload size instead of only reporting them. */
  tenantLimits?: boolean;
}

const START_TIMEOUT_MS = 120_000;

/** How the emulator ended when nobody asked it to. */
export interface EmulatorExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Its last lines of output (stdout and stderr, oldest first). */
  lastLines: string[];
}

const KEPT_LINES = 20;

export class EmulatorProcess implements vscode.Disposable {
  private child: ChildProcess | undefined;
  private origin: string | undefined;
  private readonly changed = new vscode.EventEmitter<string | undefined>();
  /** Fires with the origin when the emulator becomes ready, and with undefined when it stops. */
  readonly onDidChange = this.changed.event;
  private readonly died = new vscode.EventEmitter<EmulatorExit>();
  /** Fires when the emulator exits after it was ready without being stopped (a crash, a kill). */
  readonly onDidExitUnexpectedly = this.died.event;
  /** The last lines the running emulator printed. */
  private lastLines: string[] = [];

  constructor(
    private readonly scriptPath: string,
    private readonly log: DamLog,
  ) {}

  get url(): string | undefined {
    return this.origin;
  }

  /** The running emulator's process id. */
  get pid(): number | undefined {
    return this.origin !== undefined ? this.child?.pid : undefined;
  }

  get running(): boolean {
    return this.child !== undefined && this.origin !== undefined;
  }

  /** Starts the emulator (or returns the running one's origin). Rejects with the emulator's own words on failure. */
  async start(options: EmulatorStartOptions, token?: vscode.CancellationToken): Promise<string> {
    if (this.child && this.origin) return this.origin;
    if (this.child) this.stop();
    const args = [this.scriptPath, '--port', String(options.port), '--host', '127.0.0.1', '--data', options.dataDir, '--seed', options.seed, ...(options.tenantLimits ? ['--tenant-limits'] : [])];
    this.log.info(`Starting emulator: ${args.slice(1).join(' ')}`);
    // The extension host may be Electron: ELECTRON_RUN_AS_NODE makes its binary behave as plain Node.
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    this.child = child;
    this.lastLines = [];
    const remember = (line: string) => {
      this.lastLines.push(line);
      if (this.lastLines.length > KEPT_LINES) this.lastLines.shift();
    };
    return new Promise<string>((resolve, reject) => {
      let settled = false;
      let stderrTail = '';
      const finish = (err?: Error, origin?: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        cancel?.dispose();
        if (err) {
          this.stop();
          reject(err);
        } else {
          resolve(origin!);
        }
      };
      const timer = setTimeout(() => finish(new Error(`The emulator did not report 'listening on' within ${START_TIMEOUT_MS / 1000} s.`)), START_TIMEOUT_MS);
      const cancel = token?.onCancellationRequested(() => finish(new vscode.CancellationError()));
      let buffered = '';
      child.stdout!.setEncoding('utf8');
      child.stdout!.on('data', (chunk: string) => {
        buffered += chunk;
        let newline: number;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, newline).trimEnd();
          buffered = buffered.slice(newline + 1);
          if (line) {
            this.log.info(`[emulator] ${line}`);
            remember(line);
          }
          const listening = parseListening(line);
          if (listening && !this.origin) {
            this.origin = listening;
            this.changed.fire(this.origin);
            finish(undefined, this.origin);
          }
        }
      });
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (chunk: string) => {
        stderrTail = (stderrTail + chunk).slice(-2000);
        for (const line of chunk.split('\n')) {
          if (!line.trim()) continue;
          this.log.warn(`[emulator] ${line.trimEnd()}`);
          remember(line.trimEnd());
        }
      });
      child.on('error', (err) => finish(new Error(`Could not start the emulator: ${err.message}`)));
      child.on('exit', (code, signal) => {
        // stop() lets go of the child before killing it: still holding it means nobody asked it to go.
        const unexpected = this.child === child && this.origin !== undefined;
        if (this.child === child) {
          this.child = undefined;
          this.origin = undefined;
        }
        this.log.info(`Emulator exited (${signal ?? `code ${code}`})`);
        if (unexpected) {
          // Listeners hear why before they hear that it is gone, so they can say so instead of just disconnecting.
          this.died.fire({ code, signal, lastLines: [...this.lastLines] });
          this.changed.fire(undefined);
        }
        const detail = stderrTail.trim().split('\n').slice(-3).join(' ');
        finish(new Error(`The emulator exited before it was ready (${signal ?? `code ${code}`})${detail ? `: ${detail}` : ''}`));
      });
    });
  }

  stop(): void {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    const wasReady = this.origin !== undefined;
    this.origin = undefined;
    child.kill('SIGTERM');
    // A clean stop flushes the database; don't wait for it forever.
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => clearTimeout(killer));
    if (wasReady) this.changed.fire(undefined);
  }

  dispose(): void {
    this.stop();
    this.changed.dispose();
    this.died.dispose();
  }
}
