// The Emulator Requests view inside a real VS Code, on the emulator the extension started: a refused request
// arrives live with its finding, its details document, Copy as curl run in a shell gives the same status,
// Copy as dam Command, Replay shows the new entry, and Open Related Record finds the record in the DAM Explorer.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as vscode from 'vscode';
import type { EntrySummary } from '../../../src/core/inspector';
import type { DamApi } from '../../../src/extension/controller';

async function api(): Promise<DamApi> {
  const ext = vscode.extensions.getExtension<DamApi>('dam-workbench.dam-workbench');
  assert.ok(ext);
  return ext.activate();
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function sh(command: string): Promise<string> {
  return new Promise((resolve, reject) => execFile('bash', ['-c', command], { timeout: 30_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout))));
}

describe('Emulator Requests view', function () {
  this.timeout(180_000);
  let dam: DamApi;
  let origin: string;
  let token: string;

  before(async () => {
    dam = await api();
    await dam.inspector.setUrl('');
    if (dam.connections.state.kind !== 'connected' || dam.connections.session?.profile.kind !== 'emulator') await vscode.commands.executeCommand('dam.startEmulator');
    origin = dam.emulator.url!;
    assert.equal(dam.inspector.target, origin);
    token = await dam.connections.session!.client.tokens.getToken();
    await vscode.commands.executeCommand('dam.emulatorRequests.focus');
  });

  const send = (path: string, headers: Record<string, string>) =>
    fetch(`${origin}${path}`, { headers: { 'User-Agent': 'inspector-e2e/1', Accept: 'application/json', Authorization: `Bearer ${token}`, ...headers } });

  const arrived = (id: number) => until(`entry #${id} in the view`, () => dam.inspector.view(dam.log).shown.find((e) => e.id === id));

  it('shows a refused request live, with its finding, and its details document', async () => {
    const res = await send('/api/core/languages', {});
    assert.equal(res.status, 400);
    const entry = await arrived(Number(res.headers.get('dam-emulator-request-id')));
    assert.equal(entry.findings[0].code, 'DE1003');
    const document = await vscode.commands.executeCommand<vscode.TextDocument>('dam.inspector.showDetails', entry.id);
    const text = document.getText();
    // Shown rendered (the Markdown preview), not as Markdown source in a text editor.
    assert.ok(!vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === document.uri.toString()), 'the details open as a preview, not as source');
    assert.match(text, /^# 400 GET \/api\/core\/languages/);
    assert.match(text, /\*\*Refuse\*\* `DE1003`/);
    assert.match(text, /Send instead: Send API-Version: 1\./);
    assert.ok(!text.includes(token), 'the details never show the token');
  });

  it('Copy as curl reproduces the request: the same status, the same finding', async () => {
    const res = await send('/api/core/languages', {});
    const entry = await arrived(Number(res.headers.get('dam-emulator-request-id')));
    const command = await vscode.commands.executeCommand<string>('dam.inspector.copyCurl', entry.id);
    assert.equal(await vscode.env.clipboard.readText(), command);
    const output = await sh(command);
    assert.match(output, /^HTTP\/1\.1 400 /);
    assert.match(output, /dam-emulator-findings: DE1003;severity=refuse/i);
  });

  it('Copy as dam Command gives the CLI form', async () => {
    const res = await send('/api/core/classifications?pageSize=3', { 'API-Version': '1' });
    const entry = await arrived(Number(res.headers.get('dam-emulator-request-id')));
    const command = await vscode.commands.executeCommand<string>('dam.inspector.copyDamCommand', entry.id);
    assert.equal(command, `dam get 'classifications?pageSize=3' --plain --url ${origin}`);
  });

  it('Replay sends it again and shows the new entry', async () => {
    const res = await send('/api/core/languages', { 'API-Version': '9' });
    const entry = await arrived(Number(res.headers.get('dam-emulator-request-id')));
    const replayed = await vscode.commands.executeCommand<EntrySummary>('dam.inspector.replay', entry.id);
    assert.equal(replayed.replayOf, entry.id);
    assert.equal(replayed.status, 400);
    assert.equal(dam.inspector.treeView.selection[0]?.kind === 'entry' && dam.inspector.treeView.selection[0].entry.id, replayed.id);
  });

  it('Open Related Record finds the record in the DAM Explorer', async () => {
    const record = (await dam.connections.session!.client.records.list({ pageSize: 1 })).items[0];
    const res = await send(`/api/core/record/${record.id}`, { 'API-Version': '1' });
    const entry = await arrived(Number(res.headers.get('dam-emulator-request-id')));
    assert.equal(entry.recordId, record.id);
    assert.equal(await vscode.commands.executeCommand<string>('dam.inspector.openRecord', entry.id), record.id);
    await until('the record selected in the DAM Explorer', () => dam.explorer.view.selection.some((n) => n.kind === 'results') || undefined);
  });

  it('filters the view by status', async () => {
    const view = dam.inspector.view(dam.log);
    view.setFilter({ status: '4xx' });
    const ok = await send('/api/core/languages', { 'API-Version': '1' });
    const bad = await send('/api/core/languages', {});
    await arrived(Number(bad.headers.get('dam-emulator-request-id')));
    assert.ok(!view.shown.some((e) => e.id === Number(ok.headers.get('dam-emulator-request-id'))));
    assert.ok(view.shown.every((e) => e.status >= 400 && e.status < 500));
    view.setFilter({});
  });
});
