// Entry of `npm run test:e2e`: builds the extension, compiles the in-host mocha suite into out/e2e/,
// runs it inside a real VS Code (code-server through the harness, or @vscode/test-electron when
// DAM_E2E_RUNNER=electron), then runs the Playwright UI tests in test/e2e/ui/.
//
// The UI tests run against the packaged .vsix, installed into code-server as a user installs it.
//
// Environment: CI=true turns a missing harness into a failure; DAM_E2E_GREP (a regular expression, as
// mocha's grep) selects the tests whose title matches (UI tests also by file name); DAM_E2E_PHASES=suite or =ui runs one phase;
// DAM_E2E_UI_FROM=dev runs the UI tests from the project folder instead of the .vsix, DAM_E2E_VSIX=file
// from that .vsix instead of a fresh package;
// DAM_E2E_TIMEOUT_MS bounds the suite phase (default 10 min) and DAM_E2E_UI_TIMEOUT_MS each UI test
// (default 4 min); DAM_E2E_UI_RETRIES=0 does not try a failed UI test again at the end, DAM_E2E_SUITE_RETRIES=0 a failed suite test; DAM_E2E_KEEP keeps the run folders; DAM_E2E_CHROMIUM names another Chromium;
// every DAM_* variable reaches the extension host.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import {
  OUTPUT_DIR,
  PROJECT_ROOT,
  VERSIONS,
  ensureHarness,
  findChromium,
  harnessReady,
  installVsix,
  missingInstallPrerequisites,
  packageExtension,
  startWorkbench,
  withTimeout,
} from './harness.mjs';
import { connectToLocalEmulator, resetWorkbench } from './ui/workbench.mjs';

const SUITE_SRC = join(PROJECT_ROOT, 'test', 'e2e', 'suite');
// One folder per run: another engineer's run may be loading its suite from out/e2e at the same time.
const SUITE_OUT_BASE = join(PROJECT_ROOT, 'out', 'e2e');
const SUITE_OUT = join(SUITE_OUT_BASE, `suite-${process.pid}`);
// The packaged extension and its install folder for the UI tests, per run as well.
const RUN_OUT = join(SUITE_OUT_BASE, `run-${process.pid}`);
const UI_DIR = join(PROJECT_ROOT, 'test', 'e2e', 'ui');
const PHASE_TIMEOUT_MS = Number(process.env.DAM_E2E_TIMEOUT_MS ?? 10 * 60_000);
const UI_TEST_TIMEOUT_MS = Number(process.env.DAM_E2E_UI_TIMEOUT_MS ?? 4 * 60_000);
// A failed UI test is tried once more at the end of the run, on a new workbench (DAM_E2E_UI_RETRIES=0 turns that off).
// A test that passes only then is still named in the summary as flaky.
const RETRIES = Number(process.env.DAM_E2E_UI_RETRIES ?? 1);
// Which phases run: `suite` (mocha in the extension host), `ui` (Playwright), or both (default).
const PHASES = new Set((process.env.DAM_E2E_PHASES || 'suite,ui').split(',').map((p) => p.trim()));
const isCI = process.env.CI === 'true' || process.env.CI === '1';
const grep = process.env.DAM_E2E_GREP || '';

const t0 = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const header = (title) => console.log(`\n=== e2e: ${title}`);

function banner(lines) {
  const width = Math.max(...lines.map((l) => l.length)) + 4;
  const bar = '#'.repeat(width);
  console.error(['', bar, ...lines.map((l) => `# ${l.padEnd(width - 4)} #`), bar, ''].join('\n'));
}

/** Bundles index.ts and each *.test.ts separately (CJS for the extension host; vscode and mocha come from the host and node_modules). */
async function compileSuite() {
  removeDeadRunsSuites();
  const entryPoints = readdirSync(SUITE_SRC)
    .filter((f) => f === 'index.ts' || f.endsWith('.test.ts'))
    .map((f) => join(SUITE_SRC, f));
  await esbuild.build({
    entryPoints,
    outdir: SUITE_OUT,
    outbase: SUITE_SRC,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    // As esbuild.mjs: jsonc-parser's UMD `main` requires siblings esbuild cannot follow; its ES module build bundles.
    mainFields: ['module', 'main'],
    logLevel: 'warning',
  });
  return join(SUITE_OUT, 'index.js');
}

/** Suites compiled by runs whose process is gone. */
function removeDeadRunsSuites() {
  if (!existsSync(SUITE_OUT_BASE)) return;
  for (const name of readdirSync(SUITE_OUT_BASE)) {
    const pid = Number(/^(?:suite|run)-(\d+)$/.exec(name)?.[1]);
    if (!pid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      rmSync(join(SUITE_OUT_BASE, name), { recursive: true, force: true });
    }
  }
}

