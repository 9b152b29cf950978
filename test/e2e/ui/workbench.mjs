// Helpers for the Playwright UI tests: act on the VS Code workbench the way a person does.
// Selectors are the ones code-server 4.139 (VS Code 1.139) renders.

/** Clicks the activity-bar icon of a view container and waits for its side bar to show. */
export async function openViewContainer(page, title) {
  const icon = page.locator(`.activitybar [aria-label^="${title}"]`).first();
  // A second click on the active container's icon would hide the side bar.
  if ((await icon.getAttribute('aria-expanded').catch(() => null)) !== 'true' || !(await page.locator('.part.sidebar').isVisible())) await icon.click();
  await page.locator('.part.sidebar').waitFor({ state: 'visible' });
}

/**
 * Runs a command by its palette title (`Category: Title`), as typed after F1. Waits for the palette to
 * close unless `opensInput` says the command opens a quick input of its own.
 */
export async function runCommand(page, title, { opensInput = false } = {}) {
  await page.locator('.monaco-workbench').click({ position: { x: 5, y: 5 }, force: true });
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ state: 'visible' });
  await page.keyboard.press('Enter');
  if (!opensInput) await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
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

/** Opens a workspace file by name through Quick Open. */
export async function openFile(page, name) {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(name);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({ state: 'visible' });
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab.active', { hasText: name.replace(/^.*\//, '') }).first().waitFor({ state: 'visible' });
}

/**
 * The messages in the notification centre. The smoke-test driver hides toasts, so notifications are read
 * there; the centre is closed again afterwards.
 */
export async function notificationMessages(page) {
  await page.locator('[id="status.notifications"]').click();
  const center = page.locator('.notifications-center');
  await center.waitFor({ state: 'visible' });
  const messages = await center.locator('.notification-list-item-message').allInnerTexts();
  await page.keyboard.press('Escape');
  return messages.map((m) => m.trim());
}

/** Waits until a notification whose message matches `pattern` is in the centre; returns its row, opened. */
export async function waitForNotification(page, pattern, timeout = 30_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
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
  await page.locator('[id="status.notifications"]').click();
  const item = page.locator('.notifications-center .notification-list-item').filter({ has: page.locator('.notification-list-item-message', { hasText: pattern }) }).first();
  await item.waitFor({ state: 'visible' });
  await item.locator('.monaco-button', { hasText: button }).first().click();
}

/**
 * The document of the visible webview (the panel's own frame inside VS Code's). Webviews are laid over the
 * workbench, not inside the editor part; hidden ones (retained, or a previous test's) are skipped.
 */
export function activeWebview(page) {
  return page.locator('iframe.webview.ready:visible').last().contentFrame().locator('#active-frame').contentFrame();
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
  await page.locator('.part.sidebar [role="treeitem"]').first().waitFor({ state: 'visible', timeout: 180_000 });
  await page.locator('.statusbar-item', { hasText: 'DAM: Local emulator' }).first().waitFor({ state: 'visible', timeout: 30_000 });
}

/**
 * Leaves a shared workbench as the next test expects it: no quick input, no editors (unsaved ones
 * discarded), no notifications, the DAM view showing with its search results cleared and its tree collapsed.
 */
export async function resetWorkbench(page) {
  for (let i = 0; i < 3; i++) await page.keyboard.press('Escape');
  await runCommand(page, 'View: Close All Editors');
  const dontSave = page.locator('.monaco-dialog-box .monaco-button', { hasText: /Don.t Save/ });
  for (let i = 0; i < 10 && (await dontSave.first().isVisible().catch(() => false)); i++) {
    await dontSave.first().click();
    await page.waitForTimeout(200);
  }
  await runCommand(page, 'Notifications: Clear All Notifications');
  await openViewContainer(page, 'DAM');
  const clear = page.locator('.part.sidebar .action-label[aria-label="Clear Search Results"]');
  if (await clear.first().isVisible().catch(() => false)) await clear.first().click({ force: true });
  await page.locator('.part.sidebar .pane-header', { hasText: 'DAM Explorer' }).hover();
  const collapse = page.locator('.part.sidebar .pane-header', { hasText: 'DAM Explorer' }).locator('.action-label[aria-label^="Collapse All"]');
  if (await collapse.isVisible().catch(() => false)) await collapse.click();
}
