// Our client against an emulator enforcing a tenant's limits (--tenant-limits: 15 requests/s shared by all clients,
// a queue of 100, then 429): the throughput `dam search --all` and a `dam upload` batch reach with the default pacing
// (10 requests/s, 4 in flight), and a burst of reads through the paced client beside the same burst sent unpaced, in
// the same run. The baseline is the tenant's own rate; the figure to watch beside it is the 429s: zero when paced.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { DamClient } from '../src/api/client';
import { EMULATOR_CLIENT, emulatorProfile } from '../src/api/endpoints';
import { UNPACED } from '../src/api/pacing';
import { main as dam } from '../src/cli/main';
import { TENANT_LIMITS } from '../src/core/limits';
import { startEmulator } from '../src/emulator/server';
import { printRow } from './stats';

const RECORDS = 3000;
const PAGE_SIZE = 100;
const FILES = 40;
const BURST = 150;

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (b: Buffer) => out.push(b));
  stderr.on('data', (b: Buffer) => err.push(b));
  const code = await dam(argv, { stdout, stderr, env: {}, signal: new AbortController().signal });
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}

/** Answers of the tenant's API since journal entry `since`, for the client whose User-Agent starts with `client`. */
async function answers(url: string, since: number, client: string): Promise<{ id: number; status: number }[]> {
  const res = await fetch(`${url}/_emulator/requests?limit=5000&since=${since}&client=${encodeURIComponent(client)}`);
  return ((await res.json()) as { items: { id: number; status: number; path: string }[] }).items.filter((e) => !e.path.startsWith('/login'));
}

async function lastId(url: string): Promise<number> {
  const res = await fetch(`${url}/_emulator/requests?limit=1`);
  return ((await res.json()) as { items: { id: number }[] }).items[0]?.id ?? 0;
}

const perSecond = (n: number, ms: number) => `${(n / (ms / 1000)).toFixed(1)}/s`;
const rate = TENANT_LIMITS.rate;

async function main() {
  const emulator = await startEmulator({ seed: 'empty', port: 0, data: ':memory:', records: RECORDS, journalSize: 5000, tenantLimits: { enforce: true } });
  const dir = mkdtempSync(join(tmpdir(), 'dam-limits-bench-'));
  try {
    const url = emulator.url;
    console.log(`tenant: ${RECORDS} records, --tenant-limits (${rate} requests/s, a queue of ${TENANT_LIMITS.queue})`);

    let since = await lastId(url);
    let t = performance.now();
    const search = await run(['search', '*', '--all', '--json', '--page-size', String(PAGE_SIZE), '--url', url]);
    let ms = performance.now() - t;
    if (search.code !== 0) throw new Error(`dam search failed: ${search.stderr}`);
    let seen = await answers(url, since, 'dam-workbench-cli');
    printRow(`dam search --all (${RECORDS / PAGE_SIZE} pages)`, perSecond(seen.length, ms), `${rate}/s`, `${seen.filter((e) => e.status === 429).length} answers 429, ${seen.filter((e) => e.status >= 400).length} failed`);

    const admin = new DamClient({ profile: emulatorProfile(url), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, pacing: UNPACED, userAgent: 'dam-bench-limits/1' });
    const cls = (await admin.classifications.create({ name: `bench-limits-${Date.now()}` })).id;
    const files = Array.from({ length: FILES }, (_, i) => {
      const path = join(dir, `f-${i}.png`);
      writeFileSync(path, randomBytes(4096));
      return path;
    });
    since = await lastId(url);
    t = performance.now();
    const upload = await run(['upload', ...files, '--classification', cls, '--json', '--url', url]);
    ms = performance.now() - t;
    if (upload.code !== 0) throw new Error(`dam upload failed: ${upload.stderr}`);
    seen = await answers(url, since, 'dam-workbench-cli');
    printRow(`dam upload (${FILES} files, ${seen.length} requests)`, perSecond(seen.length, ms), `${rate}/s`, `${perSecond(FILES, ms)} files, ${seen.filter((e) => e.status === 429).length} answers 429, ${seen.filter((e) => e.status >= 400).length} failed`);

    // The same burst of reads (an export's or a dashboard's), fired at once through a paced and an unpaced client.
    for (const [name, pacing] of [['paced (default)', undefined], ['unpaced', UNPACED]] as const) {
      await new Promise((resolve) => setTimeout(resolve, (TENANT_LIMITS.queue / rate) * 1000 + 1000));
      const agent = `dam-bench-limits-${name.split(' ')[0]}/1`;
      const client = new DamClient({ profile: emulatorProfile(url), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, pacing, userAgent: agent, retry: { retries: 0 } });
      await client.tokens.getToken();
      since = await lastId(url);
      t = performance.now();
      const results = await Promise.allSettled(Array.from({ length: BURST }, () => client.languages.list()));
      ms = performance.now() - t;
      seen = await answers(url, since, agent);
      printRow(
        `${BURST} reads at once, ${name}`,
        perSecond(seen.filter((e) => e.status < 400).length, ms),
        `${rate}/s`,
        `${results.filter((r) => r.status === 'rejected').length} failed, ${seen.filter((e) => e.status === 429).length} answers 429`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await emulator.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
