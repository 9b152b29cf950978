// From a new user's first hour: a search the service refuses (an unclosed quote) used to close Find in DAM and
// show 'POST http://…/search/records?pageSize=100 answered 400: … (Dam.Core.Search.InvalidSearchExpressionException)'
// in a notification, the text lost. Find now asks again with the text kept and the service's reason under it,
// in words; fixed and pressed Enter, it finds.
import { viewTitleAction } from './workbench.mjs';

export const title = 'find refused: the reason in words under the text, which is kept to correct';
export const workbench = 'emulator';

export default async function run({ page, screenshot }) {
  const broken = 'Title = "harbour AND ContentType = Image';
  await (await viewTitleAction(page, 'DAM Explorer', 'Find in DAM')).click();
  const input = page.locator('.quick-input-widget input');
  await input.fill(broken);
  await page.keyboard.press('Enter');
  const message = page.locator('.quick-input-widget .quick-input-message', { hasText: 'The search was refused' });
  await message.waitFor({ state: 'visible', timeout: 30_000 });
  const said = (await message.innerText()).trim();
  if (/answered 400|POST |https?:\/\/|Exception/.test(said)) throw new Error(`the reason shows the HTTP exchange: ${said}`);
  if (!/closing/.test(said)) throw new Error(`the reason does not say what is wrong: ${said}`);
  if ((await input.inputValue()) !== broken) throw new Error(`the text was not kept: ${await input.inputValue()}`);
  await screenshot('find-refused');
  await input.fill('Title = "harbour*" AND ContentType = Image');
  await page.keyboard.press('Enter');
  await page.locator('.part.sidebar [role="treeitem"][aria-expanded="true"]', { hasText: 'Results for “Title = "harbour*" AND ContentType = Image”' }).first().waitFor({ state: 'visible', timeout: 30_000 });
}
