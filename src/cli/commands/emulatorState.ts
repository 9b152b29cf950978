// `dam emulator snapshot save|restore|list|delete` and `dam emulator reset`: the state devtools of a running emulator.
import type { Command, CommandIO } from '../command';
import { UsageError } from '../command';
import { EmulatorStateClient, type LoadReport } from '../../api/emulatorState';
import { DEFAULT_EMULATOR_URL, emulatorOrigin } from '../connection';
import { writeLine } from '../output';

const options = { url: { type: 'string' }, json: { type: 'boolean' } } as const;
const URL_USAGE = `[--url ORIGIN] [--json]  (ORIGIN: the emulator, default DAM_URL, the emulator VS Code started, or ${DEFAULT_EMULATOR_URL})`;

function clientFor(values: Record<string, unknown>, io: CommandIO): EmulatorStateClient {
  const origin = emulatorOrigin(values.url, io.env);
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new UsageError(`--url '${origin}' is not an http(s) URL`);
  }
  return new EmulatorStateClient(origin);
}

function oneName(positionals: string[], usage: string): string {
  if (positionals.length !== 1) throw new UsageError(`give one snapshot name\nusage: ${usage}`);
  return positionals[0];
}

const loaded = (r: LoadReport) =>
  `${r.tablesLoaded.length} table(s) loaded in ${Math.round(r.ms)} ms${r.blobsAdded || r.blobsRemoved ? `, ${r.blobsAdded} file(s) back, ${r.blobsRemoved} removed` : ''}`;

async function print(io: CommandIO, json: boolean, data: unknown, text: string): Promise<void> {
  await writeLine(io.stdout, json ? JSON.stringify(data) : text);
}

export const snapshotSaveCommand: Command = {
  name: ['emulator', 'snapshot', 'save'],
  summary: 'Save the running emulator\'s state (database and files) under a name, replacing one of that name',
  usage: `dam emulator snapshot save NAME ${URL_USAGE}`,
  options,
  async run({ values, positionals }, io) {
    const saved = await clientFor(values, io).save(oneName(positionals, this.usage), io.signal);
    await print(io, values.json === true, saved, `saved '${saved.name}' (${saved.records} records, ${saved.blobs ?? 0} files)`);
    return 0;
  },
};

export const snapshotRestoreCommand: Command = {
  name: ['emulator', 'snapshot', 'restore'],
  summary: 'Restore a saved state into the running emulator, without a restart (tokens stay valid)',
  usage: `dam emulator snapshot restore NAME ${URL_USAGE}`,
  options,
  async run({ values, positionals }, io) {
    const name = oneName(positionals, this.usage);
    const report = await clientFor(values, io).restore(name, io.signal);
    await print(io, values.json === true, report, `restored '${name}': ${loaded(report)}`);
    return 0;
  },
};

export const snapshotListCommand: Command = {
  name: ['emulator', 'snapshot', 'list'],
  summary: 'List the saved states of the running emulator, newest first',
  usage: `dam emulator snapshot list ${URL_USAGE}`,
  options,
  async run({ values, positionals }, io) {
    if (positionals.length) throw new UsageError(`list takes no names\nusage: ${this.usage}`);
    const items = await clientFor(values, io).list(io.signal);
    if (values.json === true) {
      await writeLine(io.stdout, JSON.stringify(items));
      return 0;
    }
    if (!items.length) await writeLine(io.stdout, 'no saved states');
    const width = Math.max(4, ...items.map((s) => s.name.length));
    for (const s of items) await writeLine(io.stdout, `${s.name.padEnd(width)}  ${s.createdOn}  ${s.records} records`);
    return 0;
  },
};

export const snapshotDeleteCommand: Command = {
  name: ['emulator', 'snapshot', 'delete'],
  summary: 'Delete a saved state of the running emulator',
  usage: `dam emulator snapshot delete NAME ${URL_USAGE}`,
  options,
  async run({ values, positionals }, io) {
    const name = oneName(positionals, this.usage);
    await clientFor(values, io).delete(name, io.signal);
    await print(io, values.json === true, { deleted: name }, `deleted '${name}'`);
    return 0;
  },
};

export const emulatorResetCommand: Command = {
  name: ['emulator', 'reset'],
  summary: 'Reset the running emulator to a fresh demo tenant (--seed empty: only the fixed data); tokens stay valid',
  usage: `dam emulator reset [--seed demo|empty] ${URL_USAGE}`,
  options: { ...options, seed: { type: 'string' } },
  async run({ values, positionals }, io) {
    if (positionals.length) throw new UsageError(`reset takes no names\nusage: ${this.usage}`);
    const seed = values.seed ?? 'demo';
    if (seed !== 'demo' && seed !== 'empty') throw new UsageError(`--seed must be demo or empty, got '${String(seed)}'`);
    const report = await clientFor(values, io).reset(seed, io.signal);
    await print(io, values.json === true, report, `reset to the ${seed} tenant: ${loaded(report)}`);
    return 0;
  },
};

export const emulatorStateCommands = [snapshotSaveCommand, snapshotRestoreCommand, snapshotListCommand, snapshotDeleteCommand, emulatorResetCommand];
