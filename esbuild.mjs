// Bundles the three faces: the extension (vscode external), the `dam` CLI, and the emulator process, and prepares
// the emulator's tenants (dist/prepared/) when the code that makes them changed.
// Quiet when nothing changed, so `npm run --silent dam -- …` prints only the command's own output; a build says on
// stderr what it does, a step a line with how long that step took last time. Builds nothing when no source changed
// since the last build of the same kind (`--force` builds anyway), so `npm run emulator`, which builds first, starts
// at once the second time.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
const force = process.argv.includes('--force');
const verbose = watch || process.argv.includes('--verbose');

// Packages that locate sibling files through import.meta.url need it defined in a CJS bundle.
const importMetaShim = {
  banner: { js: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  define: { 'import.meta.url': '__importMetaUrl' },
};

const PACKAGE_VERSION = JSON.parse(readFileSync('package.json', 'utf8')).version;

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

/**
 * The emulator's server is bundled once, as dist/emulatorServer.js: the `dam emulator` command's require of it and the
 * emulator process's entry (dist/emulator.js, which the extension starts) both load that file.
 */
const emulatorServerApart = {
  name: 'emulator-server-apart',
  setup(build) {
    build.onResolve({ filter: /(\/emulator\/server|^\.\/server)$/ }, (args) =>
      /[\\/]cli[\\/]commands[\\/]emulator\.ts$|[\\/]emulator[\\/]main\.ts$/.test(args.importer) ? { path: './emulatorServer.js', external: true } : undefined,
    );
  },
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
    // `./emulatorState.js` saves, restores and resets the emulator's state, loaded on the first of those commands.
    // `./tenant.js` is tenant configuration pull and compare, loaded on the first of those commands.
    // `./records.js` is record editing (documents, tree edits, bulk updates), loaded on the first record command or document.
    // `zod` (about 440 KB minified) is bundled once, as `./zod.js`, which every module above that validates loads.
    external: ['vscode', './session.js', './analytics.js', './query.js', './tasks.js', './files.js', './inspector.js', './emulatorState.js', './records.js', './tenant.js', './zod.js'],
    plugins: [zodApart],
    banner: { js: ACTIVATION_STAMP },
  };
}

/** The extension's modules share one copy of zod: `import … from 'zod'` becomes a require of dist/zod.js. */
const zodApart = {
  name: 'zod-apart',
  setup(build) {
    build.onResolve({ filter: /^zod$/ }, () => ({ path: './zod.js', external: true }));
  },
};

