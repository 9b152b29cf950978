// The Getting Started walkthrough's "Start the local emulator" step stayed unticked when the emulator was started
// another way than the step's own button, here the DAM view's welcome button, before the walkthrough was ever opened
// (VS Code's walkthrough service did not exist yet to see the command, and took the running emulator's context as
// already seen). The step is now ticked whenever the emulator runs.
import { connectToLocalEmulator, pick, runCommand } from './workbench.mjs';

export const title = 'walkthrough: the emulator step is ticked when the emulator was started from the welcome view';

export default async function run({ page, screenshot }) {
  await page.locator('.statusbar-item', { hasText: 'DAM: not connected' }).first().waitFor({ state: 'visible', timeout: 60_000 });
  await connectToLocalEmulator(page);
  await runCommand(page, 'Welcome: Open Walkthrough...', { opensInput: true });
  await pick(page, 'Get Started with DAM Workbench');
  const step = page.locator('.gettingStartedContainer [data-step-id$="startEmulator"]').first();
  await step.waitFor({ state: 'visible', timeout: 30_000 });
  // Ticked when the walkthrough shows (no wait for a later event: the step's state is read as it is drawn).
  const checked = await step.getAttribute('aria-checked');
  await screenshot('walkthrough-emulator-step');
  if (checked !== 'true') throw new Error(`the walkthrough's emulator step is not ticked (aria-checked=${checked}) though the emulator runs`);
}
