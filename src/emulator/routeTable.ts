// How every route of the emulator is declared: method, paths, what it takes (zod schemas for params, query and body),
// what it answers, which header rules and rights apply. The one place that reads requests as the live ASP.NET service
// does (property names in any case, see `lenientKeys`), checks rights before the handler runs, and hands the
// schemas to the generated OpenAPI document, so the description cannot drift from what is served.
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { z } from 'zod';
import type { Caller } from './caller';
import type { EmulatorContext, HeaderPolicy } from './context';
import { errors } from './errors';
import { firstOfRepeated, lenientKeys } from './lenientJson';
import { addFinding, finding } from './inspector';
import { ErrorBodySchema } from './schemas';

/** What a request body may be sent as; anything else is refused with 415 naming the type that was sent. */
export type BodyKind = 'json' | 'multipart' | 'form' | 'raw';

export interface ResponseSpec {
  description: string;
  /** Absent for a response without a body (204) or with bytes (set `contentType`). */
  schema?: z.ZodType;
  contentType?: string;
}

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  request: FastifyRequest;
  reply: FastifyReply;
  /** The authenticated caller (routes whose header policy requires a token). */
  caller(): Caller;
}

export interface RouteSpec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  method: HTTPMethods | HTTPMethods[];
  /** The path, or several that serve the same (`/record` and `/records`). Matched case-insensitively. */
  url: string | string[];
  summary: string;
  description?: string;
  /** The area in the document (`Records`, `Uploads`, `Work management`, …). */
  tag: string;
  /** Header rules of the spec's table; by default from the path (`/api/core` is the content API). */
  policy?: HeaderPolicy;
  /** Rights the caller must hold (a system administrator holds every right); 403 with the error object otherwise. */
  rights?: readonly string[];
  /** What the caller lacks the right to do, in words, for the 403 message ("change settings"). */
  action?: string;
  params?: P;
  query?: Q;
  body?: B;
  /** Body formats accepted (default `json` when a body schema is given). */
  consumes?: readonly BodyKind[];
  /** True when the body may be omitted (the handler then sees `undefined`). */
  bodyOptional?: boolean;
  /**
   * The handler reads `request.body` itself, with the rules of its protocol (OAuth answers its own error format):
   * `body` only describes it in the document; the Content-Type is still checked.
   */
  bodyReadByHandler?: boolean;
  responses: Record<number, ResponseSpec>;
  deprecated?: boolean;
  /** Hidden from the OpenAPI document (the document's own route). */
  hidden?: boolean;
  handler(input: RouteInput<z.infer<P>, z.infer<Q>, z.infer<B>>): unknown;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Rights the route needs; checked after authentication, before the body is read. */
    rights?: readonly string[];
    action?: string;
  }
}

/** Parses one part of a request with its schema; the 400 names the member that is wrong. */
export function parsePart<S extends z.ZodType>(schema: S, value: unknown, part: 'body' | 'query' | 'path', renamed?: string[]): z.infer<S> {
  const named = lenientKeys(schema, value, renamed);
  const result = schema.safeParse(part === 'query' ? firstOfRepeated(schema, named, renamed) : named);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  const what = part === 'body' ? 'request body' : part === 'query' ? 'query string' : 'path';
  throw errors.validation(`Invalid ${what}: ${where}${issue?.message ?? 'invalid'}`);
}

const JSON_TYPE = /^(application\/(.+\+)?json|text\/json)$/i;

/** The body kind of a request by its Content-Type, or undefined when no known kind matches. */
export function bodyKindOf(contentType: string | undefined): BodyKind | undefined {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (JSON_TYPE.test(type)) return 'json';
  if (type === 'multipart/form-data') return 'multipart';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  return undefined;
}

/** Whether a request carries body bytes (an empty body counts as none: real-service-notes). */
export function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return request.headers['transfer-encoding'] !== undefined && request.body !== undefined;
}

/** The default header rules for a path: the content API's, or the other services' (uploads, work management, analytics). */
function defaultPolicy(url: string): HeaderPolicy {
  return url.toLowerCase().startsWith('/api/core') ? 'api' : 'service';
}

