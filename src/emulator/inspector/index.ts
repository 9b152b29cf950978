// The emulator's request inspector: journal, findings and the /_emulator/requests API. buildApp calls
// registerInspector once; other parts of the pipeline call addFinding(request, finding) to say what they accepted.
import type { FastifyInstance } from 'fastify';
import { installInspector, type Inspector, type InspectorOptions } from './plugin';
import { registerInspectorRoutes } from './routes';

export { addFinding, DEFAULT_JOURNAL_SIZE, DEFAULT_BODY_LIMIT, type Inspector, type InspectorOptions } from './plugin';
export { finding, type Finding } from '../../core/inspector';

/** Installs the hooks and the routes; undefined when `journalSize` is 0 (the inspector is off). */
export function registerInspector(app: FastifyInstance, options: InspectorOptions): Inspector | undefined {
  const inspector = installInspector(app, options);
  if (inspector) registerInspectorRoutes(app, inspector);
  return inspector;
}
