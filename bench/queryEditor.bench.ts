// Query editor latency inside the real VS Code harness on a 10,000-line `.dam-query` file: completion
// and diagnostics (median and p99), beside the same core calls made directly in the same extension
// host and VS Code's built-in JSON completion on a JSON file of the same length, all in one run.
import * as esbuild from 'esbuild';
import { join, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { median, percentile, printRow } from './stats';

const ROOT = resolve(__dirname, '..');
const OUT = join(ROOT, 'bench', 'output');

interface Figures {
  lineCount: number;
  items: number;
  jsonItems: number;
  diagnostics: number;
  relinted: number;
  completion: number[];
  coreCompletion: number[];
  jsonCompletion: number[];
  full: number[];
  coreFull: number[];
  incremental: number[];
  shown: number[];
  debounceMs: number;
}

const ms = (v: number) => `${v.toFixed(2)} ms`;
const mp = (values: number[]) => `${ms(median(values))} / ${ms(percentile(values, 99))}`;

async function main(): Promise<void> {
  const harness = (await import(join(ROOT, 'test/e2e/harness.mjs'))) as {
    findChromium(): string | undefined;
    startWorkbench(options: Record<string, unknown>): Promise<{ testsExitCode: Promise<number>; stop(): Promise<void> }>;
  };
  if (!harness.findChromium()) {
    console.log('query editor: skipped (no Chromium: the VS Code harness cannot run here)');
    return;
  }
  for (const name of ['extension.js', 'query.js']) {
    if (!existsSync(join(ROOT, 'dist', name))) throw new Error(`dist/${name} is missing: run node esbuild.mjs --production first`);
  }
  const probe = join(OUT, 'query-editor-probe/index.js');
  await esbuild.build({
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], logLevel: 'error', mainFields: ['module', 'main'],
    entryPoints: [join(ROOT, 'bench/fixtures/query-editor-probe.ts')], outfile: probe,
  });
  let line = '';
  const output: string[] = [];
  const wb = await harness.startWorkbench({
    extensionTestsPath: probe,
    onLog: (_type: string, text: string) => {
      if (text.includes('DAM_BENCH_QUERY')) line = text;
      else output.push(text);
    },
  });
  try {
    const code = await wb.testsExitCode;
    if (code !== 0 || !line) throw new Error(`the query editor probe failed (exit ${code}):\n${output.slice(-30).join('\n')}`);
  } finally {
    await wb.stop();
  }
  const f = JSON.parse(line.slice(line.indexOf('{'))) as Figures;
  console.log(`${f.lineCount.toLocaleString()}-line .dam-query file; median / p99 of ${f.completion.length} completions and ${f.incremental.length} edits`);
  printRow('completion through VS Code (median / p99)', mp(f.completion), `${mp(f.jsonCompletion)} built-in JSON, same length`, `${f.items} items vs ${f.jsonItems}; ${(median(f.completion) / median(f.jsonCompletion)).toFixed(2)}x JSON`);
  printRow('  the core call alone, same host', mp(f.coreCompletion), '', 'completeInDocument');
  printRow('diagnostics, full check (median / p99)', mp(f.full), `${mp(f.coreFull)} lintDocument alone`, `${f.diagnostics} diagnostics`);
  printRow('diagnostics after a one-section edit', mp(f.incremental), `${mp(f.full)} full check`, `${f.relinted} section re-linted; ${(median(f.full) / median(f.incremental)).toFixed(0)}x less`);
  printRow('edit to diagnostics shown (median / p99)', mp(f.shown), `${f.debounceMs} ms pause`, 'debounced: the check waits for typing to stop');
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
