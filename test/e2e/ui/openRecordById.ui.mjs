// Issue 35, wrong 9: in DAM: Open Record, an id pasted and Enter pressed at once opened nothing (the search of the id
// had not answered, so there was no hit to accept); a second Enter on the listed hit was needed. The id is taken on
// the first Enter.
import { runCommand } from './workbench.mjs';

export const title = 'open a record from the palette: an id pasted and Enter pressed at once opens it';
export const workbench = 'emulator';

const RECORD = 'Coastal beach banner 130';

async function editorText(page) {
  return (await page.locator('.part.editor .monaco-editor .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
}

export default async function run({ page, screenshot }) {
  // The record's id, as a user copies it from the record's document.
  await runCommand(page, 'DAM: Open Record', { opensInput: true });
  await page.locator('.quick-input-widget input').fill(RECORD.toLowerCase());
  await page.locator('.quick-input-list .monaco-list-row', { hasText: RECORD }).first().click({ timeout: 30_000 });
  const tab = page.locator('.tabs-container .tab', { hasText: `${RECORD}.dam-record.json` }).first();
  await tab.waitFor({ state: 'visible', timeout: 60_000 });
  const id = /"id": "([0-9a-fA-F-]{32,36})"/.exec(await editorText(page))?.[1];
  if (!id) throw new Error(`no id in the record's document: ${(await editorText(page)).slice(0, 200)}`);
  await runCommand(page, 'View: Close All Editors');
  await tab.waitFor({ state: 'hidden' });

  await runCommand(page, 'DAM: Open Record', { opensInput: true });
  const input = page.locator('.quick-input-widget input');
  // Pasted in one go and Enter at once: no wait for the list.
  await input.fill(id);
  await page.keyboard.press('Enter');
  await tab.waitFor({ state: 'visible', timeout: 60_000 });
  await screenshot('open-record-by-pasted-id');
  if (!(await editorText(page)).includes(`"title": "${RECORD}"`)) throw new Error('the record opened by its id is not the one whose id was pasted');
}
