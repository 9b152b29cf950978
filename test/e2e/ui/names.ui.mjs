// Names where people look, ids only in hovers and Copy Id (issue 21, item 7), and the smaller items of 10
// met on the way: Find ranks the record titled exactly as typed first, and the empty Check Results view
// says what it is for. A file row reads as "Master file of <record>", a version opens in a tab named after
// its file with the record's title in the breadcrumbs, the Check Results view's title names the file,
// and a check published for the first time shows its name, not "Check f33c…".
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contextMenu, expand, expandPane, findInDam, openFile, pick, rowAt, runCommand, treeRow, treeRows } from './workbench.mjs';

export const title = 'names instead of ids: tree rows, tab, breadcrumbs, Check Results, a new check; Find ranks the exact title first';
export const workbench = 'emulator';

const HEX_ID = /\b[0-9a-f]{32}\b|\b[0-9a-f]{8}(?:…|\.\.\.)/i;

function assertNoIds(what, text) {
  if (HEX_ID.test(text)) throw new Error(`${what} shows an id: ${text}`);
}

export default async function run({ page, screenshot, workspace }) {
  // The empty Check Results view explains itself (it starts folded: unfold it).
  await expandPane(page, 'Check Results');
  const checkPane = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Check Results' }) }).first();
  await checkPane.getByText('The check results of a file version show here').waitFor({ state: 'visible', timeout: 15_000 });

  // An image record's exact title, found again with Find in DAM: it comes first among the results.
  await expand(page, treeRow(page, 'Products'));
  const images = await page.locator('.part.sidebar [role="treeitem"][aria-level="2"]').filter({ has: page.locator('.codicon-file-media') }).locator('.label-name').allInnerTexts();
  const title = images.map((t) => t.trim()).filter(Boolean).at(-1);
  if (!title) throw new Error('no image record under Products');
  await findInDam(page, title);
  let rows = await treeRows(page);
  const results = rows.find((r) => r.label.startsWith('Results for'));
  const first = rows.find((r) => r.index === results.index + 1);
  if (first?.label !== title) throw new Error(`Find put “${first?.label}” first, not the record titled exactly “${title}”`);

  // Down to the newest version: rows named, not numbered by id.
  await expand(page, rowAt(page, first.index));
  rows = await treeRows(page);
  const file = rows.find((r) => r.index > first.index && r.label === 'Master file');
  if (!file) throw new Error(`no Master file row under ${title}`);
  assertNoIds('the file row', file.aria);
  if (!file.aria.includes(title)) throw new Error(`the file row's accessible name does not say whose file it is: ${file.aria}`);
  await expand(page, rowAt(page, file.index));
  rows = await treeRows(page);
  const version = rows.find((r) => r.index > file.index && r.level === file.level + 1 && /latest/.test(r.aria));
  if (!version) throw new Error('no latest version row');
  const fileName = version.label.split(' · ').at(-1);

  // Its preview: a tab named after the file, breadcrumbs with the record's title and no id.
  await rowAt(page, version.index).locator('.label-name').click();
  const tab = page.locator('.tabs-container .tab.active');
  await tab.filter({ hasText: fileName }).waitFor({ state: 'visible', timeout: 30_000 });
  const crumbs = (await page.locator('.part.editor .breadcrumbs-control').first().innerText()).replace(/\s+/g, ' ');
  assertNoIds('the breadcrumbs', crumbs);
  if (!crumbs.includes(title)) throw new Error(`the breadcrumbs do not name the record: ${crumbs}`);

  // Show Check Results: the view's header names the file, not the version's id.
  await contextMenu(page, rowAt(page, version.index), 'Show Check Results');
  const header = page.locator('.part.sidebar .pane-header', { hasText: 'Check Results' }).first();
  await header.filter({ hasText: fileName }).waitFor({ state: 'visible', timeout: 30_000 });
  assertNoIds('the Check Results header', await header.innerText());

  // A check published for the first time shows its name in both trees.
  const check = `Caption spelling ${Date.now().toString(36)}`;
  writeFileSync(join(workspace, 'caption.dam-check.json'), JSON.stringify({ check, category: 'Message Clarity', outcome: 'warning', description: 'Two captions need a second look.', findings: [] }, null, 2));
  await rowAt(page, version.index).click({ position: { x: 200, y: 5 } });
  await openFile(page, join(workspace, 'caption.dam-check.json'));
  await runCommand(page, 'DAM: Publish Check Result…', { opensInput: true });
  await pick(page, 'Publish the result');
  await checkPane.locator('[role="treeitem"]', { hasText: check }).first().waitFor({ state: 'visible', timeout: 30_000 });
  await expand(page, rowAt(page, version.index));
  rows = await treeRows(page);
  const below = rows.filter((r) => r.index > version.index && r.level === version.level + 1).map((r) => r.label);
  for (const label of below) assertNoIds('a row below the version', label);
  if (below.some((l) => /^Check /.test(l)) || !below.includes(check)) throw new Error(`the new check is not shown by its name below the version: ${JSON.stringify(below)}`);
  await screenshot('names');

  // Open Preview on a document's record: its data, named after it (there is no image: the thumbnail is 404).
  await findInDam(page, 'ContentType = Document');
  const doc = page.locator('.part.sidebar [role="treeitem"][aria-level="2"]').filter({ has: page.locator('.codicon-file-pdf') }).first();
  const docTitle = (await doc.locator('.label-name').innerText()).trim();
  await contextMenu(page, doc, 'Open Preview');
  await page.locator('.tabs-container .tab.active', { hasText: `${docTitle}.json` }).waitFor({ state: 'visible', timeout: 30_000 });
  if (await page.getByText('An error occurred while loading the image').isVisible()) throw new Error('Open Preview showed a broken image');
}
