// What the DAM Explorer costs per node inside a real VS Code against the emulator's demo tenant: expanding a
// classification without children asks only for its records, record rows keep a few attributes instead of
// HAL bodies, and Load All draws the list once.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DamApi } from '../../../src/extension/controller';
import type { ExplorerNode } from '../../../src/extension/explorer/nodes';

type Cls = Extract<ExplorerNode, { kind: 'classification' }>;

describe('DAM Explorer cost per node', function () {
  this.timeout(180_000);
  let dam: DamApi;
  let requests: string[];
  let subscription: vscode.Disposable;

  before(async () => {
    const ext = vscode.extensions.getExtension<DamApi>('dam-workbench.dam-workbench');
    assert.ok(ext);
    dam = await ext.activate();
    await vscode.workspace.getConfiguration('dam').update('explorer.pageSize', 5, vscode.ConfigurationTarget.Global);
    if (dam.connections.state.kind !== 'connected' || dam.connections.session?.profile.kind !== 'emulator') {
      await vscode.commands.executeCommand('dam.startEmulator');
    }
    assert.equal(dam.connections.state.kind, 'connected');
    subscription = dam.log.onDidRequest((e) => requests.push(`${e.method} ${new URL(e.url).pathname}`));
  });
  beforeEach(() => (requests = []));

  after(async () => {
    subscription.dispose();
    await vscode.workspace.getConfiguration('dam').update('explorer.pageSize', undefined, vscode.ConfigurationTarget.Global);
  });

  /** A new root classification (so the service says it has no children) with records for three Load All pages. */
  async function leafWithRecords(): Promise<Cls> {
    const client = dam.connections.session!.client;
    const id = (await client.classifications.create({ name: `explorer-cost-${Date.now()}` })).id;
    for (let i = 0; i < 230; i += 23) {
      await Promise.all(Array.from({ length: 23 }, (_, j) => client.records.create({ title: `Cost ${i + j}`, contentType: 'Document', classifications: { addOrUpdate: [{ id }] } })));
    }
    // Nothing expanded, so VS Code reads nothing of its own while a test counts requests.
    await vscode.commands.executeCommand('workbench.actions.treeView.dam.explorer.collapseAll');
    dam.explorer.provider.refresh();
    const node = (await dam.explorer.provider.getChildren()).find((n): n is Cls => n.kind === 'classification' && n.id === id);
    assert.ok(node && node.classification.hasChildren === false);
    await dam.explorer.view.reveal(node, { expand: false, select: false, focus: false });
    return node;
  }

  it('expands a classification without children with one request, and keeps rows of a few attributes', async () => {
    const node = await leafWithRecords();
    requests = [];
    const children = await dam.explorer.provider.getChildren(node);
    assert.deepEqual(requests, ['POST /api/core/search/records'], 'only the records are asked for');
    const rows = children.filter((c) => c.kind === 'record');
    assert.equal(rows.length, 5);
    for (const row of rows) assert.deepEqual(Object.keys(row.record).sort(), ['contentType', 'createdOn', 'id', 'modifiedOn', 'status', 'title']);
    // Copy Link still has the record's address without the HAL link.
    const core = dam.connections.session!.profile.endpoints.core.replace(/\/+$/, '');
    assert.equal(dam.explorer.linkOf(rows[0]), `${core}/record/${rows[0].id}`);

    // A refresh asks again for the children too: the user asked for what is there now.
    dam.explorer.provider.refresh(node);
    requests = [];
    await dam.explorer.provider.getChildren(node);
    assert.deepEqual(requests.sort(), [`GET /api/core/classification/${node.id}/children`, 'POST /api/core/search/records']);
  });

  it('Load All draws the list once however many pages it reads', async () => {
    const node = await leafWithRecords();
    const provider = dam.explorer.provider;
    await provider.getChildren(node);
    let redraws = 0;
    const listening = provider.onDidChangeTreeData((changed) => {
      if (changed && changed.kind === 'classification' && changed.id === node.id) redraws++;
    });
    try {
      await vscode.commands.executeCommand('dam.explorer.loadAll', node);
    } finally {
      listening.dispose();
    }
    const paging = provider.pagingOf(node.id)!;
    assert.equal(paging.rows.length, paging.totalCount);
    assert.equal(redraws, 1);
  });
});
