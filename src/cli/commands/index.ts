// Every `dam` sub-command, in the order `dam help` lists them. Add a command by adding its module here.
import type { Command } from '../command';

export const commands: Command[] = [];
