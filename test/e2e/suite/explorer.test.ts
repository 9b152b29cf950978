// The DAM Explorer inside a real VS Code against the emulator's demo tenant: three levels of
// classifications, cursor paging with Load more and Load all, refresh, find, and copy id.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DamApi } from '../../../src/extension/controller';
import type { ExplorerNode } from '../../../src/extension/explorer/nodes';

async function api(): Promise<DamApi> {
  const ext = vscode.extensions.getExtension<DamApi>('dam-workbench.dam-workbench');
  assert.ok(ext);
  return ext.activate();
}

type Cls = Extract<ExplorerNode, { kind: 'classification' }>;

describe('DAM Explorer', function () {
  this.timeout(180_000);
  let dam: DamApi;

  before(async () => {
    dam = await api();
    await vscode.workspace.getConfiguration('dam').update('explorer.pageSize', 5, vscode.ConfigurationTarget.Global);
    if (dam.connections.state.kind !== 'connected' || dam.connections.session?.profile.kind !== 'emulator') {
      await vscode.commands.executeCommand('dam.startEmulator');
    }
    assert.equal(dam.connections.state.kind, 'connected');
  });

  after(async () => {
    await vscode.workspace.getConfiguration('dam').update('explorer.pageSize', undefined, vscode.ConfigurationTarget.Global);
  });

  it('shows the classification tree three levels deep, fetched on expand', async () => {
    const provider = dam.explorer.provider;
    const roots = (await provider.getChildren()).filter((n): n is Cls => n.kind === 'classification');
    assert.ok(roots.length >= 1, 'no root classifications');
    let path: Cls[] | undefined;
    for (const root of roots) {
      for (const second of (await provider.getChildren(root)).filter((n): n is Cls => n.kind === 'classification')) {
        const third = (await provider.getChildren(second)).find((n): n is Cls => n.kind === 'classification');
        if (third) {
          path = [root, second, third];
          break;
        }
      }
      if (path) break;
    }
    assert.ok(path, 'no classification three levels deep in the demo tenant');
    assert.equal(provider.getParent(path[2]), path[1]);
    assert.equal(provider.getParent(path[1]), path[0]);
    await dam.explorer.view.reveal(path[2], { expand: true, select: true });
    const item = provider.getTreeItem(path[2]);
    assert.ok(typeof item.label === 'string' && item.label.length > 0);
  });

  it('pages records by cursor with Load more and Load all, and says how many there are', async () => {
    const provider = dam.explorer.provider;
    // Find a classification with more records than one page of 5.
    const queue = (await provider.getChildren()).filter((n): n is Cls => n.kind === 'classification');
    let target: Cls | undefined;
    let children: ExplorerNode[] = [];
    while (queue.length && !target) {
      const node = queue.shift()!;
      children = await provider.getChildren(node);
      if (children.some((c) => c.kind === 'loadMore')) target = node;
      else queue.push(...children.filter((n): n is Cls => n.kind === 'classification'));
    }
    assert.ok(target, 'no classification has more than 5 direct records');
    const first = children.filter((c) => c.kind === 'record');
    assert.equal(first.length, 5);
    const more = children.find((c) => c.kind === 'loadMore');
    assert.ok(more && more.kind === 'loadMore');
    const total = provider.pagingOf(target.id)?.totalCount;
    assert.ok(total !== undefined && total > 5, 'totalCount is shown');
    assert.match(String(provider.getTreeItem(more).description), new RegExp(`5 of ${total.toLocaleString()} shown`));

    await vscode.commands.executeCommand('dam.explorer.loadMore', more);
    const afterMore = (await provider.getChildren(target)).filter((c) => c.kind === 'record');
    assert.equal(afterMore.length, Math.min(10, total));
    assert.equal(new Set(afterMore.map((r) => r.id)).size, afterMore.length, 'a record appeared twice across pages');

    await vscode.commands.executeCommand('dam.explorer.loadAll', target);
    const all = await provider.getChildren(target);
    assert.equal(all.filter((c) => c.kind === 'record').length, total);
    assert.ok(!all.some((c) => c.kind === 'loadMore'), 'Load more remains after loading all');
  });

  it('refreshes a classification and keeps its node identity', async () => {
    const provider = dam.explorer.provider;
    const root = (await provider.getChildren()).find((n): n is Cls => n.kind === 'classification')!;
    const before = provider.getTreeItem(root).id;
    await vscode.commands.executeCommand('dam.explorer.refreshNode', root);
    const again = (await provider.getChildren()).find((n): n is Cls => n.kind === 'classification')!;
    assert.equal(provider.getTreeItem(again).id, before);
  });

  it('finds records on the server and copies their id', async () => {
    const provider = dam.explorer.provider;
    const everything = await provider.find('*');
    assert.ok(everything && everything.hits.length > 0, 'no records at all');
    assert.ok((everything.total ?? 0) >= everything.hits.length);
    const word = String(everything.hits[0].title).split(/\s+/)[0];
    const results = (await vscode.commands.executeCommand('dam.explorer.find', `Title = "${word}*"`)) as ExplorerNode | undefined;
    assert.ok(results && results.kind === 'results');
    assert.ok(results.hits.length > 0, `no hits for ${word}`);
    assert.ok(results.hits.every((r) => String(r.title).toLowerCase().startsWith(word.toLowerCase())));
    const hits = await provider.getChildren(results);
    const copied = await vscode.commands.executeCommand('dam.copyId', hits[0]);
    assert.equal(copied, hits[0].id);
    assert.equal(await vscode.env.clipboard.readText(), hits[0].id);
    await vscode.commands.executeCommand('dam.explorer.clearFind');
    assert.ok(!(await provider.getChildren()).some((n) => n.kind === 'results'));
  });

  it('shows an error node with a retry action instead of a blank level when a fetch fails', async () => {
    const provider = dam.explorer.provider;
    const core = dam.connections.session!.profile.endpoints.core;
    const missing = 'ffffffffffffffffffffffffffffffff';
    // A classification whose links lead to data that does not exist: the service answers 404.
    const ghost: Cls = {
      kind: 'classification',
      id: missing,
      parentKey: undefined,
      classification: { id: missing, name: 'Ghost', _links: { children: { href: `${core}/classification/${missing}/children` } } },
    };
    const children = await provider.getChildren(ghost);
    assert.equal(children.length, 1);
    const node = children[0];
    assert.equal(node.kind, 'message');
    assert.ok(node.kind === 'message' && node.action === 'retry' && node.severity === 'error');
    const item = provider.getTreeItem(node);
    assert.equal(item.command?.command, 'dam.explorer.retry');
    assert.equal(item.contextValue, 'dam.message.retry');
  });
});
