// Export CSV… from the analytics builder confirms with a notification whose Open File opens what was written
// (issue 35: the export said nothing outside the panel), as the query results' export does.
import { activeWebview, clickNotificationButton, pick, runCommand } from './workbench.mjs';

export const title = 'analytics export: a notification confirms it, and Open File opens the file';
export const workbench = 'emulator';

export default async function run({ page, screenshot }) {
  await runCommand(page, 'DAM: New Analytics Query', { opensInput: true });
  await pick(page, 'Downloads by month');
  const panel = activeWebview(page);
  await panel.locator('#run').click();
  await panel.locator('#run-status', { hasText: 'rows fetched' }).waitFor({ state: 'visible', timeout: 60_000 });

  await panel.getByRole('button', { name: 'Export CSV…' }).click();
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  // The save dialog fills its input in steps (the folder, then the name): wait for a file name.
  await page.waitForFunction(() => /\.csv$/.test(document.querySelector('.quick-input-widget input')?.value ?? ''), null, { timeout: 15_000 });
  const name = (await input.inputValue()).replace(/^.*\//, '');
  await page.keyboard.press('Enter');
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await clickNotificationButton(page, new RegExp(`Exported [\\d,]+ rows to ${escaped}`), 'Open File');
  await page.locator('.tabs-container .tab.active', { hasText: name }).first().waitFor({ state: 'visible', timeout: 30_000 });
  await screenshot('analytics-export-open-file');
}
