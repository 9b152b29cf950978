// Pull Tenant Configuration into a folder whose files were changed by hand (issue 35, Wrong 5): the pull asks first,
// naming the changed files; Cancel keeps the edit; Replace Them replaces it. A clean folder pulls without asking.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { runCommand, waitForNotification } from './workbench.mjs';

export const title = 'tenant pull: a folder changed by hand is not replaced without asking, naming the files';
export const workbench = 'emulator';

/** Runs the pull and picks `dir` in code-server's own folder dialog (a quick input holding a path). */
async function pullInto(page, dir) {
  await runCommand(page, 'DAM: Pull Tenant Configuration into a Folder…', { opensInput: true });
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  // The dialog opens on the workspace and, once it has read that folder, writes the folder's path into its input over
  // whatever was typed meanwhile (VS Code's simple file dialog: its first listing is forced). A path typed before then
  // was replaced, and Pull Here took the workspace (seen on a loaded machine: "Pulled … into …/workspace."). Type once
  // the workspace's listing, which holds `dir`, shows.
  await page.locator('.quick-input-list .monaco-list-row', { hasText: basename(dir) }).first().waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill(`${dir}/`);
  // The dialog lists the folder's entries once it read the typed path; Enter then takes the folder itself.
  await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ state: 'visible', timeout: 15_000 }).catch(() => undefined);
  // The dialog's own button takes the typed folder; Enter could land on the list's `..` row while the dialog was still
  // reading the path (an empty folder lists only `..`), and the dialog then stayed open.
  const widget = page.locator('.quick-input-widget');
  for (let attempt = 1; ; attempt++) {
    // Pull Here takes what the input holds: the folder typed, never one the dialog put back.
    if ((await input.inputValue()) !== `${dir}/`) throw new Error(`the folder dialog holds ${await input.inputValue()}, not the folder typed`);
    await widget.locator('.monaco-button', { hasText: 'Pull Here' }).first().click({ timeout: 10_000 }).catch(() => page.keyboard.press('Enter'));
    if (await widget.waitFor({ state: 'hidden', timeout: 10_000 }).then(() => true, () => false)) return;
    if (attempt === 3) throw new Error(`the folder dialog stayed open after ${attempt} tries`);
    await input.fill(`${dir}/`);
  }
}

export default async function run({ page, screenshot, workspace }) {
  const dir = join(workspace, 'tenant-config');
  mkdirSync(dir, { recursive: true });
  await pullInto(page, dir);
  await waitForNotification(page, /Pulled \d+ fields, .* into .*tenant-config\./, 60_000);
  const file = join(dir, 'fields', 'Photographer.json');
  const pulled = readFileSync(file, 'utf8');

  // A clean folder pulls again without a question: the record of the pull is written anew.
  const record = join(dir, '.dam-pull.json');
  const recorded = statSync(record).mtimeMs;
  await pullInto(page, dir);
  const dialog = page.locator('.monaco-dialog-box');
  for (let waited = 0; statSync(record).mtimeMs === recorded; waited++) {
    if (await dialog.isVisible()) throw new Error(`a clean folder is not pulled without asking: ${await dialog.innerText()}`);
    if (waited > 120) throw new Error('the second pull into a clean folder wrote nothing');
    await page.waitForTimeout(500);
  }

  const edited = pulled.replace('"isRequired": false', '"isRequired": true');
  if (edited === pulled) throw new Error(`Photographer.json has no "isRequired": false:\n${pulled}`);
  writeFileSync(file, edited);
  await pullInto(page, dir);
  await dialog.waitFor({ state: 'visible', timeout: 60_000 });
  const asked = await dialog.innerText();
  if (!/would replace 1 file you changed/.test(asked) || !asked.includes('fields/Photographer.json')) throw new Error(`the pull asks: ${asked}`);
  await screenshot('tenant-pull-changed-by-hand');
  await dialog.locator('.monaco-button', { hasText: 'Cancel' }).first().click();
  await dialog.waitFor({ state: 'hidden' });
  if (readFileSync(file, 'utf8') !== edited) throw new Error('Cancel did not keep the edit');

  await pullInto(page, dir);
  await dialog.waitFor({ state: 'visible', timeout: 60_000 });
  await dialog.locator('.monaco-button', { hasText: 'Replace Them' }).first().click();
  await dialog.waitFor({ state: 'hidden' });
  for (let waited = 0; readFileSync(file, 'utf8') !== pulled; waited++) {
    if (waited > 120) throw new Error('Replace Them did not write the tenant’s configuration');
    await page.waitForTimeout(500);
  }
}
