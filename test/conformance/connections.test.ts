// Our client, the CLI included, keeps its connection: N requests one after another open one TCP connection to the
// emulator, not N (across the internet each new one pays a TCP and a TLS handshake, more than the request itself).
// Counted on the emulator's own server, as every connection a client opens arrives there.
import { strict as assert } from 'node:assert';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server';
import { DamClient } from '../../src/api/client';
import { EMULATOR_CLIENT, emulatorProfile } from '../../src/api/endpoints';
import { UNPACED } from '../../src/api/pacing';
import { httpAgent } from '../../src/api/agents';
import { runDam, USER_AGENT } from './helpers';

describe('connections the client opens', function () {
  this.timeout(120_000);
  let emulator: RunningEmulator;
  let connections = 0;
  let requests = 0;
  /** `start GET /path` and `end GET /path`, in the order the server saw them. */
  let order: string[] = [];
  const open = new Set<Socket>();

  before(async () => {
    emulator = await startEmulator({ seed: 'demo', port: 0, data: ':memory:' });
    emulator.server.on('connection', (socket: Socket) => {
      connections++;
      open.add(socket);
      socket.on('close', () => open.delete(socket));
    });
    emulator.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      requests++;
      const what = `${req.method} ${(req.url ?? '').split('?')[0]}`;
      order.push(`start ${what}`);
      res.on('finish', () => order.push(`end ${what}`));
    });
  });
  after(async () => {
    await emulator?.close();
  });
  beforeEach(() => {
    // Each test starts with no connection held from an earlier one (the pool is the process's).
    httpAgent.destroy();
    connections = 0;
    requests = 0;
    order = [];
  });

  it('twenty requests one after another, the token request included, go over one connection', async () => {
    const client = new DamClient({
      profile: emulatorProfile(emulator.url),
      secrets: { clientSecret: EMULATOR_CLIENT.clientSecret, password: EMULATOR_CLIENT.password },
      userAgent: USER_AGENT,
      pacing: UNPACED,
    });
    for (let i = 0; i < 20; i++) await client.http.request({ path: '/languages' });
    assert.ok(requests >= 21, `${requests} requests`);
    assert.equal(connections, 1, `${requests} requests opened ${connections} connections`);
    // The server keeps it too: it is still open after the last answer.
    assert.equal(open.size, 1);
  });

  it('a dam command of several requests opens one connection', async () => {
    const run = await runDam(['search', 'Title = "*"', '--all', '--page-size', '20', '--json'], { DAM_URL: emulator.url });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(requests >= 3, `${requests} requests`);
    assert.equal(connections, 1, `${requests} requests opened ${connections} connections`);
  });

  it('the tenant model (definitions and languages) is asked for in one round trip, not two one after another', async () => {
    // What the client sent and when each answer came, seen from the client's side of the wire.
    const sent: string[] = [];
    const client = new DamClient({
      profile: emulatorProfile(emulator.url),
      secrets: { clientSecret: EMULATOR_CLIENT.clientSecret, password: EMULATOR_CLIENT.password },
      userAgent: USER_AGENT,
      pacing: UNPACED,
      fetch: async (url, init) => {
        const what = new URL(url).pathname.replace(/^\/api\/core/, '');
        sent.push(`send ${what}`);
        const res = await fetch(url, init as RequestInit);
        sent.push(`answer ${what}`);
        return res;
      },
    });
    await client.tokens.getToken();
    sent.length = 0;
    const model = await client.recordEdits.tenantModel();
    assert.ok(model.definitions.length > 0 && model.languages.length > 0);
    const beforeFirstAnswer = sent.slice(0, sent.findIndex((e) => e.startsWith('answer ')));
    assert.deepEqual(beforeFirstAnswer.sort(), ['send /fielddefinitions', 'send /languages'], sent.join(', '));
  });

  it("a save's second modifiedOn check within moments is answered from the first, and never after the client's own write", async () => {
    const client = new DamClient({
      profile: emulatorProfile(emulator.url),
      secrets: { clientSecret: EMULATOR_CLIENT.clientSecret, password: EMULATOR_CLIENT.password },
      userAgent: USER_AGENT,
      pacing: UNPACED,
    });
    const record = await client.records.create({ title: `round trips ${Date.now()}`, contentType: 'Document' });
    const edits = client.recordEdits;
    requests = 0;
    const first = await edits.modifiedOn(record.id);
    assert.equal(await edits.modifiedOn(record.id), first);
    assert.equal(requests, 1, 'the second check went to the service');
    await edits.apply({ recordId: record.id, status: { before: String(record.status), after: record.status === 'Released' ? 'Draft' : 'Released' }, fields: [], addClassifications: [], removeClassifications: [] });
    requests = 0;
    const after = await edits.modifiedOn(record.id);
    assert.equal(requests, 1, 'the check after our own write was answered from before it');
    assert.notEqual(after, first);
  });
});
