// The task form as a first-time user meets it (issue 21, item 8): no errors before a field was touched, an
// error once a field is left empty, every control labelled, projects, statuses, calendars and people by
// name (no "(2)"), the dates the service will set itself explained beside the dates, and the outcome of
// Create announced at the top, in view.
import { activeWebview, runCommand } from './workbench.mjs';

export const title = 'task form: validate on blur, labels, names, derived dates explained, success at the top';
export const workbench = 'emulator';

export default async function run({ page, screenshot }) {
  await runCommand(page, 'DAM: New Task');
  const form = activeWebview(page);
  await form.locator('#projectId').waitFor({ state: 'visible', timeout: 60_000 });
  // The host answers the first validation right after the form is built.
  await form.locator('#status option').first().waitFor({ state: 'attached', timeout: 15_000 });

  const shownErrors = async () => (await form.locator('.field .error').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
  const early = await shownErrors();
  if (early.length) throw new Error(`errors show before any field was touched: ${JSON.stringify(early)}`);

  // Every control has a name a screen reader reads.
  const unlabelled = await form.locator('body').evaluate(() =>
    [...document.querySelectorAll('input, select')]
      .filter((el) => el.type !== 'hidden' && !el.closest('[hidden]'))
      .filter((el) => !(el.labels && el.labels.length) && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'))
      .map((el) => el.id || el.outerHTML.slice(0, 80)),
  );
  if (unlabelled.length) throw new Error(`controls without a label: ${JSON.stringify(unlabelled)}`);
  for (const [id, label] of [['beginDate', 'Begin'], ['endDate', 'End']]) {
    const text = await form.locator(`#${id}`).evaluate((el) => el.labels?.[0]?.textContent?.trim() ?? '');
    if (text !== label) throw new Error(`#${id} is labelled “${text}”, expected “${label}”`);
  }

  // Names, not numbers.
  const options = await form.locator('select option').allInnerTexts();
  const numbered = options.filter((o) => /\(\d+\)|^\d+$/.test(o.trim()));
  if (numbered.length) throw new Error(`choices shown by number: ${JSON.stringify(numbered)}`);

  // Validate on blur: leaving the duration empty (no two of begin, end and duration) shows its error then, not before.
  // The form starts as soon as possible, where the begin is the project's start: the error is the duration's, not
  // the begin's (a red begin beside 'the begin entered here is not used' told a new user two things at once).
  // (Tab would move between the date's own parts: leave the field as a click elsewhere does.)
  await form.locator('#durationDays').focus();
  await form.locator('#durationDays').blur();
  await form.locator('#err-duration').filter({ hasText: 'Enter the duration' }).waitFor({ state: 'visible', timeout: 15_000 });
  if ((await form.locator('#durationDays').getAttribute('aria-invalid')) !== 'true') throw new Error('the duration is not marked invalid');
  await form.locator('#beginDate').focus();
  await form.locator('#beginDate').blur();
  if ((await form.locator('#err-beginDate').innerText()).trim() !== '') throw new Error(`the begin shows an error though it is not used: ${await form.locator('#err-beginDate').innerText()}`);
  // Each duration box shows its unit.
  const units = (await form.locator('.unit').allInnerTexts()).map((u) => u.trim());
  if (JSON.stringify(units) !== JSON.stringify(['days', 'hours', 'minutes'])) throw new Error(`the duration boxes do not show their units: ${JSON.stringify(units)}`);

  // A task that starts as soon as possible: the form says the begin will be the project's start.
  await form.locator('#name').fill('Press kit check');
  await form.locator('#status').selectOption({ label: 'Projected' });
  await form.locator('#startType').selectOption({ label: 'As soon as possible' });
  // The begin is not the user's to give then: its box is disabled beside the note.
  await form.locator('#beginDate:disabled').waitFor({ state: 'visible', timeout: 15_000 });
  await form.locator('#durationDays').fill('2');
  const derived = form.locator('#derived');
  await derived.filter({ hasText: "the task begins at the project's start" }).waitFor({ state: 'visible', timeout: 15_000 });
  await screenshot('task-form-derived');

  await form.locator('#principals').selectOption([{ index: 0 }]);
  await form.locator('#create').click();
  const result = form.locator('#result');
  await result.filter({ hasText: 'Created task' }).waitFor({ state: 'visible', timeout: 30_000 });
  const box = await result.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, height: window.innerHeight, focused: document.activeElement === el };
  });
  if (box.top < 0 || box.bottom > box.height) throw new Error(`the outcome is out of view: ${JSON.stringify(box)}`);
  if (!box.focused) throw new Error('the outcome does not take the focus (a screen reader would not hear it)');
  await screenshot('task-form-created-top');
}
