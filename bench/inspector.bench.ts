// The request inspector's cost: two emulator processes (the bundle, as users run it), one journaling every request
// (the default, 1000 entries) and one with the inspector off (--journal-size 0), driven alike in alternating
// rounds. The figure is the emulator's CPU time per request (from /proc, so a busy machine skews it less than
// throughput), beside its throughput, for a small read, a search with a JSON body, and a refused request.
import { readFileSync } from 'node:fs';
import { EMULATOR_BUNDLE, startEmulatorProcess, type EmulatorProcess } from '../test/support/emulatorProcess';
import { emulatorToken, median, printRow } from './stats';

const REQUESTS = Number(process.env.DAM_BENCH_REQUESTS ?? 1500);
const ROUNDS = Number(process.env.DAM_BENCH_ROUNDS ?? 7);
const CONCURRENCY = 16;
const TICKS_PER_SECOND = 100;

/** User plus system CPU time of a process in ms (Linux /proc). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}


async function expect(res: Response, status: number) {
  await res.arrayBuffer();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}`);
}

type Kind = 'read' | 'search' | 'refused';

function requests(url: string, bearer: string): Record<Kind, () => Promise<void>> {
  const headers = { authorization: `Bearer ${bearer}`, 'api-version': '1', accept: 'application/hal+json', 'user-agent': 'dam-bench' };
  const { 'api-version': _dropped, ...refused } = headers;
  const body = JSON.stringify({ searchExpression: { expression: 'Name = "Brand*"' } });
  return {
    read: () => fetch(`${url}/api/core/languages`, { headers }).then((r) => expect(r, 200)),
    search: () => fetch(`${url}/api/core/search/classifications?pageSize=10`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body }).then((r) => expect(r, 200)),
    refused: () => fetch(`${url}/api/core/languages?pageSize=5000`, { headers: refused }).then((r) => expect(r, 400)),
  };
}

/** Sends REQUESTS requests, CONCURRENCY at a time; the emulator's CPU ms per request and the requests per second. */
async function measure(emulator: EmulatorProcess, send: () => Promise<void>): Promise<{ cpuUs: number; rps: number }> {
  let left = REQUESTS;
  const cpu0 = cpuMs(emulator.child.pid!);
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) await send();
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { cpuUs: ((cpuMs(emulator.child.pid!) - cpu0) * 1000) / REQUESTS, rps: REQUESTS / seconds };
}

async function main() {
  const start = (journal: string) => startEmulatorProcess({ data: ':memory:', seed: 'empty', entry: EMULATOR_BUNDLE, args: ['--journal-size', journal] });
  const on = await start(process.env.DAM_BENCH_ON_JOURNAL ?? '1000');
  const off = await start(process.env.DAM_BENCH_OFF_JOURNAL ?? '0');
  try {
    const sends = { on: requests(on.url, await emulatorToken(on.url)), off: requests(off.url, await emulatorToken(off.url)) };
    const procs = { on, off };
    const kinds: Kind[] = ['read', 'search', 'refused'];
    const results: Record<Kind, Record<'on' | 'off', { cpuUs: number[]; rps: number[] }>> = Object.fromEntries(
      kinds.map((k) => [k, { on: { cpuUs: [], rps: [] }, off: { cpuUs: [], rps: [] } }]),
    ) as never;
    for (const which of ['on', 'off'] as const) for (const k of kinds) for (let i = 0; i < 300; i++) await sends[which][k]();
    for (let round = 0; round < ROUNDS; round++) {
      for (const k of kinds) {
        // Alternate which goes first, so a machine that warms or gets busier favours neither.
        for (const which of round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
          const m = await measure(procs[which], sends[which][k]);
          results[k][which].cpuUs.push(m.cpuUs);
          results[k][which].rps.push(m.rps);
        }
      }
    }
    console.log(`request inspector cost: ${REQUESTS} requests per round, ${CONCURRENCY} in flight, median of ${ROUNDS} alternating rounds; emulator processes from dist/emulator.js`);
    const what: Record<Kind, string> = { read: 'GET /api/core/languages', search: 'POST /search/classifications', refused: 'GET without API-Version (400)' };
    for (const k of kinds) {
      const [cpuOn, cpuOff] = [median(results[k].on.cpuUs), median(results[k].off.cpuUs)];
      const [rpsOn, rpsOff] = [median(results[k].on.rps), median(results[k].off.rps)];
      printRow(`${what[k]}: CPU per request, journal on`, `${cpuOn.toFixed(0)} µs`, `${cpuOff.toFixed(0)} µs journal off`, `ratio ${(cpuOn / cpuOff).toFixed(2)}`);
      printRow(`${what[k]}: throughput, journal on`, `${rpsOn.toFixed(0)} req/s`, `${rpsOff.toFixed(0)} req/s journal off`, `ratio ${(rpsOn / rpsOff).toFixed(2)}`);
    }
  } finally {
    on.child.kill('SIGTERM');
    off.child.kill('SIGTERM');
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
