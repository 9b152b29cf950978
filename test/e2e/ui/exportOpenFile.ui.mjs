// Export CSV from the results panel, then Open File from the notification (issue 27, item 11 and the second walk):
// the button opens the file that was written, and the CSV holds what a person reads in a spreadsheet: an
// option-list value by its label (`Internal only`), not the option's id. Issue 35: the file is proposed under the
// query file's and the query's name (`internal – Internal use.csv`), and its rows come in the grid's sort.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { activeWebview, clickNotificationButton, dam, openFile } from './workbench.mjs';

export const title = 'export CSV, then Open File opens it; option values are written by their labels';
export const workbench = 'emulator';

export default async function run({ page, runDir, screenshot, workspace }) {
  writeFileSync(join(workspace, 'internal.dam-query'), ['### Internal', '# @name Internal use', "FieldName('UsageRights') = InternalOnly", ''].join('\n'));
  await openFile(page, join(workspace, 'internal.dam-query'));
  await page.locator('.codelens-decoration a', { hasText: 'Run' }).first().click();
  const results = activeWebview(page);
  await results.locator('.stats', { hasText: 'loaded' }).waitFor({ state: 'visible', timeout: 60_000 });

  // Title, descending (a click sorts ascending, a second descending): the export follows the grid's sort.
  const title = results.locator('[role="columnheader"][data-col="1"]');
  for (let i = 0; i < 2 && (await title.getAttribute('aria-sort')) !== 'descending'; i++) await title.click();
  if ((await title.getAttribute('aria-sort')) !== 'descending') throw new Error('the Title header does not sort descending');

  await results.locator('button', { hasText: 'Export CSV' }).click();
  // The save dialog (code-server's simple dialog) proposes the workspace and the query's name: accept it.
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  // The dialog fills its input in steps (the folder, then the name): wait for a file name.
  await page.waitForFunction(() => /\.csv$/.test(document.querySelector('.quick-input-widget input')?.value ?? ''), null, { timeout: 15_000 });
  const proposed = await input.inputValue();
  if (!proposed.endsWith('/internal – Internal use.csv')) throw new Error(`the save dialog proposes ${proposed}`);
  await page.keyboard.press('Enter');
  const file = join(workspace, 'internal – Internal use.csv');

  await clickNotificationButton(page, /Exported \d+ rows to internal – Internal use\.csv/, 'Open File');
  await page.locator('.tabs-container .tab.active', { hasText: 'internal – Internal use.csv' }).waitFor({ state: 'visible', timeout: 30_000 });
  await page.locator('.part.editor .view-lines', { hasText: 'field: UsageRights' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  await screenshot('export-open-file');

  if (!existsSync(file)) throw new Error(`no ${file}`);
  const [header, ...rows] = readFileSync(file, 'utf8').split('\r\n').filter((l) => l);
  const column = header.split(',').indexOf('field: UsageRights');
  if (column < 0) throw new Error(`no UsageRights column: ${header}`);
  // Only the first columns before UsageRights could hold quoted commas (titles have none in the demo tenant).
  const values = new Set(rows.map((r) => r.split(',')[column]));
  if (rows.length === 0 || values.size !== 1 || !values.has('Internal only')) throw new Error(`UsageRights cells: ${[...values].join(' | ')}`);

  // The rows in the order the grid shows them: the service's Title descending, every page.
  const ids = rows.map((r) => r.split(',')[header.split(',').indexOf('id')]);
  const sorted = dam(runDir, 'search', "FieldName('UsageRights') = InternalOnly", '--sort', 'Title desc', '--all', '--json')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).id);
  if (JSON.stringify(ids) !== JSON.stringify(sorted)) throw new Error(`the CSV is not in the grid's order (Title descending): ${ids.slice(0, 5).join(', ')} … vs ${sorted.slice(0, 5).join(', ')} …`);
}