/** JSON Schema of a zod schema as a request reads it (unknown members are ignored, defaults optional). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  return inlineDefinitions(z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' }) as Record<string, unknown>);
}

/**
 * A recursive zod schema (a search expression's `subExpressions`) comes with `definitions` and `#/definitions/…`
 * references, which the route's schema cannot carry into the OpenAPI document (the swagger plugin points them at
 * components that do not exist). The document inlines each definition once and describes the nested repeat in words;
 * requests are validated by zod, not by this schema.
 */
function inlineDefinitions(json: Record<string, unknown>): Record<string, unknown> {
  const defs = json.definitions as Record<string, unknown> | undefined;
  if (!defs) return json;
  const { definitions: _omit, ...rest } = json;
  const walk = (node: unknown, seen: ReadonlySet<string>): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, seen));
    if (!node || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/definitions/')) {
      const name = ref.slice('#/definitions/'.length);
      if (seen.has(name) || !(name in defs)) return { type: 'object', description: 'The same shape, nested' };
      return walk(defs[name], new Set([...seen, name]));
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, seen)]));
  };
  return walk(rest, new Set()) as Record<string, unknown>;
}

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: jsonSchema(ErrorBodySchema, 'output') } } });

/** The fastify `schema` of a route: what @fastify/swagger turns into its OpenAPI operation. */
function openApiSchema(spec: RouteSpec<z.ZodType, z.ZodType, z.ZodType>, policy: HeaderPolicy): Record<string, unknown> {
  const out: Record<string, unknown> = { summary: spec.summary, tags: [spec.tag] };
  if (spec.description) out.description = spec.description;
  if (spec.deprecated) out.deprecated = true;
  if (spec.hidden) out.hide = true;
  if (spec.params) out.params = jsonSchema(spec.params, 'input');
  if (spec.query) out.querystring = jsonSchema(spec.query, 'input');
  if (spec.body) {
    const kinds = spec.consumes ?? ['json'];
    const content: Record<string, unknown> = {};
    for (const kind of kinds) {
      const type = kind === 'json' ? 'application/json' : kind === 'multipart' ? 'multipart/form-data' : kind === 'form' ? 'application/x-www-form-urlencoded' : 'application/octet-stream';
      content[type] = { schema: jsonSchema(spec.body, 'input') };
    }
    out.body = { content, required: !spec.bodyOptional };
  }
  if (policy === 'api') {
    out.headers = {
      type: 'object',
      properties: {
        'API-Version': { type: 'string', enum: ['1'], description: 'Required on the content API (case-insensitive name).' },
        Accept: { type: 'string', description: 'application/hal+json (default, links and embedded) or application/json (plain).' },
        'User-Agent': { type: 'string' },
      },
      required: ['API-Version', 'Accept', 'User-Agent'],
    };
  } else if (policy === 'service' || policy === 'discovery' || policy === 'download') {
    out.headers = { type: 'object', properties: { 'User-Agent': { type: 'string' } }, required: ['User-Agent'] };
  }
  if (policy === 'api' || policy === 'service') out.security = [{ bearer: [] }];
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(spec.responses)) {
    if (r.schema) responses[status] = { description: r.description, content: { [r.contentType ?? 'application/json']: { schema: jsonSchema(r.schema, 'output') } } };
    else if (r.contentType) responses[status] = { description: r.description, content: { [r.contentType]: { schema: { type: 'string', format: 'binary' } } } };
    else responses[status] = { type: 'null', description: r.description };
  }
  if ((spec.params || spec.query || spec.body || policy === 'api') && !responses['400']) responses['400'] = errorResponse('Invalid input or a missing required header; the message names it.');
  if ((policy === 'api' || policy === 'service') && !responses['401']) responses['401'] = errorResponse('The access token is missing, unknown or expired.');
  if (spec.rights?.length && !responses['403']) responses['403'] = errorResponse(`The caller lacks the right to ${spec.action ?? 'do this'}.`);
  if (spec.params && !responses['404']) responses['404'] = errorResponse('No such resource.');
  if (spec.body && !responses['415']) responses['415'] = errorResponse('The body was sent in a format this route does not take.');
  out.response = responses;
  return out;
}

