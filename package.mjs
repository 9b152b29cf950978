// Packages the extension (`npm run package`): the universal .vsix, whose emulator decodes images with jimp (pure
// JavaScript, bundled), and one .vsix per platform that also carries sharp with that platform's prebuilt libvips, so
// the emulator in it makes a camera photo's thumbnail in tens of milliseconds instead of seconds (issue 37).
//
//   node package.mjs                          the universal package and every platform's (PLATFORMS below)
//   node package.mjs --target linux-x64       the universal package and linux-x64's (a list: linux-x64,darwin-arm64)
//   node package.mjs --target linux-x64 --no-universal
//
// sharp's binaries are npm packages (`@img/sharp-<platform>`, `@img/sharp-libvips-<platform>`): each platform's are
// installed from the npm registry with `npm install --os --cpu [--libc]` into a staging folder of their own
// (dist/native/), at the sharp version package-lock.json holds, without install scripts. The package is made from a
// copy of the universal package's files (dist/stage/<target>/) with those modules in its dist/node_modules, where the
// image worker (dist/imageWorker.js) finds `require('sharp')`. vsce never packs a top-level node_modules under
// --no-dependencies, and the checkout's own node_modules holds this machine's binaries only, hence the copy.
// Prints each package's size; a platform package over MAX_MB fails the run.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VSCE_OPTIONS } from './vsix.mjs';

const ROOT = dirname(fileURLToPath(import.meta.url));
/** The targets VS Code's Marketplace serves a package of their own, with their npm os/cpu/libc. */
export const PLATFORMS = {
  'linux-x64': { os: 'linux', cpu: 'x64', libc: 'glibc' },
  'linux-arm64': { os: 'linux', cpu: 'arm64', libc: 'glibc' },
  'darwin-x64': { os: 'darwin', cpu: 'x64' },
  'darwin-arm64': { os: 'darwin', cpu: 'arm64' },
  'win32-x64': { os: 'win32', cpu: 'x64' },
};
/** Issue 37's bound on a platform package. */
const MAX_MB = 25;
const VSCE = join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
const COMMON = VSCE_OPTIONS;
/** What of sharp's packages the image worker never loads: C++ sources, the from-source install step, type files. */
const UNUSED = [/^sharp\/(src|install)\//, /\.d\.ts$/, /\.md$/i, /(^|\/)\.github\//];

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal})`);
  return r;
}

const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;

/** The sharp version the lock file holds (what a checkout decodes with), so every package carries the same one. */
function sharpVersion() {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
  const version = lock.packages?.['node_modules/sharp']?.version;
  if (!version) throw new Error('package-lock.json holds no node_modules/sharp: run npm install first');
  return version;
}

/** sharp and its dependencies for one platform, installed once per sharp version into dist/native/. */
function nativeModules(target, version) {
  const { os, cpu, libc } = PLATFORMS[target];
  const dir = join(ROOT, 'dist', 'native', `sharp-${version}-${target}`);
  const binary = join(dir, 'node_modules', '@img', `sharp-${target}`, 'package.json');
  if (!existsSync(binary)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
    const platform = [`--os=${os}`, `--cpu=${cpu}`, ...(libc ? [`--libc=${libc}`] : [])];
    // No scripts: the prebuilt binary needs none, and none of another platform's could run here anyway.
    run('npm', ['install', '--prefix', dir, ...platform, '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock', '--omit=dev', `sharp@${version}`], {
      stdio: ['ignore', 'inherit', 'inherit'],
      shell: process.platform === 'win32',
    });
    if (!existsSync(binary)) throw new Error(`npm installed no @img/sharp-${target} for sharp ${version} (${dir})`);
  }
  return join(dir, 'node_modules');
}

/** The files the universal package holds, as vsce lists them. */
function universalFiles() {
  const r = spawnSync(process.execPath, [VSCE, 'ls', ...COMMON.filter((a) => a !== '--githubBranch' && a !== 'main')], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`vsce ls failed: ${r.stderr}`);
  return r.stdout.split('\n').map((l) => l.trim()).filter(Boolean);
}

function packagePlatform(target, files, version) {
  const stage = join(ROOT, 'dist', 'stage', target);
  rmSync(stage, { recursive: true, force: true });
  for (const file of [...files, 'README.extension.md', '.vscodeignore']) {
    mkdirSync(dirname(join(stage, file)), { recursive: true });
    cpSync(join(ROOT, file), join(stage, file));
  }
  const natives = nativeModules(target, version);
  cpSync(natives, join(stage, 'dist', 'node_modules'), {
    recursive: true,
    filter: (src) => !UNUSED.some((re) => re.test(src.slice(natives.length + 1).replaceAll('\\', '/'))),
  });
  writeFileSync(join(stage, '.vscodeignore'), `${readFileSync(join(ROOT, '.vscodeignore'), 'utf8').trimEnd()}\n!dist/node_modules/**\n`);
  // The stage holds the production build already; vsce would run the build's prepublish script, which is not here.
  const manifest = JSON.parse(readFileSync(join(stage, 'package.json'), 'utf8'));
  delete manifest.scripts['vscode:prepublish'];
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const out = join(ROOT, 'dist', `dam-workbench-${target}.vsix`);
  run(process.execPath, [VSCE, 'package', ...COMMON, '--target', target, '--out', out], { cwd: stage });
  rmSync(stage, { recursive: true, force: true });
  return out;
}

function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf('--target');
  const targets = at >= 0 ? (args[at + 1] ?? '').split(',').filter(Boolean) : Object.keys(PLATFORMS);
  const unknown = targets.filter((t) => !(t in PLATFORMS));
  if (unknown.length) throw new Error(`unknown target ${unknown.join(', ')}: one of ${Object.keys(PLATFORMS).join(', ')}`);
  const made = [];
  // The production build first (vsce's prepublish runs it too, at once when nothing changed).
  run(process.execPath, ['esbuild.mjs', '--production'], { cwd: ROOT });
  if (!args.includes('--no-universal')) {
    const out = join(ROOT, 'dist', 'dam-workbench.vsix');
    // vsix.mjs packs it and refuses a package that lacks a file it shows (the platform packages copy its files).
    run(process.execPath, ['vsix.mjs', '--out', out], { cwd: ROOT });
    made.push({ target: 'universal (jimp)', out });
  }
  if (targets.length) {
    const version = sharpVersion();
    const files = universalFiles();
    for (const target of targets) made.push({ target: `${target} (sharp ${version})`, out: packagePlatform(target, files, version), bounded: true });
  }
  let over = 0;
  for (const { target, out, bounded } of made) {
    const size = statSync(out).size;
    const tooBig = bounded && size > MAX_MB * 1048576;
    if (tooBig) over++;
    console.log(`${target.padEnd(28)} ${mb(size).padStart(8)}  ${resolve(out)}${tooBig ? `  over ${MAX_MB} MB` : ''}`);
  }
  if (over) throw new Error(`${over} platform package(s) over ${MAX_MB} MB`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (err) {
    console.error(`package.mjs: ${err.message}`);
    process.exitCode = 1;
  }
}
