// Issue 35, wrong 10: every start showed an error notification, "'configuration.jsonValidation.url' must be an
// absolute URL…", for a contribution in package.json VS Code refuses. A new user's first sight of the extension must
// not be an error: after the packaged extension has activated, the notification centre holds no error at all.
import { openNotifications, openViewContainer } from './workbench.mjs';

export const title = 'startup: no error notification once the extension has activated';

export default async function run({ page, screenshot }) {
  // The status bar item is the extension's own, made on activation; package.json's contributions were read (and any
  // refused) before that.
  await page.locator('.statusbar-item', { hasText: 'DAM: not connected' }).first().waitFor({ state: 'visible', timeout: 60_000 });
  await openViewContainer(page, 'DAM');
  await page.locator('.part.sidebar').getByRole('button', { name: 'Start local emulator' }).waitFor({ state: 'visible' });
  const center = await openNotifications(page);
  const items = await center.locator('.notification-list-item').evaluateAll((rows) =>
    rows.map((row) => ({
      error: !!row.querySelector('.notification-list-item-icon.codicon-error'),
      message: (row.querySelector('.notification-list-item-message')?.textContent ?? '').trim(),
    })),
  );
  await screenshot('startup-notifications');
  await page.keyboard.press('Escape');
  const errors = items.filter((i) => i.error).map((i) => i.message);
  if (errors.length) throw new Error(`error notification(s) at startup: ${JSON.stringify(errors)}`);
  console.log(`    notification centre after activation: ${items.length ? JSON.stringify(items.map((i) => i.message)) : 'empty'}`);
}
