// `dam tenant probe` against real emulators over HTTP on each backend. The "tenant" is a second emulator behind a
// small proxy that changes what a tenant could answer differently (a member added, one removed, one retyped, a route
// added and linked from the root): the compare names each change, and nothing else. The probe file holds no values.
import { strict as assert } from 'node:assert';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../../src/emulator/server';
import { backends, describeEachBackend, runDam } from './helpers';

/** JSON answers the proxy rewrites, by path (lower case, no query). */
type Rewrite = (body: Record<string, unknown>, origin: string) => void;

const REWRITES: Record<string, Rewrite> = {
  '/api/core/': (body, origin) => {
    (body._links as Record<string, unknown>).probetestwidgets = { href: `${origin}/api/core/probetestwidgets` };
  },
  '/api/core/languages': (body) => {
    for (const item of body.items as Record<string, unknown>[]) {
      // A member no catalogue line names, so the emulator cannot have it.
      item.hasProbeTest = true;
      delete item.culture;
      item.isNeutral = String(item.isNeutral);
    }
  },
};

/** A tiny reverse proxy to `target` that applies REWRITES and serves one route the emulator does not have. */
function startProxy(target: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0].toLowerCase();
    const origin = `http://${req.headers.host}`;
    if (path === '/api/core/probetestwidgets') {
      res.writeHead(200, { 'content-type': 'application/hal+json' });
      res.end(JSON.stringify({ items: [{ id: 'c0ffee00c0ffee00c0ffee00c0ffee00', label: 'private widget' }], totalCount: 1, _links: { self: { href: `${origin}${req.url}` } } }));
      return;
    }
    const upstream = httpRequest(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (answer) => {
      const rewrite = REWRITES[path];
      if (!rewrite || (answer.statusCode ?? 500) >= 300) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        rewrite(body, origin);
        const text = JSON.stringify(body);
        const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(text)) };
        delete headers['transfer-encoding'];
        res.writeHead(answer.statusCode ?? 200, headers);
        res.end(text);
      });
    });
    upstream.on('error', (err) => res.destroy(err));
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })));
}

describeEachBackend('dam tenant probe', { seed: undefined }, (env) => {
  let home: string;
  let proxy: { server: Server; url: string };
  const stops: (() => Promise<void>)[] = [];

  before(async () => {
    home = await mkdtemp(join(tmpdir(), 'dam-probe-'));
    const backend = backends().find((b) => b.name === env().backend)!;
    const storage = await backend.prepare();
    const tenant = await startEmulator({ port: 0, data: ':memory:', database: storage.database });
    stops.push(async () => {
      await tenant.close();
      await storage.cleanup();
    });
    proxy = await startProxy(tenant.url);
    stops.push(() => new Promise((resolve) => proxy.server.close(() => resolve())));
  });
  after(async () => {
    for (const stop of stops.reverse()) await stop();
    await rm(home, { recursive: true, force: true });
  });

  it('writes the shape of each answer, sorted, without values, ids or addresses', async () => {
    const run = await runDam(['tenant', 'probe', join(home, 'self')], { DAM_URL: env().url });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '', 'no progress when stderr is not a terminal');
    const text = await readFile(join(home, 'self', 'probe.json'), 'utf8');
    const probe = JSON.parse(text) as { format: string; routes: Record<string, { status?: number; members?: Record<string, string> }> };
    assert.equal(probe.format, 'dam-probe/1');
    assert.deepEqual(probe.routes['GET /api/core/languages'].members?.['items[].id'], 'guid');
    assert.equal(probe.routes['GET /api/core/languages'].members?.['items[].isNeutral'], 'boolean');
    assert.equal(probe.routes['GET /api/core/languages'].status, 200);
    // Collections the root links are probed too; records are (the ids that fill routes stay in memory).
    assert.equal(probe.routes['GET /api/core/records']?.status, 200);
    assert.doesNotMatch(text, /[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}/i, 'no id');
    assert.doesNotMatch(text, /127\.0\.0\.1|English|\badmin\b/, 'no address, name or login');
    const keys = Object.keys(probe.routes);
    assert.deepEqual(keys, [...keys].sort(), 'routes sorted');
    // Two probes of an unchanged service are the same file, byte for byte: they diff cleanly. Not the first: the
    // emulator makes a seeded file's bytes when it is first read, and only then has its checksum (null before).
    assert.equal((await runDam(['tenant', 'probe', join(home, 'again')], { DAM_URL: env().url })).code, 0);
    assert.equal((await runDam(['tenant', 'probe', join(home, 'third')], { DAM_URL: env().url })).code, 0);
    assert.equal(await readFile(join(home, 'third', 'probe.json'), 'utf8'), await readFile(join(home, 'again', 'probe.json'), 'utf8'));
  });

  it('compares with the same service: no difference, exit 0', async () => {
    const run = await runDam(['tenant', 'probe', '--compare', join(home, 'self'), env().url]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^0 differences in \d+ routes compared\./m);
  });

  it('names each change a tenant makes, and nothing else (exit 1, --json for tools)', async () => {
    const probed = await runDam(['tenant', 'probe', join(home, 'tenant')], { DAM_URL: proxy.url });
    assert.equal(probed.code, 0, probed.stderr);
    assert.doesNotMatch(await readFile(join(home, 'tenant', 'probe.json'), 'utf8'), /private widget|c0ffee/);
    const run = await runDam(['tenant', 'probe', '--compare', join(home, 'tenant'), env().url]);
    assert.equal(run.code, 1, run.stderr);
    const lines = run.stdout.trim().split('\n');
    // The languages route, and its select variant when the catalogue gives languages relations: the proxy changes both.
    const languageRoutes = [...new Set(lines.filter((l) => l.startsWith('GET /api/core/languages')).map((l) => (l.startsWith('GET /api/core/languages (') ? l.slice(0, l.indexOf('): ') + 1) : 'GET /api/core/languages')))];
    assert.ok(languageRoutes[0] === 'GET /api/core/languages' && languageRoutes.length <= 2, JSON.stringify(languageRoutes));
    assert.deepEqual(lines, [
      'GET /api/core/: the tenant\'s answer has the link `probetestwidgets`, the emulator\'s does not',
      ...languageRoutes.flatMap((route) => [
        `${route}: the emulator's items have \`culture\` (string), the tenant's do not`,
        `${route}: the tenant's items have \`hasProbeTest\` (boolean), the emulator's do not`,
        `${route}: the tenant's items have \`isNeutral\` as string, the emulator's as boolean`,
      ]),
      'GET /api/core/probetestwidgets: the tenant answers 200, the emulator 404',
      lines.at(-1)!,
    ]);
    assert.match(run.stdout, new RegExp(`^${2 + 3 * languageRoutes.length} differences in \\d+ routes compared\\.`, 'm'));
    const json = await runDam(['tenant', 'probe', '--compare', join(home, 'tenant'), env().url, '--json']);
    assert.equal(json.code, 1);
    const parsed = JSON.parse(json.stdout) as { differences: { route: string; kind: string; member?: string }[] };
    assert.deepEqual(
      parsed.differences.map((d) => [d.route, d.kind, d.member ?? '']),
      [
        ['GET /api/core/', 'only-first', '_links.probetestwidgets'],
        ...languageRoutes.flatMap((route) => [
          [route, 'only-second', 'items[].culture'],
          [route, 'only-first', 'items[].hasProbeTest'],
          [route, 'type', 'items[].isNeutral'],
        ]),
        ['GET /api/core/probetestwidgets', 'status', ''],
      ],
    );
  });

  it('refuses bad input with exit 2 and a clear error naming it', async () => {
    const empty = join(home, 'empty');
    await mkdir(empty, { recursive: true });
    const none = await runDam(['tenant', 'probe', '--compare', empty, env().url]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /empty is not a probe: it holds no probe\.json/);
    const other = join(home, 'other');
    await mkdir(other, { recursive: true });
    await writeFile(join(other, 'probe.json'), JSON.stringify({ format: 'something else' }));
    const wrong = await runDam(['tenant', 'probe', '--compare', other, env().url]);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /probe\.json is not a probe dam can use: not a probe written by `dam tenant probe`/);
    const gone = await runDam(['tenant', 'probe', '--compare', join(home, 'self'), 'http://127.0.0.1:9']);
    assert.equal(gone.code, 2, gone.stderr);
    assert.match(gone.stderr, /cannot probe http:\/\/127\.0\.0\.1:9\/api\/core: No DAM service answers at http:\/\/127\.0\.0\.1:9/);
  });
});

