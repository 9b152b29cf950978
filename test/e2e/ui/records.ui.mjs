// Records you can read and change, as a person does it from the packaged extension: Find in DAM, Open Record from
// the row's menu, edit a field in the editor and save with Ctrl+S; a wrong value is a problem in the editor and its
// save is refused with the reason; a record another client changed after it was opened is not saved over: VS Code's
// own conflict ("the content of the file is newer") offers Compare, and the user's choice there writes exactly what
// the editor shows.
// The tree's edits (delete, classify by drag) and the bulk update are in recordsTree.ui.mjs.
import { clickNotificationButton, contextMenu, dam, findInDam, notificationMessages, rowAt, runCommand, treeRows, waitForNotification } from './workbench.mjs';

export const title = 'records: open, edit and save a record, a refused save, a conflict with another client';
export const workbench = 'emulator';

const RECORD = 'Vivid office desk portrait 278';

/** Replaces, in the active editor, the value on the line of `"key":` (Find/Replace with a regular expression). */
export async function replaceValue(page, key, value) {
  // The editor's text area sits under its rendered lines: a click on them puts the cursor there.
  await page.locator('.part.editor .editor-group-container.active .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+H');
  const find = page.locator('.find-widget .find-part textarea, .find-widget .find-part input').first();
  await find.waitFor({ state: 'visible' });
  const regex = page.locator('.find-widget [aria-label^="Use Regular Expression"]').first();
  if ((await regex.getAttribute('aria-checked')) !== 'true') await regex.click();
  await find.fill(`("${key}": ).*?(,?)$`);
  const replace = page.locator('.find-widget .replace-part textarea, .find-widget .replace-part input').first();
  await replace.fill(`$1${value}$2`);
  await page.locator('.find-widget [aria-label^="Replace All"]').first().click();
  await page.keyboard.press('Escape');
}

export async function editorText(page) {
  return page.locator('.part.editor .editor-group-container.active .monaco-editor .view-lines').first().innerText();
}

function photographerOf(runDir, id) {
  return JSON.parse(dam(runDir, 'records', 'get', id, '--json')).fields.Photographer;
}

// VS Code in a browser auto-saves one second after each edit by default ("files.autoSave": "afterDelay"), and this
// test leaves it so: a record document never auto-saves (each save is a write to the tenant), only Ctrl+S saves it.
export default async function run({ page, runDir, screenshot }) {
  await findInDam(page, RECORD);
  const rows = await treeRows(page);
  const hit = rows.find((r) => r.label.startsWith(RECORD));
  if (!hit) throw new Error(`no row for ${RECORD}`);
  await contextMenu(page, rowAt(page, hit.index), 'Open Record');
  const tab = page.locator('.tabs-container .tab', { hasText: `${RECORD}.dam-record.json` }).first();
  await tab.waitFor({ state: 'visible', timeout: 60_000 });
  await page.locator('.part.editor .view-lines', { hasText: '"UsageRights"' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  const text = await editorText(page);
  for (const part of ['"fields"', '"Photographer"', '"/Products/', '"readOnly"']) if (!text.includes(part)) throw new Error(`the record document does not show ${part}`);
  const id = /"id":\s"([0-9a-f]{32})"/.exec(text)?.[1];
  if (!id) throw new Error(`no record id in the document:\n${text}`);
  const dirtyTab = page.locator('.tabs-container .tab.dirty', { hasText: RECORD }).first();

  // Edit and save: Auto Save (on, code-server's default) leaves the record alone; Ctrl+S saves it, and the tab is
  // clean again once the record took the change.
  const photographer = photographerOf(runDir, id);
  await replaceValue(page, 'Photographer', '"Photographed in the UI test"');
  await dirtyTab.waitFor({ state: 'visible' });
  // Auto Save would have saved a second after the edit: three seconds on, nothing was saved or written.
  await page.waitForTimeout(3000);
  if (!(await dirtyTab.isVisible())) throw new Error('the record document saved itself (Auto Save)');
  if (photographerOf(runDir, id) !== photographer) throw new Error('the record was written without a save');
  await page.keyboard.press('Control+S');
  await dirtyTab.waitFor({ state: 'detached', timeout: 60_000 });
  if (photographerOf(runDir, id) !== 'Photographed in the UI test') throw new Error('the save did not reach the record');

  // A value the field does not take: squiggled, and the save is refused with the reason; nothing is sent.
  await replaceValue(page, 'PublicationDate', '"next Tuesday"');
  await page.locator('.part.editor .squiggly-error').first().waitFor({ state: 'visible', timeout: 30_000 });
  await screenshot('record-problem');
  await page.keyboard.press('Control+S');
  // In the extension's own words, naming the field; VS Code's own notice of the failed write does not repeat it.
  const refusal = await waitForNotification(page, /was not saved: /, 60_000);
  if (!/PublicationDate/.test(refusal)) throw new Error(`the refusal does not name the field: ${refusal}`);
  const wrapped = (await notificationMessages(page)).filter((m) => /Failed to save/.test(m));
  if (wrapped.some((m) => /PublicationDate/.test(m))) throw new Error(`VS Code's notice repeats the reason: ${wrapped.join(' | ')}`);
  if (JSON.parse(dam(runDir, 'records', 'get', id, '--json')).fields.PublicationDate !== '2025-12-31') throw new Error('the refused save wrote something');
  await runCommand(page, 'Notifications: Clear All Notifications');
  await page.locator('.part.editor .editor-group-container.active .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+Z');
  await dirtyTab.waitFor({ state: 'detached', timeout: 15_000 });

  // A conflict: the user edits one field, another client changes two others, the user saves. VS Code says the file
  // is newer and nothing is written; Compare shows the tenant's version beside the user's; the user keeps theirs, and
  // the tenant then holds exactly what the editor showed (their two fields too, not only the one the user changed).
  const shown = JSON.parse(dam(runDir, 'records', 'get', id, '--json')).fields;
  await replaceValue(page, 'Photographer', '"Mine"');
  await dirtyTab.waitFor({ state: 'visible' });
  dam(runDir, 'records', 'update', id, '--set', 'Keywords=theirs', '--set', 'PublicationDate=2030-01-02');
  await page.keyboard.press('Control+S');
  await waitForNotification(page, /content of the file is newer/, 60_000);
  if (photographerOf(runDir, id) === 'Mine') throw new Error('the save went through without the user choosing');
  if (!(await dirtyTab.isVisible())) throw new Error('the edit is no longer unsaved');
  await clickNotificationButton(page, /content of the file is newer/, 'Compare');
  const diff = page.locator('.part.editor .monaco-diff-editor').first();
  await diff.waitFor({ state: 'visible', timeout: 30_000 });
  await diff.locator('.editor.original .view-lines', { hasText: '"theirs"' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  await diff.locator('.editor.modified .view-lines', { hasText: '"Mine"' }).first().waitFor({ state: 'visible' });
  await screenshot('record-conflict');
  if (photographerOf(runDir, id) === 'Mine') throw new Error('comparing wrote the record');
  await page.locator('.part.editor [aria-label^="Use your changes and overwrite"]').first().click();
  await dirtyTab.waitFor({ state: 'detached', timeout: 60_000 });
  const after = JSON.parse(dam(runDir, 'records', 'get', id, '--json')).fields;
  const expected = { ...shown, Photographer: 'Mine' };
  if (JSON.stringify(after) !== JSON.stringify(expected)) throw new Error(`after Overwrite the tenant holds ${JSON.stringify(after)}, the editor showed ${JSON.stringify(expected)}`);
}
