// `.dam-query` editing and running inside a real VS Code against the emulator's demo tenant:
// completion with the tenant's field names, diagnostics at the right range, a quick fix, Run with
// the demo tenant's count (checked against the same search through the client), and export.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DamApi } from '../../../src/extension/controller';
import type { RunOutcome } from '../../../src/extension/query/module';

async function api(): Promise<DamApi> {
  const ext = vscode.extensions.getExtension<DamApi>('dam-workbench.dam-workbench');
  assert.ok(ext);
  return ext.activate();
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('DAM query editor', function () {
  this.timeout(180_000);
  let dam: DamApi;
  let dir: string;

  async function open(name: string, text: string): Promise<vscode.TextEditor> {
    const file = join(dir, name);
    writeFileSync(file, text);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    assert.equal(doc.languageId, 'dam-query');
    return vscode.window.showTextDocument(doc);
  }

  before(async () => {
    dam = await api();
    if (dam.connections.state.kind !== 'connected' || dam.connections.session?.profile.kind !== 'emulator') {
      await vscode.commands.executeCommand('dam.startEmulator');
    }
    assert.equal(dam.connections.state.kind, 'connected');
    dir = mkdtempSync(join(tmpdir(), 'dam-query-'));
    // The schema refresh starts with the connection; waiting for it makes the first test deterministic.
    await dam.query.load().schema.refresh();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('completes the tenant\'s field names at a cursor, from the schema cached on disk', async () => {
    const tenantFields: string[] = [];
    for await (const f of dam.connections.session!.client.fieldDefinitions.items()) if (f.name) tenantFields.push(f.name);
    assert.ok(tenantFields.length > 0, 'the demo tenant has no field definitions');
    const editor = await open('complete.dam-query', "# @name fields\nFieldName('')\n");
    const cursor = new vscode.Position(1, "FieldName('".length);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', editor.document.uri, cursor);
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    for (const name of tenantFields) assert.ok(labels.includes(name), `completion lacks the tenant's field ${name} (got ${labels.slice(0, 20).join(', ')})`);
    assert.ok(!labels.includes('Title'), 'a built-in property was offered inside FieldName(...)');
    const schema = dam.query.load().schema;
    const cached = schema.current;
    assert.ok(cached && cached.fields.length === tenantFields.length && cached.languages.length > 0 && cached.classifications.length > 0);
    const onDisk = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(schema.fileFor(cached.profileId)))) as { fields: { name: string }[] };
    assert.deepEqual(onDisk.fields.map((f) => f.name).sort(), [...tenantFields].sort());
  });

  it('keeps completing the tenant\'s field names when disconnected', async () => {
    const fields: string[] = dam.query.load().schema.current!.fields.map((f) => f.name);
    const profileId = dam.connections.session!.profile.id;
    dam.connections.disconnect();
    try {
      assert.equal(dam.connections.state.kind, 'none');
      const editor = await open('offline.dam-query', "FieldName('')\n");
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', editor.document.uri, new vscode.Position(0, "FieldName('".length));
      const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
      for (const name of fields) assert.ok(labels.includes(name), `offline completion lacks ${name}`);
    } finally {
      await dam.connections.connect(profileId, { interactive: false });
    }
    assert.equal(dam.connections.state.kind, 'connected');
  });

  it('shows a diagnostic at the range of a broken query, and a quick fix repairs it', async () => {
    const editor = await open('broken.dam-query', '### broken\n# @name broken\nContentType = Image AND Title != "harbour"\n');
    const uri = editor.document.uri;
    const diagnostics = await until('a diagnostic', () => {
      const ds = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'dam-query');
      return ds.length > 0 ? ds : undefined;
    });
    assert.equal(diagnostics.length, 1, diagnostics.map((d) => d.message).join('; '));
    const [d] = diagnostics;
    assert.equal(d.code, 'DQ1003');
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    const col = 'ContentType = Image AND Title '.length;
    assert.deepEqual([d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character], [2, col, 2, col + 2]);

    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, d.range, vscode.CodeActionKind.QuickFix.value);
    const fix = actions.find((a) => a.edit && a.title.includes('<>'));
    assert.ok(fix?.edit, `no quick fix (got ${actions.map((a) => a.title).join(', ')})`);
    assert.ok(fix.isPreferred);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.equal(editor.document.lineAt(2).text, 'ContentType = Image AND Title <> "harbour"');
    await until('the diagnostic to clear', () => (vscode.languages.getDiagnostics(uri).some((x) => x.source === 'dam-query') ? undefined : true));
  });

  it('formats a query, explains a directive on hover, and lists one symbol and one Run lens per query', async () => {
    const editor = await open('symbols.dam-query', '# @name first\ncontenttype=Image and title = "a*"\n###\n# @name second\nTitle = b\n');
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', editor.document.uri);
    assert.deepEqual(symbols.map((s) => s.name), ['first', 'second']);
    const edits = await vscode.commands.executeCommand<vscode.TextEdit[]>('vscode.executeFormatDocumentProvider', editor.document.uri, { tabSize: 2, insertSpaces: true });
    assert.ok(edits.length > 0);
    const we = new vscode.WorkspaceEdit();
    we.set(editor.document.uri, edits);
    await vscode.workspace.applyEdit(we);
    assert.match(editor.document.getText(), /contenttype = Image AND title = "a\*"/);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', editor.document.uri, new vscode.Position(0, 3));
    const hoverText = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(hoverText, /@name/);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', editor.document.uri);
    assert.equal(lenses.filter((l) => l.command?.command === 'dam.query.run').length, 2);
  });

  it('checks .dam-analytics.json files with the analytics core: an unknown member is marked where it stands', async () => {
    const text = '{\n  "measures": ["Views.count", "Views.nope"],\n  "limit": 10\n}\n';
    const file = join(dir, 'views.dam-analytics.json');
    writeFileSync(file, text);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc);
    const ours = await until('analytics diagnostics', () => {
      const ds = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'dam-analytics');
      return ds.length > 0 ? ds : undefined;
    });
    assert.equal(ours.length, 1, ours.map((d) => d.message).join('; '));
    assert.equal(ours[0].code, 'DA3003');
    const at = text.indexOf('"Views.nope"');
    assert.deepEqual([doc.offsetAt(ours[0].range.start), doc.offsetAt(ours[0].range.end)], [at, at + '"Views.nope"'.length]);
  });

  it('runs a query with its directives and shows the count the service gives for the same search', async () => {
    const text = '### images\n# @name Images newest first\n# @sort CreatedOn desc\n# @param Kind = Image\n# @operator AND\nContentType = @Kind\n';
    const editor = await open('run.dam-query', text);
    const offset = text.indexOf('ContentType');
    const outcome = await vscode.commands.executeCommand<RunOutcome>('dam.query.run', editor.document.uri, offset);
    const client = dam.connections.session!.client;
    const expected = await client.search.records({ expression: 'ContentType = @Kind', namedParameters: { Kind: 'Image' }, defaultLogicalOperator: 'AND', sort: 'CreatedOn desc', pageSize: 1 });
    assert.ok(expected.totalCount && expected.totalCount > 50, 'the demo tenant should have more than one page of images');
    assert.equal(outcome.totalCount, expected.totalCount);
    assert.equal(outcome.rows, 50);
    assert.ok(outcome.hasMore);
    const panel = dam.query.load().results.current;
    assert.ok(panel && panel.totalCount === expected.totalCount);
    const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputWebview && t.label.startsWith('DAM: Images newest first'));
    assert.ok(tab, 'no results panel tab');
    // The webview's script ran under its CSP and drew the first page.
    await until('the webview to draw the rows', () => ((dam.query.load().results.current?.rendered ?? 0) >= 50 ? true : undefined));
    // Paging by cursor: the next page continues where the first ended.
    const shown = dam.query.load().results.current!.rows;
    await dam.query.load().results.loadMore();
    assert.equal(dam.query.load().results.current?.rows, Math.min(shown + 50, expected.totalCount));

    const history = dam.query.load().history.list();
    assert.equal(history[0].request.name, 'Images newest first');
    assert.equal(history[0].totalCount, expected.totalCount);

    // A query without @name is named as the outline names it, with its file (it was 'run.dam-query:8').
    const twoText = `${text}###\nContentType = Document\n`;
    const two = await open('unnamed.dam-query', twoText);
    await vscode.commands.executeCommand<RunOutcome>('dam.query.run', two.document.uri, twoText.indexOf('Document'));
    assert.equal(dam.query.load().history.list()[0].request.name, 'Query 2 (unnamed.dam-query)');
  });

  it('exports every result to CSV and JSON by streaming pages to a file', async () => {
    const text = '# @name Documents\nContentType = Document\n';
    const editor = await open('export.dam-query', text);
    const client = dam.connections.session!.client;
    const ids: string[] = [];
    for await (const r of client.search.recordItems({ expression: 'ContentType = Document', pageSize: 100 })) ids.push(r.id);
    assert.ok(ids.length > 0);

    const csvFile = join(dir, 'documents.csv');
    const csv = (await vscode.commands.executeCommand('dam.query.export', editor.document.uri, 0, 'csv', vscode.Uri.file(csvFile))) as { rows: number };
    assert.equal(csv.rows, ids.length);
    const lines = readFileSync(csvFile, 'utf8').split('\r\n').filter((l) => l.length > 0);
    // Every column the rows carry, the fixed ones first (field values as `field: <name>` columns).
    assert.ok(lines[0].startsWith('id,title,contentType,status,createdOn,modifiedOn,'), lines[0]);
    assert.deepEqual(lines.slice(1).map((l) => l.split(',')[0]).sort(), [...ids].sort());

    const jsonFile = join(dir, 'documents.json');
    const json = (await vscode.commands.executeCommand('dam.query.export', editor.document.uri, 0, 'json', vscode.Uri.file(jsonFile))) as { rows: number };
    assert.equal(json.rows, ids.length);
    const items = JSON.parse(readFileSync(jsonFile, 'utf8')) as { id: string; contentType: string; _links?: unknown }[];
    assert.deepEqual(items.map((i) => i.id).sort(), [...ids].sort());
    assert.ok(items.every((i) => i.contentType === 'Document' && i._links === undefined));
  });
});
