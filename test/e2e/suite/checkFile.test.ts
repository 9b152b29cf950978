// A .dam-check.json file in the editor (issue 27, item 7): the category is completed with the service's four
// names and a wrong one ("Compliance") is a problem on its line that names them, before anything is published.
// Both come from the schema the extension contributes for *.dam-check.json, through VS Code's JSON support.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';

const FOUR = ['Risk & Compliance', 'Brand Consistency', 'Message Clarity', 'Channel Readiness'];

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('Check files in the editor', function () {
  this.timeout(120_000);
  let dir: string;

  before(() => (dir = mkdtempSync(join(tmpdir(), 'dam-check-e2e-'))));
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dir, { recursive: true, force: true });
  });

  it('completes the category with the four names and marks "Compliance" on its line', async () => {
    const file = join(dir, 'legal.dam-check.json');
    const text = '{\n  "check": "Legal",\n  "category": "Compliance",\n  "outcome": "fail",\n  "description": "Claims."\n}\n';
    writeFileSync(file, text);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    assert.equal(doc.languageId, 'json');
    await vscode.window.showTextDocument(doc);

    const problem = await until('a problem on the category', () =>
      vscode.languages.getDiagnostics(doc.uri).find((d) => d.range.start.line === 2),
    );
    // VS Code's JSON support words it ("Value is not accepted. Valid values: …"), naming the four.
    assert.match(problem.message, /"Risk & Compliance", "Brand Consistency", "Message Clarity", "Channel Readiness"/);

    // Inside the category's quotes: the JSON support offers the schema's names.
    const position = new vscode.Position(2, text.split('\n')[2].indexOf('"Compliance"') + 1);
    const labels = await until('the category completions', async () => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, position);
      const found = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label).replace(/^"|"$/g, ''));
      return FOUR.every((name) => found.includes(name)) ? found : undefined;
    });
    assert.ok(!labels.includes('Compliance'), `offered: ${labels.join(', ')}`);
  });
});
