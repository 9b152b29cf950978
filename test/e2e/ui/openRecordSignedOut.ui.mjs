// Issue 35: DAM: Open Record while not connected asked for a record id first, then failed with only Show Log. It now
// says at once that there is no connection and offers Start Local Emulator / Connect to a Tenant…; after the emulator
// has started from that button, it goes on to ask which record.
import { clickNotificationButton, openNotifications, quickInputTitle, runCommand, waitForNotification } from './workbench.mjs';

export const title = 'open a record while not connected: says so first, offers to start the emulator, then asks which record';

export default async function run({ page, screenshot }) {
  await page.locator('.statusbar-item', { hasText: 'DAM: not connected' }).first().waitFor({ state: 'visible', timeout: 60_000 });
  await runCommand(page, 'DAM: Open Record');
  const message = await waitForNotification(page, /not connected to a DAM tenant/);
  if (!/Open Record/.test(message)) throw new Error(`the message does not name the command: ${message}`);
  const center = await openNotifications(page);
  const item = center.locator('.notification-list-item', { hasText: 'not connected to a DAM tenant' }).first();
  const buttons = (await item.locator('.monaco-button').allInnerTexts()).map((b) => b.trim());
  for (const wanted of ['Start Local Emulator', 'Connect to a Tenant…']) {
    if (!buttons.includes(wanted)) throw new Error(`the message offers ${JSON.stringify(buttons)}, not ${wanted}`);
  }
  await screenshot('open-record-not-connected');
  await page.keyboard.press('Escape');
  await clickNotificationButton(page, /not connected to a DAM tenant/, 'Start Local Emulator');
  // The first start seeds the demo tenant; then the record is asked for, by words of its title.
  await page.locator('.quick-input-widget').waitFor({ state: 'visible', timeout: 180_000 });
  const step = await quickInputTitle(page);
  if (!/Open Record/.test(step)) throw new Error(`after the emulator started, the input is titled "${step}"`);
  const placeholder = (await page.locator('.quick-input-widget input').getAttribute('placeholder')) ?? '';
  if (!/title/i.test(placeholder)) throw new Error(`the record is asked for as "${placeholder}", not by words of its title`);
}
