// The emulator's state devtools under /_emulator/ (no part of the tenant API): named snapshots and a reset to a
// fresh tenant. No tenant token is needed, and only this machine may call them unless the emulator was started
// on another host.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context';
import { errors } from '../errors';
import { SNAPSHOT_NAME } from './service';

const TAGS = ['emulator devtools'];
const config = { headers: 'devtools' as const };

const saveBody = { type: 'object', properties: { name: { type: 'string', maxLength: 200 } }, required: ['name'] } as const;
const resetBody = { type: 'object', properties: { seed: { type: 'string', enum: ['demo', 'empty'], default: 'demo' } } } as const;

const snapshotSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    createdOn: { type: 'string', format: 'date-time' },
    seed: { type: 'string', nullable: true },
    records: { type: 'integer' },
    tables: { type: 'integer' },
    blobs: { type: 'integer' },
    backend: { type: 'string' },
  },
  required: ['name', 'createdOn', 'records'],
} as const;

const loadSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    tablesLoaded: { type: 'array', items: { type: 'string' } },
    blobsAdded: { type: 'integer' },
    blobsRemoved: { type: 'integer' },
    ms: { type: 'number' },
  },
} as const;

const errorSchema = {
  type: 'object',
  properties: { exceptionMessage: { type: 'string' }, exceptionType: { type: 'string' }, stackTrace: { type: 'null' }, innerException: { type: 'null' } },
} as const;

const nameParams = { type: 'object', properties: { name: { type: 'string', pattern: SNAPSHOT_NAME.source } }, required: ['name'] } as const;

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  const state = ctx.state;
  const base = '/_emulator';

  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (request.routeOptions.config?.headers !== 'devtools') return;
    // The devtools take no token, so a web page of another origin must not drive them through the user's browser (a
    // form POSTed to /_emulator/reset is a simple request, sent without a preflight). The CLI and the extension
    // send no Origin; a browser names the page's origin and, on a cross-site request, says so in Sec-Fetch-Site.
    const origin = request.headers.origin;
    const site = request.headers['sec-fetch-site'];
    if ((typeof origin === 'string' && origin !== `http://${request.headers.host}`) || site === 'cross-site' || site === 'same-site') {
      throw errors.devtoolsFromPage(typeof origin === 'string' ? origin.slice(0, 200) : String(site));
    }
    // Serving loopback only, nothing else can reach the port; the check stands for when a proxy forwards to it.
    if (ctx.config.loopbackOnly && !LOOPBACK.test(request.socket.remoteAddress ?? '')) throw errors.devtoolsLoopbackOnly();
  });

  const name = (request: FastifyRequest) => (request.params as { name: string }).name;

  app.get(
    `${base}/snapshots`,
    {
      config,
      schema: {
        summary: 'Saved emulator states, newest first',
        tags: TAGS,
        response: { 200: { type: 'object', properties: { items: { type: 'array', items: snapshotSchema } } } },
      },
    },
    async () => ({ items: await state.list() }),
  );

  app.post(
    `${base}/snapshots`,
    {
      config,
      schema: {
        summary: 'Save the emulator state (database and blobs) under a name, replacing a snapshot of that name',
        tags: TAGS,
        body: saveBody,
        response: { 201: snapshotSchema, '4xx': errorSchema },
      },
    },
    async (request, reply) => {
      const saved = await state.save((request.body as { name: string }).name);
      reply.code(201).header('Location', `${base}/snapshots/${encodeURIComponent(saved.name)}`);
      return saved;
    },
  );

  app.get(
    `${base}/snapshots/:name`,
    { config, schema: { summary: 'One saved emulator state', tags: TAGS, params: nameParams, response: { 200: snapshotSchema, '4xx': errorSchema } } },
    async (request) => state.get(name(request)),
  );

  app.post(
    `${base}/snapshots/:name/restore`,
    {
      config,
      schema: {
        summary: 'Restore a saved state without a restart: requests in flight finish on the old state, later ones see the new',
        tags: TAGS,
        params: nameParams,
        response: { 200: loadSchema, '4xx': errorSchema },
      },
    },
    async (request) => state.restore(name(request)),
  );

  app.delete(
    `${base}/snapshots/:name`,
    { config, schema: { summary: 'Delete a saved state', tags: TAGS, params: nameParams, response: { '4xx': errorSchema } } },
    async (request, reply) => {
      await state.remove(name(request));
      return reply.code(204).send();
    },
  );

  app.post(
    `${base}/reset`,
    {
      config,
      schema: {
        summary: 'Replace the state with a fresh demo (or empty) tenant; access tokens stay valid',
        tags: TAGS,
        body: resetBody,
        response: { 200: loadSchema, '4xx': errorSchema },
      },
      // No body at all is a reset to the demo tenant.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => state.reset((request.body as { seed: 'demo' | 'empty' }).seed),
  );
}
