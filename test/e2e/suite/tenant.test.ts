// DAM: Pull Tenant Configuration, Compare Tenant Configuration and Compare the Emulator with This Tenant inside a real
// VS Code against the emulator: the pull writes the folder `dam tenant pull` writes, the comparison of that folder
// finds nothing, and after one file changes it opens a diff and names exactly that change; the emulator compared with
// itself opens a report with no difference.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DamApi } from '../../../src/extension/controller';

describe('DAM tenant configuration commands', function () {
  this.timeout(180_000);

  before(async () => {
    const ext = vscode.extensions.getExtension<DamApi>('dam-workbench.dam-workbench');
    assert.ok(ext);
    const dam = await ext.activate();
    if (dam.connections.state.kind !== 'connected' || dam.connections.session?.profile.kind !== 'emulator') {
      await vscode.commands.executeCommand('dam.startEmulator');
    }
    assert.equal(dam.connections.state.kind, 'connected');
  });

  it('pulls into a folder, compares it with no difference, then names one changed option and opens the diff', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dam-tenant-e2e-'));
    const pulled = await vscode.commands.executeCommand<vscode.Uri>('dam.tenant.pull', vscode.Uri.file(dir));
    assert.equal(pulled?.fsPath, dir);
    const field = JSON.parse(readFileSync(join(dir, 'fields', 'UsageRights.json'), 'utf8')) as { options: { id: string; name: string }[] };
    assert.ok(field.options.some((o) => o.name === 'Licensed'));

    assert.deepEqual(await vscode.commands.executeCommand<string[]>('dam.tenant.compare', vscode.Uri.file(dir)), []);

    field.options = field.options.filter((o) => o.name !== 'Licensed');
    writeFileSync(join(dir, 'fields', 'UsageRights.json'), JSON.stringify(field, null, 2));
    const words = await vscode.commands.executeCommand<string[]>('dam.tenant.compare', vscode.Uri.file(dir));
    assert.deepEqual(words, ["field 'UsageRights' gained option 'Licensed'"]);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, 'the comparison opens as a diff');
    assert.match(tab.label, /^Tenant folder ↔ /);
  });

  // Issue 35, wrong 8: the diff's two sides were every file under a `// path` comment, each with a `$schema` into the
  // folder's .schema/: the Problems panel filled with "Comments are not permitted in JSON" and a schema that cannot
  // load. Each side is now one plain JSON document, without the files' `$schema`.
  it('opens the comparison as two plain JSON documents that VS Code finds nothing wrong with', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dam-tenant-e2e-'));
    await vscode.commands.executeCommand<vscode.Uri>('dam.tenant.pull', vscode.Uri.file(dir));
    const field = JSON.parse(readFileSync(join(dir, 'fields', 'UsageRights.json'), 'utf8')) as { options: { name: string }[] };
    field.options = field.options.filter((o) => o.name !== 'Licensed');
    writeFileSync(join(dir, 'fields', 'UsageRights.json'), JSON.stringify(field, null, 2));
    await vscode.commands.executeCommand<string[]>('dam.tenant.compare', vscode.Uri.file(dir));
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, 'the comparison opens as a diff');
    for (const uri of [tab.input.original, tab.input.modified]) {
      const doc = await vscode.workspace.openTextDocument(uri);
      const sides = JSON.parse(doc.getText()) as Record<string, { $schema?: unknown }>;
      assert.ok('fields/UsageRights.json' in sides, `the files by path: ${Object.keys(sides).join(', ')}`);
      for (const [path, body] of Object.entries(sides)) assert.equal(body.$schema, undefined, `${path} keeps its $schema`);
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Compare the Emulator with This Tenant… probes both and opens the report (here the tenant is the emulator: nothing differs)', async () => {
    const comparison = await vscode.commands.executeCommand<{ differences: unknown[]; compared: number }>('dam.tenant.compareEmulator');
    assert.ok(comparison, 'not cancelled');
    assert.deepEqual(comparison.differences, []);
    assert.ok(comparison.compared > 5, `routes compared: ${comparison.compared}`);
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.languageId, 'markdown');
    const text = editor.document.getText();
    assert.match(text, /^# Where the emulator differs from /);
    assert.match(text, /^No differences\.$/m);
    assert.match(text, /^0 differences in \d+ routes compared\.$/m);
    // The summary before anything else; the routes not compared (data the demo tenant lacks) last, one line per reason.
    const lines = text.split('\n');
    assert.equal(lines.findIndex((l) => /^\d+ differences? in/.test(l)), 2, text.slice(0, 400));
    const notCompared = lines.findIndex((l) => l.startsWith('## Not compared'));
    if (notCompared >= 0) {
      assert.ok(notCompared > lines.findIndex((l) => l.startsWith('Made by')), 'the not-compared list after the summary and the note');
      assert.ok(lines.slice(notCompared + 2).filter(Boolean).every((l) => l.startsWith('- ')), 'one line per reason');
    }
  });
});
