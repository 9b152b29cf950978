// Generates the OpenAPI document served at /docs from the schemas the routes registered with.
import type { RouteInfo } from './context';


interface RouteSchema {
  body?: unknown;
  querystring?: unknown;
  params?: unknown;
  summary?: string;
  tags?: string[];
}

function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

export function openApiDocument(routes: RouteInfo[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
    const schema = (route.schema ?? {}) as RouteSchema;
    const path = openApiPath(route.url);
    for (const method of methods) {
      const params: unknown[] = [];
      for (const [where, source] of [
        ['path', schema.params],
        ['query', schema.querystring],
      ] as const) {
        const props = (source as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
        for (const [name, s] of Object.entries(props)) params.push({ name, in: where, required: where === 'path', schema: s });
      }
      if (route.policy === 'api') {
        params.push({ name: 'API-Version', in: 'header', required: true, schema: { type: 'string', enum: ['1'] } });
      }
      const op: Record<string, unknown> = {
        summary: schema.summary ?? `${method} ${path}`,
        tags: schema.tags,
        parameters: params,
        responses: { default: { description: 'HAL resource, or the error object for 4xx/5xx' } },
      };
      if (route.policy === 'api') op.security = [{ bearer: [] }];
      const body = schema.body ?? route.bodySchema;
      if (body) op.requestBody = { content: { 'application/json': { schema: body } } };
      (paths[path] ??= {})[method.toLowerCase()] = op;
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'DAM emulator', version: '1' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}