// The two storage backends must answer alike: a probe of the demo tenant on PGlite, compared with the demo tenant on
// PostgreSQL, finds no difference, and reaches the routes that need an item with a file, a child classification, a
// task's document upload.
describe('dam tenant probe: PGlite and PostgreSQL emulators answer alike (demo tenants)', function () {
  this.timeout(600_000);
  let home: string;
  const urls: Record<string, string> = {};
  const stops: (() => Promise<void>)[] = [];

  before(async function () {
    if (backends().length < 2) this.skip(); // needs DAM_TEST_DATABASE_URL
    home = await mkdtemp(join(tmpdir(), 'dam-probe-backends-'));
    for (const backend of backends()) {
      const storage = await backend.prepare();
      const emulator = await startEmulator({ seed: 'demo', port: 0, data: ':memory:', database: storage.database });
      stops.push(async () => {
        await emulator.close();
        await storage.cleanup();
      });
      urls[backend.name] = emulator.url;
    }
  });
  after(async () => {
    for (const stop of stops.reverse()) await stop();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('finds no difference, and compares the routes that need a file, a child or a task', async () => {
    const probed = await runDam(['tenant', 'probe', join(home, 'pglite')], { DAM_URL: urls.pglite });
    assert.equal(probed.code, 0, probed.stderr);
    const run = await runDam(['tenant', 'probe', '--compare', join(home, 'pglite'), urls.postgres, '--json']);
    const comparison = JSON.parse(run.stdout) as { differences: { words: string }[]; compared: number; notCompared: { route: string; why: string }[] };
    assert.deepEqual(comparison.differences.map((d) => d.words), []);
    assert.equal(run.code, 0);
    const notCompared = new Set(comparison.notCompared.map((n) => n.route));
    for (const route of [
      'GET /api/core/record/{id}/masterfile',
      'GET /api/core/record/{id}/image/thumbnail/download',
      'GET /api/core/classification/{id}/parent',
      'GET /api/core/classification?namePath={classification.namePath}',
      'GET /api/core/fileversion/{id}/CheckResults',
      'POST /api/core/search/records',
      'GET /api/tasks/{taskId}/document-uploads',
      'GET /analytics/?query={"measures":["Views.count"]}',
    ]) {
      assert.ok(!notCompared.has(route), `${route} not compared: ${comparison.notCompared.find((n) => n.route === route)?.why}`);
    }
    // What is left is data the demo tenant lacks (an empty list) or a route neither side answers without more: never a
    // route one side was asked and the other not.
    for (const n of comparison.notCompared) assert.match(n.why, /^not asked of the tenant: |^both answer /, `${n.route}: ${n.why}`);
  });
});
