// The analytics builder inside a real VS Code against the emulator's demo tenant: the panel's edits change
// the `.dam-analytics.json` text (undo and redo included), text edits change the panel, validation follows
// the shared rules, Run's pages equal the client's answer to the same query, export writes every row,
// and a ready-made query opens as a new file in the builder.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DamApi } from '../../../src/extension/controller';
import type { AnalyticsPanel } from '../../../src/extension/analytics/panel';
import { readyQueries } from '../../../src/extension/analytics/readyQueries';
// The validator module itself: the facade also pulls in jsonc-parser, whose UMD build the suite bundle cannot follow.
import { validateAnalyticsQuery, type AnalyticsQuery } from '../../../src/core/analytics';

async function api(): Promise<DamApi> {
  const ext = vscode.extensions.getExtension<DamApi>('dam-workbench.dam-workbench');
  assert.ok(ext);
  return ext.activate();
}

async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const parse = (doc: vscode.TextDocument) => JSON.parse(doc.getText()) as Record<string, unknown>;

describe('DAM analytics builder', function () {
  this.timeout(180_000);
  let dam: DamApi;
  let dir: string;
  let uri: vscode.Uri;
  let panel: AnalyticsPanel;
  let doc: vscode.TextDocument;

  const initial = {
    measures: ['Views.count'],
    dimensions: ['Views.recordId'],
    'x-owner': { team: 'marketing', reviewed: [2026, 11] },
    filters: [{ member: 'Views.hasCollectionContext', operator: 'equals', values: ['true'] }],
    order: { 'Views.count': 'desc', 'Views.recordId': 'asc' },
  };

  /** The panel's state once the webview has rendered the document's current version. */
  const rendered = () => until('the panel to render the document', () => panel.state && panel.state.version === doc.version && panel.state);

  before(async () => {
    dam = await api();
    if (dam.connections.state.kind !== 'connected' || dam.connections.session?.profile.kind !== 'emulator') {
      await vscode.commands.executeCommand('dam.startEmulator');
    }
    assert.equal(dam.connections.state.kind, 'connected');
    dir = mkdtempSync(join(tmpdir(), 'dam-analytics-'));
    const file = join(dir, 'views.dam-analytics.json');
    writeFileSync(file, JSON.stringify(initial, null, 4) + '\n');
    uri = vscode.Uri.file(file);
    await vscode.commands.executeCommand('vscode.openWith', uri, 'dam.analyticsEditor');
    panel = await until('the builder to open', () => dam.analytics.panelFor(uri));
    doc = panel.document;
    const state = await rendered();
    assert.equal(state.domain, 'Views');
    assert.deepEqual(state.query, initial);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('writes what the panel builds into the JSON file, keeps what it does not know, and undoes', async () => {
    const before = doc.getText();
    const built = {
      ...initial,
      dimensions: ['Views.recordId', 'Users.loginId'],
      filters: [...initial.filters, { member: 'Views.viewDate', operator: 'inDateRange', values: ['2026-01-01', '2026-06-30'] }],
      timeDimensions: [{ dimension: 'Views.viewDate', granularity: 'month' }],
      limit: 50,
    };
    // The same message the webview posts when a control changes.
    await panel.handleMessage({ type: 'edit', query: built });
    assert.deepEqual(parse(doc), built);
    // Unchanged attributes keep their text exactly.
    assert.ok(doc.getText().includes('"x-owner": {\n        "team": "marketing",'), doc.getText());
    const state = await rendered();
    assert.deepEqual(state.query, built);

    await vscode.commands.executeCommand('undo');
    await until('undo to restore the text', () => doc.getText() === before);
    await vscode.commands.executeCommand('redo');
    await until('redo to apply the edit again', () => JSON.stringify(parse(doc)) === JSON.stringify(built));
  });

  it('shows a text edit in the panel, with the shared validator problems', async () => {
    const typed = { measures: ['Downloads.count'], dimensions: ['Collections.name', 'Downloads.renditionType'], 'x-owner': initial['x-owner'] };
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), JSON.stringify(typed, null, 2));
    assert.ok(await vscode.workspace.applyEdit(edit));
    const state = await rendered();
    assert.equal(state.domain, 'Downloads');
    assert.deepEqual(state.query, typed);
    const expected = validateAnalyticsQuery(typed).map((p) => p.code);
    assert.ok(expected.length > 0, 'Collections is not joined to Downloads: the validator should object');
    assert.deepEqual(state.problems.map((p) => p.code), expected);
  });

  it('runs the query and pages rows that equal the client answer to the same query', async () => {
    const query: AnalyticsQuery = { measures: ['Views.count'], dimensions: ['Views.recordId', 'Views.userId'], order: { 'Views.count': 'desc', 'Views.recordId': 'asc', 'Views.userId': 'asc' } };
    await panel.handleMessage({ type: 'edit', query });
    await rendered();
    await panel.handleMessage({ type: 'run' });
    const first = await until('the first page', () => panel.results && panel.results.fetched > 0 && panel.results);
    assert.equal(first.fetched, 500);
    assert.equal(first.hasMore, true);
    const client = dam.connections.session!.client;
    assert.deepEqual(first.rows, await client.analytics.run({ ...query, limit: 500, offset: 0 }));
    await until('the webview to show the first page', () => panel.state?.shownRows === 500);

    // Scrolling near the end posts fetchMore for the current run.
    await panel.handleMessage({ type: 'fetchMore', runId: panel.runId! });
    assert.equal(panel.results!.fetched, 1000);
    assert.deepEqual(panel.results!.rows, await client.analytics.run({ ...query, limit: 1000, offset: 0 }));
    await until('the webview to show the second page', () => panel.state?.shownRows === 1000);
  });

  it('exports every row of the query to a file equal to the client answer', async () => {
    const query: AnalyticsQuery = { measures: ['Views.count'], dimensions: ['Views.recordId', 'Views.userId'], order: { 'Views.count': 'desc', 'Views.recordId': 'asc', 'Views.userId': 'asc' }, limit: 3000 };
    await panel.handleMessage({ type: 'edit', query });
    const file = join(dir, 'export.json');
    const rows = await panel.exportTo(file, 'json');
    assert.equal(rows, 3000);
    const expected = await dam.connections.session!.client.analytics.run(query);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), expected);
  });

  it('opens a ready-made query as a new file in the builder', async () => {
    const ready = readyQueries.find((r) => r.id === 'downloadsByMonth')!;
    const created = (await vscode.commands.executeCommand('dam.analytics.newQuery', ready.id)) as vscode.Uri;
    assert.ok(created, 'no file was opened');
    assert.equal(created.scheme, 'untitled');
    assert.match(created.path, /downloads-by-month\.dam-analytics\.json$/);
    const readyPanel = await until('the ready-made query builder', () => dam.analytics.panelFor(created));
    assert.deepEqual(JSON.parse(readyPanel.document.getText()), ready.query);
    await until('it to render', () => readyPanel.state?.domain === 'Downloads' && readyPanel.state);
    assert.deepEqual(readyPanel.state!.problems, []);
    // Close the untitled file without the save prompt.
    readyPanel.webviewPanel.reveal();
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