const builds = [
  // The banner stamps the moment the bundle starts loading, so activation time includes module load.
  extensionBuildOptions('src/extension/extension.ts', 'dist/extension.js'),
  { ...extensionBuildOptions('src/extension/connections/session.ts', 'dist/session.js'), banner: {} },
  { ...extensionBuildOptions('src/extension/analytics/panel.ts', 'dist/analytics.js'), banner: {} },
  { ...extensionBuildOptions('src/extension/query/module.ts', 'dist/query.js'), banner: {} },
  { ...extensionBuildOptions('src/extension/tasks/module.ts', 'dist/tasks.js'), banner: {} },
  { ...extensionBuildOptions('src/extension/files/checksModule.ts', 'dist/files.js'), banner: {} },
  { ...extensionBuildOptions('src/extension/inspector/module.ts', 'dist/inspector.js'), banner: {} },
  { ...extensionBuildOptions('src/extension/emulator/stateModule.ts', 'dist/emulatorState.js'), banner: {} },
  // zod for the extension's modules (see zodApart).
  { ...common, entryPoints: ['zod'], outfile: 'dist/zod.js', sourcemap: production ? false : 'linked', minify: production },
  { ...extensionBuildOptions('src/extension/records/module.ts', 'dist/records.js'), banner: {} },
  { ...extensionBuildOptions('src/extension/tenant/module.ts', 'dist/tenant.js'), banner: {} },
  // `dam` without the emulator's server: `dam emulator` requires `./emulatorServer.js` (below) when it runs, so every
  // other command starts without compiling fastify, PGlite and the routes (most of a `dam` start was that).
  {
    ...common,
    ...importMetaShim,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node\n' + importMetaShim.banner.js },
    define: { ...importMetaShim.define, DAM_WORKBENCH_VERSION: JSON.stringify(PACKAGE_VERSION) },
    plugins: [emulatorServerApart],
  },
  { ...common, ...importMetaShim, entryPoints: ['src/emulator/server.ts'], outfile: 'dist/emulatorServer.js', stampPrepared: true },
  // The emulator process the extension starts: its flags and signals around dist/emulatorServer.js (a few KB).
  { ...common, ...importMetaShim, entryPoints: ['src/emulator/main.ts'], outfile: 'dist/emulator.js', plugins: [emulatorServerApart] },
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

const STAMP = 'dist/.build-stamp';

/**
 * What the last build was made from: every file's path, size and modification time under the source folders,
 * and the build's kind. Any change, addition or removal changes it. Stat-only: about 10 ms for the whole tree.
 */
function sourceSignature() {
  const hash = createHash('sha256');
  hash.update(production ? 'production\n' : 'development\n');
  const add = (path) => {
    const st = statSync(path);
    if (st.isDirectory()) {
      for (const name of readdirSync(path).sort()) add(join(path, name));
    } else {
      hash.update(`${path}\0${st.size}\0${st.mtimeMs}\n`);
    }
  };
  for (const path of ['src', 'media', 'esbuild.mjs', 'package.json', 'package-lock.json', 'tsconfig.json', 'node_modules/.package-lock.json']) {
    if (existsSync(path)) add(path);
  }
  return hash.digest('hex');
}

const OUTPUTS = ['dist/extension.js', 'dist/zod.js', 'dist/cli.js', 'dist/emulatorServer.js', 'dist/emulator.js', 'dist/initdb.js', 'dist/prepared/prepared.json'];
const upToDate = (signature) =>
  !force && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === signature && OUTPUTS.every((file) => existsSync(file));

const PREPARE_BUNDLE = 'dist/prepare.js';
const PREPARED = 'dist/prepared';

/**
 * Bundles the script that prepares the emulator's tenants and fingerprints what it is made of (its input files'
 * contents and PGlite's version): the tenants are prepared again only when that changes, and the emulator bundles
 * carry the fingerprint so that they use only tenants prepared by the same code.
 */
async function preparedFingerprint(esbuild) {
  const result = await esbuild.build({ ...common, ...importMetaShim, entryPoints: ['src/emulator/state/prepareMain.ts'], outfile: PREPARE_BUNDLE, metafile: true });
  const hash = createHash('sha256');
  hash.update(readFileSync(join(dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json')));
  for (const input of Object.keys(result.metafile.inputs).sort()) hash.update(input).update('\0').update(readFileSync(input)).update('\n');
  return hash.digest('hex').slice(0, 32);
}

/**
 * Says what the build is doing, a line per step on stderr (stdout stays the command's own), each with how long the
 * same step took the last time (dist/.build-times.json), or a first guess, and records how long it took now.
 */
const TIMES = 'dist/.build-times.json';
const FIRST_GUESS = { fingerprint: 3, migrate: 8, 'seed-empty': 6, 'seed-demo': 30, bundles: 15 };
const lastTimes = existsSync(TIMES) ? JSON.parse(readFileSync(TIMES, 'utf8')) : {};
const tookNow = {};
let current;
function step(key, what) {
  const now = performance.now();
  if (current) tookNow[current.key] = (now - current.at) / 1000;
  current = key ? { key, at: now } : undefined;
  if (!key) return;
  const seconds = lastTimes[key] ?? FIRST_GUESS[key];
  const when = seconds === undefined ? '' : ` (about ${seconds < 1 ? 'a second' : `${Math.round(seconds)} s`}${lastTimes[key] === undefined ? '' : ', as last time'})`;
  process.stderr.write(`esbuild: ${what}${when}\n`);
}
function recordTimes() {
  step(undefined);
  const rounded = Object.fromEntries(Object.entries({ ...lastTimes, ...tookNow }).map(([key, s]) => [key, Math.round(s * 10) / 10]));
  writeFileSync(TIMES, `${JSON.stringify(rounded, null, 2)}\n`);
}

async function ensurePrepared(fingerprint) {
  const manifest = join(PREPARED, 'prepared.json');
  if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).fingerprint === fingerprint) return;
  process.stderr.write("esbuild: preparing the emulator's demo and empty tenants in dist/prepared (only when seeds or schema change)\n");
  const partial = `${PREPARED}.partial`;
  rmSync(partial, { recursive: true, force: true });
  const child = spawn(process.execPath, [PREPARE_BUNDLE, partial, fingerprint], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    pending += chunk;
    let newline;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const match = /^step (\S+) (.*)$/.exec(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
      if (match) step(match[1], `  ${match[2]}`);
    }
  });
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`preparing the emulator's tenants failed:\n${stderr}`);
  rmSync(PREPARED, { recursive: true, force: true });
  renameSync(partial, PREPARED);
}

/** The build options esbuild takes: our own `stampPrepared` becomes the fingerprint's define. */
function withFingerprint(options, fingerprint) {
  const { stampPrepared, ...rest } = options;
  if (!stampPrepared || !fingerprint) return rest;
  return { ...rest, define: { ...rest.define, DAM_PREPARED_FINGERPRINT: JSON.stringify(fingerprint) } };
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href;
if (!isMain) {
  // Imported for its options (benchmarks): build nothing.
} else if (watch) {
  const esbuild = await import('esbuild');
  copyRuntimeAssets();
  // Watching builds without prepared tenants: the emulator seeds new data folders itself.
  const contexts = await Promise.all(builds.map((options) => esbuild.context(withFingerprint(options, undefined))));
  await Promise.all(contexts.map((context) => context.watch()));
  console.log('esbuild: watching src/ for changes');
} else {
  const signature = sourceSignature();
  if (!upToDate(signature)) {
    const started = performance.now();
    process.stderr.write(`esbuild: building dist/ (${production ? 'production' : 'development'}): sources changed since the last build\n`);
    const esbuild = await import('esbuild');
    rmSync(STAMP, { force: true });
    copyRuntimeAssets();
    step('fingerprint', 'checking whether the prepared tenants are current');
    const fingerprint = await preparedFingerprint(esbuild);
    await ensurePrepared(fingerprint);
    step('bundles', `bundling the extension, the CLI, the emulator and the webviews, ${builds.length} bundles`);
    await Promise.all(builds.map((options) => esbuild.build(withFingerprint(options, fingerprint))));
    recordTimes();
    writeFileSync(STAMP, signature);
    process.stderr.write(`esbuild: built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  } else if (verbose) {
    console.log('esbuild: dist/ is up to date');
  }
}
