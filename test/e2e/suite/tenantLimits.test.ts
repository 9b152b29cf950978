// The extension against an emulator that enforces a tenant's limits (`dam.emulator.tenantLimits`: 15 requests/s
// shared by every client, a queue of 100, then 429 with Retry-After): Load All in the tree, a CSV export of a query
// and analytics paging, run at the same time as a busy user would, finish with every item and no request answered
// 429, because the client paces itself rather than retrying into a storm. The rate reached is printed (a figure
// beside the tenant's 15/s, not asserted: timings differ from machine to machine).
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DamApi } from '../../../src/extension/controller';
import type { ExplorerNode } from '../../../src/extension/explorer/nodes';
import type { RequestLogEntry } from '../../../src/extension/log';

type Cls = Extract<ExplorerNode, { kind: 'classification' }>;

async function api(): Promise<DamApi> {
  const ext = vscode.extensions.getExtension<DamApi>('dam-workbench.dam-workbench');
  assert.ok(ext);
  return ext.activate();
}

async function restartEmulator(dam: DamApi, tenantLimits: boolean): Promise<void> {
  await vscode.workspace.getConfiguration('dam').update('emulator.tenantLimits', tenantLimits || undefined, vscode.ConfigurationTarget.Global);
  await vscode.commands.executeCommand('dam.stopEmulator');
  await vscode.commands.executeCommand('dam.startEmulator');
  assert.equal(dam.connections.state.kind, 'connected');
}

describe('DAM extension under the tenant limits', function () {
  this.timeout(300_000);
  let dam: DamApi;
  let dir: string;

  before(async () => {
    dam = await api();
    await restartEmulator(dam, true);
    dir = mkdtempSync(join(tmpdir(), 'dam-limits-'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('dam').update('explorer.pageSize', undefined, vscode.ConfigurationTarget.Global);
    // The suites after this one expect the emulator as it starts by default.
    await restartEmulator(dam, false);
  });

  it('Load All, a CSV export and analytics paging at once: nothing lost, no 429, the rate reached printed', async () => {
    const client = dam.connections.session!.client;
    const provider = dam.explorer.provider;
    // Small pages make Load All many requests: the tree's worst case against the rate.
    await vscode.workspace.getConfiguration('dam').update('explorer.pageSize', 5, vscode.ConfigurationTarget.Global);

    // What the CSV export and the analytics export must produce, read through the client before the timed part.
    const ids: string[] = [];
    for await (const r of client.search.recordItems({ expression: 'ContentType = Image', pageSize: 100 })) ids.push(r.id);
    const analyticsQuery = { measures: ['Views.count'], dimensions: ['Views.recordId', 'Views.userId'], order: { 'Views.count': 'desc' as const, 'Views.recordId': 'asc' as const, 'Views.userId': 'asc' as const }, limit: 2500 };
    const expectedRows = await client.analytics.run(analyticsQuery);

    const seen: RequestLogEntry[] = [];
    const sub = dam.log.onDidRequest((e) => seen.push(e));
    const started = Date.now();
    // Expanding the whole tree (each classification's children and first page of records, one after another, as
    // fast as the emulator answers) is the burst; the classification with the most direct records is Load All's.
    let target: Cls | undefined;
    let targetTotal = 0;
    const queue = (await provider.getChildren()).filter((n): n is Cls => n.kind === 'classification');
    while (queue.length) {
      const node = queue.shift()!;
      const children = await provider.getChildren(node);
      const total = provider.pagingOf(node.id)?.totalCount ?? children.filter((c) => c.kind === 'record').length;
      if (total > targetTotal) [target, targetTotal] = [node, total];
      queue.push(...children.filter((n): n is Cls => n.kind === 'classification'));
    }
    assert.ok(target && targetTotal > 20, 'no classification with enough records to page');
    const queryFile = join(dir, 'images.dam-query');
    writeFileSync(queryFile, '# @name Images\nContentType = Image\n');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(queryFile));
    const analyticsFile = join(dir, 'views.dam-analytics.json');
    writeFileSync(analyticsFile, JSON.stringify(analyticsQuery, null, 2));
    await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(analyticsFile), 'dam.analyticsEditor');
    let panel = dam.analytics.panelFor(vscode.Uri.file(analyticsFile));
    for (let tries = 0; !panel && tries < 300; tries++) {
      await new Promise((r) => setTimeout(r, 100));
      panel = dam.analytics.panelFor(vscode.Uri.file(analyticsFile));
    }
    assert.ok(panel, 'the analytics builder did not open');
    const builder = panel;

    let csvRows = 0;
    let analyticsRows = 0;
    try {
      await Promise.all([
        vscode.commands.executeCommand('dam.explorer.loadAll', target),
        (async () => {
          const out = (await vscode.commands.executeCommand('dam.query.export', doc.uri, 0, 'csv', vscode.Uri.file(join(dir, 'images.csv')))) as { rows: number };
          csvRows = out.rows;
        })(),
        (async () => {
          analyticsRows = await builder.exportTo(join(dir, 'views.json'), 'json');
        })(),
      ]);
    } finally {
      sub.dispose();
    }
    const seconds = (Date.now() - started) / 1000;

    const loaded = (await provider.getChildren(target)).filter((c) => c.kind === 'record');
    assert.equal(loaded.length, targetTotal, 'Load All lost records');
    assert.equal(csvRows, ids.length);
    const csvIds = readFileSync(join(dir, 'images.csv'), 'utf8').split('\r\n').slice(1).filter((l) => l.length > 0).map((l) => l.split(',')[0]);
    assert.deepEqual(csvIds.sort(), [...ids].sort(), 'the CSV export lost or repeated rows');
    assert.equal(analyticsRows, expectedRows.length);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'views.json'), 'utf8')), expectedRows);

    const api = seen.filter((e) => /\/api\/core\/|\/analytics\//.test(e.url));
    const refused = seen.filter((e) => e.status === 429);
    assert.deepEqual(refused.map((e) => `${e.method} ${e.url}`), [], 'requests answered 429 under the limits');
    assert.ok(seen.every((e) => e.status !== 'error' && e.status < 500), 'a request failed');
    console.log(
      `[dam-e2e] tenant limits: ${api.length} REST/analytics requests in ${seconds.toFixed(1)} s = ${(api.length / seconds).toFixed(1)} requests/s ` +
        `(tenant rate 15/s; the whole tree expanded, Load All of ${targetTotal} records by 5, CSV of ${csvRows} rows, analytics ${analyticsRows} rows); 429s: ${refused.length}`,
    );
  });
});
