// Smoke test inside a real VS Code: the extension under development is there, activates, and its
// contributed commands exist.
import * as assert from 'node:assert/strict';
import { resolve } from 'node:path';
import * as vscode from 'vscode';

const EXTENSION_ID = 'dam-workbench.dam-workbench';

interface ContributedCommand {
  command: string;
  title: string;
}

function extension(): vscode.Extension<unknown> {
  const found = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(found, `${EXTENSION_ID} is not loaded; extensions seen: ${vscode.extensions.all.map((e) => e.id).join(', ')}`);
  return found;
}

describe('DAM Workbench in VS Code', () => {
  it('is loaded from the project folder as the extension under development', () => {
    const ext = extension();
    assert.equal(ext.packageJSON.name, 'dam-workbench');
    // This file runs compiled from <project>/out/e2e/suite-<pid>/, so the project root is three levels up.
    assert.equal(resolve(ext.extensionPath), resolve(__dirname, '../../..'));
  });

  it('activates', async () => {
    const ext = extension();
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('registers every command its package.json contributes, DAM: Show Log among them', async () => {
    const contributed = (extension().packageJSON.contributes?.commands ?? []) as ContributedCommand[];
    const ids = contributed.map((c) => c.command);
    assert.ok(ids.includes('dam.showLog'), `dam.showLog is not contributed (contributed: ${ids.join(', ') || 'none'})`);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = ids.filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], 'contributed commands without a registration');
  });

  it('has its DAM Explorer view accepted by the workbench in the DAM container', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    // The workbench registers these only for a view container and view it has accepted.
    assert.ok(registered.has('workbench.view.extension.dam'), 'the DAM view container is not registered');
    assert.ok(registered.has('dam.explorer.focus'), 'the DAM Explorer view is not registered');
    await vscode.commands.executeCommand('dam.explorer.focus');
  });

  it('runs DAM: Show Log without error', async () => {
    await vscode.commands.executeCommand('dam.showLog');
  });
});
