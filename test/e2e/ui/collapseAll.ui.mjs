// Issue 35: the DAM Explorer's Collapse All left the "Find in DAM" results group open. After Collapse All every row,
// the results group too, is folded, and stays folded once the tree has settled (its rows' badges arrive after).
import { findInDam, runCommand, treeRows, viewTitleAction } from './workbench.mjs';

export const title = 'Collapse All folds the Find in DAM results group too';
export const workbench = 'emulator';

const QUERY = 'beach';

/** The DAM Explorer's rows once they stop changing between two looks. */
async function settledRows(page) {
  let last = null;
  for (let i = 0; i < 60; i++) {
    const rows = await treeRows(page);
    if (last !== null && JSON.stringify(rows) === JSON.stringify(last)) return rows;
    last = rows;
    await page.waitForTimeout(500);
  }
  throw new Error(`the DAM Explorer did not settle: ${JSON.stringify(last)}`);
}

export default async function run({ page, screenshot }) {
  await findInDam(page, QUERY);
  const results = page.locator('.part.sidebar [role="treeitem"]', { hasText: `Results for “${QUERY}”` }).first();
  await page.locator('.part.sidebar .pane-header', { hasText: 'DAM Explorer' }).hover();
  await (await viewTitleAction(page, 'DAM Explorer', 'Collapse All')).click();
  await page.waitForFunction((el) => el.getAttribute('aria-expanded') === 'false', await results.elementHandle(), { timeout: 30_000 });
  const check = async (when) => {
    const rows = await settledRows(page);
    const open = rows.filter((r) => r.expanded === 'true').map((r) => r.label);
    if (open.length) throw new Error(`${when} these rows are open: ${JSON.stringify(open)}`);
    if (rows.some((r) => r.level > 1)) throw new Error(`${when} rows below the top level show: ${JSON.stringify(rows.filter((r) => r.level > 1).map((r) => r.label))}`);
  };
  await check('after Collapse All');
  await screenshot('collapse-all');
  // The tree redraws by itself (a refresh, a record changed elsewhere): what the user folded stays folded.
  await runCommand(page, 'DAM: Refresh');
  await check('after Collapse All and a refresh');
}
