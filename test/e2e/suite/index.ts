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
  });
  const files = readdirSync(__dirname)
    .filter((name) => name.endsWith('.test.js'))
    .sort();
  if (files.length === 0) throw new Error(`no *.test.js files found in ${__dirname}`);
  for (const name of files) mocha.addFile(join(__dirname, name));
  // run.mjs streams the host's output from this line on; what the workbench logged before is kept for failures.
  console.log(`${SUITE_START_MARKER} ${files.length} file(s): ${files.join(', ')}`);

  const failures = await new Promise<number>((resolve, reject) => {
    try {
      mocha.run(resolve);
    } catch (error) {
      reject(error);
    }
  });
  if (failures > 0) throw new Error(`${failures} extension test(s) failed`);
}
