// Helpers for the Playwright UI tests: act on the VS Code workbench the way a person does.
// Selectors are the ones code-server 4.139 (VS Code 1.139) renders.

/** Clicks the activity-bar icon of a view container and waits for its side bar to show. */
export async function openViewContainer(page, title) {
  await page.locator(`.activitybar [aria-label^="${title}"]`).first().click();
  await page.locator('.part.sidebar').waitFor({ state: 'visible' });
}

/** Runs a command by its palette title (`Category: Title`), as typed after F1. */
export async function runCommand(page, title) {
  await page.locator('.monaco-workbench').click({ position: { x: 5, y: 5 }, force: true });
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ state: 'visible' });
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
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