/** A failure screenshot left by an earlier run would mislead whoever reads test/output/. */
function removeStaleFailureShots() {
  if (!existsSync(OUTPUT_DIR)) return;
  for (const f of readdirSync(OUTPUT_DIR)) if (f.endsWith('-failure.png')) rmSync(join(OUTPUT_DIR, f));
}

function buildExtension() {
  const result = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: PROJECT_ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('node esbuild.mjs failed');
}

// Must match SUITE_START_MARKER in suite/index.ts.
const SUITE_START_MARKER = '[dam-e2e] mocha starting:';
// What an offline workbench reports about itself whatever the extension does: not worth a line.
const OFFLINE_NOISE = [/ENOTFOUND open-vsx\.org/, /authentication provider 'github'/, /^\[AccountPolicyGate\]/];

/**
 * Streams the extension host's output once mocha starts; the workbench's start-up chatter before
 * that is kept and shown only when the suite fails.
 */
function suiteLogger() {
  const before = [];
  let started = false;
  return {
    onLog(type, text) {
      if (OFFLINE_NOISE.some((re) => re.test(text))) return;
      if (!started && text.startsWith(SUITE_START_MARKER)) started = true;
      if (!started) {
        before.push(`[${type}] ${text}`);
        return;
      }
      (type === 'error' ? process.stderr : process.stdout).write(`${text}\n`);
    },
    dumpStartup() {
      if (before.length === 0) return;
      console.error(`--- workbench output before the suite started ---\n${before.join('\n')}`);
    },
    get started() {
      return started;
    },
  };
}

/** Phase 1: the mocha suite inside the extension host of code-server. Returns true when it passed. */
async function runSuiteInCodeServer(extensionTestsPath) {
  const started = Date.now();
  const logger = suiteLogger();
  const workbench = await startWorkbench({ extensionTestsPath, env: { DAM_E2E: '1' }, onLog: logger.onLog });
  try {
    const code = await withTimeout(workbench.testsExitCode, PHASE_TIMEOUT_MS, 'the extension test suite');
    if (code !== 0) {
      const shot = await workbench.screenshot('suite-failure').catch(() => null);
      if (!logger.started) logger.dumpStartup();
      console.error(`extension test suite failed (exit ${code})${shot ? `; screenshot ${relative(PROJECT_ROOT, shot)}` : ''}`);
      return false;
    }
    console.log(`extension test suite passed in ${seconds(started)}`);
    return true;
  } catch (error) {
    const shot = await workbench.screenshot('suite-failure').catch(() => null);
    logger.dumpStartup();
    console.error(`extension test suite: ${error.message}${shot ? `\nscreenshot ${relative(PROJECT_ROOT, shot)}` : ''}`);
    console.error(`--- code-server output (tail) ---\n${workbench.serverLog().split('\n').slice(-40).join('\n')}`);
    return false;
  } finally {
    await workbench.stop();
  }
}

/** The UI tests of test/e2e/ui selected by DAM_E2E_GREP (by title, like mocha's grep, or by file name). */
async function selectUiTests() {
  const tests = [];
  for (const file of readdirSync(UI_DIR).filter((f) => f.endsWith('.ui.mjs')).sort()) {
    const mod = await import(pathToFileURL(join(UI_DIR, file)).href);
    tests.push({ file, title: mod.title ?? file, workbench: mod.workbench === 'emulator' ? 'emulator' : 'fresh', run: mod.default });
  }
  // A regular expression, as mocha reads its grep: `a|b` selects both.
  const pattern = grep ? new RegExp(grep) : undefined;
  const selected = tests.filter((t) => !pattern || pattern.test(t.title) || pattern.test(t.file));
  if (selected.length < tests.length) console.log(`DAM_E2E_GREP=${grep}: running ${selected.length} of ${tests.length} UI test(s)`);
  return selected;
}

/**
 * Where the UI tests' workbenches load the extension from: the packaged .vsix installed as a user installs
 * it (default), or the project folder as the extension under development (DAM_E2E_UI_FROM=dev, quicker
 * while working on a test).
 */
