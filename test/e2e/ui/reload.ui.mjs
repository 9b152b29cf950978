// After a window reload the local emulator comes back connected without a click (issue 27, item 17), and on the
// first screen the Check Results view stays folded: its welcome text must not take half the side bar.
import { openViewContainer, viewRows } from './workbench.mjs';

export const title = 'reload: the local emulator reconnects by itself; Check Results starts folded';

const connected = (page) => page.locator('.statusbar-item', { hasText: 'DAM: Local emulator' }).first();

async function checkResultsFolded(page) {
  const header = page.locator('.part.sidebar .pane-header', { hasText: 'Check Results' }).first();
  await header.waitFor({ state: 'visible', timeout: 30_000 });
  const expanded = await header.getAttribute('aria-expanded');
  if (expanded !== 'false') throw new Error(`the Check Results view opens unfolded (aria-expanded=${expanded})`);
}

export default async function run({ page, screenshot }) {
  await openViewContainer(page, 'DAM');
  await page.getByRole('button', { name: 'Start local emulator' }).click();
  await viewRows(page).first().waitFor({ state: 'visible', timeout: 180_000 });
  await connected(page).waitFor({ state: 'visible', timeout: 30_000 });
  await checkResultsFolded(page);
  await screenshot('first-screen-connected');

  await page.reload();
  // Nothing is clicked: the extension starts the emulator again and signs in to it.
  await connected(page).waitFor({ state: 'visible', timeout: 180_000 });
  await openViewContainer(page, 'DAM');
  await viewRows(page).first().waitFor({ state: 'visible', timeout: 60_000 });
  await checkResultsFolded(page);
  await screenshot('after-reload');
}