/** Registers one route. The returned value of the handler is the response payload (status 200 unless it set one). */
export function route<P extends z.ZodType = z.ZodUndefined, Q extends z.ZodType = z.ZodUndefined, B extends z.ZodType = z.ZodUndefined>(
  app: FastifyInstance,
  ctx: EmulatorContext,
  spec: RouteSpec<P, Q, B>,
): void {
  const urls = Array.isArray(spec.url) ? spec.url : [spec.url];
  const consumes = spec.consumes ?? (spec.body ? ['json'] : []);
  for (const url of urls) {
    const policy = spec.policy ?? defaultPolicy(url);
    app.route({
      method: spec.method,
      url,
      // The route's OpenAPI operation is made when the document is first asked for (GET /api/core/docs), not here:
      // turning every route's zod schemas into JSON Schema took about a third of the emulator's start (issue 37).
      // Requests are validated by zod (parsePart below), so fastify itself needs no schema.
      config: { headers: policy, rights: spec.rights, action: spec.action, swaggerTransform: ({ url: path }) => ({ schema: openApiSchema(spec as unknown as RouteSpec<z.ZodType, z.ZodType, z.ZodType>, policy), url: path }) },
      handler: async (request, reply) => {
        const renamed: string[] = [];
        const params = spec.params ? parsePart(spec.params, request.params ?? {}, 'path') : undefined;
        const query = spec.query ? parsePart(spec.query, request.query ?? {}, 'query', renamed) : undefined;
        let body: unknown;
        if (spec.body) {
          const sent = hasBody(request) && request.body !== undefined;
          if (sent) {
            const kind = bodyKindOf(request.headers['content-type']);
            if (!kind || !consumes.includes(kind)) throw errors.unsupportedMediaType(request.headers['content-type'] ?? '(none)', consumes);
          }
          if (spec.bodyReadByHandler) body = request.body;
          else {
            if (!sent && consumes.includes('json') && !spec.bodyOptional) throw errors.validation('The request body is required: send a JSON object.');
            body = sent && consumes.includes('json') && bodyKindOf(request.headers['content-type']) === 'json' ? parsePart(spec.body, request.body, 'body', renamed) : request.body;
            if (!sent && spec.bodyOptional) body = undefined;
          }
        }
        for (const r of renamed) {
          addFinding(request, finding('DE6001', `Read leniently, as the service does: ${r}.`, 'Send the names and types the API describes (GET /api/core/docs).'));
        }
        return spec.handler({
          params: params as z.infer<P>,
          query: query as z.infer<Q>,
          body: body as z.infer<B>,
          request,
          reply,
          caller: () => ctx.auth.caller(request),
        });
      },
    });
  }
}

/** 201 Created with the new resource's address and body (emulator contract: every create answers its resource). */
export function created(reply: FastifyReply, location: string, body: unknown): unknown {
  reply.code(201).header('Location', location);
  return body;
}

/** 204 No Content: what updates and deletes answer (real-service-notes). */
export function noContent(reply: FastifyReply): FastifyReply {
  return reply.code(204).send();
}

/** A path segment: any text up to a sane length (ids are checked by the handler, which answers 404 for unknown ones). */
export const Segment = z.string().min(1).max(500);

/** `filter`, `sort` and paging of a collection (also accepted as request headers of the same names). */
export const ListQuery = z
  .object({
    filter: z.string().max(1_000_000).optional().describe('Search expression, plain form (no parameters).'),
    sort: z.string().max(1_000_000).optional().describe('Sort expression, e.g. `Title, CreatedOn desc`.'),
    page: z.string().max(12).optional().describe('1-based page number.'),
    pageSize: z.string().max(12).optional().describe('Items per page; larger values are clamped silently.'),
    skip: z.string().max(12).optional(),
    take: z.string().max(12).optional(),
  })
  .loose();
