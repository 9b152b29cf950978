// Image work never stalls the emulator nor takes its memory: the 69-byte decompression bomb, requests answered
// while renditions are made, and image workers that die or go over their memory limit. Emulators run as processes of
// their own, so their resident memory and their image workers can be read from /proc.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DamClient } from '../../src/api/client';
import { EMULATOR_CLIENT, emulatorProfile } from '../../src/api/endpoints';
import type { MaintenanceJob } from '../../src/api/files';
import { exited, startEmulatorProcess, type EmulatorProcess } from '../support/emulatorProcess';
import { bombPng, discPicture, pngDeclaring, readAll, uploadBytes } from './fileFixtures';
import { USER_AGENT } from './helpers';
import { loadSharp } from '../../src/emulator/images/imageWork';

const linux = existsSync('/proc/self/status');

function statusField(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  assert.ok(match, `no ${field} for ${pid}`);
  return Number(match[1]) * 1024;
}

/** The emulator's image worker processes: its children running imageWorker. */
function imageWorkers(parent: number): { pid: number; render: boolean }[] {
  const out: { pid: number; render: boolean }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== parent) continue;
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      // The probe lane's worker has a 256 MB limit (a heap of 128 MB); the render lane's is larger.
      if (cmdline.includes('imageWorker')) out.push({ pid: Number(name), render: !cmdline.includes('--max-old-space-size=128') });
    } catch {
      // A process that ended while we looked.
    }
  }
  return out;
}

function clientFor(url: string): DamClient {
  return new DamClient({ profile: emulatorProfile(url), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, userAgent: USER_AGENT });
}

async function recordWith(client: DamClient, filename: string, bytes: Buffer): Promise<string> {
  return (await client.files.createRecordFromUpload({ token: await uploadBytes(client, filename, bytes), title: filename })).id;
}

const finished = (job: MaintenanceJob) => !['Pending', 'Queued', 'Executing'].includes(job.status);

/** One emulator process in a data folder of its own, removed with it. */
function emulatorProcess(env: NodeJS.ProcessEnv = {}) {
  let data = '';
  let running: EmulatorProcess | undefined;
  let log = '';
  before(async function () {
    if (!linux) this.skip();
    data = mkdtempSync(join(tmpdir(), 'dam-images-'));
    running = await startEmulatorProcess({ data, env });
    running.child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  });
  after(async () => {
    if (running) {
      running.child.kill('SIGTERM');
      await exited(running.child);
    }
    if (data) rmSync(data, { recursive: true, force: true });
  });
  return Object.assign(() => running!, { log: () => log });
}

