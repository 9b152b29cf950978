// Add to Classification and Remove from Classification offer Undo on their notification. The Undo used to say nothing
// that anyone saw (a status-bar line behind the closing notification): it now confirms in its own notification, in
// words with the record's title and the classification's path, what it did.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clickNotificationButton, dam, findInDam, notificationMessages, openNotifications, treeRow, waitForNotification } from './workbench.mjs';

export const title = 'classify with Undo: the Undo of Add to / Remove from Classification confirms what it did';
export const workbench = 'emulator';

const classificationsOf = (runDir, id) => JSON.parse(dam(runDir, 'records', 'get', id, '--json')).classifications;
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A row's context-menu entry, then the quick pick's row `choice` (typed first so that it is listed). */
async function menuThenPick(page, rowTitle, entry, choice) {
  // By hand, as recordVersions.ui.mjs: a quick pick closes when something takes the focus (a row redrawn).
  for (let attempt = 1; ; attempt++) {
    try {
      await page.keyboard.press('Escape');
      await treeRow(page, rowTitle).click({ button: 'right', position: { x: 60, y: 10 } });
      await page.locator('.monaco-menu .action-item', { hasText: entry }).first().locator('.action-menu-item').first().click({ timeout: 10_000 });
      await page.locator('.quick-input-widget:visible input').first().fill(choice.slice(1), { timeout: 10_000 });
      await page.locator(`.quick-input-widget:visible .quick-input-list .monaco-list-row[aria-label="${choice}"]`).first().click({ timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** Polls the tenant (another client) until `check` holds. */
async function until(page, check, what) {
  for (let i = 0; !check(); i++) {
    if (i === 60) throw new Error(what);
    await page.waitForTimeout(500);
  }
}

export default async function run({ page, runDir, screenshot }) {
  const words = `Classify undo ${Date.now()}`;
  const file = join(runDir, `${words}.txt`);
  writeFileSync(file, 'a record for the classify-undo UI test\n');
  const [uploaded] = JSON.parse(dam(runDir, 'upload', file, '--classification', '/Products', '--json'));
  const id = uploaded.recordId;
  const recordTitle = JSON.parse(dam(runDir, 'records', 'get', id, '--json')).title;
  await findInDam(page, words);
  await treeRow(page, recordTitle).waitFor({ state: 'visible', timeout: 30_000 });
  const target = '/Products/Kitchen';

  // Add, then Undo: the record leaves the classification again, and a notification of its own says so.
  await menuThenPick(page, recordTitle, 'Add to Classification', target);
  const added = new RegExp(`^Added “${escape(recordTitle)}” to ${escape(target)}\\.`);
  await waitForNotification(page, added, 60_000);
  await clickNotificationButton(page, added, 'Undo');
  const undoneAdd = await waitForNotification(page, new RegExp(`^Removed “${escape(recordTitle)}” from ${escape(target)} again\\.`), 60_000);
  await until(page, () => !classificationsOf(runDir, id).includes(target), `Undo left the record in ${target}`);
  if (/[0-9a-f]{32}/.test(undoneAdd)) throw new Error(`the confirmation names an id: ${undoneAdd}`);
  const all = await notificationMessages(page);
  console.log(`    notifications: ${all.join(' | ')}`);
  const confirmations = all.filter((m) => m.startsWith(`Removed “${recordTitle}”`));
  if (confirmations.length !== 1) throw new Error(`the Undo said ${confirmations.length} things: ${confirmations.join(' | ')}`);
  await openNotifications(page);
  await screenshot('classify-undo-confirmed');
  await page.keyboard.press('Escape');

  // Remove, then Undo: the record is back, said in words.
  await menuThenPick(page, recordTitle, 'Remove from Classification', '/Products');
  const removed = new RegExp(`^Removed “${escape(recordTitle)}” from /Products\\.`);
  await waitForNotification(page, removed, 60_000);
  await until(page, () => !classificationsOf(runDir, id).includes('/Products'), 'Remove from Classification left the record in /Products');
  await clickNotificationButton(page, removed, 'Undo');
  await waitForNotification(page, new RegExp(`^Added “${escape(recordTitle)}” to /Products again\\.`), 60_000);
  await until(page, () => classificationsOf(runDir, id).includes('/Products'), 'Undo did not put the record back in /Products');
}
