// Quick fixes that lead somewhere (issue 21, item 10): `CreatedOn contains '2024'` offers `>=`, and then the
// value, which is no date, offers `2024-01-01`; after both the query has no problem left.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openFile } from './workbench.mjs';

export const title = 'quick fixes: contains on a date, then a year that is not a date';
export const workbench = 'emulator';

const editor = (page) => page.locator('.part.editor .editor-group-container.active .monaco-editor').first();

/**
 * Goes to the problem whose message matches `problem` (F8, until the checked text shows it) and applies its
 * quick fix titled `fix`.
 */
async function applyFix(page, problem, fix) {
  const marker = page.locator('.marker-widget, .zone-widget', { hasText: problem }).first();
  for (let attempt = 0; ; attempt++) {
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('F8');
    if (await marker.waitFor({ state: 'visible', timeout: 1000 }).then(() => true, () => false)) break;
    await page.keyboard.press('Escape');
    if (attempt === 20) throw new Error(`no problem “${problem}” to fix`);
    await page.waitForTimeout(300);
  }
  await page.keyboard.press('Escape');
  const item = page.locator('.action-widget .monaco-list-row.action', { hasText: fix }).first();
  // The code actions are asked for the text as it is: right after an edit, ask again until they answer.
  for (let attempt = 0; ; attempt++) {
    await page.keyboard.press('Control+.');
    if (await item.waitFor({ state: 'visible', timeout: 3000 }).then(() => true, () => false)) break;
    const offered = await page.locator('.action-widget').innerText().catch(() => '(no menu)');
    await page.keyboard.press('Escape');
    if (attempt === 4) throw new Error(`no quick fix “${fix}”; offered: ${offered}`);
  }
  await item.click();
}

export default async function run({ page, workspace, screenshot }) {
  writeFileSync(join(workspace, 'dates.dam-query'), "### Dates\n# @name Created since 2024\nCreatedOn contains '2024'\n");
  await openFile(page, join(workspace, 'dates.dam-query'));
  await editor(page).locator('.squiggly-error').first().waitFor({ state: 'visible', timeout: 30_000 });
  await editor(page).click();
  await applyFix(page, 'is not allowed on CreatedOn', 'Use `>=`');
  await editor(page).locator('.view-lines', { hasText: "CreatedOn >= '2024'" }).waitFor({ state: 'visible', timeout: 15_000 });
  // The value's own problem shows once the edited text is checked again.
  await applyFix(page, "'2024' is not a date", 'Write `2024-01-01`');
  await editor(page).locator('.view-lines', { hasText: "CreatedOn >= '2024-01-01'" }).waitFor({ state: 'visible', timeout: 15_000 });
  await page.waitForFunction(() => document.querySelectorAll('.part.editor .editor-group-container.active .squiggly-error').length === 0, null, { timeout: 15_000 });
  await screenshot('quick-fix-date');
}
