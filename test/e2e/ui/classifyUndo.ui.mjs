// Add to Classification and Remove from Classification offer Undo on their notification. The Undo used to say nothing
// that anyone saw (a status-bar line behind the closing notification), then said it in the words of an edit
// ("Removed … again."): it now confirms in its own notification, once, starting with "Undone:", with the record's
// title and the classification's path.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OUTPUT_DIR } from '../harness.mjs';
import { chooseFromMenu, clickNotificationButton, dam, findInDam, openNotifications, treeRow, waitForNotification } from './workbench.mjs';

export const title = 'classify with Undo: the Undo of Add to / Remove from Classification confirms what it did, once';
export const workbench = 'emulator';

const classificationsOf = (runDir, id) => JSON.parse(dam(runDir, 'records', 'get', id, '--json')).classifications;
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A row's context-menu entry, then the quick pick's row `choice` (typed first so that it is listed); `done` says
 * whether the tenant already shows the edit, so that a try whose last click took effect is not made again. The entry
 * is chosen with Enter (`chooseFromMenu`): a click on it was lost on a loaded machine, leaving the menu open.
 */
async function menuThenPick(page, rowTitle, entry, choice, done) {
  // A quick pick closes when something takes the focus (a row redrawn): then it is opened again.
  for (let attempt = 1; ; attempt++) {
    try {
      await page.keyboard.press('Escape');
      await chooseFromMenu(page, treeRow(page, rowTitle), entry);
      await page.locator('.quick-input-widget:visible input').first().fill(choice.slice(1), { timeout: 10_000 });
      await page.locator(`.quick-input-widget:visible .quick-input-list .monaco-list-row[aria-label="${choice}"]`).first().click({ timeout: 10_000 });
      return;
    } catch (error) {
      if (done()) return;
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

/**
 * The notifications in the centre, one per list row (its `data-index`): the messages a DOM query finds were once two
 * for one notification (one Undo, one request, one message shown), so the rows are counted, and the DOM is kept in
 * test/output when the two counts differ.
 */
async function centreEntries(page) {
  const center = await openNotifications(page);
  const rows = await center.locator('.monaco-list-row').evaluateAll((els) =>
    els.map((el) => ({ index: el.getAttribute('data-index'), message: el.querySelector('.notification-list-item-message')?.textContent?.trim() ?? '' })),
  );
  const messages = await center.locator('.notification-list-item-message').allInnerTexts();
  const byIndex = new Map(rows.map((r) => [r.index, r.message]));
  if (messages.length !== byIndex.size) {
    const file = join(OUTPUT_DIR, `classifyUndo-centre-${Date.now()}.html`);
    mkdirSync(OUTPUT_DIR, { recursive: true });
    writeFileSync(file, await center.evaluate((el) => el.outerHTML));
    console.log(`    the centre's DOM holds ${messages.length} messages in ${byIndex.size} rows: ${file}`);
  }
  await page.keyboard.press('Escape');
  return [...byIndex.values()];
}

/** Exactly one notification of the centre matches `pattern`; returns all of them. */
async function once(page, pattern, what) {
  const all = await centreEntries(page);
  console.log(`    notifications: ${all.join(' | ')}`);
  const found = all.filter((m) => pattern.test(m));
  if (found.length !== 1) throw new Error(`${what} was said ${found.length} times: ${all.join(' | ')}`);
  return found[0];
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
  const record = escape(recordTitle);

  // Add, then Undo: the record leaves the classification again, and a notification of its own says so, once.
  await menuThenPick(page, recordTitle, 'Add to Classification', target, () => classificationsOf(runDir, id).includes(target));
  const added = new RegExp(`^Added “${record}” to ${escape(target)}\\.`);
  await waitForNotification(page, added, 60_000);
  await until(page, () => classificationsOf(runDir, id).includes(target), `Add to Classification did not put the record in ${target}`);
  await clickNotificationButton(page, added, 'Undo');
  const undoneAdd = new RegExp(`^Undone: “${record}” is no longer in ${escape(target)}\\.$`);
  const confirmation = await waitForNotification(page, undoneAdd, 60_000);
  await until(page, () => !classificationsOf(runDir, id).includes(target), `Undo left the record in ${target}`);
  if (/[0-9a-f]{32}/.test(confirmation)) throw new Error(`the confirmation names an id: ${confirmation}`);
  await once(page, new RegExp(`^Undone: .*${record}`), 'the Undo of Add to Classification');
  await openNotifications(page);
  await screenshot('classify-undo-confirmed');
  await page.keyboard.press('Escape');

  // Remove, then Undo: the record is back, said in words, once.
  await menuThenPick(page, recordTitle, 'Remove from Classification', '/Products', () => !classificationsOf(runDir, id).includes('/Products'));
  const removed = new RegExp(`^Removed “${record}” from /Products\\.`);
  await waitForNotification(page, removed, 60_000);
  await until(page, () => !classificationsOf(runDir, id).includes('/Products'), 'Remove from Classification left the record in /Products');
  await clickNotificationButton(page, removed, 'Undo');
  await waitForNotification(page, new RegExp(`^Undone: “${record}” is back in /Products\\.$`), 60_000);
  await until(page, () => classificationsOf(runDir, id).includes('/Products'), 'Undo did not put the record back in /Products');
  await once(page, new RegExp(`^Undone: “${record}” is back`), 'the Undo of Remove from Classification');
}
