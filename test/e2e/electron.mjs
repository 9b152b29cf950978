// The same in-host mocha suite through @vscode/test-electron, for machines that can download VS Code
// (run.mjs uses it when DAM_E2E_RUNNER=electron; on a headless Linux run it under xvfb-run).
// DAM_E2E_VSCODE_VERSION picks the VS Code build to download (default `stable`).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { HARNESS_DIR, PROJECT_ROOT } from './harness.mjs';

/** Runs the compiled suite at `extensionTestsPath` in a downloaded VS Code; resolves to an exit code. */
export async function runWithElectron({ extensionTestsPath, env = {} }) {
  const runDir = mkdtempSync(join(tmpdir(), 'dame2e-electron-'));
  const workspace = join(runDir, 'workspace');
  mkdirSync(workspace);
  const damEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => key.startsWith('DAM_')));
  try {
    await runTests({
      version: process.env.DAM_E2E_VSCODE_VERSION ?? 'stable',
      // Beside the code-server cache, git-ignored, rather than .vscode-test/ in the project root.
      cachePath: join(HARNESS_DIR, 'vscode-test'),
      extensionDevelopmentPath: PROJECT_ROOT,
      extensionTestsPath,
      extensionTestsEnv: { ...damEnv, DAM_E2E: '1', ...env },
      launchArgs: [
        workspace,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        `--user-data-dir=${join(runDir, 'user-data')}`,
        `--extensions-dir=${join(runDir, 'extensions')}`,
      ],
    });
    return 0;
  } catch (error) {
    console.error(`extension suite (electron) failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    if (!process.env.DAM_E2E_KEEP) rmSync(runDir, { recursive: true, force: true });
  }
}
