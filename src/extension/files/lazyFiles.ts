// The check publishing module (dist/files.js), loaded on the first publish or Check Results read.
import { lazyModule } from '../lazyModule';
import type * as ChecksModuleExports from './checksModule.js';

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const loadChecksModule = lazyModule<typeof ChecksModuleExports>(() => require('./files.js'));
