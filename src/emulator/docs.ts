// The OpenAPI document served at /api/core/docs: @fastify/swagger builds its paths from the routes' schemas
// (routeTable.ts); this is the part no route knows, and the per-request server address.
import type { FastifyInstance } from 'fastify';

export const OPENAPI_BASE = {
  openapi: '3.0.3',
  info: {
    title: 'DAM emulator',
    version: '1',
    description:
      'The local emulator of the digital-asset-management service: the content API under /api/core, the upload service under /uploads, ' +
      'work management under /api, analytics under /analytics, OAuth 2.0 under /login/connect. Every 4xx answers the error object.',
  },
  components: { securitySchemes: { bearer: { type: 'http' as const, scheme: 'bearer' } } },
};

/** The generated document with this emulator's address as its server. */
export function openApiDocument(app: FastifyInstance, origin: string): Record<string, unknown> {
  const document = app.swagger() as unknown as Record<string, unknown>;
  return { ...document, servers: [{ url: origin }] };
}
