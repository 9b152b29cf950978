// Issue 35: classification paths in a record document got no completion, and a path the tenant does not have was
// marked only when the save was refused. Inside a real VS Code against the emulator's demo tenant: a path is completed
// one level at a time, and an unknown one is a problem as it is typed, once.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DamApi } from '../../../src/extension/controller';

async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('Classification paths in record documents', function () {
  this.timeout(180_000);
  let dam: DamApi;

  before(async () => {
    const ext = vscode.extensions.getExtension<DamApi>('dam-workbench.dam-workbench');
    assert.ok(ext);
    dam = await ext.activate();
    if (dam.connections.state.kind !== 'connected' || dam.connections.session?.profile.kind !== 'emulator') await vscode.commands.executeCommand('dam.startEmulator');
    assert.equal(dam.connections.state.kind, 'connected');
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  async function openWithClassifications(paths: string): Promise<{ doc: vscode.TextDocument; at: number }> {
    const page = await dam.connections.session!.client.search.records({ expression: 'ContentType = Image', pageSize: 1 });
    const doc = (await vscode.commands.executeCommand<vscode.TextEditor>('dam.records.open', page.items[0].id))!.document;
    const text = doc.getText();
    const changed = text.replace(/"classifications": \[[^\]]*\]/, `"classifications": [${paths}]`);
    assert.notEqual(changed, text, `no classifications in\n${text}`);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(text.length)), changed);
    assert.ok(await vscode.workspace.applyEdit(edit));
    return { doc, at: changed.indexOf('"classifications": [') + '"classifications": ['.length };
  }

  async function completions(doc: vscode.TextDocument, offset: number): Promise<string[]> {
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, doc.positionAt(offset), '/');
    return list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
  }

  it('completes name paths one level at a time, in classifications and in a ClassificationList field', async () => {
    const roots = (await dam.connections.session!.client.classifications.list({ pageSize: 1000 })).items.filter((c) => c.isRoot || !c.parentId);
    const root = roots.find((c) => c.hasChildren !== false && c.namePath);
    assert.ok(root?.namePath, 'the demo tenant has no root classification with children');
    const { doc, at } = await openWithClassifications('"/"');
    const top = await until('root paths offered', async () => {
      const found = await completions(doc, at + 2);
      return found.includes(root.namePath!) && found;
    });
    assert.ok(top.every((l) => !l.startsWith('"')), `offered: ${top.join(', ')}`);
    const children = (await dam.connections.session!.client.classifications.children(root.id)).map((c) => c.namePath);
    const below = `"${root.namePath}/"`;
    const { doc: again, at: at2 } = await openWithClassifications(below);
    const offered = await until('child paths offered', async () => {
      const found = await completions(again, at2 + below.length - 1);
      return found.length > 0 && found;
    });
    assert.deepEqual([...offered].sort(), [...children].sort());
  });

  it('marks a path the tenant does not have as it is typed, once', async () => {
    const { doc } = await openWithClassifications('"/No such classification here"');
    const marked = await until('the unknown path marked', () => {
      const found = vscode.languages.getDiagnostics(doc.uri).filter((d) => /No such classification here/.test(d.message));
      return found.length > 0 && found;
    });
    assert.equal(marked.length, 1, marked.map((d) => `${d.source}: ${d.message}`).join('\n'));
    assert.equal(marked[0].message, "There is no classification '/No such classification here'.");
    assert.equal(marked[0].source, 'DAM record');
  });

  // Issue 35: completion listed an option's name and its label side by side ("InternalOnly", "Internal only").
  it('completes an option once, by its name', async () => {
    const page = await dam.connections.session!.client.search.records({ expression: 'ContentType = Image', pageSize: 1 });
    const doc = (await vscode.commands.executeCommand<vscode.TextEditor>('dam.records.open', page.items[0].id))!.document;
    const text = doc.getText();
    const changed = text.replace(/"UsageRights": (\[[^\]]*\]|null)/, '"UsageRights": [""]');
    assert.notEqual(changed, text, `no UsageRights in\n${text}`);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(text.length)), changed);
    assert.ok(await vscode.workspace.applyEdit(edit));
    const at = changed.indexOf('"UsageRights": [""]') + '"UsageRights": ["'.length;
    const labels = await until('the options offered', async () => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, doc.positionAt(at));
      const found = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label).replace(/^"|"$/g, ''));
      return found.includes('InternalOnly') && found;
    });
    assert.equal(labels.filter((l) => l === 'InternalOnly').length, 1, labels.join(', '));
    assert.ok(!labels.includes('Internal only'), `the label is offered beside the name: ${labels.join(', ')}`);
  });
});

