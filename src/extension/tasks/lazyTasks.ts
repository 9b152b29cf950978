// The task commands module (dist/tasks.js), loaded on the first task command.
import { lazyModule } from '../lazyModule';
import type * as TaskModuleExports from './module.js';

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const loadTaskModule = lazyModule<typeof TaskModuleExports>(() => require('./tasks.js'));
