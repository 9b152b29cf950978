// Issue 27, items 1 and 2: 99999999 days then Tab hung the extension host (a working-time walk that never
// ended); now the form says what it takes and the host keeps answering. −3 hours is refused in the form's
// words (not EnteredEstimatedDurationHour), and as soon as possible Create needs no begin, as the note says.
import { activeWebview, runCommand } from './workbench.mjs';

export const title = 'task form: every number is bounded in the form’s words; as soon as possible needs no begin';
export const workbench = 'emulator';

export default async function run({ page, screenshot }) {
  await runCommand(page, 'DAM: New Task');
  const form = activeWebview(page);
  await form.locator('#projectId').waitFor({ state: 'visible', timeout: 60_000 });
  await form.locator('#status option').first().waitFor({ state: 'attached', timeout: 15_000 });
  await form.locator('#name').fill('Bounded duration');
  await form.locator('#status').selectOption({ label: 'Projected' });
  await form.locator('#startType').selectOption({ label: 'As soon as possible' });

  await form.locator('#durationDays').fill('99999999');
  await form.locator('#durationDays').press('Tab');
  const durationError = form.locator('#err-duration');
  await durationError.filter({ hasText: 'Days must be at most 9999' }).waitFor({ state: 'visible', timeout: 15_000 });
  await screenshot('task-form-days-bounded');

  // The host still answers: the next change is checked at once (it was stuck at 100% CPU before).
  await form.locator('#durationDays').fill('2');
  await form.locator('#durationHours').fill('-3');
  await form.locator('#durationHours').press('Tab');
  await durationError.filter({ hasText: 'Hours must be 0 or more' }).waitFor({ state: 'visible', timeout: 15_000 });
  if (/Entered|EstimatedDuration/.test(await durationError.innerText())) throw new Error(`the form names the API's field: ${await durationError.innerText()}`);

  // As soon as possible with a duration and no begin: no error, and Create creates the task.
  await form.locator('#durationHours').fill('');
  await form.locator('#durationHours').press('Tab');
  await form.locator('#derived').filter({ hasText: "the task begins at the project's start" }).waitFor({ state: 'visible', timeout: 15_000 });
  if ((await form.locator('#beginDate').inputValue()) !== '') throw new Error('the begin is not empty');
  await form.locator('#principals').selectOption([{ index: 0 }]);
  await form.locator('#create').click();
  await form.locator('#result').filter({ hasText: 'Created task' }).waitFor({ state: 'visible', timeout: 30_000 });
  const shown = (await form.locator('.field .error').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
  if (shown.length) throw new Error(`errors shown after Create: ${JSON.stringify(shown)}`);
  await screenshot('task-form-asap-created');
}
