// The emulator's state, as a user feels it (issues 22 and 23), each figure beside its baseline from the same run:
// - first start on a new data folder, to the first demo record answered, beside a restart of the same folder;
// - in VS Code, Start Local Emulator clicked to the first tree rows, on new global storage beside a second start;
// - save and restore of the demo tenant through /_emulator/, beside a plain copy of the same data folder on disk.
// - the build `npm run emulator` runs first, when no source changed, beside a forced build.
// Runs the bundle (dist/emulator.js, built by `npm run bench`), as users do.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EMULATOR_BUNDLE, exited, startEmulatorProcess } from '../test/support/emulatorProcess';
import { emulatorToken, median, printRow } from './stats';

const ROOT = resolve(__dirname, '..');
const ROUNDS = Number(process.env.DAM_BENCH_START_ROUNDS ?? 5);
const STATE_ROUNDS = Number(process.env.DAM_BENCH_STATE_ROUNDS ?? 7);
const UI_ROUNDS = Number(process.env.DAM_BENCH_UI_ROUNDS ?? 2);


const headers = (t: string) => ({ authorization: `Bearer ${t}`, accept: 'application/json', 'api-version': '1', 'user-agent': 'dam-bench', 'content-type': 'application/json' });

/** The CPU (user + system, every thread) a live process has used so far, from /proc; NaN where there is none. */
function cpuOf(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** Spawn to the first demo record answered, then a clean stop; the wall time and the emulator's CPU until then. */
async function startAndCpu(data: string, entry = EMULATOR_BUNDLE): Promise<{ ms: number; cpuMs: number }> {
  const started = performance.now();
  const em = await startEmulatorProcess({ data, seed: 'demo', entry });
  try {
    const res = await fetch(`${em.url}/api/core/records?pageSize=1`, { headers: headers(await emulatorToken(em.url)) });
    const body = (await res.json()) as { totalCount: number; items: unknown[] };
    if (body.totalCount < 500 || body.items.length !== 1) throw new Error(`expected the demo tenant, got ${JSON.stringify(body).slice(0, 200)}`);
    return { ms: performance.now() - started, cpuMs: cpuOf(em.child.pid) };
  } finally {
    em.child.kill('SIGTERM');
    await exited(em.child);
  }
}

async function startToFirstRecord(data: string, entry = EMULATOR_BUNDLE): Promise<number> {
  return (await startAndCpu(data, entry)).ms;
}

async function firstStart(): Promise<void> {
  const first: number[] = [];
  const again: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'dam-bench-start-'));
    try {
      first.push(await startToFirstRecord(join(dir, 'data')));
      again.push(await startToFirstRecord(join(dir, 'data')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const f = median(first);
  const r = median(again);
  printRow(`emulator first start, new data folder (median of ${ROUNDS})`, `${f.toFixed(0)} ms`, `${r.toFixed(0)} ms restart of it`, `${(f / r).toFixed(2)}x; target <= 1000 ms and <= 2x`);
}

/**
 * DAM_BENCH_BASELINE_DIST=<a dist/ folder built from another commit>: that build's first start beside this one's, rounds
 * alternating, so a change to the start is measured before and after in one run on a noisy machine.
 */
async function firstStartAgainst(baselineDist: string): Promise<void> {
  const base = resolve(baselineDist);
  // The extension's path (dist/emulator.js) and the README's first command (`dam emulator`, the CLI bundle), each
  // from this build and from the baseline build.
  const sides = {
    this: EMULATOR_BUNDLE,
    baseline: [join(base, 'emulator.js')],
    thisCli: ['dist/cli.js', 'emulator'],
    baselineCli: [join(base, 'cli.js'), 'emulator'],
  };
  type Side = keyof typeof sides;
  const runs: Record<Side, { ms: number; cpuMs: number }[]> = { this: [], baseline: [], thisCli: [], baselineCli: [] };
  const order: Side[] = ['baseline', 'this', 'baselineCli', 'thisCli'];
  for (let i = 0; i < ROUNDS; i++) {
    for (const side of i % 2 === 0 ? order : [...order].reverse()) {
      const dir = mkdtempSync(join(tmpdir(), 'dam-bench-start-'));
      try {
        runs[side].push(await startAndCpu(join(dir, 'data'), sides[side]));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  const row = (what: string, a: Side, b: Side) => {
    const ms = (s: Side) => median(runs[s].map((r) => r.ms));
    const cpu = (s: Side) => median(runs[s].map((r) => r.cpuMs));
    const paired = median(runs[a].map((r, i) => r.cpuMs / runs[b][i].cpuMs));
    printRow(
      `${what} (median of ${ROUNDS})`,
      `${ms(a).toFixed(0)} ms, CPU ${cpu(a).toFixed(0)} ms`,
      `${ms(b).toFixed(0)} ms, CPU ${cpu(b).toFixed(0)} ms`,
      `wall ${(ms(a) / ms(b)).toFixed(2)}x, CPU ${(cpu(a) / cpu(b)).toFixed(2)}x (per round ${paired.toFixed(2)}x); load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`,
    );
  };
  row(`first start, dist/emulator.js, this build vs ${baselineDist}`, 'this', 'baseline');
  row(`first start, dam emulator, this build vs ${baselineDist}`, 'thisCli', 'baselineCli');
  row('first start, dam emulator vs dist/emulator.js, this build', 'thisCli', 'this');
}

async function devtools(url: string, method: string, path: string, body?: unknown): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${url}/_emulator${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return performance.now() - started;
}

async function saveAndRestore(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'dam-bench-state-'));
  const data = join(dir, 'data');
  const em = await startEmulatorProcess({ data, seed: 'demo', entry: EMULATOR_BUNDLE });
  try {
    const t = await emulatorToken(em.url);
    const [record] = ((await (await fetch(`${em.url}/api/core/records?pageSize=1`, { headers: headers(t) })).json()) as { items: { id: string }[] }).items;
    const saves: number[] = [];
    const untouched: number[] = [];
    const afterEdit: number[] = [];
    const copies: number[] = [];
    for (let i = 0; i < STATE_ROUNDS; i++) {
      saves.push(await devtools(em.url, 'POST', '/snapshots', { name: 'bench' }));
      untouched.push(await devtools(em.url, 'POST', '/snapshots/bench/restore'));
      const edit = await fetch(`${em.url}/api/core/record/${record.id}`, { method: 'PUT', headers: headers(t), body: JSON.stringify({ title: `Edited ${i}` }) });
      if (!edit.ok) throw new Error(`editing a record answered ${edit.status}`);
      afterEdit.push(await devtools(em.url, 'POST', '/snapshots/bench/restore'));
      // The baseline: the same data folder copied on disk (what a test suite without snapshots would do, with the
      // emulator stopped), its snapshots left out.
      const copy = join(dir, `copy-${i}`);
      const started = performance.now();
      cpSync(data, copy, { recursive: true, filter: (src) => !src.startsWith(join(data, 'snapshots')) });
      copies.push(performance.now() - started);
      rmSync(copy, { recursive: true, force: true });
    }
    const c = median(copies);
    const row = (what: string, values: number[]) =>
      printRow(`${what} (median of ${STATE_ROUNDS})`, `${median(values).toFixed(0)} ms`, `${c.toFixed(0)} ms copy of the data folder`, `${(median(values) / c).toFixed(2)}x`);
    row('save the demo tenant', saves);
    row('restore, nothing changed since', untouched);
    row('restore after editing one record', afterEdit);
    const resets: number[] = [];
    for (let i = 0; i < 3; i++) resets.push(await devtools(em.url, 'POST', '/reset'));
    printRow('reset to the demo tenant (median of 3)', `${median(resets).toFixed(0)} ms`, `${c.toFixed(0)} ms copy of the data folder`, `${(median(resets) / c).toFixed(2)}x`);
  } finally {
    em.child.kill('SIGTERM');
    await exited(em.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Workbench {
  page: import('playwright-core').Page;
  stop(): Promise<void>;
}

/** Start Local Emulator clicked in the welcome view, to the first row of the DAM Explorer. */
async function clickToTree(): Promise<void> {
  const harness = (await import(join(ROOT, 'test/e2e/harness.mjs'))) as { findChromium(): string | undefined; startWorkbench(o: Record<string, unknown>): Promise<Workbench> };
  if (!harness.findChromium()) {
    console.log('click to tree: skipped (no Chromium: the VS Code harness cannot run here)');
    return;
  }
  const first: number[] = [];
  const again: number[] = [];
  for (let i = 0; i < UI_ROUNDS; i++) {
    const wb = await harness.startWorkbench({});
    try {
      const { page } = wb;
      const rows = page.locator('.part.sidebar [role="treeitem"]');
      const palette = async (command: string) => {
        await page.keyboard.press('F1');
        await page.locator('.quick-input-widget input').fill(`>${command}`);
        await page.locator('.quick-input-list .monaco-list-row', { hasText: command }).first().waitFor();
        await page.keyboard.press('Enter');
      };
      await page.locator('.activitybar [aria-label^="DAM"]').first().click();
      const button = page.getByRole('button', { name: 'Start local emulator' });
      await button.waitFor({ state: 'visible', timeout: 60_000 });
      let started = performance.now();
      await button.click();
      await rows.first().waitFor({ state: 'visible', timeout: 180_000 });
      first.push(performance.now() - started);
      // Stop Local Emulator, then start it again: the data folder in global storage now exists.
      // A root classification of the demo tenant: gone from the tree once the emulator stopped, back once it answers.
      const root = page.locator('.part.sidebar [role="treeitem"]', { hasText: 'Products' }).first();
      await root.waitFor({ state: 'visible', timeout: 60_000 });
      await palette('DAM: Stop Local Emulator');
      await root.waitFor({ state: 'detached', timeout: 60_000 });
      started = performance.now();
      await palette('DAM: Start Local Emulator');
      await root.waitFor({ state: 'visible', timeout: 180_000 });
      again.push(performance.now() - started);
    } finally {
      await wb.stop();
    }
  }
  const f = median(first);
  const r = median(again);
  printRow(`click to tree, new global storage (median of ${UI_ROUNDS})`, `${f.toFixed(0)} ms`, `${r.toFixed(0)} ms second start`, `${(f / r).toFixed(2)}x`);
}

/** `npm run emulator` builds first: nothing to do when no source changed, beside a build that is forced. */
function buildStep(): void {
  const run = (...args: string[]) => {
    const started = performance.now();
    const result = spawnSync(process.execPath, ['esbuild.mjs', '--production', ...args], { cwd: ROOT, stdio: 'ignore' });
    if (result.status !== 0) throw new Error(`node esbuild.mjs ${args.join(' ')} failed`);
    return performance.now() - started;
  };
  const forced = [run('--force')];
  const upToDate = [run(), run(), run()];
  printRow('build step of npm run emulator, nothing changed', `${median(upToDate).toFixed(0)} ms`, `${median(forced).toFixed(0)} ms forced build`, `${(median(upToDate) / median(forced)).toFixed(3)}x`);
}

async function main(): Promise<void> {
  // DAM_BENCH_START_ONLY=1: only the first starts (and the baseline's, if given), for comparing builds quickly.
  if (process.env.DAM_BENCH_START_ONLY === '1') {
    await firstStart();
    if (process.env.DAM_BENCH_BASELINE_DIST) await firstStartAgainst(process.env.DAM_BENCH_BASELINE_DIST);
    return;
  }
  buildStep();
  await firstStart();
  if (process.env.DAM_BENCH_BASELINE_DIST) await firstStartAgainst(process.env.DAM_BENCH_BASELINE_DIST);
  await saveAndRestore();
  await clickToTree();
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