describe('images: a decompression bomb and image work off the request loop', function () {
  this.timeout(180_000);
  const emulator = emulatorProcess();
  const client = () => clientFor(emulator().url);
  let bomb = '';

  it('a 69-byte PNG declaring 30000×30000 is stored, with no image facts, and the emulator never decodes it', async () => {
    const bytes = bombPng();
    assert.equal(bytes.length, 69);
    bomb = await recordWith(client(), 'bomb.png', bytes);
    const version = (await client().files.latestVersion(bomb))!;
    assert.equal(version.hasImage, false);
    assert.equal(version.width ?? null, null);
    // The file itself is kept, byte for byte.
    assert.deepEqual(await readAll((await client().files.download(version)).body), bytes);
    // Decoded as RGBA the bomb is 3.6 GB; the emulator's peak stays far below it.
    const peak = statusField(emulator().child.pid!, 'VmHWM');
    assert.ok(peak < 1024 ** 3, `the emulator's peak resident memory was ${Math.round(peak / 1048576)} MB`);
  });

  it('its preview and thumbnail answer 404 as for a non-image, and null when selected', async () => {
    const version = (await client().files.latestVersion(bomb))!;
    for (const kind of ['preview', 'thumbnail']) {
      const res = await fetch(`${emulator().url}/api/core/fileversion/${version.id}/${kind}`, {
        headers: { authorization: `Bearer ${await client().tokens.getToken()}`, accept: 'application/json', 'api-version': '1', 'user-agent': USER_AGENT },
      });
      assert.equal(res.status, 404);
      const body = (await res.json()) as { exceptionMessage: string; stackTrace: null };
      assert.match(body.exceptionMessage, /HasImage=false/);
      assert.equal(body.stackTrace, null);
    }
  });

  it('requests are answered while renditions are made; the job says why the bomb got none, naming its declared size', async () => {
    // Two 24-megapixel pictures beside the bomb: seconds of decoding in the render worker.
    const big = pngDeclaring(6000, 4000);
    const first = await recordWith(client(), 'big-1.png', big);
    const second = await recordWith(client(), 'big-2.png', big);
    const submitted = await client().files.createRenditions([bomb, first, second], ['thumbnail', 'web', 'cutout']);
    // Answered while the job works: on the event loop, the bomb alone held every request for minutes.
    const record = (await client().get(`record/${first}`)) as { id: string };
    assert.equal(record.id, first);
    const during = await client().files.getJob(submitted.id);
    assert.ok(!finished(during), `the job was already ${during.status} when the read was answered`);

    const job = await client().files.waitForJob(submitted.id, { initialDelayMs: 100 });
    assert.equal(job.status, 'PartiallyFailed', job.message ?? '');
    assert.equal(job.failedTargetsCount, 1);
    assert.equal((job.errors?.[0] as { recordId?: string } | undefined)?.recordId, bomb);
    assert.match((job.errors?.[0] as { message?: string } | undefined)?.message ?? '', /'bomb\.png'.*30000×30000 pixels \(900,000,000\), more than the 100,000,000/);
    const renditions = await client().files.listRenditions((await client().files.latestVersion(second))!.id);
    assert.deepEqual(renditions.map((r) => [r.name, r.width, r.height]).sort(), [['cutout', 1024, 683], ['thumbnail', 256, 171], ['web', 1024, 683]]);
    const peak = statusField(emulator().child.pid!, 'VmHWM');
    assert.ok(peak < 1024 ** 3, `the emulator's peak resident memory was ${Math.round(peak / 1048576)} MB`);
  });

  it('a PNG cut off after its header: the preview answers 404 saying why (not 500), and the version has no image after', async () => {
    const truncated = pngDeclaring(64, 64).subarray(0, 8 + 25);
    const id = await recordWith(client(), 'truncated.png', truncated);
    const before = (await client().files.latestVersion(id))!;
    assert.equal(before.hasImage, true, 'its header reads as a 64×64 image');
    const headers = { authorization: `Bearer ${await client().tokens.getToken()}`, accept: 'application/json', 'api-version': '1', 'user-agent': USER_AGENT };
    const preview = (await (await fetch(`${emulator().url}/api/core/fileversion/${before.id}/preview`, { headers })).json()) as { uri: string };
    const res = await fetch(preview.uri, { headers: { 'user-agent': USER_AGENT } });
    assert.equal(res.status, 404);
    const body = (await res.json()) as { exceptionMessage: string; exceptionType: string };
    assert.match(body.exceptionMessage, /the preview of 'truncated\.png' could not be made: .*HasImage=false/);
    assert.match(body.exceptionType, /NoDataFoundException$/);
    assert.equal((await client().files.latestVersion(id))!.hasImage, false);
  });

  it('a file named .png that is SVG or HEIF inside is not an image: nothing is rendered from it', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="9900" height="9900"><rect width="10" height="10"/></svg>');
    // ftyp 'heic', then a meta box: the header reader's HEIF scan, which is quadratic in the boxes it holds.
    const heif = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.alloc(4), Buffer.from('mif1heic'), Buffer.from([0, 0, 0, 8]), Buffer.from('meta')]);
    for (const [name, bytes] of [['drawing.png', svg], ['photo.png', heif]] as const) {
      const id = await recordWith(client(), name, bytes);
      const version = (await client().files.latestVersion(id))!;
      assert.equal(version.hasImage, false, name);
    }
  });

  it('previews and thumbnails of a normal picture are still made, by a worker process', async () => {
    const id = await recordWith(client(), 'disc.png', await discPicture(800, 600));
    const thumbnail = (await client().get(`record/${id}/thumbnail`)) as { width: number; height: number; uri: string };
    assert.deepEqual([thumbnail.width, thumbnail.height], [256, 192]);
    const bytes = await readAll((await client().files.download(thumbnail.uri)).body);
    assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG');
    assert.ok(imageWorkers(emulator().child.pid!).length >= 1, 'the image work ran in a child process of the emulator');
  });

  it("the emulator's log names the engine that made its first image, with its version (sharp where it loads, as in a checkout)", async () => {
    const id = await recordWith(client(), 'disc-engine.png', await discPicture(640, 480));
    const preview = (await client().get(`record/${id}/preview`)) as { uri: string };
    await readAll((await client().files.download(preview.uri)).body);
    // The line is written before the answer goes out; the pipe may hand it over a moment later.
    for (let i = 0; i < 100 && !/images: .* was made with /.test(emulator.log()); i++) await new Promise((r) => setTimeout(r, 100));
    const expected = loadSharp() ? /images: the .+ of '[^']+' was made with sharp \d+\.\d+\.\d+ \(libvips \d+\.\d+\.\d+\) in \d+ ms/ : /images: .* was made with jimp \(sharp did not load: /;
    assert.match(emulator.log(), expected);
    assert.equal(emulator.log().match(/ was made with sharp/g)?.length ?? 0, loadSharp() ? 1 : 0, 'said once, not for every image');
  });
});

