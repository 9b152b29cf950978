// A person types a query in a .dam-query file (issue 21, item 2): the suggestions must not get in the way.
// After a closing quote nothing opens and Enter makes a new line; a space after a whole criterion opens
// nothing either; after `contains` the list offers something to write (values used before, a quoted-text
// snippet), not only `?`; at the start of a criterion the properties come first.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openFile } from './workbench.mjs';

export const title = 'completion: no list after a closing quote, values after an operator, fields first';
export const workbench = 'emulator';

const suggest = (page) => page.locator('.editor-widget.suggest-widget.visible');

/**
 * The labels of the open suggest widget, in the order shown, once the list has settled: while the last word is
 * typed the widget can still show the list filtered by that word (CI read ["contains"] after 'contains ').
 */
async function suggestions(page, expected = () => true) {
  await suggest(page).locator('.monaco-list-row').first().waitFor({ state: 'visible', timeout: 15_000 });
  const read = async () => (await suggest(page).locator('.monaco-list-row .label-name').allInnerTexts()).map((t) => t.trim());
  let last = await read();
  // Settled: the same list twice in a row, and (when the caller knows) the list it waits for; at most 10 s.
  for (let i = 0; i < 33; i++) {
    await page.waitForTimeout(300);
    const now = await read();
    if (JSON.stringify(now) === JSON.stringify(last) && expected(now)) return now;
    last = now;
  }
  return last;
}

/** The editor's text, line by line, as the document holds it. */
async function lines(page) {
  return page.locator('.part.editor .monaco-editor .view-lines').first().evaluate((el) =>
    [...el.querySelectorAll('.view-line')]
      .map((l) => ({ top: parseFloat(l.style.top), text: l.textContent.replace(/\u00a0/g, ' ') }))
      .sort((a, b) => a.top - b.top)
      .map((l) => l.text),
  );
}

/** Waits long enough for a suggest widget to have opened, then says whether one did. */
async function suggestOpens(page) {
  await page.waitForTimeout(1200);
  return suggest(page).isVisible();
}

export default async function run({ page, screenshot, workspace }) {
  writeFileSync(join(workspace, 'typing.dam-query'), '### Typing\n# @name Typing\n');
  await openFile(page, join(workspace, 'typing.dam-query'));
  await page.locator('.part.editor .monaco-editor').first().click();
  await page.keyboard.press('Control+End');

  // A closing quote completes the literal: no list, and Enter starts a new line.
  await page.keyboard.type('ContentType = Image AND Title = "harbour', { delay: 40 });
  await page.keyboard.press('Escape');
  await page.keyboard.type('"', { delay: 40 });
  if (await suggestOpens(page)) throw new Error(`a suggest list opened after the closing quote: ${(await suggestions(page)).slice(0, 5).join(', ')}`);
  await page.keyboard.press('Enter');
  let text = await lines(page);
  if (text.some((l) => l.includes('AdditionalFile'))) throw new Error(`Enter inserted a suggestion: ${JSON.stringify(text)}`);
  if (text.at(-2)?.trim() !== 'ContentType = Image AND Title = "harbour"' || text.at(-1)?.trim() !== '') {
    throw new Error(`Enter did not start a new line after the literal: ${JSON.stringify(text)}`);
  }

  // A space after a whole criterion does not open the list either.
  await page.keyboard.type('OR ContentStatus = Draft ', { delay: 40 });
  if (await suggestOpens(page)) throw new Error(`a suggest list opened after a space that ends a criterion: ${(await suggestions(page)).slice(0, 5).join(', ')}`);

  // After an operator: something to write, the value used before in this query first.
  await page.keyboard.type('OR Title contains ', { delay: 40 });
  const values = await suggestions(page, (list) => list.includes('harbour'));
  await screenshot('completion-values');
  if (values.length < 3 || !values.includes('harbour') || !values.includes('"words"')) {
    throw new Error(`after 'contains' the list offers ${JSON.stringify(values)}: expected the value used before and a quoted-text snippet`);
  }
  if (values.indexOf('harbour') > values.indexOf('?')) throw new Error(`the placeholder ? comes before the values: ${JSON.stringify(values)}`);
  await page.keyboard.press('Escape');

  // At the start of a criterion (a new line after a whole one), properties come before AND, OR and NOT.
  await page.keyboard.type('"summer"', { delay: 40 });
  await page.keyboard.press('Escape');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+Space');
  const start = await suggestions(page);
  await screenshot('completion-line-start');
  if (['AND', 'OR', 'NOT'].includes(start[0])) throw new Error(`at the start of a criterion the list begins with ${start[0]}: ${JSON.stringify(start.slice(0, 8))}`);
  if (start[0] !== 'AdditionalFile') throw new Error(`expected the properties first, the list begins ${JSON.stringify(start.slice(0, 8))}`);
  await page.keyboard.press('Escape');
  text = await lines(page);
  if (!text.some((l) => l.includes('Title contains "summer"'))) throw new Error(`the typed query is not in the editor: ${JSON.stringify(text)}`);
}
