// The local emulator's life as the user sees it. While it starts, the welcome view no longer offers to
// start it (issue 21, item 3); once it runs the palette no longer lists "Start Local Emulator" (item 10).
// When its process dies (here: killed), a notification says so with its last output and a Restart action,
// and the status bar shows it stopped (item 4); Restart brings it back.
import { execFileSync } from 'node:child_process';
import { clickNotificationButton, openViewContainer, viewRows, waitForNotification } from './workbench.mjs';

export const title = 'emulator: no Start while it starts or runs; its death is reported with Restart';

/** Pids of emulator processes whose data folder is inside this workbench's run folder. */
function emulatorPids(runDir) {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((l) => l.includes('emulator.js') && l.includes(runDir))
    .map((l) => Number(l.trim().split(/\s+/)[0]));
}

/** Whether the palette lists a command with this title when it is typed. */
async function paletteOffers(page, command) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${command}`);
  await page.waitForTimeout(800);
  const rows = await page.locator('.quick-input-list .monaco-list-row .label-name').allInnerTexts();
  await page.keyboard.press('Escape');
  return rows.some((r) => r.replace(/\s+/g, ' ').trim() === command);
}

export default async function run({ page, runDir, screenshot }) {
  await openViewContainer(page, 'DAM');
  const sidebar = page.locator('.part.sidebar');
  await sidebar.getByRole('button', { name: 'Start local emulator' }).click();
  // The first start seeds the demo tenant: long enough to see what the welcome says meanwhile.
  await sidebar.getByText('Starting the local emulator').waitFor({ state: 'visible', timeout: 30_000 });
  if (await sidebar.getByRole('button', { name: 'Start local emulator' }).isVisible()) throw new Error('the welcome view offers to start the emulator while it starts');
  await page.locator('.statusbar-item', { hasText: 'DAM: starting the local emulator' }).first().waitFor({ state: 'visible', timeout: 5000 });
  await screenshot('emulator-starting');
  await viewRows(page).first().waitFor({ state: 'visible', timeout: 180_000 });
  const status = page.locator('.statusbar-item', { hasText: 'DAM: Local emulator' }).first();
  await status.waitFor({ state: 'visible' });
  // The request inspector follows the emulator, folded under the explorer until asked for.
  const requests = page.locator('.part.sidebar .pane-header', { hasText: 'Emulator Requests' }).first();
  await requests.waitFor({ state: 'visible', timeout: 30_000 });
  if ((await requests.getAttribute('aria-expanded')) !== 'false') throw new Error('the Emulator Requests view opens by itself and squeezes the DAM Explorer');
  if (await paletteOffers(page, 'DAM: Start Local Emulator')) throw new Error('the palette offers "Start Local Emulator" while it runs');
  if (!(await paletteOffers(page, 'DAM: Stop Local Emulator'))) throw new Error('the palette does not offer "Stop Local Emulator" while it runs');

  const pids = emulatorPids(runDir);
  if (pids.length !== 1) throw new Error(`expected one emulator process for this workbench, found ${JSON.stringify(pids)}`);
  process.kill(pids[0], 'SIGKILL');
  const message = await waitForNotification(page, /local emulator stopped unexpectedly/);
  if (!/killed \(SIGKILL\)/.test(message) || !/last output: .*listening on http:\/\/127\.0\.0\.1:\d+/.test(message)) throw new Error(`the notification does not say how it ended and what it said last: ${message}`);
  await page.locator('.statusbar-item', { hasText: 'DAM: Local emulator stopped' }).first().waitFor({ state: 'visible', timeout: 15_000 });
  await screenshot('emulator-stopped');

  await clickNotificationButton(page, /local emulator stopped unexpectedly/, 'Restart');
  await page.locator('.statusbar-item', { hasText: 'DAM: Local emulator', hasNotText: 'stopped' }).first().waitFor({ state: 'visible', timeout: 120_000 });
  await viewRows(page).first().waitFor({ state: 'visible', timeout: 60_000 });
  if (emulatorPids(runDir).length !== 1) throw new Error('Restart did not start one emulator');
}
