// Loads the task commands module (bundled apart as dist/tasks.js) on first use. A plain `require`, as for
// the session module, so VS Code's hooks for the `vscode` module apply to it.
import type * as TaskModuleExports from './module.js';

let loaded: typeof TaskModuleExports | undefined;

export function loadTaskModule(): typeof TaskModuleExports {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('./tasks.js') as typeof TaskModuleExports;
  return loaded;
}
