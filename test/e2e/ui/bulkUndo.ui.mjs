// A bulk update from a .dam-query file and its undo, as a person does it from the packaged extension (issue 35, bulk
// update items): the dry-run dialog names the query by its text and shows each record's old → new value, the field
// by its label as the picker shows it; Show Dry Run opens a read-only preview (no dirty Untitled file); after the
// update, Undo This Update on its notification puts the values back, skipping and naming the record another client
// changed since; no progress notification is left behind.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { answer, clickNotificationButton, dam, notificationMessages, openFile, pick, runCommand, waitForNotification } from './workbench.mjs';

export const title = 'bulk update: dry run preview old → new, then Undo This Update skips the record changed since';
export const workbench = 'emulator';

const photographerOf = (runDir, id) => JSON.parse(dam(runDir, 'records', 'get', id, '--json')).fields.Photographer;

export default async function run({ page, runDir, screenshot, workspace }) {
  // Three records no other UI test changes, found as another client finds them.
  const taken = /Vivid office desk portrait 278|Autumn office desk portrait 393/;
  const hits = dam(runDir, 'search', 'ContentType = Image', '--json', '--page-size', '20')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .filter((h) => !taken.test(h.title))
    .slice(-3);
  if (hits.length !== 3) throw new Error(`found ${hits.length} records to update`);
  const before = hits.map((h) => photographerOf(runDir, h.id));
  const expression = hits.map((h) => `Title = "${h.title}"`).join(' OR ');
  writeFileSync(join(workspace, 'bulk-undo.dam-query'), `${expression}\n`);
  await openFile(page, join(workspace, 'bulk-undo.dam-query'));

  await runCommand(page, 'DAM: Update Records Matching Query…', { opensInput: true });
  await pick(page, 'Set a field…');
  await pick(page, 'Photographer');
  await answer(page, 'The new value of Photographer', 'Bulk undo UI test');

  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: 60_000 });
  const dryRun = await dialog.innerText();
  if (/Query 1 \(|bulk-undo\.dam-query/.test(dryRun) || !dryRun.includes(`“${expression}”`)) throw new Error(`the dry run does not name the query by its text: ${dryRun}`);
  if (!dryRun.includes(`(${hits[0].id})`) || !/Photographer, credit \(Photographer\): .* → "Bulk undo UI test"/.test(dryRun)) throw new Error(`the dry run shows no record's old → new value: ${dryRun}`);
  // The field as its picker showed it (label, then the name the label hides), not by its name alone as the CLI does.
  if (!/Photographer, credit \(Photographer\): 3 records/.test(dryRun) || /^\s*Photographer:/m.test(dryRun)) throw new Error(`the dry run does not name the field by its label: ${dryRun}`);
  await screenshot('bulk-dry-run-preview');

  // Show Dry Run: a read-only preview tab, not a dirty Untitled file; the dialog comes back.
  await dialog.locator('.monaco-button', { hasText: 'Show Dry Run' }).click();
  await page.locator('.tabs-container .tab', { hasText: /Dry run/ }).first().waitFor({ state: 'visible', timeout: 30_000 });
  await dialog.waitFor({ state: 'visible', timeout: 30_000 });
  if (await page.locator('.tabs-container .tab', { hasText: /Untitled/ }).count()) throw new Error('Show Dry Run opened an Untitled file');
  if (await page.locator('.tabs-container .tab.dirty').count()) throw new Error('Show Dry Run left a dirty tab');
  await dialog.locator('.monaco-button', { hasText: 'Update 3 Records' }).click();
  await waitForNotification(page, /update on .*: 3 changed, 0 unchanged, 0 failed/, 60_000);
  for (const h of hits) if (photographerOf(runDir, h.id) !== 'Bulk undo UI test') throw new Error(`${h.title} was not updated`);

  // The finished update leaves no progress notification behind.
  const left = (await notificationMessages(page)).filter((m) => /updating \d+ records/i.test(m));
  if (left.length) throw new Error(`a finished update left its progress notification: ${left.join(' | ')}`);

  // Someone else changes one record after the update; undo must leave it alone and say so.
  dam(runDir, 'records', 'update', hits[2].id, '--set', 'Photographer=Changed by someone else');
  await clickNotificationButton(page, /update on .*: 3 changed/, 'Undo This Update');
  await dialog.waitFor({ state: 'visible', timeout: 60_000 });
  const asked = await dialog.innerText();
  if (!/2 records get back the values before it; 1 record changed since by someone else is skipped/.test(asked) || !asked.includes(hits[2].title)) throw new Error(`the undo asks: ${asked}`);
  if (!/Photographer, credit \(Photographer\): "Bulk undo UI test" → /.test(asked)) throw new Error(`the undo does not name the field by its label: ${asked}`);
  await screenshot('bulk-undo-confirm');
  await dialog.locator('.monaco-button', { hasText: 'Undo 2 Records' }).click();
  await waitForNotification(page, /undo of the update on .*: 2 restored, 1 skipped \(changed since\)/, 60_000);
  for (const [i, h] of hits.slice(0, 2).entries()) {
    if (photographerOf(runDir, h.id) !== before[i]) throw new Error(`${h.title} was not restored: ${photographerOf(runDir, h.id)} (before: ${before[i]})`);
  }
  if (photographerOf(runDir, hits[2].id) !== 'Changed by someone else') throw new Error('the undo overwrote the change made since');
}
