// Bundles the three faces: the extension (vscode external), the `dam` CLI, and the emulator process.
// Quiet on success so `npm run --silent dam -- …` prints only the command's own output.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
const verbose = watch || process.argv.includes('--verbose');

// Packages that locate sibling files through import.meta.url need it defined in a CJS bundle.
const importMetaShim = {
  banner: { js: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  define: { 'import.meta.url': '__importMetaUrl' },
};

const ACTIVATION_STAMP = 'var __damLoadStart = performance.now();';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: verbose ? 'info' : 'warning',
  legalComments: 'none',
  // Prefer ES modules: some packages (jsonc-parser) ship a UMD `main` whose dynamic requires esbuild cannot follow.
  mainFields: ['module', 'main'],
};

/** How an extension bundle is built; the activation benchmark builds its empty baseline extension the same way. */
export function extensionBuildOptions(entry, outfile, forProduction = production) {
  return {
    ...common,
    sourcemap: forProduction ? false : 'linked',
    minify: forProduction,
    entryPoints: [entry],
    outfile,
    // `./session.js` is the client and its schemas, bundled apart and loaded with the first connection.
    // `./analytics.js` is the analytics panel, loaded when the first `.dam-analytics.json` builder opens.
    // `./query.js` is the `.dam-query` language and results panel, loaded when the first query file opens.
    // `./tasks.js` is the task form and flows, loaded on the first task command.
    // `./files.js` is the check file parser and rollup, loaded on the first publish or Check Results read.
    // `./inspector.js` is the Emulator Requests view, loaded when it first shows or an inspector command runs.
    external: ['vscode', './session.js', './analytics.js', './query.js', './tasks.js', './files.js', './inspector.js'],
    banner: { js: ACTIVATION_STAMP },
  };
}

const builds = [
  // The banner stamps the moment the bundle starts loading, so activation time includes module load.
  extensionBuildOptions('src/extension/extension.ts', 'dist/extension.js'),
  { ...extensionBuildOptions('src/extension/connections/session.ts', 'dist/session.js'), banner: {} },
  { ...extensionBuildOptions('src/extension/analytics/panel.ts', 'dist/analytics.js'), banner: {} },
  { ...extensionBuildOptions('src/extension/query/module.ts', 'dist/query.js'), banner: {} },
  { ...extensionBuildOptions('src/extension/tasks/module.ts', 'dist/tasks.js'), banner: {} },
  { ...extensionBuildOptions('src/extension/files/checksModule.ts', 'dist/files.js'), banner: {} },
  { ...extensionBuildOptions('src/extension/inspector/module.ts', 'dist/inspector.js'), banner: {} },
  { ...common, ...importMetaShim, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node\n' + importMetaShim.banner.js } },
  { ...common, ...importMetaShim, entryPoints: ['src/emulator/main.ts'], outfile: 'dist/emulator.js' },
  // Initialises a new data folder in a process of its own, for the emulator (src/emulator/storage/pglite.ts).
  { ...common, ...importMetaShim, entryPoints: ['src/emulator/storage/initdbMain.ts'], outfile: 'dist/initdb.js' },
  // The image worker process (src/emulator/images/pool.ts). sharp is a native module, so it is not bundled: it loads
  // from node_modules where npm installed it, and where it cannot (the .vsix, a platform without a prebuilt binary)
  // the worker decodes with jimp, which is bundled.
  { ...common, ...importMetaShim, entryPoints: ['src/emulator/images/imageWorker.ts'], outfile: 'dist/imageWorker.js', external: ['sharp'] },
];

// Webview scripts: each `media/webviews/<name>/main.ts` becomes `dist/webviews/<name>.js`, an IIFE for the browser
// that the panel's HTML loads under its CSP nonce. Message types shared with the extension are imported, not copied.
const webviewDir = 'media/webviews';
if (existsSync(webviewDir)) {
  for (const name of readdirSync(webviewDir)) {
    const entry = join(webviewDir, name, 'main.ts');
    if (!existsSync(entry)) continue;
    builds.push({
      ...common,
      platform: 'browser',
      target: 'es2022',
      format: 'iife',
      mainFields: ['browser', 'module', 'main'],
      entryPoints: [entry],
      outfile: join('dist', 'webviews', `${name}.js`),
    });
  }
}

// PGlite loads its WebAssembly, data bundle and extensions from beside the running script.
function copyRuntimeAssets() {
  mkdirSync('dist', { recursive: true });
  const pgliteDir = dirname(require.resolve('@electric-sql/pglite'));
  for (const name of ['pglite.wasm', 'pglite.data', 'initdb.wasm', 'pg_trgm.tar.gz']) {
    const from = join(pgliteDir, name);
    if (existsSync(from)) copyFileSync(from, join('dist', name));
  }
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href;
if (!isMain) {
  // Imported for its options (benchmarks): build nothing.
} else if (watch) {
  copyRuntimeAssets();
  const contexts = await Promise.all(builds.map((options) => esbuild.context(options)));
  await Promise.all(contexts.map((context) => context.watch()));
  console.log('esbuild: watching src/ for changes');
} else {
  copyRuntimeAssets();
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
