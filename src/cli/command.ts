// The shape of one `dam` sub-command and the helpers every command shares.
import { parseArgs, type ParseArgsConfig } from 'node:util';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface CommandIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Where a command asks (`dam records delete` without --yes); absent or not a terminal: it cannot ask. */
  stdin?: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  /** Aborted on SIGINT/SIGTERM so long work can stop cleanly. */
  signal: AbortSignal;
}

export interface Command {
  /** Words that select the command, e.g. ['checks', 'publish']. */
  name: string[];
  summary: string;
  usage: string;
  options: OptionSpec;
  /** Returns the process exit code. */
  run(args: { values: Record<string, unknown>; positionals: string[] }, io: CommandIO): Promise<number>;
}

/** A user mistake on the command line: printed without a stack trace, exit code 2. */
export class UsageError extends Error {}

export function parseCommandArgs(command: Command, argv: string[]) {
  try {
    return parseArgs({ args: argv, options: command.options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\nusage: ${command.usage}`);
  }
}
