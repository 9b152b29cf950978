// Upload command benchmark: 200 files of 1 MB each uploaded as new records in one classification through the
// command's sending path (UploadQueue in src/api, which the Upload command, drag and drop and the CLI share;
// it has no `vscode` import, so it runs here outside VS Code, in its own bundled node process) beside the CLI
// (`dam upload FILE… --classification ID`, which also reads each new record's version id for its output, so the
// command's path is measured a second time asking for the version ids too)
// uploading the same files to the same emulator in the same run, rounds alternating. Both sides are wall times of a fresh node process, sign-in included.
// DAM_BENCH_FILES / DAM_BENCH_FILE_MB / DAM_BENCH_ROUNDS change the load.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { DamClient } from '../src/api/client';
import { UNPACED } from '../src/api/pacing';
import { EMULATOR_CLIENT, emulatorProfile } from '../src/api/endpoints';
import { median, printRow } from './stats';
import { startEmulatorProcess } from '../test/support/emulatorProcess';

const FILES = Number(process.env.DAM_BENCH_FILES ?? 200);
const FILE_MB = Number(process.env.DAM_BENCH_FILE_MB ?? 1);
const ROUNDS = Number(process.env.DAM_BENCH_ROUNDS ?? 7);
/** The `dam` bundle measured (default this checkout's). */
const CLI = process.env.DAM_BENCH_CLI ?? 'dist/cli.js';

async function countIn(client: DamClient, classificationId: string): Promise<number> {
  const page = await client.search.records({ expression: 'DirectClassification = @c', namedParameters: { c: classificationId }, pageSize: 1 });
  return page.totalCount ?? NaN;
}

const CPU_AT_EXIT = pathToFileURL(join(__dirname, 'fixtures', 'cpu-at-exit.mjs')).href;

