// `dam emulator`: runs the local emulator in this process until Ctrl+C.
import type { Command } from '../command';
import { UsageError } from '../command';
import { listeningLine } from '../../core/contract';
import { emulatorOptionSpec, emulatorUsage, toEmulatorOptions } from '../../emulator/options';
import { startEmulator } from '../../emulator/server';

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
    const running = await startEmulator({ ...options, log: (line) => io.stderr.write(`${line}\n`) });
    io.stdout.write(`${listeningLine(running.url)}\n`);
    await new Promise<void>((resolve) => {
      if (io.signal.aborted) resolve();
      else io.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await running.close();
    return 0;
  },
};
