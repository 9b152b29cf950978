// Records changed from the DAM Explorer and the palette, as a person does it from the packaged extension: a record
// row dragged onto another classification's row (asked Add or Move, Move chosen) leaves the classification it was
// dragged from and shows under the new one; Delete Record… asks first, naming the record, and its row goes; Update
// Records Matching Query… shows its dry run (how many, what changes) before it writes, then reports what it did.
// Opening, editing, saving and conflicts are in records.ui.mjs.
import { answer, contextMenu, dam, expand, pick, rowAt, runCommand, treeRows, waitForNotification } from './workbench.mjs';

export const title = 'records from the tree: classify by drag (move), delete with its confirmation, a bulk update with its dry run';
export const workbench = 'emulator';

const BULK_RECORD = 'Autumn office desk portrait 393';

const recordOf = (runDir, id) => JSON.parse(dam(runDir, 'records', 'get', id, '--json'));

/** The record a search for its exact title finds (the demo tenant's titles are unique). */
function recordTitled(runDir, title) {
  const hits = dam(runDir, 'search', `Title = "${title}"`, '--json').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  if (hits.length !== 1) throw new Error(`${hits.length} records titled ${title}`);
  return hits[0];
}

export default async function run({ page, runDir, screenshot }) {
  const sideRow = (text) => page.locator('.part.sidebar [role="treeitem"]', { hasText: text });

  // Products unfolded: its classifications first, then its own records.
  let rows = await treeRows(page);
  await expand(page, rowAt(page, rows.find((r) => r.level === 1 && r.label === 'Products').index));
  rows = await treeRows(page);
  const products = rows.findIndex((r) => r.level === 1 && r.label === 'Products');
  const kitchen = rows.find((r) => r.level === 2 && r.label === 'Kitchen');
  const subclasses = new Set(['Outdoor', 'Kitchen', 'Office', 'Garden']);
  const record = rows.slice(products + 1).find((r) => r.level === 2 && !subclasses.has(r.label));
  if (!kitchen || !record) throw new Error(`no Kitchen or record row under Products: ${JSON.stringify(rows.map((r) => r.label))}`);
  const recordTitle = record.label;
  const { id } = recordTitled(runDir, recordTitle);
  if (!recordOf(runDir, id).classifications.includes('/Products')) throw new Error(`${recordTitle} is not in /Products`);

  // Drag the record's row onto Kitchen's row; the drop asks whether to add or move, and Move takes it out of Products.
  const moveChoice = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Move to' }).first();
  await rowAt(page, record.index).dragTo(rowAt(page, kitchen.index));
  if (!(await moveChoice.waitFor({ state: 'visible', timeout: 5000 }).then(() => true, () => false))) {
    // Slower steps for a drag the first attempt did not start.
    const from = await rowAt(page, record.index).boundingBox();
    const to = await rowAt(page, kitchen.index).boundingBox();
    await page.mouse.move(from.x + 60, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + 70, from.y + from.height / 2 - 5, { steps: 5 });
    await page.mouse.move(to.x + 60, to.y + to.height / 2, { steps: 20 });
    await page.mouse.up();
    await moveChoice.waitFor({ state: 'visible', timeout: 15_000 });
  }
  await screenshot('record-drop');
  await pick(page, 'Move to');
  await sideRow(recordTitle).first().waitFor({ state: 'detached', timeout: 30_000 });
  const moved = recordOf(runDir, id).classifications;
  if (!moved.includes('/Products/Kitchen') || moved.includes('/Products')) throw new Error(`after the move the record is in ${moved.join(', ')}`);
  rows = await treeRows(page);
  await expand(page, rowAt(page, rows.find((r) => r.level === 2 && r.label === 'Kitchen').index));
  await sideRow(recordTitle).first().waitFor({ state: 'visible', timeout: 30_000 });

  // Delete asks first, naming the record; its row goes without a refresh of the tree.
  rows = await treeRows(page);
  await contextMenu(page, rowAt(page, rows.find((r) => r.label === recordTitle).index), 'Delete Record…');
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible' });
  if (!(await dialog.innerText()).includes(`“${recordTitle}”`)) throw new Error(`the confirmation does not name the record: ${await dialog.innerText()}`);
  await screenshot('record-delete');
  await dialog.locator('.monaco-button', { hasText: 'Delete' }).first().click();
  await sideRow(recordTitle).first().waitFor({ state: 'detached', timeout: 30_000 });
  let gone = false;
  try {
    recordOf(runDir, id);
  } catch (error) {
    gone = /no record|not found|NoDataFound/i.test(String(error.stderr ?? error.message));
    if (!gone) throw error;
  }
  if (!gone) throw new Error('the record is still on the tenant');

  // Bulk: the dry run first, then the update and its report.
  await runCommand(page, 'DAM: Update Records Matching Query…', { opensInput: true });
  await answer(page, 'search expression', `Title = "${BULK_RECORD}"`);
  await pick(page, 'Change status…');
  await pick(page, 'Archived');
  await dialog.waitFor({ state: 'visible', timeout: 60_000 });
  const dryRun = await dialog.innerText();
  if (!/Dry run: 1 record of 1/.test(dryRun) || !/status → Archived: 1 record/.test(dryRun)) throw new Error(`the dry run does not say what would change: ${dryRun}`);
  await screenshot('bulk-dry-run');
  const before = recordTitled(runDir, BULK_RECORD);
  if (before.status === 'Archived') throw new Error('the dry run wrote the status');
  await dialog.locator('.monaco-button', { hasText: 'Update 1 Record' }).click();
  await waitForNotification(page, /update on .*1 changed, 0 unchanged, 0 failed/, 60_000);
  if (recordOf(runDir, before.id).status !== 'Archived') throw new Error('the bulk update did not change the status');
}
