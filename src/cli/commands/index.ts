// Every `dam` sub-command, in the order `dam help` lists them: the words that select it and the module that holds it.
// A command's module is loaded only when that command runs (or `dam help` lists every summary), so `dam upload`
// evaluates the upload code and the client, not the search language, the tenant tools or the analytics linter
// (issue 37: loading every command's code and schemas was part of what made `dam upload` slower than the Upload
// command's path). Plain `require`s: esbuild's bundle defers each module until it is required, and tsx's CJS hook
// (mocha) resolves them. Add a command by adding a line here; test/unit/cliCommands.test.ts checks that each line's
// words are its command's own.
/* eslint-disable @typescript-eslint/no-require-imports */
import type { Command } from '../command';
import type * as Analytics from './analytics';
import type * as Checks from './checks';
import type * as Emulator from './emulator';
import type * as EmulatorRequests from './emulatorRequests';
import type * as EmulatorState from './emulatorState';
import type * as Get from './get';
import type * as Lint from './lint';
import type * as Records from './records';
import type * as Renditions from './renditions';
import type * as Search from './search';
import type * as Strings from './strings';
import type * as Tasks from './tasks';
import type * as Tenant from './tenant';
import type * as Upload from './upload';

export interface CommandEntry {
  /** Words that select the command (the same as its `Command.name`). */
  name: string[];
  /** The command, its module loaded on first call. */
  load(): Command;
}

/** The command named `words` among those a module exports. */
function named(commands: Command[], words: string): Command {
  const found = commands.find((c) => c.name.join(' ') === words);
  if (!found) throw new Error(`no command '${words}' in its module`);
  return found;
}

const entry = (words: string, load: () => Command[]): CommandEntry => ({ name: words.split(' '), load: () => named(load(), words) });

const emulatorState = () => (require('./emulatorState') as typeof EmulatorState).emulatorStateCommands;
const tasks = () => {
  const m = require('./tasks') as typeof Tasks;
  return [m.tasksCreateCommand, m.tasksDelegateCommand, m.tasksAttachCommand];
};
const records = () => (require('./records') as typeof Records).recordsCommands;
const tenant = () => (require('./tenant') as typeof Tenant).tenantCommands;

export const commandEntries: CommandEntry[] = [
  entry('emulator', () => [(require('./emulator') as typeof Emulator).emulatorCommand]),
  entry('emulator requests', () => [(require('./emulatorRequests') as typeof EmulatorRequests).emulatorRequestsCommand]),
  entry('emulator snapshot save', emulatorState),
  entry('emulator snapshot restore', emulatorState),
  entry('emulator snapshot list', emulatorState),
  entry('emulator snapshot delete', emulatorState),
  entry('emulator reset', emulatorState),
  entry('search', () => [(require('./search') as typeof Search).searchCommand]),
  entry('get', () => [(require('./get') as typeof Get).getCommand]),
  entry('lint', () => [(require('./lint') as typeof Lint).lintCommand]),
  entry('analytics run', () => [(require('./analytics') as typeof Analytics).analyticsRunCommand]),
  entry('tasks create', tasks),
  entry('tasks delegate', tasks),
  entry('tasks attach', tasks),
  entry('strings resolve', () => [(require('./strings') as typeof Strings).stringsResolveCommand]),
  entry('renditions', () => [(require('./renditions') as typeof Renditions).renditionsCommand]),
  entry('upload', () => [(require('./upload') as typeof Upload).uploadCommand]),
  entry('checks publish', () => [(require('./checks') as typeof Checks).checksPublishCommand]),
  entry('records get', records),
  entry('records update', records),
  entry('records undo', records),
  entry('records delete', records),
  entry('tenant pull', tenant),
  entry('tenant diff', tenant),
  entry('tenant push', tenant),
  entry('tenant probe', tenant),
];
