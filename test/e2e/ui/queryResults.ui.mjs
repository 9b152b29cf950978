// A person writes a query in a .dam-query file, runs it from the code lens, and scrolls the results:
// the table pages by cursor as it scrolls, and the screenshots show it in the workbench's theme.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { activeWebview, openFile } from './workbench.mjs';

export const title = 'query results: run a .dam-query from its code lens and scroll through the pages';
export const workbench = 'emulator';

export default async function run({ page, screenshot, workspace }) {
  writeFileSync(join(workspace, 'images.dam-query'), '### Images\n# @name Images by title\n# @sort Title\nContentType = Image\n');
  await openFile(page, join(workspace, 'images.dam-query'));

  const lens = page.locator('.codelens-decoration a', { hasText: 'Run' }).first();
  await lens.waitFor({ state: 'visible', timeout: 60_000 });
  await lens.click();

  const panel = activeWebview(page);
  const stats = panel.locator('.stats');
  await stats.filter({ hasText: /results · 50 loaded/ }).waitFor({ state: 'visible', timeout: 60_000 });
  const total = Number((await stats.innerText()).match(/^([\d,]+) results/)?.[1].replace(/,/g, ''));
  if (!(total > 100)) throw new Error(`expected more than 100 images, the panel says: ${await stats.innerText()}`);
  const rendered = await panel.locator('.body .row').count();
  if (rendered >= 50) throw new Error(`the table drew ${rendered} rows: it should draw only those in view`);
  await screenshot('query-results');

  // Scrolling to the end of what is loaded fetches the next page.
  await panel.locator('.viewport').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await stats.filter({ hasText: /results · 100 loaded/ }).waitFor({ state: 'visible', timeout: 60_000 });
  await panel.locator('.body .row').first().waitFor({ state: 'visible' });
  await screenshot('query-results-scrolled');
}
