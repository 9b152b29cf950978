// Where the emulator that VS Code started can be found by a `dam` run outside the extension: the extension writes
// its address and process id to a small state file when it is ready and removes it when it stops, and the CLI,
// given no address, uses it while that process lives. Only addresses and a pid go there, never a secret.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RunningEmulator {
  /** Its origin, e.g. http://127.0.0.1:40123. */
  url: string;
  pid: number;
}

/**
 * The folder of the state file, from the environment given (so tests pass their own): DAM_STATE_DIR, else the
 * platform's per-user state folder (XDG_STATE_HOME or ~/.local/state; %LOCALAPPDATA% on Windows). Undefined when the
 * environment names no home at all: nothing to find then.
 */
export function stateDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | undefined {
  if (env.DAM_STATE_DIR) return env.DAM_STATE_DIR;
  if (platform === 'win32') return env.LOCALAPPDATA ? join(env.LOCALAPPDATA, 'dam-workbench') : undefined;
  if (env.XDG_STATE_HOME) return join(env.XDG_STATE_HOME, 'dam-workbench');
  return env.HOME ? join(env.HOME, '.local', 'state', 'dam-workbench') : undefined;
}

const FILE = 'emulator.json';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it lives, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The emulator recorded in the state file, if its process still runs. */
export function findRunningEmulator(env: NodeJS.ProcessEnv): RunningEmulator | undefined {
  const dir = stateDir(env);
  if (!dir) return undefined;
  try {
    const value = JSON.parse(readFileSync(join(dir, FILE), 'utf8')) as Partial<RunningEmulator>;
    if (typeof value.url !== 'string' || !/^http:\/\//.test(value.url) || typeof value.pid !== 'number') return undefined;
    return isAlive(value.pid) ? { url: value.url, pid: value.pid } : undefined;
  } catch {
    return undefined;
  }
}

/** Records a running emulator (written whole under another name, then renamed: a reader never sees half a file). */
export function recordRunningEmulator(env: NodeJS.ProcessEnv, running: RunningEmulator): void {
  const dir = stateDir(env);
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const partial = join(dir, `${FILE}.${process.pid}.partial`);
  writeFileSync(partial, `${JSON.stringify(running)}\n`);
  renameSync(partial, join(dir, FILE));
}

/** Forgets the emulator of this pid (another window's emulator, recorded since, stays). */
export function forgetRunningEmulator(env: NodeJS.ProcessEnv, pid: number): void {
  const dir = stateDir(env);
  if (!dir) return;
  try {
    const value = JSON.parse(readFileSync(join(dir, FILE), 'utf8')) as Partial<RunningEmulator>;
    if (value.pid === pid) rmSync(join(dir, FILE), { force: true });
  } catch {
    // Nothing recorded, or not readable: nothing to forget.
  }
}
