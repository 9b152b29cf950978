// The tenant configuration module (dist/tenant.js), loaded on the first Pull or Compare command.
import { lazyModule } from '../lazyModule';
import type * as TenantModuleExports from './module.js';

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const loadTenantModule = lazyModule<typeof TenantModuleExports>(() => require('./tenant.js'));
