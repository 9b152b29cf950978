// With the local emulator started from the welcome view (the shared workbench), a person expands the
// classification tree three levels, then an image record down to its file versions and what is below the
// newest one; the screenshots show the expanded tree.
export const title = 'explorer: expand the tree three levels, a record down to its versions, its hover';
import { viewRows } from './workbench.mjs';

export const workbench = 'emulator';

/**
 * Clicks the first collapsed row below row `after` and waits for its children to render under it.
 * Rows are virtualised, so wait on the row's own state rather than on a growing row count.
 */
async function expandFirstCollapsedAfter(page, after) {
  const rows = viewRows(page);
  const count = await rows.count();
  for (let i = after + 1; i < count; i++) {
    const row = rows.nth(i);
    if ((await row.getAttribute('aria-expanded')) !== 'false') continue;
    await expandRow(page, i);
    return i;
  }
  throw new Error(`no collapsed row after row ${after}`);
}

/** Clicks row `index` and waits until its children are rendered one level below it. */
async function expandRow(page, index) {
  const row = viewRows(page).nth(index);
  const level = Number(await row.getAttribute('aria-level'));
  // The twistie, not the row: a version row's own click opens its preview.
  await row.locator('.monaco-tl-twistie').click();
  // Children are fetched from the emulator on expand.
  await page.waitForFunction(
    ({ index, level }) => {
      const pane = [...document.querySelectorAll('.part.sidebar .pane')].find((p) => p.querySelector('.pane-header')?.textContent?.includes('DAM Explorer'));
      const all = pane?.querySelectorAll('[role="treeitem"]') ?? [];
      const next = all[index + 1];
      return all[index]?.getAttribute('aria-expanded') === 'true' && next && Number(next.getAttribute('aria-level')) === level + 1;
    },
    { index, level },
    { timeout: 60_000 },
  );
}

/** Index of the first collapsed row after `after` whose text matches `pattern` (and has `icon`, when given). */
async function findRow(page, after, pattern, icon) {
  return viewRows(page).evaluateAll(
    (rows, { after, source, icon }) => {
      const re = new RegExp(source);
      return rows.findIndex((r, i) => i > after && r.getAttribute('aria-expanded') === 'false' && re.test(r.textContent ?? '') && (!icon || r.querySelector(`.codicon-${icon}`)));
    },
    { after, source: pattern.source, icon },
  );
}

export default async function run({ page, screenshot }) {
  const first = await expandFirstCollapsedAfter(page, -1);
  const second = await expandFirstCollapsedAfter(page, first);
  await expandFirstCollapsedAfter(page, second);
  const levels = await viewRows(page).evaluateAll((rows) => Math.max(...rows.map((r) => Number(r.getAttribute('aria-level') ?? 0))));
  if (levels < 4) throw new Error(`expected rows four levels deep (three expanded), saw ${levels}`);
  await screenshot('explorer-tree');

  // Below a record: an image record row (its description carries the status), expanded to its master
  // file, its versions, and what is below the newest version.
  let record = await findRow(page, -1, /Draft|Released|Archived/, 'file-media');
  if (record < 0) record = await findRow(page, -1, /Draft|Released|Archived/);
  if (record < 0) throw new Error('no record row under the expanded classifications');
  await expandRow(page, record);
  const file = await findRow(page, record, /Master file/);
  if (file < 0) throw new Error('no "Master file" row under the record');
  await expandRow(page, file);
  const version = await findRow(page, file, /latest/);
  if (version < 0) throw new Error('no version row marked latest under the master file');
  await expandRow(page, version);
  await viewRows(page).nth(record).scrollIntoViewIfNeeded();
  const texts = await viewRows(page).allTextContents();
  if (!texts.some((t) => /Master file/.test(t)) || !texts.some((t) => /latest/.test(t))) throw new Error('files and versions are not shown');
  await screenshot('explorer-record-files');

  // The record's hover shows its thumbnail (fetched through the client and embedded as a data URI).
  await viewRows(page).nth(record).locator('.label-name').hover();
  await page.locator('.monaco-hover img[src^="data:image/"]').first().waitFor({ state: 'visible', timeout: 30_000 });
  // Its dates as people read them, not '2025-10-11T18:15:56.824Z'.
  const hover = await page.locator('.monaco-hover').first().innerText();
  if (/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(hover) || !/Modified: \d{4}-\d{2}-\d{2} \d{2}:\d{2}/.test(hover)) throw new Error(`the hover shows raw timestamps: ${hover}`);
  await screenshot('explorer-record-hover');
}
