// The session module (dist/session.js): the client, its schemas and zod, loaded with the first connection.
import { lazyModule } from '../lazyModule';
import type * as SessionModule from './session.js';

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const loadSession = lazyModule<typeof SessionModule>(() => require('./session.js'));
