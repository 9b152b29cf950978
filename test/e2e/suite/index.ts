// Mocha runner loaded inside the extension host (by code-server's smoke-test payload or by
// @vscode/test-electron): runs every compiled *.test.js beside it and rejects when any test fails.
import Mocha from 'mocha';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Printed once mocha is about to start; test/e2e/run.mjs looks for it. */
export const SUITE_START_MARKER = '[dam-e2e] mocha starting:';

export async function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    reporter: 'spec',
    // The first activation can include a cold start of the extension host.
    timeout: Number(process.env.DAM_E2E_TEST_TIMEOUT_MS ?? 60_000),
    color: process.env.CI !== 'true',
    grep: process.env.DAM_E2E_GREP || undefined,
    // A failed test runs once more (DAM_E2E_SUITE_RETRIES=0: not), and one that passes only then is named below as
    // flaky: a busy CI machine must not sink a run on one timing, nor hide that it happened.
    retries: Number(process.env.DAM_E2E_SUITE_RETRIES ?? 1),
  });
  const files = readdirSync(__dirname)
    .filter((name) => name.endsWith('.test.js'))
    .sort();
  if (files.length === 0) throw new Error(`no *.test.js files found in ${__dirname}`);
  for (const name of files) mocha.addFile(join(__dirname, name));
  // run.mjs streams the host's output from this line on; what the workbench logged before is kept for failures.
  console.log(`${SUITE_START_MARKER} ${files.length} file(s): ${files.join(', ')}`);

  const retried: { title: string; error: string }[] = [];
  const failures = await new Promise<number>((resolve, reject) => {
    try {
      const runner = mocha.run(resolve);
      runner.on(Mocha.Runner.constants.EVENT_TEST_RETRY, (test: Mocha.Test, err: unknown) => {
        const error = String((err as Error)?.stack ?? err).split('\n').slice(0, 4).join('\n      ');
        retried.push({ title: test.fullTitle(), error });
        console.log(`    (failed, running it once more: ${test.fullTitle()}\n      ${error})`);
      });
    } catch (error) {
      reject(error);
    }
  });
  if (retried.length > 0) {
    console.log(`\nFLAKY or FAILED: ${retried.length} extension test(s) failed a first time (the spec above says whether the second passed):`);
    for (const { title, error } of retried) console.log(`  ${title}\n      ${error}`);
  }
  if (failures > 0) throw new Error(`${failures} extension test(s) failed`);
}
