// A person opens the DAM view, starts the local emulator from the welcome view, and expands the
// classification tree three levels; the screenshot shows the expanded tree.
import { openViewContainer } from './workbench.mjs';

export const title = 'start the emulator from the welcome view and expand the tree three levels';

/**
 * Clicks the first collapsed row below row `after` and waits for its children to render under it.
 * Rows are virtualised, so wait on the row's own state rather than on a growing row count.
 */
async function expandFirstCollapsedAfter(page, after) {
  const rows = page.locator('.part.sidebar [role="treeitem"]');
  const count = await rows.count();
  for (let i = after + 1; i < count; i++) {
    const row = rows.nth(i);
    if ((await row.getAttribute('aria-expanded')) !== 'false') continue;
    const level = Number(await row.getAttribute('aria-level'));
    await row.click();
    // Children are fetched from the emulator on expand.
    await page.waitForFunction(
      ({ index, level }) => {
        const all = document.querySelectorAll('.part.sidebar [role="treeitem"]');
        const next = all[index + 1];
        return all[index]?.getAttribute('aria-expanded') === 'true' && next && Number(next.getAttribute('aria-level')) === level + 1;
      },
      { index: i, level },
      { timeout: 60_000 },
    );
    return i;
  }
  throw new Error(`no collapsed row after row ${after}`);
}

export default async function run({ page, screenshot }) {
  await openViewContainer(page, 'DAM');
  await page.getByRole('button', { name: 'Start local emulator' }).click();
  // The first start seeds the demo tenant; the tree replaces the welcome view when connected.
  await page.locator('.part.sidebar [role="treeitem"]').first().waitFor({ state: 'visible', timeout: 180_000 });
  const status = page.locator('.statusbar-item', { hasText: 'DAM: Local emulator' });
  await status.first().waitFor({ state: 'visible', timeout: 30_000 });

  const first = await expandFirstCollapsedAfter(page, -1);
  const second = await expandFirstCollapsedAfter(page, first);
  await expandFirstCollapsedAfter(page, second);
  const levels = await page.locator('.part.sidebar [role="treeitem"]').evaluateAll((rows) => Math.max(...rows.map((r) => Number(r.getAttribute('aria-level') ?? 0))));
  if (levels < 4) throw new Error(`expected rows four levels deep (three expanded), saw ${levels}`);
  await screenshot('explorer-tree');
}
