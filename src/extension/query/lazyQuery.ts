// The query language module (dist/query.js), loaded when the first `.dam-query` file opens.
import { lazyModule } from '../lazyModule';
import type * as QueryModule from './module.js';

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const loadQueryModule = lazyModule<typeof QueryModule>(() => require('./query.js'));
