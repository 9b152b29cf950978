// The extension's requests keep their connection inside a real VS Code. The extension host wraps every node:http
// request in a proxy agent of its own that does not keep alive, so before api/agents.ts each request the extension
// sent opened a new connection (494 requests, 494 connections in one measured run), and across the internet each
// paid one or two more round trips for its handshakes. Counted by a forwarder in front of the emulator.
import * as assert from 'node:assert/strict';
import { connect, createServer, type Server } from 'node:net';
import * as vscode from 'vscode';
import type { DamApi } from '../../../src/extension/controller';

describe('Connections kept alive', function () {
  this.timeout(120_000);
  let dam: DamApi;
  let forwarder: Server;
  let connections = 0;

  before(async () => {
    const ext = vscode.extensions.getExtension<DamApi>('dam-workbench.dam-workbench');
    assert.ok(ext);
    dam = await ext.activate();
    if (dam.connections.state.kind !== 'connected' || dam.connections.session?.profile.kind !== 'emulator') {
      await vscode.commands.executeCommand('dam.startEmulator');
    }
    const target = new URL(dam.connections.session!.profile.endpoints.core);
    forwarder = createServer((socket) => {
      connections++;
      const upstream = connect(Number(target.port), target.hostname);
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
  });

  after(() => forwarder?.close());

  it("ten requests one after another through the session's client open one connection", async () => {
    const address = forwarder.address();
    assert.ok(address && typeof address === 'object');
    const http = dam.connections.session!.client.http;
    connections = 0;
    for (let i = 0; i < 10; i++) {
      const res: { status: number } = await http.request({ url: `http://127.0.0.1:${address.port}/supportedVersions`, auth: false, apiVersion: false });
      assert.equal(res.status, 200);
    }
    assert.equal(connections, 1, `10 requests opened ${connections} connections`);
  });
});
