// Loads the check publishing module (bundled apart as dist/files.js) on first use. A plain `require`, as for
// the session module, so VS Code's hooks for the `vscode` module apply to it.
import type * as ChecksModuleExports from './checksModule.js';

let loaded: typeof ChecksModuleExports | undefined;

export function loadChecksModule(): typeof ChecksModuleExports {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('./files.js') as typeof ChecksModuleExports;
  return loaded;
}