describe('images: an image worker that dies or goes over its memory limit', function () {
  this.timeout(180_000);
  // With jimp (the pure-JS engine) a 48-megapixel PNG needs far more than 300 MB (its bitmap alone is 192 MB, the
  // inflated rows 144 MB); a 6-megapixel one stays under it and takes long enough to be stopped while it works.
  const emulator = emulatorProcess({ DAM_IMAGE_ENGINE: 'jimp', DAM_EMULATOR_IMAGE_MEMORY_MB: '300' });
  const client = () => clientFor(emulator().url);

  it('a worker over its memory limit is stopped: that job fails saying so, the next one works', async () => {
    const big = await recordWith(client(), 'huge.png', pngDeclaring(8000, 6000));
    const failed = await client().files.waitForJob((await client().files.createRenditions([big], ['web'])).id, { initialDelayMs: 100 });
    assert.equal(failed.status, 'Failed');
    assert.match((failed.errors?.[0] as { message?: string } | undefined)?.message ?? '', /'web' rendition of 'huge\.png' could not be made: the image worker went over its memory limit of 300 MB/);
    const small = await recordWith(client(), 'small.png', await discPicture(300, 200));
    const ok = await client().files.waitForJob((await client().files.createRenditions([small], ['web'])).id, { initialDelayMs: 100 });
    assert.equal(ok.status, 'Success', ok.message ?? '');
  });

  it('a worker killed while it works fails that one job with a clear message and is replaced', async () => {
    const medium = await recordWith(client(), 'medium.png', pngDeclaring(3000, 2000));
    const submitted = await client().files.createRenditions([medium], ['cutout']);
    let victim: number | undefined;
    for (;;) {
      const job = await client().files.getJob(submitted.id);
      assert.ok(!finished(job), `the job was ${job.status} before its worker could be stopped`);
      victim = job.status === 'Executing' ? imageWorkers(emulator().child.pid!).find((w) => w.render)?.pid : undefined;
      if (victim !== undefined) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    process.kill(victim, 'SIGKILL');
    const job = await client().files.waitForJob(submitted.id, { initialDelayMs: 100 });
    assert.equal(job.status, 'Failed');
    assert.match((job.errors?.[0] as { message?: string } | undefined)?.message ?? '', /'cutout' rendition of 'medium\.png' could not be made: the image worker was stopped by SIGKILL/);
    // The emulator is still there, and a new worker does the next job.
    const again = await client().files.waitForJob((await client().files.createRenditions([medium], ['thumbnail'])).id, { initialDelayMs: 100 });
    assert.equal(again.status, 'Success', again.message ?? '');
  });
});
