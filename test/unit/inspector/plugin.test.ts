// The inspector's hooks on a bare fastify app: findings other parts of the pipeline add, body capture and its
// limit, and the devtools' caller rule for a remote address (which a loopback test cannot send over HTTP).
import { strict as assert } from 'node:assert';
import Fastify, { type FastifyInstance } from 'fastify';
import { parseFindingsHeader } from '../../../src/core/inspector';
import type { TokenService } from '../../../src/emulator/auth';
import { addFinding, registerInspector, type Inspector } from '../../../src/emulator/inspector';
import { toDetail } from '../../../src/emulator/inspector/journal';

async function app(options: { host?: string; bodyLimit?: number } = {}): Promise<{ app: FastifyInstance; inspector: Inspector }> {
  const a = Fastify();
  const inspector = registerInspector(a, { journalSize: 10, tokens: {} as TokenService, clock: { now: () => new Date() }, ...options })!;
  a.post('/lenient', { config: { headers: 'login' } }, async (request) => {
    addFinding(request, { code: 'DE6001', severity: 'frown', message: "JSON property 'FileName' matched 'filename' case-insensitively" });
    addFinding(request, { code: 'DE6001', severity: 'frown', message: "JSON property 'FileName' matched 'filename' case-insensitively" });
    return { ok: true, echo: request.body };
  });
  await a.ready();
  return { app: a, inspector };
}

describe('inspector hooks', () => {
  it('puts a finding the pipeline adds in the header and the entry, once', async () => {
    const { app: a, inspector } = await app();
    const res = await a.inject({ method: 'POST', url: '/lenient', payload: { FileName: 'a.png' } });
    assert.deepEqual(parseFindingsHeader(res.headers['dam-emulator-findings'] as string), [
      { code: 'DE6001', severity: 'frown', message: "JSON property 'FileName' matched 'filename' case-insensitively" },
    ]);
    const entry = inspector.journal.get(Number(res.headers['dam-emulator-request-id']))!;
    assert.equal(entry.findings.length, 1);
    assert.equal(entry.request.body?.text, '{"FileName":"a.png"}');
    await a.close();
  });

  it('keeps a body up to the limit and says it was cut, while the route still reads all of it', async () => {
    const { app: a, inspector } = await app({ bodyLimit: 100 });
    const long = 'x'.repeat(5000);
    const res = await a.inject({ method: 'POST', url: '/lenient', payload: { long } });
    assert.equal((res.json() as { echo: { long: string } }).echo.long.length, 5000);
    const entry = inspector.journal.get(1)!;
    assert.equal(entry.request.body?.truncated, true);
    assert.equal(entry.request.body?.text?.length, 100);
    assert.equal(entry.request.body?.bytes, JSON.stringify({ long }).length);
    assert.equal(entry.response.body?.truncated, true);
    assert.equal(toDetail(entry).replay.possible, false);
    await a.close();
  });

  it('answers the devtools only to loopback callers, unless the emulator listens beyond loopback', async () => {
    const local = await app();
    const remote = await local.app.inject({ method: 'GET', url: '/_emulator/requests', remoteAddress: '192.168.1.20' });
    assert.equal(remote.statusCode, 403);
    assert.equal((remote.json() as { exceptionType: string }).exceptionType, 'Dam.Emulator.DevtoolsAccessDeniedException');
    assert.equal((await local.app.inject({ method: 'GET', url: '/_emulator/requests', remoteAddress: '127.0.0.1', headers: { host: 'localhost:7070' } })).statusCode, 200);
    await local.app.close();
    const open = await app({ host: '0.0.0.0' });
    assert.equal((await open.app.inject({ method: 'GET', url: '/_emulator/requests', remoteAddress: '192.168.1.20', headers: { host: '192.168.1.5:7070' } })).statusCode, 200);
    await open.app.close();
  });
});
