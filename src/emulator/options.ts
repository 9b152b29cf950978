// The emulator's command-line options, shared by `npm run emulator` (main.ts) and `dam emulator`.
import type { EmulatorOptions } from './server';

export const emulatorOptionSpec = {
  port: { type: 'string' },
  host: { type: 'string' },
  data: { type: 'string' },
  seed: { type: 'string' },
  records: { type: 'string' },
  'token-ttl': { type: 'string' },
  database: { type: 'string' },
  faults: { type: 'string' },
  'journal-size': { type: 'string' },
  import: { type: 'string' },
  'export-on-exit': { type: 'string' },
  'tenant-limits': { type: 'boolean' },
  'tenant-rate': { type: 'string' },
  'tenant-queue': { type: 'string' },
} as const;

export const emulatorUsage =
  '[--port N] [--host H] [--data DIR|:memory:] [--seed demo|empty|DIR] [--records N] [--token-ttl S] [--database postgres://…?schema=NAME] [--faults RATE[,429][,504]] [--journal-size N] [--import DIR] [--export-on-exit DIR] [--tenant-limits] [--tenant-rate N] [--tenant-queue N]';

/** Turns parsed flags into options; throws an Error with a user-facing message on a bad value. */
export function toEmulatorOptions(values: Record<string, unknown>): EmulatorOptions {
  const str = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const options: EmulatorOptions = {};
  const port = str('port');
  if (port !== undefined) {
    if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) throw new Error(`--port must be 0..65535, got '${port}'`);
    options.port = Number(port);
  }
  options.host = str('host');
  options.data = str('data');
  const seed = str('seed');
  if (seed !== undefined) {
    // Anything else is a folder `dam tenant pull` wrote (read and checked when the emulator starts).
    if (seed === 'demo' || seed === 'empty') options.seed = seed;
    else if (seed.trim() === '') throw new Error(`--seed must be demo, empty or a tenant folder, got ''`);
    else options.seedDir = seed;
  }
  const records = str('records');
  if (records !== undefined) {
    // Up to ten million: the scaling curve's 1M with room, and a typo cannot fill the disk.
    if (!/^\d{1,8}$/.test(records) || Number(records) < 1 || Number(records) > 10_000_000) throw new Error(`--records must be a number of records from 1 to 10000000, got '${records}'`);
    options.records = Number(records);
  }
  const ttl = str('token-ttl');
  if (ttl !== undefined) {
    if (!/^\d{1,9}$/.test(ttl) || Number(ttl) < 1) throw new Error(`--token-ttl must be a positive number of seconds, got '${ttl}'`);
    options.tokenTtl = Number(ttl);
  }
  options.database = str('database');
  options.importDir = str('import');
  options.exportOnExit = str('export-on-exit');
  const faults = str('faults');
  if (faults !== undefined) {
    const [rateText, ...kinds] = faults.split(',').map((s) => s.trim());
    const rate = Number(rateText);
    if (!(rate >= 0 && rate <= 1)) throw new Error(`--faults needs a rate between 0 and 1 (e.g. 0.1 or 0.1,429), got '${faults}'`);
    for (const k of kinds) if (k !== '429' && k !== '504') throw new Error(`--faults kinds are 429 and 504, got '${k}'`);
    options.faults = { rate, kinds: kinds as ('429' | '504')[] };
  }
  // The tenant's numbers (15 requests/s, a queue of 100) unless given: tests and rehearsals of a busier or
  // quieter tenant change them. Without --tenant-limits they decide only when a finding is reported.
  const tenantRate = str('tenant-rate');
  const tenantQueue = str('tenant-queue');
  if (values['tenant-limits'] === true || tenantRate !== undefined || tenantQueue !== undefined) {
    options.tenantLimits = { enforce: values['tenant-limits'] === true };
    if (tenantRate !== undefined) {
      const rate = Number(tenantRate);
      if (!/^\d+(\.\d+)?$/.test(tenantRate) || !(rate >= 0.1 && rate <= 100_000)) throw new Error(`--tenant-rate must be requests per second from 0.1 to 100000, got '${tenantRate}'`);
      options.tenantLimits.rate = rate;
    }
    if (tenantQueue !== undefined) {
      if (!/^\d{1,6}$/.test(tenantQueue)) throw new Error(`--tenant-queue must be a number of requests from 0 to 999999, got '${tenantQueue}'`);
      options.tenantLimits.queue = Number(tenantQueue);
    }
  }
  const journal = str('journal-size');
  if (journal !== undefined) {
    if (!/^\d{1,7}$/.test(journal) || Number(journal) > 1_000_000) throw new Error(`--journal-size must be 0..1000000 requests (0 turns the inspector off), got '${journal}'`);
    options.journalSize = Number(journal);
  }
  return options;
}
