// Loads the query language module (bundled apart as dist/query.js) on first use. A plain `require`,
// as for the session module, so VS Code's hooks for the `vscode` module apply to it.
import type * as QueryModule from './module.js';

let loaded: typeof QueryModule | undefined;

export function loadQueryModule(): typeof QueryModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('./query.js') as typeof QueryModule;
  return loaded;
}
