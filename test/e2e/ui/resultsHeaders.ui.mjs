// The results grid's headers (issue 27, item 11): dates read as the explorer's hover writes them and are not cut
// off; ArrowUp from the first row reaches the headers, Enter sorts the loaded rows (aria-sort says how), Alt+Right
// widens a column, and Shift+F10 on a header opens the grid's own menu at the header, not VS Code's generic
// Cut/Copy/Paste in a corner of the window.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { activeWebview, openFile } from './workbench.mjs';

export const title = 'results grid headers: readable dates, sort by keyboard, resize, the header menu at the header';
export const workbench = 'emulator';

export default async function run({ page, screenshot, workspace }) {
  writeFileSync(join(workspace, 'headers.dam-query'), ['### Documents', '# @name Documents by id', '# @sort Id', 'ContentType = Document', ''].join('\n'));
  await openFile(page, join(workspace, 'headers.dam-query'));
  await page.locator('.part.editor .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+Home');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Control+Enter');
  await page.locator('.tabs-container .tab', { hasText: 'DAM: Documents by id' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  const grid = activeWebview(page);
  await grid.locator('[role="gridcell"][data-row="0"][data-col="1"]').waitFor({ state: 'visible', timeout: 60_000 });

  // Dates: `2025-10-11 20:15`, whole.
  const modified = await grid.locator('[role="gridcell"][data-col="4"]').evaluateAll((cells) => cells.slice(0, 5).map((c) => ({ text: c.textContent, cut: c.scrollWidth > c.clientWidth })));
  const bad = modified.filter((m) => !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(m.text ?? '') || m.cut);
  if (modified.length === 0 || bad.length) throw new Error(`dates are not shown whole as YYYY-MM-DD HH:mm: ${JSON.stringify(bad)}`);

  // ArrowUp from the first row: the Title header; Enter sorts by title, Enter again the other way.
  await grid.locator('[role="gridcell"][data-row="0"][data-col="1"]').click();
  await page.keyboard.press('ArrowUp');
  const header = grid.locator('[role="columnheader"][data-col="1"]');
  const focused = await grid.locator('body').evaluate(() => document.activeElement?.getAttribute('role') + ':' + document.activeElement?.textContent);
  if (focused !== 'columnheader:Title') throw new Error(`ArrowUp from the first row focused ${focused}, not the Title header`);
  const titles = () => grid.locator('[role="gridcell"][data-col="1"]').evaluateAll((cells) => cells.map((c) => c.textContent ?? ''));
  const sorted = (list, dir) => [...list].sort((a, b) => dir * a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true }));
  await page.keyboard.press('Enter');
  if ((await header.getAttribute('aria-sort')) !== 'ascending') throw new Error(`after Enter the Title header says aria-sort=${await header.getAttribute('aria-sort')}`);
  let shown = await titles();
  if (JSON.stringify(shown) !== JSON.stringify(sorted(shown, 1))) throw new Error(`the rows are not sorted by title: ${JSON.stringify(shown.slice(0, 6))}`);
  await page.keyboard.press('Enter');
  if ((await header.getAttribute('aria-sort')) !== 'descending') throw new Error('a second Enter does not sort descending');
  shown = await titles();
  if (JSON.stringify(shown) !== JSON.stringify(sorted(shown, -1))) throw new Error(`the rows are not sorted by title, descending: ${JSON.stringify(shown.slice(0, 6))}`);

  // Alt+Right widens the column.
  const width = () => header.evaluate((h) => h.getBoundingClientRect().width);
  const before = await width();
  await page.keyboard.press('Alt+ArrowRight');
  if (!((await width()) > before)) throw new Error(`Alt+ArrowRight did not widen the Title column (${before} px)`);

  // Shift+F10: the grid's own menu, under the header; no generic menu of VS Code.
  await page.keyboard.press('Shift+F10');
  const menu = grid.locator('.menu[role="menu"]');
  await menu.waitFor({ state: 'visible', timeout: 10_000 });
  const items = (await menu.locator('[role="menuitem"]').allInnerTexts()).map((t) => t.trim());
  if (!items.includes('Sort Title ascending') || !items.includes('Reset column widths')) throw new Error(`the header menu offers ${JSON.stringify(items)}`);
  const [menuBox, headerBox] = await Promise.all([menu.boundingBox(), header.boundingBox()]);
  if (!menuBox || !headerBox || Math.abs(menuBox.y - (headerBox.y + headerBox.height)) > 4 || Math.abs(menuBox.x - headerBox.x) > 4) throw new Error(`the menu is not at the header: ${JSON.stringify({ menuBox, headerBox })}`);
  if (await page.locator('.context-view .monaco-menu').isVisible().catch(() => false)) throw new Error("VS Code's generic context menu opened as well");
  await screenshot('results-header-menu');
  // The menu works from the keyboard: Sort ascending is its first item.
  await page.keyboard.press('Enter');
  await menu.waitFor({ state: 'hidden' });
  if ((await header.getAttribute('aria-sort')) !== 'ascending') throw new Error('the menu item did not sort ascending');
  const back = await grid.locator('body').evaluate(() => document.activeElement?.textContent);
  if (back !== 'Title') throw new Error(`after the menu the focus is on ${back}, not back on the header`);
}
