// Create Renditions from a record's menu (issue 21, item 10): the message says what was made, of which record
// (by title) and under which file names, with a button to open it; no maintenance job id.
import { contextMenu, expand, treeRow, openNotifications, waitForNotification } from './workbench.mjs';

export const title = 'renditions: the message names the record and the files made, not the job';
export const workbench = 'emulator';

export default async function run({ page, screenshot }) {
  await expand(page, treeRow(page, 'Products'));
  const image = page.locator('.part.sidebar [role="treeitem"][aria-level="2"]').filter({ has: page.locator('.codicon-file-media') }).first();
  const title = (await image.locator('.label-name').innerText()).trim();
  await contextMenu(page, image, 'Create Renditions…');
  const preset = page.locator('.quick-input-list .monaco-list-row', { hasText: 'thumbnail' }).first();
  await preset.waitFor({ state: 'visible', timeout: 30_000 });
  // In a pick-many list a click on the row ticks it; OK sends.
  await preset.locator('.label-name').first().click();
  await page.locator('.quick-input-widget .quick-input-count, .quick-input-widget .monaco-count-badge', { hasText: '1' }).first().waitFor({ state: 'visible', timeout: 10_000 });
  await page.locator('.quick-input-widget .monaco-button', { hasText: 'OK' }).first().click();
  const text = await waitForNotification(page, /^DAM: made /, 60_000);
  if (/\b[0-9a-f]{32}\b|job /i.test(text)) throw new Error(`the message shows the job: ${text}`);
  if (!text.includes(`“${title}”: thumbnail.png`) || !/made 1 rendition \(thumbnail\)/.test(text)) throw new Error(`the message does not say what was made of which record: ${text}`);
  await openNotifications(page);
  const item = page.locator('.notifications-center .notification-list-item', { hasText: 'made' }).first();
  await item.waitFor({ state: 'visible' });
  await screenshot('renditions-made');
  await page.mouse.move(0, 0);
  const open = item.locator('.monaco-button', { hasText: 'Open thumbnail.png' });
  if ((await open.count()) === 0) throw new Error('the message offers no Open');
  await open.first().click();
  await page.locator('.tabs-container .tab.active', { hasText: 'thumbnail.png' }).first().waitFor({ state: 'visible', timeout: 30_000 });
}
