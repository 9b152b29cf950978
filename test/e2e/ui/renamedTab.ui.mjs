// A record's title is part of its document's address (the tab shows it). After a save that changes the title the tab
// used to keep the old one while the DAM Explorer showed the new; then the document reopened under the new title beside
// the old tab, which closed after (two tabs for a moment). It now moves as a renamed file does: the one tab takes the
// new title in place, clean, with the cursor where it was, and no second tab shows at any moment.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { replaceValue } from './records.ui.mjs';
import { dam, findInDam, runCommand, treeRow } from './workbench.mjs';

export const title = 'renamed record: after a save that changes the title, the tab shows the new title';
export const workbench = 'emulator';

const tabLabels = (page) => page.locator('.part.editor .tabs-container .tab').evaluateAll((tabs) => tabs.map((t) => t.getAttribute('aria-label') ?? ''));

export default async function run({ page, runDir, screenshot }) {
  const words = `Renamed tab ${Date.now()}`;
  const file = join(runDir, `${words}.txt`);
  writeFileSync(file, 'a record for the renamed-tab UI test\n');
  const [uploaded] = JSON.parse(dam(runDir, 'upload', file, '--classification', '/Products', '--json'));
  const id = uploaded.recordId;
  const original = JSON.parse(dam(runDir, 'records', 'get', id, '--json')).title;

  await runCommand(page, 'DAM: Open Record', { opensInput: true });
  await page.locator('.quick-input-widget input').fill(id);
  await page.keyboard.press('Enter');
  const oldTab = page.locator('.tabs-container .tab', { hasText: `${original}.dam-record.json` }).first();
  await oldTab.waitFor({ state: 'visible', timeout: 60_000 });
  await page.locator('.part.editor .view-lines', { hasText: '"readOnly"' }).first().waitFor({ state: 'visible', timeout: 30_000 });

  const renamed = `${words} (renamed)`;
  await replaceValue(page, 'title', JSON.stringify(renamed));
  await page.locator('.tabs-container .tab.dirty').first().waitFor({ state: 'visible' });
  // The cursor on line 6, column 3: where it is after the rename too.
  await page.keyboard.press('Control+G');
  await page.locator('.quick-input-widget:visible input').first().fill(':6:3');
  await page.keyboard.press('Enter');
  const cursor = page.locator('.statusbar-item', { hasText: /^Ln \d+, Col \d+/ }).first();
  await cursor.filter({ hasText: 'Ln 6, Col 3' }).waitFor({ state: 'visible', timeout: 10_000 });
  // Every frame the page paints from here on is looked at: the record must never show in two tabs on screen (VS Code
  // itself may hold both tabs within one task while it swaps them, which no frame shows).
  await page.evaluate(() => {
    const tabs = () => [...document.querySelectorAll('.part.editor .tabs-container .tab')].map((t) => t.getAttribute('aria-label') ?? '');
    const watched = (window.__damRecordTabs = { max: 0, seen: [], frames: 0 });
    const sample = () => {
      if (watched.stopped) return;
      const all = tabs();
      const n = all.filter((l) => l.includes('.dam-record.json')).length;
      watched.frames++;
      watched.max = Math.max(watched.max, n);
      if (n > 1 && watched.seen.length < 3) watched.seen.push(all.join(' | '));
      window.requestAnimationFrame(sample);
    };
    window.requestAnimationFrame(sample);
  });
  await page.keyboard.press('Control+S');

  const newTab = page.locator('.tabs-container .tab', { hasText: `${renamed}.dam-record.json` }).first();
  await newTab.waitFor({ state: 'visible', timeout: 60_000 });
  await oldTab.waitFor({ state: 'detached', timeout: 30_000 });
  if (!(await newTab.getAttribute('class')).includes('active')) throw new Error('the renamed record\'s tab is not the active one');
  if ((await newTab.getAttribute('class')).includes('dirty')) throw new Error('the renamed record\'s tab is dirty');
  const labels = await tabLabels(page);
  if (labels.filter((l) => l.includes('.dam-record.json')).length !== 1) throw new Error(`the record is open in more than one tab: ${labels.join(', ')}`);
  const watched = await page.evaluate(() => Object.assign(window.__damRecordTabs, { stopped: true }));
  if (watched.frames < 2) throw new Error('no frame was painted while the record was saved and renamed');
  if (watched.max > 1) throw new Error(`the record showed in ${watched.max} tabs on screen during the rename: ${watched.seen[0]}`);
  await cursor.filter({ hasText: 'Ln 6, Col 3' }).waitFor({ state: 'visible', timeout: 10_000 }).catch(async () => {
    throw new Error(`the cursor moved in the rename: ${await cursor.innerText()}`);
  });
  // The editor still shows the record, and the tree agrees with the tab.
  await page.locator('.part.editor .view-lines', { hasText: renamed }).first().waitFor({ state: 'visible', timeout: 30_000 });
  await findInDam(page, words);
  await treeRow(page, renamed).waitFor({ state: 'visible', timeout: 30_000 });
  await screenshot('renamed-tab');

  // The document under its new name saves again (it is a record document, not a copy).
  await replaceValue(page, 'Photographer', '"After the rename"');
  await page.locator('.tabs-container .tab.dirty', { hasText: renamed }).first().waitFor({ state: 'visible' });
  await page.keyboard.press('Control+S');
  await page.locator('.tabs-container .tab.dirty').first().waitFor({ state: 'detached', timeout: 60_000 });
  const after = JSON.parse(dam(runDir, 'records', 'get', id, '--json'));
  if (after.fields.Photographer !== 'After the rename' || after.title !== renamed) throw new Error(`the save under the new name did not reach the tenant: ${JSON.stringify({ title: after.title, Photographer: after.fields.Photographer })}`);
}