/** A node script's wall time, and the CPU its process used (fixtures/cpu-at-exit.mjs), to its exit. */
function timed(script: string, args: string[], cpuFile: string, env: NodeJS.ProcessEnv = {}): { ms: number; cpuMs: number; stdout: string } {
  rmSync(cpuFile, { force: true });
  const started = performance.now();
  const r = spawnSync(process.execPath, ['--import', CPU_AT_EXIT, script, ...args], { encoding: 'utf8', maxBuffer: 16 << 20, env: { ...process.env, ...env, DAM_BENCH_CPU_FILE: cpuFile } });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`${script} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return { ms, cpuMs: Number(readFileSync(cpuFile, 'utf8').trim()), stdout: r.stdout };
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'dam-upload-command-bench-'));
  let emulator: ChildProcess | undefined;
  try {
    if (!existsSync('dist/cli.js')) spawnSync(process.execPath, ['esbuild.mjs', '--production'], { stdio: 'inherit' });
    // The command's path bundled the way the CLI is, so neither side pays tsx's compile-on-load.
    const fixture = join(work, 'upload-batch.js');
    await esbuild.build({ entryPoints: ['bench/fixtures/upload-batch.ts'], bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile: fixture, minify: true, mainFields: ['module', 'main'], logLevel: 'warning' });
    const dir = join(work, 'files');
    mkdirSync(dir);
    const files: string[] = [];
    for (let i = 0; i < FILES; i++) {
      const path = join(dir, `bench-${String(i).padStart(4, '0')}.bin`);
      writeFileSync(path, randomBytes(FILE_MB * 1024 * 1024));
      files.push(path);
    }
    const started = await startEmulatorProcess({ data: join(work, 'data') });
    emulator = started.child;
    const { url } = started;
    const client = new DamClient({ profile: emulatorProfile(url), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, pacing: UNPACED, userAgent: 'dam-bench-upload-command/1' });

    const commandMs: number[] = [];
    const cliMs: number[] = [];
    // The command's path asked for each record's version id too, as the CLI does for its output: what the rest is.
    const versionsMs: number[] = [];
    // The CPU each side's process used (the emulator's is shared by both and not counted).
    const cpu: Record<'command' | 'cli' | 'versions' | 'baseline', number[]> = { command: [], cli: [], versions: [], baseline: [] };
    const cpuFile = join(work, 'cpu.txt');
    // DAM_BENCH_BASELINE_DIST=<a dist/ built from another commit>: that build's `dam upload` too, in the same rounds.
    const baselineCli = process.env.DAM_BENCH_BASELINE_DIST ? join(process.env.DAM_BENCH_BASELINE_DIST, 'cli.js') : undefined;
    const baselineMs: number[] = [];
    const sides = ['command', 'cli', 'versions', ...(baselineCli ? ['baseline'] : [])] as ('command' | 'cli' | 'versions' | 'baseline')[];
    const cliArgs = (cls: string) => ['upload', ...files, '--classification', cls, '--url', url, '--json', '--max-rate', '0', '--max-in-flight', '0'];
    for (let round = 0; round < ROUNDS; round++) {
      for (const who of round % 2 === 0 ? sides : [...sides].reverse()) {
        const cls = (await client.classifications.create({ name: `bench-${round}-${who}` })).id;
        let run;
        if (who === 'cli') cliMs.push((run = timed(CLI, cliArgs(cls), cpuFile)).ms);
        else if (who === 'baseline') baselineMs.push((run = timed(baselineCli!, cliArgs(cls), cpuFile)).ms);
        else if (who === 'versions') versionsMs.push((run = timed(fixture, [url, cls, ...files], cpuFile, { DAM_BATCH_WITH_VERSIONS: '1' })).ms);
        else commandMs.push((run = timed(fixture, [url, cls, ...files], cpuFile)).ms);
        cpu[who].push(run.cpuMs);
        const count = await countIn(client, cls);
        if (count !== FILES) throw new Error(`${who}: ${count} records in the classification, expected ${FILES}`);
      }
    }
    const mb = FILES * FILE_MB;
    const rate = (ms: number) => `${((mb / ms) * 1000).toFixed(1)} MB/s`;
    // Each round's two runs are back to back: their ratio holds still when the machine's load drifts between rounds.
    const paired = median(cliMs.map((ms, i) => ms / commandMs[i]));
    console.log(`${FILES} files × ${FILE_MB} MB as new records in a fresh classification each time, ${ROUNDS} rounds alternating; one emulator (--data in a temp folder)`);
    printRow(
      'dam upload (the shared queue, 4 files at once), median',
      `${(median(cliMs) / 1000).toFixed(2)} s`,
      `Upload command path ${(median(commandMs) / 1000).toFixed(2)} s`,
      `${rate(median(cliMs))} vs ${rate(median(commandMs))}; CLI/command ${(median(cliMs) / median(commandMs)).toFixed(2)}x, per round ${paired.toFixed(2)}x`,
    );
    printRow(
      '  the command path also reading each version id',
      `${(median(versionsMs) / 1000).toFixed(2)} s`,
      `Upload command path ${(median(commandMs) / 1000).toFixed(2)} s`,
      `the CLI's extra requests for its output; CLI/this ${(median(cliMs) / median(versionsMs)).toFixed(2)}x, per round ${median(cliMs.map((ms, i) => ms / versionsMs[i])).toFixed(2)}x`,
    );
    printRow(
      '  CPU of the uploading process, median',
      `${median(cpu.cli).toFixed(0)} ms`,
      `Upload command path ${median(cpu.command).toFixed(0)} ms, with version ids ${median(cpu.versions).toFixed(0)} ms`,
      `CLI/command ${(median(cpu.cli) / median(cpu.command)).toFixed(2)}x, CLI/with versions ${(median(cpu.cli) / median(cpu.versions)).toFixed(2)}x; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`,
    );
    if (baselineCli) {
      printRow(
        `  dam upload of ${process.env.DAM_BENCH_BASELINE_DIST}`,
        `${(median(baselineMs) / 1000).toFixed(2)} s`,
        `this build ${(median(cliMs) / 1000).toFixed(2)} s`,
        `this/that ${(median(cliMs) / median(baselineMs)).toFixed(2)}x, per round ${median(cliMs.map((ms, i) => ms / baselineMs[i])).toFixed(2)}x; CPU ${median(cpu.baseline).toFixed(0)} ms, this/that ${(median(cpu.cli) / median(cpu.baseline)).toFixed(2)}x`,
      );
    }
    console.log(`rounds (s): CLI ${cliMs.map((m) => (m / 1000).toFixed(2)).join(' ')} | command ${commandMs.map((m) => (m / 1000).toFixed(2)).join(' ')} | with versions ${versionsMs.map((m) => (m / 1000).toFixed(2)).join(' ')}`);
  } finally {
    if (emulator && emulator.exitCode === null) {
      emulator.kill('SIGTERM');
      await new Promise((r) => emulator!.once('exit', r));
    }
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
