// A first connection that goes wrong (issue 21, item 3): the wizard counts its steps truthfully, a wrong
// secret is caught by a test before anything is saved and explained in words, Edit brings the answers
// back, and a working connection is saved. An unreachable address does not replace the active connection;
// a saved connection that fails offers Edit / Sign In Again / Remove. The welcome view's "Read more about
// connections" opens the README's section (item 10), not the log.
import { EMULATOR_CLIENT } from '../../../src/core/contract/index.ts';
import { startEmulatorProcess } from '../harness.mjs';
import { answer, clickNotificationButton, notificationMessages, openViewContainer, pick, runCommand, openNotifications, waitForNotification } from './workbench.mjs';

export const title = 'connections: steps counted truly, tested before saving, failures explained with their fixes';

/** What tells one prompt from the next: its title, prompt text and placeholder, read at once. */
async function promptKey(page) {
  await page.locator('.quick-input-widget').waitFor({ state: 'visible' });
  return page.locator('.quick-input-widget').evaluate((w) =>
    [w.querySelector('.quick-input-title')?.textContent ?? '', w.querySelector('.quick-input-message')?.textContent ?? '', w.querySelector('input')?.getAttribute('placeholder') ?? ''].join('|'),
  );
}

/** Answers one wizard step (a pick or a text) once it shows and has settled, recording the title it showed. */
async function step(page, titles, action) {
  const deadline = Date.now() + 15_000;
  let key = await promptKey(page);
  for (;;) {
    await page.waitForTimeout(150);
    const again = await promptKey(page);
    if (again === key && key !== titles.key) break;
    if (Date.now() > deadline) break;
    key = again;
  }
  titles.key = key;
  titles.push(key.split('|')[0].trim());
  await action();
}

/** Steps numbered 1, 2, 3… with totals never below the step, the last one n/n. */
function assertTrueCount(titles) {
  const counts = titles.map((t) => /\((\d+)\/(\d+)\)/.exec(t)).map((m) => m && [Number(m[1]), Number(m[2])]);
  const ok = counts.every((c, i) => c && c[0] === i + 1 && c[0] <= c[1]) && counts.at(-1)[0] === counts.at(-1)[1];
  if (!ok) throw new Error(`the wizard's step count is not true: ${JSON.stringify(titles)}`);
}

const statusItem = (page) => page.locator('.statusbar-item', { hasText: 'DAM:' }).first();

