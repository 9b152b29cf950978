// Discovery and version-agnostic endpoints: `/`, `/supportedVersions`, `/docs`, and the removed OAuth routes (410).
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../context';
import { openApiDocument } from '../docs';
import { route } from '../routeTable';
import { AnyJson, ErrorBodySchema, RootSchema, VersionsSchema } from '../schemas';

const CORE_COLLECTIONS = [
  'records',
  'classifications',
  'fielddefinitions',
  'fieldgroups',
  'users',
  'usergroups',
  'languages',
  'settings',
  'settingdefinitions',
  'contenttypes',
  'checkcategories',
  'checks',
  'maintenancejobs',
  'orders',
];

const REMOVED_OAUTH_ROUTES = ['/api/oauth/create-native-token', '/api/oauth/authorize', '/api/oauth/create-token', '/api/oauth/exchange-auth-code'];

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  route(app, ctx, {
    method: 'GET',
    url: ['/', '/api/core/'],
    summary: 'Root: links to the accessible resources',
    tag: 'Discovery',
    policy: 'discovery',
    responses: { 200: { description: 'Links to the collections and searches', schema: RootSchema } },
    handler: ({ request }) => {
      const core = `${ctx.origin(request)}/api/core`;
      const links: Record<string, { href: string }> = { self: { href: `${core}/` } };
      for (const name of CORE_COLLECTIONS) links[name] = { href: `${core}/${name}` };
      links.searchrecords = { href: `${core}/search/records` };
      links.searchclassifications = { href: `${core}/search/classifications` };
      links.supportedversions = { href: `${core}/supportedVersions` };
      links.docs = { href: `${core}/docs` };
      return { name: 'DAM emulator', _links: links };
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: ['/supportedVersions', '/api/core/supportedVersions'],
    summary: 'Supported API versions (whatever API-Version says)',
    tag: 'Discovery',
    policy: 'discovery',
    responses: { 200: { description: 'The versions', schema: VersionsSchema } },
    handler: ({ request }) => ({
      versions: ['1'],
      items: [{ version: '1', isDefault: true, isDeprecated: false }],
      _links: { self: { href: `${ctx.origin(request)}/api/core/supportedVersions` } },
    }),
  });
  route(app, ctx, {
    method: 'GET',
    url: ['/docs', '/api/core/docs'],
    summary: 'This OpenAPI 3 document',
    tag: 'Discovery',
    policy: 'docs',
    hidden: true,
    responses: { 200: { description: 'The OpenAPI document', schema: AnyJson } },
    handler: ({ request, reply }) => {
      reply.type('application/json; charset=utf-8');
      return openApiDocument(app, ctx.origin(request));
    },
  });
  for (const path of REMOVED_OAUTH_ROUTES) {
    route(app, ctx, {
      method: ['GET', 'POST'],
      url: path,
      summary: 'Removed on 2026-06-01 (spec: Authentication 8); answers 410',
      tag: 'OAuth 2.0',
      policy: 'login',
      deprecated: true,
      responses: { 410: { description: 'Gone: use the OAuth 2.0 flows at /login/connect/token', schema: ErrorBodySchema } },
      handler: () => {
        throw ctx.errors.gone('the OAuth 2.0 flows at /login/connect/token (client credentials, password, authorization code with PKCE)');
      },
    });
  }
}
