// Loads the session module (bundled apart as dist/session.js) on first use. A plain `require`, not
// `import()`, so VS Code's hooks for the `vscode` module apply to it as to the main bundle.
import type * as SessionModule from './session.js';

let loaded: typeof SessionModule | undefined;

export function loadSession(): typeof SessionModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('./session.js') as typeof SessionModule;
  return loaded;
}
