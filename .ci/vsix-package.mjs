// The linux-x64 .vsix as a Linux user receives it (issue 37): packages it (package.mjs, which fails a platform
// package over 25 MB), installs it with `code-server --install-extension` into a folder outside the project (so no
// node_modules of ours is in reach), runs the emulator the extension starts (its dist/emulator.js, on the Node.js
// code-server runs extensions with), uploads a 24-megapixel JPEG with the `dam` the package carries and downloads its
// thumbnail. The emulator's log must say that sharp made it: the universal package would say jimp.
// Run as `node --import tsx .ci/vsix-package.mjs` (a step of .ci/run); leaves dist/dam-workbench-linux-x64.vsix.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureHarness, installVsix, PROJECT_ROOT } from '../test/e2e/harness.mjs';
import { parseListening } from '../src/core/contract/index.ts';

const TARGET = 'linux-x64';
const WIDTH = 6000;
const HEIGHT = 4000;

function fail(message) {
  throw new Error(`vsix-package: ${message}`);
}

/** A 24 MP camera-like JPEG: a smooth gradient with a little noise (a few MB, as a phone's photo is). */
async function photo(file, sharp) {
  const data = Buffer.alloc(WIDTH * HEIGHT * 3);
  let s = 7;
  for (let y = 0, i = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++, i += 3) {
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      const n = (s >> 16) % 16;
      data[i] = ((x * 255) / WIDTH + n) & 255;
      data[i + 1] = ((y * 255) / HEIGHT + n) & 255;
      data[i + 2] = (128 + n) & 255;
    }
  }
  writeFileSync(file, await sharp(data, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).jpeg({ quality: 90 }).toBuffer());
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'dam-vsix-package-'));
  let emulator;
  try {
    const packaged = spawnSync(process.execPath, ['package.mjs', '--target', TARGET, '--no-universal'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    if (packaged.status !== 0) fail(`package.mjs --target ${TARGET} failed:\n${packaged.stdout.slice(-3000)}\n${packaged.stderr.slice(-3000)}`);
    const vsix = join(PROJECT_ROOT, 'dist', `dam-workbench-${TARGET}.vsix`);
    console.log(`packaged ${vsix}: ${(statSync(vsix).size / 1048576).toFixed(1)} MB (bound 25 MB, checked by package.mjs)`);

    const extensionsDir = join(work, 'extensions');
    await installVsix(vsix, extensionsDir);
    const folder = readdirSync(extensionsDir).find((name) => name.startsWith('dam-workbench.dam-workbench-'));
    if (!folder) fail(`code-server installed no dam-workbench into ${extensionsDir}: ${readdirSync(extensionsDir).join(', ')}`);
    const extension = join(extensionsDir, folder);
    if (!existsSync(join(extension, 'dist', 'node_modules', '@img', `sharp-${TARGET}`))) fail(`the installed extension (${extension}) carries no @img/sharp-${TARGET}`);
    console.log(`installed with code-server --install-extension: ${folder}`);

    // The fixture is made with the checkout's sharp when it loads, else with the one in the package.
    const sharp = (() => {
      try {
        return createRequire(join(PROJECT_ROOT, 'package.json'))('sharp');
      } catch {
        return createRequire(join(extension, 'dist', 'imageWorker.js'))('sharp');
      }
    })();
    const file = join(work, 'camera-photo.jpg');
    await photo(file, sharp);

    const { nodeBinDir } = await ensureHarness();
    const node = join(nodeBinDir, 'node');
    const env = { ...process.env, ELECTRON_RUN_AS_NODE: '1', NODE_PATH: '' };
    delete env.DAM_IMAGE_ENGINE;
    emulator = spawn(node, [join(extension, 'dist', 'emulator.js'), '--port', '0', '--data', join(work, 'data'), '--seed', 'empty'], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let log = '';
    emulator.stderr.on('data', (chunk) => (log += chunk));
    const url = await new Promise((resolve, reject) => {
      emulator.stdout.on('data', (chunk) => {
        out += chunk;
        const found = parseListening(out);
        if (found) resolve(found);
      });
      emulator.once('exit', (code) => reject(new Error(`the packaged emulator exited (${code}) before it listened:\n${log}`)));
    });
    console.log(`the installed extension's emulator listens on ${url}`);

    const dam = (...args) => {
      const r = spawnSync(node, [join(extension, 'dist', 'cli.js'), ...args, '--url', url], { cwd: work, env, encoding: 'utf8' });
      if (r.status !== 0) fail(`dam ${args.join(' ')} failed (${r.status}):\n${r.stderr}`);
      return r.stdout;
    };
    const [uploaded] = JSON.parse(dam('upload', file, '--json'));
    if (!uploaded?.recordId) fail(`dam upload made no record: ${JSON.stringify(uploaded)}`);
    const thumbnail = JSON.parse(dam('get', `record/${uploaded.recordId}/thumbnail`));
    if (thumbnail.width !== 256) fail(`the thumbnail is ${thumbnail.width} px wide, not 256: ${JSON.stringify(thumbnail)}`);
    const res = await fetch(thumbnail.uri, { headers: { 'user-agent': 'dam-ci-vsix' } });
    const png = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200 || png.subarray(1, 4).toString('latin1') !== 'PNG') fail(`the thumbnail's download answered ${res.status}, ${png.length} bytes that are not a PNG`);
    // Written before the answer went out; the pipe may hand it over a moment later.
    for (let i = 0; i < 50 && !/images: .* was made with /.test(log); i++) await new Promise((r) => setTimeout(r, 100));
    const said = /images: .* was made with .*/.exec(log)?.[0];
    console.log(`the emulator's log: ${said ?? '(no images line)'}`);
    if (!said || !/ with sharp \d/.test(said)) fail(`the packaged emulator did not make the thumbnail with sharp. Its log:\n${log}`);
    console.log(`vsix-package: the ${TARGET} package installs, and its emulator makes a 24 MP JPEG's thumbnail with sharp`);
  } finally {
    if (emulator && emulator.exitCode === null) {
      emulator.kill('SIGTERM');
      await new Promise((r) => emulator.once('exit', r));
    }
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err.message ?? err);
  process.exitCode = 1;
});
