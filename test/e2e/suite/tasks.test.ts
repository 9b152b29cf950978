// Task commands inside a real VS Code against the emulator: the New Task form answers a bad date with the
// shared rules' message before anything is sent (the task count stays), a good form creates a task the
// client reads back, Delegate Task hands it to another user, and Attach File to Task runs the five steps
// with a real upload into the seeded task's open slot.
import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DamApi } from '../../../src/extension/controller';
import type { DamClient } from '../../../src/api/client';
import type { TaskFormPanel } from '../../../src/extension/tasks/formPanel';
import type { HostToPanel } from '../../../src/extension/tasks/messages';
import { emptyForm, type TaskFormValues } from '../../../src/extension/tasks/taskForm';
import { TaskMessages } from '../../../src/core/tasks';

async function api(): Promise<DamApi> {
  const ext = vscode.extensions.getExtension<DamApi>('dam-workbench.dam-workbench');
  assert.ok(ext);
  return ext.activate();
}

describe('DAM task commands', function () {
  this.timeout(180_000);
  let dam: DamApi;
  let client: DamClient;
  let panel: TaskFormPanel;
  let createdId: number;

  const count = async () => (await client.tasks.list({ limit: 1 })).total;
  const form = (patch: Partial<TaskFormValues>): TaskFormValues => ({
    ...emptyForm(),
    projectId: '101',
    name: 'E2E brief',
    status: '4',
    startType: '2',
    principals: ['1'],
    canDelegate: true,
    ...patch,
  });

  before(async () => {
    dam = await api();
    if (dam.connections.state.kind !== 'connected' || dam.connections.session?.profile.kind !== 'emulator') {
      await vscode.commands.executeCommand('dam.startEmulator');
    }
    assert.equal(dam.connections.state.kind, 'connected');
    client = dam.connections.session!.client;
    panel = (await vscode.commands.executeCommand<TaskFormPanel>('dam.tasks.create'))!;
    assert.ok(panel, 'the New Task command returns its form');
    // The webview's script ran under its CSP when its own `ready` reached the panel and got the form back.
    const deadline = Date.now() + 60_000;
    while (!panel.initSent && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const init = panel.initSent as Extract<HostToPanel, { type: 'init' }> | undefined;
    assert.ok(init, 'the task form webview sent ready and got the form');
    assert.deepEqual(init.projects.map((p) => p.id).slice(0, 5), [101, 102, 103, 104, 105]);
    assert.ok(init.principals.some((p) => p.id === 10 && p.kind === 'group'), 'group Marketing is offered');
    assert.equal(dam.tasks.load().formPanel, panel);
    // The page it ran in is strict: nothing by default, and the one script is the one carrying the policy's nonce.
    const html = panel.webviewPanel.webview.html;
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    assert.match(csp, /^default-src 'none';/);
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce && nonce.length >= 16, csp);
    assert.deepEqual([...html.matchAll(/<script\b[^>]*>/g)].map((m) => /nonce="([^"]+)"/.exec(m[0])?.[1]), [nonce]);
    // No 'unsafe-…' and no bare `*` source (the webview's own origin, cspSource, may carry a subdomain wildcard).
    assert.doesNotMatch(csp, /unsafe-|(^|\s)\*(\s|;|$)/);
  });

  after(() => panel?.dispose());

  it('answers an end before the begin with the rules’ error on the end field, and sends nothing', async () => {
    const before = await count();
    const bad = form({ beginDate: '2026-12-02T09:00', endDate: '2026-12-01T17:00' });
    const answer = (await panel.handleMessage({ type: 'change', seq: 1, form: bad })) as Extract<HostToPanel, { type: 'validation' }>;
    assert.equal(answer.type, 'validation');
    assert.equal(answer.errors.endDate, TaskMessages.beginAfterEnd);
    // The choices follow the rules: project 101 is InProcess, status Assigned allows every start type.
    assert.deepEqual(answer.statuses.map((s) => s.value), ['2', '4', '3', '8', '9']);
    assert.equal(answer.startTypes.length, 5);
    // Create with the same form is refused by the form itself.
    const refused = await panel.handleMessage({ type: 'create', seq: 2, form: bad });
    assert.equal(refused?.type, 'validation');
    assert.equal((refused as Extract<HostToPanel, { type: 'validation' }>).errors.endDate, TaskMessages.beginAfterEnd);
    assert.equal(panel.lastCreated, undefined);
    assert.equal(await count(), before, 'no task was created');
    // A malformed message is ignored, not acted on.
    assert.equal(await panel.handleMessage({ type: 'create', seq: 3, form: { projectId: 101 } }), undefined);
  });

  it('shows the computed end (or why the service sets the dates), then creates a good task that the client reads back', async () => {
    const before = await count();
    const dates = { beginDate: '2026-12-01T09:00', durationDays: '1', durationHours: '4' };
    // A Projected task starting no earlier than its begin keeps the dates typed: Tuesday 09:00 plus 12 working
    // hours on the Standard calendar (8-hour days) is Wednesday 13:00.
    const projected = (await panel.handleMessage({ type: 'change', seq: 4, form: form({ ...dates, status: '2', startType: '4' }) })) as Extract<HostToPanel, { type: 'validation' }>;
    assert.deepEqual(projected.computed, { field: 'endDate', text: '2026-12-02 13:00' });
    assert.equal(projected.derived, undefined);
    // An Assigned task starts now whatever is typed: the form says so instead of computing an end it will not get.
    const good = form(dates);
    const check = (await panel.handleMessage({ type: 'change', seq: 5, form: good })) as Extract<HostToPanel, { type: 'validation' }>;
    assert.deepEqual(check.errors, {});
    assert.equal(check.computed, undefined);
    assert.match(check.derived ?? '', /^An Assigned task starts now/);
    const created = await panel.handleMessage({ type: 'create', seq: 6, form: good });
    assert.equal(created?.type, 'created', JSON.stringify(created));
    const { task } = created as Extract<HostToPanel, { type: 'created' }>;
    createdId = task.id;
    assert.equal(await count(), before + 1);
    const read = await client.tasks.get(task.id);
    assert.equal(read.name, 'E2E brief');
    assert.equal(read.workFlowTaskStatus, 4);
    assert.deepEqual(read.assignees?.map((a) => a.userID), [1]);
    assert.equal(panel.lastCreated?.id, task.id);
  });

  it('delegates the new task to another user', async () => {
    assert.ok(createdId, 'the previous test created a task');
    const updated = await vscode.commands.executeCommand<{ id: number }>('dam.tasks.delegate', createdId, undefined, 2);
    assert.equal(updated?.id, createdId);
    const read = await client.tasks.get(createdId);
    assert.deepEqual(read.assignees?.map((a) => a.userID), [2]);
  });

  it('attaches a file to the seeded In Process task through the five steps', async () => {
    const before = await client.tasks.documentUploads(5001);
    const slot = before.find((s) => s.status === 'Open');
    assert.ok(slot, 'task 5001 has an open slot');
    const dir = mkdtempSync(join(tmpdir(), 'dam-task-attach-'));
    const file = join(dir, 'launch-copy.txt');
    writeFileSync(file, 'Spring launch copy, final.\n'.repeat(1000));
    const result = await vscode.commands.executeCommand<{ documentId: number; attachmentId: number; versionId: number }>('dam.tasks.attach', 5001, vscode.Uri.file(file), 'Launch copy');
    assert.ok(result, 'the command answered');
    assert.equal(result.documentId, slot.documentId);
    const after = await client.tasks.documentUploads(5001);
    const filled = after.find((s) => s.documentId === slot.documentId);
    assert.equal(filled?.status, 'Uploaded');
    assert.equal(filled?.versionId, result.versionId);
  });
});
