// Second walk of issue 27: two criteria on two lines of a .dam-query (`Title contains harbour`, then
// `Status = Released`) found 368 records, most of them not about harbours, without a word: criteria side by side
// are joined by the default OR. The editor now says so on the second criterion, and its quick fix "Join with AND"
// makes the query find what was meant.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { activeWebview, openFile } from './workbench.mjs';

export const title = 'query editor: criteria side by side are noted as joined by OR, and Join with AND fixes it';
export const workbench = 'emulator';

function editor(page) {
  return page.locator('.part.editor .editor-group-container.active .monaco-editor').first();
}

export default async function run({ page, screenshot, workspace }) {
  writeFileSync(join(workspace, 'harbour.dam-query'), '### Harbour\n# @name Released harbours\nTitle contains harbour\nStatus = Released\n');
  await openFile(page, join(workspace, 'harbour.dam-query'));
  await editor(page).locator('.squiggly-info').first().waitFor({ state: 'visible', timeout: 30_000 });
  await editor(page).locator('.view-lines').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  const item = page.locator('.action-widget .monaco-list-row.action', { hasText: 'Join with AND' }).first();
  for (let attempt = 0; ; attempt++) {
    await page.keyboard.press('Control+.');
    if (await item.waitFor({ state: 'visible', timeout: 3000 }).then(() => true, () => false)) break;
    const offered = await page.locator('.action-widget').innerText().catch(() => '(no menu)');
    await page.keyboard.press('Escape');
    if (attempt === 4) throw new Error(`no quick fix "Join with AND"; offered: ${offered}`);
  }
  await screenshot('implicit-or-fix');
  await item.click();
  await editor(page).locator('.view-lines', { hasText: 'AND Status = Released' }).waitFor({ state: 'visible', timeout: 15_000 });
  await page.waitForFunction(() => document.querySelectorAll('.part.editor .editor-group-container.active .squiggly-info').length === 0, null, { timeout: 15_000 });

  // Run: every title found holds the word (before the fix, 'Misty backpack teaser 45' came first).
  await page.keyboard.press('Control+Enter');
  const results = activeWebview(page);
  await results.locator('.stats', { hasText: 'loaded' }).waitFor({ state: 'visible', timeout: 60_000 });
  const titles = await results.locator('[role="gridcell"][data-col="1"]').evaluateAll((cells) => cells.map((c) => c.textContent ?? ''));
  const off = titles.filter((t) => !/harbour/i.test(t));
  if (titles.length === 0 || off.length) throw new Error(`titles without "harbour": ${JSON.stringify(off.slice(0, 5))}`);
}
