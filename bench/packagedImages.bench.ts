// Camera photos in the packaged extension (issue 37): the linux-x64 .vsix installed as a user installs it
// (code-server --install-extension, into a folder outside the project), its emulator beside the checkout's emulator
// (dist/emulator.js, sharp from node_modules) in the same run: a 24 MP JPEG uploaded as a new record to each, then its
// thumbnail downloaded (made on that first request, in the image worker), rounds alternating. Reports the median time
// to the thumbnail on each side and their ratio (target <= 1.5x), the packaged render worker's peak resident memory
// (target < 300 MB, read from /proc) and each package's size (target <= 25 MB). Builds the package when it is missing
// (node package.mjs --target linux-x64 --no-universal). DAM_BENCH_ROUNDS changes the rounds (default 5).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DamClient } from '../src/api/client';
import { EMULATOR_CLIENT, emulatorProfile } from '../src/api/endpoints';
import { UNPACED } from '../src/api/pacing';
import { loadSharp } from '../src/emulator/images/imageWork';
import { exited, startEmulatorProcess, type EmulatorProcess } from '../test/support/emulatorProcess';
import { readAll, uploadBytes } from '../test/conformance/fileFixtures';
import { median, printRow } from './stats';

const ROOT = resolve(__dirname, '..');
const ROUNDS = Number(process.env.DAM_BENCH_ROUNDS ?? 5);
const TARGET = 'linux-x64';
const WIDTH = 6000;
const HEIGHT = 4000;

/** The render workers of an emulator: its children running imageWorker, not the probe lane (128 MB heap). */
function renderWorkerPeaks(parent: number): number[] {
  const peaks: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== parent) continue;
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (!cmdline.includes('imageWorker') || cmdline.includes('--max-old-space-size=128')) continue;
      const hwm = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${name}/status`, 'utf8'));
      if (hwm) peaks.push(Number(hwm[1]) / 1024);
    } catch {
      // It ended while we looked.
    }
  }
  return peaks;
}

/** A camera-like 24 MP JPEG: a gradient with noise, quality 90. */
async function photo(file: string): Promise<void> {
  const sharp = loadSharp();
  if (!sharp) throw new Error('the checkout has no sharp that loads: the baseline cannot be measured');
  const data = Buffer.alloc(WIDTH * HEIGHT * 3);
  let s = 7;
  for (let y = 0, i = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++, i += 3) {
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      const n = (s >> 16) % 24;
      data[i] = ((x * 255) / WIDTH + n) & 255;
      data[i + 1] = ((y * 255) / HEIGHT + n) & 255;
      data[i + 2] = (128 + n) & 255;
    }
  }
  writeFileSync(file, await sharp(data, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).jpeg({ quality: 90 }).toBuffer());
}

/** Uploads the photo as a new record, then times its thumbnail's first download (rendered on that request). */
async function thumbnailMs(url: string, file: string, round: number): Promise<number> {
  const client = new DamClient({ profile: emulatorProfile(url), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, pacing: UNPACED, userAgent: 'dam-bench-packaged-images/1' });
  const name = `camera-photo-${round}.jpg`;
  const token = await uploadBytes(client, name, readFileSync(file));
  const id = (await client.files.createRecordFromUpload({ token, title: name })).id;
  const started = performance.now();
  const thumbnail = (await client.get(`record/${id}/thumbnail`)) as { uri: string; width: number };
  const bytes = await readAll((await client.files.download(thumbnail.uri)).body);
  const ms = performance.now() - started;
  if (thumbnail.width !== 256 || bytes.subarray(1, 4).toString('latin1') !== 'PNG') throw new Error(`no 256 px PNG thumbnail from ${url}`);
  return ms;
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'dam-bench-packaged-images-'));
  const running: EmulatorProcess[] = [];
  try {
    const vsix = join(ROOT, 'dist', `dam-workbench-${TARGET}.vsix`);
    if (!existsSync(vsix)) {
      const r = spawnSync(process.execPath, ['package.mjs', '--target', TARGET, '--no-universal'], { cwd: ROOT, stdio: 'inherit' });
      if (r.status !== 0) throw new Error('package.mjs failed');
    }
    const harness = (await import(join(ROOT, 'test/e2e/harness.mjs'))) as { installVsix(vsix: string, dir: string): Promise<void> };
    const extensions = join(work, 'extensions');
    await harness.installVsix(vsix, extensions);
    const folder = readdirSync(extensions).find((n) => n.startsWith('dam-workbench.dam-workbench-'));
    if (!folder) throw new Error(`nothing installed in ${extensions}`);
    const packagedEntry = [join(extensions, folder, 'dist', 'emulator.js')];
    const file = join(work, 'camera-photo.jpg');
    await photo(file);
    console.log(`${WIDTH}×${HEIGHT} JPEG, ${(statSync(file).size / 1048576).toFixed(1)} MB; ${ROUNDS} rounds alternating; the ${TARGET} package installed with code-server --install-extension`);
    const sides = {
      checkout: await startEmulatorProcess({ data: join(work, 'checkout'), entry: ['dist/emulator.js'] }),
      packaged: await startEmulatorProcess({ data: join(work, 'packaged'), entry: packagedEntry, env: { NODE_PATH: '' } }),
    };
    running.push(sides.checkout, sides.packaged);
    const times: Record<keyof typeof sides, number[]> = { checkout: [], packaged: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? (['checkout', 'packaged'] as const) : (['packaged', 'checkout'] as const)) {
        times[side].push(await thumbnailMs(sides[side].url, file, round));
      }
    }
    const packaged = median(times.packaged);
    const checkout = median(times.checkout);
    printRow('24 MP JPEG → thumbnail, packaged linux-x64 extension (median)', `${packaged.toFixed(0)} ms`, `checkout ${checkout.toFixed(0)} ms`, `${(packaged / checkout).toFixed(2)}x; target <= 1.5x`);
    const peak = Math.max(...renderWorkerPeaks(sides.packaged.child.pid!));
    printRow('  its render worker, peak resident memory', `${peak.toFixed(0)} MB`, `checkout ${Math.max(...renderWorkerPeaks(sides.checkout.child.pid!)).toFixed(0)} MB`, 'target < 300 MB');
    for (const name of readdirSync(join(ROOT, 'dist')).filter((n) => /^dam-workbench.*\.vsix$/.test(n)).sort()) {
      const size = statSync(join(ROOT, 'dist', name)).size / 1048576;
      printRow(`  ${name}`, `${size.toFixed(1)} MB`, '', name === 'dam-workbench.vsix' ? 'universal, jimp' : 'target <= 25 MB');
    }
  } finally {
    for (const em of running) {
      em.child.kill('SIGTERM');
      await exited(em.child);
    }
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
