// Parts of the extension bundled apart (esbuild.mjs: dist/session.js, query.js, tasks.js, files.js, analytics.js, inspector.js)
// and loaded on first use, so activation stays light. Each caller passes a plain `require` of its bundle, not
// `import()`, so VS Code's hooks for the `vscode` module apply to it as to the main bundle, and esbuild sees the
// literal name it keeps external.

/** A loader that requires the module the first time it is called and hands out the same exports after. */
export function lazyModule<T>(load: () => unknown): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load() as T);
}
