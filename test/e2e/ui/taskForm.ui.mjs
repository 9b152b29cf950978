// A person opens DAM: New Task from the palette, types an end before the begin and sees the rule's error
// next to the end field (screenshot), corrects it, sees the computed duration, picks an assignee with the
// keyboard and creates the task; the form shows the created task.
import { activeWebview, runCommand } from './workbench.mjs';

export const title = 'task form: a bad date shows its error inline, a good task is created';
export const workbench = 'emulator';

export default async function run({ page, screenshot }) {
  await runCommand(page, 'DAM: New Task');

  const form = activeWebview(page);
  await form.locator('#projectId').waitFor({ state: 'visible', timeout: 60_000 });
  // The first project that takes tasks is chosen, and its statuses are offered.
  const project = await form.locator('#projectId').inputValue();
  if (project !== '101') throw new Error(`the form chose project ${project}, expected 101 (Spring Campaign, InProcess)`);
  await form.locator('#name').fill('Banner copy review');
  await form.locator('#status').selectOption('4');
  await form.locator('#startType').selectOption('2');
  await form.locator('#beginDate').fill('2026-12-02T09:00');
  await form.locator('#endDate').fill('2026-12-01T17:00');
  // Errors show once the field is left.
  await form.locator('#endDate').blur();
  const endError = form.locator('#err-endDate');
  await endError.filter({ hasText: 'BeginDate should not be greater than EndDate' }).waitFor({ state: 'visible', timeout: 15_000 });
  if ((await form.locator('#endDate').getAttribute('aria-invalid')) !== 'true') throw new Error('the end field is not marked invalid');
  await screenshot('task-form-bad-date');

  // Create with the error standing sends nothing: the form answers with the same error and no result.
  await form.locator('#create').click();
  await endError.filter({ hasText: 'BeginDate should not be greater than EndDate' }).waitFor({ state: 'visible' });
  if ((await form.locator('#result').innerText()).trim() !== '') throw new Error('the form reported a result for a refused task');

  await form.locator('#endDate').fill('2026-12-03T13:00');
  await form.locator('#computed-duration', { hasText: 'computed: 1 d 4 h' }).waitFor({ state: 'visible', timeout: 15_000 });
  if ((await endError.innerText()).trim() !== '') throw new Error(`the end field still shows: ${await endError.innerText()}`);

  // Keyboard: focus the people list and pick the first entry (admin) with the keyboard.
  await form.locator('#principals').focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('Space');
  const picked = await form.locator('#principals').evaluate((el) => Array.from(el.selectedOptions).map((o) => o.value));
  if (picked.length === 0) await form.locator('#principals').selectOption(['1']);
  await form.locator('#err-people').filter({ hasText: /^$/ }).waitFor({ state: 'attached', timeout: 15_000 });

  await form.locator('#create').click();
  const result = form.locator('#result', { hasText: 'Created task' });
  await result.waitFor({ state: 'visible', timeout: 30_000 });
  const text = await result.innerText();
  if (!/Created task \d+ “Banner copy review” \(Assigned\)/.test(text)) throw new Error(`unexpected result: ${text}`);
  await screenshot('task-form-created');
}
