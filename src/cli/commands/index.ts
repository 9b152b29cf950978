// Every `dam` sub-command, in the order `dam help` lists them. Add a command by adding its module here.
import type { Command } from '../command';
import { emulatorCommand } from './emulator';
import { emulatorRequestsCommand } from './emulatorRequests';
import { searchCommand } from './search';
import { getCommand } from './get';
import { lintCommand } from './lint';
import { analyticsRunCommand } from './analytics';
import { tasksCreateCommand, tasksDelegateCommand, tasksAttachCommand } from './tasks';
import { stringsResolveCommand } from './strings';
import { renditionsCommand } from './renditions';
import { uploadCommand } from './upload';
import { checksPublishCommand } from './checks';
import { emulatorStateCommands } from './emulatorState';
import { recordsCommands } from './records';

export const commands: Command[] = [emulatorCommand, emulatorRequestsCommand, ...emulatorStateCommands, searchCommand, getCommand, lintCommand, analyticsRunCommand, tasksCreateCommand, tasksDelegateCommand, tasksAttachCommand, stringsResolveCommand, renditionsCommand, uploadCommand, checksPublishCommand, ...recordsCommands];
