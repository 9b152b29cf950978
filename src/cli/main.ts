// Entry of the `dam` CLI: picks the sub-command by its leading words and runs it.
import { commandEntries, type CommandEntry } from './commands';
import { parseCommandArgs, UsageError, type Command, type CommandIO } from './command';
import type * as Connection from './connection';
import type * as Errors from './errors';

/** The command the leading words select (the longest match), its module loaded only now. */
function findCommand(argv: string[]): { command: Command; rest: string[] } | undefined {
  let best: CommandEntry | undefined;
  for (const entry of commandEntries) {
    const n = entry.name.length;
    if (argv.length >= n && entry.name.every((word, i) => argv[i] === word)) {
      if (!best || n > best.name.length) best = entry;
    }
  }
  return best && { command: best.load(), rest: argv.slice(best.name.length) };
}

/** Every command with its summary: the one place that loads every command's module. */
function helpText(): string {
  const commands = commandEntries.map((e) => e.load());
  const width = Math.max(...commands.map((c) => c.name.join(' ').length), 8);
  const lines = commands.map((c) => `  dam ${c.name.join(' ').padEnd(width)}  ${c.summary}`);
  return ['usage: dam <command> [options]', '       dam --version', '', 'commands:', ...lines, '', 'Run `dam <command> --help` for its options.'].join('\n');
}

/** `dam --version`: the version, the Node.js it runs on, and which service a command would talk to, and why. */
function versionText(env: NodeJS.ProcessEnv): string {
  // The connection code (the client and its schemas) loads here and for the commands that talk to a service, not
  // for `dam emulator`, whose start it would only delay. Plain requires, as in commands/index.ts.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { CLI_VERSION, describeService } = require('./connection') as typeof Connection;
  const service = describeService(env);
  return [`dam ${CLI_VERSION} (DAM Workbench), Node.js ${process.version}`, `service: ${service.url} (${service.source})`, `sign-in: ${service.signIn}`].join('\n');
}

export async function main(argv: string[], io: CommandIO): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
    io.stdout.write(helpText() + '\n');
    return 0;
  }
  if (argv[0] === '--version' || argv[0] === 'version') {
    io.stdout.write(versionText(io.env) + '\n');
    return 0;
  }
  const found = findCommand(argv);
  if (!found) {
    io.stderr.write(`dam: unknown command '${argv.join(' ')}'\n\n${helpText()}\n`);
    return 2;
  }
  if (found.rest.includes('--help') || found.rest.includes('-h')) {
    io.stdout.write(`usage: ${found.command.usage}\n\n${found.command.summary}\n`);
    return 0;
  }
  try {
    const args = parseCommandArgs(found.command, found.rest);
    return await found.command.run(args as { values: Record<string, unknown>; positionals: string[] }, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`dam: ${err.message}\n`);
      return 2;
    }
    // --verbose and --json keep the HTTP exchange and the service's exception type; people get words.
    const detailed = found.rest.includes('--verbose') || found.rest.includes('--json');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { cliErrorMessage } = require('./errors') as typeof Errors;
    io.stderr.write(`dam: ${cliErrorMessage(err, detailed)}\n`);
    return 1;
  }
}

if (require.main === module) {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, signal: controller.signal }).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`dam: ${String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
