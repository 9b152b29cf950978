// The query results as a grid (issue 21, item 9) and what its rows open (item 6). In the side panel the
// table scrolls sideways instead of cutting columns off; it is one tab stop, arrows move between cells,
// Enter opens the row's preview: a read-only dam: document named after the record (its data as JSON for a
// document without an image, its preview image for an image), never an "Untitled" editor or a file named
// by a hash. The context menu (Shift+F10) offers Reveal, which expands the record's classification path in
// the DAM Explorer and selects it there.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { activeWebview, openFile, treeRows } from './workbench.mjs';

export const title = 'results grid: sideways scroll, one tab stop, arrows, Enter opens a dam: preview, Reveal selects the record in its place';
export const workbench = 'emulator';

/** Where the focus is inside the results webview: its cell's row and column, or null. */
async function focusedCell(grid) {
  return grid.locator('body').evaluate(() => {
    const el = document.activeElement;
    return el?.getAttribute('role') === 'gridcell' ? { row: Number(el.dataset.row), col: Number(el.dataset.col), text: el.textContent } : null;
  });
}

async function runQueryAt(page, line) {
  await page.locator('.part.editor .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+Home');
  for (let i = 0; i < line; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Control+Enter');
}

export default async function run({ page, screenshot, workspace }) {
  writeFileSync(
    join(workspace, 'grid.dam-query'),
    ['### Documents', '# @name Documents, last titles first', '# @sort Title desc', 'ContentType = Document', '', '### Images', '# @name Images', '# @sort Title', 'ContentType = Image', ''].join('\n'),
  );
  await openFile(page, join(workspace, 'grid.dam-query'));
  await runQueryAt(page, 3);
  await page.locator('.tabs-container .tab', { hasText: 'DAM: Documents, last titles first' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  const grid = activeWebview(page);
  await grid.locator('.stats', { hasText: 'loaded' }).waitFor({ state: 'visible', timeout: 60_000 });
  await grid.locator('[role="gridcell"][data-col="1"]').first().waitFor({ state: 'visible' });

  // Narrow side panel: every column is there, reached by scrolling sideways.
  const widths = await grid.locator('.viewport').evaluate((v) => ({ scroll: v.scrollWidth, client: v.clientWidth }));
  if (!(widths.scroll > widths.client)) throw new Error(`the table does not scroll sideways in the side panel: ${JSON.stringify(widths)}`);
  const idHeader = grid.locator('[role="columnheader"]', { hasText: 'Id' });
  if (!(await idHeader.isVisible())) throw new Error('the Id column is hidden in the side panel');

  // One tab stop; arrows move; Tab leaves the grid and comes back to the same cell.
  const stops = await grid.locator('.body [tabindex="0"]').count();
  if (stops !== 1) throw new Error(`the grid has ${stops} tab stops among its rows`);
  if ((await grid.locator('.body button').count()) > 0) throw new Error('rows still carry buttons (three tab stops each)');
  await grid.locator('[role="gridcell"][data-row="0"][data-col="1"]').click();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  let at = await focusedCell(grid);
  if (at?.row !== 3 || at?.col !== 2) throw new Error(`after three ArrowDown and one ArrowRight the focus is on ${JSON.stringify(at)}`);
  await page.keyboard.press('ArrowLeft');
  const title = (await focusedCell(grid)).text;
  await page.keyboard.press('Shift+Tab');
  const before = await grid.locator('body').evaluate(() => document.activeElement?.textContent ?? '');
  if (before !== 'Export JSON') throw new Error(`Shift+Tab from the grid went to “${before}”, not to the button before it`);
  await page.keyboard.press('Tab');
  at = await focusedCell(grid);
  if (at?.row !== 3 || at?.col !== 1) throw new Error(`Tab came back to ${JSON.stringify(at)}, not to the cell left`);
  await screenshot('results-grid');

  // Enter: the document's data, read-only, in a tab named after the record.
  await page.keyboard.press('Enter');
  const tab = page.locator('.tabs-container .tab.active', { hasText: `${title}.json` });
  await tab.waitFor({ state: 'visible', timeout: 30_000 });
  if ((await page.locator('.tabs-container .tab', { hasText: /Untitled/ }).count()) > 0) throw new Error('Preview opened an Untitled editor');
  const preview = page.locator('.part.editor .editor-group-container.active .monaco-editor .view-lines');
  await preview.filter({ hasText: '"title"' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  await preview.first().click();
  await page.keyboard.type('x');
  if ((await preview.first().innerText()).includes('x{') || (await preview.first().innerText()).startsWith('x')) throw new Error('the preview took the typed text');
  if (await tab.evaluate((t) => t.classList.contains('dirty'))) throw new Error('the preview could be edited (its tab is dirty)');

  // Reveal from the context menu, opened from the keyboard: the record selected where it lives.
  await page.locator('.tabs-container .tab', { hasText: 'DAM: Documents, last titles first' }).first().click();
  await grid.locator('[role="gridcell"][data-row="3"][data-col="1"]').click();
  await page.keyboard.press('Shift+F10');
  const reveal = page.locator('.monaco-menu .action-item', { hasText: 'Reveal in DAM Explorer' }).first();
  await reveal.waitFor({ state: 'visible', timeout: 15_000 });
  const entries = (await page.locator('.monaco-menu .action-item').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
  for (const e of ['Open Preview', 'Reveal in DAM Explorer', 'Copy Id']) if (!entries.some((t) => t.startsWith(e))) throw new Error(`the row's menu offers ${JSON.stringify(entries)}`);
  await reveal.hover();
  await reveal.locator('.action-menu-item').click();
  await page.locator('.part.sidebar [role="treeitem"][aria-selected="true"]', { hasText: title }).first().waitFor({ state: 'visible', timeout: 60_000 });
  const rows = await treeRows(page);
  const selected = rows.find((r) => r.selected);
  if (selected?.label !== title) throw new Error(`Reveal selected ${JSON.stringify(selected)}, not “${title}”`);
  if (rows.some((r) => r.label.startsWith('Results for'))) throw new Error('Reveal showed the record as a search result, not in its classification');
  const parents = rows.filter((r) => r.index < selected.index && r.level < selected.level && r.expanded === 'true');
  if (parents.length < selected.level - 1) throw new Error(`the path to the record is not expanded: ${JSON.stringify(parents)}`);
  await screenshot('results-reveal');

  // Enter on an image: its preview image, named after the record.
  await openFile(page, join(workspace, 'grid.dam-query'));
  await runQueryAt(page, 8);
  await page.locator('.tabs-container .tab', { hasText: 'DAM: Images' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  const images = activeWebview(page);
  await images.locator('[role="gridcell"][data-row="0"][data-col="1"]').waitFor({ state: 'visible', timeout: 60_000 });
  const imageTitle = (await images.locator('[role="gridcell"][data-row="0"][data-col="1"]').innerText()).trim();
  await images.locator('[role="gridcell"][data-row="0"][data-col="1"]').click();
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab.active', { hasText: `${imageTitle} (preview).png` }).waitFor({ state: 'visible', timeout: 30_000 });
}
