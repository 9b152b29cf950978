// Foundation figures: the size of each bundle, and the extension's activation time inside the real
// VS Code harness, each beside an empty extension bundled the same way and measured in the same run.
import * as esbuild from 'esbuild';
import { statSync, mkdirSync, copyFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { median, printRow } from './stats';

const ROOT = resolve(__dirname, '..');
const OUT = join(ROOT, 'bench', 'output');
const EMPTY = join(OUT, 'empty-extension');
const RUNS = Number(process.env.DAM_BENCH_ACTIVATION_RUNS ?? 3);

async function buildBaselines(): Promise<void> {
  const { extensionBuildOptions } = (await import(join(ROOT, 'esbuild.mjs'))) as {
    extensionBuildOptions: (entry: string, outfile: string, production?: boolean) => esbuild.BuildOptions;
  };
  mkdirSync(join(EMPTY, 'dist'), { recursive: true });
  copyFileSync(join(ROOT, 'bench/fixtures/empty-extension/package.json'), join(EMPTY, 'package.json'));
  await esbuild.build({ ...extensionBuildOptions(join(ROOT, 'bench/fixtures/empty-extension/extension.ts'), join(EMPTY, 'dist/extension.js'), true), logLevel: 'error' });
  await esbuild.build({
    bundle: true, platform: 'node', format: 'cjs', external: ['vscode'], logLevel: 'error',
    entryPoints: [join(ROOT, 'bench/fixtures/activation-probe.ts')], outfile: join(OUT, 'probe/index.js'),
  });
}

function kb(file: string): string {
  return `${(statSync(file).size / 1024).toFixed(1)} KB`;
}

async function activation(): Promise<void> {
  const harness = (await import(join(ROOT, 'test/e2e/harness.mjs'))) as {
    findChromium(): string | undefined;
    startWorkbench(options: Record<string, unknown>): Promise<{ testsExitCode: Promise<number>; stop(): Promise<void> }>;
  };
  if (!harness.findChromium()) {
    console.log('activation: skipped (no Chromium: the VS Code harness cannot run here)');
    return;
  }
  const ours: number[] = [];
  const own: number[] = [];
  /** VS Code's time between loading our bundle and calling activate() (context, storage), in our runs. */
  const delay: number[] = [];
  const empty: number[] = [];
  const measure = async (extensionPath: string, id: string): Promise<number> => {
    let line = '';
    const output: string[] = [];
    const wb = await harness.startWorkbench({
      extensionDevelopmentPaths: [extensionPath],
      extensionTestsPath: join(OUT, 'probe/index.js'),
      onLog: (_type: string, text: string) => {
        if (text.includes('DAM_BENCH_ACTIVATION')) line = text;
        else output.push(text);
      },
    });
    try {
      const code = await wb.testsExitCode;
      if (code !== 0) throw new Error(`the activation probe failed (exit ${code}):\n${output.slice(-20).join('\n')}`);
    } finally {
      await wb.stop();
    }
    const figures = JSON.parse(line.slice(line.indexOf('{'))) as Record<string, unknown>;
    const timings = figures[`${id}:timings`] as { moduleLoadMs: number; activateMs: number; activationMs: number } | undefined;
    if (timings) {
      own.push(timings.moduleLoadMs + timings.activateMs);
      delay.push(timings.activationMs - timings.moduleLoadMs - timings.activateMs);
    }
    return figures[id] as number;
  };
  // Alternate the two so that drift in machine load affects both alike.
  for (let i = 0; i < RUNS; i++) {
    ours.push(await measure(ROOT, 'dam-workbench.dam-workbench'));
    empty.push(await measure(EMPTY, 'dam-bench.empty-extension'));
  }
  const m = median(ours);
  const b = median(empty);
  // The empty extension's whole figure is VS Code's delay between loading a bundle and calling activate(); it
  // swings with the machine's load and dominates both totals, so our own part is the figure to watch.
  printRow(`activation, our module load + activate() (median of ${RUNS})`, `${median(own).toFixed(1)} ms`, `${median(delay).toFixed(1)} ms VS Code's own delay before activate()`, `rounds ${own.map((x) => x.toFixed(1)).join(', ')}; target < 50 ms`);
  printRow('  load to activate() return, VS Code included', `${m.toFixed(1)} ms`, `${b.toFixed(1)} ms empty extension (all VS Code's delay)`, `rounds ${ours.map((x) => x.toFixed(0)).join(', ')} vs ${empty.map((x) => x.toFixed(0)).join(', ')}`);
}

async function main(): Promise<void> {
  await buildBaselines();
  for (const name of ['extension.js', 'session.js', 'zod.js', 'cli.js', 'emulator.js', 'emulatorServer.js']) {
    const file = join(ROOT, 'dist', name);
    if (!existsSync(file)) throw new Error(`${file} is missing: run node esbuild.mjs --production first`);
  }
  printRow('bundle dist/extension.js', kb(join(ROOT, 'dist/extension.js')), `${kb(join(EMPTY, 'dist/extension.js'))} empty extension`, 'target < 1 MB');
  printRow('bundle dist/session.js', kb(join(ROOT, 'dist/session.js')), '', 'the client, loaded with the first connection');
  printRow('bundle dist/zod.js', kb(join(ROOT, 'dist/zod.js')), '', 'zod, shared by every module of the extension that validates');
  printRow('bundle dist/cli.js', kb(join(ROOT, 'dist/cli.js')), '', '');
  printRow('bundle dist/emulator.js', kb(join(ROOT, 'dist/emulator.js')), '', 'the process the extension starts, around dist/emulatorServer.js');
  printRow('bundle dist/emulatorServer.js', kb(join(ROOT, 'dist/emulatorServer.js')), '', 'the emulator, shared with dam emulator; plus PGlite wasm/data beside it');
  await activation();
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
