// Upload benchmark: a 512 MB file sent by the client (segmented, as the spec's 20 MB threshold says) beside
// `curl -F file1=@…` to /uploads (one request) on the same emulator in the same run, rounds alternating; medians of
// the wall time, the client's peak RSS (its own process) and the emulator's peak RSS while the uploads ran. Each
// upload starts after `sync`, so neither pays for the other's unwritten pages.
// Needs Debian's curl on PATH. DAM_BENCH_UPLOAD_MB changes the file size, DAM_BENCH_UPLOAD_ROUNDS the rounds.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emulatorToken, median, printRow } from './stats';
import { EMULATOR_BUNDLE, startEmulatorProcess } from '../test/support/emulatorProcess';

const SIZE_MB = Number(process.env.DAM_BENCH_UPLOAD_MB ?? 512);
const ROUNDS = Number(process.env.DAM_BENCH_UPLOAD_ROUNDS ?? 7);
const HEADERS = { 'API-Version': '1', Accept: 'application/json', 'User-Agent': 'dam-bench-upload/1' };

/** The emulator as users run it (`dam emulator`, the extension): the bundle that `npm run bench` builds first. */
const EMULATOR_BUNDLE_FILE = EMULATOR_BUNDLE[0];

/** Peak resident set of a process since the last reset, in MB (Linux /proc). */
function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Resets the peak so the next reading covers only what follows (writing 5 to clear_refs). */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}


async function discard(url: string, bearer: string, uploadToken: string): Promise<void> {
  const res = await fetch(`${url}/uploads/${encodeURIComponent(uploadToken)}`, { method: 'DELETE', headers: { ...HEADERS, Authorization: `Bearer ${bearer}` } });
  if (res.status !== 204) throw new Error(`discard answered ${res.status}`);
}

function runCurl(url: string, bearer: string, file: string): { ms: number; token: string } {
  const started = performance.now();
  const r = spawnSync(
    'curl',
    ['-sS', '--fail-with-body', ...Object.entries({ ...HEADERS, Authorization: `Bearer ${bearer}` }).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), '-F', `file1=@${file}`, `${url}/uploads`],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`curl failed (${r.status}): ${r.stderr}${r.stdout}`);
  return { ms, token: (JSON.parse(r.stdout) as { token: string }).token };
}

function runClient(url: string, file: string): { ms: number; commitMs: number; token: string; maxRssKb: number; segments: number } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/fixtures/upload-client.ts', url, file], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`client failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!);
}

async function main() {
  if (!existsSync(EMULATOR_BUNDLE_FILE)) {
    console.error(`upload bench: ${EMULATOR_BUNDLE_FILE} is missing; \`npm run bench\` builds it first`);
    process.exitCode = 1;
    return;
  }
  if (spawnSync('curl', ['--version']).status !== 0) {
    console.error('upload bench: curl is needed (apt-get install curl)');
    process.exitCode = 1;
    return;
  }
  const work = mkdtempSync(join(tmpdir(), 'dam-upload-bench-'));
  let emulator: ChildProcess | undefined;
  try {
    const file = join(work, 'upload.bin');
    const fd = openSync(file, 'w');
    const chunk = randomBytes(8 << 20);
    for (let i = 0; i < SIZE_MB / 8; i++) writeSync(fd, chunk.map((b) => b ^ i));
    closeSync(fd);

    const started = await startEmulatorProcess({ data: join(work, 'data'), entry: EMULATOR_BUNDLE });
    emulator = started.child;
    const { url } = started;
    const pid = emulator.pid!;
    const bearer = await emulatorToken(url);
    const startPeakMb = peakRssMb(pid);
    resetPeak(pid);
    const idleMb = rssMb(pid);

    const curlMs: number[] = [];
    const clientMs: number[] = [];
    const clientRss: number[] = [];
    const commitMs: number[] = [];
    let segments = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // Who goes first alternates, so warm-up and background load do not favour one side.
      const order = round % 2 === 0 ? ['curl', 'client'] : ['client', 'curl'];
      for (const who of order) {
        // Every upload starts with the page cache written back: otherwise one pays for the dirty pages the one
        // before it left, and which one that is depends on the order.
        spawnSync('sync');
        if (who === 'curl') {
          const c = runCurl(url, bearer, file);
          curlMs.push(c.ms);
          await discard(url, bearer, c.token);
        } else {
          const d = runClient(url, file);
          clientMs.push(d.ms);
          commitMs.push(d.commitMs);
          clientRss.push(d.maxRssKb / 1024);
          segments = d.segments;
          await discard(url, bearer, d.token);
        }
      }
    }
    const emulatorPeak = peakRssMb(pid);

    const mbps = (ms: number) => `${((SIZE_MB / ms) * 1000).toFixed(0)} MB/s`;
    const clientMed = median(clientMs);
    const curlMed = median(curlMs);
    console.log(`${SIZE_MB} MB file, ${ROUNDS} rounds alternating, each upload after sync, ${EMULATOR_BUNDLE_FILE} on --data in a new temp folder; client sent ${segments} segments`);
    printRow(`upload ${SIZE_MB} MB, client (median)`, `${(clientMed / 1000).toFixed(2)} s`, `curl -F file1=@… ${(curlMed / 1000).toFixed(2)} s`, `${mbps(clientMed)} vs ${mbps(curlMed)}; client/curl ${(clientMed / curlMed).toFixed(2)}x, target <= 1`);
    const list = (ms: number[]) => ms.map((m) => (m / 1000).toFixed(2)).join(' ');
    console.log(`  rounds: client ${list(clientMs)} s; curl ${list(curlMs)} s`);
    printRow('  of which the commit (re-assembly on the emulator)', `${(median(commitMs) / 1000).toFixed(2)} s`, '', 'a single request has no such step');
    printRow('client peak RSS (median of rounds)', `${median(clientRss).toFixed(0)} MB`, '', 'target < 200 MB');
    printRow('emulator peak RSS during the uploads', `${emulatorPeak.toFixed(0)} MB`, `resident before the uploads ${idleMb.toFixed(0)} MB (peak while starting ${startPeakMb.toFixed(0)} MB)`, `uploads added ${(emulatorPeak - idleMb).toFixed(0)} MB; target < 300 MB`);
  } finally {
    if (emulator && emulator.exitCode === null) {
      emulator.kill('SIGTERM');
      await new Promise((r) => emulator!.once('exit', r));
    }
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
