// The emulator's request inspector: journal, findings and the /_emulator/requests API. buildApp calls
// registerInspector once; other parts of the pipeline call addFinding(request, finding) to say what they accepted.
import type { FastifyInstance } from 'fastify';
import { guardDevtools } from './access';
import { installInspector, type Inspector, type InspectorOptions } from './plugin';
import { registerInspectorRoutes } from './routes';

export { guardDevtools, isLoopbackAddress, isLoopbackHostName } from './access';
export { addFinding, DEFAULT_JOURNAL_SIZE, DEFAULT_BODY_LIMIT, type Inspector, type InspectorOptions } from './plugin';
export { finding, type Finding } from '../../core/inspector';

/**
 * Installs the devtools' loopback rule (for every 'devtools' route, the journal's and others'), then the journal's
 * hooks and routes; undefined when `journalSize` is 0 (the inspector is off). Call before any route is added.
 * `host`: the host the emulator listens on.
 */
export function registerInspector(app: FastifyInstance, options: InspectorOptions & { host?: string }): Inspector | undefined {
  guardDevtools(app, options.host);
  const inspector = installInspector(app, options);
  if (inspector) registerInspectorRoutes(app, inspector);
  return inspector;
}
