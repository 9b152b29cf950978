// Starts the emulator as a process of its own, as users run it, for tests and benchmarks that need a
// real process (kill -9, restarts, peak memory). Ready when it prints the contract's "listening on" line.
import { spawn, type ChildProcess } from 'node:child_process';
import { parseListening } from '../../src/core/contract';

/** The TypeScript sources, as tests run them; the bundle, as users do (built by `node esbuild.mjs`). */
export const EMULATOR_SOURCES = ['--import', 'tsx', 'src/emulator/main.ts'];
export const EMULATOR_BUNDLE = ['dist/emulator.js'];

export interface EmulatorProcessOptions {
  /** `--data`; omitted: none, the emulator's default location in `cwd`. */
  data?: string;
  /** The working folder; default this process's. */
  cwd?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Default 'empty'. */
  seed?: 'demo' | 'empty';
  /** Default the TypeScript sources. */
  entry?: string[];
  /** Further flags. */
  args?: string[];
  /** Variables added to this environment. */
  env?: NodeJS.ProcessEnv;
}

export interface EmulatorProcess {
  child: ChildProcess;
  url: string;
  port: number;
}

export function startEmulatorProcess(options: EmulatorProcessOptions): Promise<EmulatorProcess> {
  const args = [
    ...(options.entry ?? EMULATOR_SOURCES),
    '--port', String(options.port ?? 0),
    ...(options.data === undefined ? [] : ['--data', options.data]),
    '--seed', options.seed ?? 'empty',
    ...(options.args ?? []),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env }, cwd: options.cwd });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = parseListening(out);
      if (url) resolve({ child, url, port: Number(new URL(url).port) });
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`emulator exited with ${code} before it was ready:\n${err}`)));
  });
}

/** Resolves when the process has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}
