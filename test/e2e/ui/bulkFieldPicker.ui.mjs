// The bulk update's field picker named each field by its name with the service's type identifier beside it
// (`SingleLineText`): it now shows the field's label, its name, and its kind in words.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openFile, pick, runCommand } from './workbench.mjs';

export const title = 'bulk update field picker: labels, names and kinds in words';
export const workbench = 'emulator';

export default async function run({ page, workspace, screenshot }) {
  writeFileSync(join(workspace, 'field-picker.dam-query'), 'Title = "Coastal beach banner 130"\n');
  await openFile(page, join(workspace, 'field-picker.dam-query'));
  await runCommand(page, 'DAM: Update Records Matching Query…', { opensInput: true });
  await pick(page, 'Set a field…');
  const rows = page.locator('.quick-input-widget:visible .quick-input-list .monaco-list-row');
  await rows.filter({ hasText: 'Photographer, credit' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  const texts = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  const identifiers = texts.filter((t) => /SingleLineText|MultiLineText|OptionList|ClassificationList|TextList|\bDate\b/.test(t));
  if (identifiers.length) throw new Error(`the field picker shows type identifiers: ${identifiers.join(' | ')}`);
  const photographer = texts.find((t) => t.startsWith('Photographer, credit'));
  if (!photographer || !/Photographer · single-line text/.test(photographer)) throw new Error(`the Photographer row is not label, name and kind: ${photographer}`);
  await screenshot('bulk-field-picker');
  // The name the query language uses still finds the field (the list matches on the description too).
  await page.locator('.quick-input-widget:visible input').first().fill('UsageRights');
  const usage = rows.filter({ hasText: 'Usage rights' }).first();
  await usage.waitFor({ state: 'visible', timeout: 10_000 });
  if (!/option list/.test(await usage.innerText())) throw new Error(`Usage rights is not said to be an option list: ${await usage.innerText()}`);
  await usage.click();
  // The option list's own picker comes next; then the text prompt of a text field says its kind in words too.
  await page.locator('.quick-input-widget:visible .quick-input-title', { hasText: 'the options to set' }).first().waitFor({ state: 'visible', timeout: 10_000 });
  await page.keyboard.press('Escape');
  await runCommand(page, 'DAM: Update Records Matching Query…', { opensInput: true });
  await pick(page, 'Set a field…');
  await pick(page, 'Photographer, credit');
  const prompt = page.locator('.quick-input-widget:visible .quick-input-message', { hasText: 'The new value of Photographer' }).first();
  await prompt.waitFor({ state: 'visible', timeout: 10_000 });
  const said = await prompt.innerText();
  if (!/single-line text/.test(said) || /SingleLineText/.test(said)) throw new Error(`the value prompt does not say the kind in words: ${said}`);
  await page.keyboard.press('Escape');
}
