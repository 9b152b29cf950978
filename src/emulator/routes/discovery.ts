// Discovery and version-agnostic endpoints: `/`, `/supportedVersions`, `/docs`, and the removed OAuth routes (410).
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../context';
import { openApiDocument } from '../docs';

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
];

const REMOVED_OAUTH_ROUTES = ['/api/oauth/create-native-token', '/api/oauth/authorize', '/api/oauth/create-token', '/api/oauth/exchange-auth-code'];

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  for (const prefix of ['', '/api/core']) {
    app.get(`${prefix}/`, { config: { headers: 'discovery' }, schema: { summary: 'Root: links to the accessible resources' } }, async (request) => {
      const core = `${ctx.origin(request)}/api/core`;
      const links: Record<string, { href: string }> = { self: { href: `${core}/` } };
      for (const name of CORE_COLLECTIONS) links[name] = { href: `${core}/${name}` };
      links.searchrecords = { href: `${core}/search/records` };
      links.searchclassifications = { href: `${core}/search/classifications` };
      links.supportedversions = { href: `${core}/supportedVersions` };
      links.docs = { href: `${core}/docs` };
      return { name: 'DAM emulator', _links: links };
    });
    app.get(`${prefix}/supportedVersions`, { config: { headers: 'discovery' }, schema: { summary: 'Supported API versions' } }, async (request) => ({
      versions: ['1'],
      items: [{ version: '1', isDefault: true, isDeprecated: false }],
      _links: { self: { href: `${ctx.origin(request)}/api/core/supportedVersions` } },
    }));
    app.get(`${prefix}/docs`, { config: { headers: 'docs' }, schema: { summary: 'This OpenAPI document' } }, async (_request, reply) => {
      reply.type('application/json; charset=utf-8');
      return openApiDocument(ctx.routes);
    });
  }
  for (const path of REMOVED_OAUTH_ROUTES) {
    app.all(path, { config: { headers: 'login' } }, async () => {
      throw ctx.errors.gone('the OAuth 2.0 flows at /login/connect/token (client credentials, password, authorization code with PKCE)');
    });
  }
}
