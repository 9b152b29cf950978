// Upload from the palette as a new user does (issue 21, items 7 and 10): the file dialog, "New records",
// a classification picked by name (its path beside it, no id), the defaults accepted with one Enter; the status
// bar counts "1 file" (not "1 file(s)"), and the new record is shown where it landed, selected.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pick, runCommand, treeRows } from './workbench.mjs';

export const title = 'upload: classification by name, "1 file", the new record revealed where it landed';
export const workbench = 'emulator';

export default async function run({ page, screenshot, workspace }) {
  const name = `notes-${Date.now().toString(36)}`;
  writeFileSync(join(workspace, `${name}.md`), '# Notes\n\nThe banner copy is final.\n');
  await runCommand(page, 'DAM: Upload to DAM…', { opensInput: true });
  // code-server's own file dialog: a quick input listing the folder.
  await pick(page, `${name}.md`);
  await pick(page, 'New records');
  const rows = page.locator('.quick-input-list .monaco-list-row');
  await rows.first().waitFor({ state: 'visible', timeout: 30_000 });
  const offered = await rows.allInnerTexts();
  if (offered.some((t) => /\b[0-9a-f]{32}\b/.test(t))) throw new Error(`the classification picker shows ids: ${offered.slice(0, 3).join(' | ')}`);
  await page.locator('.quick-input-widget input').fill('Tableware');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Products / Kitchen' }).first().waitFor({ state: 'visible' });
  await page.keyboard.press('Enter');
  await pick(page, 'Upload');
  await page.locator('.statusbar-item', { hasText: /DAM: uploaded 1 file, / }).first().waitFor({ state: 'visible', timeout: 60_000 });
  await page.locator('.part.sidebar [role="treeitem"][aria-selected="true"]', { hasText: name }).first().waitFor({ state: 'visible', timeout: 60_000 });
  // Products › Kitchen › Tableware › the record (Tableware may show as the tree's sticky header above it).
  const record = (await treeRows(page)).find((r) => r.selected);
  if (record?.level !== 4) throw new Error(`the new record is not shown in its classification: ${JSON.stringify(record)}`);
  await page.locator('.part.sidebar .monaco-list', { hasText: 'Tableware' }).first().waitFor({ state: 'visible' });
  await screenshot('upload-revealed');
}