async function uiExtension() {
  if (process.env.DAM_E2E_UI_FROM === 'dev') {
    console.log('extension: the project folder (DAM_E2E_UI_FROM=dev)');
    return {};
  }
  const started = Date.now();
  const given = process.env.DAM_E2E_VSIX;
  const vsix = given ? resolve(given) : await packageExtension(join(RUN_OUT, 'dam-workbench.vsix'));
  const extensionsDir = join(RUN_OUT, 'extensions');
  await installVsix(vsix, extensionsDir);
  console.log(`extension: ${relative(PROJECT_ROOT, vsix)} ${given ? '(DAM_E2E_VSIX)' : 'packaged and'} installed with code-server --install-extension (${seconds(started)})`);
  return { extensionsDir };
}

/** Failure report of one UI test: its stack, and a screenshot of the workbench as it was. */
async function reportFailure(test, started, error, workbench, suffix = '') {
  const shot = workbench ? await workbench.screenshot(`${test.file.replace(/\.ui\.mjs$/, '')}-failure${suffix}`).catch(() => null) : null;
  console.error(`  ✖ ${test.title} (${test.file}, ${seconds(started)})\n    ${String(error.stack ?? error).split('\n').join('\n    ')}`);
  if (shot) console.error(`    screenshot: ${relative(PROJECT_ROOT, shot)}`);
}

/** The first lines of an error, for the summary at the end of the run (CI logs keep only their tail). */
function firstLines(error, count = 4) {
  return String(error?.stack ?? error).split('\n').slice(0, count).join('\n      ');
}

/**
 * Phase 2: the Playwright UI tests. A UI test module exports `title`, a default async function receiving
 * the workbench ({ page, screenshot, workspace, ... }), and optionally `workbench = 'emulator'`: such tests
 * share one workbench in which the local emulator was started from the welcome view, each starting where
 * `resetWorkbench` leaves it (after a failure the rest get a new one). Every other test gets a fresh
 * workbench with nothing connected.
 */
async function runUiTests() {
  const selected = await selectUiTests();
  if (selected.length === 0) return { total: 0, failed: 0 };
  const extension = await uiExtension();
  const start = () => startWorkbench({ ...extension, env: { DAM_E2E: '1' } });
  // Tests that failed, with the first lines of their error: each is tried once more at the end, on a workbench
  // of its own, and the summary names both the ones that failed twice and the ones that passed only the second time.
  const failures = new Map();
  const fail = (test, error) => failures.set(test, firstLines(error));
  const attempt = async (test, workbench) => {
    const started = Date.now();
    try {
      await withTimeout(test.run(workbench), UI_TEST_TIMEOUT_MS, test.title);
      console.log(`  ✔ ${test.title} (${test.file}, ${seconds(started)})`);
      return true;
    } catch (error) {
      fail(test, error);
      await reportFailure(test, started, error, workbench);
      return false;
    }
  };

  for (const test of selected.filter((t) => t.workbench === 'fresh')) {
    const started = Date.now();
    let workbench;
    try {
      workbench = await start();
    } catch (error) {
      fail(test, error);
      await reportFailure(test, started, error, undefined);
      continue;
    }
    try {
      await attempt(test, workbench);
    } finally {
      await workbench.stop();
    }
  }

  const shared = selected.filter((t) => t.workbench === 'emulator');
  let workbench;
  try {
    for (const test of shared) {
      if (!workbench) {
        const started = Date.now();
        try {
          workbench = await start();
          await withTimeout(connectToLocalEmulator(workbench.page), UI_TEST_TIMEOUT_MS, 'starting the local emulator from the welcome view');
          console.log(`  (shared workbench with the local emulator ready in ${seconds(started)})`);
        } catch (error) {
          fail(test, error);
          await reportFailure(test, started, error, workbench);
          await workbench?.stop();
          workbench = undefined;
          continue;
        }
      }
      if (!(await attempt(test, workbench))) {
        // What the failed test left open could fail the next one: they get a new workbench.
        await workbench.stop();
        workbench = undefined;
        continue;
      }
      await withTimeout(resetWorkbench(workbench.page), 60_000, 'resetting the workbench').catch(async (error) => {
        console.error(`    (could not reset the workbench after ${test.file}: ${error.message}; starting a new one)`);
        await workbench.stop();
        workbench = undefined;
      });
    }
  } finally {
    await workbench?.stop();
  }

  const flaky = [];
  const failedTwice = [];
  if (failures.size > 0 && RETRIES > 0) {
    console.log(`\n  trying ${failures.size} failed UI test(s) once more, each on a new workbench:`);
    for (const [test, firstError] of failures) {
      const started = Date.now();
      let retryBench;
      let passed = false;
      try {
        retryBench = await start();
        if (test.workbench === 'emulator') await withTimeout(connectToLocalEmulator(retryBench.page), UI_TEST_TIMEOUT_MS, 'starting the local emulator from the welcome view');
        await withTimeout(test.run(retryBench), UI_TEST_TIMEOUT_MS, test.title);
        console.log(`  ✔ ${test.title} (${test.file}, ${seconds(started)}, second try)`);
        passed = true;
      } catch (error) {
        await reportFailure(test, started, error, retryBench, '-retry');
        failedTwice.push({ test, firstError, secondError: firstLines(error) });
      } finally {
        await retryBench?.stop();
      }
      if (passed) flaky.push({ test, firstError });
    }
  } else {
    for (const [test, firstError] of failures) failedTwice.push({ test, firstError });
  }

  if (flaky.length > 0) {
    console.log(`\n  FLAKY: ${flaky.length} UI test(s) failed, then passed on a new workbench (fix them):`);
    for (const { test, firstError } of flaky) console.log(`    ${test.file}: ${test.title}\n      ${firstError}`);
  }
  if (failedTwice.length > 0) {
    console.log(`\n  FAILED: ${failedTwice.length} UI test(s)${RETRIES > 0 ? ', twice' : ''}:`);
    for (const { test, firstError, secondError } of failedTwice) {
      console.log(`    ${test.file}: ${test.title}\n      ${firstError}`);
      if (secondError) console.log(`      second try: ${secondError}`);
    }
  }
  const failed = failedTwice.length;
  console.log(`${selected.length - failed} passing${flaky.length ? ` (${flaky.length} on the second try)` : ''}, ${failed} failing UI test(s)`);
  return { total: selected.length, failed };
}

