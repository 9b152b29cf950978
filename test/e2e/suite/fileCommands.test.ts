// The file commands inside a real VS Code against the emulator: Upload to DAM (three files, one segmented,
// found under their classification in the tree), Create Renditions (a thumbnail seen under the version),
// Publish Check Result (badge and findings in the Check Results view, and the slow-check pattern), and an
// upload cancelled half way that leaves no record behind.
import * as assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { embeddedItems } from '../../../src/api/hal';
import type { DamApi } from '../../../src/extension/controller';
import type { ExplorerNode } from '../../../src/extension/explorer/nodes';
import type { BatchResult, BatchSnapshot } from '../../../src/api/uploadQueue';
import type { RenditionOutcome } from '../../../src/extension/files/renditionsCommand';
import type { PublishOutcome } from '../../../src/extension/files/fileCommands';
import type { DownloadOutcome } from '../../../src/extension/files/downloadCommand';
import type { CheckViewNode } from '../../../src/extension/files/checkResultsView';

type Cls = Extract<ExplorerNode, { kind: 'classification' }>;
type Rec = Extract<ExplorerNode, { kind: 'record' }>;

async function api(): Promise<DamApi> {
  const ext = vscode.extensions.getExtension<DamApi>('dam-workbench.dam-workbench');
  assert.ok(ext);
  return ext.activate();
}

/** A file of `size` bytes of random data (so nothing along the way can shortcut it). */
function writeRandomFile(path: string, size: number): void {
  const fd = openSync(path, 'w');
  try {
    const chunk = randomBytes(1024 * 1024);
    for (let written = 0; written < size; written += chunk.length) writeSync(fd, chunk, 0, Math.min(chunk.length, size - written));
  } finally {
    closeSync(fd);
  }
}

async function recordsIn(dam: DamApi, classificationId: string): Promise<number> {
  const page = await dam.connections.session!.client.search.records({ expression: 'DirectClassification = @c', namedParameters: { c: classificationId }, pageSize: 1 });
  assert.ok(typeof page.totalCount === 'number', 'the search answers totalCount');
  return page.totalCount;
}

