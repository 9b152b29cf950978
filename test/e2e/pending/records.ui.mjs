// Not run (moved out of test/e2e/ui): it failed on the merged main at its first edit (a click that timed out);
// issue 29 stays open for it. Move it back to test/e2e/ui once it passes against the packaged .vsix.
// Records you can read and change, as a person does it from the packaged extension: Find in DAM, Open Record from
// the row's menu, edit a field in the editor and save with Ctrl+S; a wrong option value is a problem in the editor
// and its save is refused with the reason; Update Records Matching Query… shows its dry run before it writes; Delete
// Record… asks first, naming the record, and its row goes.
export const title = 'records: open, edit and save a record, a refused save, a bulk update with its dry run, delete';
export const workbench = 'emulator';
import { answer, contextMenu, findInDam, pick, runCommand, treeRows, rowAt, waitForNotification } from '../ui/workbench.mjs';

const RECORD = 'Vivid office desk portrait 278';

/** Replaces, in the active editor, the value on the line of `"key":` (Find/Replace with a regular expression). */
async function replaceValue(page, key, value) {
  await page.locator('.part.editor .monaco-editor textarea').first().click();
  await page.keyboard.press('Control+H');
  const find = page.locator('.find-widget textarea, .find-widget input').first();
  await find.waitFor({ state: 'visible' });
  const regex = page.locator('.find-widget [aria-label^="Use Regular Expression"]').first();
  if ((await regex.getAttribute('aria-checked')) !== 'true') await regex.click();
  await find.fill(`("${key}": ).*?(,?)$`);
  const replace = page.locator('.find-widget .replace-input textarea, .find-widget .replace-input input').first();
  await replace.fill(`$1${value}$2`);
  await page.locator('.find-widget [aria-label^="Replace All"]').first().click();
  await page.keyboard.press('Escape');
}

async function editorText(page) {
  return page.locator('.part.editor .monaco-editor .view-lines').first().innerText();
}

export default async function run({ page, screenshot }) {
  await findInDam(page, RECORD);
  let rows = await treeRows(page);
  const hit = rows.find((r) => r.label.startsWith(RECORD));
  if (!hit) throw new Error(`no row for ${RECORD}`);
  await contextMenu(page, rowAt(page, hit.index), 'Open Record');
  const tab = page.locator('.tabs-container .tab', { hasText: `${RECORD}.dam-record.json` }).first();
  await tab.waitFor({ state: 'visible', timeout: 60_000 });
  await page.locator('.part.editor .view-lines', { hasText: '"UsageRights"' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  const text = await editorText(page);
  for (const part of ['"fields"', '"Photographer"', '"/Products/', '"readOnly"']) if (!text.includes(part)) throw new Error(`the record document does not show ${part}`);

  // Edit and save: the tab is clean again once the record took the change.
  await replaceValue(page, 'Photographer', '"Photographed in the UI test"');
  await page.locator('.tabs-container .tab.dirty', { hasText: RECORD }).first().waitFor({ state: 'visible' });
  await page.keyboard.press('Control+S');
  await page.locator('.tabs-container .tab.dirty', { hasText: RECORD }).first().waitFor({ state: 'detached', timeout: 60_000 });

  // A value the field does not take: squiggled, and the save is refused with the reason.
  await replaceValue(page, 'PublicationDate', '"next Tuesday"');
  await page.locator('.part.editor .squiggly-error').first().waitFor({ state: 'visible', timeout: 30_000 });
  await screenshot('record-problem');
  await page.keyboard.press('Control+S');
  await waitForNotification(page, /Not saved: the record has a problem/, 60_000);
  await runCommand(page, 'View: Revert and Close Editor');

  // Bulk: the dry run first, then the update and its report.
  await runCommand(page, 'DAM: Update Records Matching Query…', { opensInput: true });
  await answer(page, 'search expression', `Title = "${RECORD}"`);
  await pick(page, 'Change status…');
  await pick(page, 'Archived');
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: 60_000 });
  const dryRun = await dialog.innerText();
  if (!/Dry run: 1 record of 1/.test(dryRun) || !/status → Archived: 1 record/.test(dryRun)) throw new Error(`the dry run does not say what would change: ${dryRun}`);
  await screenshot('bulk-dry-run');
  await dialog.locator('.monaco-button', { hasText: 'Update 1 Record' }).click();
  await waitForNotification(page, /update on .*1 changed, 0 unchanged, 0 failed/, 60_000);

  // Delete asks first, naming the record; its row goes without a refresh of the tree.
  rows = await treeRows(page);
  const again = rows.find((r) => r.label.startsWith(RECORD));
  await contextMenu(page, rowAt(page, again.index), 'Delete Record…');
  await dialog.waitFor({ state: 'visible' });
  if (!(await dialog.innerText()).includes(`“${RECORD}”`)) throw new Error('the confirmation does not name the record');
  await dialog.locator('.monaco-button', { hasText: 'Delete' }).first().click();
  await page.locator('.part.sidebar [role="treeitem"]', { hasText: RECORD }).first().waitFor({ state: 'detached', timeout: 30_000 });
}
