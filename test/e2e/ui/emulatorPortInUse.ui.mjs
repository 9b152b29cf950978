// Issue 35: a local emulator start that failed because its port was taken said `EADDRINUSE` with only Show Log. It now
// says the port is in use and offers to start on a free port this time (or change the setting); that start works.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { clickNotificationButton, openViewContainer, waitForNotification } from './workbench.mjs';

export const title = 'emulator start on a taken port: says the port is in use, Start on a Free Port starts it';

export default async function run({ page, screenshot, workspace }) {
  // Another program holds a port; the workspace's settings ask the emulator for it.
  const holder = createServer();
  await new Promise((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const port = holder.address().port;
  try {
    mkdirSync(join(workspace, '.vscode'), { recursive: true });
    writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'dam.emulator.port': port }, null, 2));
    await page.locator('.statusbar-item', { hasText: 'DAM: not connected' }).first().waitFor({ state: 'visible', timeout: 60_000 });
    await openViewContainer(page, 'DAM');
    await page.getByRole('button', { name: 'Start local emulator' }).click();
    const message = await waitForNotification(page, new RegExp(`port ${port} is in use`), 180_000);
    if (/EADDRINUSE/.test(message)) throw new Error(`the message still speaks in error codes: ${message}`);
    await screenshot('emulator-port-in-use');
    await clickNotificationButton(page, new RegExp(`port ${port} is in use`), 'Start on a Free Port');
    await page.locator('.statusbar-item', { hasText: 'DAM: Local emulator' }).first().waitFor({ state: 'visible', timeout: 180_000 });
  } finally {
    holder.close();
  }
}
