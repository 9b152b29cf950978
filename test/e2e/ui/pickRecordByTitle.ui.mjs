// Second walk of issue 27: Publish Check Result run from the palette asked for a "Record id", which a new user
// has no way to know. It now searches records by the words typed and lists them by title; the one picked gets
// the result, shown in the Check Results view.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expandPane, openFile, pick, quickInputTitle, runCommand, treeRows } from './workbench.mjs';

export const title = 'publish a check result from the palette: the record is picked by words of its title, not by id';
export const workbench = 'emulator';

export default async function run({ page, screenshot, workspace }) {
  const check = `Walk brand voice ${Date.now()}`;
  const file = join(workspace, 'voice.dam-check.json');
  writeFileSync(file, JSON.stringify({ check, category: 'Brand Consistency', outcome: 'warning', description: 'Tone is informal.' }, null, 2));
  await openFile(page, file);
  await runCommand(page, 'DAM: Publish Check Result', { opensInput: true });
  const step = await quickInputTitle(page);
  if (!/publish the check result to/.test(step)) throw new Error(`the first step is "${step}"`);
  const input = page.locator('.quick-input-widget input');
  const placeholder = (await input.getAttribute('placeholder')) ?? '';
  if (/\bid\b/i.test(placeholder.replace(/\(or its id\)|\(its master file.*\)/, ''))) throw new Error(`the prompt asks for an id: ${placeholder}`);
  await input.fill('coastal beach banner 130');
  const hit = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Coastal beach banner 130' }).first();
  await hit.waitFor({ state: 'visible', timeout: 30_000 });
  await screenshot('pick-record-by-title');
  await hit.click();
  await pick(page, 'Publish the result');

  const deadline = Date.now() + 60_000;
  for (;;) {
    // Unfolded in the loop: Publish reveals the view itself, and a click on a header that was folded a moment
    // ago can fold it again.
    await expandPane(page, 'Check Results');
    const rows = await treeRows(page, 'Check Results');
    if (rows.some((r) => r.label.includes(check))) break;
    if (Date.now() > deadline) throw new Error(`the published result is not in Check Results: ${JSON.stringify(rows.map((r) => r.label))}`);
    await page.waitForTimeout(500);
  }
}
