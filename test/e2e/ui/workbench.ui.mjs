// A person's first minute with the extension: open the DAM view from the activity bar, see its
// welcome buttons, run DAM: Show Log from the command palette and land in the DAM output channel.
import { openViewContainer, runCommand, waitForOutputChannel } from './workbench.mjs';

export const title = 'DAM view from the activity bar, DAM: Show Log from the palette';

export default async function ({ page, screenshot }) {
  await openViewContainer(page, 'DAM');
  const sidebar = page.locator('.part.sidebar');
  await sidebar.getByText('DAM Explorer', { exact: false }).first().waitFor({ state: 'visible' });
  await sidebar.getByRole('button', { name: 'Start local emulator' }).waitFor({ state: 'visible' });
  await sidebar.getByRole('button', { name: 'Connect to a tenant' }).waitFor({ state: 'visible' });
  await screenshot('dam-view');
  // The status bar item reads as a sentence to a screen reader, not 'plug  DAM: not connected' with its icon's name.
  const status = page.locator('.statusbar-item', { hasText: 'DAM: not connected' }).first();
  await status.waitFor({ state: 'visible' });
  const spoken = (await status.locator('[aria-label]').first().getAttribute('aria-label').catch(() => null)) ?? (await status.getAttribute('aria-label'));
  if (!spoken || /^plug\b|\$\(/.test(spoken) || !/DAM: not connected\. Connect to a DAM tenant/.test(spoken)) throw new Error(`the status bar item reads '${spoken}'`);

  await runCommand(page, 'DAM: Show Log');
  await page.locator('.part.panel [role="tab"][aria-selected="true"]', { hasText: 'Output' }).waitFor({ state: 'visible' });
  await waitForOutputChannel(page, 'DAM');
  await screenshot('dam-show-log');
}