describe('File commands', function () {
  this.timeout(240_000);
  let dam: DamApi;
  let dir: string;
  let target: Cls;
  let imageRecordId: string;

  before(async () => {
    dam = await api();
    if (dam.connections.state.kind !== 'connected' || dam.connections.session?.profile.kind !== 'emulator') {
      await vscode.commands.executeCommand('dam.startEmulator');
    }
    assert.equal(dam.connections.state.kind, 'connected');
    dir = mkdtempSync(join(tmpdir(), 'dam-files-e2e-'));
    // A classification below a root one: a place with few records, where the new ones are easy to see.
    const provider = dam.explorer.provider;
    const roots = (await provider.getChildren()).filter((n): n is Cls => n.kind === 'classification');
    for (const root of roots) {
      const child = (await provider.getChildren(root)).find((n): n is Cls => n.kind === 'classification');
      if (child) {
        target = child;
        break;
      }
    }
    assert.ok(target, 'no second-level classification in the demo tenant');
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('uploads three files (one over 20 MB, segmented) onto a classification and shows them under it', async () => {
    const client = dam.connections.session!.client;
    // An image from the demo tenant, so the rendition test below has something to render.
    const hits = await client.search.records({ expression: 'ContentType = Image', pageSize: 1 });
    const version = await client.files.latestVersion(hits.items[0].id);
    assert.ok(version, 'a demo image record has a version');
    const download = await client.files.download(version);
    const chunks: Buffer[] = [];
    for await (const chunk of download.body) chunks.push(Buffer.from(chunk as Uint8Array));
    const stamp = Date.now();
    const files = {
      image: join(dir, `photo-${stamp}.png`),
      text: join(dir, `notes-${stamp}.txt`),
      big: join(dir, `large-${stamp}.bin`),
    };
    writeFileSync(files.image, Buffer.concat(chunks));
    writeFileSync(files.text, 'Release notes for the spring campaign.\n');
    writeRandomFile(files.big, 21 * 1024 * 1024 + 123);
    const before = await recordsIn(dam, target.id);
    const snapshots: BatchSnapshot[] = [];

    const result = await vscode.commands.executeCommand<BatchResult>('dam.files.upload', {
      classificationId: target.id,
      files: [vscode.Uri.file(files.image), vscode.Uri.file(files.text), vscode.Uri.file(files.big)],
      status: 'Draft',
      onProgress: (s: BatchSnapshot) => snapshots.push({ ...s }),
    });

    assert.ok(result, 'the command answers its result');
    assert.deepEqual(result.failed, []);
    assert.equal(result.cancelled, false);
    assert.equal(result.recordIds.length, 3);
    const big = result.statuses.find((s) => s.item.path === files.big);
    assert.equal(big?.segmented, true, 'the 21 MB file went in segments');
    assert.equal(result.statuses.find((s) => s.item.path === files.text)?.segmented, false);
    assert.ok(snapshots.some((s) => s.bytesSent > 0 && s.bytesSent < s.bytesTotal), 'progress was reported part way');
    assert.ok(snapshots.some((s) => s.bytesPerSecond > 0), 'throughput was reported');
    assert.equal(await recordsIn(dam, target.id), before + 3);

    // In the tree: the classification (refreshed by the command) lists the three new records with their titles.
    await vscode.commands.executeCommand('dam.explorer.loadAll', target);
    const children = (await dam.explorer.provider.getChildren(target)).filter((n): n is Rec => n.kind === 'record');
    for (const [path, title] of [
      [files.image, `photo-${stamp}`],
      [files.text, `notes-${stamp}`],
      [files.big, `large-${stamp}`],
    ]) {
      const id = result.statuses.find((s) => s.item.path === path)?.recordId;
      const node = children.find((n) => n.id === id);
      assert.ok(node, `record of ${path} is under the classification in the tree`);
      assert.equal(node.record.title, title);
    }
    imageRecordId = result.statuses.find((s) => s.item.path === files.image)!.recordId!;
  });

  it('creates a thumbnail rendition and reveals it in the tree', async () => {
    assert.ok(imageRecordId, 'needs the uploaded image');
    const outcome = await vscode.commands.executeCommand<RenditionOutcome>('dam.files.createRenditions', { recordIds: [imageRecordId], presets: ['thumbnail'] });
    assert.ok(outcome);
    assert.equal(outcome.job.status, 'Success', JSON.stringify(outcome.job));
    assert.deepEqual(outcome.failedTargets, []);
    const shown = outcome.revealed.find((r) => r.recordId === imageRecordId);
    assert.ok(shown, 'the record was walked to its newest version');
    const thumbnail = shown.renditions.find((n) => n.kind === 'rendition' && (n.rendition.preset === 'thumbnail' || /thumbnail/i.test(n.rendition.name ?? '')));
    assert.ok(thumbnail, `a thumbnail rendition under the version: ${JSON.stringify(shown.renditions.map((n) => n.kind === 'rendition' && n.rendition.name))}`);
    // The tree node is the one VS Code shows: reading the version's children again finds it too.
    const parent = dam.explorer.provider.getParent(thumbnail);
    assert.equal(parent?.kind, 'version');
    const again = await dam.explorer.provider.getChildren(parent);
    assert.ok(again.some((n) => n.kind === 'rendition' && n.id === thumbnail.id));
  });

  it('publishes a check result with findings and shows the badge and the findings in the view', async () => {
    assert.ok(imageRecordId, 'needs the uploaded image');
    const check = `e2e brand check ${Date.now()}`;
    const file = join(dir, 'brand.dam-check.json');
    writeFileSync(
      file,
      JSON.stringify({
        check,
        category: 'Brand Consistency',
        description: 'Checked the **logo** and the claims.',
        findings: [
          { finding: 'spring campaign', outcome: 'fail', explanation: 'The claim is *not* approved.', recommendation: 'Use the approved wording. <img src=x onerror=alert(1)>' },
          { finding: 'Release notes', outcome: 'warning', explanation: 'Tone is informal.' },
          { finding: 'logo', outcome: 'pass' },
        ],
      }),
    );
    // The record's badge is looked at before (as a row on screen does) and must follow the published result.
    const decorations = dam.explorer.decorations;
    const before = await decorations.lookUpRecord(imageRecordId);
    const outcome = await vscode.commands.executeCommand<PublishOutcome>('dam.checks.publish', { file: vscode.Uri.file(file), recordId: imageRecordId, mode: 'publish' });
    assert.ok(outcome);
    assert.notDeepEqual(before, await decorations.lookUpRecord(imageRecordId), 'the record badge is read again after Publish Check Result');
    assert.equal((await decorations.lookUpRecord(imageRecordId))?.color, 'red');
    assert.equal(outcome.findings, 3);
    assert.deepEqual(outcome.badge, { color: 'red', count: 2, label: '2' }, 'rollup: one fail + one warning');

    const view = dam.files.checkResults;
    assert.equal(view.versionId, outcome.versionId);
    const rows = await view.getChildren();
    const row = rows.find((n): n is Extract<CheckViewNode, { kind: 'result' }> => n.kind === 'result' && n.result.checkName === check);
    assert.ok(row, 'the published result is in the Check Results view');
    const item = view.getTreeItem(row);
    assert.match(String(item.description), /^2 \(rollup\)/);
    assert.equal(((item.iconPath as vscode.ThemeIcon).color as vscode.ThemeColor).id, 'charts.red');
    const findings = await view.getChildren(row);
    assert.deepEqual(
      findings.map((f) => (f.kind === 'finding' ? [f.finding.finding, (view.getTreeItem(f).iconPath as vscode.ThemeIcon).id] : [])),
      [
        ['spring campaign', 'error'],
        ['Release notes', 'warning'],
        ['logo', 'pass'],
      ],
    );
    const tip = view.getTreeItem(findings[0]).tooltip as vscode.MarkdownString;
    assert.equal(tip.isTrusted, false);
    assert.equal(tip.supportHtml, false);
    assert.match(tip.value, /The claim is \*not\* approved\./);
    assert.match(tip.value, /Use the approved wording\./);

    // The slow-check pattern: "in progress" first, then the final outcome PUT to the same result.
    const slowFile = join(dir, 'slow.dam-check.json');
    writeFileSync(slowFile, JSON.stringify({ check: `${check} slow`, category: 'Risk & Compliance', outcome: 'pass', description: 'No risky claims found.' }));
    const started = await vscode.commands.executeCommand<PublishOutcome>('dam.checks.publish', { file: vscode.Uri.file(slowFile), versionId: outcome.versionId, mode: 'start' });
    assert.ok(started?.results.find((r) => r.id === started.resultId)?.inProgress, 'shown as in progress');
    const finished = await vscode.commands.executeCommand<PublishOutcome>('dam.checks.publish', { file: vscode.Uri.file(slowFile), versionId: outcome.versionId, mode: 'finish' });
    assert.equal(finished?.resultId, started.resultId, 'the same result was finished');
    const final = finished.results.find((r) => r.id === started.resultId);
    assert.equal(final?.outcome, 'pass');
    assert.equal(final?.inProgress, false);
    assert.deepEqual(final?.badge, { color: 'green', label: 'Pass' });
  });

  it('uploads a file as a new record with field values and reads them back from the record', async () => {
    const client = dam.connections.session!.client;
    const defs = (await client.fieldDefinitions.list({ pageSize: 500 })).items;
    const date = defs.find((d) => d.dataType === 'Date');
    const options = defs.find((d) => d.dataType === 'OptionList' && Array.isArray(d.items) && d.items.length > 1);
    assert.ok(date && options, 'the demo tenant has a Date and an OptionList field');
    // Not the field's default option, so a value that came from the default could not pass.
    const defaultIds = ((options.defaultValue as { values?: unknown[] } | null | undefined)?.values ?? []).map(String);
    const option = (options.items as { id: string }[]).find((o) => !defaultIds.includes(o.id))!;
    const file = join(dir, `fielded-${Date.now()}.txt`);
    writeFileSync(file, 'A record with field values.\n');

    const result = await vscode.commands.executeCommand<BatchResult>('dam.files.upload', {
      classificationId: target.id,
      files: [vscode.Uri.file(file)],
      fields: [
        { id: date.id, value: '2025-06-01' },
        { id: options.id, values: [option.id] },
      ],
    });
    assert.ok(result);
    assert.deepEqual(result.failed, []);
    assert.equal(result.recordIds.length, 1);

    const record = await client.records.get(result.recordIds[0], { select: { recordFields: [date.id, options.id], resolveDefaultValues: false } });
    const fields = embeddedItems(record, 'fields') as { id: string; localizedValues?: { value?: unknown; values?: unknown[] }[] }[];
    const valueOf = (id: string) => fields.find((f) => f.id === id)?.localizedValues?.[0];
    assert.match(String(valueOf(date.id)?.value), /^2025-06-01/, JSON.stringify(fields));
    const stored = (valueOf(options.id)?.values ?? []).map((v) => (typeof v === 'object' && v !== null ? (v as { id?: string }).id : v));
    assert.deepEqual(stored, [option.id], JSON.stringify(fields));
  });

  it('downloads a Markdown version, marks its findings as diagnostics, and drops them when the result or the copy goes', async () => {
    const client = dam.connections.session!.client;
    const source = join(dir, `claims-${Date.now()}.md`);
    writeFileSync(source, '# Spring claims\n\nOur cream is the best in the world.\nAsk sales@example.com for samples.\n');
    const uploaded = await vscode.commands.executeCommand<BatchResult>('dam.files.upload', { classificationId: target.id, files: [vscode.Uri.file(source)] });
    assert.equal(uploaded?.recordIds.length, 1);
    const recordId = uploaded.recordIds[0];
    const checkFile = join(dir, 'claims.dam-check.json');
    writeFileSync(
      checkFile,
      JSON.stringify({
        check: `e2e claims check ${Date.now()}`,
        category: 'Risk & Compliance',
        description: 'Claims and contact data.',
        findings: [
          { finding: 'best in the world', outcome: 'fail', explanation: 'Superlative claim without proof.' },
          { finding: 'sales@example.com', outcome: 'warning', explanation: 'Personal contact data.' },
          { finding: 'not in the text at all', outcome: 'fail' },
        ],
      }),
    );
    const published = await vscode.commands.executeCommand<PublishOutcome>('dam.checks.publish', { file: vscode.Uri.file(checkFile), recordId, mode: 'publish' });
    assert.ok(published);

    const saveDir = mkdtempSync(join(tmpdir(), 'dam-download-e2e-'));
    try {
      const copy = join(saveDir, 'copy of claims.md');
      const outcome = await vscode.commands.executeCommand<DownloadOutcome>('dam.files.downloadVersion', { versionId: published.versionId, target: copy });
      assert.ok(outcome?.document, 'the Markdown copy was opened');
      assert.equal(readFileSync(copy, 'utf8'), readFileSync(source, 'utf8'), 'the bytes of the version');
      assert.equal(outcome.versionId, published.versionId);
      assert.ok(dam.findings.downloads?.entries().some(([uri, e]) => uri === vscode.Uri.file(copy).toString() && e.versionId === published.versionId), 'the copy is mapped to its version');

      const diagnostics = [...vscode.languages.getDiagnostics(outcome.file)].sort((x, y) => x.range.start.compareTo(y.range.start));
      assert.deepEqual(
        diagnostics.map((d) => [d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character, d.severity, outcome.document!.getText(d.range)]),
        [
          [2, 17, 2, 34, vscode.DiagnosticSeverity.Error, 'best in the world'],
          [3, 4, 3, 21, vscode.DiagnosticSeverity.Warning, 'sales@example.com'],
        ],
      );
      assert.match(diagnostics[0].message, /Superlative claim/);

      // The result is deleted on the service: refreshing the results clears the marks.
      await client.http.request({ method: 'DELETE', path: `/fileversion/${published.versionId}/CheckResult/${published.resultId}`, responseType: 'none', idempotent: false });
      await vscode.commands.executeCommand('dam.checks.refreshResults');
      assert.deepEqual(vscode.languages.getDiagnostics(outcome.file), []);

      // The copy is deleted: its mapping is forgotten, and a refresh after the record is gone too breaks nothing.
      rmSync(copy);
      await client.records.delete(recordId);
      await dam.findings.refreshAll();
      assert.ok(!dam.findings.downloads?.entries().some(([uri]) => uri === vscode.Uri.file(copy).toString()), 'the gone copy is forgotten');
      assert.deepEqual(vscode.languages.getDiagnostics(outcome.file), []);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      rmSync(saveDir, { recursive: true, force: true });
    }
  });

  it('cancels a download half way and leaves no file behind', async () => {
    const client = dam.connections.session!.client;
    const big = join(dir, `download-big-${Date.now()}.bin`);
    writeRandomFile(big, 30 * 1024 * 1024);
    const uploaded = await vscode.commands.executeCommand<BatchResult>('dam.files.upload', { classificationId: target.id, files: [vscode.Uri.file(big)] });
    assert.equal(uploaded?.recordIds.length, 1);
    const version = await client.files.latestVersion(uploaded.recordIds[0]);
    assert.ok(version);
    const saveDir = mkdtempSync(join(tmpdir(), 'dam-download-cancel-e2e-'));
    try {
      const copy = join(saveDir, 'big.bin');
      const cts = new vscode.CancellationTokenSource();
      let atCancel: number | undefined;
      const outcome = await vscode.commands.executeCommand<DownloadOutcome | undefined>('dam.files.downloadVersion', {
        versionId: version.id,
        target: copy,
        token: cts.token,
        onProgress: (bytes: number) => {
          if (atCancel === undefined) {
            atCancel = bytes;
            cts.cancel();
          }
        },
      });
      assert.equal(outcome, undefined, 'a cancelled download answers nothing');
      assert.ok(atCancel !== undefined && atCancel < 30 * 1024 * 1024, 'cancelled while bytes were still to come');
      assert.deepEqual(readdirSync(saveDir), [], 'neither the file nor its temporary part is left');
      assert.ok(!dam.findings.downloads?.entries().some(([uri]) => uri === vscode.Uri.file(copy).toString()), 'nothing remembered');
    } finally {
      rmSync(saveDir, { recursive: true, force: true });
      await client.records.delete(uploaded.recordIds[0]);
    }
  });

  it('cancels an upload half way and leaves no record behind', async () => {
    const file = join(dir, `cancelled-${Date.now()}.bin`);
    const size = 100 * 1024 * 1024;
    writeRandomFile(file, size);
    const before = await recordsIn(dam, target.id);
    const cts = new vscode.CancellationTokenSource();
    let sentAtCancel: number | undefined;
    const result = await vscode.commands.executeCommand<BatchResult>('dam.files.upload', {
      classificationId: target.id,
      files: [vscode.Uri.file(file)],
      title: 'must not exist',
      token: cts.token,
      onProgress: (s: BatchSnapshot) => {
        if (sentAtCancel === undefined && s.bytesSent > 0) {
          sentAtCancel = s.bytesSent;
          cts.cancel();
        }
      },
    });
    assert.ok(result);
    assert.ok(sentAtCancel !== undefined && sentAtCancel < size, 'cancelled while segments were still to send');
    assert.equal(result.cancelled, true);
    assert.deepEqual(result.recordIds, []);
    assert.equal(result.statuses[0].state, 'cancelled');
    assert.equal(await recordsIn(dam, target.id), before, 'no record was created');
    const titled = await dam.connections.session!.client.search.records({ expression: 'Title = "must not exist"', pageSize: 1 });
    assert.equal(titled.items.length, 0);
  });
});
