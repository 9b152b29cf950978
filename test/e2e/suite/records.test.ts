// Records you can read and change, inside a real VS Code against the emulator's demo tenant: a record opens as a
// writable `dam:` document, a save sends what changed, a save with problems is refused, a record changed on the
// tenant after it was read is not overwritten, and the tree's edits (status, classify by drop, delete) and a bulk
// update with its dry run change the tenant and redraw only what they touched.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DamApi } from '../../../src/extension/controller';
import type { ExplorerNode } from '../../../src/extension/explorer/nodes';
import { RECORD_ROWS_MIME } from '../../../src/extension/explorer/dragAndDrop';
import { recordUri } from '../../../src/extension/explorer/damFs';

type Cls = Extract<ExplorerNode, { kind: 'classification' }>;
type Rec = Extract<ExplorerNode, { kind: 'record' }>;

async function api(): Promise<DamApi> {
  const ext = vscode.extensions.getExtension<DamApi>('dam-workbench.dam-workbench');
  assert.ok(ext);
  return ext.activate();
}

/** Waits until `check` holds (VS Code applies some changes a moment after the call that made them returns). */
async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function parse(text: string): { id: string; status: string; classifications: string[]; fields: Record<string, unknown>; readOnly: Record<string, unknown> } {
  return JSON.parse(text) as ReturnType<typeof parse>;
}

/** Replaces the value of `"key": …` on its line in the editor's text. */
async function setLine(doc: vscode.TextDocument, key: string, value: string): Promise<void> {
  const line = [...Array(doc.lineCount).keys()].map((i) => doc.lineAt(i)).find((l) => l.text.trimStart().startsWith(`"${key}":`));
  assert.ok(line, `no line for ${key} in\n${doc.getText()}`);
  const comma = line.text.trimEnd().endsWith(',') ? ',' : '';
  const indent = line.text.slice(0, line.firstNonWhitespaceCharacterIndex);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, line.range, `${indent}"${key}": ${value}${comma}`);
  assert.ok(await vscode.workspace.applyEdit(edit));
}