export default async function run({ page, screenshot }) {
  const emulator = await startEmulatorProcess();
  try {
    await openViewContainer(page, 'DAM');

    // A wrong secret: the wizard, then a test that fails, in words, with nothing saved.
    await page.getByRole('button', { name: 'Connect to a tenant' }).click();
    const titles = [];
    await step(page, titles, () => pick(page, 'One address'));
    await step(page, titles, () => answer(page, 'Address serving every API', emulator.url));
    await step(page, titles, async () => {
      // Enter on a filter that matches no sign-in flow keeps the step open (it closed the wizard without a word).
      await page.locator('.quick-input-widget input').fill('no such flow');
      await page.keyboard.press('Enter');
      await page.waitForTimeout(500);
      if (!(await page.locator('.quick-input-widget').isVisible())) throw new Error('Enter on a filter matching nothing closed the wizard');
      await page.locator('.quick-input-widget input').fill('');
      await pick(page, 'Client credentials');
    });
    await step(page, titles, () => answer(page, 'Client id', EMULATOR_CLIENT.clientId));
    await step(page, titles, () => answer(page, 'Client secret', 'not-the-secret'));
    await step(page, titles, () => answer(page, 'Name this connection', 'Wrong secret'));
    assertTrueCount(titles);
    const refused = await waitForNotification(page, /could not connect to Wrong secret/);
    if (!/The server refused the client secret of 'dam-emulator'/.test(refused) || !/Nothing was saved/.test(refused)) throw new Error(`the failure is not explained in words: ${refused}`);
    if (/answered 401|invalid_client|POST /.test(refused)) throw new Error(`the failure shows raw HTTP text: ${refused}`);
    await screenshot('connection-refused');
    if (!/not connected/.test(await statusItem(page).innerText())) throw new Error(`a failed connection became the active one: ${await statusItem(page).innerText()}`);

    // Edit brings the answers back: only the secret and the name change.
    await clickNotificationButton(page, /could not connect to Wrong secret/, 'Edit…');
    const again = [];
    await step(page, again, () => page.keyboard.press('Enter'));
    await step(page, again, async () => {
      const value = await page.locator('.quick-input-widget input').first().inputValue();
      if (value !== emulator.url) throw new Error(`the address was not kept: ${value}`);
      await page.keyboard.press('Enter');
    });
    await step(page, again, () => page.keyboard.press('Enter'));
    await step(page, again, () => page.keyboard.press('Enter'));
    await step(page, again, () => answer(page, 'Client secret', EMULATOR_CLIENT.clientSecret));
    await step(page, again, () => answer(page, 'Name this connection', 'Team emulator'));
    assertTrueCount(again);
    await statusItem(page).filter({ hasText: 'DAM: Team emulator' }).waitFor({ state: 'visible', timeout: 30_000 });
    await page.getByText('This tenant has no classifications yet').waitFor({ state: 'visible', timeout: 30_000 });

    // Nothing answers at the address: explained, and the working connection stays the active one.
    await runCommand(page, 'DAM: Connect to a Tenant…', { opensInput: true });
    await pick(page, 'One address');
    await answer(page, 'Address serving every API', 'http://127.0.0.1:9');
    await pick(page, 'Client credentials');
    await answer(page, 'Client id', 'someone');
    await answer(page, 'Client secret', 'something');
    await answer(page, 'Name this connection', 'Nowhere');
    const unreachable = await waitForNotification(page, /could not connect to Nowhere/);
    if (!/Nothing answers at http:\/\/127\.0\.0\.1:9: is the emulator running\?/.test(unreachable)) throw new Error(`unexpected explanation: ${unreachable}`);
    if (!/DAM: Team emulator/.test(await statusItem(page).innerText())) throw new Error(`the active connection changed: ${await statusItem(page).innerText()}`);
    await runCommand(page, 'Notifications: Clear All Notifications');

    // A saved connection whose service went away: the reason, and Edit / Sign In Again / Remove.
    await emulator.stop();
    await runCommand(page, 'DAM: Sign In Again');
    const gone = await waitForNotification(page, /could not connect to Team emulator/);
    if (!/Nothing answers at http:\/\/127\.0\.0\.1:\d+: is the emulator running\?/.test(gone)) throw new Error(`unexpected explanation: ${gone}`);
    await openNotifications(page);
    const item = page.locator('.notifications-center .notification-list-item', { hasText: 'could not connect to Team emulator' }).first();
    const buttons = (await item.locator('.monaco-button').allInnerTexts()).map((b) => b.trim());
    await screenshot('connection-fixes');
    for (const b of ['Edit…', 'Sign In Again', 'Remove…']) if (!buttons.includes(b)) throw new Error(`the failure offers ${JSON.stringify(buttons)}, not ${b}`);
    await item.locator('.monaco-button', { hasText: 'Remove…' }).click();
    await page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Remove' }).first().click();
    await statusItem(page).filter({ hasText: 'not connected' }).waitFor({ state: 'visible', timeout: 30_000 });
    await runCommand(page, 'DAM: Switch Connection…', { opensInput: true });
    const offered = await page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
    if (offered.some((t) => t.includes('Team emulator') || t.includes('Nowhere') || t.includes('Wrong secret'))) throw new Error(`removed or unsaved connections are offered: ${JSON.stringify(offered)}`);
    await page.keyboard.press('Escape');
    if ((await notificationMessages(page)).some((m) => /answered 401|invalid_client/.test(m))) throw new Error('raw HTTP text reached a notification');

    // Back to the welcome: its link opens the README's section on connections, not the log.
    await page.locator('.part.sidebar .welcome-view-content a', { hasText: 'connections' }).click();
    await page.locator('.tabs-container .tab', { hasText: /Preview (README|readme)/ }).first().waitFor({ state: 'visible', timeout: 30_000 });
  } finally {
    await emulator.stop();
  }
}
