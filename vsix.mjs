// Packages the extension (`npm run package`, and the UI tests' .vsix through test/e2e/harness.mjs), and refuses a
// package that lacks a file it shows: every asset package.json's contributions name (icons, walkthrough media and
// markdown, grammars, language configurations, schemas), every relative link of the walkthrough's markdown and of
// README.extension.md, and every file the webviews load. A missing one is a build failure, not a broken picture
// (issue 35: the walkthrough's record step showed a broken image, media/screenshots/record.png being left out by
// the .vscodeignore whitelist).
//
//   node vsix.mjs [--out FILE]    `vsce package` with the project's options, then the check of the files it packed
//   node vsix.mjs --check         only the check
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(fileURLToPath(import.meta.url));
/** The Details page: vsce packs it as `extension/readme.md`. */
export const README_PATH = 'README.extension.md';
/** `vsce package` options shared by `npm run package` and the tests' package. */
export const VSCE_OPTIONS = ['--no-dependencies', '--readme-path', README_PATH, '--githubBranch', 'main'];

/** Keys of package.json contributions whose string values name files of the extension. */
const FILE_KEYS = new Set(['icon', 'image', 'markdown', 'svg', 'path', 'configuration', 'url', 'light', 'dark', 'hc', 'hcLight']);

const isLocalFile = (value) => typeof value === 'string' && !/^[a-z][\w+.-]*:/i.test(value) && !value.startsWith('$(') && !value.startsWith('#') && /\.\w+$/.test(value);
const normal = (p) => posix.normalize(p.replace(/\\/g, '/')).replace(/^\.\//, '');

/** Files package.json names, each with where it was named. */
function manifestAssets(manifest) {
  const out = [];
  if (isLocalFile(manifest.icon)) out.push({ path: normal(manifest.icon), from: 'package.json icon' });
  if (isLocalFile(manifest.main)) out.push({ path: normal(manifest.main), from: 'package.json main' });
  const walk = (value, at) => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${at}[${i}]`));
    else if (value && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) {
        if (FILE_KEYS.has(key) && isLocalFile(v)) out.push({ path: normal(v), from: `package.json ${at}.${key}` });
        else walk(v, `${at}.${key}`);
      }
    }
  };
  walk(manifest.contributes ?? {}, 'contributes');
  return out;
}

/** Relative links and images of a markdown file, resolved from the file's folder. */
function markdownAssets(root, file) {
  const text = readFileSync(join(root, file), 'utf8');
  const out = [];
  const links = [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g), ...text.matchAll(/<img\b[^>]*\bsrc=["']([^"']+)["']/gi)].map((m) => m[1]);
  for (const link of links) {
    const target = link.split('#')[0].split('?')[0];
    if (!target || !isLocalFile(target)) continue;
    out.push({ path: normal(posix.join(posix.dirname(file), decodeURI(target))), from: `${file} (${link})` });
  }
  return out;
}

/** Files the webviews load: `joinPath(extensionUri, 'media' | 'dist', …)` with literal segments, and joins onto such a folder. */
function webviewAssets(root) {
  const out = [];
  const dir = join(root, 'src', 'extension');
  const files = readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.ts'));
  const literals = (args) => {
    const parts = args.split(',').map((s) => s.trim());
    return parts.every((p) => /^'[^']*'$/.test(p)) ? parts.map((p) => p.slice(1, -1)) : undefined;
  };
  for (const f of files) {
    const file = join(dir, String(f));
    const text = readFileSync(file, 'utf8');
    const bases = new Map();
    for (const m of text.matchAll(/const (\w+) = vscode\.Uri\.joinPath\((?:[\w.]*\.)?extensionUri, ([^)]*)\)/g)) {
      const segments = literals(m[2]);
      if (segments) bases.set(m[1], segments);
    }
    for (const m of text.matchAll(/vscode\.Uri\.joinPath\(((?:[\w.]*\.)?extensionUri|\w+), ([^)]*)\)/g)) {
      const base = m[1].endsWith('extensionUri') ? [] : bases.get(m[1]);
      const segments = base && literals(m[2]);
      if (!segments) continue;
      const path = [...base, ...segments].join('/');
      if (/^(media|dist)\//.test(path) && /\.\w+$/.test(path)) out.push({ path, from: `${relative(root, file)} (webview)` });
    }
  }
  return out;
}

/** Markdown the package shows: the walkthrough's steps and the Details page. */
function shownMarkdown(root, manifest) {
  const md = manifestAssets(manifest).map((a) => a.path).filter((p) => p.endsWith('.md'));
  return [...new Set([...md, README_PATH])].filter((p) => existsSync(join(root, p)));
}

/** Every file the package must hold for what it shows, with where each is named. */
export function referencedAssets(root = ROOT) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const all = [...manifestAssets(manifest), ...shownMarkdown(root, manifest).flatMap((md) => markdownAssets(root, md)), ...webviewAssets(root)];
  const seen = new Set();
  return all.filter((a) => !seen.has(`${a.path} ${a.from}`) && seen.add(`${a.path} ${a.from}`));
}

/**
 * What is missing: each referenced file the packaged file list (paths relative to the project, as `vsce ls` prints
 * them) does not hold, in words. Empty when the package is whole.
 */
export function missingAssets(files, root = ROOT) {
  const packaged = new Set(files.map(normal));
  return referencedAssets(root)
    .filter((a) => !packaged.has(a.path))
    .map((a) => `${a.path} (named by ${a.from}) is not in the package${existsSync(join(root, a.path)) ? ': add it to the .vscodeignore whitelist' : ', nor in the project'}`);
}

/** The files `vsce package` would pack, as `vsce ls` lists them. */
export async function packagedFiles(root = ROOT) {
  const require = createRequire(join(root, 'package.json'));
  const vsce = require('@vscode/vsce');
  return vsce.listFiles({ cwd: root, packageManager: vsce.PackageManager.None, readmePath: README_PATH });
}

/** Fails (throws, in words) when the package would lack a file it shows. */
export async function checkPackage(root = ROOT) {
  const missing = missingAssets(await packagedFiles(root), root);
  if (missing.length) throw new Error(`The package lacks ${missing.length === 1 ? 'a file it shows' : `${missing.length} files it shows`}:\n  ${missing.join('\n  ')}`);
}

async function main(argv) {
  if (argv.includes('--check')) {
    await checkPackage();
    console.log(`vsix: every file the package shows is in it (${referencedAssets().length} references)`);
    return;
  }
  const at = argv.indexOf('--out');
  const out = at >= 0 ? resolve(argv[at + 1]) : join(ROOT, 'dist', 'dam-workbench.vsix');
  const vsce = join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  const run = spawnSync(process.execPath, [vsce, 'package', ...VSCE_OPTIONS, '--out', out], { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
  // Checked after vsce's prepublish step has built dist/, so the bundles the package runs are checked too; the list is
  // the one vsce packed (the same whitelist). A package that lacks a file is not left behind to be installed.
  try {
    await checkPackage();
  } catch (err) {
    rmSync(out, { force: true });
    throw err;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(`vsix: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
