// The connect wizard has Back (issue 27, item 18): on every step after the first, the arrow in the title bar
// returns to the previous step with what was entered kept, and the step count stays true going back and forth.
import { answer, openViewContainer, pick } from './workbench.mjs';

export const title = 'connect wizard: Back on every step after the first, answers kept';

const widget = (page) => page.locator('.quick-input-widget');
const back = (page) => widget(page).locator('.quick-input-left-action-bar .codicon-quick-input-back, .quick-input-left-action-bar .codicon-arrow-left').first();

/** The wizard's title once it shows `expected` (steps replace each other in the same widget). */
async function titled(page, expected) {
  const title = widget(page).locator('.quick-input-title');
  await title.filter({ hasText: expected }).first().waitFor({ state: 'visible', timeout: 15_000 });
}

async function inputValue(page) {
  return widget(page).locator('input').first().inputValue();
}

export default async function run({ page, screenshot }) {
  await openViewContainer(page, 'DAM');
  await page.getByRole('button', { name: 'Connect to a tenant' }).click();

  await titled(page, '(1/6)');
  if (await back(page).isVisible()) throw new Error('the first step offers Back');
  await pick(page, 'One address');

  await titled(page, '(2/6)');
  await answer(page, 'Address serving every API', 'http://127.0.0.1:7999');
  await titled(page, '(3/6)');
  // By the keyboard: a row's hover (the other flows' descriptions) can lie over the row a click aims at.
  await widget(page).locator('input').first().fill('Resource owner');
  await widget(page).locator('.quick-input-list .monaco-list-row.focused', { hasText: 'Resource owner password' }).first().waitFor({ state: 'visible' });
  await page.keyboard.press('Enter');
  // The password flow adds two steps: the total says so.
  await titled(page, '(4/8)');
  await widget(page).locator('input').first().fill('my-client');
  await screenshot('connect-wizard-back');

  // Back from the client id: the flow step, then the address step, each with its answer kept.
  await back(page).click();
  await titled(page, '(3/8)');
  const active = await widget(page).locator('.quick-input-list .monaco-list-row.focused').first().innerText();
  if (!/Resource owner password/.test(active)) throw new Error(`going back, the flow step does not start on the chosen flow: ${active}`);
  await back(page).click();
  await titled(page, '(2/8)');
  if ((await inputValue(page)) !== 'http://127.0.0.1:7999') throw new Error(`going back, the address was not kept: ${await inputValue(page)}`);

  // Forward again: the typed client id is still there.
  await page.keyboard.press('Enter');
  await titled(page, '(3/8)');
  await page.keyboard.press('Enter');
  await titled(page, '(4/8)');
  if ((await inputValue(page)) !== 'my-client') throw new Error(`coming forward, the client id typed before Back is gone: ${await inputValue(page)}`);
  await page.keyboard.press('Escape');
  await widget(page).waitFor({ state: 'hidden' });
}
