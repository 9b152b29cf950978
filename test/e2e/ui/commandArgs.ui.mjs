// Commands run from title bars and menus receive whatever VS Code passes there (issue 21, item 1): with a
// tree item selected, every button of the DAM Explorer's title bar and of the Check Results view's must do
// its job (Find in DAM failed with "t?.trim is not a function"), and the editor title's Run runs the query
// under the cursor. No error may reach the notification centre.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expandPane, notificationMessages, openFile, quickInputTitle, treeRow, viewTitleAction, waitForOutputChannel } from './workbench.mjs';

export const title = 'title-bar and menu commands with a tree item selected: Find, Refresh, Switch, Connect, Log, Run';
export const workbench = 'emulator';

/**
 * A command of the view's "More Actions…" menu. The menu closes when the tree under it redraws: the Refresh clicked just
 * before answers whenever the service does (on a loaded machine, after the menu opened: its item went inert, then was
 * detached, and the click waited out its timeout). A menu that closed before its item was clicked is opened again.
 */
async function overflowAction(page, view, label) {
  const item = page.locator('.monaco-menu .action-item', { hasText: label }).first();
  for (let attempt = 1; ; attempt++) {
    await (await viewTitleAction(page, view, 'More Actions')).click();
    try {
      await item.waitFor({ state: 'visible', timeout: 10_000 });
      await item.click({ timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
      console.log(`    (the More Actions menu closed before “${label}” was clicked: opening it again)`);
      await page.keyboard.press('Escape');
    }
  }
}

async function assertNoErrors(page, when) {
  const messages = await notificationMessages(page);
  const errors = messages.filter((m) => /is not a function|Cannot read|undefined|TypeError/i.test(m));
  if (errors.length) throw new Error(`${when}: ${JSON.stringify(errors)}`);
}

export default async function run({ page, screenshot, workspace }) {
  // A classification selected, then Find from the title bar: the search box, then the results.
  await treeRow(page, 'Products').click();
  await (await viewTitleAction(page, 'DAM Explorer', 'Find in DAM')).click();
  const findTitle = await quickInputTitle(page).catch(async () => {
    throw new Error(`Find in DAM opened no search box; notifications: ${JSON.stringify(await notificationMessages(page))}`);
  });
  if (!/Find in DAM/.test(findTitle)) throw new Error(`the search box is titled ${findTitle}`);
  await page.locator('.quick-input-widget input').fill('harbour');
  await page.keyboard.press('Enter');
  await page.locator('.part.sidebar [role="treeitem"]', { hasText: 'Results for' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  await assertNoErrors(page, 'after Find in DAM');

  // A record selected: Refresh, Switch Connection, and the overflow menu's Connect and Show Log.
  await page.locator('.part.sidebar [role="treeitem"][aria-level="2"]').first().click();
  await (await viewTitleAction(page, 'DAM Explorer', 'Refresh')).click();
  await (await viewTitleAction(page, 'DAM Explorer', 'Switch Connection')).click();
  if (!/switch connection/i.test(await quickInputTitle(page))) throw new Error('Switch Connection opened no picker');
  await page.keyboard.press('Escape');
  await overflowAction(page, 'DAM Explorer', 'Connect to a Tenant');
  if (!/Connect to a tenant/i.test(await quickInputTitle(page))) throw new Error('Connect to a Tenant opened no wizard');
  await page.keyboard.press('Escape');
  await overflowAction(page, 'DAM Explorer', 'Show Log');
  await waitForOutputChannel(page, 'DAM');
  await expandPane(page, 'Check Results');
  await (await viewTitleAction(page, 'Check Results', 'Refresh Check Results')).click();
  await assertNoErrors(page, 'after the title-bar commands');

  // The editor title's Run (which passes the editor's resource and group) runs the query under the cursor.
  writeFileSync(join(workspace, 'two.dam-query'), '### First\n# @name First query\nContentType = Image\n\n### Second\n# @name Second query\nContentType = Video\n');
  await openFile(page, join(workspace, 'two.dam-query'));
  await page.locator('.part.editor .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+End');
  await page.locator('.part.editor .editor-actions .action-label[aria-label^="Run Query"]').first().click();
  await page.locator('.tabs-container .tab', { hasText: 'DAM: Second query' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  await assertNoErrors(page, 'after Run from the editor title');
  await screenshot('command-args');
}