describe('Records in VS Code', function () {
  this.timeout(180_000);
  let dam: DamApi;

  before(async () => {
    dam = await api();
    if (dam.connections.state.kind !== 'connected' || dam.connections.session?.profile.kind !== 'emulator') await vscode.commands.executeCommand('dam.startEmulator');
    assert.equal(dam.connections.state.kind, 'connected');
    // The first save of a session wakes the save participants of every extension, which can take long enough on a
    // busy machine for VS Code to cancel that save: that first save is a scratch file's, not a record's.
    const scratch = await vscode.workspace.openTextDocument({ language: 'plaintext', content: '' });
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (folder) {
      const file = vscode.Uri.joinPath(folder, `.records-e2e-${Date.now()}.txt`);
      await vscode.workspace.fs.writeFile(file, new Uint8Array());
      const doc = await vscode.workspace.openTextDocument(file);
      const edit = new vscode.WorkspaceEdit();
      edit.insert(file, new vscode.Position(0, 0), 'warm-up');
      await vscode.workspace.applyEdit(edit);
      await doc.save();
      await vscode.workspace.fs.delete(file);
    }
    void scratch;
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  async function someRecordId(expression = 'ContentType = Image'): Promise<string> {
    const page = await dam.connections.session!.client.search.records({ expression, pageSize: 5 });
    assert.ok(page.items.length > 0, `no record for ${expression}`);
    return page.items[page.items.length - 1].id;
  }

  it('opens a record by its dashed id as a writable document with fields by name and classifications by path', async () => {
    const id = await someRecordId();
    const dashed = `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`;
    const editor = await vscode.commands.executeCommand<vscode.TextEditor>('dam.records.open', dashed);
    assert.ok(editor, 'no editor');
    const doc = editor.document;
    assert.equal(doc.uri.scheme, 'dam');
    assert.match(doc.uri.path, /\.dam-record\.json$/);
    assert.equal(doc.languageId, 'dam-record');
    const shown = parse(doc.getText());
    assert.equal(shown.id.replace(/-/g, ''), id.replace(/-/g, ''));
    for (const name of ['Description', 'UsageRights', 'Keywords']) assert.ok(name in shown.fields || name in ((shown.readOnly.fields as object | undefined) ?? {}), `${name} is not shown`);
    assert.ok(shown.classifications.every((c) => c.startsWith('/')), `classifications by path: ${shown.classifications.join(', ')}`);
    const stat = await vscode.workspace.fs.stat(doc.uri);
    assert.equal(stat.mtime, Date.parse(String(shown.readOnly.modifiedOn)));
    assert.ok(!((stat.permissions ?? 0) & vscode.FilePermission.Readonly), 'the record document is read-only');
  });

  // Each save is a write to the tenant (an update, a trail entry, rules run): records never auto-save, not even where
  // Auto Save is on for everything else (code-server's and vscode.dev's default), yet keep VS Code's JSON features.
  it('opens as a DAM Record document that does not auto-save and still completes field names from the schema', async () => {
    const files = vscode.workspace.getConfiguration('files');
    const userAutoSave = files.inspect<string>('autoSave')?.globalValue;
    await files.update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    try {
      const doc = (await vscode.commands.executeCommand<vscode.TextEditor>('dam.records.open', await someRecordId()))!.document;
      assert.equal(doc.languageId, 'dam-record');
      assert.equal(vscode.workspace.getConfiguration('files').get('autoSave'), 'afterDelay');
      assert.equal(vscode.workspace.getConfiguration('files', doc).get('autoSave'), 'off');
      assert.equal(vscode.workspace.getConfiguration('files', { languageId: 'dam-record' }).get('autoSave'), 'off');

      // A field taken out of "fields" is offered again where it was, by its name (the tenant's schema, through VS
      // Code's JSON language server).
      const other = Object.keys(parse(doc.getText()).fields).find((name) => name !== 'Photographer');
      assert.ok(other, 'no other field in the document');
      const line = [...Array(doc.lineCount).keys()].map((i) => doc.lineAt(i)).find((l) => l.text.trimStart().startsWith('"Photographer":'));
      assert.ok(line, `no line for Photographer in\n${doc.getText()}`);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, line.range, line.text.slice(0, line.firstNonWhitespaceCharacterIndex));
      assert.ok(await vscode.workspace.applyEdit(edit));
      const at = new vscode.Position(line.lineNumber, line.firstNonWhitespaceCharacterIndex);
      const labels = await until('a field name offered by completion', async () => {
        const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, at);
        const found = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
        return found.some((l) => l.includes('Photographer')) && found;
      });
      assert.ok(!labels.includes(other) && !labels.includes(`"${other}"`), `${other}, already in the document, is offered: ${labels.join(', ')}`);
    } finally {
      await files.update('autoSave', userAutoSave, vscode.ConfigurationTarget.Global);
    }
  });

  it('saves only what changed, as one update, and refuses a save with problems', async () => {
    const id = await someRecordId();
    const editor = (await vscode.commands.executeCommand<vscode.TextEditor>('dam.records.open', id))!;
    const doc = editor.document;
    const before = parse(doc.getText());
    const photographer = `E2E photographer ${Date.now()}`;
    await setLine(doc, 'Photographer', JSON.stringify(photographer));
    const saves: { sent: boolean; fields: string[] }[] = [];
    const sub = dam.records.load().documents.onDidSave((s) => saves.push({ sent: s.sent, fields: s.changes.fields.map((f) => f.field) }));
    const documents = dam.records.load().documents;
    const write = documents.writeFile.bind(documents);
    const refusals: string[] = [];
    documents.writeFile = (uri, content) => write(uri, content).catch((err: Error) => {
      refusals.push(err.message);
      throw err;
    });
    try {
      assert.ok(doc.isDirty, 'not dirty');
      // Saved as a person saves (the editor's Save), the way VS Code runs its conflict check.
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.files.save');
      await until(`the save (${refusals.join('; ')})`, () => !doc.isDirty || refusals.length > 0);
      assert.equal(doc.isDirty, false, `the save failed: ${refusals.join('; ')}`);
      // The record is read again after the save, off the editor's way: the save is reported once that read answered.
      await until('the save reported', () => saves.length > 0);
    } finally {
      sub.dispose();
      documents.writeFile = write;
    }
    assert.deepEqual(saves, [{ sent: true, fields: ['Photographer'] }]);
    const after = (await dam.connections.session!.client.recordEdits.open(id)).document;
    assert.equal(after.fields.Photographer, photographer);
    assert.deepEqual({ ...after.fields, Photographer: null }, { ...before.fields, Photographer: null }, 'other fields changed');
    // The clean editor then reloads the tenant's version (off the save's way). An edit computed before that reload
    // landed would be refused by applyEdit (the document's version moved), as a person's would not be: wait for it.
    await until('the editor reloaded the saved record', () => parse(doc.getText()).readOnly.modifiedOn === after.readOnly.modifiedOn);

    // A date the field does not take: a problem in the editor, and the save is refused with nothing sent.
    await setLine(doc, 'PublicationDate', '"next Tuesday"');
    const problems = await until('the problem in the editor', () => {
      const found = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'DAM record' && d.severity === vscode.DiagnosticSeverity.Error);
      return found.length ? found : undefined;
    });
    assert.equal(problems.length, 1, problems.map((p) => p.message).join('; '));
    assert.match(doc.lineAt(problems[0].range.start.line).text, /"PublicationDate"/, problems[0].message);
    const modifiedOn = after.readOnly.modifiedOn;
    await vscode.commands.executeCommand('workbench.action.files.save');
    assert.ok(doc.isDirty, 'a save with problems went through');
    assert.equal((await dam.connections.session!.client.recordEdits.open(id)).document.readOnly.modifiedOn, modifiedOn, 'something was written');
  });

  // The other client writes within a second or two of the open: the read VS Code's open made is still "fresh" then,
  // and stat must not serve it for the newer version (it did, and VS Code saved over the record).
  it('does not overwrite a record changed on the tenant after it was read', async () => {
    const id = await someRecordId('ContentType = Document');
    const editor = (await vscode.commands.executeCommand<vscode.TextEditor>('dam.records.open', id))!;
    const doc = editor.document;
    await setLine(doc, 'Photographer', '"Mine"');
    // Someone else changes the record meanwhile.
    const edits = dam.connections.session!.client.recordEdits;
    const theirs = (await edits.open(id)).document;
    await new Promise((r) => setTimeout(r, 20));
    const def = (await edits.tenantModel()).definitions.find((d) => d.name === 'Photographer');
    assert.ok(def);
    await edits.apply({ recordId: id, fields: [{ field: def.name, fieldId: def.id, dataType: def.dataType, before: theirs.fields.Photographer, after: 'Theirs' }], addClassifications: [], removeClassifications: [] });
    const now = (await edits.open(id)).document;
    assert.equal(now.fields.Photographer, 'Theirs');
    assert.equal((await vscode.workspace.fs.stat(doc.uri)).mtime, Date.parse(String(now.readOnly.modifiedOn)), 'stat does not report the newer version');
    assert.equal(await doc.save(), false, 'the save overwrote the newer record');
    assert.ok(doc.isDirty, 'the edit was lost');
    assert.equal((await edits.open(id)).document.fields.Photographer, 'Theirs', 'the record was overwritten');
    // Compare reads the newer version while the edits are unsaved: they stay based on the version the editor read,
    // so its read-only section is no edit and Overwrite can go through.
    const read = parse(doc.getText()).readOnly.modifiedOn;
    assert.match(new TextDecoder().decode(await vscode.workspace.fs.readFile(doc.uri)), /"Theirs"/);
    assert.equal(dam.records.load().documents.baseOf(doc.uri)?.readOnly.modifiedOn, read);
    const model = await dam.records.load().documents.tenantModel();
    assert.deepEqual(dam.records.load().documents.problemsOf(doc.getText(), dam.records.load().documents.baseOf(doc.uri)!, model).map((p) => p.message), []);
  });

  // The document's versions (STYLE.md principle 15): base (what the text started from), tenant (what the tenant holds
  // now) and the text; each transition below leaves the editor showing what the tenant holds.
  describe('the version model of a record document', () => {
    /** Another client's update of some fields (by name, document values). */
    async function theirs(id: string, values: Record<string, unknown>): Promise<void> {
      const edits = dam.connections.session!.client.recordEdits;
      const { definitions } = await edits.tenantModel();
      const now = (await edits.open(id)).document;
      const fields = Object.entries(values).map(([name, after]) => {
        const def = definitions.find((d) => d.name === name)!;
        return { field: def.name, fieldId: def.id, dataType: def.dataType, before: now.fields[name], after };
      });
      await edits.apply({ recordId: id, fields, addClassifications: [], removeClassifications: [] });
    }

    /** Saves as a person does (the editor's Save, with VS Code's conflict check); the refusals writeFile threw. */
    async function save(doc: vscode.TextDocument): Promise<string[]> {
      const documents = dam.records.load().documents;
      const write = documents.writeFile.bind(documents);
      const refusals: string[] = [];
      documents.writeFile = (uri, content) => write(uri, content).catch((err: Error) => {
        refusals.push(err.message);
        throw err;
      });
      try {
        await vscode.window.showTextDocument(doc);
        const saved = await doc.save();
        if (!saved && !refusals.length) refusals.push('not saved');
      } finally {
        documents.writeFile = write;
      }
      return refusals;
    }

    const shownModifiedOn = (doc: vscode.TextDocument) => parse(doc.getText()).readOnly.modifiedOn;

    it('after a save the text, the tree row and a reopen show what the tenant holds', async () => {
      const id = await someRecordId('ContentType = Document');
      const edits = dam.connections.session!.client.recordEdits;
      const doc = (await vscode.commands.executeCommand<vscode.TextEditor>('dam.records.open', id))!.document;
      const read = shownModifiedOn(doc);
      const title = `Saved title ${Date.now()}`;
      await setLine(doc, 'title', JSON.stringify(title));
      const rows: string[] = [];
      const sub = dam.explorer.provider.onDidChangeTreeData((n) => {
        if (n && !Array.isArray(n) && (n as ExplorerNode).kind === 'record' && (n as Rec).id === id) rows.push((n as Rec).record.title ?? '');
      });
      try {
        assert.deepEqual(await save(doc), []);
        const tenant = (await edits.open(id)).document;
        assert.equal(tenant.title, title);
        assert.notEqual(tenant.readOnly.modifiedOn, read);
        // The document moved to its new title's URI as a renamed file moves (one editor, no second tab), and reloads the
        // record as the tenant holds it: its new dates, the same text a new read prints.
        const documents = dam.records.load().documents;
        const to = documents.uriOf(id, title).toString();
        const moved = await until('the document under its new title, showing the tenant’s version', () => {
          const d = vscode.workspace.textDocuments.find((t) => t.uri.toString() === to && !t.isClosed);
          return d && shownModifiedOn(d) === tenant.readOnly.modifiedOn && !d.isDirty && d;
        });
        assert.ok(doc.isClosed, 'the document under the old title is still open');
        const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && [doc.uri.toString(), to].includes(t.input.uri.toString()));
        assert.deepEqual(tabs.map((t) => (t.input as vscode.TabInputText).uri.toString()), [to]);
        assert.equal(moved.getText(), (await edits.open(id)).text);
        assert.equal(documents.baseOf(moved.uri)?.readOnly.modifiedOn, tenant.readOnly.modifiedOn);
        // The tree's rows of the record were told its new title (redrawn from the change, nothing read again).
        if (rows.length) assert.equal(rows[rows.length - 1], title);
      } finally {
        sub.dispose();
      }
    });

    it('Revert after a save resets the base: the read-only section is no edit and the next save goes through', async () => {
      const id = await someRecordId('ContentType = Document');
      const edits = dam.connections.session!.client.recordEdits;
      const doc = (await vscode.commands.executeCommand<vscode.TextEditor>('dam.records.open', id))!.document;
      await setLine(doc, 'Photographer', JSON.stringify(`First ${Date.now()}`));
      assert.deepEqual(await save(doc), []);
      await setLine(doc, 'Photographer', '"Not kept"');
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await until('the revert', () => !doc.isDirty);
      const tenant = (await edits.open(id)).document;
      assert.equal(shownModifiedOn(doc), tenant.readOnly.modifiedOn, 'the reverted text is not the tenant’s version');
      assert.equal(dam.records.load().documents.baseOf(doc.uri)?.readOnly.modifiedOn, tenant.readOnly.modifiedOn, 'base and tenant drifted apart');
      const problems = await dam.records.load().diagnostics.check(doc);
      assert.deepEqual(problems.map((p) => p.message), []);
      const second = `Second ${Date.now()}`;
      await setLine(doc, 'Photographer', JSON.stringify(second));
      assert.deepEqual(await save(doc), []);
      assert.equal((await edits.open(id)).document.fields.Photographer, second);
    });

    it('Overwrite after a conflict writes exactly what the editor shows', async () => {
      const id = await someRecordId('ContentType = Document');
      const edits = dam.connections.session!.client.recordEdits;
      const doc = (await vscode.commands.executeCommand<vscode.TextEditor>('dam.records.open', id))!.document;
      const mine = parse(doc.getText()).fields;
      await setLine(doc, 'Photographer', '"Mine"');
      // Another client changes two other fields meanwhile.
      await theirs(id, { PublicationDate: '2030-01-02', Keywords: ['theirs-one', 'theirs-two'] });
      assert.deepEqual(await save(doc), ['not saved'], 'saved over the newer version without asking');
      // The user chose their version (VS Code's "Use your changes and overwrite" writes without the mtime check).
      await vscode.workspace.fs.writeFile(doc.uri, new TextEncoder().encode(doc.getText()));
      const tenant = (await edits.open(id)).document;
      assert.deepEqual(tenant.fields, { ...mine, Photographer: 'Mine' }, 'the tenant does not hold what the editor shows');
    });

    it('a save of a record deleted on the tenant says so, sends nothing, and the record leaves the tree', async () => {
      const client = dam.connections.session!.client;
      const provider = dam.explorer.provider;
      const cls = (await client.classifications.create({ name: `records-e2e-gone-${Date.now()}` })).id;
      const { token } = await client.uploads.upload({ filename: 'gone.txt', data: new TextEncoder().encode('gone') });
      const created = await client.files.createRecordFromUpload({ token, filename: 'gone.txt', title: `e2e gone ${Date.now()}`, contentType: 'Document', classificationIds: [cls] });
      provider.refresh();
      const node = (await provider.getChildren()).find((n): n is Cls => n.kind === 'classification' && n.id === cls);
      assert.ok(node, 'the new classification is not in the tree');
      await until('the record’s row', async () => (await provider.getChildren(node)).some((n) => n.kind === 'record' && n.id === created.id));
      const doc = (await vscode.commands.executeCommand<vscode.TextEditor>('dam.records.open', created.id))!.document;
      await setLine(doc, 'Photographer', '"Too late"');
      // Deleted by another client: the tree has not heard of it.
      await client.recordEdits.delete(created.id);
      assert.ok(provider.pagingOf(cls)?.rows.some((r) => r.id === created.id));
      const refusals = await save(doc);
      assert.ok(refusals.some((r) => /deleted on the tenant/.test(r)), `the refusal: ${refusals.join('; ')}`);
      assert.ok(doc.isDirty, 'the text was lost');
      assert.ok(!provider.pagingOf(cls)?.rows.some((r) => r.id === created.id), 'the deleted record is still in the DAM Explorer');
    });

    // Across the internet the editor waited for the save's re-read (and a stat after it): 4 round trips, not 2.
    it('shows the save done once the update is accepted; the re-read follows, and typing on meanwhile is no conflict', async () => {
      const id = await someRecordId('ContentType = Document');
      const edits = dam.connections.session!.client.recordEdits;
      const documents = dam.records.load().documents;
      const doc = (await vscode.commands.executeCommand<vscode.TextEditor>('dam.records.open', id))!.document;
      await setLine(doc, 'Photographer', JSON.stringify(`Held ${Date.now()}`));
      // The re-read after the PUT is held back until released.
      const open = edits.open.bind(edits);
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let held = 0;
      edits.open = async (recordId, signal) => {
        held++;
        await released;
        return open(recordId, signal);
      };
      let saving: Promise<string[]>;
      try {
        saving = save(doc);
        await until('the editor showing the save done while the record is not read again yet', () => !doc.isDirty && held > 0);
        // The user types on before the re-read answered.
        const second = `Second ${Date.now()}`;
        await setLine(doc, 'Photographer', JSON.stringify(second));
        release();
        assert.deepEqual(await saving, []);
        await documents.settled(doc.uri);
        edits.open = open;
        // The next save finds the tenant at the version the first one made: no "newer on the tenant" conflict.
        assert.deepEqual(await save(doc), []);
        assert.equal((await edits.open(id)).document.fields.Photographer, second);
        await until('the editor showing the tenant’s version', async () => !doc.isDirty && shownModifiedOn(doc) === (await edits.open(id)).document.readOnly.modifiedOn);
      } finally {
        release();
        edits.open = open;
      }
    });

    it('a save refreshes the record’s read-only JSON view', async () => {
      const id = await someRecordId('ContentType = Document');
      const view = await vscode.workspace.openTextDocument(recordUri(id, 'view'));
      await vscode.window.showTextDocument(view, { preview: false });
      const doc = (await vscode.commands.executeCommand<vscode.TextEditor>('dam.records.open', id))!.document;
      const title = `Viewed title ${Date.now()}`;
      assert.ok(!view.getText().includes(title));
      await setLine(doc, 'title', JSON.stringify(title));
      assert.deepEqual(await save(doc), []);
      await until('the JSON view showing the saved title', () => view.getText().includes(title));
    });

    it('a closed record document leaves no problems behind', async () => {
      const doc = (await vscode.commands.executeCommand<vscode.TextEditor>('dam.records.open', await someRecordId()))!.document;
      await setLine(doc, 'PublicationDate', '"next Tuesday"');
      await until('the problem in the editor', () => vscode.languages.getDiagnostics(doc.uri).some((d) => d.source === 'DAM record'));
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      await until('no problems left', () => !vscode.languages.getDiagnostics(doc.uri).some((d) => d.source === 'DAM record'));
      // The check the revert's change scheduled finds nothing to show for a document no tab shows.
      assert.deepEqual(await dam.records.load().diagnostics.check(doc), []);
      assert.deepEqual(vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'DAM record').map((d) => d.message), []);
    });
  });

  it('changes status, classifies by a drop and deletes from the tree, redrawing only those rows', async () => {
    const provider = dam.explorer.provider;
    const client = dam.connections.session!.client;
    // Two classifications of its own: the first root classification may be another suite's with hundreds of records
    // (explorerCost's sorts first), and a new record on a later page than the first is rightly not shown.
    const stamp = Date.now();
    const ids = [];
    for (const end of ['from', 'to']) ids.push((await client.classifications.create({ name: `records-e2e-${end}-${stamp}` })).id);
    provider.refresh();
    const roots = (await provider.getChildren()).filter((n): n is Cls => n.kind === 'classification');
    const [from, to] = ids.map((id) => roots.find((n) => n.id === id));
    assert.ok(from && to, 'the two new root classifications');
    // A record of its own, in a classification that is loaded in the tree.
    const title = `e2e record ${stamp}`;
    const { token } = await client.uploads.upload({ filename: 'e2e.txt', data: new TextEncoder().encode('e2e') });
    const created = await client.files.createRecordFromUpload({ token, filename: 'e2e.txt', title, contentType: 'Document', classificationIds: [from.id] });
    provider.refresh(from);
    const row = await until('the new record under its classification', async () => (await provider.getChildren(from)).find((n): n is Rec => n.kind === 'record' && n.id === created.id));
    await provider.getChildren(to);
    let refreshedAll = false;
    const sub = provider.onDidChangeTreeData((node) => (refreshedAll ||= node === undefined));
    try {
      await vscode.commands.executeCommand('dam.records.changeStatus', row, [row], 'Archived');
      assert.equal(row.record.status, 'Archived');
      assert.equal((await client.recordEdits.readRecord(created.id)).status, 'Archived');

      const transfer = new vscode.DataTransfer();
      transfer.set(RECORD_ROWS_MIME, new vscode.DataTransferItem([row]));
      await vscode.workspace.getConfiguration('dam').update('records.dropOnClassification', 'move', vscode.ConfigurationTarget.Global);
      await dam.explorer.dragAndDrop.handleDrop(to, transfer, new vscode.CancellationTokenSource().token);
      const classes = (await client.recordEdits.readRecord(created.id)).classifications?.map((c) => c.id.replace(/-/g, '')) ?? [];
      assert.deepEqual(classes, [to.id.replace(/-/g, '')]);
      assert.ok(provider.pagingOf(to.id)?.rows.some((r) => r.id === created.id), 'not shown under the classification it was moved to');
      assert.ok(!provider.pagingOf(from.id)?.rows.some((r) => r.id === created.id), 'still shown where it was');

      const moved = (await provider.getChildren(to)).find((n): n is Rec => n.kind === 'record' && n.id === created.id)!;
      assert.equal(await dam.records.load().edits.delete([{ id: moved.id, title }], { confirm: false }), true);
      await assert.rejects(client.recordEdits.readRecord(created.id), (err: { status?: number }) => err.status === 404);
      assert.ok(!provider.pagingOf(to.id)?.rows.some((r) => r.id === created.id), 'the deleted record is still shown');
      assert.equal(refreshedAll, false, 'the whole tree was refreshed');
    } finally {
      sub.dispose();
      await vscode.workspace.getConfiguration('dam').update('records.dropOnClassification', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('updates every record a query matches after a dry run, and reports what changed', async () => {
    const client = dam.connections.session!.client;
    const keyword = `e2ebulk${Date.now()}`;
    const expression = 'ContentType = Video';
    const matched = (await client.search.records({ expression, pageSize: 100 })).totalCount ?? 0;
    assert.ok(matched > 0);
    let dryRun: string[] = [];
    const outcome = await dam.records.load().bulk.run(
      { expression, name: 'videos' },
      {
        edits: { set: { Photographer: keyword } },
        confirm: async (plan, lines) => {
          dryRun = lines;
          assert.equal(plan.items.length + plan.unchanged.length + plan.refused.length, matched);
          return true;
        },
      },
    );
    assert.ok(outcome?.report);
    assert.match(dryRun[0], new RegExp(`^${matched} records?`));
    assert.equal(outcome.report.changed.length, outcome.plan.items.length);
    assert.equal(outcome.report.failed.length, 0);
    const check = await client.search.records({ expression: `${expression} AND FieldName('Photographer') = "${keyword}"`, pageSize: 1 });
    assert.equal(check.totalCount, outcome.plan.items.length);
  });
});
