// Helpers for the Playwright UI tests: act on the VS Code workbench the way a person does.
// Selectors are the ones code-server 4.139 (VS Code 1.139) renders.

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../harness.mjs';

/** Another client: the `dam` CLI of the same build, finding the emulator the workbench of `runDir` started. */
export function dam(runDir, ...args) {
  return execFileSync(process.execPath, [join(PROJECT_ROOT, 'dist', 'cli.js'), ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DAM_STATE_DIR: join(runDir, 'state', 'dam-workbench') },
    timeout: 60_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Clicks the activity-bar icon of a view container and waits for its side bar to show. */
export async function openViewContainer(page, title) {
  const sidebar = page.locator('.part.sidebar');
  const heading = sidebar.locator('.composite.title .title-label');
  // A click on the icon of the container already showing would hide the side bar.
  const showing = (await sidebar.isVisible()) && ((await heading.first().textContent().catch(() => '')) ?? '').trim().startsWith(title);
  if (!showing) await page.locator(`.activitybar [aria-label^="${title}"]`).first().click();
  await sidebar.waitFor({ state: 'visible' });
}

/**
 * Runs a command by its palette title (`Category: Title`), as typed after F1. Waits for the palette to
 * close unless `opensInput` says the command opens a quick input of its own.
 */
export async function runCommand(page, title, { opensInput = false } = {}) {
  const input = page.locator('.quick-input-widget input');
  // A webview that still had the keys swallows F1: take the focus back and press it again.
  for (let attempt = 1; ; attempt++) {
    await leaveWebviews(page);
    await page.keyboard.press('F1');
    if (await input.waitFor({ state: 'visible', timeout: 5000 }).then(() => true, () => false)) break;
    if (attempt === 3) await input.waitFor({ state: 'visible', timeout: 1000 });
    await page.keyboard.press('Escape');
  }
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ state: 'visible' });
  await page.keyboard.press('Enter');
  if (!opensInput) await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

/** Takes the focus out of any webview (an image preview is one too): its frame would keep the keys. */
export async function leaveWebviews(page) {
  await page.locator('.monaco-workbench').click({ position: { x: 5, y: 5 }, force: true });
  await page.evaluate(() => {
    if (document.activeElement?.tagName === 'IFRAME') document.activeElement.blur();
  });
}

/** Clicks the quick-pick row showing `text`. */
export async function pick(page, text) {
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();
  await row.waitFor({ state: 'visible' });
  await row.click();
}

/** Waits for the input box whose prompt or title shows `prompt`, types `value` and presses Enter. */
export async function answer(page, prompt, value) {
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-message, .quick-input-header, .quick-input-title', { hasText: prompt }).first().waitFor({ state: 'visible' });
  await widget.locator('input').first().fill(value);
  await page.keyboard.press('Enter');
}

/** The title of the open quick input (wizards show their step there). */
export async function quickInputTitle(page) {
  const title = page.locator('.quick-input-widget .quick-input-title');
  await title.waitFor({ state: 'visible' });
  return (await title.innerText()).trim();
}

/**
 * Opens a file through Quick Open: by name (the workspace's file search), or by absolute path, which does not
 * wait for the search to have seen a file just written.
 */
export async function openFile(page, nameOrPath) {
  const name = nameOrPath.replace(/^.*\//, '');
  await leaveWebviews(page);
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(nameOrPath);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({ state: 'visible' });
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab.active', { hasText: name }).first().waitFor({ state: 'visible' });
}

/**
 * The messages in the notification centre. The smoke-test driver hides toasts, so notifications are read
 * there; the centre is closed again afterwards.
 */
export async function notificationMessages(page) {
  const center = await openNotifications(page);
  const messages = await center.locator('.notification-list-item-message').allInnerTexts();
  await page.keyboard.press('Escape');
  return messages.map((m) => m.trim());
}

/** Opens the notification centre (the bell toggles it: only a closed one is clicked) and returns it. */
export async function openNotifications(page) {
  const center = page.locator('.notifications-center');
  for (let attempt = 1; !(await center.isVisible()); attempt++) {
    // The bell's own hover ("1 New Notification") can sit over it and take the click: move away first.
    await page.mouse.move(0, 0);
    await page.locator('[id="status.notifications"]').click();
    if (await center.waitFor({ state: 'visible', timeout: 3000 }).then(() => true, () => false)) break;
    if (attempt === 3) await center.waitFor({ state: 'visible', timeout: 1000 });
  }
  return center;
}

/**
 * Waits until a notification whose message matches `pattern` is in the centre; returns its row, opened. Each look
 * opens the centre and closes it with Escape, which closes a quick pick too: a wait that lost a race must be stopped
 * with `signal`, or it goes on toggling the centre until its timeout.
 */
export async function waitForNotification(page, pattern, timeout = 30_000, signal = undefined) {
  const deadline = Date.now() + timeout;
  for (;;) {
    if (signal?.aborted) throw new Error(`stopped waiting for a notification matching ${pattern}`);
    const messages = await notificationMessages(page);
    const found = messages.find((m) => pattern.test(m));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no notification matching ${pattern}; the centre holds: ${JSON.stringify(messages)}`);
    await page.waitForTimeout(500);
  }
}

/** Clicks `button` on the notification whose message matches `pattern` (opening the centre to reach it). */
export async function clickNotificationButton(page, pattern, button) {
  await waitForNotification(page, pattern);
  // The centre redraws its list whenever a notification arrives or changes (a record's editor reloading after the
  // change the notification reports, a progress): a button found a moment ago may be detached before Playwright sees it
  // stable. It is then found again, and at last clicked without waiting for stability (the button's own click handler).
  for (let attempt = 1; ; attempt++) {
    await openNotifications(page);
    const item = page.locator('.notifications-center .notification-list-item').filter({ has: page.locator('.notification-list-item-message', { hasText: pattern }) }).first();
    await item.waitFor({ state: 'visible' });
    const target = item.locator('.monaco-button', { hasText: button }).first();
    try {
      await target.click({ timeout: 5_000 });
      return;
    } catch (error) {
      if (await target.dispatchEvent('click', undefined, { timeout: 2_000 }).then(() => true, () => false)) return;
      if (attempt === 4) throw error;
    }
  }
}

/**
 * The document of the visible webview (the panel's own frame inside VS Code's). Webviews are laid over the
 * workbench, not inside the editor part; hidden ones (retained, or a previous test's) are skipped.
 */
export function activeWebview(page) {
  return page.locator('iframe.webview.ready:visible').last().contentFrame().locator('#active-frame').contentFrame();
}

/** A title-bar action of the side-bar view whose header shows `view` (hovered, so its actions show). */
export async function viewTitleAction(page, view, label) {
  const header = page.locator('.part.sidebar .pane-header', { hasText: view }).first();
  await header.hover();
  const action = header.locator(`.action-label[aria-label^="${label}"]`).first();
  await action.waitFor({ state: 'visible' });
  return action;
}

/** Runs Find in DAM from the DAM Explorer's title bar and waits for the results row, open. */
export async function findInDam(page, text) {
  await (await viewTitleAction(page, 'DAM Explorer', 'Find in DAM')).click();
  await page.locator('.quick-input-widget input').fill(text);
  await page.keyboard.press('Enter');
  await page.locator('.part.sidebar [role="treeitem"][aria-expanded="true"]', { hasText: `Results for “${text}”` }).first().waitFor({ state: 'visible', timeout: 30_000 });
}

/** Clicks `item` in the context menu of `row`. */
export async function contextMenu(page, row, item) {
  const entry = page.locator('.monaco-menu .action-item', { hasText: item }).first();
  // A hover or a focus change can swallow the first right-click, and a row redrawn while the menu is open (its
  // check badge arriving) closes the menu under the pointer: open it again, a few times.
  for (let attempt = 1; ; attempt++) {
    await page.mouse.move(0, 0);
    await row.click({ button: 'right', position: { x: 60, y: 10 } });
    try {
      await entry.waitFor({ state: 'visible', timeout: 5000 });
      await entry.hover({ timeout: 5000 });
      await entry.locator('.action-menu-item').first().click({ timeout: 5000 });
      break;
    } catch (error) {
      if (attempt === 3) throw error;
      await page.keyboard.press('Escape');
    }
  }
  // A menu that is still open did not take the click: Enter runs the entry under the pointer.
  if (await entry.isVisible().catch(() => false)) await page.keyboard.press('Enter');
}

/**
 * Opens the context menu of `row` and chooses `item` with Enter once the pointer has focused it. A menu item takes the
 * mouse only a moment after it is drawn (VS Code listens for its mouse-up 100 ms later, so that the right-click's own
 * release does not choose it): on a loaded machine a click came first and was lost, leaving the menu open. Unlike
 * `contextMenu`, no Enter can reach the quick pick the entry opens.
 */
export async function chooseFromMenu(page, row, item) {
  await page.mouse.move(0, 0);
  await row.click({ button: 'right', position: { x: 60, y: 10 } });
  await page.locator('.monaco-menu .action-item', { hasText: item }).first().hover({ timeout: 10_000 });
  await page.locator('.monaco-menu .action-item.focused', { hasText: item }).first().waitFor({ state: 'visible', timeout: 10_000 });
  await page.keyboard.press('Enter');
}

/** Expands a tree row by its twistie (a click on the row itself may run its command) and waits for its children. */
export async function expand(page, row) {
  if ((await row.getAttribute('aria-expanded')) === 'true') return;
  await row.locator('.monaco-tl-twistie').click();
  await page.waitForFunction((el) => el.getAttribute('aria-expanded') === 'true', await row.elementHandle(), { timeout: 60_000 });
  // Children are fetched on expand: wait until the row after it (by list index, not DOM order) is one level deeper.
  const level = Number(await row.getAttribute('aria-level'));
  const index = Number(await row.getAttribute('data-index'));
  await page.waitForFunction(
    ({ el, level, index }) => {
      const next = el.parentElement?.querySelector(`[data-index="${index + 1}"]`);
      return next && Number(next.getAttribute('aria-level')) === level + 1;
    },
    { el: await row.elementHandle(), level, index },
    { timeout: 60_000 },
  );
}

/** The tree rows of the side bar's view `view`, in list order, as { index, level, label, aria }. */
export async function treeRows(page, view = 'DAM Explorer') {
  const pane = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: view }) }).first();
  const rows = await pane.locator('[role="treeitem"]').evaluateAll((els) =>
    els.map((el) => ({
      index: Number(el.getAttribute('data-index')),
      level: Number(el.getAttribute('aria-level')),
      label: el.querySelector('.label-name')?.textContent?.trim() ?? '',
      aria: el.getAttribute('aria-label') ?? '',
      expanded: el.getAttribute('aria-expanded'),
      selected: el.getAttribute('aria-selected') === 'true',
    })),
  );
  return rows.sort((a, b) => a.index - b.index);
}

/** The row of `view` at list index `index`. */
export function rowAt(page, index, view = 'DAM Explorer') {
  const pane = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: view }) }).first();
  return pane.locator(`[role="treeitem"][data-index="${index}"]`);
}

/** The tree rows of the side bar's view `view` (the Emulator Requests view below the explorer is a tree too). */
export function viewRows(page, view = 'DAM Explorer') {
  return page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: view }) }).first().locator('[role="treeitem"]');
}

/** A row of the DAM Explorer (or another side-bar tree) by its accessible name. */
export function treeRow(page, name) {
  return page.locator('.part.sidebar [role="treeitem"]').filter({ has: page.locator('.label-name', { hasText: name }) }).first();
}

/** Waits until the Output view shows `channel` in its channel picker. */
export async function waitForOutputChannel(page, channel, timeout = 30_000) {
  await page.waitForFunction(
    (name) =>
      [...document.querySelectorAll('.part.panel select[aria-label="Switch Output"]')].some(
        (select) => select.value === name && select.checkVisibility(),
      ),
    channel,
    { timeout },
  );
}

/** Starts the local emulator from the DAM view's welcome and waits for the tree (the first start seeds the demo tenant). */
export async function connectToLocalEmulator(page) {
  await openViewContainer(page, 'DAM');
  await page.getByRole('button', { name: 'Start local emulator' }).click();
  await viewRows(page).first().waitFor({ state: 'visible', timeout: 180_000 });
  await page.locator('.statusbar-item', { hasText: 'DAM: Local emulator' }).first().waitFor({ state: 'visible', timeout: 30_000 });
}

/**
 * Leaves a shared workbench as the next test expects it: no quick input, no editors (unsaved ones
 * discarded), no notifications, the DAM view showing with its search results cleared and its tree collapsed.
 */
export async function resetWorkbench(page) {
  for (let i = 0; i < 3; i++) await page.keyboard.press('Escape');
  // An open notification centre (or a hover over the bell) is closed from the bell itself.
  await page.mouse.move(0, 0);
  if (await page.locator('.notifications-center').isVisible()) await page.locator('[id="status.notifications"]').click();
  await runCommand(page, 'View: Close All Editors');
  const dontSave = page.locator('.monaco-dialog-box .monaco-button', { hasText: /Don.t Save/ });
  for (let i = 0; i < 10 && (await dontSave.first().isVisible().catch(() => false)); i++) {
    await dontSave.first().click();
    await page.waitForTimeout(200);
  }
  await runCommand(page, 'Notifications: Clear All Notifications');
  // A panel left open (the DAM log, Problems) takes half the editor's height from the next test.
  if (await page.locator('.part.panel').first().isVisible().catch(() => false)) await runCommand(page, 'View: Hide Panel');
  await openViewContainer(page, 'DAM');
  // Find's results row: its Clear action shows only while the row is hovered or selected (left there, the next test
  // expanded the results' record as the tree's first collapsed row).
  const clear = '.action-label[aria-label="Clear Search Results"]';
  const results = page.locator('.part.sidebar [role="treeitem"]').filter({ has: page.locator(clear) }).first();
  if (await results.isVisible().catch(() => false)) {
    await results.hover();
    await results.locator(clear).first().click({ force: true });
    await results.waitFor({ state: 'detached', timeout: 10_000 });
  }
  await page.locator('.part.sidebar .pane-header', { hasText: 'DAM Explorer' }).hover();
  const collapse = page.locator('.part.sidebar .pane-header', { hasText: 'DAM Explorer' }).locator('.action-label[aria-label^="Collapse All"]');
  if (await collapse.isVisible().catch(() => false)) await collapse.click();
}

/** Unfolds a side-bar view by its title when it is folded (Check Results starts folded). */
export async function expandPane(page, title) {
  const header = page.locator('.part.sidebar .pane-header', { hasText: title }).first();
  await header.waitFor({ state: 'visible', timeout: 15_000 });
  if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
}
