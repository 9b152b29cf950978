// Image engines of the emulator's image worker: a 24-megapixel JPEG to the thumbnail (PNG, 256 px) and to the `web`
// preset (JPEG, 1024 px), with sharp (libvips) and with jimp (pure JS, the fallback), through the worker's own code
// (src/emulator/images/imageWork.ts), beside ImageMagick's `convert` in the same run (skipped, saying so, when it is not
// installed: Debian's `imagemagick`). Each measurement is a process of its own: wall time of the work and the process's
// peak resident memory, medians over the rounds. A node process that loads the modules and decodes nothing is measured
// too, since node's own memory is part of every engine figure but none of convert's.
// DAM_BENCH_IMAGE_ROUNDS changes the rounds (default 5).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { tmpdir } from 'node:os';
import { engineName, loadSharp, render } from '../src/emulator/images/imageWork';
import { drawPicture } from '../src/emulator/images/picture';
import { median, printRow } from './stats';

const ROUNDS = Number(process.env.DAM_BENCH_IMAGE_ROUNDS ?? 5);
const WIDTH = 6000;
const HEIGHT = 4000;
const TASKS = {
  thumbnail: { box: 256, format: 'png' as const, quality: undefined, magick: ['-thumbnail', '256x256'], out: 'png' },
  web: { box: 1024, format: 'jpg' as const, quality: 85, magick: ['-resize', '1024x1024', '-quality', '85'], out: 'jpg' },
};
type Task = keyof typeof TASKS;
type Engine = 'sharp' | 'jimp' | 'none';

interface Sample {
  ms: number;
  peakMb: number;
}

/** Runs inside a measuring child: loads the engine, then times one render of the file. */
async function measureHere(engine: Engine, task: Task, file: string): Promise<void> {
  if (engine !== 'none' && engineName() !== engine) throw new Error(`asked for ${engine}, the worker uses ${engineName()}`);
  if (engine === 'jimp') await import('jimp');
  const bytes = readFileSync(file);
  const started = performance.now();
  if (engine !== 'none') await render(bytes, { extension: 'jpg', box: TASKS[task].box, format: TASKS[task].format, quality: TASKS[task].quality });
  const ms = performance.now() - started;
  process.stdout.write(JSON.stringify({ ms, peakMb: process.resourceUsage().maxRSS / 1024 }));
}

function inChild(engine: Engine, task: Task, file: string): Sample {
  const env = { ...process.env, DAM_IMAGE_ENGINE: engine === 'jimp' ? 'jimp' : '' };
  const r = spawnSync(process.execPath, ['--import', 'tsx', __filename, '--measure', engine, task, file], { encoding: 'utf8', env, maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`measuring ${engine} ${task} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Sample;
}

/** `magick` or `convert` on PATH, or undefined. */
function imageMagick(): string | undefined {
  for (const name of ['magick', 'convert']) {
    for (const dir of (process.env.PATH ?? '').split(delimiter)) {
      const path = join(dir, name);
      if (existsSync(path) && statSync(path).isFile()) return path;
    }
  }
  return undefined;
}

/** Runs convert, following its peak resident memory from /proc while it runs (VmHWM keeps the highest value). */
function runMagick(binary: string, task: Task, file: string, out: string): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(binary, [file, ...TASKS[task].magick, out], { stdio: ['ignore', 'ignore', 'pipe'] });
    let peakKb = 0;
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const sample = () => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peakKb = Math.max(peakKb, Number(m[1]));
      } catch {
        // It has ended.
      }
    };
    const timer = setInterval(sample, 2);
    child.once('exit', (code) => {
      const ms = performance.now() - started;
      clearInterval(timer);
      if (code !== 0) reject(new Error(`convert failed (${code}): ${stderr}`));
      else resolve({ ms, peakMb: peakKb / 1024 });
    });
  });
}

/** A 24-megapixel JPEG of the demo tenant's kind (sky, sun, hills) with noise, so the encoder has detail to keep. */
async function makeFixture(file: string): Promise<void> {
  const data = Buffer.alloc(WIDTH * HEIGHT * 4);
  drawPicture({ seed: 24, width: WIDTH, height: HEIGHT, format: 'jpg', title: 'bench' }, data);
  let s = 1;
  for (let i = 0; i < data.length; i += 4) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    const n = (s >> 16) % 24;
    data[i] = Math.min(255, data[i] + n);
    data[i + 1] = Math.min(255, data[i + 1] + n);
  }
  const sharp = loadSharp();
  if (sharp) {
    writeFileSync(file, await sharp(data, { raw: { width: WIDTH, height: HEIGHT, channels: 4 } }).jpeg({ quality: 90 }).toBuffer());
    return;
  }
  const { Jimp } = await import('jimp');
  const image = new Jimp({ width: WIDTH, height: HEIGHT });
  data.copy(image.bitmap.data);
  writeFileSync(file, await image.getBuffer('image/jpeg', { quality: 90 }));
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'dam-bench-images-'));
  try {
    const file = join(dir, 'photo-24mp.jpg');
    await makeFixture(file);
    const engines: Engine[] = loadSharp() ? ['sharp', 'jimp'] : ['jimp'];
    if (!loadSharp()) console.log('sharp is not installed or has no binary for this platform: only jimp is measured');
    const magick = imageMagick();
    if (!magick) console.log('ImageMagick (convert) is not installed: its baseline is skipped (Debian: apt-get install imagemagick)');
    console.log(`${WIDTH}×${HEIGHT} JPEG, ${(statSync(file).size / 1048576).toFixed(1)} MB; ${ROUNDS} rounds, medians; peak = the process's peak resident memory`);
    const idle = Array.from({ length: 3 }, () => inChild('none', 'thumbnail', file));
    const idleMb = median(idle.map((s) => s.peakMb));
    printRow('node with the modules loaded, nothing decoded', `${idleMb.toFixed(0)} MB`, '', 'part of every engine figure below');
    for (const task of Object.keys(TASKS) as Task[]) {
      const results = new Map<Engine | 'convert', Sample[]>();
      for (let round = 0; round < ROUNDS; round++) {
        // Rounds alternate the engines, so none is favoured by what the machine did meanwhile.
        for (const engine of engines) results.set(engine, [...(results.get(engine) ?? []), inChild(engine, task, file)]);
        if (magick) results.set('convert', [...(results.get('convert') ?? []), await runMagick(magick, task, file, join(dir, `out.${TASKS[task].out}`))]);
      }
      const ms = (e: Engine | 'convert') => median(results.get(e)!.map((s) => s.ms));
      const mb = (e: Engine | 'convert') => median(results.get(e)!.map((s) => s.peakMb));
      for (const engine of engines) {
        const base = magick ? `convert ${ms('convert').toFixed(0)} ms, ${mb('convert').toFixed(0)} MB` : '';
        const note = magick ? `${(ms(engine) / ms('convert')).toFixed(2)}× convert's time, ${(mb(engine) / mb('convert')).toFixed(2)}× its peak` : '';
        printRow(`24 MP JPEG → ${task}, ${engine}`, `${ms(engine).toFixed(0)} ms, ${mb(engine).toFixed(0)} MB`, base, note);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const at = process.argv.indexOf('--measure');
if (at >= 0) void measureHere(process.argv[at + 1] as Engine, process.argv[at + 2] as Task, process.argv[at + 3]);
else void main();
