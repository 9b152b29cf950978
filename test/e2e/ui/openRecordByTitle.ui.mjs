// DAM: Open Record from the palette asked for a record id (a GUID), which a new user has no way to know. It now
// searches records by the words typed and lists them by title, as the other palette commands do; the record picked
// opens as its document.
import { runCommand, quickInputTitle } from './workbench.mjs';

export const title = 'open a record from the palette: picked by words of its title, not by id';
export const workbench = 'emulator';

const RECORD = 'Coastal beach banner 130';

export default async function run({ page, screenshot }) {
  await runCommand(page, 'DAM: Open Record', { opensInput: true });
  const step = await quickInputTitle(page);
  if (!/Open Record/.test(step)) throw new Error(`the input is titled "${step}"`);
  const input = page.locator('.quick-input-widget input');
  const placeholder = (await input.getAttribute('placeholder')) ?? '';
  if (!/title/i.test(placeholder)) throw new Error(`the prompt does not ask for words of the title: "${placeholder}"`);
  await input.fill(RECORD.toLowerCase());
  const hit = page.locator('.quick-input-list .monaco-list-row', { hasText: RECORD }).first();
  await hit.waitFor({ state: 'visible', timeout: 30_000 });
  await screenshot('open-record-by-title');
  await hit.click();
  const tab = page.locator('.tabs-container .tab', { hasText: `${RECORD}.dam-record.json` }).first();
  await tab.waitFor({ state: 'visible', timeout: 60_000 });
  const text = (await page.locator('.part.editor .monaco-editor .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
  if (!text.includes(`"title": "${RECORD}"`)) throw new Error(`the opened document does not hold the record: ${text.slice(0, 200)}`);
}