/** Null when the code-server harness can run here, else the banner lines saying what is missing. */
function missingHarness() {
  const chromium = findChromium();
  const packages = [...(chromium ? [] : ['chromium']), ...missingInstallPrerequisites()];
  if (packages.length === 0) return null;
  return [
    'VS CODE EXTENSION SUITE NOT RUN',
    `missing Debian package(s): ${packages.join(', ')}`,
    `install them (apt-get install ${packages.join(' ')}) and run npm run test:e2e`,
  ];
}

async function main() {
  const electron = process.env.DAM_E2E_RUNNER === 'electron';

  const missing = electron ? null : missingHarness();
  if (missing) {
    if (isCI) {
      banner([...missing, 'CI=true: a missing harness is a failure.']);
      return 1;
    }
    banner([...missing, 'SKIPPED (set CI=true to make this a failure)']);
    return 0;
  }

  header('build');
  let phase = Date.now();
  removeStaleFailureShots();
  buildExtension();
  const extensionTestsPath = await compileSuite();
  console.log(`extension built, suite compiled to ${relative(PROJECT_ROOT, SUITE_OUT)} (${seconds(phase)})`);

  if (electron) {
    header('extension suite in VS Code (@vscode/test-electron)');
    const { runWithElectron } = await import('./electron.mjs');
    const code = await runWithElectron({ extensionTestsPath });
    banner(['The Playwright UI tests (test/e2e/ui) run only through the code-server harness:', 'they were not run with DAM_E2E_RUNNER=electron.']);
    return code;
  }

  header(`harness (code-server ${VERSIONS.codeServer}, Node ${VERSIONS.node}, ${findChromium()})`);
  phase = Date.now();
  const wasReady = harnessReady();
  await ensureHarness();
  console.log(wasReady ? `cached in test/.harness (${seconds(phase)})` : `installed into test/.harness in ${seconds(phase)}`);

  let suitePassed = true;
  if (PHASES.has('suite')) {
    header('extension suite in VS Code (code-server, mocha in the extension host)');
    suitePassed = await runSuiteInCodeServer(extensionTestsPath);
  }

  let ui = { total: 0, failed: 0 };
  if (PHASES.has('ui')) {
    header('UI tests (Playwright, in code-server)');
    phase = Date.now();
    ui = await runUiTests();
    console.log(`(${seconds(phase)})`);
  }

  header(`done in ${seconds(t0)}`);
  const ok = suitePassed && ui.failed === 0;
  const failures = [!suitePassed && 'extension suite', ui.failed > 0 && `${ui.failed} UI test(s)`].filter(Boolean);
  console.log(ok ? 'all e2e phases passed' : `FAILED: ${failures.join(', ')}`);
  return ok ? 0 : 1;
}

main()
  .then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      console.error(`e2e: ${error.stack ?? error}`);
      process.exitCode = 1;
    },
  )
  .finally(() => {
    if (!process.env.DAM_E2E_KEEP) {
      rmSync(SUITE_OUT, { recursive: true, force: true });
      rmSync(RUN_OUT, { recursive: true, force: true });
    }
  });
