// DAM: Delegate Task… from the palette: the task is picked by its name from the tenant's tasks (each row says
// its id, status and end), not typed as a number; typing an id still offers that task. The delegation then
// names the new user.
import { pick, runCommand, waitForNotification } from './workbench.mjs';

export const title = 'tasks by name: Delegate Task picks the task from a list of names, a typed id still works';
export const workbench = 'emulator';

export default async function run({ page, screenshot }) {
  await runCommand(page, 'DAM: Delegate Task…', { opensInput: true });
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title', { hasText: 'DAM: delegate a task' }).waitFor({ state: 'visible', timeout: 30_000 });
  const row = widget.locator('.quick-input-list .monaco-list-row', { hasText: 'Write launch copy' }).first();
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  const text = await row.innerText();
  if (!/#5001/.test(text) || !/In Process/.test(text)) throw new Error(`the task's row does not show its id and status: ${JSON.stringify(text)}`);
  await screenshot('task-pick');

  // A typed id the list does not hold is offered as itself, above the names.
  const input = widget.locator('input').first();
  await input.fill('987654');
  await widget.locator('.quick-input-list .monaco-list-row', { hasText: 'Task #987654' }).first().waitFor({ state: 'visible' });
  // Typing the listed task's id finds it by its description.
  await input.fill('5001');
  await widget.locator('.quick-input-list .monaco-list-row', { hasText: 'Write launch copy' }).first().waitFor({ state: 'visible' });
  if ((await widget.locator('.quick-input-list .monaco-list-row', { hasText: 'Task #5001' }).count()) > 0) throw new Error('a listed task is offered twice, by name and by id');
  await page.keyboard.press('Enter');

  // The seeded task has one assignee: the next step is whom to hand it to, by name.
  await widget.locator('.quick-input-title', { hasText: 'Write launch copy' }).waitFor({ state: 'visible', timeout: 30_000 });
  const first = widget.locator('.quick-input-list .monaco-list-row').first();
  await first.waitFor({ state: 'visible' });
  const who = (await first.locator('.label-name').innerText()).trim();
  if (/^\d+$|^user \d+$/.test(who)) throw new Error(`the new user is shown as an id: ${who}`);
  await pick(page, who);
  const message = await waitForNotification(page, /delegated to/, 30_000);
  if (!message.includes('"Write launch copy"') || !message.includes(who)) throw new Error(`the message does not name the task and the user: ${message}`);
}
