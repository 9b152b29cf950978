// The Getting Started walkthrough's "Start the local emulator" step is ticked however the emulator was started: here
// from the status bar's connection picker (its "Start local emulator" item runs no command the step's completion events
// name), before the walkthrough was ever opened. walkthroughEmulator.ui.mjs starts it from the DAM view's welcome.
import { pick, runCommand } from './workbench.mjs';

export const title = 'walkthrough: the emulator step is ticked when the emulator was started from the status bar';

export default async function run({ page, screenshot }) {
  const status = page.locator('.statusbar-item', { hasText: 'DAM: not connected' }).first();
  await status.waitFor({ state: 'visible', timeout: 60_000 });
  await status.click();
  await pick(page, 'Start local emulator');
  await page.locator('.statusbar-item', { hasText: 'DAM: Local emulator' }).first().waitFor({ state: 'visible', timeout: 180_000 });
  await runCommand(page, 'Welcome: Open Walkthrough...', { opensInput: true });
  await pick(page, 'Get Started with DAM Workbench');
  const step = page.locator('.gettingStartedContainer [data-step-id$="startEmulator"]').first();
  await step.waitFor({ state: 'visible', timeout: 30_000 });
  const checked = await step.getAttribute('aria-checked');
  await screenshot('walkthrough-emulator-step-status-bar');
  if (checked !== 'true') throw new Error(`the walkthrough's emulator step is not ticked (aria-checked=${checked}) though the emulator was started from the status bar`);
}
