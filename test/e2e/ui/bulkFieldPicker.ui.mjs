// The bulk update's field picker named each field by its name with the service's type identifier beside it
// (`SingleLineText`), then by label with "single-line text" and "option list": it now says what a field holds as a
// person says it ("single line of text", "list of options: Unrestricted, Internal only, Licensed", "date", a
// classification list's root by its path), by label, with the name the queries use only where the label does not say it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openFile, pick, runCommand } from './workbench.mjs';

export const title = 'bulk update field picker: labels, what each field holds in words, names only where they help';
export const workbench = 'emulator';

export default async function run({ page, workspace, screenshot }) {
  writeFileSync(join(workspace, 'field-picker.dam-query'), 'Title = "Coastal beach banner 130"\n');
  await openFile(page, join(workspace, 'field-picker.dam-query'));
  await runCommand(page, 'DAM: Update Records Matching Query…', { opensInput: true });
  await pick(page, 'Set a field…');
  const rows = page.locator('.quick-input-widget:visible .quick-input-list .monaco-list-row');
  await rows.filter({ hasText: 'Photographer, credit' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  const texts = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  const identifiers = texts.filter((t) => /SingleLineText|MultiLineText|OptionList|ClassificationList|TextList|single-line|option list|[0-9a-f]{32}/.test(t));
  if (identifiers.length) throw new Error(`the field picker shows type identifiers or ids: ${identifiers.join(' | ')}`);
  const row = (label) => texts.find((t) => t.startsWith(label)) ?? '';
  const expected = [
    ['Photographer, credit', /^Photographer, credit ?single line of text · named Photographer in queries$/],
    ['Usage rights', /^Usage rights ?list of options: Unrestricted, Internal only, Licensed$/],
    ['Publication date', /^Publication date ?date$/],
    ['Product line', /^Product line ?list of classifications under \/Products$/],
    ['Keywords', /^Keywords ?list of texts$/],
  ];
  const wrong = expected.filter(([label, re]) => !re.test(row(label))).map(([label]) => `${label}: '${row(label)}'`);
  if (wrong.length) throw new Error(`the field picker's rows do not read as expected: ${wrong.join(' | ')}`);
  await screenshot('bulk-field-picker');
  // The same list in a dark theme (descriptions are dimmed: they must stay readable), then back to the light one.
  await page.keyboard.press('Escape');
  await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
  try {
    await page.locator('.monaco-workbench.vs-dark').first().waitFor({ state: 'attached', timeout: 10_000 });
    await runCommand(page, 'DAM: Update Records Matching Query…', { opensInput: true });
    await pick(page, 'Set a field…');
    await rows.filter({ hasText: 'Photographer, credit' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await page.mouse.move(700, 700);
    await screenshot('bulk-field-picker-dark');
    await page.keyboard.press('Escape');
  } finally {
    await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
  }
  await runCommand(page, 'DAM: Update Records Matching Query…', { opensInput: true });
  await pick(page, 'Set a field…');
  await rows.filter({ hasText: 'Photographer, credit' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  // The list filters on what it shows.
  await page.locator('.quick-input-widget:visible input').first().fill('usage');
  const usage = rows.filter({ hasText: 'Usage rights' }).first();
  await usage.waitFor({ state: 'visible', timeout: 10_000 });
  await usage.click();
  // The option list's own picker shows the options by label; then the text prompt of a text field says its kind too.
  const options = page.locator('.quick-input-widget:visible .quick-input-list .monaco-list-row');
  await options.filter({ hasText: 'Internal only' }).first().waitFor({ state: 'visible', timeout: 10_000 });
  const optionTexts = (await options.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  if (optionTexts.some((t) => /InternalOnly/.test(t) && !/named InternalOnly in queries/.test(t))) throw new Error(`an option is shown by its name: ${optionTexts.join(' | ')}`);
  await page.locator('.quick-input-widget:visible .quick-input-title', { hasText: 'Usage rights: the options to set' }).first().waitFor({ state: 'visible', timeout: 10_000 });
  await screenshot('bulk-option-picker');
  await page.keyboard.press('Escape');
  await runCommand(page, 'DAM: Update Records Matching Query…', { opensInput: true });
  await pick(page, 'Set a field…');
  await pick(page, 'Photographer, credit');
  const prompt = page.locator('.quick-input-widget:visible .quick-input-message', { hasText: 'The new value of Photographer, credit' }).first();
  await prompt.waitFor({ state: 'visible', timeout: 10_000 });
  const said = await prompt.innerText();
  if (!/\(single line of text\)/.test(said) || /SingleLineText/.test(said)) throw new Error(`the value prompt does not say the kind in words: ${said}`);
  await page.keyboard.press('Escape');
}
