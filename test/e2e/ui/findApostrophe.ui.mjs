// Issue 27, item 3: Find in DAM asks for words, and `children's harbour` was refused with "The string starting
// here has no closing '" (there is no "here" in a one-line input). Words with apostrophes are words: they
// find. A real unclosed string is still refused, and the reason says where.
import { viewTitleAction } from './workbench.mjs';

export const title = 'find: words with apostrophes are words; a refusal says where, not "here"';
export const workbench = 'emulator';

export default async function run({ page, screenshot }) {
  await (await viewTitleAction(page, 'DAM Explorer', 'Find in DAM')).click();
  const input = page.locator('.quick-input-widget input');
  await input.fill("children's harbour");
  await page.keyboard.press('Enter');
  await page
    .locator('.part.sidebar [role="treeitem"]', { hasText: 'Results for “children\'s harbour”' })
    .first()
    .waitFor({ state: 'visible', timeout: 30_000 });
  await screenshot('find-apostrophe');

  await (await viewTitleAction(page, 'DAM Explorer', 'Find in DAM')).click();
  await input.fill("Title = 'harbour");
  await page.keyboard.press('Enter');
  const message = page.locator('.quick-input-widget .quick-input-message', { hasText: 'The search was refused' });
  await message.waitFor({ state: 'visible', timeout: 30_000 });
  const said = (await message.innerText()).trim();
  if (/\bhere\b/.test(said)) throw new Error(`the reason points "here" in a one-line input: ${said}`);
  if (!/at character 9/.test(said)) throw new Error(`the reason does not say where: ${said}`);
  await page.keyboard.press('Escape');
}
