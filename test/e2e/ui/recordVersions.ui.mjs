// A record document's versions, as a person meets them from the packaged extension (STYLE.md principle 15): after a
// save the editor and the DAM Explorer show what the tenant holds (new dates, the new title on the row); File: Revert
// File after a save leaves a document that saves again; Add to Classification says what it did and Undo takes it back;
// a save of a record deleted on the tenant says so and offers Save As and Close. The conflict's Compare and Overwrite
// are in records.ui.mjs.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chooseFromMenu, clickNotificationButton, contextMenu, dam, findInDam, notificationMessages, openNotifications, rowAt, runCommand, treeRow, treeRows, waitForNotification } from './workbench.mjs';
import { replaceValue } from './records.ui.mjs';

export const title = 'record versions: a save refreshes editor and tree, Revert then save, classify with Undo, a record deleted meanwhile';
export const workbench = 'emulator';

const recordOf = (runDir, id) => JSON.parse(dam(runDir, 'records', 'get', id, '--json'));

/** The lines the active editor renders (the whole record fits: the editor is tall enough in these tests' window). */
const activeLines = (page) => page.locator('.part.editor .editor-group-container.active .monaco-editor .view-lines').first();

export default async function run({ page, runDir, screenshot }) {
  // A record of its own (it is renamed and deleted here; other tests count the demo tenant's), found by its title.
  const words = `Versions ${Date.now()}`;
  const file = join(runDir, `${words}.txt`);
  writeFileSync(file, 'a record for the record-versions UI test\n');
  const [uploaded] = JSON.parse(dam(runDir, 'upload', file, '--classification', '/Products', '--json'));
  const id = uploaded.recordId;
  if (!id) throw new Error(`the upload made no record: ${JSON.stringify(uploaded)}`);
  const first = recordOf(runDir, id);
  const original = first.title;
  await findInDam(page, words);
  const rows = await treeRows(page);
  const row = rows.find((r) => r.label.startsWith(original));
  if (!row) throw new Error(`no row for ${original}`);
  await contextMenu(page, rowAt(page, row.index), 'Open Record');
  await page.locator('.tabs-container .tab', { hasText: '.dam-record.json' }).first().waitFor({ state: 'visible', timeout: 60_000 });
  await page.locator('.part.editor .view-lines', { hasText: '"readOnly"' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  const dirtyTab = page.locator('.tabs-container .tab.dirty', { hasText: '.dam-record.json' }).first();

  // 1. A save: the tenant takes the new title, the editor then shows the tenant's new modification date, and the
  // DAM Explorer's row the new title.
  const renamed = `${original} (renamed)`;
  await replaceValue(page, 'title', JSON.stringify(renamed));
  await dirtyTab.waitFor({ state: 'visible' });
  await page.keyboard.press('Control+S');
  await dirtyTab.waitFor({ state: 'detached', timeout: 60_000 });
  const saved = recordOf(runDir, id);
  if (saved.title !== renamed) throw new Error(`the tenant holds the title ${saved.title}`);
  if (saved.readOnly.modifiedOn === first.readOnly.modifiedOn) throw new Error('the save did not change modifiedOn');
  // The read-only section is at the end: shown there, the tenant's new date.
  await activeLines(page).click();
  await page.keyboard.press('Control+End');
  await activeLines(page).filter({ hasText: saved.readOnly.modifiedOn }).waitFor({ state: 'visible', timeout: 30_000 });
  await treeRow(page, renamed).waitFor({ state: 'visible', timeout: 30_000 });
  await screenshot('record-saved');

  // 2. Revert after that save: the document is the tenant's version again, and the next save goes through.
  await replaceValue(page, 'Photographer', '"Not kept"');
  await dirtyTab.waitFor({ state: 'visible' });
  await runCommand(page, 'File: Revert File');
  await dirtyTab.waitFor({ state: 'detached', timeout: 30_000 });
  await replaceValue(page, 'Photographer', '"After the revert"');
  await dirtyTab.waitFor({ state: 'visible' });
  await page.keyboard.press('Control+S');
  // The wait that loses the race is stopped: a notification wait left running toggles the notification centre for a
  // minute, and each toggle closes the quick pick of step 3.
  const refusal = new globalThis.AbortController();
  const outcome = await Promise.race([
    dirtyTab.waitFor({ state: 'detached', timeout: 60_000 }).then(() => 'saved'),
    waitForNotification(page, /not saved/i, 60_000, refusal.signal).then((m) => `refused: ${m}`, (e) => `no notification: ${e.message}`),
  ]).finally(() => refusal.abort());
  if (outcome !== 'saved') throw new Error(`the save after Revert was ${outcome}`);
  if (recordOf(runDir, id).fields.Photographer !== 'After the revert') throw new Error('the save after Revert did not reach the tenant');
  if (await page.locator('.part.editor .squiggly-error').count()) throw new Error('the document shows an error after Revert and save');
  // The save shows done once the tenant took it; the editor then reloads the tenant's version (its new modifiedOn).
  const afterRevert = recordOf(runDir, id);
  await activeLines(page).filter({ hasText: afterRevert.readOnly.modifiedOn }).waitFor({ state: 'visible', timeout: 30_000 });

  // 3. Add to Classification from the row's menu: a notification says so, and its Undo takes the record out again.
  const known = ['/Products/Kitchen', '/Products/Garden', '/Products/Outdoor', '/Products/Office'];
  const target = known.find((c) => !recordOf(runDir, id).classifications.includes(c));
  // Not `contextMenu`: its fallback (Enter on a menu still shown) would accept the quick pick. A quick pick closes when
  // something takes the focus (a row redrawn, the editor reloading): then it is opened again.
  for (let attempt = 1; ; attempt++) {
    try {
      await page.keyboard.press('Escape');
      await chooseFromMenu(page, treeRow(page, renamed), 'Add to Classification');
      const input = page.locator('.quick-input-widget:visible input').first();
      await input.fill(target.slice(1), { timeout: 10_000 });
      await page.locator(`.quick-input-widget:visible .quick-input-list .monaco-list-row[aria-label="${target}"]`).first().click({ timeout: 10_000 });
      break;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
  await waitForNotification(page, new RegExp(`Added “.*” to ${target}`), 60_000);
  if (!recordOf(runDir, id).classifications.includes(target)) throw new Error(`not added to ${target}`);
  await clickNotificationButton(page, new RegExp(`Added “.*” to ${target}`), 'Undo');
  for (let i = 0; recordOf(runDir, id).classifications.includes(target); i++) {
    if (i === 60) throw new Error(`Undo left the record in ${target}`);
    await page.waitForTimeout(500);
  }

  // 4. The record is deleted on the tenant while the user edits it: the save says so, in the extension's words,
  // offering Save As and Close, and Close closes the editor.
  await replaceValue(page, 'Photographer', '"Too late"');
  await dirtyTab.waitFor({ state: 'visible' });
  dam(runDir, 'records', 'delete', id, '--yes');
  await page.keyboard.press('Control+S');
  await waitForNotification(page, /cannot be saved there/, 60_000);
  const messages = (await notificationMessages(page)).join('\n');
  if (/NoPermissions/.test(messages)) throw new Error(`a NoPermissions error is shown: ${messages}`);
  await screenshot('record-deleted');
  const center = await openNotifications(page);
  const notice = center.locator('.notification-list-item').filter({ has: page.locator('.notification-list-item-message', { hasText: 'cannot be saved there' }) }).first();
  await notice.locator('.monaco-button', { hasText: 'Save As' }).first().waitFor({ state: 'visible' });
  await page.keyboard.press('Escape');
  await clickNotificationButton(page, /cannot be saved there/, 'Close Without Saving');
  await page.locator('.tabs-container .tab', { hasText: '.dam-record.json' }).first().waitFor({ state: 'detached', timeout: 30_000 });
}
