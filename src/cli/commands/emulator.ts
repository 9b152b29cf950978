// `dam emulator`: runs the local emulator in this process until Ctrl+C.
import type { Command } from '../command';
import { UsageError } from '../command';
import { listeningLine } from '../../core/contract';
import { emulatorOptionSpec, emulatorUsage, toEmulatorOptions } from '../../emulator/options';
import type * as EmulatorServer from '../../emulator/server';

export const emulatorCommand: Command = {
  name: ['emulator'],
  summary: 'Run the local emulator of the service (state in .dam-emulator/ unless --data says otherwise).',
  usage: `dam emulator ${emulatorUsage}`,
  options: emulatorOptionSpec,
  async run({ values }, io) {
    let options;
    try {
      options = toEmulatorOptions(values);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    // The server (fastify, PGlite, image work) loads only for this command: every other `dam` command starts without
    // evaluating it (about a third of a second on this project's machine). A plain `require`, which esbuild's bundle
    // defers until it runs and tsx's CJS hook (mocha) resolves.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { startEmulator } = require('../../emulator/server') as typeof EmulatorServer;
    let running;
    try {
      running = await startEmulator({ ...options, log: (line) => io.stderr.write(`${line}\n`) });
    } catch (err) {
      // A tenant folder (--seed DIR) that cannot be used is the user's to fix: its message names the file.
      if ((err as Error).name === 'TenantFolderError') throw new UsageError((err as Error).message);
      throw err;
    }
    io.stdout.write(`${listeningLine(running.url)}\n`);
    await new Promise<void>((resolve) => {
      if (io.signal.aborted) resolve();
      else io.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await running.close();
    return 0;
  },
};
