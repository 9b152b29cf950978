// A person saves the emulator's state (saving again under that name asks before replacing it), changes the tenant,
// restores the saved state from the quick pick of saved states after confirming, and sees the tree as it was: the
// classification added after saving is gone without a restart.
import { URLSearchParams } from 'node:url';
import { openViewContainer, runCommand, viewRows } from './workbench.mjs';

export const title = 'emulator state: save, change the tenant, restore, and see the old tree';

const ADDED = 'Added after saving';

/** Runs a palette command that opens a quick input of its own, and waits for that input (titled `inputTitle`). */
async function runToInput(page, command, inputTitle) {
  await runCommand(page, command, { opensInput: true });
  await page.locator('.quick-input-widget .quick-input-title', { hasText: inputTitle }).waitFor({ state: 'visible', timeout: 60_000 });
}

/** Adds a root classification as an integration would, through the tenant API. */
async function addClassification(origin) {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: 'dam-emulator', client_secret: 'dam-emulator-secret', scope: 'api' });
  const token = await (await fetch(`${origin}/login/connect/token`, { method: 'POST', body: form })).json();
  const res = await fetch(`${origin}/api/core/classification`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token.access_token}`, accept: 'application/json', 'api-version': '1', 'user-agent': 'dam-ui-test', 'content-type': 'application/json' },
    body: JSON.stringify({ name: ADDED }),
  });
  if (res.status !== 201) throw new Error(`creating a classification answered ${res.status}: ${await res.text()}`);
}

/** The messages in the notification centre (the smoke-test driver hides toasts), for failures to say what happened. */
async function notifications(page) {
  await page.locator('[id="status.notifications"]').click();
  const texts = await page.locator('.notifications-center .notification-list-item-message').allInnerTexts();
  await page.keyboard.press('Escape');
  return texts;
}

/** Waits for a notification whose text matches `pattern`. */
async function notified(page, pattern, timeout = 60_000) {
  const until = Date.now() + timeout;
  for (;;) {
    const texts = await notifications(page);
    if (texts.some((t) => pattern.test(t))) return;
    if (Date.now() > until) throw new Error(`no notification matching ${pattern}; the notification centre shows: ${JSON.stringify(texts)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The DAM Explorer's row labels once they stop changing (rows arrive as the tree loads). */
async function settledLabels(page) {
  let last = null;
  for (let i = 0; i < 120; i++) {
    const labels = await viewRows(page).locator('.label-name').allInnerTexts();
    if (last !== null && labels.length > 0 && JSON.stringify(labels) === JSON.stringify(last)) return labels;
    last = labels;
    await page.waitForTimeout(500);
  }
  throw new Error(`the DAM Explorer did not settle; it shows ${JSON.stringify(last)}`);
}

export default async function run({ page, screenshot }) {
  await openViewContainer(page, 'DAM');
  await page.getByRole('button', { name: 'Start local emulator' }).click();
  await viewRows(page).first().waitFor({ state: 'visible', timeout: 180_000 });
  await page.locator('.statusbar-item', { hasText: 'DAM: Local emulator' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  const before = await settledLabels(page);

  await runToInput(page, 'DAM: Save Emulator State…', 'Save Emulator State');
  // The prompt names the emulator it saves: the test changes the tenant there, as an integration would.
  const prompt = await page.locator('.quick-input-widget .quick-input-message').innerText();
  const origin = /http:\/\/127\.0\.0\.1:\d+/.exec(prompt)?.[0];
  if (!origin) throw new Error(`the save prompt does not name the emulator: ${prompt}`);
  const input = page.locator('.quick-input-widget input');
  await input.fill('before-ui-change');
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  await notified(page, /Saved the emulator state as 'before-ui-change' \(\d+ records\)/);

  // Saving again under the same name asks before replacing it; Cancel keeps the saved state.
  await runToInput(page, 'DAM: Save Emulator State…', 'Save Emulator State');
  await input.fill('before-ui-change');
  await page.keyboard.press('Enter');
  const replace = page.locator('.monaco-dialog-box');
  await replace.waitFor({ state: 'visible', timeout: 30_000 });
  const replaceText = await replace.innerText();
  if (!/Replace the saved state 'before-ui-change'\?/.test(replaceText) || !/records/.test(replaceText)) throw new Error(`the replace confirmation says: ${replaceText}`);
  await screenshot('emulator-state-save-replace');
  await replace.locator('.monaco-button', { hasText: 'Cancel' }).first().click();
  await replace.waitFor({ state: 'hidden' });

  await runToInput(page, 'DAM: Restore Emulator State…', 'Restore Emulator State');
  const item = page.locator('.quick-input-list .monaco-list-row', { hasText: 'before-ui-change' });
  await item.first().waitFor({ state: 'visible', timeout: 60_000 });
  const described = await item.first().innerText();
  if (!/records/.test(described)) throw new Error(`the saved state's row does not say how many records it holds: ${described}`);
  await page.keyboard.press('Escape');

  await addClassification(origin);
  await runCommand(page, 'DAM: Refresh');
  const added = viewRows(page).filter({ hasText: ADDED });
  await added.first().waitFor({ state: 'visible', timeout: 60_000 });
  await screenshot('emulator-state-changed');

  await runToInput(page, 'DAM: Restore Emulator State…', 'Restore Emulator State');
  await item.first().waitFor({ state: 'visible', timeout: 60_000 });
  await screenshot('emulator-state-restore-pick');
  await item.first().click();
  // Restore replaces the tenant: it asks first, naming the state and what is lost; Cancel changes nothing.
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: 30_000 });
  const asked = await dialog.innerText();
  if (!/Restore the emulator state 'before-ui-change'\?/.test(asked) || !/everything changed since then is lost/.test(asked)) throw new Error(`the restore confirmation says: ${asked}`);
  await screenshot('emulator-state-restore-confirm');
  await dialog.locator('.monaco-button', { hasText: 'Restore' }).first().click();
  // The tree refreshes by itself after the restore: the classification added after saving is gone.
  await added.first().waitFor({ state: 'detached', timeout: 60_000 });
  // Said as a user would (issue 35: "Restored 'x': 7 table(s) loaded in 363 ms" was the emulator's words).
  await notified(page, /Restored the emulator state 'before-ui-change': \d+ records, as saved (just now|\d+ min ago)/);
  await viewRows(page).first().waitFor({ state: 'visible', timeout: 60_000 });
  const after = await settledLabels(page);
  if (JSON.stringify(after) !== JSON.stringify(before)) throw new Error(`the tree shows ${JSON.stringify(after)} after the restore, ${JSON.stringify(before)} before the change`);
  await screenshot('emulator-state-restored');
}
