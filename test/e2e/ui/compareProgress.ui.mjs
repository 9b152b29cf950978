// DAM: Compare the Emulator with This Tenant… showed its progress as a request log ("Local emulator 12/184:
// core GET /classifications …"): it now says what it does in words with counts, "Reading the tenant: 40 of 184 routes",
// then the local emulator's ("Reading the local emulator: …"), and can be cancelled.
import { openNotifications, runCommand } from './workbench.mjs';

export const title = 'compare progress: reading the tenant and the emulator, in words with counts';
export const workbench = 'emulator';

export default async function run({ page, screenshot }) {
  await runCommand(page, 'DAM: Compare the Emulator with This Tenant');
  const report = page.locator('.tabs-container .tab', { hasText: /emulator-vs-/ }).first();
  const seen = new Set();
  let shot = false;
  let cancellable = false;
  // The progress notification, read from the centre until the report opens.
  while (!(await report.isVisible())) {
    const center = await openNotifications(page);
    const items = center.locator('.notification-list-item', { hasText: 'Comparing the emulator with' });
    for (const text of await items.locator('.notification-list-item-message').allInnerTexts().catch(() => [])) seen.add(text.replace(/\s+/g, ' ').trim());
    if (!cancellable) cancellable = (await items.locator('.monaco-button', { hasText: 'Cancel' }).count().catch(() => 0)) > 0;
    if (!shot && [...seen].some((m) => /: \d+ of \d+ routes/.test(m))) {
      await screenshot('compare-progress');
      shot = true;
    }
    await page.waitForTimeout(200);
  }
  const messages = [...seen];
  console.log(`    progress said: ${messages.slice(0, 4).join(' | ')}${messages.length > 4 ? ` … (${messages.length})` : ''}`);
  if (!messages.some((m) => /Reading the tenant: \d+ of \d+ routes/.test(m))) throw new Error(`the progress never said how far it read the tenant: ${messages.join(' | ')}`);
  if (!messages.some((m) => /Reading the local emulator: \d+ of \d+ routes/.test(m))) throw new Error(`the progress never said how far it read the local emulator: ${messages.join(' | ')}`);
  const requestLines = messages.filter((m) => /\/api|\bGET\b|\d+\/\d+/.test(m));
  if (requestLines.length) throw new Error(`the progress reads like a request log: ${requestLines.join(' | ')}`);
  if (!cancellable) throw new Error('the progress offered no Cancel');
  await page.keyboard.press('Escape');
}
