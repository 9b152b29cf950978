// Entry of the emulator process (`node dist/emulator.js`): parses the contract's flags, serves until SIGINT/SIGTERM.
import { parseArgs } from 'node:util';
import { listeningLine } from '../core/contract';
import { emulatorOptionSpec, emulatorUsage, toEmulatorOptions } from './options';
import { startEmulator } from './server';

async function main(): Promise<number> {
  let options;
  try {
    const { values } = parseArgs({ args: process.argv.slice(2), options: emulatorOptionSpec, strict: true, allowPositionals: false });
    options = toEmulatorOptions(values);
  } catch (err) {
    process.stderr.write(`dam emulator: ${(err as Error).message}\nusage: dam emulator ${emulatorUsage}\n`);
    return 2;
  }
  const running = await startEmulator({ ...options, log: (line) => process.stderr.write(`${line}\n`) });
  process.stdout.write(`${listeningLine(running.url)}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await running.close();
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`dam emulator: ${(err as Error).message ?? String(err)}\n`);
    process.exitCode = 1;
  },
);
