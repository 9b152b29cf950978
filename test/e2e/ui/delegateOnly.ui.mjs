// Issue 27, item 4: Delegate Task listed every task, asked for the new person, and only then said "Only a task
// that is Assigned (4) or InProcess (5) can be delegated". Now it lists only the tasks that can be delegated,
// and a task typed by id that cannot is refused in words before the new person is asked for.
import { activeWebview, runCommand, waitForNotification } from './workbench.mjs';

export const title = 'delegate: only Assigned or In Process tasks are offered; another is refused in words before any question';
export const workbench = 'emulator';

export default async function run({ page, screenshot }) {
  // A Projected task, which cannot be delegated.
  await runCommand(page, 'DAM: New Task');
  const form = activeWebview(page);
  await form.locator('#projectId').waitFor({ state: 'visible', timeout: 60_000 });
  await form.locator('#status option').first().waitFor({ state: 'attached', timeout: 15_000 });
  const name = `Not yet assigned ${Date.now() % 100000}`;
  await form.locator('#name').fill(name);
  await form.locator('#status').selectOption({ label: 'Projected' });
  await form.locator('#startType').selectOption({ label: 'As soon as possible' });
  await form.locator('#durationDays').fill('1');
  await form.locator('#principals').selectOption([{ index: 0 }]);
  await form.locator('#create').click();
  const result = form.locator('#result').filter({ hasText: 'Created task' });
  await result.waitFor({ state: 'visible', timeout: 30_000 });
  const id = /Created task (\d+)/.exec(await result.innerText())?.[1];
  if (!id) throw new Error(`no task id in ${await result.innerText()}`);

  await runCommand(page, 'DAM: Delegate Task…', { opensInput: true });
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title', { hasText: 'DAM: delegate a task' }).waitFor({ state: 'visible', timeout: 30_000 });
  await widget.locator('.quick-input-list .monaco-list-row', { hasText: 'Write launch copy' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  const rows = await widget.locator('.quick-input-list .monaco-list-row').allInnerTexts();
  if (rows.some((r) => r.includes(name))) throw new Error(`a Projected task is offered for delegation: ${JSON.stringify(rows)}`);
  if (!rows.every((r) => /Assigned|In Process/.test(r))) throw new Error(`a row is neither Assigned nor In Process: ${JSON.stringify(rows)}`);
  await screenshot('delegate-only-delegable');

  // Typed by id, the Projected task is refused at once, in words, and no person is asked for.
  await widget.locator('input').first().fill(id);
  await widget.locator('.quick-input-list .monaco-list-row', { hasText: `Task #${id}` }).first().waitFor({ state: 'visible' });
  await page.keyboard.press('Enter');
  const said = await waitForNotification(page, /can be delegated/, 30_000);
  if (!said.includes('is Projected') || /\(\d\)/.test(said)) throw new Error(`the refusal is not in words: ${said}`);
  if (await widget.locator('.quick-input-title', { hasText: name }).isVisible().catch(() => false)) throw new Error('the new person was asked for');
}
